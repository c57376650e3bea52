package model

import (
	"strconv"
	"strings"

	"github.com/tcheck/tcheck/model/syntax"
)

// exprString prints an expression for messages (fully parenthesised where
// the tree has parentheses; operators spaced as people write them).
func exprString(x syntax.Expr) string {
	var p exprPrinter
	p.write(x)
	return p.b.String()
}

// exprStrings returns exprString of x and of each of its subexpressions,
// all substrings of the first: a formula keeps the text of each of its
// nodes (Formula.Src), and printing each node's subtree on its own took
// time and memory quadratic in a long chain of conjuncts (100,000 clock
// constraints joined by && took over 22 GB).
func exprStrings(x syntax.Expr) map[syntax.Expr]string {
	p := exprPrinter{spans: map[syntax.Expr][2]int{}}
	p.write(x)
	all := p.b.String()
	out := make(map[syntax.Expr]string, len(p.spans))
	for e, sp := range p.spans {
		out[e] = all[sp[0]:sp[1]]
	}
	return out
}

// exprPrinter prints expressions into b, and where spans is not nil
// records where each subexpression's text starts and ends.
type exprPrinter struct {
	b     strings.Builder
	spans map[syntax.Expr][2]int
}

func (p *exprPrinter) write(x syntax.Expr) {
	start := p.b.Len()
	p.writeNode(x)
	if p.spans != nil && x != nil {
		p.spans[x] = [2]int{start, p.b.Len()}
	}
}

func (p *exprPrinter) writeNode(x syntax.Expr) {
	b := &p.b
	switch x := x.(type) {
	case nil:
		b.WriteString("?")
	case *syntax.IntLit:
		b.WriteString(strconv.FormatInt(x.Value, 10))
	case *syntax.BoolLit:
		b.WriteString(strconv.FormatBool(x.Value))
	case *syntax.Ident:
		b.WriteString(x.Name)
	case *syntax.ParenExpr:
		b.WriteByte('(')
		p.write(x.X)
		b.WriteByte(')')
	case *syntax.IndexExpr:
		p.write(x.X)
		b.WriteByte('[')
		p.write(x.Index)
		b.WriteByte(']')
	case *syntax.MemberExpr:
		p.write(x.X)
		b.WriteByte('.')
		b.WriteString(x.Name)
	case *syntax.CallExpr:
		p.write(x.Fun)
		b.WriteByte('(')
		for i, a := range x.Args {
			if i > 0 {
				b.WriteString(", ")
			}
			p.write(a)
		}
		b.WriteByte(')')
	case *syntax.UnaryExpr:
		b.WriteString(x.Op.String())
		p.write(x.X)
	case *syntax.IncDecExpr:
		if x.Prefix {
			b.WriteString(x.Op.String())
			p.write(x.X)
		} else {
			p.write(x.X)
			b.WriteString(x.Op.String())
		}
	case *syntax.RateExpr:
		p.write(x.X)
		b.WriteByte('\'')
	case *syntax.BinaryExpr:
		p.write(x.X)
		b.WriteString(" " + x.Op.String() + " ")
		p.write(x.Y)
	case *syntax.CondExpr:
		p.write(x.Cond)
		b.WriteString(" ? ")
		p.write(x.Then)
		b.WriteString(" : ")
		p.write(x.Else)
	case *syntax.AssignExpr:
		p.write(x.LHS)
		b.WriteString(" " + x.Op.String() + " ")
		p.write(x.RHS)
	case *syntax.QuantExpr:
		b.WriteString(x.Op.String() + " (" + x.Var + " : ...) ")
		p.write(x.Body)
	case *syntax.DeadlockExpr:
		b.WriteString("deadlock")
	case *syntax.InitList:
		b.WriteByte('{')
		for i, a := range x.Elems {
			if i > 0 {
				b.WriteString(", ")
			}
			p.write(a)
		}
		b.WriteByte('}')
	default:
		b.WriteString("?")
	}
}

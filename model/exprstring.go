package model

import (
	"strconv"
	"strings"

	"github.com/tcheck/tcheck/model/syntax"
)

// exprString prints an expression for messages (fully parenthesised where
// the tree has parentheses; operators spaced as people write them).
func exprString(x syntax.Expr) string {
	var b strings.Builder
	writeExpr(&b, x)
	return b.String()
}

func writeExpr(b *strings.Builder, x syntax.Expr) {
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
		writeExpr(b, x.X)
		b.WriteByte(')')
	case *syntax.IndexExpr:
		writeExpr(b, x.X)
		b.WriteByte('[')
		writeExpr(b, x.Index)
		b.WriteByte(']')
	case *syntax.MemberExpr:
		writeExpr(b, x.X)
		b.WriteByte('.')
		b.WriteString(x.Name)
	case *syntax.CallExpr:
		writeExpr(b, x.Fun)
		b.WriteByte('(')
		for i, a := range x.Args {
			if i > 0 {
				b.WriteString(", ")
			}
			writeExpr(b, a)
		}
		b.WriteByte(')')
	case *syntax.UnaryExpr:
		b.WriteString(x.Op.String())
		writeExpr(b, x.X)
	case *syntax.IncDecExpr:
		if x.Prefix {
			b.WriteString(x.Op.String())
			writeExpr(b, x.X)
		} else {
			writeExpr(b, x.X)
			b.WriteString(x.Op.String())
		}
	case *syntax.RateExpr:
		writeExpr(b, x.X)
		b.WriteByte('\'')
	case *syntax.BinaryExpr:
		writeExpr(b, x.X)
		b.WriteString(" " + x.Op.String() + " ")
		writeExpr(b, x.Y)
	case *syntax.CondExpr:
		writeExpr(b, x.Cond)
		b.WriteString(" ? ")
		writeExpr(b, x.Then)
		b.WriteString(" : ")
		writeExpr(b, x.Else)
	case *syntax.AssignExpr:
		writeExpr(b, x.LHS)
		b.WriteString(" " + x.Op.String() + " ")
		writeExpr(b, x.RHS)
	case *syntax.QuantExpr:
		b.WriteString(x.Op.String() + " (" + x.Var + " : ...) ")
		writeExpr(b, x.Body)
	case *syntax.DeadlockExpr:
		b.WriteString("deadlock")
	case *syntax.InitList:
		b.WriteByte('{')
		for i, a := range x.Elems {
			if i > 0 {
				b.WriteString(", ")
			}
			writeExpr(b, a)
		}
		b.WriteByte('}')
	default:
		b.WriteString("?")
	}
}

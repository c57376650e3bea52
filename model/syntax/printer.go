package syntax

import (
	"strconv"
	"strings"
)

// Format renders a node as canonical UPPAAL source. Parsing the result gives
// the same tree (ignoring positions). For trees built by hand, parentheses
// are added where the tree's structure needs them, so the text always means
// what the tree means. Keyword spellings are normalised: `and`, `or`, `not`
// and `:=` are printed as `&&`, `||`, `!` and `=`.
//
// Declarations are printed without a trailing newline; functions and
// statements span several lines, indented by four spaces.
func Format(n Node) string {
	p := &printer{}
	p.node(n)
	return p.b.String()
}

// FormatDecls renders declarations, one per line (functions on several
// lines), each followed by a newline.
func FormatDecls(ds []Decl) string {
	p := &printer{}
	for _, d := range ds {
		p.node(d)
		p.b.WriteByte('\n')
	}
	return p.b.String()
}

// FormatUpdate renders an update list as `e1, e2, ...`.
func FormatUpdate(es []Expr) string {
	p := &printer{}
	p.exprList(es)
	return p.b.String()
}

// FormatSelect renders a select label as `i : int[0, 3], j : pid_t`.
func FormatSelect(bs []*SelectBinding) string {
	p := &printer{}
	for i, b := range bs {
		if i > 0 {
			p.b.WriteString(", ")
		}
		p.node(b)
	}
	return p.b.String()
}

// FormatParams renders a parameter list as `const pid_t id, int &x`.
func FormatParams(ps []*Param) string {
	p := &printer{}
	p.params(ps)
	return p.b.String()
}

// formatFull renders an expression with every operator application in
// parentheses, showing the tree's shape (used by tests and debugging).
func formatFull(n Node) string {
	p := &printer{full: true}
	p.node(n)
	return p.b.String()
}

type printer struct {
	b      strings.Builder
	indent int
	full   bool // parenthesise every operator application
}

func (p *printer) str(s string) { p.b.WriteString(s) }

func (p *printer) newline() {
	p.b.WriteByte('\n')
	for i := 0; i < p.indent; i++ {
		p.b.WriteString("    ")
	}
}

func (p *printer) node(n Node) {
	switch n := n.(type) {
	case nil:
	case Expr:
		p.expr(n, precNone, true)
	case Stmt:
		p.stmt(n)
	case Decl:
		p.decl(n)
	case *TypeExpr:
		p.typ(n)
	case *RangeExpr:
		p.rangeExpr(n)
	case *Declarator:
		p.declarator(n)
	case *Param:
		p.param(n)
	case *SelectBinding:
		p.str(n.Name)
		p.str(" : ")
		p.typ(n.Type)
	case *Sync:
		p.expr(n.Chan, precPostfix, false)
		if n.Send {
			p.str("!")
		} else {
			p.str("?")
		}
	case *Query:
		p.query(n)
	default:
		p.str("<?>")
	}
}

// ---------------------------------------------------------------------------
// Expressions

// exprPrec is the precedence level at which e would be parsed without
// parentheses.
func exprPrec(e Expr) int {
	switch e := e.(type) {
	case *AssignExpr:
		return precAssign
	case *CondExpr:
		return precCond
	case *BinaryExpr:
		return binaryPrec(e.Op)
	case *UnaryExpr, *QuantExpr:
		return precUnary
	case *IncDecExpr:
		if e.Prefix {
			return precUnary
		}
		return precPostfix
	case *IndexExpr, *MemberExpr, *CallExpr, *RateExpr:
		return precPostfix
	}
	return precPrimary
}

// expr prints e where the context requires precedence at least min. tail
// says whether e ends the enclosing expression (only a delimiter or the end
// can follow); a quantifier anywhere else must be parenthesised because its
// body would swallow what follows.
func (p *printer) expr(e Expr, min int, tail bool) {
	paren := exprPrec(e) < min
	if _, ok := e.(*QuantExpr); ok && !tail {
		paren = true
	}
	if p.full {
		switch e.(type) {
		case *AssignExpr, *CondExpr, *BinaryExpr, *UnaryExpr, *QuantExpr, *IncDecExpr:
			paren = true
		}
	}
	if paren {
		p.str("(")
		p.exprInner(e, true)
		p.str(")")
		return
	}
	p.exprInner(e, tail)
}

func (p *printer) exprInner(e Expr, tail bool) {
	switch e := e.(type) {
	case nil:
		p.str("<nil>")
	case *IntLit:
		p.str(strconv.FormatInt(e.Value, 10))
	case *BoolLit:
		p.str(strconv.FormatBool(e.Value))
	case *Ident:
		p.str(e.Name)
	case *DeadlockExpr:
		p.str("deadlock")
	case *ParenExpr:
		p.str("(")
		if p.full {
			p.exprInner(e.X, true) // the user's parentheses already show the grouping
		} else {
			p.expr(e.X, precNone, true)
		}
		p.str(")")
	case *IndexExpr:
		p.expr(e.X, precPostfix, false)
		p.str("[")
		p.expr(e.Index, precNone, true)
		p.str("]")
	case *MemberExpr:
		p.expr(e.X, precPostfix, false)
		p.str(".")
		p.str(e.Name)
	case *CallExpr:
		p.expr(e.Fun, precPostfix, false)
		p.str("(")
		p.exprList(e.Args)
		p.str(")")
	case *UnaryExpr:
		p.prefix(e.Op.String(), e.X, tail)
	case *IncDecExpr:
		if e.Prefix {
			p.prefix(e.Op.String(), e.X, tail)
			return
		}
		p.expr(e.X, precPostfix, false)
		p.str(e.Op.String())
	case *RateExpr:
		p.expr(e.X, precPostfix, false)
		p.str("'")
	case *BinaryExpr:
		prec := binaryPrec(e.Op)
		p.expr(e.X, prec, false)
		p.str(" ")
		p.str(e.Op.String())
		p.str(" ")
		p.expr(e.Y, prec+1, tail)
	case *CondExpr:
		p.expr(e.Cond, precOr, false)
		p.str(" ? ")
		p.expr(e.Then, precNone, true)
		p.str(" : ")
		p.expr(e.Else, precAssign, tail)
	case *AssignExpr:
		p.expr(e.LHS, precOr, false)
		p.str(" ")
		p.str(e.Op.String())
		p.str(" ")
		p.expr(e.RHS, precAssign, tail)
	case *QuantExpr:
		p.str(e.Op.String())
		p.str(" (")
		p.str(e.Var)
		p.str(" : ")
		p.typ(e.Type)
		p.str(") ")
		p.expr(e.Body, precNone, tail)
	case *InitList:
		p.str("{")
		p.exprList(e.Elems)
		p.str("}")
	default:
		p.str("<?>")
	}
}

// prefix prints a prefix operator and its operand, separating them by a
// space where the two would otherwise lex differently (`- -x`, `+ ++x`).
func (p *printer) prefix(op string, x Expr, tail bool) {
	sub := &printer{full: p.full}
	sub.expr(x, precUnary, tail)
	s := sub.b.String()
	p.str(op)
	last := op[len(op)-1]
	if (last == '+' || last == '-') && s != "" && (s[0] == '+' || s[0] == '-') {
		p.str(" ")
	}
	p.str(s)
}

func (p *printer) exprList(es []Expr) {
	for i, e := range es {
		if i > 0 {
			p.str(", ")
		}
		p.expr(e, precNone, true)
	}
}

// ---------------------------------------------------------------------------
// Types and declarations

func (p *printer) typ(t *TypeExpr) {
	if t == nil {
		p.str("<nil>")
		return
	}
	for _, f := range []struct {
		set  bool
		text string
	}{{t.Const, "const "}, {t.Meta, "meta "}, {t.Urgent, "urgent "}, {t.Broadcast, "broadcast "}, {t.Hybrid, "hybrid "}} {
		if f.set {
			p.str(f.text)
		}
	}
	switch t.Kind {
	case TInt:
		p.str("int")
		if t.Range != nil {
			p.rangeExpr(t.Range)
		}
	case TBool:
		p.str("bool")
	case TClock:
		p.str("clock")
	case TChan:
		p.str("chan")
	case TVoid:
		p.str("void")
	case TNamed:
		p.str(t.Name)
	case TStruct:
		p.str("struct {")
		for _, f := range t.Fields {
			p.str(" ")
			p.varDecl(f)
		}
		p.str(" }")
	case TScalar:
		p.str("scalar")
		if t.Range != nil {
			p.rangeExpr(t.Range)
		}
	case TDouble:
		p.str("double")
	case TString:
		p.str("string")
	default:
		p.str("<?>")
	}
}

// rangeExpr prints `[lo, hi]`, or `[hi]` for a scalar size.
func (p *printer) rangeExpr(r *RangeExpr) {
	p.str("[")
	if r.Lo != nil {
		p.expr(r.Lo, precNone, true)
		p.str(", ")
	}
	p.expr(r.Hi, precNone, true)
	p.str("]")
}

func (p *printer) dims(ds []Expr) {
	for _, d := range ds {
		p.str("[")
		p.expr(d, precNone, true)
		p.str("]")
	}
}

func (p *printer) declarator(d *Declarator) {
	p.str(d.Name)
	p.dims(d.Dims)
	if d.Init != nil {
		p.str(" = ")
		p.expr(d.Init, precNone, true)
	}
}

func (p *printer) declarators(ds []*Declarator) {
	for i, d := range ds {
		if i > 0 {
			p.str(", ")
		}
		p.declarator(d)
	}
}

func (p *printer) varDecl(d *VarDecl) {
	p.typ(d.Type)
	p.str(" ")
	p.declarators(d.Names)
	p.str(";")
}

func (p *printer) param(pa *Param) {
	p.typ(pa.Type)
	p.str(" ")
	if pa.Ref {
		p.str("&")
	}
	p.str(pa.Name)
	p.dims(pa.Dims)
}

func (p *printer) params(ps []*Param) {
	for i, pa := range ps {
		if i > 0 {
			p.str(", ")
		}
		p.param(pa)
	}
}

func (p *printer) decl(d Decl) {
	switch d := d.(type) {
	case *VarDecl:
		p.varDecl(d)
	case *TypedefDecl:
		p.str("typedef ")
		p.typ(d.Type)
		p.str(" ")
		p.declarators(d.Names)
		p.str(";")
	case *FuncDecl:
		p.typ(d.Result)
		p.str(" ")
		p.str(d.Name)
		p.str("(")
		p.params(d.Params)
		p.str(")")
		p.newline()
		if d.Body == nil {
			p.str("{")
			p.newline()
			p.str("}")
			return
		}
		p.stmt(d.Body)
	case *InstanceDecl:
		p.str(d.Name)
		if d.Params != nil {
			p.str("(")
			p.params(d.Params)
			p.str(")")
		}
		p.str(" = ")
		p.str(d.Template)
		p.str("(")
		p.exprList(d.Args)
		p.str(");")
	case *SystemDecl:
		p.str("system ")
		for i, g := range d.Groups {
			if i > 0 {
				p.str(" < ")
			}
			for j, id := range g {
				if j > 0 {
					p.str(", ")
				}
				p.str(id.Name)
			}
		}
		p.str(";")
	case *ChanPriorityDecl:
		p.str("chan priority ")
		for i, l := range d.Levels {
			if i > 0 {
				p.str(" < ")
			}
			for j, x := range l {
				if j > 0 {
					p.str(", ")
				}
				if x == nil {
					p.str("default")
				} else {
					p.expr(x, precNone, false)
				}
			}
		}
		p.str(";")
	default:
		p.str("<?>")
	}
}

// ---------------------------------------------------------------------------
// Statements

// stmt prints a statement starting at the current position; a multi-line
// statement's later lines are indented at the current level.
func (p *printer) stmt(s Stmt) {
	switch s := s.(type) {
	case nil:
		p.str(";")
	case *BlockStmt:
		p.str("{")
		p.indent++
		for _, st := range s.Stmts {
			p.newline()
			p.stmt(st)
		}
		p.indent--
		p.newline()
		p.str("}")
	case *DeclStmt:
		p.decl(s.Decl)
	case *ExprStmt:
		p.expr(s.X, precNone, true)
		p.str(";")
	case *EmptyStmt:
		p.str(";")
	case *IfStmt:
		p.str("if (")
		p.expr(s.Cond, precNone, true)
		p.str(")")
		then := s.Then
		if s.Else != nil && endsWithOpenIf(then) {
			// Keep the else with this if: `if (a) { if (b) x; } else y;`.
			then = &BlockStmt{Stmts: []Stmt{then}}
		}
		p.body(then)
		if s.Else == nil {
			return
		}
		if _, ok := then.(*BlockStmt); ok {
			p.str(" else")
		} else {
			p.newline()
			p.str("else")
		}
		if elif, ok := s.Else.(*IfStmt); ok {
			p.str(" ")
			p.stmt(elif)
			return
		}
		p.body(s.Else)
	case *ForStmt:
		p.str("for (")
		p.exprList(s.Init)
		p.str(";")
		if s.Cond != nil {
			p.str(" ")
			p.expr(s.Cond, precNone, true)
		}
		p.str(";")
		if len(s.Post) > 0 {
			p.str(" ")
			p.exprList(s.Post)
		}
		p.str(")")
		p.body(s.Body)
	case *RangeForStmt:
		p.str("for (")
		p.str(s.Var)
		p.str(" : ")
		p.typ(s.Type)
		p.str(")")
		p.body(s.Body)
	case *WhileStmt:
		p.str("while (")
		p.expr(s.Cond, precNone, true)
		p.str(")")
		p.body(s.Body)
	case *DoWhileStmt:
		p.str("do")
		p.body(s.Body)
		if _, ok := s.Body.(*BlockStmt); ok {
			p.str(" ")
		} else {
			p.newline()
		}
		p.str("while (")
		p.expr(s.Cond, precNone, true)
		p.str(");")
	case *ReturnStmt:
		p.str("return")
		if s.Value != nil {
			p.str(" ")
			p.expr(s.Value, precNone, true)
		}
		p.str(";")
	case *BreakStmt:
		p.str("break;")
	case *ContinueStmt:
		p.str("continue;")
	default:
		p.str("<?>")
	}
}

// body prints the body of a compound statement: a block on the same line,
// anything else indented on the next line.
func (p *printer) body(s Stmt) {
	if b, ok := s.(*BlockStmt); ok {
		p.str(" ")
		p.stmt(b)
		return
	}
	p.indent++
	p.newline()
	p.stmt(s)
	p.indent--
}

// endsWithOpenIf reports whether s ends with an if statement without else,
// which would capture a following else.
func endsWithOpenIf(s Stmt) bool {
	switch s := s.(type) {
	case *IfStmt:
		if s.Else == nil {
			return true
		}
		return endsWithOpenIf(s.Else)
	case *ForStmt:
		return endsWithOpenIf(s.Body)
	case *RangeForStmt:
		return endsWithOpenIf(s.Body)
	case *WhileStmt:
		return endsWithOpenIf(s.Body)
	}
	return false
}

// ---------------------------------------------------------------------------
// Queries

func (p *printer) query(q *Query) {
	switch q.Kind {
	case QueryEF, QueryAG, QueryEG, QueryAF:
		p.str(q.Kind.String())
		p.str(" ")
		p.expr(q.Formula, precNone, true)
	case QueryLeadsTo:
		p.expr(q.Formula, precNone, true)
		p.str(" --> ")
		p.expr(q.Formula2, precNone, true)
	case QuerySup, QueryInf:
		p.str(q.Kind.String())
		if q.Formula != nil {
			p.str("{")
			p.expr(q.Formula, precNone, true)
			p.str("}")
		}
		p.str(": ")
		p.exprList(q.Exprs)
	default:
		p.str("<?>")
	}
}

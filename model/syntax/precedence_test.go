package syntax

import "testing"

// TestPrecedence checks operator precedence and associativity against the
// table of the UPPAAL documentation ("Expressions", section Precedence; see
// doc.go): each source is shown fully parenthesised.
func TestPrecedence(t *testing.T) {
	for _, tc := range precedenceTests {
		t.Run(tc.src, func(t *testing.T) {
			e, err := ParseExpr(tc.src)
			if err != nil {
				t.Fatal(err)
			}
			if got := formatFull(e); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
			checkRoundTrip(t, kindExpr, tc.src)
		})
	}
}

// precedenceTests pairs expressions with their fully parenthesised form.
var precedenceTests = []struct{ src, want string }{
	// postfix binds tighter than prefix
	{"-a[1]", "(-a[1])"},
	{"!P(1).x", "(!P(1).x)"},
	{"-x++", "(-(x++))"},
	{"++x[1]", "(++x[1])"},
	{"!!a", "(!(!a))"},
	{"not not a", "(!(!a))"},
	{"~-a", "(~(-a))"},
	// prefix binds tighter than * / %
	{"-a * b", "((-a) * b)"},
	{"!a * b", "((!a) * b)"},
	// ** (UPPAAL 5, libutap's %left T_POWOP) between prefix and * / %, left associative
	{"-a ** b", "((-a) ** b)"},
	{"a * b ** c", "(a * (b ** c))"},
	{"a ** b * c", "((a ** b) * c)"},
	{"a ** b ** c", "((a ** b) ** c)"},
	{"a ** -b", "(a ** (-b))"},
	{"a ** b[1]", "(a ** b[1])"},
	// * / % left associative, above + -
	{"a / b * c % d", "(((a / b) * c) % d)"},
	{"a + b * c", "(a + (b * c))"},
	{"a - b - c", "((a - b) - c)"},
	// + - above << >>
	{"a << b + c", "(a << (b + c))"},
	{"a >> b >> c", "((a >> b) >> c)"},
	// << >> above <? >?
	{"a <? b << c", "(a <? (b << c))"},
	{"a >? b <? c", "((a >? b) <? c)"},
	// <? >? above relations
	{"a < b <? c", "(a < (b <? c))"},
	// relations above equality
	{"a < b == c >= d", "((a < b) == (c >= d))"},
	{"a < b < c", "((a < b) < c)"},
	// equality above &
	{"a & b == c", "(a & (b == c))"},
	{"a == b != c", "((a == b) != c)"},
	// & above ^ above |
	{"a | b ^ c & d", "(a | (b ^ (c & d)))"},
	{"a & b | c ^ d", "((a & b) | (c ^ d))"},
	// | above && and
	{"a && b | c", "(a && (b | c))"},
	// && and "and" share a level, above || "or" "imply"
	{"a || b && c", "(a || (b && c))"},
	{"a or b and c", "(a || (b && c))"},
	{"a and b && c", "((a && b) && c)"},
	{"a && b and c || d", "(((a && b) && c) || d)"},
	// || or imply share a level and associate to the left
	{"a imply b imply c", "((a imply b) imply c)"},
	{"a || b imply c", "((a || b) imply c)"},
	{"a imply b || c", "((a imply b) || c)"},
	{"a imply b && c", "(a imply (b && c))"},
	{"a or b imply c or d", "(((a || b) imply c) || d)"},
	// "not" is the same as "!"
	{"not a && b", "((!a) && b)"},
	{"not a imply b", "((!a) imply b)"},
	// ?: below || and right associative
	{"a || b ? c : d", "((a || b) ? c : d)"},
	{"a imply b ? c : d", "((a imply b) ? c : d)"},
	{"a ? b : c ? d : e", "(a ? b : (c ? d : e))"},
	{"a ? b ? c : d : e", "(a ? (b ? c : d) : e)"},
	// assignments below ?: and right associative
	{"a = b ? c : d", "(a = (b ? c : d))"},
	{"a = b = c", "(a = (b = c))"},
	{"a += b -= c", "(a += (b -= c))"},
	{"a := b || c", "(a = (b || c))"},
	{"x = a imply b", "(x = (a imply b))"},
	{"a ? b : c = d", "(a ? b : (c = d))"},
	// quantifiers bind weakest: the body extends as far right as possible
	{"forall (i : T) a && b", "(forall (i : T) (a && b))"},
	{"forall (i : T) a imply b", "(forall (i : T) (a imply b))"},
	{"exists (i : T) x = 1", "(exists (i : T) (x = 1))"},
	{"a && forall (i : T) b && c", "(a && (forall (i : T) (b && c)))"},
	{"a imply exists (i : T) b || c", "(a imply (exists (i : T) (b || c)))"},
	{"!forall (i : T) a || b", "(!(forall (i : T) (a || b)))"},
	{"1 + sum (i : T) a[i] * 2", "(1 + (sum (i : T) (a[i] * 2)))"},
	{"forall (i : T) forall (j : T) a[i] == a[j]", "(forall (i : T) (forall (j : T) (a[i] == a[j])))"},
	{"a ? forall (i : T) b : c", "(a ? (forall (i : T) b) : c)"},
	{"(forall (i : T) a) && b", "((forall (i : T) a) && b)"},
	{"f(forall (i : T) a, b)", "f((forall (i : T) a), b)"},
	// the examples of the seed models
	{"forall (i : pid_t) forall (j : pid_t) (dec[i] >= 0 && dec[j] >= 0) imply dec[i] == dec[j]",
		"(forall (i : pid_t) (forall (j : pid_t) (((dec[i] >= 0) && (dec[j] >= 0)) imply (dec[i] == dec[j]))))"},
	{"(exists (i : pid_t) Proc(i).wait) imply t <= U",
		"((exists (i : pid_t) Proc(i).wait) imply (t <= U))"},
	{"deadlock imply ((forall (i : pid_t) Proc(i).finished) || (exists (i : pid_t) exists (j : pid_t) Proc(j).x - Proc(i).x > T - c1))",
		"(deadlock imply ((forall (i : pid_t) Proc(i).finished) || (exists (i : pid_t) (exists (j : pid_t) ((Proc(j).x - Proc(i).x) > (T - c1))))))"},
	{"has_halted imply (Process.halted && forall (i : bid_t) Broadcast(i).idle && t > 0)",
		"(has_halted imply (Process.halted && (forall (i : bid_t) (Broadcast(i).idle && (t > 0)))))"},
	{"cnt>=(D/c1)+1", "(cnt >= ((D / c1) + 1))"},
	{"(S & (1 << id)) == 0", "((S & (1 << id)) == 0)"},
	{"(1 << n) - 1", "((1 << n) - 1)"},
	{"(d/c1 + 2 < 2*f + 3) ? d/c1 + 2 : 2*f + 3", "((((d / c1) + 2) < ((2 * f) + 3)) ? ((d / c1) + 2) : ((2 * f) + 3))"},
	{"msg >= 0 && (bmask[id] & (1 << j)) != 0", "((msg >= 0) && ((bmask[id] & (1 << j)) != 0))"},
}

// TestFormatAddsNeededParentheses builds trees by hand (as the checker or a
// model transformation might) and checks that printing adds exactly the
// parentheses that make the text mean the tree.
func TestFormatAddsNeededParentheses(t *testing.T) {
	a, b, c := &Ident{Name: "a"}, &Ident{Name: "b"}, &Ident{Name: "c"}
	bin := func(op Op, x, y Expr) Expr { return &BinaryExpr{Op: op, X: x, Y: y} }
	quant := &QuantExpr{Op: OpForall, Var: "i", Type: &TypeExpr{Kind: TNamed, Name: "T"}, Body: b}
	tests := []struct {
		name string
		e    Expr
		want string
	}{
		{"lower precedence on the left", bin(OpMul, bin(OpAdd, a, b), c), "(a + b) * c"},
		{"same precedence on the right", bin(OpSub, a, bin(OpSub, b, c)), "a - (b - c)"},
		{"same precedence on the left", bin(OpSub, bin(OpSub, a, b), c), "a - b - c"},
		{"quantifier on the left", bin(OpAnd, quant, c), "(forall (i : T) b) && c"},
		{"quantifier on the right", bin(OpAnd, c, quant), "c && forall (i : T) b"},
		{"quantifier inside the left operand", bin(OpOr, bin(OpAnd, a, quant), c), "a && (forall (i : T) b) || c"},
		{"quantifier under a postfix operator", &MemberExpr{X: quant, Name: "x"}, "(forall (i : T) b).x"},
		{"unary of a binary", &UnaryExpr{Op: OpNeg, X: bin(OpAdd, a, b)}, "-(a + b)"},
		{"negative of a negative", &UnaryExpr{Op: OpNeg, X: &UnaryExpr{Op: OpNeg, X: a}}, "- -a"},
		{"plus of a pre-increment", &UnaryExpr{Op: OpPlus, X: &IncDecExpr{Op: OpInc, Prefix: true, X: a}}, "+ ++a"},
		{"postfix of a prefix", &IncDecExpr{Op: OpInc, X: &UnaryExpr{Op: OpNeg, X: a}}, "(-a)++"},
		{"conditional as a condition", &CondExpr{Cond: &CondExpr{Cond: a, Then: b, Else: c}, Then: b, Else: c}, "(a ? b : c) ? b : c"},
		{"assignment target is a conditional", &AssignExpr{Op: OpAssign, LHS: &CondExpr{Cond: a, Then: b, Else: c}, RHS: a}, "(a ? b : c) = a"},
		{"assignment as an operand", bin(OpAdd, &AssignExpr{Op: OpAssign, LHS: a, RHS: b}, c), "(a = b) + c"},
		{"rate of an indexed clock", bin(OpEQ, &RateExpr{X: &IndexExpr{X: a, Index: b}}, c), "a[b]' == c"},
		{"rate of a parenthesised operand", &RateExpr{X: bin(OpAdd, a, b)}, "(a + b)'"},
		{"rate as a conjunct", bin(OpAnd, bin(OpLE, a, c), bin(OpEQ, &RateExpr{X: b}, &IntLit{Value: 0})), "a <= c && b' == 0"},
		{"call of a conditional", &CallExpr{Fun: &CondExpr{Cond: a, Then: b, Else: c}}, "(a ? b : c)()"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Format(tc.e)
			if got != tc.want {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
			e2, err := ParseExpr(got)
			if err != nil {
				t.Fatal(err)
			}
			if Format(stripParens(e2)) != Format(tc.e) {
				t.Errorf("%q re-parses as %q", got, Format(stripParens(e2)))
			}
		})
	}
}

// TestFormatKeepsElseWithItsIf checks that a hand-built if/else whose then
// branch ends with an else-less if is printed with braces.
func TestFormatKeepsElseWithItsIf(t *testing.T) {
	x := &ExprStmt{X: &Ident{Name: "x"}}
	s := &IfStmt{Cond: &Ident{Name: "a"}, Then: &IfStmt{Cond: &Ident{Name: "b"}, Then: x}, Else: x}
	want := "if (a) {\n    if (b)\n        x;\n} else\n    x;"
	if got := Format(s); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// stripParens removes ParenExpr nodes (which Format then re-adds where
// needed), so that trees can be compared by meaning.
func stripParens(e Expr) Expr {
	switch e := e.(type) {
	case *ParenExpr:
		return stripParens(e.X)
	case *BinaryExpr:
		return &BinaryExpr{Op: e.Op, X: stripParens(e.X), Y: stripParens(e.Y)}
	case *UnaryExpr:
		return &UnaryExpr{Op: e.Op, X: stripParens(e.X)}
	case *IncDecExpr:
		return &IncDecExpr{Op: e.Op, Prefix: e.Prefix, X: stripParens(e.X)}
	case *RateExpr:
		return &RateExpr{X: stripParens(e.X)}
	case *CondExpr:
		return &CondExpr{Cond: stripParens(e.Cond), Then: stripParens(e.Then), Else: stripParens(e.Else)}
	case *AssignExpr:
		return &AssignExpr{Op: e.Op, LHS: stripParens(e.LHS), RHS: stripParens(e.RHS)}
	case *QuantExpr:
		return &QuantExpr{Op: e.Op, Var: e.Var, Type: e.Type, Body: stripParens(e.Body)}
	case *MemberExpr:
		return &MemberExpr{X: stripParens(e.X), Name: e.Name}
	case *IndexExpr:
		return &IndexExpr{X: stripParens(e.X), Index: stripParens(e.Index)}
	case *CallExpr:
		c := &CallExpr{Fun: stripParens(e.Fun)}
		for _, a := range e.Args {
			c.Args = append(c.Args, stripParens(a))
		}
		return c
	}
	return e
}

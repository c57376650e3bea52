package model

import (
	"fmt"
	"maps"
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/tcheck/tcheck/model/syntax"
)

// The expression differential test checks the compiler's arithmetic
// against an independent reference written from docs/model-format.md
// ("Operators" and the paragraph after it), not from the compiler: random
// expressions over three variables are printed with the fewest parentheses
// the documented precedence table allows, compiled once over the variables
// (evaluated at run time) and once with the variables' values written in as
// literals (folded at load time), and both answers are compared with the
// reference's exact evaluation in math/big: 32-bit arithmetic in which
// every intermediate result outside 32 bits is an overflow error; / and %
// truncating towards zero; division or modulo by zero, a negative shift
// count and a negative exponent errors; ** exact and left associative,
// binding looser than the prefix operators; && || imply ?: evaluating their
// right operand only when it decides; min, max and abs evaluating both.
// The differential tester (package difftest) cannot find a fault here: its
// reference checker evaluates guards and updates with this compiler.

// xnode is an expression of the test's generator: a variable, a literal, or
// an operator over its operands.
type xnode struct {
	op   string // "var", "lit", a prefix operator ("-", "+", "!", "~"), a binary operator, "?:", "min", "max", "abs", a quantifier ("sum", "forall", "exists")
	name string // the variable of a "var", the bound variable of a quantifier
	lit  int64  // the value of a "lit", ≥ 0; a quantifier's range is int[0,lit]
	kids []*xnode
}

// xlevel is the binding level of an operator, loosest first, from the table
// in docs/model-format.md.
var xlevel = map[string]int{
	"?:": 1,
	"||": 2, "or": 2, "imply": 2,
	"&&": 3, "and": 3,
	"|": 4, "^": 5, "&": 6,
	"==": 7, "!=": 7,
	"<": 8, "<=": 8, ">=": 8, ">": 8,
	"<?": 9, ">?": 9,
	"<<": 10, ">>": 10,
	"+": 11, "-": 11,
	"*": 12, "/": 12, "%": 12,
	"**": 13,
}

const xprefix, xatom = 14, 15

var xbinary = []string{"||", "or", "imply", "&&", "and", "|", "^", "&", "==", "!=", "<", "<=", ">=", ">", "<?", ">?", "<<", ">>", "+", "-", "*", "/", "%", "**"}

func (x *xnode) level() int {
	switch {
	case isQuantifier(x.op):
		// its body extends as far right as possible: in parentheses
		// wherever it is an operand
		return 0
	case x.op == "var" || x.op == "lit" || x.op == "min" || x.op == "max" || x.op == "abs":
		return xatom
	case len(x.kids) == 1:
		return xprefix
	}
	return xlevel[x.op]
}

// String prints x with the fewest parentheses: an operand in parentheses
// only where it binds looser than its place allows (binary operators are
// left associative, ?: right associative).
func (x *xnode) String() string {
	paren := func(k *xnode, min int) string {
		if k.level() < min {
			return "(" + k.String() + ")"
		}
		return k.String()
	}
	switch x.op {
	case "var":
		return x.name
	case "lit":
		return fmt.Sprint(x.lit)
	case "min", "max":
		return fmt.Sprintf("%s(%s, %s)", x.op, x.kids[0], x.kids[1])
	case "abs":
		return fmt.Sprintf("abs(%s)", x.kids[0])
	case "sum", "forall", "exists":
		return fmt.Sprintf("%s (%s : int[0,%d]) %s", x.op, x.name, x.lit, x.kids[0])
	case "?:":
		return paren(x.kids[0], 2) + " ? " + paren(x.kids[1], 2) + " : " + paren(x.kids[2], 1)
	}
	if len(x.kids) == 1 {
		// a prefix operand that is itself a prefix expression is put in
		// parentheses, so that "- -a" never reads as "--a"
		return x.op + paren(x.kids[0], xatom)
	}
	l := xlevel[x.op]
	return paren(x.kids[0], l) + " " + x.op + " " + paren(x.kids[1], l+1)
}

// errExpr is the reference's runtime error (the kind is not compared).
var errExpr = fmt.Errorf("runtime error")

// errOpen is the reference's answer where the documented semantics leave
// the outcome open (an error in an instance of forall or exists): not
// compared.
var errOpen = fmt.Errorf("open")

func isQuantifier(op string) bool { return op == "sum" || op == "forall" || op == "exists" }

var (
	minInt32 = big.NewInt(math.MinInt32)
	maxInt32 = big.NewInt(math.MaxInt32)
)

// eval is the reference: x's value under vars, or errExpr.
func (x *xnode) eval(vars map[string]int64) (int64, error) {
	fit := func(v *big.Int) (int64, error) {
		if v.Cmp(minInt32) < 0 || v.Cmp(maxInt32) > 0 {
			return 0, errExpr
		}
		return v.Int64(), nil
	}
	truth := func(b bool) int64 {
		if b {
			return 1
		}
		return 0
	}
	switch x.op {
	case "var":
		return vars[x.name], nil
	case "lit":
		return fit(big.NewInt(x.lit))
	case "&&", "and", "||", "or", "imply":
		a, err := x.kids[0].eval(vars)
		if err != nil {
			return 0, err
		}
		decided := a == 0 && (x.op == "&&" || x.op == "and") || a != 0 && (x.op == "||" || x.op == "or")
		if decided {
			return truth(a != 0), nil
		}
		if x.op == "imply" && a == 0 {
			return 1, nil
		}
		b, err := x.kids[1].eval(vars)
		if err != nil {
			return 0, err
		}
		return truth(b != 0), nil
	case "?:":
		c, err := x.kids[0].eval(vars)
		if err != nil {
			return 0, err
		}
		if c != 0 {
			return x.kids[1].eval(vars)
		}
		return x.kids[2].eval(vars)
	case "sum", "forall", "exists":
		// every instance, in order; the sum exact, its total in 32 bits
		// (docs/model-format.md says no more of the order)
		total, all, any := new(big.Int), true, false
		var failed error
		for j := int64(0); j <= x.lit; j++ {
			inner := maps.Clone(vars)
			inner[x.name] = j
			v, err := x.kids[0].eval(inner)
			if err != nil {
				failed = err
				continue
			}
			total.Add(total, big.NewInt(v))
			all, any = all && v != 0, any || v != 0
		}
		switch {
		case failed != nil && x.op != "sum":
			// which instances forall and exists evaluate is not
			// documented: an instance's error leaves the answer open
			return 0, errOpen
		case failed != nil:
			return 0, failed
		case x.op == "forall":
			return truth(all), nil
		case x.op == "exists":
			return truth(any), nil
		}
		return fit(total)
	}
	vals := make([]int64, len(x.kids))
	for i, k := range x.kids {
		v, err := k.eval(vars)
		if err != nil {
			return 0, err
		}
		vals[i] = v
	}
	if len(x.kids) == 1 {
		a := vals[0]
		switch x.op {
		case "-":
			return fit(big.NewInt(-a))
		case "+":
			return a, nil
		case "!":
			return truth(a == 0), nil
		case "~":
			return fit(big.NewInt(-a - 1))
		case "abs":
			if a < 0 {
				a = -a
			}
			return fit(big.NewInt(a))
		}
		panic(x.op)
	}
	a, b := vals[0], vals[1]
	A, B := big.NewInt(a), big.NewInt(b)
	r := new(big.Int)
	switch x.op {
	case "+":
		return fit(r.Add(A, B))
	case "-":
		return fit(r.Sub(A, B))
	case "*":
		return fit(r.Mul(A, B))
	case "/":
		if b == 0 {
			return 0, errExpr
		}
		return fit(r.Quo(A, B)) // truncated
	case "%":
		if b == 0 {
			return 0, errExpr
		}
		return fit(r.Rem(A, B)) // the sign of the dividend
	case "**":
		if b < 0 {
			return 0, errExpr
		}
		if b > 64 && (a < -1 || a > 1) {
			return 0, errExpr // |a| ≥ 2: beyond 2^64
		}
		if b > 64 {
			b = 64 + b%2 // |a| ≤ 1: only the parity counts
		}
		return fit(r.Exp(A, big.NewInt(b), nil))
	case "<<":
		if b < 0 {
			return 0, errExpr
		}
		if a != 0 && b > 64 {
			return 0, errExpr
		}
		return fit(r.Lsh(A, uint(min(b, 64))))
	case ">>":
		if b < 0 {
			return 0, errExpr
		}
		return fit(r.Rsh(A, uint(min(b, 64)))) // arithmetic: rounds towards -∞
	case "&", "|", "^":
		switch x.op {
		case "&":
			r.And(A, B)
		case "|":
			r.Or(A, B)
		default:
			r.Xor(A, B)
		}
		return fit(r)
	case "<?", "min":
		return min(a, b), nil
	case ">?", "max":
		return max(a, b), nil
	case "==":
		return truth(a == b), nil
	case "!=":
		return truth(a != b), nil
	case "<":
		return truth(a < b), nil
	case "<=":
		return truth(a <= b), nil
	case ">":
		return truth(a > b), nil
	case ">=":
		return truth(a >= b), nil
	}
	panic(x.op)
}

// foldErr is the reference for the compiler's constant folding: whether
// compiling x, with its variables unknown, folds a constant operation that
// fails. docs/model-format.md: "Constant expressions are folded when the
// model is loaded (an overflow of 32 bits there is an error)", and so is
// every failing operation on constants, except in an operand that a
// constant decides is never evaluated (the right side of && || imply
// after a deciding left side, the branch of ?: not taken), which C
// does not evaluate. It returns whether x is constant and its value.
func (x *xnode) foldErr() (isConst bool, v int64, failed bool) {
	switch x.op {
	case "var":
		return false, 0, false
	case "lit":
		return true, x.lit, false
	case "&&", "and", "||", "or", "imply":
		ac, a, af := x.kids[0].foldErr()
		if af {
			return false, 0, true
		}
		if ac {
			and := x.op == "&&" || x.op == "and"
			switch {
			case and && a == 0:
				return true, 0, false
			case x.op == "imply" && a == 0:
				return true, 1, false
			case (x.op == "||" || x.op == "or") && a != 0:
				return true, 1, false
			}
		}
		bc, b, bf := x.kids[1].foldErr()
		if bf {
			return false, 0, true
		}
		if ac && bc {
			return true, b2i64(b != 0), false
		}
		return false, 0, false
	case "sum", "forall", "exists":
		// expanded when compiled: each instance folded with the bound
		// variable a constant; forall and exists decided by a constant
		// instance, a sum's constant instances added at load time and the
		// total checked when evaluated
		allConst, decided := true, false
		var total int64
		all, any := true, false
		for j := int64(0); j <= x.lit; j++ {
			c, v, failed := x.kids[0].substitute(map[string]int64{x.name: j}).foldErr()
			if failed {
				return false, 0, true
			}
			allConst = allConst && c
			if c {
				total += v
				all, any = all && v != 0, any || v != 0
				decided = decided || x.op == "forall" && v == 0 || x.op == "exists" && v != 0
			}
		}
		switch {
		case decided:
			return true, b2i64(x.op == "exists"), false
		case !allConst:
			return false, 0, false
		case x.op == "forall":
			return true, b2i64(all), false
		case x.op == "exists":
			return true, b2i64(any), false
		}
		if total < math.MinInt32 || total > math.MaxInt32 {
			return false, 0, true
		}
		return true, total, false
	case "?:":
		cc, c, cf := x.kids[0].foldErr()
		if cf {
			return false, 0, true
		}
		if cc {
			if c != 0 {
				return x.kids[1].foldErr()
			}
			return x.kids[2].foldErr()
		}
		_, _, tf := x.kids[1].foldErr()
		_, _, ef := x.kids[2].foldErr()
		return false, 0, tf || ef
	}
	vals := map[string]int64{}
	allConst := true
	y := *x
	y.kids = make([]*xnode, len(x.kids))
	for i, k := range x.kids {
		kc, kv, kf := k.foldErr()
		if kf {
			return false, 0, true
		}
		allConst = allConst && kc
		y.kids[i] = &xnode{op: "lit", lit: kv}
		if kv < 0 {
			// a literal has no sign: the value through a variable
			name := fmt.Sprintf("k%d", i)
			vals[name] = kv
			y.kids[i] = &xnode{op: "var", name: name}
		}
	}
	if !allConst {
		return false, 0, false
	}
	v, err := y.eval(vals)
	return err == nil, v, err != nil
}

func b2i64(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// compileTerm compiles src as a data term of n.
func compileTerm(n *Network, src string) (Term, error) {
	x, err := syntax.ParseExpr(src)
	if err != nil {
		return Term{}, err
	}
	return n.CompileTerm(x, NewText(src, Pos{File: "expr", Line: 1, Col: 1}))
}

// draws is how many random cases a test checks: full, or short with
// -short.
func draws(full, short int) int {
	if testing.Short() {
		return short
	}
	return full
}

// genExpr draws an expression of at most depth levels over the variables.
func genExpr(r *rand.Rand, depth int, vars []string) *xnode {
	if depth == 0 || r.IntN(5) == 0 {
		if r.IntN(2) == 0 {
			return &xnode{op: "var", name: vars[r.IntN(len(vars))]}
		}
		return &xnode{op: "lit", lit: genValue(r, true)}
	}
	sub := func() *xnode { return genExpr(r, depth-1, vars) }
	switch k := r.IntN(22); {
	case k < 3:
		return &xnode{op: []string{"-", "+", "!", "~"}[r.IntN(4)], kids: []*xnode{sub()}}
	case k < 4:
		return &xnode{op: "?:", kids: []*xnode{sub(), sub(), sub()}}
	case k >= 20:
		j := fmt.Sprintf("j%d", depth)
		return &xnode{op: []string{"sum", "forall", "exists"}[r.IntN(3)], name: j, lit: int64(r.IntN(4)), kids: []*xnode{genExpr(r, depth-1, append(vars[:len(vars):len(vars)], j))}}
	case k < 5:
		op := []string{"min", "max", "abs"}[r.IntN(3)]
		if op == "abs" {
			return &xnode{op: op, kids: []*xnode{sub()}}
		}
		return &xnode{op: op, kids: []*xnode{sub(), sub()}}
	}
	return &xnode{op: xbinary[r.IntN(len(xbinary))], kids: []*xnode{sub(), sub()}}
}

// genValue draws a value that is usually small and now and then near the
// edges of 32 bits (nonNegative: a literal, which has no sign).
func genValue(r *rand.Rand, nonNegative bool) int64 {
	var v int64
	switch r.IntN(6) {
	case 0, 1, 2:
		v = int64(r.IntN(11)) - 3
	case 3:
		v = int64(r.IntN(70)) - 35
	case 4:
		v = []int64{math.MaxInt32, math.MinInt32, 1 << 16, -(1 << 16), 46341, 1 << 30, math.MaxInt32 - 1, math.MinInt32 + 1}[r.IntN(8)]
	default:
		v = r.Int64N(1<<32) - (1 << 31)
	}
	if nonNegative && v < 0 {
		v = -v
		if v > math.MaxInt32 {
			v = math.MaxInt32
		}
	}
	return v
}

// valueNode is v as an expression: a literal, the prefix minus of one for
// a negative value, and -2147483647 - 1 for the least 32-bit value, which
// has no literal.
func valueNode(v int64) *xnode {
	switch {
	case v == math.MinInt32:
		return &xnode{op: "-", kids: []*xnode{{op: "-", kids: []*xnode{{op: "lit", lit: math.MaxInt32}}}, {op: "lit", lit: 1}}}
	case v < 0:
		return &xnode{op: "-", kids: []*xnode{{op: "lit", lit: -v}}}
	}
	return &xnode{op: "lit", lit: v}
}

// substitute is x with its variables replaced by their values, as
// literals (valueNode).
func (x *xnode) substitute(vars map[string]int64) *xnode {
	if x.op == "var" {
		v, ok := vars[x.name]
		if !ok {
			return x // a bound variable of a quantifier around
		}
		return valueNode(v)
	}
	y := *x
	y.kids = make([]*xnode, len(x.kids))
	for i, k := range x.kids {
		y.kids[i] = k.substitute(vars)
	}
	return &y
}

// TestExpressionsAgreeWithTheDocumentedSemantics: the compiler's run-time
// evaluation and its constant folding of random expressions give the
// reference's value, or an error where the reference has one
// (docs/model-format.md, "Operators").
func TestExpressionsAgreeWithTheDocumentedSemantics(t *testing.T) {
	n := mustCompile(t, "declarations: |\n  int[-2147483647-1,2147483647] a, b, c;\n", nil)
	names := []string{"a", "b", "c"}
	slot := map[string]int{}
	for i, v := range n.Vars {
		slot[v.Name] = i
	}
	count := draws(4000, 1000)
	r := rand.New(rand.NewPCG(1, 2))
	env := n.NewEnv()
	var errs, static, folded, open int
	// cases drawn, after those written by hand: a sum whose constant
	// instances alone pass 32 bits and whose total does not (refused
	// when it was loaded before the thirty-fifth stop)
	lit := func(v int64) *xnode { return &xnode{op: "lit", lit: v} }
	hand := []struct {
		x    *xnode
		vars map[string]int64
	}{
		{&xnode{op: "sum", name: "j", lit: 2, kids: []*xnode{{op: "?:", kids: []*xnode{{op: "==", kids: []*xnode{{op: "var", name: "j"}, lit(1)}}, {op: "var", name: "a"}, lit(2000000000)}}}},
			map[string]int64{"a": -2000000000, "b": 0, "c": 0}},
	}
	for i := range len(hand) + count {
		var x *xnode
		vars := map[string]int64{}
		if i < len(hand) {
			x, vars = hand[i].x, hand[i].vars
		} else {
			x = genExpr(r, 1+r.IntN(4), names)
			for _, v := range names {
				vars[v] = genValue(r, false)
			}
		}
		for _, v := range names {
			env.Vars[slot[v]] = int32(vars[v])
		}
		want, wantErr := x.eval(vars)
		if wantErr == errOpen {
			open++
			continue
		}
		if wantErr != nil {
			errs++
		}
		// over the variables: folded where constant, evaluated at run
		// time
		src := x.String()
		term, cerr := compileTerm(n, src)
		_, _, staticErr := x.foldErr()
		switch {
		case staticErr != (cerr != nil):
			t.Errorf("case %d: %s compiles with the error %v; the reference's folding fails: %v", i, src, cerr, staticErr)
		case cerr == nil:
			env.Err = nil
			got := term.Data(env)
			if (env.Err != nil) != (wantErr != nil) || wantErr == nil && int64(got) != want {
				t.Errorf("case %d: %s with a=%d b=%d c=%d: run time %d (error %v), reference %d (error %v)", i, src, vars["a"], vars["b"], vars["c"], got, env.Err, want, wantErr)
			}
		default:
			static++
		}
		// the same expression over literals, folded when it is loaded
		lx := x.substitute(vars)
		lit := lx.String()
		v, ferr := foldConst(lit)
		_, _, litErr := lx.foldErr()
		switch {
		case litErr != (ferr != nil):
			t.Errorf("case %d: %s folds with the error %v; the reference's folding fails: %v", i, lit, ferr, litErr)
		case ferr == nil && (wantErr != nil || v != want):
			t.Errorf("case %d: %s folds to %d, reference %d (error %v)", i, lit, v, want, wantErr)
		case ferr == nil:
			folded++
		}
	}
	// the draws must reach both sides of every comparison
	if errs < count/20 || errs > count/2 {
		t.Errorf("%d of %d expressions raise an error: the generator's values are off", errs, count)
	}
	t.Logf("%d expressions, %d with an error in the reference, %d refused when compiled over variables, %d folded over literals, %d left open", count, errs, static, folded, open)
}

// foldConst compiles src as a constant (a constant declaration's
// initialiser, which the compiler folds when the model is loaded).
func foldConst(src string) (int64, error) {
	f, err := Parse("fold.yaml", []byte(completeModel("declarations: |\n  const int[-2147483647-1,2147483647] k = "+strings.ReplaceAll(src, "\n", " ")+";\n")))
	if err != nil {
		return 0, err
	}
	m, err := f.Compile(nil)
	if err != nil {
		return 0, err
	}
	v, ok := m.Constant("k")
	if !ok {
		return 0, fmt.Errorf("no constant k")
	}
	return v, nil
}

// TestUpdatesAgreeWithTheDocumentedSemantics: an assignment r = e, a
// compound assignment r op= e (r = r op e) or r++ / r-- on a variable of a
// random range, or on an element of an array of three indexed by an
// expression, sets the reference's value, or fails where the reference
// fails: an error of an expression, an index out of bounds, or a value
// outside r's declared range ("Ranges are checked", docs/model-format.md);
// a bool target takes 0 or 1.
func TestUpdatesAgreeWithTheDocumentedSemantics(t *testing.T) {
	ops := []string{"=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", "++", "--"}
	names := []string{"a", "b", "c"}
	count := draws(2000, 500)
	r := rand.New(rand.NewPCG(3, 4))
	var fails int
	for i := range count {
		op := ops[r.IntN(len(ops))]
		x := genExpr(r, 1+r.IntN(3), names)
		boolTarget := op == "=" && r.IntN(5) == 0
		lo, hi := int64(math.MinInt32), int64(math.MaxInt32)
		if r.IntN(3) > 0 {
			lo = genValue(r, false)
			hi = min(lo+int64(r.IntN(40)), math.MaxInt32)
		}
		decl := fmt.Sprintf("int[%s,%s] t", litText(lo), litText(hi))
		if boolTarget {
			decl, lo, hi = "bool t", 0, 1
		}
		init := lo + r.Int64N(hi-lo+1)
		// an element of arr, whose other elements must not change
		var index *xnode
		inits := []int64{lo + r.Int64N(hi-lo+1), init, lo + r.Int64N(hi-lo+1)}
		target := "t"
		if !boolTarget && r.IntN(4) == 0 {
			index = genExpr(r, r.IntN(2), names)
			if r.IntN(2) == 0 {
				index = &xnode{op: "%", kids: []*xnode{index, {op: "lit", lit: 3}}}
			}
			target = "arr[" + index.String() + "]"
			decl = fmt.Sprintf("int[%s,%s] arr[3] = {%s, %s, %s};\n  %s", litText(lo), litText(hi), litText(inits[0]), litText(inits[1]), litText(inits[2]), decl)
		}
		update := target + " " + op + " " + x.String()
		switch op {
		case "++", "--":
			update = target + op
		}
		src := fmt.Sprintf("declarations: |\n  int[-2147483647-1,2147483647] a, b, c;\n  %s = %s;\ntemplates:\n  - name: P\n    locations:\n      - {name: s, initial: true}\n    edges:\n      - {from: s, to: s, update: %q}\n", decl, litText(init), update)
		vars := map[string]int64{"t": init}
		for _, v := range names {
			vars[v] = genValue(r, false)
		}
		// the reference
		var rhs *xnode
		switch op {
		case "=":
			rhs = x
		case "++", "--":
			rhs = &xnode{op: op[:1], kids: []*xnode{{op: "var", name: "t"}, {op: "lit", lit: 1}}}
		default:
			rhs = &xnode{op: strings.TrimSuffix(op, "="), kids: []*xnode{{op: "var", name: "t"}, x}}
		}
		element := int64(-1) // the element assigned
		var indexErr error
		if index != nil {
			if element, indexErr = index.eval(vars); indexErr == nil && (element < 0 || element > 2) {
				indexErr = errExpr // out of bounds
			}
			if indexErr == nil {
				vars["t"] = inits[element]
			}
		}
		want, wantErr := rhs.eval(vars)
		if wantErr == errOpen || indexErr == errOpen {
			continue
		}
		if indexErr != nil {
			wantErr = indexErr
		}
		if boolTarget && wantErr == nil {
			want = b2i64(want != 0)
		}
		if wantErr == nil && (want < lo || want > hi) {
			wantErr = errExpr
		}
		if wantErr != nil {
			fails++
		}
		f, err := Parse("update.yaml", []byte(completeModel(src)))
		if err != nil {
			t.Fatalf("case %d: %v\n%s", i, err, src)
		}
		// an update runs in states: a constant operation that fails
		// there, a constant index out of bounds included, fails when it
		// is evaluated (compiler.lazy), not when the model is loaded
		n, err := f.Compile(nil)
		if err != nil {
			t.Errorf("case %d: %s: %v, want it compiled (failing when evaluated)", i, update, err)
			continue
		}
		env := n.NewEnv()
		for _, v := range names {
			env.Vars[n.VarIndex(v)] = int32(vars[v])
		}
		runEdge(t, n, env, 0, 0)
		got := int64(env.Vars[n.VarIndex("t")])
		ok := true
		if index != nil && wantErr == nil {
			for k := range inits {
				w := inits[k]
				if int64(k) == element {
					w = want
				}
				ok = ok && int64(env.Vars[n.VarIndex(fmt.Sprintf("arr[%d]", k))]) == w
			}
		} else if wantErr == nil {
			ok = got == want
		}
		if (env.Err != nil) != (wantErr != nil) || !ok {
			t.Errorf("case %d: %s with t=%d in [%d,%d] (arr %v), a=%d b=%d c=%d: t=%d (error %v), reference %d at element %d (error %v)", i, update, init, lo, hi, inits, vars["a"], vars["b"], vars["c"], got, env.Err, want, element, wantErr)
		}
	}
	if fails < count/20 || fails > count*3/4 {
		t.Errorf("%d of %d updates fail: the generator's values are off", fails, count)
	}
	t.Logf("%d updates, %d failing in the reference", count, fails)
}

// litText writes v as an expression (the least 32-bit value has no literal).
func litText(v int64) string {
	if v == math.MinInt32 {
		return "-2147483647-1"
	}
	return fmt.Sprint(v)
}

// xstmt is a statement of the function generator.
type xstmt struct {
	kind   string // "assign", "incr", "if", "for" (range), "cfor", "break", "continue", "return"
	target string // assign, incr: the variable; for, cfor: the loop variable
	op     string // assign: =, +=, ...; incr: ++ or --
	e      *xnode // assign, if, return: the expression
	k      int64  // for, cfor: the last value / the bound
	body   []*xstmt
	els    []*xstmt
}

// xvar is a variable the generated function may assign, with its range.
type xvar struct{ lo, hi int64 }

// xfunc is a generated function int[rlo,rhi] f(int[plo,phi] p, q) (q of
// 32 bits) with locals u and v and the global g.
type xfunc struct {
	ret, p      xvar
	vars        map[string]xvar // u, v, g (assignable)
	uInit, vIn  *xnode
	body        []*xstmt
	gInit, gLen int64
}

func (f *xfunc) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "int[%s,%s] f(int[%s,%s] p, int[-2147483647-1,2147483647] q) {\n", litText(f.ret.lo), litText(f.ret.hi), litText(f.p.lo), litText(f.p.hi))
	fmt.Fprintf(&b, "int[%s,%s] u = %s;\n", litText(f.vars["u"].lo), litText(f.vars["u"].hi), f.uInit)
	fmt.Fprintf(&b, "int[%s,%s] v = %s;\n", litText(f.vars["v"].lo), litText(f.vars["v"].hi), f.vIn)
	fmt.Fprintf(&b, "int[0,10] w = 0;\n")
	writeStmts(&b, f.body)
	b.WriteString("}\n")
	return b.String()
}

func writeStmts(b *strings.Builder, ss []*xstmt) {
	for _, s := range ss {
		switch s.kind {
		case "assign":
			fmt.Fprintf(b, "%s %s %s;\n", s.target, s.op, s.e)
		case "incr":
			fmt.Fprintf(b, "%s%s;\n", s.target, s.op)
		case "if":
			fmt.Fprintf(b, "if (%s) {\n", s.e)
			writeStmts(b, s.body)
			b.WriteString("} else {\n")
			writeStmts(b, s.els)
			b.WriteString("}\n")
		case "for":
			fmt.Fprintf(b, "for (%s : int[0,%d]) {\n", s.target, s.k)
			writeStmts(b, s.body)
			b.WriteString("}\n")
		case "cfor":
			fmt.Fprintf(b, "for (w = 0; w < %d; w++) {\n", s.k)
			writeStmts(b, s.body)
			b.WriteString("}\n")
		case "break", "continue":
			fmt.Fprintf(b, "%s;\n", s.kind)
		case "return":
			fmt.Fprintf(b, "return %s;\n", s.e)
		}
	}
}

// genFuncExpr draws an expression over names (a constant operation that
// fails in it fails the call when evaluated: a function body runs in
// states, compiler.lazy).
func genFuncExpr(r *rand.Rand, names []string) *xnode {
	// mostly small literals: a function evaluates many expressions, and
	// one overflow fails the call
	small := r.IntN(4) > 0
	for {
		x := genExpr(r, 1+r.IntN(3), names)
		if !small || x.maxLiteral() <= 64 {
			return x
		}
	}
}

func (x *xnode) maxLiteral() int64 {
	m := x.lit
	for _, k := range x.kids {
		m = max(m, k.maxLiteral())
	}
	return m
}

// genStmts draws up to n statements; loops is the depth of loops around
// them (break and continue only inside one; loops nest at most twice, and
// the C-style loop, over w, at most once).
func genStmts(r *rand.Rand, n int, names []string, loops int, inCFor bool) []*xstmt {
	var ss []*xstmt
	for range r.IntN(n + 1) {
		targets := []string{"u", "v", "g"}
		switch k := r.IntN(13); {
		case k < 3:
			op := []string{"=", "=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>="}[r.IntN(12)]
			ss = append(ss, &xstmt{kind: "assign", target: targets[r.IntN(3)], op: op, e: genFuncExpr(r, names)})
		case k < 5:
			ss = append(ss, &xstmt{kind: "incr", target: targets[r.IntN(3)], op: []string{"++", "--"}[r.IntN(2)]})
		case k < 7:
			ss = append(ss, &xstmt{kind: "if", e: genFuncExpr(r, names), body: genStmts(r, n/2, names, loops, inCFor), els: genStmts(r, n/2, names, loops, inCFor)})
		case k < 9 && loops < 2:
			i := fmt.Sprintf("i%d", loops)
			body := genStmts(r, max(n/2, 3), append(names[:len(names):len(names)], i), loops+1, inCFor)
			ss = append(ss, &xstmt{kind: "for", target: i, k: int64(r.IntN(4)), body: append([]*xstmt{turn(i)}, body...)})
		case k < 10 && loops < 2 && !inCFor:
			body := genStmts(r, max(n/2, 3), append(names[:len(names):len(names)], "w"), loops+1, true)
			ss = append(ss, &xstmt{kind: "cfor", k: int64(r.IntN(5)), body: append([]*xstmt{turn("w")}, body...)})
		case k < 12 && loops > 0:
			// mostly under a condition, so that some turns go on
			s := &xstmt{kind: []string{"break", "continue"}[r.IntN(2)]}
			if r.IntN(3) > 0 {
				s = &xstmt{kind: "if", e: genFuncExpr(r, names), body: []*xstmt{s}}
			}
			ss = append(ss, s)
		case k < 12:
		default:
			ss = append(ss, &xstmt{kind: "return", e: genFuncExpr(r, names)})
		}
	}
	return ss
}

// turn is the statement that starts each turn of a loop over i: the
// global trace counts the turns and their values, so that a turn too many
// or too few (a break or continue misread) shows in it.
func turn(i string) *xstmt {
	return &xstmt{kind: "assign", target: "trace", op: "=", e: &xnode{op: "+", kids: []*xnode{{op: "*", kids: []*xnode{{op: "var", name: "trace"}, {op: "lit", lit: 3}}}, {op: "+", kids: []*xnode{{op: "var", name: i}, {op: "lit", lit: 1}}}}}}
}

// run is the reference's execution of ss: the control that ends it
// ("", "break", "continue" or "return" with its value) or an error.
func (f *xfunc) run(ss []*xstmt, vars map[string]int64) (ctl string, ret int64, err error) {
	for _, s := range ss {
		switch s.kind {
		case "assign", "incr":
			x := s.e
			switch {
			case s.kind == "incr":
				x = &xnode{op: s.op[:1], kids: []*xnode{{op: "var", name: s.target}, {op: "lit", lit: 1}}}
			case s.op != "=":
				x = &xnode{op: strings.TrimSuffix(s.op, "="), kids: []*xnode{{op: "var", name: s.target}, s.e}}
			}
			v, err := x.eval(vars)
			if err != nil {
				return "", 0, err
			}
			if rg := f.vars[s.target]; v < rg.lo || v > rg.hi {
				return "", 0, errExpr
			}
			vars[s.target] = v
		case "if":
			c, err := s.e.eval(vars)
			if err != nil {
				return "", 0, err
			}
			body := s.els
			if c != 0 {
				body = s.body
			}
			if ctl, ret, err := f.run(body, vars); err != nil || ctl != "" {
				return ctl, ret, err
			}
		case "for", "cfor":
			for i := int64(0); s.kind == "for" && i <= s.k || s.kind == "cfor" && i < s.k; i++ {
				name := s.target
				if s.kind == "cfor" {
					name = "w"
				}
				vars[name] = i
				ctl, ret, err := f.run(s.body, vars)
				if err != nil || ctl == "return" {
					return ctl, ret, err
				}
				if ctl == "break" {
					break
				}
			}
			if s.kind == "cfor" {
				// the loop's last w++ (or none when it broke out: w is
				// not read after the loop)
				delete(vars, "w")
			}
		case "break", "continue":
			return s.kind, 0, nil
		case "return":
			v, err := s.e.eval(vars)
			if err != nil {
				return "", 0, err
			}
			return "return", v, nil
		}
	}
	return "", 0, nil
}

// call is the reference's f(p, q) with g and trace 0: the result, g and
// trace after, or an error.
func (f *xfunc) call(p, q, g int64) (res, gAfter, trace int64, err error) {
	if p < f.p.lo || p > f.p.hi {
		return 0, 0, 0, errExpr // argument out of range
	}
	vars := map[string]int64{"p": p, "q": q, "g": g, "trace": 0}
	for _, d := range []struct {
		name string
		init *xnode
	}{{"u", f.uInit}, {"v", f.vIn}} {
		v, err := d.init.eval(vars)
		if err != nil {
			return 0, 0, 0, err
		}
		if rg := f.vars[d.name]; v < rg.lo || v > rg.hi {
			return 0, 0, 0, errExpr // initial value out of range
		}
		vars[d.name] = v
	}
	ctl, ret, err := f.run(f.body, vars)
	if err != nil {
		return 0, 0, 0, err
	}
	if ctl != "return" {
		ret = 0 // not generated: the body ends with a return
	}
	if ret < f.ret.lo || ret > f.ret.hi {
		return 0, 0, 0, errExpr // return value out of range
	}
	return ret, vars["g"], vars["trace"], nil
}

// genInit draws the initialiser of a local of range rg: mostly a value in
// the range (a short range would reject most expressions).
func genInit(r *rand.Rand, rg xvar, names []string) *xnode {
	if r.IntN(3) == 0 {
		return genFuncExpr(r, names)
	}
	return valueNode(rg.lo + r.Int64N(rg.hi-rg.lo+1))
}

// refused reports whether the model calling f with the constant argument p
// is refused when it is loaded: a constant argument out of the
// parameter's range, or a local's constant initialiser out of the local's
// (docs/model-format.md: initial values are checked).
func (f *xfunc) refused(p int64) bool {
	if p < f.p.lo || p > f.p.hi {
		return true
	}
	for _, d := range []struct {
		name string
		init *xnode
	}{{"u", f.uInit}, {"v", f.vIn}} {
		if c, v, _ := d.init.foldErr(); c && (v < f.vars[d.name].lo || v > f.vars[d.name].hi) {
			return true
		}
	}
	return false
}

// genRange draws a range: the whole of 32 bits (three times in four), or
// a short one.
func genRange(r *rand.Rand) xvar {
	if r.IntN(4) > 0 {
		return xvar{math.MinInt32, math.MaxInt32}
	}
	lo := genValue(r, false)
	return xvar{lo, min(lo+int64(r.IntN(60)), math.MaxInt32)}
}

// TestFunctionsAgreeWithTheDocumentedSemantics: random functions with
// local variables of declared ranges, if, range and C-style for loops,
// break, continue, early returns and a global written, called with
// variable arguments (the general code) and with constant ones (a
// specialisation compiled for those values, model.specialise), return the
// reference interpreter's value and leave its global, or fail where it
// fails (an expression's error, an assignment, initial value, argument or
// return value out of range).
func TestFunctionsAgreeWithTheDocumentedSemantics(t *testing.T) {
	count := draws(1000, 300)
	r := rand.New(rand.NewPCG(5, 6))
	var fails int
	for i := range count {
		f := &xfunc{ret: genRange(r), p: genRange(r), vars: map[string]xvar{"u": genRange(r), "v": genRange(r), "g": genRange(r), "trace": {math.MinInt32, math.MaxInt32}}}
		names := []string{"p", "q", "u", "v", "g"}
		f.uInit = genInit(r, f.vars["u"], []string{"p", "q", "g"})
		f.vIn = genInit(r, f.vars["v"], []string{"p", "q", "u", "g"})
		f.body = append(genStmts(r, 6, names, 0, false), &xstmt{kind: "return", e: genFuncExpr(r, names)})
		g0 := f.vars["g"].lo + r.Int64N(f.vars["g"].hi-f.vars["g"].lo+1)
		p, q := int64(r.IntN(21))-10, int64(r.IntN(21))-10
		if r.IntN(4) == 0 {
			p, q = genValue(r, false), genValue(r, false)
		}
		if r.IntN(8) > 0 {
			p = f.p.lo + r.Int64N(f.p.hi-f.p.lo+1)
		}
		want, wantG, wantTrace, wantErr := f.call(p, q, g0)
		if wantErr == errOpen {
			continue
		}
		if wantErr != nil {
			fails++
		}
		g := f.vars["g"]
		src := fmt.Sprintf("declarations: |\n  int[-2147483647-1,2147483647] a, b, res, trace;\n  int[%s,%s] g = %s;\n%s\ntemplates:\n  - name: P\n    locations:\n      - {name: s, initial: true}\n    edges:\n      - {from: s, to: s, update: \"res = f(a, b)\"}\n      - {from: s, to: s, update: \"res = f(%s, %s)\"}\n",
			litText(g.lo), litText(g.hi), litText(g0), indent(f.String(), "  "), litText(p), litText(q))
		fl, err := Parse("func.yaml", []byte(completeModel(src)))
		if err != nil {
			t.Fatalf("case %d: %v\n%s", i, err, src)
		}
		n, err := fl.Compile(nil)
		if refused := f.refused(p); refused != (err != nil) {
			t.Errorf("case %d: compiled with the error %v; refused by the reference: %v\n%s", i, err, refused, src)
			continue
		}
		if err != nil {
			continue
		}
		for edge, how := range []string{"variable arguments", "constant arguments"} {
			env := n.NewEnv()
			env.Vars[n.VarIndex("a")], env.Vars[n.VarIndex("b")] = int32(p), int32(q)
			runEdge(t, n, env, 0, edge)
			got, gotG, gotTrace := int64(env.Vars[n.VarIndex("res")]), int64(env.Vars[n.VarIndex("g")]), int64(env.Vars[n.VarIndex("trace")])
			if (env.Err != nil) != (wantErr != nil) || wantErr == nil && (got != want || gotG != wantG || gotTrace != wantTrace) {
				t.Errorf("case %d, %s: f(%d, %d) with g=%d: %d, g=%d, trace=%d (error %v); reference %d, g=%d, trace=%d (error %v)\n%s", i, how, p, q, g0, got, gotG, gotTrace, env.Err, want, wantG, wantTrace, wantErr, f)
			}
		}
	}
	if fails < count/20 || fails > count*3/4 {
		t.Errorf("%d of %d calls fail: the generator's values are off", fails, count)
	}
	t.Logf("%d functions, %d calls failing in the reference", count, fails)
}

func indent(s, by string) string {
	return by + strings.ReplaceAll(strings.TrimSuffix(s, "\n"), "\n", "\n"+by)
}

package queries

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/tcheck/tcheck/model"
	"github.com/tcheck/tcheck/model/syntax"
)

// Verdict is the answer to a query.
type Verdict int

const (
	Unknown   Verdict = iota // a limit stopped the search first
	Satisfied                // the property holds
	Violated                 // the property does not hold
	Error                    // the model raised a runtime error
)

var verdictNames = [...]string{"unknown", "satisfied", "violated", "error"}

func (v Verdict) String() string { return verdictNames[v] }

// MarshalText makes verdicts print as words in JSON.
func (v Verdict) MarshalText() ([]byte, error) { return []byte(v.String()), nil }

// UnmarshalText reads a verdict written by MarshalText.
func (v *Verdict) UnmarshalText(b []byte) error {
	for i, n := range verdictNames {
		if n == string(b) {
			*v = Verdict(i)
			return nil
		}
	}
	return fmt.Errorf("unknown verdict %q", b)
}

// Query is a compiled query.
type Query struct {
	Name    string // the name in the model file; "" for a formula given directly
	Src     string // the formula as written
	Pos     model.Pos
	Kind    syntax.QueryKind
	Formula *model.Formula // φ (for sup/inf: the condition, nil = true)
	// Formula2 is ψ of φ --> ψ.
	Formula2 *model.Formula
	Terms    []model.Term // sup/inf expressions
	Expect   Expectation
	Comment  string
	// Constants are the model constants the query mentions, with their
	// values at this parameter point (U in `t <= U`), for the output.
	Constants []NamedValue
	// Unjudged holds the expectation the model file gives for its own
	// parameters when the query is checked at others and that expectation
	// does not apply there (Expectation.ForOtherParameters): the verdict is
	// printed for information, not judged.
	Unjudged string
	// Err, when set, says why the query could not be compiled (a positioned
	// *model.Error): Check answers it with verdict Error without exploring,
	// so that one query tcheck cannot check does not stop the others.
	Err error
}

// NamedValue is a constant and its value.
type NamedValue struct {
	Name  string
	Value int64
}

// Expectation is a query's `expect:` entry.
type Expectation struct {
	Given   bool
	Verdict Verdict       // Satisfied or Violated for E<>/A[]/...
	Values  []ValueExpect // for sup/inf: one per expression
	Raw     string
	Pos     model.Pos
	// MaxStates, when positive, is the most stored states allowed.
	MaxStates int64
}

// ParseExpectation reads an `expect:` value for a query of the given kind.
func ParseExpectation(raw string, kind syntax.QueryKind, pos model.Pos) (Expectation, error) {
	e := Expectation{Raw: raw, Pos: pos}
	s := strings.TrimSpace(raw)
	if s == "" {
		return e, nil
	}
	e.Given = true
	if kind == syntax.QuerySup || kind == syntax.QueryInf {
		for _, v := range splitTop(s) {
			e.Values = append(e.Values, parseValueExpect(v))
		}
		return e, nil
	}
	switch strings.ToLower(s) {
	case "satisfied", "true", "holds":
		e.Verdict = Satisfied
	case "violated", "false", "fails":
		e.Verdict = Violated
	case "unknown":
		// what an over-approximation cannot decide (stopwatches: a goal
		// reached only symbolically)
		e.Verdict = Unknown
	default:
		return e, &model.Error{Pos: pos, Msg: fmt.Sprintf("expect: %q is not a verdict (want satisfied, violated or unknown)", raw)}
	}
	return e, nil
}

func normaliseValue(v string) string {
	return strings.Join(strings.Fields(v), "")
}

// ValueExpect is the expectation for one sup/inf value: either the value as
// printed ("12", "<12", "inf", "none"), or a comparison with a constant
// expression of the model ("<= U", "== T", ">= 2*D"), which holds when every
// value of the expression over the states concerned satisfies it.
type ValueExpect struct {
	Raw  string
	Op   string // "", "<=", "<", ">=", ">", "=="
	Expr string // the expression after Op
	// Bound is Expr's value, set when the query is compiled against a model.
	Bound    int64
	Compiled bool
}

var compareOps = []string{"<=", ">=", "==", "<", ">", "="}

func parseValueExpect(v string) ValueExpect {
	v = strings.TrimSpace(v)
	ve := ValueExpect{Raw: v}
	for _, op := range compareOps {
		if rest, ok := strings.CutPrefix(v, op); ok {
			if op == "=" {
				op = "=="
			}
			ve.Op, ve.Expr = op, strings.TrimSpace(rest)
			return ve
		}
	}
	return ve
}

// splitTop splits s at the commas that are not inside parentheses.
func splitTop(s string) []string {
	var parts []string
	depth, start := 0, 0
	for i, c := range s {
		switch c {
		case '(', '[':
			depth++
		case ')', ']':
			depth--
		case ',':
			if depth == 0 {
				parts = append(parts, s[start:i])
				start = i + 1
			}
		}
	}
	return append(parts, s[start:])
}

// ForOtherParameters returns what of e still applies when the model is
// checked with other parameter values than its file gives (verify --set, the
// points of a sweep): the comparisons with an expression of the model's
// constants (`<= U`, `== 2*D`), which are evaluated at the new values. A
// fixed verdict or value (`satisfied`, `12`) and max-states were written
// for the file's own parameters and no longer apply.
func (e Expectation) ForOtherParameters() Expectation {
	if e.MaxStates > 0 && !e.Given {
		return Expectation{}
	}
	if !e.Given || len(e.Values) == 0 {
		return Expectation{}
	}
	for _, v := range e.Values {
		if v.Op == "" || !strings.ContainsFunc(v.Expr, func(r rune) bool { return r == '_' || unicode.IsLetter(r) }) {
			return Expectation{}
		}
	}
	e.MaxStates = 0
	return e
}

// AtOtherParameters prepares q for a check at other parameter values than
// its model file gives: an expectation that does not apply there is set
// aside in Unjudged.
func (q *Query) AtOtherParameters() {
	e := q.Expect.ForOtherParameters()
	if q.Expect.Given && !e.Given {
		q.Unjudged = q.Expect.Raw
	}
	q.Expect = e
}

// compileExpect evaluates the expressions of value expectations against
// the model (constants and parameters). A bare number or expression
// without an operator means "==".
func compileExpect(net *model.Network, e *Expectation) error {
	for i := range e.Values {
		ve := &e.Values[i]
		expr := ve.Expr
		if ve.Op == "" {
			switch normaliseValue(ve.Raw) {
			case "inf", "none":
				continue
			}
			if strings.HasPrefix(ve.Raw, "<") || strings.HasPrefix(ve.Raw, ">") {
				continue
			}
			expr = ve.Raw
		}
		text := model.NewText(expr, e.Pos)
		x, err := syntax.ParseExpr(expr)
		if err != nil {
			return &model.Error{Pos: e.Pos, Msg: fmt.Sprintf("expect: %q: %v", ve.Raw, err)}
		}
		term, err := net.CompileTerm(x, text)
		if err != nil || term.Data == nil {
			return &model.Error{Pos: e.Pos, Msg: fmt.Sprintf("expect: %q is not a constant expression of the model", ve.Raw)}
		}
		env := net.NewEnv()
		env.Vars = net.InitialVars()
		v := term.Data(env)
		if env.Err != nil {
			return &model.Error{Pos: e.Pos, Msg: fmt.Sprintf("expect: %q: %v", ve.Raw, env.Err)}
		}
		if ve.Op == "" {
			ve.Op = "=="
			ve.Expr = expr
		}
		ve.Bound, ve.Compiled = int64(v), true
	}
	return nil
}

// Matches reports whether v meets the expectation; sup says whether v is a
// supremum (else an infimum).
func (ve ValueExpect) Matches(v Value, sup bool) bool {
	if normaliseValue(v.String()) == normaliseValue(ve.Raw) {
		return true
	}
	if !ve.Compiled || v.None {
		return false
	}
	if v.Approx {
		return ve.matchesBound(v, sup)
	}
	if v.Inf {
		return (sup && (ve.Op == ">=" || ve.Op == ">")) || (!sup && (ve.Op == "<=" || ve.Op == "<"))
	}
	if v.Exceeds {
		// the value is beyond Bound in the direction of the extreme
		if sup {
			return (ve.Op == ">" || ve.Op == ">=") && v.Bound >= ve.Bound
		}
		return (ve.Op == "<" || ve.Op == "<=") && v.Bound <= ve.Bound
	}
	c, e := v.Bound, ve.Bound
	// v.Strict: the extreme c is approached but not attained
	switch ve.Op {
	case "==":
		return !v.Strict && c == e
	case "<=":
		if sup {
			return c <= e
		}
		return c < e || (c == e && !v.Strict)
	case "<":
		if sup {
			return c < e || (c == e && v.Strict)
		}
		return c < e
	case ">=":
		if sup {
			return c > e || (c == e && !v.Strict)
		}
		return c >= e
	case ">":
		if sup {
			return c > e
		}
		return c > e || (c == e && v.Strict)
	}
	return false
}

// matchesBound decides an expectation from an approximate value: a sup of
// c bounds the exact supremum from above (below c if Strict), so it can
// confirm "<= e" and "< e" only; dually an approximate inf confirms only
// ">= e" and "> e". An approximate +∞ or "beyond K" confirms nothing.
func (ve ValueExpect) matchesBound(v Value, sup bool) bool {
	if v.Inf || v.Exceeds {
		return false
	}
	c, e := v.Bound, ve.Bound
	if sup {
		switch ve.Op {
		case "<=":
			return c <= e
		case "<":
			return c < e || (c == e && v.Strict)
		}
		return false
	}
	switch ve.Op {
	case ">=":
		return c >= e
	case ">":
		return c > e || (c == e && v.Strict)
	}
	return false
}

// String describes the expectation with its value: "<= U (= 8)".
func (ve ValueExpect) String() string {
	if !ve.Compiled || ve.Op == "" || ve.Expr == fmt.Sprint(ve.Bound) {
		return ve.Raw
	}
	return fmt.Sprintf("%s %s = %d", ve.Op, ve.Expr, ve.Bound)
}

// FromFile compiles the named queries of a model file (all of them when
// names is empty, in file order).
func FromFile(net *model.Network, f *model.File, names []string) ([]*Query, error) {
	var fqs []*model.FileQuery
	if len(names) == 0 {
		fqs = f.Queries
	} else {
		for _, n := range names {
			q := f.Query(n)
			if q == nil {
				return nil, fmt.Errorf("no query named %q in %s", n, f.Path)
			}
			fqs = append(fqs, q)
		}
	}
	var out []*Query
	for _, fq := range fqs {
		out = append(out, fromFileQuery(net, fq))
	}
	return out, nil
}

// fromFileQuery compiles one query of a model file with its expectation.
// A query that does not compile is returned with Err set.
func fromFileQuery(net *model.Network, fq *model.FileQuery) *Query {
	q, err := Compile(net, fq.Formula)
	if err != nil {
		q = &Query{Src: strings.TrimSpace(fq.Formula.S), Err: err}
	}
	q.Name, q.Comment, q.Pos = fq.Name, fq.Comment, fq.Pos
	if q.Err != nil {
		return q
	}
	if q.Expect, err = ParseExpectation(fq.Expect, q.Kind, fq.ExpectPos); err != nil {
		q.Err = err
		return q
	}
	if err := compileExpect(net, &q.Expect); err != nil {
		q.Err = err
		return q
	}
	q.Expect.MaxStates = fq.MaxStates
	return q
}

// FirstErr returns the first compile error among qs, nil if none: for
// callers that cannot check a query that does not compile.
func FirstErr(qs []*Query) error {
	for _, q := range qs {
		if q.Err != nil {
			return q.Err
		}
	}
	return nil
}

// Compile parses and compiles one query formula.
func Compile(net *model.Network, t model.Text) (*Query, error) {
	ast, err := model.ParseQuery(t)
	if err != nil {
		return nil, err
	}
	q := &Query{Src: strings.TrimSpace(t.S), Pos: t.Pos, Kind: ast.Kind}
	q.Constants = mentionedConstants(net, ast)
	switch ast.Kind {
	case syntax.QueryEF, syntax.QueryAG, syntax.QueryEG, syntax.QueryAF, syntax.QueryLeadsTo:
		if q.Formula, err = net.CompileFormula(ast.Formula, t); err != nil {
			return nil, err
		}
		if ast.Kind == syntax.QueryLeadsTo {
			if q.Formula2, err = net.CompileFormula(ast.Formula2, t); err != nil {
				return nil, err
			}
		}
	case syntax.QuerySup, syntax.QueryInf:
		if ast.Formula != nil {
			if q.Formula, err = net.CompileFormula(ast.Formula, t); err != nil {
				return nil, err
			}
		}
		for _, e := range ast.Exprs {
			term, err := net.CompileTerm(e, t)
			if err != nil {
				return nil, err
			}
			q.Terms = append(q.Terms, term)
		}
	}
	return q, nil
}

// mentionedConstants lists, in order of first mention, the identifiers of
// the query that name scalar constants or parameters of the model
// (quantified variables excepted).
func mentionedConstants(net *model.Network, q *syntax.Query) []NamedValue {
	var out []NamedValue
	seen := map[string]bool{}
	var walk func(e syntax.Expr, bound map[string]bool)
	walk = func(e syntax.Expr, bound map[string]bool) {
		switch x := e.(type) {
		case nil:
		case *syntax.Ident:
			if bound[x.Name] || seen[x.Name] {
				return
			}
			if v, ok := net.Constant(x.Name); ok {
				seen[x.Name] = true
				out = append(out, NamedValue{x.Name, v})
			}
		case *syntax.ParenExpr:
			walk(x.X, bound)
		case *syntax.UnaryExpr:
			walk(x.X, bound)
		case *syntax.BinaryExpr:
			walk(x.X, bound)
			walk(x.Y, bound)
		case *syntax.CondExpr:
			walk(x.Cond, bound)
			walk(x.Then, bound)
			walk(x.Else, bound)
		case *syntax.IndexExpr:
			walk(x.X, bound)
			walk(x.Index, bound)
		case *syntax.MemberExpr:
			walk(x.X, bound)
		case *syntax.CallExpr:
			for _, a := range x.Args {
				walk(a, bound)
			}
		case *syntax.QuantExpr:
			inner := map[string]bool{x.Var: true}
			for k := range bound {
				inner[k] = true
			}
			walk(x.Body, inner)
		}
	}
	walk(q.Formula, nil)
	walk(q.Formula2, nil)
	for _, e := range q.Exprs {
		walk(e, nil)
	}
	return out
}

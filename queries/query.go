package queries

import (
	"fmt"
	"strings"

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
}

// Expectation is a query's `expect:` entry.
type Expectation struct {
	Given   bool
	Verdict Verdict  // Satisfied or Violated for E<>/A[]/...
	Values  []string // for sup/inf: the expected values, as printed
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
		for _, v := range strings.Split(s, ",") {
			e.Values = append(e.Values, normaliseValue(v))
		}
		return e, nil
	}
	switch strings.ToLower(s) {
	case "satisfied", "true", "holds":
		e.Verdict = Satisfied
	case "violated", "false", "fails":
		e.Verdict = Violated
	default:
		return e, &model.Error{Pos: pos, Msg: fmt.Sprintf("expect: %q is not a verdict (want satisfied or violated)", raw)}
	}
	return e, nil
}

func normaliseValue(v string) string {
	return strings.Join(strings.Fields(v), "")
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
		q, err := Compile(net, fq.Formula)
		if err != nil {
			return nil, err
		}
		q.Name, q.Comment, q.Pos = fq.Name, fq.Comment, fq.Pos
		q.Expect, err = ParseExpectation(fq.Expect, q.Kind, fq.ExpectPos)
		if err != nil {
			return nil, err
		}
		q.Expect.MaxStates = fq.MaxStates
		out = append(out, q)
	}
	return out, nil
}

// Compile parses and compiles one query formula.
func Compile(net *model.Network, t model.Text) (*Query, error) {
	ast, err := model.ParseQuery(t)
	if err != nil {
		return nil, err
	}
	q := &Query{Src: strings.TrimSpace(t.S), Pos: t.Pos, Kind: ast.Kind}
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

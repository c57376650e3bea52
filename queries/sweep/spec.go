package sweep

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/tcheck/tcheck/model"
	"github.com/tcheck/tcheck/model/syntax"
	"github.com/tcheck/tcheck/queries"
)

// QuerySpec is one query of a sweep: a query of the model by name, or a
// formula given to the sweep.
type QuerySpec struct {
	// Name labels the query's column: the model query's name, the name
	// given with the formula, or "q1", "q2", ... for unnamed formulas.
	Name string
	// Formula is the formula for a query given to the sweep; "" for a query
	// of the model (FromModel).
	Formula   string
	FromModel bool
	Pos       model.Pos
	// Kind and Terms are read from the formula when the spec is built:
	// Terms are the expressions of a sup/inf query, as printed.
	Kind  syntax.QueryKind
	Terms []string
}

// Src returns the formula as written (from the model for model queries).
func (q *QuerySpec) Src(f *model.File) string {
	if q.FromModel {
		if fq := f.Query(q.Name); fq != nil {
			return strings.TrimSpace(fq.Formula.S)
		}
	}
	return q.Formula
}

// IsValue reports whether the query answers with values (sup/inf) rather
// than a verdict.
func (q *QuerySpec) IsValue() bool {
	return q.Kind == syntax.QuerySup || q.Kind == syntax.QueryInf
}

// Columns returns the column labels of the query: its name, or for a
// sup/inf with several expressions one "name[expr]" per expression.
func (q *QuerySpec) Columns() []string {
	if len(q.Terms) <= 1 {
		return []string{q.Name}
	}
	out := make([]string, len(q.Terms))
	for i, t := range q.Terms {
		out[i] = q.Name + "[" + t + "]"
	}
	return out
}

// Rule is an entry of a sweep's expectations: for the points where When
// holds (all points when When is empty), the expected answer of each listed
// query. Later rules override earlier ones for the same query.
type Rule struct {
	When    *Filter
	Expects []RuleExpect
}

// RuleExpect is the expectation of one query in a rule. Raw is a verdict
// (satisfied, violated) or, for sup/inf queries, values as in model files
// ("13", "<13", "inf", "none", a comma-separated list for several
// expressions), "= EXPR" (the value equals an expression over the model's
// constants), or "<= EXPR" / ">= EXPR" (every value is at most / at least
// the expression).
type RuleExpect struct {
	Query string
	Raw   string
	Pos   model.Pos
}

// Spec is a sweep: a model, queries, a grid of parameter values with an
// optional filter, expectations per point and the exploration options
// applied to every point.
type Spec struct {
	// File is the sweep file ("" for a sweep given on the command line).
	File string
	// Model is the model as referenced (a path or a bundled model's name);
	// ModelFile its parsed form and ModelSHA256 the digest of its source,
	// which identifies the model in result files.
	Model       string
	ModelFile   *model.File
	ModelSHA256 string
	// Set holds fixed parameter overrides applied to every point.
	Set     []Param
	Queries []QuerySpec
	Grid    Grid
	Where   *Filter
	Expect  []Rule
	Options Options
	// Comment is the sweep file's comment, for people.
	Comment string
}

// ModelSource is a model's source text and the name to use in positions.
type ModelSource struct {
	Ref  string // as referenced by the user or the sweep file
	Name string // file name for positions
	Src  []byte
	// Parse reads the source (model.Parse when nil; the command passes the
	// parser verify uses, which also reads other model formats).
	Parse func(name string, src []byte) (*model.File, error)
}

// parseModel parses a model source and fills the model fields of s.
func (s *Spec) parseModel(ms ModelSource) error {
	parse := ms.Parse
	if parse == nil {
		parse = model.Parse
	}
	f, err := parse(ms.Name, ms.Src)
	if err != nil {
		return err
	}
	sum := sha256.Sum256(ms.Src)
	s.Model, s.ModelFile, s.ModelSHA256 = ms.Ref, f, hex.EncodeToString(sum[:])
	return nil
}

// namedFormula matches "name=formula" on the command line: a name followed
// by '=' that does not start '=='.
var namedFormula = regexp.MustCompile(`^\s*([A-Za-z_][A-Za-z0-9_-]*)\s*=([^=].*)$`)

// queryName matches what can only be a query's name, never a formula.
var queryName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]*$`)

// QueryArg turns a -q argument into a query: the name of a query of the
// model, "name=formula", or a formula (named "q<i>", i counted from 1 over
// all queries of the sweep).
func QueryArg(f *model.File, arg string, i int) (QuerySpec, error) {
	name := strings.TrimSpace(arg)
	if fq := f.Query(name); fq != nil {
		return QuerySpec{Name: fq.Name, FromModel: true, Pos: fq.Pos}, nil
	}
	if queryName.MatchString(name) {
		var names []string
		for _, q := range f.Queries {
			names = append(names, q.Name)
		}
		return QuerySpec{}, fmt.Errorf("model %s has no query named %s (its queries: %s)", f.Name, name, strings.Join(names, ", "))
	}
	pos := model.Pos{File: fmt.Sprintf("-q[%d]", i), Line: 1, Col: 1}
	if m := namedFormula.FindStringSubmatch(arg); m != nil {
		return QuerySpec{Name: m[1], Formula: strings.TrimSpace(m[2]), Pos: pos}, nil
	}
	return QuerySpec{Name: fmt.Sprintf("q%d", i), Formula: name, Pos: pos}, nil
}

// finish checks the spec against its model: the grid and Set name
// parameters of the model, each once; queries exist and parse; query names
// are distinct; expectations name queries of the sweep. With no queries,
// every query of the model is swept.
func (s *Spec) finish() error {
	f := s.ModelFile
	params := map[string]bool{}
	var pnames []string
	for _, p := range f.Params {
		params[p.Name] = true
		pnames = append(pnames, p.Name)
	}
	if err := s.Grid.Validate(); err != nil {
		return err
	}
	for _, n := range s.Grid.Names() {
		if !params[n] {
			return fmt.Errorf("grid: %s is not a parameter of model %s (its parameters: %s)", n, f.Name, strings.Join(pnames, ", "))
		}
	}
	for i, p := range s.Set {
		if !params[p.Name] {
			return fmt.Errorf("set: %s is not a parameter of model %s (its parameters: %s)", p.Name, f.Name, strings.Join(pnames, ", "))
		}
		if slices.Contains(s.Grid.Names(), p.Name) {
			return fmt.Errorf("parameter %s is both swept and set", p.Name)
		}
		for _, q := range s.Set[:i] {
			if q.Name == p.Name {
				return fmt.Errorf("parameter %s is set twice", p.Name)
			}
		}
	}
	if len(s.Queries) == 0 {
		for _, fq := range f.Queries {
			s.Queries = append(s.Queries, QuerySpec{Name: fq.Name, FromModel: true, Pos: fq.Pos})
		}
		if len(s.Queries) == 0 {
			return fmt.Errorf("model %s has no queries: give some with -q", f.Name)
		}
	}
	seen := map[string]bool{}
	for i := range s.Queries {
		q := &s.Queries[i]
		if seen[q.Name] {
			return fmt.Errorf("two queries are named %s", q.Name)
		}
		seen[q.Name] = true
		var text model.Text
		if q.FromModel {
			fq := f.Query(q.Name)
			if fq == nil {
				return fmt.Errorf("model %s has no query named %s", f.Name, q.Name)
			}
			text = fq.Formula
		} else {
			text = model.NewText(q.Formula, q.Pos)
		}
		ast, err := model.ParseQuery(text)
		if err != nil {
			return err
		}
		q.Kind = ast.Kind
		q.Terms = nil
		for _, e := range ast.Exprs {
			q.Terms = append(q.Terms, syntax.Format(e))
		}
	}
	for _, r := range s.Expect {
		for _, e := range r.Expects {
			q := s.Query(e.Query)
			if q == nil {
				return &model.Error{Pos: e.Pos, Msg: fmt.Sprintf("expect: the sweep has no query named %s", e.Query)}
			}
			if err := checkExpectSyntax(q, e); err != nil {
				return err
			}
		}
	}
	return nil
}

// Narrow restricts the sweep to the points where cond also holds.
func (s *Spec) Narrow(cond string) error {
	if strings.TrimSpace(cond) == "" {
		return nil
	}
	src := cond
	if s.Where.Src != "" {
		src = "(" + s.Where.Src + ") && (" + cond + ")"
	}
	f, err := ParseFilter(src)
	if err != nil {
		return err
	}
	s.Where = f
	return nil
}

// Query returns the query called name, or nil.
func (s *Spec) Query(name string) *QuerySpec {
	for i := range s.Queries {
		if s.Queries[i].Name == name {
			return &s.Queries[i]
		}
	}
	return nil
}

// HasExpectations reports whether any point has an expectation.
func (s *Spec) HasExpectations() bool {
	for _, r := range s.Expect {
		if len(r.Expects) > 0 {
			return true
		}
	}
	return false
}

// Points enumerates the sweep's points: the grid filtered by Where, which
// sees the model's parameters with the Set overrides and the point's values.
func (s *Spec) Points() ([]Point, error) {
	var defaults []Param
	for _, p := range s.ModelFile.Params {
		defaults = append(defaults, Param{p.Name, p.Value})
	}
	return s.Grid.Points(func(ps []Param) (bool, error) {
		return s.Where.Keep(defaults, s.Set, ps)
	})
}

// Overrides returns the parameter overrides of a point (Set and the
// point's values).
func (s *Spec) Overrides(p Point) map[string]int64 {
	ov := make(map[string]int64, len(s.Set)+len(p.Params))
	for _, q := range s.Set {
		ov[q.Name] = q.Value
	}
	for _, q := range p.Params {
		ov[q.Name] = q.Value
	}
	return ov
}

// expectationsAt returns the raw expectation of each query at p (by query
// index; zero value when none).
func (s *Spec) expectationsAt(p Point) ([]RuleExpect, error) {
	out := make([]RuleExpect, len(s.Queries))
	var defaults []Param
	for _, q := range s.ModelFile.Params {
		defaults = append(defaults, Param{q.Name, q.Value})
	}
	for _, r := range s.Expect {
		ok, err := r.When.Keep(defaults, s.Set, p.Params)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		for _, e := range r.Expects {
			for i := range s.Queries {
				if s.Queries[i].Name == e.Query {
					out[i] = e
				}
			}
		}
	}
	return out, nil
}

// boundExpect is a parsed "= EXPR", "<= EXPR" or ">= EXPR" expectation.
type boundExpect struct {
	op   string // "=", "<=", ">="
	expr *ModelExpr
}

var boundRE = regexp.MustCompile(`^\s*(<=|>=|==|=)\s*(.+)$`)

// parseBound reads a bound expectation; ok is false for other forms.
func parseBound(raw string) (b boundExpect, ok bool, err error) {
	m := boundRE.FindStringSubmatch(raw)
	if m == nil {
		return b, false, nil
	}
	op := m[1]
	if op == "==" {
		op = "="
	}
	x, err := ParseModelExpr(m[2])
	if err != nil {
		return b, true, err
	}
	return boundExpect{op: op, expr: x}, true, nil
}

func checkExpectSyntax(q *QuerySpec, e RuleExpect) error {
	if q.IsValue() {
		if _, ok, err := parseBound(e.Raw); ok {
			if err != nil {
				return &model.Error{Pos: e.Pos, Msg: fmt.Sprintf("expect %s: %v", e.Query, err)}
			}
			return nil
		}
	}
	_, err := queries.ParseExpectation(e.Raw, q.Kind, e.Pos)
	return err
}

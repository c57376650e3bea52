package refcheck_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/tcheck/tcheck/model"
	"github.com/tcheck/tcheck/model/syntax"
	"github.com/tcheck/tcheck/queries"
	"github.com/tcheck/tcheck/refcheck"
)

// answer runs the reference on a compiled query: the verdict ("satisfied"
// or "violated") of E<>, A[], E[], A<> and -->, the values of sup over
// clocks; ok = false for queries the reference does not decide (inf, sup
// over data).
func answer(t *testing.T, net *model.Network, q *queries.Query, opts refcheck.Options) (verdict string, values []refcheck.SupValue, ok bool, err error) {
	t.Helper()
	switch q.Kind {
	case syntax.QueryEF, syntax.QueryAG:
		var r bool
		if q.Kind == syntax.QueryEF {
			r, err = refcheck.Reachable(net, q.Formula, opts)
		} else {
			r, err = refcheck.Invariant(net, q.Formula, opts)
		}
		if r {
			return "satisfied", nil, true, err
		}
		return "violated", nil, true, err
	case syntax.QueryEG, syntax.QueryAF, syntax.QueryLeadsTo:
		r, err := refcheck.Live(net, q.Kind, q.Formula, q.Formula2, opts)
		if r {
			return "satisfied", nil, true, err
		}
		return "violated", nil, true, err
	case syntax.QuerySup, syntax.QueryInf:
		sup := q.Kind == syntax.QuerySup
		for _, term := range q.Terms {
			var v refcheck.SupValue
			var err error
			switch {
			case term.Clock > 0 && sup:
				v, err = refcheck.Sup(net, q.Formula, term.Clock, opts)
			case term.Clock > 0:
				v, err = refcheck.Inf(net, q.Formula, term.Clock, opts)
			default:
				v, err = refcheck.Data(net, q.Formula, term.Data, sup, opts)
			}
			if err != nil {
				return "", nil, true, err
			}
			values = append(values, v)
		}
		return "", values, true, nil
	}
	return "", nil, false, nil
}

// supMatches compares a reference supremum with an expectation: a value
// as printed ("12", "<12", "inf") or "<= EXPR".
func supMatches(v refcheck.SupValue, e queries.ValueExpect) bool {
	switch e.Op {
	case "", "==":
		// a plain value ("12", "<12", "inf", ">=64") compiles to == when
		// numeric
		want := strings.ReplaceAll(e.Raw, " ", "")
		if !strings.HasPrefix(want, ">=") {
			want = strings.TrimLeft(want, "=")
		}
		return v.String() == want
	}
	if v.Infimum {
		// the values are at least (more than) the bound, or the
		// infimum at most it
		switch e.Op {
		case ">=":
			return v.None || v.Bound >= e.Bound
		case ">":
			return v.None || v.Bound > e.Bound || v.Bound == e.Bound && (v.Strict || v.AtLeast)
		case "<=":
			return !v.None && !v.AtLeast && v.Bound <= e.Bound
		}
		return false
	}
	switch e.Op {
	case "<=":
		return v.None || (!v.Inf && !v.AtLeast && v.Bound <= e.Bound)
	case "<":
		return v.None || (!v.Inf && !v.AtLeast && (v.Bound < e.Bound || v.Bound == e.Bound && v.Strict))
	}
	return false
}

// TestSemanticsModelsAgree checks the reference against the hand-derived
// expectations of tcheck's semantics models (queries/testdata/semantics):
// every E<>, A[], liveness and sup-over-a-clock query there must get the
// expected answer.
func TestSemanticsModelsAgree(t *testing.T) {
	if n := checkExpectations(t, "../queries/testdata/semantics/*.yaml"); n < 40 {
		t.Errorf("only %d queries checked", n)
	}
}

// TestOwnModels checks the models of refcheck/testdata (cases found while
// comparing with tcheck), whose expectations are derived by hand in each
// file.
func TestOwnModels(t *testing.T) {
	if n := checkExpectations(t, "testdata/*.yaml"); n == 0 {
		t.Error("no queries checked")
	}
}

// checkExpectations checks every query the reference decides in the
// model files matching glob against its expect: entry and returns how
// many it checked.
func checkExpectations(t *testing.T, glob string) int {
	files, err := filepath.Glob(glob)
	if err != nil || len(files) == 0 {
		t.Fatalf("no models: %v", err)
	}
	checked := 0
	for _, path := range files {
		f, net, err := model.Load(path, nil)
		if err != nil {
			t.Fatal(err)
		}
		qs, err := queries.FromFile(net, f, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range qs {
			name := strings.TrimSuffix(filepath.Base(path), ".yaml") + "/" + q.Name
			t.Run(name, func(t *testing.T) {
				if net.Stopwatches {
					t.Skip("stopwatches are not supported by the reference (TestStopwatchModelsAreUnsupported)")
				}
				verdict, values, ok, err := answer(t, net, q, refcheck.Options{})
				if !ok {
					t.Skipf("%s: not decided by the reference", q.Src)
				}
				if err != nil {
					t.Fatalf("%s: %v", q.Src, err)
				}
				checked++
				if !q.Expect.Given {
					t.Fatalf("%s: no expectation", q.Src)
				}
				if q.Kind == syntax.QuerySup || q.Kind == syntax.QueryInf {
					if len(values) != len(q.Expect.Values) {
						t.Fatalf("%s: %d values, %d expected", q.Src, len(values), len(q.Expect.Values))
					}
					for k, v := range values {
						if !supMatches(v, q.Expect.Values[k]) {
							t.Errorf("%s: got %s, want %q (op %q)", q.Src, v, q.Expect.Values[k].Raw, q.Expect.Values[k].Op)
						}
					}
					return
				}
				if want := q.Expect.Verdict.String(); verdict != want {
					t.Errorf("%s: got %s, want %s", q.Src, verdict, want)
				}
			})
		}
	}
	return checked
}

package queries

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/tcheck/tcheck/model"
	"github.com/tcheck/tcheck/zone"
)

// TestHullAgreesWithExact checks the convex-hull over-approximation
// (Options.Hull, architecture.md "Convex hull") against exact exploration on
// every semantics model and on Fischer's protocol with a correct and a
// wrong delay: E<> and A[] verdicts are the same (a goal the hull reaches is
// re-checked exactly, hull.yaml has one that only the hull reaches), and a
// sup (inf) under the hull is an upper (lower) bound of the exact value, or
// that value itself where the hull's exceeded the extrapolation bound and
// the exact exploration answered.
func TestHullAgreesWithExact(t *testing.T) {
	files, err := filepath.Glob("testdata/semantics/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no models: %v", err)
	}
	type instance struct {
		path string
		set  map[string]int64
	}
	var cases []instance
	for _, f := range files {
		cases = append(cases, instance{f, nil})
	}
	cases = append(cases,
		instance{"../testdata/fischer.yaml", map[string]int64{"N": 4}},
		instance{"../testdata/fischer.yaml", map[string]int64{"N": 4, "w": 9}})
	for _, tc := range cases {
		t.Run(filepath.Base(tc.path), func(t *testing.T) {
			f, net := loadModel(t, tc.path, tc.set)
			qs, err := FromFile(net, f, nil)
			if err != nil {
				t.Fatal(err)
			}
			exact := checkAll(t, net, qs, Options{})
			hull := checkAll(t, net, qs, Options{Hull: true})
			for i, h := range hull {
				e := exact[i]
				if h.Verdict != e.Verdict {
					t.Errorf("%s: hull %v, exact %v", h.Query.Name, h.Verdict, e.Verdict)
				}
				for j, hv := range h.Values {
					ev := e.Values[j]
					switch {
					case ev.None || hv.None:
						if ev.None != hv.None {
							t.Errorf("%s: hull %v, exact %v", h.Query.Name, hv, ev)
						}
					case !hv.Approx:
						// the exact exploration answered, the hull's value
						// having exceeded its bound (checkSup; finding 7
						// of docs/difftest.md): it must be the exact value
						if fmt.Sprint(hv) != fmt.Sprint(ev) {
							t.Errorf("%s: hull value %v is exact, but the exact value is %v", h.Query.Name, hv, ev)
						}
					case hv.Inf || hv.Exceeds || ev.Inf || ev.Exceeds:
					case !hv.Infimum && hv.Bound < ev.Bound, hv.Infimum && hv.Bound > ev.Bound:
						t.Errorf("%s: hull %v does not bound exact %v", h.Query.Name, hv, ev)
					}
					if h.Trace != nil && hv.Approx {
						t.Errorf("%s: a witness for an approximate value", h.Query.Name)
					}
				}
			}
		})
	}
}

// TestHullOnlyReachable pins what hull.yaml is built for: the hull reaches
// P.M with x == 2, the exact re-check does not, and the bounds are the
// hull's (<=2, >=2) where the exact values are 1 and 3.
func TestHullOnlyReachable(t *testing.T) {
	const path = "testdata/semantics/hull.yaml"
	f, net := loadModel(t, path, nil)
	qs, err := FromFile(net, f, nil)
	if err != nil {
		t.Fatal(err)
	}
	rs := checkAll(t, net, qs, Options{Hull: true})
	want := map[string]string{"two": "violated", "never-two": "satisfied", "four": "satisfied", "below-two": "<=2", "above-two": ">=2"}
	for _, r := range rs {
		got := r.Verdict.String()
		if len(r.Values) > 0 {
			got = r.Values[0].String()
		}
		if got != want[r.Query.Name] {
			t.Errorf("%s: got %s, want %s", r.Query.Name, got, want[r.Query.Name])
		}
		if r.Query.Name == "two" && r.Rounds != 2 {
			t.Errorf("two: %d explorations, want 2 (hull, then exact)", r.Rounds)
		}
	}
}

// TestApproxValueMatches checks which expectations a bound can confirm.
func TestApproxValueMatches(t *testing.T) {
	for _, tc := range []struct {
		v    Value
		op   string
		e    int64
		sup  bool
		want bool
	}{
		{Value{Bound: 8, Approx: true}, "<=", 8, true, true},
		{Value{Bound: 8, Approx: true}, "<=", 9, true, true},
		{Value{Bound: 8, Approx: true}, "<=", 7, true, false},
		{Value{Bound: 8, Approx: true}, "<", 8, true, false},
		{Value{Bound: 8, Approx: true, Strict: true}, "<", 8, true, true},
		{Value{Bound: 8, Approx: true}, "==", 8, true, false},
		{Value{Bound: 8, Approx: true}, ">=", 8, true, false},
		{Value{Inf: true, Approx: true}, "<=", 100, true, false},
		{Value{Exceeds: true, Bound: 100, Approx: true}, ">", 50, true, false},
		{Value{Bound: 3, Approx: true, Infimum: true}, ">=", 3, false, true},
		{Value{Bound: 3, Approx: true, Infimum: true}, ">", 2, false, true},
		{Value{Bound: 3, Approx: true, Infimum: true}, "<=", 3, false, false},
		{Value{Bound: 3, Approx: true, Infimum: true}, "==", 3, false, false},
	} {
		ve := ValueExpect{Raw: tc.op + " E", Op: tc.op, Expr: "E", Bound: tc.e, Compiled: true}
		if got := ve.Matches(tc.v, tc.sup); got != tc.want {
			t.Errorf("%v against %s %d: got %v, want %v", tc.v, tc.op, tc.e, got, tc.want)
		}
	}
}

// checkAll checks qs on net with opts.
func checkAll(t *testing.T, net *model.Network, qs []*Query, opts Options) []*Result {
	t.Helper()
	return Check(zone.NewSystem(net), qs, opts)
}

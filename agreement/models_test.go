package agreement

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tcheck/tcheck/model"
	"github.com/tcheck/tcheck/queries"
	"github.com/tcheck/tcheck/zone"
)

// compile loads a bundled model with parameter overrides.
func compile(t *testing.T, name string, overrides map[string]int64) (*model.File, *model.Network) {
	t.Helper()
	src, err := Source(name)
	if err != nil {
		t.Fatal(err)
	}
	f, err := model.Parse(name, src)
	if err != nil {
		t.Fatal(err)
	}
	net, err := f.Compile(overrides)
	if err != nil {
		t.Fatalf("%s %v: %v", name, overrides, err)
	}
	return f, net
}

// TestEveryModelLoads checks that every bundled model, mutants included,
// loads and compiles with all its queries, and that each mutant's
// replacements apply (Source fails when one does not occur exactly once).
func TestEveryModelLoads(t *testing.T) {
	all := All()
	if len(all) != 13 {
		t.Errorf("%d bundled models, want 3 bases and 10 variants", len(all))
	}
	for _, m := range all {
		t.Run(m.Name, func(t *testing.T) {
			f, net := compile(t, m.Name, nil)
			if f.Name != m.Name {
				t.Errorf("name %q, want %q", f.Name, m.Name)
			}
			if _, err := queries.FromFile(net, f, nil); err != nil {
				t.Fatal(err)
			}
			if m.Title == "" || m.Comment == "" {
				t.Errorf("no title or comment")
			}
			if m.Base != "" {
				base, _ := Source(m.Base)
				src, _ := Source(m.Name)
				if strings.Contains(string(src), string(base)) {
					t.Errorf("mutant text contains its base unchanged")
				}
			}
		})
	}
}

// TestLargerNLoadsAndRuns checks that the agreement model is not tied to
// n = 3 (paper Sect. 5 verifies n = 3; the reconstruction must at least
// load and run for more processes).
func TestLargerNLoadsAndRuns(t *testing.T) {
	for _, n := range []int64{2, 4, 5} {
		f, net := compile(t, "agreement", map[string]int64{"n": n, "f": 0})
		if got := len(net.Procs); got != 1+2*int(n)+int(n)*2 {
			t.Errorf("n=%d: %d processes", n, got)
		}
		qs, err := queries.FromFile(net, f, []string{"agreement", "decide-0"})
		if err != nil {
			t.Fatal(err)
		}
		opts := queries.Options{}
		opts.Limits.MaxStates = 20000
		for _, r := range queries.Check(zone.NewSystem(net), qs, opts) {
			if r.Verdict == queries.Violated || r.Verdict == queries.Error {
				t.Errorf("n=%d: %s: %v %v", n, r.Query.Name, r.Verdict, r.Err)
			}
		}
	}
}

// instance is a parameter point of the paper's tables.
type instance struct{ c1, c2, d, f int64 }

func (in instance) overrides(name string) map[string]int64 {
	o := map[string]int64{"c1": in.c1, "c2": in.c2, "d": in.d}
	if strings.HasPrefix(name, "agreement") {
		o["f"] = in.f
	}
	return o
}

func (in instance) String() string {
	return fmt.Sprintf("c1=%d,c2=%d,d=%d,f=%d", in.c1, in.c2, in.d, in.f)
}

// checkAll checks every query of a bundled model at an instance against
// its expectation; every violated A[] and satisfied E<> must come with a
// replayed trace, and every sup with a replayed witness.
func checkAll(t *testing.T, name string, in instance, override map[string]queries.Verdict) {
	t.Helper()
	f, net := compile(t, name, in.overrides(name))
	qs, err := queries.FromFile(net, f, nil)
	if err != nil {
		t.Fatal(err)
	}
	// A sup/inf query overridden as Violated must miss its value
	// expectation (e.g. worst-time above U when termination fails).
	missing := map[string]bool{}
	for _, q := range qs {
		if v, ok := override[q.Name]; ok {
			if len(q.Expect.Values) > 0 && v == queries.Violated {
				missing[q.Name] = true
				continue
			}
			q.Expect.Given, q.Expect.Verdict = true, v
		}
	}
	for _, r := range queries.Check(zone.NewSystem(net), qs, queries.Options{}) {
		if missing[r.Query.Name] {
			if r.Matches() || r.Verdict != queries.Satisfied {
				t.Errorf("%s %v: %s: got %v %v, want a value beyond %s", name, in, r.Query.Name, r.Verdict, r.Values, r.Query.Expect.Raw)
			}
			continue
		}
		if !r.Matches() {
			t.Errorf("%s %v: %s: got %v %v, want %s (%v %v)", name, in, r.Query.Name, r.Verdict, r.Values, r.Query.Expect.Raw, r.TraceErr, r.Err)
		}
		needTrace := (r.Verdict == queries.Violated && strings.HasPrefix(r.Query.Src, "A[]")) ||
			(r.Verdict == queries.Satisfied && len(r.Values) > 0) ||
			(r.Verdict == queries.Satisfied && strings.HasPrefix(r.Query.Src, "E<>"))
		if needTrace && (r.Trace == nil || r.TraceErr != nil) {
			t.Errorf("%s %v: %s: no replayed trace: %v", name, in, r.Query.Name, r.TraceErr)
		}
	}
}

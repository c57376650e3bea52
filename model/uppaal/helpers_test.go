package uppaal

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tcheck/tcheck/model"
	"github.com/tcheck/tcheck/queries"
	"github.com/tcheck/tcheck/zone"
)

var update = flag.Bool("update", false, "rewrite golden files")

// demoDir holds the demo models in XML, XTA (+ .q) and YAML.
const demoDir = "../../testdata/uppaal"

// outcome is what a query's check gives: the verdict or values, and the
// number of stored states. Two models mean the same when their outcomes
// are equal query by query.
type outcome struct {
	Name    string
	Verdict string
	Stored  int64
	Matches bool // the result meets the query's expectation
	Expect  bool // the query has an expectation
}

func (o outcome) String() string {
	return fmt.Sprintf("%s: %s (%d stored)", o.Name, o.Verdict, o.Stored)
}

// check compiles f and checks all its queries.
func check(t *testing.T, f *model.File, opts queries.Options) []outcome {
	t.Helper()
	net, err := f.Compile(nil)
	if err != nil {
		t.Fatalf("%s: %v", f.Path, err)
	}
	qs, err := queries.FromFile(net, f, nil)
	if err != nil {
		t.Fatalf("%s: %v", f.Path, err)
	}
	if opts.Limits.MaxStates == 0 {
		opts.Limits.MaxStates = 500000
	}
	opts.NoTrace = true
	var out []outcome
	for _, r := range queries.Check(zone.NewSystem(net), qs, opts) {
		v := r.Verdict.String()
		if len(r.Values) > 0 {
			var vs []string
			for _, x := range r.Values {
				vs = append(vs, x.String())
			}
			v = strings.Join(vs, ",")
		}
		// unknown is an answer only where it is the expectation (a goal
		// that only an over-approximation reaches)
		expectedUnknown := r.Verdict == queries.Unknown && r.Query.Expect.Given && r.Matches()
		if (r.Verdict == queries.Unknown || r.Verdict == queries.Error) && !expectedUnknown {
			t.Errorf("%s: query %s: %s (%v %v)", f.Path, r.Query.Name, r.Verdict, r.Err, r.TraceErr)
		}
		out = append(out, outcome{Name: r.Query.Name, Verdict: v, Stored: r.Stats.Stored, Matches: r.Matches(), Expect: r.Query.Expect.Given})
	}
	return out
}

// sameOutcomes reports the first difference between two lists of outcomes
// (names aside when ignoreNames), or "".
func sameOutcomes(a, b []outcome, ignoreNames bool) string {
	if len(a) != len(b) {
		return fmt.Sprintf("%d queries, then %d", len(a), len(b))
	}
	for i := range a {
		x, y := a[i], b[i]
		if ignoreNames {
			y.Name = x.Name
		}
		if x.Verdict != y.Verdict || x.Stored != y.Stored || x.Name != y.Name {
			return fmt.Sprintf("query %d: %v, then %v", i+1, x, y)
		}
	}
	return ""
}

// load reads a model file with ParseFile.
func load(t *testing.T, path string) *model.File {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := ParseFile(path, src)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// golden compares got with the file testdata/name (rewritten with -update).
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if string(want) != got {
		t.Errorf("output differs from %s (run with -update and inspect the diff):\n%s", path, got)
	}
}

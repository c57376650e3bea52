package queries

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/tcheck/tcheck/model"
	"github.com/tcheck/tcheck/model/syntax"
	"github.com/tcheck/tcheck/zone"
)

func loadModel(t *testing.T, path string, overrides map[string]int64) (*model.File, *model.Network) {
	t.Helper()
	f, net, err := model.Load(path, overrides)
	if err != nil {
		t.Fatal(err)
	}
	return f, net
}

// checkFile verifies every query of a model file with opts and fails the
// test when a result misses its expectation or a trace that should exist
// does not (every trace returned has been replayed by Check).
func checkFile(t *testing.T, path string, overrides map[string]int64, opts Options) []*Result {
	t.Helper()
	f, net := loadModel(t, path, overrides)
	qs, err := FromFile(net, f, nil)
	if err != nil {
		t.Fatal(err)
	}
	results := Check(zone.NewSystem(net), qs, opts)
	for _, r := range results {
		if !r.Matches() {
			var vs []string
			for _, v := range r.Values {
				vs = append(vs, v.String())
			}
			t.Errorf("%s: query %s (%s): got %v %v, want %s (trace error: %v, model error: %v)",
				path, r.Query.Name, r.Query.Src, r.Verdict, vs, r.Query.Expect.Raw, r.TraceErr, r.Err)
		}
		wantTrace := (r.Verdict == Satisfied && r.Query.Kind == syntax.QueryEF) ||
			(r.Verdict == Violated && r.Query.Kind == syntax.QueryAG)
		if wantTrace && !opts.NoTrace && (r.Trace == nil || r.TraceErr != nil) {
			t.Errorf("%s: query %s: no replayed trace: %v", path, r.Query.Name, r.TraceErr)
		}
	}
	return results
}

// TestSemanticsModels checks the small models of testdata/semantics, whose
// expected verdicts are derived by hand in each file (committed and urgent
// locations, urgent channels, binary and broadcast synchronisation and
// their update order, select, invariants, sup/inf), under every
// extrapolation: the abstraction must never change a verdict.
func TestSemanticsModels(t *testing.T) {
	files, err := filepath.Glob("testdata/semantics/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no models: %v", err)
	}
	for _, path := range files {
		for _, kind := range []zone.ExtraKind{zone.ExtraLUPlus, zone.ExtraLU, zone.ExtraMPlus, zone.ExtraM, zone.ExtraNone} {
			for _, global := range []bool{false, true} {
				name := strings.TrimSuffix(filepath.Base(path), ".yaml") + "/" + kind.String()
				if global {
					name += "/global"
				}
				t.Run(name, func(t *testing.T) {
					opts := Options{Extrapolation: kind, GlobalBounds: global}
					opts.Limits.MaxStates = 100000
					checkFile(t, path, nil, opts)
					// zones stored as matrices instead of minimal
					// constraint sets: the same answers
					opts.FullZones = true
					checkFile(t, path, nil, opts)
				})
			}
		}
	}
}

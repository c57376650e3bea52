package queries

import (
	"path/filepath"
	"strconv"
	"testing"

	"github.com/tcheck/tcheck/model"
	"github.com/tcheck/tcheck/zone"
)

// TestWorkersKeepVerdicts checks the parallel search (Options.Workers,
// zone.SearchWorkers) against the sequential one on every model under
// testdata/ with queries (the semantics models, Fischer, CSMA/CD and the
// UPPAAL examples) and on instances large enough for the workers to run at
// once: the verdicts, the sup/inf values and the number of discrete states
// stored are the same (the stored zones may differ: inclusion depends on
// the order in which workers store them), and every witness replays (Check
// turns one that does not into an error). Run it with -race.
func TestWorkersKeepVerdicts(t *testing.T) {
	cases := append(globModels(t, "testdata/semantics/*.yaml", "../testdata/*.yaml", "../testdata/uppaal/*.yaml"),
		modelInstance{"../testdata/fischer.yaml", map[string]int64{"N": 6}},
		modelInstance{"../testdata/fischer.yaml", map[string]int64{"N": 5, "w": 9}},
		modelInstance{"../testdata/csmacd.yaml", map[string]int64{"N": 6}},
		// hundreds of zones under one discrete part: the workers' covered
		// tests read one chain at once, without its lock
		modelInstance{"../zone/testdata/independent-loops.yaml", map[string]int64{"N": 4}})
	configs := []struct {
		name string
		opts Options
	}{
		{"workers=4", Options{Workers: 4}},
		{"workers=3+dfs", Options{Workers: 3, Order: zone.DFS}},
		{"workers=2+alu", Options{Workers: 2, Subsumption: zone.ALU}},
		{"workers=3+full-zones+m+", Options{Workers: 3, FullZones: true, Extrapolation: zone.ExtraMPlus}},
	}
	for _, tc := range cases {
		t.Run(tc.name(), func(t *testing.T) {
			net, qs := tc.load(t)
			base := checkAll(t, net, qs, Options{})
			if testing.Short() {
				for _, b := range base {
					if b.Stats.Stored > 3000 {
						t.Skip("large instance")
					}
				}
			}
			for _, c := range configs {
				opts := c.opts
				if c.opts.Extrapolation != 0 || c.opts.Subsumption != 0 || c.opts.FullZones {
					// the baseline of a config that changes the abstraction
					seq := opts
					seq.Workers = 1
					base = checkAll(t, net, qs, seq)
				} else {
					base = checkAll(t, net, qs, Options{Order: opts.Order})
				}
				sameAnswers(t, c.name, "with workers", "without", checkAll(t, net, qs, opts), base)
			}
		})
	}
}

// sameAnswers reports where got, the results of a configuration (name)
// that must not change what is reachable, differs from base: in a
// verdict, a sup/inf value or, for a completed exploration, the number of
// discrete states stored. with and without name the two sides in the
// messages.
func sameAnswers(t *testing.T, name, with, without string, got, base []*Result) {
	t.Helper()
	for i, g := range got {
		b := base[i]
		if g.Verdict != b.Verdict {
			t.Errorf("%s %s: %v %s, %v %s (%v / %v)", name, g.Query.Name, g.Verdict, with, b.Verdict, without, g.TraceErr, b.TraceErr)
			continue
		}
		if len(g.Values) != len(b.Values) {
			t.Errorf("%s %s: values %v, want %v", name, g.Query.Name, g.Values, b.Values)
			continue
		}
		for j := range g.Values {
			if g.Values[j] != b.Values[j] {
				t.Errorf("%s %s: value %v %s, %v %s", name, g.Query.Name, g.Values[j], with, b.Values[j], without)
			}
		}
		if b.Reason == zone.Completed && g.Stats.Discrete != b.Stats.Discrete {
			t.Errorf("%s %s: %d discrete states %s, %d %s", name, g.Query.Name, g.Stats.Discrete, with, b.Stats.Discrete, without)
		}
	}
}

// modelInstance is a model file with parameter overrides (nil: none).
type modelInstance struct {
	path string
	set  map[string]int64
}

// name names the instance in a subtest: the file and its overrides.
func (m modelInstance) name() string {
	name := filepath.Base(m.path)
	for k, v := range m.set {
		name += "," + k + "=" + strconv.FormatInt(v, 10)
	}
	return name
}

// load compiles the instance and its file's queries; under -short an
// instance with overrides (a large one) is skipped.
func (m modelInstance) load(t *testing.T) (*model.Network, []*Query) {
	t.Helper()
	if testing.Short() && m.set != nil {
		t.Skip("large instance")
	}
	f, net := loadModel(t, m.path, m.set)
	qs, err := FromFile(net, f, nil)
	if err != nil {
		t.Fatal(err)
	}
	return net, qs
}

// globModels returns the model files matching each pattern, without
// overrides; a pattern that matches none fails the test.
func globModels(t *testing.T, patterns ...string) []modelInstance {
	t.Helper()
	var out []modelInstance
	for _, pat := range patterns {
		files, err := filepath.Glob(pat)
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no models: %v", pat, err)
		}
		for _, f := range files {
			out = append(out, modelInstance{f, nil})
		}
	}
	return out
}

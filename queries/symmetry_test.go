package queries

import (
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tcheck/tcheck/model"
	"github.com/tcheck/tcheck/model/syntax"
	"github.com/tcheck/tcheck/zone"
)

// TestSymmetryKeepsVerdicts checks the symmetry reduction (Hendriks,
// Behrmann, Larsen, Niebert, Vaandrager, FORMATS 2003) against the
// unreduced search on every model with scalar sets under testdata: the
// same verdicts and sup/inf values under every configuration, witnesses
// and counterexamples found on representatives mapped back to runs of the
// model that replay (a trace that does not replay turns the verdict into
// Error, which the comparison catches), and fewer stored states where the
// model has symmetric processes.
func TestSymmetryKeepsVerdicts(t *testing.T) {
	type instance struct {
		path   string
		set    map[string]int64
		reduce bool   // the reduction must store fewer states
		from   string // a state document to start from (--from)
	}
	var cases []instance
	for _, pat := range []string{"testdata/semantics/scalar-*.yaml", "../testdata/scalar-*.yaml"} {
		files, _ := filepath.Glob(pat)
		for _, f := range files {
			cases = append(cases, instance{path: f})
		}
	}
	if len(cases) < 2 {
		t.Fatalf("only %d models with scalar sets", len(cases))
	}
	cases = append(cases,
		instance{"testdata/semantics/scalar-fischer.yaml", map[string]int64{"N": 5}, true, ""},
		instance{"testdata/semantics/scalar-fischer.yaml", map[string]int64{"N": 6, "k": 3}, true, ""},
		// a start that no permutation maps to the initial state: traces
		// through representatives must start from it
		instance{"testdata/semantics/scalar-fischer.yaml", nil, false, "../testdata/states/scalar-fischer-wait.json"})
	configs := []struct {
		name string
		opts Options
	}{
		{"bfs", Options{Workers: 1}},
		{"dfs", Options{Workers: 1, Order: zone.DFS}},
		{"alu", Options{Workers: 1, Subsumption: zone.ALU}},
		{"workers=3", Options{Workers: 3}},
		{"full-zones+m+", Options{Workers: 1, FullZones: true, Extrapolation: zone.ExtraMPlus}},
		{"global-bounds", Options{Workers: 1, GlobalBounds: true}},
	}
	for _, tc := range cases {
		name := filepath.Base(tc.path)
		for k, v := range tc.set {
			name += "," + k + "=" + strconv.FormatInt(v, 10)
		}
		if tc.from != "" {
			name += ",from=" + filepath.Base(tc.from)
		}
		t.Run(name, func(t *testing.T) {
			f, net := loadModel(t, tc.path, tc.set)
			qs, err := FromFile(net, f, nil)
			if err != nil {
				t.Fatal(err)
			}
			var from *State
			if tc.from != "" {
				src, err := model.ReadSource(tc.from)
				if err != nil {
					t.Fatal(err)
				}
				if from, err = ReadState(net, tc.from, src); err != nil {
					t.Fatal(err)
				}
			}
			if tc.reduce || tc.from != "" {
				// witnesses and counterexamples through states where
				// several processes have moved, so that the path through
				// representatives permutes them on the way
				for _, src := range []string{
					"E<> exists (i : pid_t) exists (j : pid_t) i != j && P(i).wait && P(j).cs",
					"E<> exists (i : pid_t) exists (j : pid_t) exists (k : pid_t) i != j && j != k && i != k && P(i).wait && P(j).wait && P(k).req && id == j",
					"A[] forall (i : pid_t) P(i).wait imply id == i",
					"A[] forall (i : pid_t) forall (j : pid_t) P(i).req && P(j).wait imply i == j",
					"sup: P(0).x",
					// liveness, on the quotient of the zone graph
					"E[] exists (i : pid_t) !P(i).cs",
					"A<> exists (i : pid_t) P(i).cs",
					"(exists (i : pid_t) P(i).wait) --> (exists (i : pid_t) P(i).cs)",
					"E[] forall (i : pid_t) !P(i).cs",
				} {
					q, err := Compile(net, model.Text{S: src})
					if err != nil {
						if src == "sup: P(0).x" {
							continue // rejected: P(0) names one member
						}
						t.Fatalf("%s: %v", src, err)
					}
					if src == "sup: P(0).x" {
						t.Fatalf("%s was accepted, but P(0) names one member of pid_t", src)
					}
					qs = append(qs, q)
				}
			}
			for _, c := range configs {
				c.opts.From = from
				off := checkAll(t, net, qs, c.opts)
				on := c.opts
				on.Symmetry = true
				got := checkAll(t, net, qs, on)
				for i, g := range got {
					b := off[i]
					if g.Verdict == Error || g.Verdict == Unknown {
						t.Errorf("%s %s: %v with symmetry (%v, %v)", c.name, g.Query.Name+g.Query.Src, g.Verdict, g.Err, g.TraceErr)
						continue
					}
					if g.Verdict != b.Verdict {
						t.Errorf("%s %s: %v with symmetry, %v without (%v / %v)", c.name, g.Query.Name, g.Verdict, b.Verdict, g.TraceErr, b.TraceErr)
						continue
					}
					if g.TraceErr != nil && b.TraceErr == nil {
						t.Errorf("%s %s: no trace with symmetry: %v", c.name, g.Query.Name, g.TraceErr)
					}
					if len(g.Values) != len(b.Values) {
						t.Errorf("%s %s: values %v, want %v", c.name, g.Query.Name, g.Values, b.Values)
						continue
					}
					for j := range g.Values {
						if g.Values[j] != b.Values[j] {
							t.Errorf("%s %s: value %v with symmetry, %v without", c.name, g.Query.Name, g.Values[j], b.Values[j])
						}
					}
					if tc.reduce && g.Query.Kind != syntax.QuerySup && g.Query.Kind != syntax.QueryInf && b.Reason == zone.Completed && g.Stats.Stored >= b.Stats.Stored {
						t.Errorf("%s %s: %d states stored with symmetry, %d without", c.name, g.Query.Name, g.Stats.Stored, b.Stats.Stored)
					}
				}
			}
		})
	}
}

// TestSymmetryTraceSkipsFailingMove: a witness found on symmetry
// representatives is mapped back to a run of the model even when, at some
// state of the run, a move that comes before the one sought fails with a
// model error (testdata/symmetry/trace-skips-failing-move.yaml's header).
func TestSymmetryTraceSkipsFailingMove(t *testing.T) {
	f, net := loadModel(t, "testdata/symmetry/trace-skips-failing-move.yaml", nil)
	qs, err := FromFile(net, f, []string{"q1"})
	if err != nil {
		t.Fatal(err)
	}
	r := Check(zone.NewSystem(net), qs, Options{Symmetry: true, Workers: 1})[0]
	if !strings.Contains(r.Extrapolation, "symmetry reduction") {
		t.Fatalf("no symmetry reduction: %s", r.Extrapolation)
	}
	if r.Verdict != Satisfied || r.Trace == nil || r.TraceErr != nil {
		t.Errorf("got %v (trace %v, %v, %v), want satisfied with a replayed trace", r.Verdict, r.Trace != nil, r.Err, r.TraceErr)
	}
}

// TestSymmetryTraceToAPermutedError: a model error met in a symmetry
// representative comes with a replayed trace to it and the failing move as
// the run meets them, in the run's own processes (testdata/symmetry/
// trace-error-permuted.yaml's header), in every search order.
func TestSymmetryTraceToAPermutedError(t *testing.T) {
	f, net := loadModel(t, "testdata/symmetry/trace-error-permuted.yaml", nil)
	qs, err := FromFile(net, f, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, order := range []zone.Order{zone.BFS, zone.DFS, zone.Progress} {
		for _, r := range Check(zone.NewSystem(net), qs, Options{Symmetry: true, Workers: 1, Order: order}) {
			checkPermutedError(t, net, order, r)
		}
	}
}

// checkPermutedError is TestSymmetryTraceToAPermutedError's check of one
// result (the sup's exploration, or E[]'s liveness graph).
func checkPermutedError(t *testing.T, net *model.Network, order zone.Order, r *Result) {
	t.Helper()
	if !strings.Contains(r.Extrapolation, "symmetry reduction") {
		t.Fatalf("no symmetry reduction: %s", r.Extrapolation)
	}
	if r.Verdict != Error || r.Err == nil || r.Trace == nil || r.TraceErr != nil {
		t.Fatalf("%s, %v: got %v (trace %v, %v, %v), want error with a replayed trace", r.Query.Name, order, r.Verdict, r.Trace != nil, r.Err, r.TraceErr)
	}
	// the failing move is taken from the trace's last state
	last := len(r.Trace.Locs) - 1
	st := zone.NewStepper(zone.NewSystem(net))
	dl := make([]int32, len(r.Trace.Locs[last]))
	dv := make([]int32, len(r.Trace.Vars[last]))
	z := r.Trace.Zones[last]
	if _, err := st.Post(r.Trace.Locs[last], r.Trace.Vars[last], z, r.Err.Move, dl, dv, z.Clone()); err == nil || !strings.Contains(err.Error(), r.Err.Err.Msg) {
		t.Errorf("%s, %v: the failing move %v from the trace's last state gives %v, want %v", r.Query.Name, order, r.Err.Move, err, r.Err)
	}
}

// TestSymmetryLivenessCycleCloses: under symmetry reduction a cycle of the
// liveness graph's quotient leads, in the model, from a state to a
// permutation of it; the witness repeats it until the run is back at the
// state it left, and replays (testdata/symmetry/liveness-turns.yaml: one
// node with a self-loop, a run of three turns).
func TestSymmetryLivenessCycleCloses(t *testing.T) {
	f, net := loadModel(t, "testdata/symmetry/liveness-turns.yaml", nil)
	qs, err := FromFile(net, f, nil)
	if err != nil {
		t.Fatal(err)
	}
	off := checkAll(t, net, qs, Options{Workers: 1})
	on := checkAll(t, net, qs, Options{Workers: 1, Symmetry: true})
	for i, r := range on {
		name := r.Query.Name
		if r.Verdict != off[i].Verdict || r.Verdict == Error || r.Verdict == Unknown {
			t.Fatalf("%s: %v with symmetry, %v without (%v)", name, r.Verdict, off[i].Verdict, r.TraceErr)
		}
		if r.Stats.Stored != 1 || off[i].Stats.Stored != 3 {
			t.Errorf("%s: %d nodes with symmetry, %d without; want 1 and 3", name, r.Stats.Stored, off[i].Stats.Stored)
		}
		tr := r.Trace
		if tr == nil || r.TraceErr != nil {
			t.Fatalf("%s: no replayed trace: %v", name, r.TraceErr)
		}
		if tr.Cycle != 3 || len(tr.Moves) != 4 { // Moves[0] is nil
			t.Fatalf("%s: %d transitions, the last %d a cycle; want a cycle of 3", name, len(tr.Moves)-1, tr.Cycle)
		}
		start, end := len(tr.Vars)-1-tr.Cycle, len(tr.Vars)-1
		if !slices.Equal(tr.Vars[start], tr.Vars[end]) || !slices.Equal(tr.Locs[start], tr.Locs[end]) {
			t.Errorf("%s: the cycle leaves %v %v and ends in %v %v", name, tr.Locs[start], tr.Vars[start], tr.Locs[end], tr.Vars[end])
		}
		movers := map[int32]bool{}
		for _, m := range tr.Moves[1:] {
			movers[m[0].Proc] = true
		}
		if len(movers) != 3 {
			t.Errorf("%s: the cycle's moves are by %d processes, want 3", name, len(movers))
		}
	}
}

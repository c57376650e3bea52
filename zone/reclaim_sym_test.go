package zone

import (
	"cmp"
	"slices"
	"sync"
	"testing"

	"github.com/tcheck/tcheck/model"
)

// TestReclaimedPathsGiveConcreteTraces checks traces under symmetry
// reduction where evicted zones' bytes are reused (passedList.reclaim;
// nodeGraph.reclaimed): concretePath computes the representative of an
// evicted node on a path from its parent's instead of loading it. For
// final states whose paths pass through evicted nodes, the run it returns
// must be enabled move after move in the unreduced model from the initial
// state, and end in a state whose representative is the node's discrete
// part (Hendriks et al., FORMATS 2003, Sect. 5: traces of the reduced
// graph are mapped back to runs of the model).
func TestReclaimedPathsGiveConcreteTraces(t *testing.T) {
	for _, tc := range []struct {
		name, path string
		set        map[string]int64
	}{
		{"fischer N=4", "../queries/testdata/semantics/scalar-fischer.yaml", map[string]int64{"N": 4}},
		{"agreement-scalar n=3 f=1 (1,1,1)", "../agreement/agreement-scalar.yaml", map[string]int64{"n": 3, "f": 1, "c1": 1, "c2": 1, "d": 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, net, err := model.Load(tc.path, tc.set)
			if err != nil {
				t.Fatal(err)
			}
			sys := NewSystem(net)
			for _, workers := range []int{1, 2} {
				checkReclaimedTraces(t, sys, workers)
			}
		})
	}
}

// checkReclaimedTraces is TestReclaimedPathsGiveConcreteTraces on one
// search of sys with the given workers.
func checkReclaimedTraces(t *testing.T, sys *System, workers int) {
	var mu sync.Mutex
	var final []Node
	res := SearchWorkers(sys, Options{Extrapolation: Extrapolation{Kind: ExtraLUPlus, Local: true}, Symmetry: true, VisitStored: true, Workers: workers}, func() Visitor {
		return func(v *Visit) bool {
			if v.Stored {
				mu.Lock()
				final = append(final, v.Parent)
				mu.Unlock()
			}
			return false
		}
	})
	if res.Reason != Completed || len(final) == 0 || !final[0].g.reclaimed {
		t.Fatalf("%d workers: %v, %d final states, reclaimed %v: want a completed search that reuses evicted zones", workers, res.Reason, len(final), len(final) > 0 && final[0].g.reclaimed)
	}
	// the same states in any order of the final visits
	slices.SortFunc(final, func(a, b Node) int { return cmp.Compare(a.id, b.id) })
	sym, _ := newSymmetry(sys)
	st := NewStepper(sys)
	cur := newSymState(sys)
	nxt := newSymState(sys)
	checked := 0
	for _, n := range final {
		path := n.Path()
		if !slices.ContainsFunc(path, Node.Covered) {
			continue
		}
		moves, err := sys.TraceMoves(n, nil)
		if err != nil {
			t.Fatalf("the trace to a state through evicted nodes: %v", err)
		}
		if ok, err := st.InitialFrom(nil, cur.locs, cur.vars, cur.z); !ok || err != nil {
			t.Fatalf("initial state: %v %v", ok, err)
		}
		for i, m := range moves {
			ok, err := st.Post(cur.locs, cur.vars, cur.z, m, nxt.locs, nxt.vars, nxt.z)
			if !ok || err != nil {
				t.Fatalf("move %d of %d of the trace is not enabled in the model (%v)", i+1, len(moves), err)
			}
			cur, nxt = nxt, cur
		}
		_, _, _, key, _ := sym.canon(cur.locs, cur.vars, cur.z)
		if string(key) != string(n.key()) {
			t.Fatalf("the trace ends in a state whose representative is not the node's")
		}
		if checked++; checked == 200 {
			break
		}
	}
	if checked == 0 {
		t.Fatalf("%d workers: no final state's path passes through an evicted node", workers)
	}
}

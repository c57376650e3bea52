package zone_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/tcheck/tcheck/dbm"
	"github.com/tcheck/tcheck/zone"
)

// TestGraphNodesAreDistinctStates checks that BuildGraph keeps one node per
// symbolic state: no two nodes have the same discrete part and equal
// zones. BuildGraph finds a successor's node by the hash of its zone's
// matrix, which assumes that equal zones have equal matrices (closed,
// canonical); a zone stored in another form would give the same state a
// second node. The models include one with about 300 zones per discrete
// part (zone/testdata/graph-many-zones-per-key.yaml).
func TestGraphNodesAreDistinctStates(t *testing.T) {
	for _, c := range []struct {
		path string
		set  map[string]int64
		kind zone.ExtraKind
	}{
		{"../testdata/fischer.yaml", map[string]int64{"N": 3}, zone.ExtraLUPlus},
		{"../testdata/csmacd.yaml", map[string]int64{"N": 3}, zone.ExtraMPlus},
		{"testdata/graph-many-zones-per-key.yaml", nil, zone.ExtraMPlus},
		{"testdata/graph-many-zones-per-key.yaml", nil, zone.ExtraLUPlus},
	} {
		t.Run(fmt.Sprintf("%s/%v", c.path, c.kind), func(t *testing.T) {
			sys := zone.NewSystem(compile(t, c.path, c.set))
			// a limit far above these graphs (7,119 nodes at most): a
			// graph that stores the same state twice may never end
			g, res := zone.BuildGraph(sys, zone.Options{Extrapolation: zone.Extrapolation{Kind: c.kind, Local: true}, Limits: zone.Limits{MaxStates: 1 << 20}})
			if res.Reason != zone.Completed {
				t.Fatalf("graph not built: %v", res.Reason)
			}
			type state struct {
				locs, vars []int32
				z          dbm.DBM
			}
			byKey := map[string][]int{}
			states := make([]state, g.Len())
			for i := range g.Len() {
				s := state{make([]int32, sys.NProcs), make([]int32, sys.NVars), dbm.New(sys.Dim)}
				g.Decode(int32(i), s.locs, s.vars, s.z)
				states[i] = s
				k := fmt.Sprint(s.locs, s.vars)
				for _, j := range byKey[k] {
					if slices.Equal(states[j].z.M, s.z.M) {
						t.Fatalf("nodes %d and %d are the same state %s", j, i, k)
					}
				}
				byKey[k] = append(byKey[k], i)
			}
			if int64(len(byKey)) != res.Discrete {
				t.Errorf("%d discrete parts decoded, the result says %d", len(byKey), res.Discrete)
			}
			t.Logf("%d nodes, %d discrete parts", g.Len(), len(byKey))
		})
	}
}

package queries

import (
	"testing"

	"github.com/tcheck/tcheck/zone"
)

// TestInclusionBeforeAbstractionKeepsVerdicts checks the default order of
// the search, where a successor's inclusion test comes before its
// extrapolation and only the successors kept are extrapolated
// (zone.Options.AbstractFirst off), against TChecker's order (on): on
// every model under testdata/ with queries, the scalar-set models with and
// without symmetry reduction, sequential and parallel, the verdicts, the
// sup/inf values and the discrete states stored are the same, and every
// trace replays (Check turns one that does not into an error). Under
// symmetry the representatives are the exact successors' (the traces go
// through symTrace.exactFirst). The stored zones may differ, and are
// reported.
func TestInclusionBeforeAbstractionKeepsVerdicts(t *testing.T) {
	cases := append(globModels(t, "testdata/semantics/*.yaml", "testdata/symmetry/*.yaml", "../testdata/*.yaml", "../testdata/uppaal/*.yaml"),
		modelInstance{"../testdata/fischer.yaml", map[string]int64{"N": 5}},
		modelInstance{"../testdata/csmacd.yaml", map[string]int64{"N": 5}},
		modelInstance{"testdata/semantics/scalar-fischer.yaml", map[string]int64{"N": 5}})
	configs := []struct {
		name string
		opts Options
	}{
		{"bfs", Options{Workers: 1}},
		{"dfs", Options{Workers: 1, Order: zone.DFS}},
		{"alu", Options{Workers: 1, Subsumption: zone.ALU}},
		{"m+", Options{Workers: 1, Extrapolation: zone.ExtraMPlus}},
		{"symmetry", Options{Workers: 1, Symmetry: true}},
		{"symmetry+dfs", Options{Workers: 1, Symmetry: true, Order: zone.DFS}},
		{"workers=2", Options{Workers: 2}},
		{"symmetry+workers=2", Options{Workers: 2, Symmetry: true}},
	}
	fewer, more := 0, 0
	for _, tc := range cases {
		t.Run(tc.name(), func(t *testing.T) {
			net, qs := tc.load(t)
			for _, c := range configs {
				old := c.opts
				old.AbstractFirst = true
				got, base := checkAll(t, net, qs, c.opts), checkAll(t, net, qs, old)
				sameAnswers(t, c.name, "testing inclusion first", "abstracting first", got, base)
				for i := range got {
					if got[i].Stats.Stored < base[i].Stats.Stored {
						fewer++
					} else if got[i].Stats.Stored > base[i].Stats.Stored {
						more++
					}
				}
			}
		})
	}
	t.Logf("stored zones, inclusion first against abstraction first: fewer in %d results, more in %d", fewer, more)
}

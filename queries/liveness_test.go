package queries

import (
	"testing"

	"github.com/tcheck/tcheck/model/syntax"
	"github.com/tcheck/tcheck/zone"
)

// TestLivenessQueriesShareOneGraph checks that the liveness queries of one
// Check are decided on one abstract zone graph, built once (their formulas
// have no clock constraints, so the graph is the model's), with the
// verdicts, traces and counts that each query gets alone.
func TestLivenessQueriesShareOneGraph(t *testing.T) {
	for _, variant := range []int64{0, 1, 2} {
		f, net := loadModel(t, "testdata/semantics/liveness.yaml", map[string]int64{"variant": variant})
		qs, err := FromFile(net, f, nil)
		if err != nil {
			t.Fatal(err)
		}
		var live []*Query
		for _, q := range qs {
			if k := q.Kind; q.Err == nil && (k == syntax.QueryEG || k == syntax.QueryAF || k == syntax.QueryLeadsTo) {
				live = append(live, q)
			}
		}
		if len(live) < 2 {
			t.Fatalf("variant %d: %d liveness queries, want several", variant, len(live))
		}
		builds := 0
		liveGraphBuilt = func() { builds++ }
		all := Check(zone.NewSystem(net), live, Options{Workers: 1})
		if builds != 1 {
			t.Errorf("variant %d: %d graphs built for %d queries, want 1", variant, builds, len(live))
		}
		for i, q := range live {
			alone := Check(zone.NewSystem(net), []*Query{q}, Options{Workers: 1})[0]
			got, want := all[i], alone
			if got.Verdict != want.Verdict || got.Stats.Stored != want.Stats.Stored || got.Stats.Explored != want.Stats.Explored {
				t.Errorf("variant %d, %s: %v (%d stored) with the others, %v (%d) alone", variant, q.Src, got.Verdict, got.Stats.Stored, want.Verdict, want.Stats.Stored)
			}
			if (got.Trace == nil) != (want.Trace == nil) || got.Trace != nil && (len(got.Trace.Moves) != len(want.Trace.Moves) || got.Trace.Cycle != want.Trace.Cycle) {
				t.Errorf("variant %d, %s: its trace differs with the others", variant, q.Src)
			}
		}
		liveGraphBuilt = nil
	}
}

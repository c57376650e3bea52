package zone_test

import (
	"slices"
	"testing"

	"github.com/tcheck/tcheck/zone"
)

// TestRankedOrderAvoidsTheMistake explores zone/testdata/search-order-
// mistake.yaml, where breadth-first search expands a chain of small zones
// that a larger zone, found one level later, then evicts one by one
// (Herbreteau and Tran, FORMATS 2015, Sect. 3). Under the Ranked order
// (their Sect. 4) the larger zone's successors go first, so that of the
// small chain only its first state, expanded before the larger zone
// arrives, is explored in vain: 24 + 1. Both orders store the same
// states, with one worker and with two.
func TestRankedOrderAvoidsTheMistake(t *testing.T) {
	exploreTheMistake(t, []mistakeCase{
		// BFS expands the 11 small states of the chain (i = 0..10)
		// before the larger ones evict them: 24 + 11
		{"bfs", zone.Options{Order: zone.BFS}, 35, 24},
		{"ranked", zone.Options{Order: zone.Ranked}, 25, 24},
		{"ranked, 2 workers", zone.Options{Order: zone.Ranked, Workers: 2}, -1, 24},
	})
}

// TestRankedQueueTakesTheHighestRankFirst: FIFO within a rank, the
// highest rank first, batches from one rank only.
func TestRankedQueueTakesTheHighestRankFirst(t *testing.T) {
	got := zone.RankedQueueOrderForTest([][2]int{{1, 0}, {2, 0}, {3, 2}, {4, 1}, {5, 2}, {6, 0}}, 1)
	want := []int{3, 5, 4, 1, 2, 6}
	if !slices.Equal(got, want) {
		t.Errorf("taken one at a time: %v, want %v", got, want)
	}
	got = zone.RankedQueueOrderForTest([][2]int{{1, 0}, {2, 0}, {3, 2}, {4, 1}, {5, 2}, {6, 0}}, 5)
	if !slices.Equal(got, want) {
		t.Errorf("taken in batches: %v, want %v", got, want)
	}
}

// TestProgressOrderAvoidsTheMistake explores zone/testdata/search-order-
// mistake.yaml under the Progress order, by the model's progress measure
// (P.m + 2 * (P.L || P.done) + i, which no transition decreases): m, of
// progress 1, is expanded before the first state at L, of progress 2, so
// the larger zone it brings evicts the small one while both wait, and no
// state is explored in vain: 24 explored, 24 stored (breadth first: 35).
// With two workers the same states are stored.
func TestProgressOrderAvoidsTheMistake(t *testing.T) {
	exploreTheMistake(t, []mistakeCase{
		{"bfs", zone.Options{Order: zone.BFS}, 35, 24},
		{"progress", zone.Options{Order: zone.Progress}, 24, 24},
		{"progress, 2 workers", zone.Options{Order: zone.Progress, Workers: 2}, -1, 24},
	})
}

// TestTopologicalOrderAvoidsTheMistake explores zone/testdata/search-
// order-mistake.yaml under the Topological order, which needs no declared
// measure: P's locations are numbered init 0, m 1, L 2, done 3 (the edge
// m -> L puts L after m although init -> L comes first), so m is expanded
// before the first state at L, as under the model's own measure, and no
// state is explored in vain (a waiting strategy in the sense of
// Herbreteau and Tran, FORMATS 2015).
func TestTopologicalOrderAvoidsTheMistake(t *testing.T) {
	exploreTheMistake(t, []mistakeCase{
		{"bfs", zone.Options{Order: zone.BFS}, 35, 24},
		{"topological", zone.Options{Order: zone.Topological}, 24, 24},
		{"topological, 2 workers", zone.Options{Order: zone.Topological, Workers: 2}, -1, 24},
	})
}

// TestProgressQueueTakesTheLowestFirst: FIFO within a progress value,
// the lowest value first (also one pushed after others were taken, and a
// negative one), batches from one value only.
func TestProgressQueueTakesTheLowestFirst(t *testing.T) {
	pushes := [][2]int{{1, 5}, {2, 3}, {3, 5}, {4, 3}, {5, 9}, {-1, 0}, {6, -2}, {7, 3}, {8, 5}}
	want := []int{2, 6, 4, 7, 1, 3, 8, 5}
	if got := zone.ProgressQueueOrderForTest(pushes, 1); !slices.Equal(got, want) {
		t.Errorf("taken one at a time: %v, want %v", got, want)
	}
	// the first batch (before 6 and 7 are pushed) takes both of value 3
	want = []int{2, 4, 6, 7, 1, 3, 8, 5}
	if got := zone.ProgressQueueOrderForTest(pushes, 5); !slices.Equal(got, want) {
		t.Errorf("taken in batches: %v, want %v", got, want)
	}
}

// mistakeCase is a search of zone/testdata/search-order-mistake.yaml and
// the states it must explore (-1: any) and store.
type mistakeCase struct {
	name           string
	opts           zone.Options
	explored, kept int64
}

// exploreTheMistake runs each case (K = 10, local LU bounds) and checks
// its counts.
func exploreTheMistake(t *testing.T, cases []mistakeCase) {
	t.Helper()
	net := compile(t, "testdata/search-order-mistake.yaml", map[string]int64{"K": 10})
	sys := zone.NewSystem(net)
	visitor := func() zone.Visitor { return func(*zone.Visit) bool { return false } }
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			o := tc.opts
			o.Extrapolation = zone.Extrapolation{Local: true}
			res := zone.SearchWorkers(sys, o, visitor)
			if res.Reason != zone.Completed {
				t.Fatalf("search ended: %v", res.Reason)
			}
			if res.Stored != tc.kept || tc.explored >= 0 && res.Explored != tc.explored {
				t.Errorf("explored %d, stored %d; want %d, %d", res.Explored, res.Stored, tc.explored, tc.kept)
			}
		})
	}
}

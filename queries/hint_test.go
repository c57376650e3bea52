package queries

import (
	"strings"
	"testing"
	"time"

	"github.com/tcheck/tcheck/zone"
)

// TestOrderHintThresholds checks when OrderHint suggests another order:
// under breadth first only, from orderHintMinExplored states explored and
// orderHintRatio times the states stored, naming the query with the
// largest ratio (its formula when it has no name).
func TestOrderHintThresholds(t *testing.T) {
	res := func(name string, explored, stored int64) *Result {
		return &Result{Query: &Query{Name: name, Src: "A[] p"}, Stats: zone.Stats{Explored: explored, Stored: stored}}
	}
	rounds := func(r *Result, n int) *Result {
		r.Rounds = n
		return r
	}
	for _, tc := range []struct {
		name  string
		order zone.Order
		rs    []*Result
		want  string // "" for no hint, else the query named
	}{
		{"fddi-like", zone.BFS, []*Result{res("q", 320068, 989)}, "q"},
		{"ratio 4 exactly", zone.BFS, []*Result{res("q", 40000, 10000)}, "q"},
		{"ratio below 4", zone.BFS, []*Result{res("q", 39999, 10000)}, ""},
		{"fischer-like", zone.BFS, []*Result{res("q", 447598, 260998)}, ""},
		{"too small", zone.BFS, []*Result{res("q", 9999, 10)}, ""},
		{"nothing stored", zone.BFS, []*Result{res("q", 10000, 0)}, "q"},
		{"depth first", zone.DFS, []*Result{res("q", 320068, 989)}, ""},
		{"ranked", zone.Ranked, []*Result{res("q", 320068, 989)}, ""},
		{"topological", zone.Topological, []*Result{res("q", 320068, 989)}, ""},
		{"the worst of two", zone.BFS, []*Result{res("a", 40000, 10000), res("b", 40000, 100)}, "b"},
		{"a formula", zone.BFS, []*Result{res("", 320068, 989)}, "A[] p"},
		// a sup whose bound doubled 15 times: 21,335 states per
		// exploration for 20,002 stored is no waste
		{"doubling sup", zone.BFS, []*Result{rounds(res("s", 320032, 20002), 15)}, ""},
		{"doubling sup that wastes", zone.BFS, []*Result{rounds(res("s", 524325, 1), 19)}, "s"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := OrderHint(tc.rs, tc.order)
			switch {
			case tc.want == "" && got != "":
				t.Fatalf("got %q, want no hint", got)
			case tc.want != "" && !strings.HasPrefix(got, "hint: "+tc.want+": breadth first explored"):
				t.Fatalf("got %q, want a hint naming %q", got, tc.want)
			}
		})
	}
}

// TestRunningOrderHint checks the note for an exploration still running:
// under breadth first only, from OrderHintAfter of running, with
// OrderHint's thresholds.
func TestRunningOrderHint(t *testing.T) {
	for _, tc := range []struct {
		name  string
		order zone.Order
		s     zone.Stats
		want  bool
	}{
		{"fddi-like", zone.BFS, zone.Stats{Explored: 320068, Stored: 989, Elapsed: OrderHintAfter}, true},
		{"too early", zone.BFS, zone.Stats{Explored: 320068, Stored: 989, Elapsed: OrderHintAfter - 1}, false},
		{"fischer-like", zone.BFS, zone.Stats{Explored: 447598, Stored: 260998, Elapsed: time.Hour}, false},
		{"too small", zone.BFS, zone.Stats{Explored: 9999, Stored: 10, Elapsed: time.Hour}, false},
		{"topological", zone.Topological, zone.Stats{Explored: 320068, Stored: 989, Elapsed: time.Hour}, false},
		{"depth first", zone.DFS, zone.Stats{Explored: 320068, Stored: 989, Elapsed: time.Hour}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := RunningOrderHint(tc.order, tc.s)
			if (got != "") != tc.want {
				t.Fatalf("got %q, want a hint %v", got, tc.want)
			}
			if tc.want && !strings.HasPrefix(got, "hint: breadth first has explored 320068 states and keeps 989 after 5s") {
				t.Fatalf("got %q", got)
			}
		})
	}
}

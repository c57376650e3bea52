package queries

import (
	"strings"
	"testing"

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

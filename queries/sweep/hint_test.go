package sweep

import (
	"strings"
	"testing"
)

// TestOrderHintNamesTheWorstPoint checks the sweep's note on stderr:
// under breadth first only (as the run's header names it), from
// queries.Wastes's thresholds, naming the point and query with the most
// states explored for those stored.
func TestOrderHintNamesTheWorstPoint(t *testing.T) {
	point := func(n int64, qs ...QueryResult) *PointResult {
		return &PointResult{Point: Point{Params: []Param{{Name: "N", Value: n}}}, Queries: qs}
	}
	q := func(name string, explored, stored int64) QueryResult {
		return QueryResult{Query: name, Explored: explored, Stored: stored}
	}
	explorations := func(r QueryResult, n int) QueryResult {
		r.Explorations = n
		return r
	}
	fddi := []*PointResult{
		point(10, q("token-held", 10219, 459), q("no-deadlock", 459, 459)),
		point(11, q("token-held", 20260, 549)),
		point(12, q("token-held", 40291, 648)),
		point(13, q("fischer-like", 447598, 260998)),
	}
	for _, tc := range []struct {
		name  string
		all   []*PointResult
		order string
		want  string // "" for no hint
	}{
		{"the worst point", fddi, "bfs", "hint: N=12, token-held: breadth first explored 40291 states for 648 stored"},
		{"no order in the header", fddi, "", "hint: N=12, token-held:"},
		{"another order", fddi, "topological", ""},
		{"no waste", []*PointResult{point(9, q("mutex", 447598, 260998)), point(8, q("small", 9999, 10))}, "bfs", ""},
		{"a doubling sup", []*PointResult{point(7, explorations(q("sup", 320032, 20002), 15))}, "bfs", ""},
		{"a doubling sup that wastes", []*PointResult{point(7, explorations(q("sup", 524325, 1), 19))}, "bfs",
			"hint: N=7, sup: breadth first explored 27596 states per exploration (19 explorations) for 1 stored"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := OrderHint(tc.all, tc.order)
			switch {
			case tc.want == "" && got != "":
				t.Fatalf("got %q, want no hint", got)
			case tc.want != "" && !strings.HasPrefix(got, tc.want):
				t.Fatalf("got %q, want %q...", got, tc.want)
			case tc.want != "" && !strings.Contains(got, "--order topological, ranked or dfs"):
				t.Fatalf("got %q: no order named", got)
			}
		})
	}
}

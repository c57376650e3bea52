package sweep

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

func pointsOf(keys ...int64) []Point {
	var ps []Point
	for i, d := range keys {
		ps = append(ps, Point{Index: i, Params: []Param{{Name: "d", Value: d}}})
	}
	return ps
}

func indexes(ps []Point) []int {
	var out []int
	for _, p := range ps {
		out = append(out, p.Index)
	}
	return out
}

// TestCostsOrderStartsTheLongestFirst: Graham's LPT order (costs.go): the
// points without a cost first in index order, then the rest by cost,
// longest first, ties in index order.
func TestCostsOrderStartsTheLongestFirst(t *testing.T) {
	for _, tc := range []struct {
		name  string
		costs map[string]int64
		want  []int
		known int
	}{
		{"no costs: index order", map[string]int64{}, []int{0, 1, 2, 3, 4}, 0},
		{"all known: longest first", map[string]int64{"d=0": 5, "d=1": 50, "d=2": 1, "d=3": 7, "d=4": 20}, []int{1, 4, 3, 0, 2}, 5},
		{"unknown before known", map[string]int64{"d=0": 5, "d=2": 9}, []int{1, 3, 4, 2, 0}, 2},
		{"ties in index order", map[string]int64{"d=0": 3, "d=1": 3, "d=2": 4, "d=3": 3, "d=4": 3}, []int{2, 0, 1, 3, 4}, 5},
		{"costs of other points are ignored", map[string]int64{"d=9": 100, "d=4": 1}, []int{0, 1, 2, 3, 4}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &Costs{By: tc.costs, Unit: "time"}
			got, known := c.Order(pointsOf(0, 1, 2, 3, 4))
			if !slices.Equal(indexes(got), tc.want) || known != tc.known {
				t.Errorf("order %v (%d known), want %v (%d known)", indexes(got), known, tc.want, tc.known)
			}
		})
	}
}

// TestCostsFromResults: costs are the points' times, or their stored
// states in a file written without times (--stable); points with neither
// have none.
func TestCostsFromResults(t *testing.T) {
	timed := &Results{Points: []*PointResult{
		{Point: pointsOf(0)[0], States: 10, Elapsed: 3 * time.Second},
		{Point: Point{Index: 1, Params: []Param{{Name: "d", Value: 1}}}, States: 99, Elapsed: time.Second},
		{Point: Point{Index: 2, Params: []Param{{Name: "d", Value: 2}}}, Error: "model error"},
	}}
	c := CostsFromResults(timed)
	if c.Unit != "time" || c.By["d=0"] != int64(3*time.Second) || c.By["d=1"] != int64(time.Second) || len(c.By) != 2 {
		t.Errorf("timed file: %+v", c)
	}
	stable := &Results{Points: []*PointResult{
		{Point: pointsOf(0)[0], States: 10},
		{Point: Point{Index: 1, Params: []Param{{Name: "d", Value: 1}}}, States: 99},
	}}
	c = CostsFromResults(stable)
	if c.Unit != "states" || c.By["d=0"] != 10 || c.By["d=1"] != 99 {
		t.Errorf("stable file: %+v", c)
	}
}

// TestCostOrderKeepsTheResults: a sweep started in cost order from an
// earlier run's result file writes the same (stable) file as in index
// order; only when the points start changes.
func TestCostOrderKeepsTheResults(t *testing.T) {
	s := fischerSweep(t, nil)
	ps, err := s.Points()
	if err != nil {
		t.Fatal(err)
	}
	h := header(s, len(ps))
	first := s.Run(context.Background(), ps, oneWorker)
	dir := t.TempDir()
	path := filepath.Join(dir, "first.jsonl")
	if err := WriteFile(path, "jsonl", h, first, len(ps), WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	c, err := ReadCosts(path)
	if err != nil {
		t.Fatal(err)
	}
	ordered, known := c.Order(ps)
	if known != len(ps) {
		t.Fatalf("%d of %d points have a cost", known, len(ps))
	}
	var started []int
	opts := oneWorker
	opts.Jobs = 1
	opts.OnStart = func(p Point) { started = append(started, p.Index) }
	again := s.Run(context.Background(), ordered, opts)
	if !slices.Equal(started, indexes(ordered)) {
		t.Errorf("started %v, want %v", started, indexes(ordered))
	}
	var a, b bytes.Buffer
	Write(&a, "jsonl", h, first, len(ps), WriteOptions{Stable: true})
	Write(&b, "jsonl", h, again, len(ps), WriteOptions{Stable: true})
	if a.String() != b.String() {
		t.Errorf("results differ:\n%s\nwant\n%s", b.String(), a.String())
	}
}

func TestReadCostsErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.jsonl")
	os.WriteFile(bad, []byte("not json\n"), 0o644)
	for _, path := range []string{filepath.Join(dir, "missing.jsonl"), bad} {
		if _, err := ReadCosts(path); err == nil {
			t.Errorf("%s: no error", path)
		}
	}
}

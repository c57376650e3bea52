package zone_test

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/tcheck/tcheck/model"
	"github.com/tcheck/tcheck/zone"
)

// TestLocationRanksOfFDDI: the numbers of the Topological order on the
// FDDI station, worked out by hand. The search from q0 follows q0 -> q1
// first and finishes q5, q7, q6, q4, q1, then q3, q2 (q3 -> q4 meets a
// finished location), then q0; the numbers are the reverse of that
// postorder. So q2 and q3, on the longer path to q4, come before q1, and
// both edges back to q0 lower the number.
func TestLocationRanksOfFDDI(t *testing.T) {
	net := compile(t, "../testdata/fddi.yaml", map[string]int64{"N": 2})
	ranks := zone.LocationRanksForTest(net)
	want := map[string]int32{"q0": 0, "q2": 1, "q3": 2, "q1": 3, "q4": 4, "q6": 5, "q7": 6, "q5": 7}
	for p, proc := range net.Procs {
		for l, loc := range proc.Locations {
			w, ok := want[loc.Name]
			if proc.Template == "Ring" {
				w, ok = map[string]int32{"give": 0, "wait": 1}[loc.Name]
			}
			if !ok || ranks[p][l] != w {
				t.Errorf("%s.%s: number %d, want %d", proc.Name, loc.Name, ranks[p][l], w)
			}
		}
	}
}

// TestLocationRanksAreTopological checks the numbers on every model under
// testdata/ and the agreement models, against the definition rather than
// the search that computes them: each process's numbers are 0 to n-1, the
// initial location's is 0, and an edge that does not raise the number
// closes a cycle (its target reaches its source), so that every edge not
// on a cycle goes from a lower number to a higher one. The model of
// unreachable locations checks that those are numbered after the others.
func TestLocationRanksAreTopological(t *testing.T) {
	paths, err := filepath.Glob("../testdata/*.yaml")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no models: %v", err)
	}
	paths = append(paths, "../agreement/agreement.yaml", "../agreement/agreement-scalar.yaml", "testdata/search-order-mistake.yaml")
	for _, path := range paths {
		t.Run(filepath.Base(path), func(t *testing.T) {
			checkLocationRanks(t, compile(t, path, nil))
		})
	}
	t.Run("unreachable locations", func(t *testing.T) {
		src := `name: m
templates:
  - name: P
    locations:
      - {name: a}
      - {name: b, initial: true}
      - {name: c}
      - {name: d}
    edges:
      - {from: a, to: c}
      - {from: b, to: d}
      - {from: d, to: b}
system: system P;
`
		f, err := model.Parse("m.yaml", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		net, err := f.Compile(nil)
		if err != nil {
			t.Fatal(err)
		}
		checkLocationRanks(t, net)
		// b 0, d 1 from the initial location; then a 2, c 3
		if got, want := zone.LocationRanksForTest(net)[0], []int32{2, 0, 3, 1}; !slices.Equal(got, want) {
			t.Errorf("numbers %v, want %v", got, want)
		}
	})
}

func checkLocationRanks(t *testing.T, net *model.Network) {
	t.Helper()
	ranks := zone.LocationRanksForTest(net)
	for p, proc := range net.Procs {
		r := ranks[p]
		n := len(proc.Locations)
		sorted := slices.Clone(r)
		slices.Sort(sorted)
		for i, k := range sorted {
			if k != int32(i) {
				t.Fatalf("%s: numbers %v are not 0..%d", proc.Name, r, n-1)
			}
		}
		if r[proc.Initial] != 0 {
			t.Errorf("%s: initial location numbered %d", proc.Name, r[proc.Initial])
		}
		succ := make([][]int, n)
		for _, e := range proc.Edges {
			succ[e.From] = append(succ[e.From], e.To)
		}
		reaches := func(from, to int) bool {
			seen := make([]bool, n)
			stack := []int{from}
			seen[from] = true
			for len(stack) > 0 {
				l := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				if l == to {
					return true
				}
				for _, m := range succ[l] {
					if !seen[m] {
						seen[m] = true
						stack = append(stack, m)
					}
				}
			}
			return false
		}
		for _, e := range proc.Edges {
			if r[e.To] <= r[e.From] && !reaches(e.To, e.From) {
				t.Errorf("%s: edge %s -> %s goes from %d down to %d but closes no cycle", proc.Name,
					proc.Locations[e.From].Name, proc.Locations[e.To].Name, r[e.From], r[e.To])
			}
		}
	}
}

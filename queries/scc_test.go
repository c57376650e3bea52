package queries

import (
	"math/rand/v2"
	"testing"
)

// TestComponentsAgreeWithReachability checks components on random graphs
// (with self-loops, parallel edges and long chains) against the
// definition: two nodes share a component exactly when each reaches the
// other; and a component's successors are numbered before it.
func TestComponentsAgreeWithReachability(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 300; trial++ {
		n := 1 + rng.IntN(40)
		adj := make([][]int32, n)
		edges := rng.IntN(3 * n)
		if trial%10 == 0 {
			// a chain with a few back edges
			for v := 0; v+1 < n; v++ {
				adj[v] = append(adj[v], int32(v+1))
			}
			edges = rng.IntN(3)
		}
		for k := 0; k < edges; k++ {
			v, w := rng.IntN(n), rng.IntN(n)
			adj[v] = append(adj[v], int32(w))
		}
		comp, count := components(adj)
		reach := make([][]bool, n)
		for v := range reach {
			reach[v] = make([]bool, n)
			reach[v][v] = true
			queue := []int{v}
			for len(queue) > 0 {
				u := queue[0]
				queue = queue[1:]
				for _, w := range adj[u] {
					if !reach[v][w] {
						reach[v][w] = true
						queue = append(queue, int(w))
					}
				}
			}
		}
		seen := make([]bool, count)
		for v := 0; v < n; v++ {
			if comp[v] < 0 || int(comp[v]) >= count {
				t.Fatalf("trial %d: node %d in component %d of %d", trial, v, comp[v], count)
			}
			seen[comp[v]] = true
			for w := 0; w < n; w++ {
				same := reach[v][w] && reach[w][v]
				if (comp[v] == comp[w]) != same {
					t.Fatalf("trial %d: nodes %d and %d: components %d and %d, mutually reachable %v", trial, v, w, comp[v], comp[w], same)
				}
			}
			for _, w := range adj[v] {
				if comp[w] > comp[v] {
					t.Fatalf("trial %d: edge %d -> %d goes from component %d to a later one, %d", trial, v, w, comp[v], comp[w])
				}
			}
		}
		for c, ok := range seen {
			if !ok {
				t.Fatalf("trial %d: component %d is empty", trial, c)
			}
		}
	}
}

// BenchmarkComponentsChain runs components on a chain of 20,000 nodes
// closed into one cycle (the depth of the search is the chain's length).
func BenchmarkComponentsChain(b *testing.B) {
	const n = 20000
	adj := make([][]int32, n)
	for v := 0; v < n; v++ {
		adj[v] = []int32{int32((v + 1) % n)}
	}
	for i := 0; i < b.N; i++ {
		if _, count := components(adj); count != 1 {
			b.Fatal(count)
		}
	}
}

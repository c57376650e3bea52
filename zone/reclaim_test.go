package zone_test

import (
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/tcheck/tcheck/dbm"
	"github.com/tcheck/tcheck/zone"
)

// TestEvictedZonesAreReused proves that handing an evicted zone's bytes to
// the next zone of the same length (passedList.reclaim) changes nothing a
// search computes: the same counts as without it on models where most
// stored zones are evicted again (FDDI under BFS: 40 thousand explored for
// 647 kept at N = 12), bytes actually reused, and the same path to a state
// whose ancestors were evicted.
func TestEvictedZonesAreReused(t *testing.T) {
	for _, tc := range []struct {
		name      string
		path      string
		over      map[string]int64
		order     zone.Order
		wantReuse bool // must reuse some bytes
	}{
		{"fddi-8-bfs", "../testdata/fddi.yaml", map[string]int64{"N": 8}, zone.BFS, true},
		{"fddi-8-dfs", "../testdata/fddi.yaml", map[string]int64{"N": 8}, zone.DFS, false},
		{"fischer-6", "../testdata/fischer.yaml", map[string]int64{"N": 6}, zone.BFS, false},
		{"search-order-mistake", "testdata/search-order-mistake.yaml", map[string]int64{"K": 10}, zone.BFS, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sys := zone.NewSystem(compile(t, tc.path, tc.over))
			type run struct {
				res    zone.Result
				reused uint64
				path   []zone.Move
			}
			search := func(on bool) run {
				var r run
				defer zone.ReclaimForTest(on, &r.reused)()
				opts := zone.Options{Order: tc.order, Extrapolation: zone.Extrapolation{Local: true}}
				visits := 0
				r.res = zone.Search(sys, opts, func(*zone.Visit) bool { visits++; return false })
				if r.res.Reason != zone.Completed {
					t.Fatalf("search: %v", r.res.Reason)
				}
				// again, stopping at the last state but one: the path to
				// its parent goes through evicted nodes
				var parent zone.Node
				seen := 0
				zone.Search(sys, opts, func(v *zone.Visit) bool {
					if seen++; seen == visits-1 {
						parent = v.Parent
						return true
					}
					return false
				})
				if parent.IsZero() {
					t.Fatal("no state to stop at")
				}
				var err error
				if r.path, err = sys.PathMoves(parent); err != nil {
					t.Fatal(err)
				}
				return r
			}
			on, off := search(true), search(false)
			if on.res.Explored != off.res.Explored || on.res.Stored != off.res.Stored || on.res.Covered != off.res.Covered || on.res.Transitions != off.res.Transitions {
				t.Fatalf("reusing evicted zones changed the search: %+v, without: %+v", on.res.Stats, off.res.Stats)
			}
			if off.reused != 0 {
				t.Fatalf("%d bytes reused with reuse off", off.reused)
			}
			if tc.wantReuse && on.reused == 0 {
				t.Fatalf("no evicted zone reused (explored %d, stored %d)", on.res.Explored, on.res.Stored)
			}
			if !slices.EqualFunc(on.path, off.path, func(a, b zone.Move) bool { return slices.Equal(a, b) }) {
				t.Fatalf("path differs: %v, without reuse %v", on.path, off.path)
			}
			t.Logf("explored %d, stored %d, %d bytes reused", on.res.Explored, on.res.Stored, on.reused)
		})
	}
}

// TestParallelSearchReusesEvictedZones proves that the parallel search may
// hand an evicted zone's bytes to a new zone although other workers run:
// a worker reads the zone it expands under its shard's lock and skips it
// if it was evicted by then (sharedView.loadSource), and the covered
// test, which reads chains without the lock, holds up the reuse of the
// bytes it may be reading (graceClock). With four workers and reuse on,
// bytes are reused, the same discrete states are reached as by the
// sequential search, and every successor computed lies within the zones
// the sequential search stores for its discrete state: a zone read after
// its bytes went to another zone would give successors outside them, or
// cover a successor it does not include and lose states. independent-loops
// stores hundreds of zones under one discrete part, so that the workers'
// lock-free tests and evictions meet on one chain. (Run under -race, a
// read without the lock or a grace period is reported too.)
func TestParallelSearchReusesEvictedZones(t *testing.T) {
	for _, tc := range []struct {
		name string
		path string
		over map[string]int64
	}{
		{"fddi-8", "../testdata/fddi.yaml", map[string]int64{"N": 8}},
		{"fischer-6", "../testdata/fischer.yaml", map[string]int64{"N": 6}},
		{"loops-4", "testdata/independent-loops.yaml", map[string]int64{"N": 4}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sys := zone.NewSystem(compile(t, tc.path, tc.over))
			opts := zone.Options{Extrapolation: zone.Extrapolation{Local: true}, VisitStored: true}
			stateKey := func(v *zone.Visit) string { return fmt.Sprint(v.Locs, v.Vars) }
			reach := map[string]dbm.Federation{}
			seq := zone.Search(sys, opts, func(v *zone.Visit) bool {
				if v.Stored {
					f := reach[stateKey(v)]
					if f.Dim == 0 {
						f = dbm.NewFederation(v.Zone.Dim)
					}
					f.Add(v.Zone.Clone())
					reach[stateKey(v)] = f
				}
				return false
			})
			if seq.Reason != zone.Completed {
				t.Fatalf("sequential search: %v", seq.Reason)
			}
			var reused uint64
			defer zone.ReclaimForTest(true, &reused)()
			var mu sync.Mutex
			outside := 0
			popts := opts
			popts.Workers = 4
			par := zone.SearchWorkers(sys, popts, func() zone.Visitor {
				return func(v *zone.Visit) bool {
					if v.Stored {
						return false
					}
					mu.Lock()
					defer mu.Unlock()
					if f, ok := reach[stateKey(v)]; !ok || !f.IncludesDBM(v.Zone) {
						outside++
					}
					return false
				}
			})
			if par.Reason != zone.Completed {
				t.Fatalf("parallel search: %v", par.Reason)
			}
			if outside > 0 {
				t.Fatalf("%d successors of the parallel search lie outside the zones the sequential search stores", outside)
			}
			if par.Discrete != seq.Discrete {
				t.Fatalf("parallel search reached %d discrete states, sequential %d", par.Discrete, seq.Discrete)
			}
			if reused == 0 {
				t.Fatalf("no evicted zone reused (explored %d, stored %d)", par.Explored, par.Stored)
			}
			t.Logf("sequential: explored %d, stored %d; 4 workers: explored %d, stored %d, %d bytes reused", seq.Explored, seq.Stored, par.Explored, par.Stored, reused)
		})
	}
}

package zone_test

import (
	"fmt"
	"strconv"
	"sync"
	"testing"

	"github.com/tcheck/tcheck/dbm"
	"github.com/tcheck/tcheck/zone"
)

// TestVisitStoredSeesTheFinalZones checks Options.VisitStored, on which
// queries decides a deadlock query in the Extra_LU+ exploration: after a
// completed search the visitor sees each zone the passed list holds once
// (as many visits as Result.Stored), and every exact successor the search
// computed lies in one of them, also those whose zones a larger one
// evicted (Fischer's protocol evicts many under local LU+), sequentially
// and with three workers. A visitor that stops at a final visit ends the
// search with Stopped.
func TestVisitStoredSeesTheFinalZones(t *testing.T) {
	net := compile(t, "../testdata/fischer.yaml", map[string]int64{"N": 5})
	sys := zone.NewSystem(net)
	for _, workers := range []int{1, 3} {
		t.Run("workers="+strconv.Itoa(workers), func(t *testing.T) {
			var mu sync.Mutex
			final := map[string][]dbm.DBM{}
			type keyedZone struct {
				key string
				z   dbm.DBM
			}
			var succs []keyedZone
			opts := zone.Options{Extrapolation: zone.Extrapolation{Local: true}, Workers: workers, VisitStored: true}
			res := zone.SearchWorkers(sys, opts, func() zone.Visitor {
				return func(v *zone.Visit) bool {
					k := fmt.Sprint(v.Locs, v.Vars)
					mu.Lock()
					defer mu.Unlock()
					if v.Stored {
						final[k] = append(final[k], v.Zone.Clone())
					} else {
						succs = append(succs, keyedZone{k, v.Zone.Clone()})
					}
					return false
				}
			})
			if res.Reason != zone.Completed {
				t.Fatalf("reason %v", res.Reason)
			}
			n := 0
			for _, zs := range final {
				n += len(zs)
			}
			if int64(n) != res.Stored || res.Explored <= res.Stored {
				t.Fatalf("%d final visits, %d stored, %d explored: want one visit per stored zone, and evictions", n, res.Stored, res.Explored)
			}
			for _, s := range succs {
				in := false
				for _, z := range final[s.key] {
					if s.z.SubsetEq(z) {
						in = true
						break
					}
				}
				if !in {
					t.Fatalf("the successor %s %v lies in no final zone of its state", s.key, s.z)
				}
			}
			stopped := zone.SearchWorkers(sys, opts, func() zone.Visitor {
				return func(v *zone.Visit) bool { return v.Stored }
			})
			if stopped.Reason != zone.Stopped {
				t.Fatalf("a stop at a final visit ended the search with %v", stopped.Reason)
			}
		})
	}
}

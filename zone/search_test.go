package zone_test

import (
	"fmt"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tcheck/tcheck/zone"
)

// TestSearchLimits checks that every limit ends a search with its own
// reason and the statistics so far: a state limit, a deadline already
// passed, a closed cancel channel.
func TestSearchLimits(t *testing.T) {
	net := compile(t, "../testdata/fischer.yaml", map[string]int64{"N": 6})
	sys := zone.NewSystem(net)
	canceled := make(chan struct{})
	close(canceled)
	for _, tc := range []struct {
		name   string
		limits zone.Limits
		want   zone.StopReason
	}{
		{"none", zone.Limits{}, zone.Completed},
		{"states", zone.Limits{MaxStates: 100}, zone.LimitStates},
		{"deadline", zone.Limits{Deadline: time.Now().Add(-time.Second)}, zone.LimitTime},
		{"cancel", zone.Limits{Cancel: canceled}, zone.Canceled},
	} {
		for _, workers := range []int{1, 3} {
			t.Run(tc.name+"/workers="+strconv.Itoa(workers), func(t *testing.T) {
				opts := zone.Options{Limits: tc.limits, Extrapolation: zone.Extrapolation{Local: true}, Workers: workers}
				res := zone.SearchWorkers(sys, opts, func() zone.Visitor { return func(*zone.Visit) bool { return false } })
				if res.Reason != tc.want {
					t.Fatalf("reason %v, want %v", res.Reason, tc.want)
				}
				if res.Stored == 0 || res.Explored == 0 && workers == 1 {
					t.Fatalf("no statistics: %+v", res.Stats)
				}
				if tc.want == zone.Completed && workers == 1 && res.Stored != 2378 {
					t.Fatalf("stored %d, want 2378", res.Stored)
				}
				if tc.want == zone.Completed && res.Discrete != 2378 {
					t.Fatalf("%d discrete states, want 2378", res.Discrete)
				}
				if tc.want == zone.LimitStates && workers == 1 && res.Stored != 100 {
					t.Fatalf("stored %d at the state limit 100", res.Stored)
				}
			})
		}
	}
}

// TestParallelSearchVisitsTheSameStates checks the parallel driver against
// the sequential one on Fischer's protocol (N = 6, local LU+, both orders):
// the visitors together see the same set of discrete states, the stored
// discrete parts are the same, and a visitor that stops the search ends it
// with Stopped. Run it with -race: the visitors here share a map under a
// lock, as queries' do.
func TestParallelSearchVisitsTheSameStates(t *testing.T) {
	net := compile(t, "../testdata/fischer.yaml", map[string]int64{"N": 6})
	sys := zone.NewSystem(net)
	for _, order := range []zone.Order{zone.BFS, zone.DFS} {
		seen := func(workers int) (map[string]bool, zone.Result) {
			var mu sync.Mutex
			keys := map[string]bool{}
			opts := zone.Options{Order: order, Extrapolation: zone.Extrapolation{Local: true}, Workers: workers}
			res := zone.SearchWorkers(sys, opts, func() zone.Visitor {
				return func(v *zone.Visit) bool {
					k := fmt.Sprint(v.Locs, v.Vars)
					mu.Lock()
					keys[k] = true
					mu.Unlock()
					return false
				}
			})
			return keys, res
		}
		want, seq := seen(1)
		got, par := seen(4)
		if par.Reason != zone.Completed || par.Discrete != seq.Discrete || len(got) != len(want) {
			t.Fatalf("%v: %v, %d discrete stored, %d visited; sequential: %d stored, %d visited", order, par.Reason, par.Discrete, len(got), seq.Discrete, len(want))
		}
		for k := range want {
			if !got[k] {
				t.Fatalf("%v: the parallel search never visited %s", order, k)
			}
		}
		var n atomic.Int64
		res := zone.SearchWorkers(sys, zone.Options{Order: order, Extrapolation: zone.Extrapolation{Local: true}, Workers: 4}, func() zone.Visitor {
			return func(*zone.Visit) bool { return n.Add(1) >= 500 }
		})
		if res.Reason != zone.Stopped {
			t.Fatalf("%v: a visitor's stop ended the search with %v", order, res.Reason)
		}
	}
}

// TestProgressSamplesMemory checks that the progress reports follow the
// heap as the passed list grows (they once showed the figure of the
// search's start throughout, because memory was only sampled when a memory
// limit was set). Zones are stored as matrices, so that the passed list
// grows by megabytes over the search.
func TestProgressSamplesMemory(t *testing.T) {
	net := compile(t, "../testdata/fischer.yaml", map[string]int64{"N": 8})
	sys := zone.NewSystem(net)
	var first, last uint64
	opts := zone.Options{Extrapolation: zone.Extrapolation{Local: true}, FullZones: true, ProgressEvery: time.Nanosecond,
		Progress: func(s zone.Stats) {
			if first == 0 {
				first = s.PeakMemory
			}
			last = s.PeakMemory
		}}
	runtime.GC() // the garbage of earlier tests would hide the growth
	res := zone.Search(sys, opts, func(*zone.Visit) bool { return false })
	if res.Stored < 20000 {
		t.Fatalf("only %d states: too small to see the heap grow", res.Stored)
	}
	if last <= first {
		t.Fatalf("progress reported peak memory %d at the start and %d at the end of %d stored states", first, last, res.Stored)
	}
}

// TestProgressDuringFinalVisits checks that the final visits of the
// stored zones (Options.VisitStored, how property (7) is decided) report
// progress: on the largest agreement rows they take a minute, in which the
// reports used to stop. Fischer N = 8 stores 25,080 zones, seven chunks of
// records; with a report due at every chunk, the reports of that phase
// count the records visited, up to all but the last chunk's.
func TestProgressDuringFinalVisits(t *testing.T) {
	net := compile(t, "../testdata/fischer.yaml", map[string]int64{"N": 8})
	sys := zone.NewSystem(net)
	var checked []int64
	var nodes int64
	opts := zone.Options{Extrapolation: zone.Extrapolation{Local: true}, VisitStored: true, ProgressEvery: time.Nanosecond,
		Progress: func(s zone.Stats) {
			if s.Nodes > 0 {
				checked = append(checked, s.Checked)
				nodes = s.Nodes
			}
		}}
	visited := 0
	res := zone.Search(sys, opts, func(v *zone.Visit) bool {
		if v.Stored {
			visited++
		}
		return false
	})
	if res.Reason != zone.Completed || visited != int(res.Stored) {
		t.Fatalf("%v, %d final visits of %d stored zones", res.Reason, visited, res.Stored)
	}
	if len(checked) < 2 || nodes < res.Stored {
		t.Fatalf("%d progress reports during the final visits (nodes %d, stored %d): want one per chunk", len(checked), nodes, res.Stored)
	}
	for i := 1; i < len(checked); i++ {
		if checked[i] <= checked[i-1] || checked[i] >= nodes {
			t.Fatalf("records visited, as reported: %v of %d: want them rising, below the total", checked, nodes)
		}
	}
	if res.Checked != 0 || res.Nodes != 0 {
		t.Fatalf("the result carries the progress counters: %d of %d", res.Checked, res.Nodes)
	}
}

// TestParallelMemoryLimit checks that a parallel search ends at the memory
// limit with the statistics so far (issue 13, "Bad input and limits"): the
// limit of one byte is met by the check made before the workers start, so
// the test does not depend on the coordinator's tick (Fischer N = 8 would
// otherwise run to completion in 25,080 states).
func TestParallelMemoryLimit(t *testing.T) {
	net := compile(t, "../testdata/fischer.yaml", map[string]int64{"N": 8})
	sys := zone.NewSystem(net)
	opts := zone.Options{Extrapolation: zone.Extrapolation{Local: true}, Workers: 3, Limits: zone.Limits{MaxMemory: 1}}
	res := zone.SearchWorkers(sys, opts, func() zone.Visitor { return func(*zone.Visit) bool { return false } })
	if res.Reason != zone.LimitMemory {
		t.Fatalf("reason %v, want %v (%+v)", res.Reason, zone.LimitMemory, res.Stats)
	}
	if res.Stored == 0 || res.Stored >= 25080 {
		t.Fatalf("stored %d: the limit did not stop the search early", res.Stored)
	}
}

// TestTimeLimitIsPolledAmongSuccessors: a search whose states have many
// costly successors (Fischer's protocol with a scalar set of 200
// members under the symmetry reduction: about 200 successors a state,
// each brought to its representative) stops at its time limit within one
// expansion, not only between expansions, where the limits are checked
// every 256: a verify given a 20 s timeout there ran 35 s. The clock is a
// fake one that advances a millisecond at each reading, so that the
// limit (20 ms) is reached after 20 readings; the sequential search, the
// parallel one and the liveness graph (BuildGraph) must each stop within
// a few dozen polls' worth of successors, where they computed tens of
// thousands before.
func TestTimeLimitIsPolledAmongSuccessors(t *testing.T) {
	net := compile(t, "../queries/testdata/semantics/scalar-fischer.yaml", map[string]int64{"N": 200})
	sys := zone.NewSystem(net)
	fake := func() func() time.Time {
		var mu sync.Mutex
		t0 := time.Unix(0, 0)
		return func() time.Time {
			mu.Lock()
			defer mu.Unlock()
			t0 = t0.Add(time.Millisecond)
			return t0
		}
	}
	opts := func(workers int) zone.Options {
		return zone.Options{Extrapolation: zone.Extrapolation{Local: true}, Symmetry: true, Workers: workers,
			Limits: zone.Limits{Timeout: 20 * time.Millisecond}, Now: fake()}
	}
	const most = 40 * 64 // successors within 40 polls
	for _, workers := range []int{1, 2} {
		res := zone.SearchWorkers(sys, opts(workers), func() zone.Visitor { return func(*zone.Visit) bool { return false } })
		if res.Reason != zone.LimitTime {
			t.Fatalf("workers=%d: the search ended with %v (%v), want the time limit", workers, res.Reason, res.Err)
		}
		if res.Transitions > most {
			t.Errorf("workers=%d: %d successors computed before the time limit stopped the search, want at most %d", workers, res.Transitions, most)
		}
	}
	_, res := zone.BuildGraph(sys, opts(1))
	if res.Reason != zone.LimitTime {
		t.Fatalf("BuildGraph ended with %v (%v), want the time limit", res.Reason, res.Err)
	}
	if res.Transitions > most {
		t.Errorf("BuildGraph computed %d successors before the time limit stopped it, want at most %d", res.Transitions, most)
	}
}

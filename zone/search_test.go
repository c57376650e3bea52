package zone_test

import (
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
		t.Run(tc.name, func(t *testing.T) {
			res := zone.Search(sys, zone.Options{Limits: tc.limits, Extrapolation: zone.Extrapolation{Local: true}}, func(*zone.Visit) bool { return false })
			if res.Reason != tc.want {
				t.Fatalf("reason %v, want %v", res.Reason, tc.want)
			}
			if res.Explored == 0 || res.Stored == 0 {
				t.Fatalf("no statistics: %+v", res.Stats)
			}
			if tc.want == zone.Completed && res.Stored != 2378 {
				t.Fatalf("stored %d, want 2378", res.Stored)
			}
		})
	}
}

// TestProgressSamplesMemory checks that the progress reports follow the
// heap as the passed list grows (they once showed the figure of the
// search's start throughout, because memory was only sampled when a memory
// limit was set).
func TestProgressSamplesMemory(t *testing.T) {
	net := compile(t, "../testdata/fischer.yaml", map[string]int64{"N": 8})
	sys := zone.NewSystem(net)
	var first, last uint64
	opts := zone.Options{Extrapolation: zone.Extrapolation{Local: true}, ProgressEvery: time.Nanosecond,
		Progress: func(s zone.Stats) {
			if first == 0 {
				first = s.PeakMemory
			}
			last = s.PeakMemory
		}}
	res := zone.Search(sys, opts, func(*zone.Visit) bool { return false })
	if res.Stored < 20000 {
		t.Fatalf("only %d states: too small to see the heap grow", res.Stored)
	}
	if last <= first {
		t.Fatalf("progress reported peak memory %d at the start and %d at the end of %d stored states", first, last, res.Stored)
	}
}

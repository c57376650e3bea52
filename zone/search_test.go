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

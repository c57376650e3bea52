package queries

import (
	"strings"
	"testing"

	"github.com/tcheck/tcheck/model"
	"github.com/tcheck/tcheck/zone"
)

// TestDeadlockOverApproximation checks how Check decides deadlock queries
// under Extra_LU+, which does not preserve deadlocks (STTT 2006, Sect. 6):
// first on the stored zones of the Extra_LU+ exploration, which hold every
// reachable valuation, so that a deadlock found in none of them is
// unreachable (one exploration); a deadlock found there, real or added by
// the abstraction, is decided again under Extra_M+ (two explorations),
// whose verdict and trace stand. The headers of deadlock-lu-spurious.yaml
// and deadlock-lu-diagonal.yaml derive the deadlocks that only the
// abstraction has; that of deadlock-lu-committed.yaml, one in a committed
// location, is not met, as the zones keep their clocks' upper bounds where
// time cannot pass (zone.Extrapolation.NoDelayUpper).
//
// A query with clock constants is first explored without them in the
// bounds (the coarse try of exploreTry), and again with them where its
// goal is met there: rounds counts the explorations so (the abandoned try
// among them), constFirst with Options.DeadlockConstantsFirst, which puts
// them in from the start. A coarse try that meets no goal decides.
func TestDeadlockOverApproximation(t *testing.T) {
	for _, tc := range []struct {
		name       string
		file       string
		variant    int64
		query      string
		want       Verdict
		rounds     int
		constFirst int
		// coarse: decided in the coarse try (unless constants first)
		coarse bool
	}{
		{"no deadlock, none in the abstraction", "deadlock.yaml", 0, "A[] !deadlock", Satisfied, 1, 1, false},
		{"a real deadlock is confirmed exactly", "deadlock.yaml", 1, "A[] !deadlock", Violated, 2, 2, false},
		{"a time-lock is confirmed exactly", "deadlock.yaml", 2, "E<> deadlock && P.c", Satisfied, 2, 2, false},
		{"a deadlock only the abstraction has is refuted exactly", "deadlock-lu-spurious.yaml", 0, "A[] !deadlock", Satisfied, 2, 2, false},
		{"the same through E<>", "deadlock-lu-spurious.yaml", 0, "E<> deadlock && P.wait", Violated, 2, 2, false},
		{"a location the abstraction never deadlocks in", "deadlock-lu-spurious.yaml", 0, "E<> deadlock && P.stop", Violated, 1, 1, false},
		{"a reachable deadlock found in the abstraction", "deadlock-lu-spurious.yaml", 1, "E<> deadlock && P.stop", Satisfied, 2, 2, false},
		{"the clock difference a deadlock query names is kept exact", "deadlock-lu-diagonal.yaml", 0, "A[] deadlock imply x - y > 2", Satisfied, 2, 1, false},
		{"a committed location keeps the upper bounds its move needs", "deadlock-lu-committed.yaml", 0, "A[] !deadlock", Satisfied, 1, 1, false},
		{"a coarse try that meets no deadlock decides", "deadlock.yaml", 0, "A[] deadlock imply x > 7", Satisfied, 1, 1, true},
		{"a real deadlock met in the coarse try is confirmed exactly", "deadlock.yaml", 1, "A[] deadlock imply x > 7", Violated, 3, 2, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, net := loadModel(t, "testdata/semantics/"+tc.file, map[string]int64{"variant": tc.variant})
			q, err := Compile(net, model.Text{S: tc.query})
			if err != nil {
				t.Fatal(err)
			}
			for _, constFirst := range []bool{false, true} {
				for _, workers := range []int{1, 2} {
					r := Check(zone.NewSystem(net), []*Query{q}, Options{Extrapolation: zone.ExtraLUPlus, Workers: workers, DeadlockConstantsFirst: constFirst})[0]
					rounds := tc.rounds
					if constFirst {
						rounds = tc.constFirst
					}
					if r.Verdict != tc.want || r.Rounds != rounds {
						t.Errorf("constants first %v, workers %d: %v in %d explorations (%v, %v), want %v in %d", constFirst, workers, r.Verdict, r.Rounds, r.Err, r.TraceErr, tc.want, rounds)
					}
					reached := r.Verdict == Satisfied && tc.query[0] == 'E' || r.Verdict == Violated && tc.query[0] == 'A'
					if reached && (r.Trace == nil || r.TraceErr != nil) {
						t.Errorf("constants first %v, workers %d: no replayed trace: %v", constFirst, workers, r.TraceErr)
					}
					if coarse := strings.Contains(r.Extrapolation, "clock constants left out"); coarse != (tc.coarse && !constFirst) {
						t.Errorf("constants first %v, workers %d: extrapolation %q", constFirst, workers, r.Extrapolation)
					}
				}
			}
		})
	}
}

package queries

import (
	"errors"
	"testing"

	"github.com/tcheck/tcheck/model"
	"github.com/tcheck/tcheck/zone"
)

const loopNet = `
name: loop
declarations: clock x;
templates:
  - name: P
    locations:
      - {name: a, initial: true, invariant: x <= 2}
    edges:
      - {from: a, to: a, guard: x >= 1, update: x = 0}
system: system P;
`

// TestTraceBuildingStopsAtTheTimeLimit: building a trace polls the time
// limit (a witness of half a million steps took 12 s to concretise after a
// search of 4 s under --timeout 5s, difftest seed 1372), ends with
// ErrTraceTime, and the verdict is then unknown with the time limit as
// reason, not an error: nothing disputes it.
func TestTraceBuildingStopsAtTheTimeLimit(t *testing.T) {
	f, err := model.Parse("loop.yaml", []byte(loopNet))
	if err != nil {
		t.Fatal(err)
	}
	net, err := f.Compile(nil)
	if err != nil {
		t.Fatal(err)
	}
	sys := zone.NewSystem(net)
	moves := make([]zone.Move, 600)
	for i := range moves {
		moves[i] = zone.Move{{Proc: 0, Edge: 0}}
	}
	if tr, err := buildTrace(sys, nil, moves, nil, nil); err != nil || len(tr.Moves) != 601 {
		t.Fatalf("without a limit: %v", err)
	}
	for _, after := range []int{0, 1} { // before concretising, and inside its loop
		calls := 0
		stop := func() bool { calls++; return calls > after }
		_, err := buildTrace(sys, nil, moves, nil, stop)
		if !errors.Is(err, ErrTraceTime) || calls < after+1 {
			t.Errorf("stop after %d polls: err %v after %d polls, want ErrTraceTime", after, err, calls)
		}
	}
	r := &Result{Verdict: Satisfied, TraceErr: ErrTraceTime}
	confirmTraces(r)
	if r.Verdict != Unknown || r.Reason != zone.LimitTime {
		t.Errorf("confirmTraces: %v (%v), want unknown at the time limit", r.Verdict, r.Reason)
	}
	r = &Result{Verdict: Satisfied, TraceErr: ErrNotConcretisable}
	confirmTraces(r)
	if r.Verdict != Error {
		t.Errorf("confirmTraces of a trace that does not concretise: %v, want error", r.Verdict)
	}
}

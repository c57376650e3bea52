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

// TestTraceBuildingStopsAtTheMemoryLimit: building a trace holds the heap
// to Limits.MaxMemory as the searches do (1,500 steps of 1,500 clocks had
// taken the exact zones towards 27 GB under --max-memory), and the verdict
// is then unknown at the memory limit; a heap over the limit only with
// garbage is collected once and the trace goes on. The heap is faked, so
// that the search itself, measured apart, stays far below the limit.
func TestTraceBuildingStopsAtTheMemoryLimit(t *testing.T) {
	f, net := loadModel(t, "testdata/traces/fractions.yaml", nil)
	qs, err := FromFile(net, f, nil)
	if err != nil {
		t.Fatal(err)
	}
	const limit = 1 << 50
	defer func(h func() uint64) { traceHeap = h }(traceHeap)
	for _, tc := range []struct {
		name string
		heap func(call int) uint64 // the heap at the call-th measure (from 1)
		want Verdict
		err  error
	}{
		{"under the limit", func(int) uint64 { return limit - 1 }, Satisfied, nil},
		{"over it from the 10th measure", func(c int) uint64 { return limit - 10 + uint64(c) }, Unknown, ErrTraceMemory},
		{"over it with garbage only", func(c int) uint64 { return limit * uint64(c%2) }, Satisfied, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			calls := 0
			traceHeap = func() uint64 { calls++; return tc.heap(calls) }
			sys := zone.NewSystem(net)
			r := Check(sys, qs[:1], Options{Limits: zone.Limits{MaxMemory: limit}})[0]
			if r.Verdict != tc.want || !errors.Is(r.TraceErr, tc.err) || tc.err == nil && r.TraceErr != nil {
				t.Fatalf("%v (%v), trace error %v; want %v with %v", r.Verdict, r.Reason, r.TraceErr, tc.want, tc.err)
			}
			if tc.want == Unknown && (r.Reason != zone.LimitMemory || r.Trace != nil) {
				t.Errorf("reason %v, trace %v; want the memory limit and no trace", r.Reason, r.Trace != nil)
			}
			if tc.want == Satisfied && r.Trace == nil {
				t.Error("no trace")
			}
			if calls < 10 {
				t.Errorf("the heap was measured %d times, want at every step of the 41-move witness", calls)
			}
		})
	}
}

// TestTraceBuildingStopsWhenCanceled: a cancellation while a trace is built
// makes the verdict unknown as interrupted, not as the time limit.
func TestTraceBuildingStopsWhenCanceled(t *testing.T) {
	cancel := make(chan struct{})
	close(cancel)
	l := newTraceLimit(Options{Limits: zone.Limits{Cancel: cancel}})
	if !l.stop() {
		t.Fatal("a closed Cancel did not stop the trace")
	}
	r := &Result{Verdict: Satisfied, TraceErr: l.explain(ErrTraceTime)}
	confirmTraces(r)
	if r.Verdict != Unknown || r.Reason != zone.Canceled || !errors.Is(r.TraceErr, ErrTraceCanceled) {
		t.Errorf("%v (%v), %v; want unknown, interrupted", r.Verdict, r.Reason, r.TraceErr)
	}
	if newTraceLimit(Options{}).stopFunc() != nil {
		t.Error("no limit set, but the trace has a stop")
	}
}

package queries

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/tcheck/tcheck/model"
	"github.com/tcheck/tcheck/zone"
)

// cloneTrace returns a deep copy of the concrete part of t.
func cloneTrace(t *Trace) *Trace {
	c := *t
	c.Moves = make([]zone.Move, len(t.Moves))
	for i, m := range t.Moves {
		c.Moves[i] = slices.Clone(m)
	}
	c.Locs, c.Vars, c.Clocks = make([][]int32, len(t.Locs)), make([][]int32, len(t.Vars)), make([][]int64, len(t.Clocks))
	for i := range t.Locs {
		c.Locs[i], c.Vars[i], c.Clocks[i] = slices.Clone(t.Locs[i]), slices.Clone(t.Vars[i]), slices.Clone(t.Clocks[i])
	}
	c.Delays, c.Final = slices.Clone(t.Delays), slices.Clone(t.Final)
	return &c
}

// TestReplayRejectsCorruptedTraces proves that Replay is a real check:
// the witness of testdata/replay/steps.yaml replays, and each corruption
// of it (a delay that breaks a guard or an invariant, a state or valuation
// that the move does not produce, a synchronisation without its partner, a
// goal the run does not reach, a cycle that does not close) is refused. If Replay accepted everything,
// as a body of `return nil` would, every case here fails.
func TestReplayRejectsCorruptedTraces(t *testing.T) {
	f, net := loadModel(t, "testdata/replay/steps.yaml", nil)
	qs, err := FromFile(net, f, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := Check(zone.NewSystem(net), qs, Options{})[0]
	if r.Verdict != Satisfied || r.Trace == nil {
		t.Fatalf("got %v (%v), want satisfied with a witness", r.Verdict, r.TraceErr)
	}
	good := r.Trace
	if len(good.Moves) != 3 {
		t.Fatalf("witness of %d moves, want 2", len(good.Moves)-1)
	}
	if err := Replay(net, good, r.Goal); err != nil {
		t.Fatalf("the witness itself does not replay: %v", err)
	}
	x, n := 1, 0 // clock x, variable n
	den := good.Den
	q, err := Compile(net, model.NewText("E<> P.a", model.Pos{File: "test", Line: 1, Col: 1}))
	if err != nil {
		t.Fatal(err)
	}
	notGoal := q.Formula
	cases := []struct {
		name    string
		corrupt func(c *Trace)
		goal    *model.Formula
		want    string
	}{
		{"delay below the guard x >= 1", func(c *Trace) { c.Delays[1] = 0 }, r.Goal, "step 1"},
		{"delay past the invariant x <= 2", func(c *Trace) { c.Delays[1] = 3 * den }, r.Goal, "step 1"},
		{"delay past the invariant x <= 1 of b", func(c *Trace) { c.Delays[2] = 2 * den }, r.Goal, "step 2"},
		{"data the update does not produce", func(c *Trace) { c.Vars[1][n]++ }, r.Goal, "step 1"},
		{"a valuation the reset does not produce", func(c *Trace) { c.Clocks[1][x] += den }, r.Goal, "step 1"},
		{"a location the move does not reach", func(c *Trace) { c.Locs[1][0] = 2 }, r.Goal, "step 1"},
		{"a synchronisation without its receiver", func(c *Trace) { c.Moves[2] = c.Moves[2][:1] }, r.Goal, "step 2"},
		{"an edge from another location", func(c *Trace) { c.Moves[1] = slices.Clone(c.Moves[2][:1]) }, r.Goal, "step 1"},
		{"a different initial state", func(c *Trace) { c.Vars[0][n] = 1 }, r.Goal, "initial state"},
		{"a final valuation the delay does not give", func(c *Trace) { c.Final[x] += den }, r.Goal, "final valuation"},
		{"a goal the final state does not satisfy", func(c *Trace) {}, notGoal, "does not satisfy"},
		{"the denominator changed", func(c *Trace) { c.Den *= 2 }, r.Goal, "step 1"},
		{"a cycle that does not return to its state", func(c *Trace) { c.Cycle = 2 }, r.Goal, "does not return"},
		{"a cycle longer than the trace", func(c *Trace) { c.Cycle = 3 }, r.Goal, "longer than the trace"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			bad := cloneTrace(good)
			c.corrupt(bad)
			err := Replay(net, bad, c.goal)
			if err == nil {
				t.Fatal("Replay accepted the corrupted trace")
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Replay: %v, want an error about %q", err, c.want)
			}
		})
	}
}

// TestVerdictWithoutConcreteRunIsAnError proves that a verdict whose
// symbolic trace has no concrete run is an error too, disputing the
// engine's answer, and that its message says why no run was found
// rather than that the replay disagrees: the replay never saw a run.
func TestVerdictWithoutConcreteRunIsAnError(t *testing.T) {
	r := &Result{Verdict: Satisfied, TraceErr: fmt.Errorf("%w (the common denominator 2^31 is too large)", ErrNotConcretisable)}
	confirmTraces(r)
	if r.Verdict != Error || r.Disputed != Satisfied || r.Trace != nil {
		t.Fatalf("got %v (disputed %v), want error disputing satisfied", r.Verdict, r.Disputed)
	}
	if !errors.Is(r.TraceErr, ErrDisputed) || !errors.Is(r.TraceErr, ErrNotConcretisable) {
		t.Fatalf("TraceErr = %v: want both ErrDisputed and ErrNotConcretisable", r.TraceErr)
	}
	msg := r.TraceErr.Error()
	for _, want := range []string{"internal error", "answers satisfied", "no concrete run follows its trace (the common denominator 2^31 is too large)"} {
		if !strings.Contains(msg, want) {
			t.Errorf("TraceErr = %q, want %q in it", msg, want)
		}
	}
	if strings.Contains(msg, "replay disagree") {
		t.Errorf("TraceErr = %q blames the replay", msg)
	}
	// wrapped further in, the whole message is kept after a separator
	r = &Result{Verdict: Violated, TraceErr: fmt.Errorf("step 3: %w (entry point of state 3)", ErrNotConcretisable)}
	confirmTraces(r)
	if msg := r.TraceErr.Error(); !strings.HasSuffix(msg, "no concrete run follows its trace: step 3: internal error: the symbolic trace has no concrete run (entry point of state 3), so no replay confirms it") {
		t.Errorf("TraceErr = %q", msg)
	}
}

// TestVerdictWithoutReplayIsAnError proves that replay gates verdicts: when
// the trace of a verdict does not replay, Check reports the verdict Error,
// keeps the engine's answer in Disputed and says that the engine and the
// replay disagree, for witnesses (E<>), counterexamples (A[]), sup values
// and liveness lassos. The replay is made to fail by substituting a Replay
// that refuses every trace.
func TestVerdictWithoutReplayIsAnError(t *testing.T) {
	saved := replayTrace
	replayTrace = func(*model.Network, *Trace, *model.Formula) error { return errors.New("refused by the test") }
	defer func() { replayTrace = saved }()
	cases := []struct {
		formula  string
		disputed Verdict
	}{
		{"E<> P.c && Q.q1", Satisfied},
		{"A[] !P.c", Violated},
		{"sup: x", Satisfied},
		{"E[] n <= 1", Satisfied},
		{"A<> n == 2", Violated},
	}
	for _, c := range cases {
		t.Run(c.formula, func(t *testing.T) {
			r := checkFormula(t, "testdata/replay/steps.yaml", nil, c.formula, Options{})
			if r.Verdict != Error || r.Disputed != c.disputed {
				t.Fatalf("got %v (disputed %v), want error disputing %v", r.Verdict, r.Disputed, c.disputed)
			}
			if !errors.Is(r.TraceErr, ErrDisputed) || !strings.Contains(r.TraceErr.Error(), "refused by the test") {
				t.Fatalf("TraceErr = %v", r.TraceErr)
			}
			// Without traces nothing is replayed and the engine's verdict stands.
			r = checkFormula(t, "testdata/replay/steps.yaml", nil, c.formula, Options{NoTrace: true})
			if r.Verdict != c.disputed {
				t.Fatalf("NoTrace: got %v, want %v", r.Verdict, c.disputed)
			}
		})
	}
}

package queries

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/tcheck/tcheck/model"
	"github.com/tcheck/tcheck/zone"
)

// stopwatchNet is a task L whose execution clock e stops while r is 0, as
// in testdata/semantics/stopwatch-scheduler.yaml: L is done at t == 4 or
// t == 6, but the over-approximation reaches done with t up to 10. %s is
// where an edge leaving done goes (rateError, spuriousError).
const stopwatchNet = `name: sw
declarations: |
  clock t;
  int r = 1;
  int[0, 3] v = 0;
  bool ldone = false;
templates:
  - name: L
    declarations: clock e;
    locations:
      - {name: run, initial: true, invariant: "e <= 4 && e' == r"}
      - {name: done, urgent: true}
      - {name: bad, invariant: "e' == r"}
      - {name: over}
    edges:
      - {from: run, to: done, guard: "e >= 4 && r == 1", update: "ldone = true"}
%s
  - name: H
    declarations: clock h;
    locations:
      - {name: idle, initial: true}
      - {name: exec, invariant: "h <= 2"}
      - {name: gone}
    edges:
      - {from: idle, to: exec, guard: "!ldone", update: "h = 0, r = 0"}
      - {from: exec, to: gone, guard: "h >= 2", update: "r = 1"}
system: system L, H;
`

const (
	rateError     = `      - {from: done, to: bad, guard: "t == 4", update: "r = 2"}`
	spuriousError = `      - {from: done, to: over, guard: "t > 6", update: "v = 7"}`
)

func checkStopwatch(t *testing.T, src, formula string, opts Options) (*Result, *model.Network) {
	t.Helper()
	f, err := model.Parse("sw.yaml", []byte(fmt.Sprintf(stopwatchNet, src)))
	if err != nil {
		t.Fatal(err)
	}
	net, err := f.Compile(nil)
	if err != nil {
		t.Fatal(err)
	}
	q, err := Compile(net, model.NewText(formula, model.Pos{File: "test", Line: 1, Col: 1}))
	if err != nil {
		t.Fatal(err)
	}
	return Check(zone.NewSystem(net), []*Query{q}, opts)[0], net
}

// TestStopwatchVerdicts proves the rule for models with stopwatches: what
// the over-approximation reaches (a goal, a model error) stands only with a
// concretised run that replays, with or without a trace asked for, and is
// unknown otherwise; what it does not reach is decided; deadlock and the
// liveness queries are refused with the reason; every result names the
// over-approximation.
func TestStopwatchVerdicts(t *testing.T) {
	cases := []struct {
		name, formula string
		edge          string
		noTrace       bool
		verdict       Verdict
		err           string // part of the model error or of TraceErr
	}{
		{"a reachable goal is confirmed by a replayed run", "E<> L.done && t == 6", "", false, Satisfied, ""},
		{"confirmed without a trace asked for", "E<> L.done && t == 6", "", true, Satisfied, ""},
		{"a counterexample is confirmed by a replayed run", "A[] !(L.done && t == 6)", "", false, Violated, ""},
		{"unreachable in the over-approximation is decided", "E<> L.done && t < 4", "", false, Violated, ""},
		{"a goal only the over-approximation reaches is unknown", "E<> L.done && t > 6", "", false, Unknown, "reached in the stopwatch over-approximation"},
		{"unknown without a trace asked for", "E<> L.done && t > 6", "", true, Unknown, "reached in the stopwatch over-approximation"},
		{"a rate of 2 reached by a run is a model error at its position", "E<> L.bad", rateError, false, Error, "sw.yaml:13:39: the rate of clock e is 2: a stopwatch rate must be 0 (stopped) or 1 (running)"},
		{"a model error only the over-approximation reaches is unknown", "A[] v == 0", spuriousError, false, Unknown, "the model error (sw.yaml:17:59: assignment of 7 to v out of range [0,3]) is reached in the stopwatch over-approximation"},
		{"deadlock is refused", "A[] !deadlock", "", false, Error, "deadlock is not supported on a model with stopwatches"},
		{"liveness is refused", "A<> L.done", "", false, Error, "A<> queries are not supported on a model with stopwatches"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, _ := checkStopwatch(t, c.edge, c.formula, Options{NoTrace: c.noTrace})
			if r.Verdict != c.verdict {
				t.Fatalf("verdict %v, want %v (model error %v, trace error %v)", r.Verdict, c.verdict, r.Err, r.TraceErr)
			}
			msg := ""
			if r.Err != nil {
				msg = r.Err.Error()
			} else if r.TraceErr != nil {
				msg = r.TraceErr.Error()
			}
			if c.err != "" && !strings.Contains(msg, c.err) {
				t.Errorf("error %q, want it to contain %q", msg, c.err)
			}
			if c.verdict == Unknown && !errors.Is(r.TraceErr, ErrOverApproximation) {
				t.Errorf("unknown without ErrOverApproximation: %v", r.TraceErr)
			}
			wantTrace := !c.noTrace && (c.verdict == Satisfied || c.verdict == Violated && strings.HasPrefix(c.formula, "A[]") || r.Err != nil)
			if wantTrace != (r.Trace != nil) {
				t.Errorf("trace %v, want one: %v", r.Trace != nil, wantTrace)
			}
			if c.verdict != Error || r.Err != nil {
				if r.OverApprox != "stopwatches" || !strings.Contains(r.Extrapolation, "stopwatch over-approximation") {
					t.Errorf("the result does not name the over-approximation: %q, %q", r.OverApprox, r.Extrapolation)
				}
			}
		})
	}
}

// TestStopwatchTraceHoldsStoppedClocks proves the concretised witness
// keeps a stopped clock's value while time passes, and that Replay accepts
// it: in the run to L.done at t == 6, every delay spent with H in exec
// (r == 0) leaves e as it was while t advances, and e is 4 at the end
// although 6 units passed. A replay that advanced every clock would compute
// e = 6 and reject the trace.
func TestStopwatchTraceHoldsStoppedClocks(t *testing.T) {
	r, net := checkStopwatch(t, "", "E<> L.done && t == 6", Options{})
	if r.Verdict != Satisfied || r.Trace == nil {
		t.Fatalf("%v, %v", r.Verdict, r.TraceErr)
	}
	tr := r.Trace
	e, tc := net.ClockIndex("L.e"), net.ClockIndex("t")
	exec := int32(1)
	held := false
	for i := 0; i+1 < len(tr.Clocks); i++ {
		if tr.Locs[i][1] != exec {
			continue
		}
		d := tr.Delays[i+1]
		if tr.Clocks[i+1][e] != tr.Clocks[i][e] || tr.Clocks[i+1][tc] != tr.Clocks[i][tc]+d {
			t.Errorf("state %d: e %d -> %d, t %d -> %d over delay %d (scaled by %d): e must hold, t advance", i, tr.Clocks[i][e], tr.Clocks[i+1][e], tr.Clocks[i][tc], tr.Clocks[i+1][tc], d, tr.Den)
		}
		held = held || d > 0
	}
	if !held {
		t.Error("no delay with e stopped in the witness")
	}
	if tr.Final[tc] != 6*tr.Den || tr.Final[e] != 4*tr.Den {
		t.Errorf("final t = %d/%d, e = %d/%d; want 6 and 4", tr.Final[tc], tr.Den, tr.Final[e], tr.Den)
	}
	if err := Replay(net, tr, r.Goal); err != nil {
		t.Errorf("the witness does not replay: %v", err)
	}
}

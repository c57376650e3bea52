package queries

import (
	"encoding/json"
	"math/big"
	"os"
	"strings"
	"testing"

	"github.com/tcheck/tcheck/model"
	"github.com/tcheck/tcheck/zone"
)

// fischer2 is testdata/fischer.yaml with two processes.
func fischer2(t *testing.T) *model.Network {
	t.Helper()
	_, net := loadModel(t, "../testdata/fischer.yaml", map[string]int64{"N": 2})
	return net
}

// fischerState reads a state of fischer2 written as a state document.
func fischerState(t *testing.T, net *model.Network, doc string) *State {
	t.Helper()
	s, err := ReadState(net, "state.json", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func compileQuery(t *testing.T, net *model.Network, src string) *Query {
	t.Helper()
	q, err := Compile(net, model.NewText(src, model.Pos{File: "q", Line: 1, Col: 1}))
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// TestCheckFromStateDecidesFromThatState proves that Options.From starts
// the exploration at the given state: from states the initial state never
// leads to (both processes in cs; id out of step with the locations) the
// verdicts differ from those at the initial state, and every trace starts
// at the given valuation itself (fractional values included) and replays
// from it.
func TestCheckFromStateDecidesFromThatState(t *testing.T) {
	net := fischer2(t)
	const mutex = "A[] not (P(1).cs and P(2).cs)"
	cases := []struct {
		name, state, query string
		want               Verdict
		steps              int // moves of the trace (-1: no trace)
	}{
		{"initial state: mutual exclusion holds", "", mutex, Satisfied, -1},
		{"both in cs: mutual exclusion violated at once", `{"locations": {"P(1)": "cs", "P(2)": "cs"}, "variables": {"id": 1}, "clocks": {"P(1).x": 12, "P(2).x": 11}}`, mutex, Violated, 0},
		{"P(2) waits with id 2 while P(1) is in cs: both reach cs", `{"locations": {"P(1)": "cs", "P(2)": "wait"}, "variables": {"id": 2}, "clocks": {"P(1).x": 10.5, "P(2).x": 3.25}}`, mutex, Violated, 1},
		{"fractional clocks: the witness starts at the point", `{"locations": {"P(1)": "req", "P(2)": "wait"}, "variables": {"id": 2}, "clocks": {"P(1).x": "13/4", "P(2).x": 9.75}}`, "E<> P(2).cs", Satisfied, 1},
		{"fractional clocks: a longer witness", `{"locations": {"P(1)": "req", "P(2)": "wait"}, "variables": {"id": 2}, "clocks": {"P(1).x": "13/4", "P(2).x": 0.1}}`, "E<> P(1).cs", Satisfied, 2},
		{"both waiting with id 0: P(1) must request again", `{"locations": {"P(1)": "wait", "P(2)": "wait"}, "variables": {"id": 0}, "clocks": {"P(1).x": 0.5, "P(2).x": 0.5}}`, "E<> P(1).cs", Satisfied, 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var opts Options
			if c.state != "" {
				opts.From = fischerState(t, net, c.state)
			}
			q := compileQuery(t, net, c.query)
			r := Check(zone.NewSystem(net), []*Query{q}, opts)[0]
			if r.Verdict != c.want {
				t.Fatalf("verdict %v (%v), want %v", r.Verdict, r.TraceErr, c.want)
			}
			if c.steps < 0 {
				if r.Trace != nil {
					t.Fatalf("unexpected trace")
				}
				return
			}
			tr := r.Trace
			if tr == nil {
				t.Fatalf("no trace: %v", r.TraceErr)
			}
			if got := len(tr.Moves) - 1; got != c.steps {
				t.Errorf("trace of %d moves, want %d", got, c.steps)
			}
			if tr.Start != opts.From {
				t.Errorf("the trace does not record its start state")
			}
			for x, v := range opts.From.Clocks {
				got := big.NewRat(tr.Clocks[0][x], tr.Den)
				if got.Cmp(v) != 0 {
					t.Errorf("clock %s starts at %s, want %s", net.Clocks[x].Name, got.RatString(), v.RatString())
				}
			}
			if err := Replay(net, tr, r.Goal); err != nil {
				t.Errorf("the trace does not replay: %v", err)
			}
			// the replay checks the start: the same run from the initial
			// state is refused
			other := cloneTrace(tr)
			other.Start = nil
			if err := Replay(net, other, r.Goal); err == nil {
				t.Errorf("the trace replays from the initial state too")
			}
		})
	}
}

// TestCheckWithinBoundsTheHorizon proves that Options.Within explores
// exactly the runs of at most Within time units: P(1) waits with id = 1
// and enters cs once x > 10, so from x = v it needs more than 10 - v time
// units. At integer and fractional starting points the verdict flips at
// the right horizon (the region of x = 4.5 reaches x = 10.5 within 6), and
// every witness lasts at most the horizon.
func TestCheckWithinBoundsTheHorizon(t *testing.T) {
	net := fischer2(t)
	cases := []struct {
		x      string
		within int32
		want   Verdict
	}{
		{"4", 6, Violated}, // x reaches 10, not more
		{"4", 7, Satisfied},
		{"4.5", 5, Violated}, // x < 10 = 4.5 + 5.5
		{"4.5", 6, Satisfied},
		{"9.99", 1, Satisfied},
		{"0", 10, Violated},
		{"0", 11, Satisfied},
	}
	q := compileQuery(t, net, "E<> P(1).cs")
	for _, c := range cases {
		from := fischerState(t, net, `{"locations": {"P(1)": "wait", "P(2)": "A"}, "variables": {"id": 1}, "clocks": {"P(1).x": "`+c.x+`", "P(2).x": 0}}`)
		r := Check(zone.NewSystem(net), []*Query{q}, Options{From: from, Within: c.within})[0]
		if r.Verdict != c.want {
			t.Errorf("x = %s within %d: %v (%v), want %v", c.x, c.within, r.Verdict, r.TraceErr, c.want)
			continue
		}
		if r.Trace == nil {
			continue
		}
		total := r.Trace.FinalDelay
		for _, d := range r.Trace.Delays {
			total += d
		}
		if total > int64(c.within)*r.Trace.Den {
			t.Errorf("x = %s within %d: the witness lasts %s", c.x, c.within, Rat(total, r.Trace.Den))
		}
		if len(r.Trace.Clocks[0]) != len(net.Clocks) {
			t.Errorf("the witness shows %d clocks, want the model's %d", len(r.Trace.Clocks[0]), len(net.Clocks))
		}
		if err := Replay(net, r.Trace, r.Goal); err != nil {
			t.Errorf("x = %s within %d: the witness does not replay: %v", c.x, c.within, err)
		}
	}
}

// TestWithinRefusesDeadlock: under a horizon every state at the horizon
// would be a deadlock, so deadlock queries are errors, not verdicts; the
// other queries of the same check are answered.
func TestWithinRefusesDeadlock(t *testing.T) {
	net := fischer2(t)
	qs := []*Query{compileQuery(t, net, "A[] not deadlock"), compileQuery(t, net, "E<> P(1).req")}
	rs := Check(zone.NewSystem(net), qs, Options{Within: 5})
	if rs[0].Verdict != Error || rs[0].TraceErr == nil || !strings.Contains(rs[0].TraceErr.Error(), "deadlock is not decided within a time horizon") {
		t.Errorf("deadlock within 5: %v (%v), want an error", rs[0].Verdict, rs[0].TraceErr)
	}
	if rs[1].Verdict != Satisfied {
		t.Errorf("E<> P(1).req within 5: %v, want satisfied", rs[1].Verdict)
	}
}

// TestSupFromFractionalStateIsABound: from the region of a fractional
// point, a clock's supremum bounds the point's (marked approximate); from
// an integer point it is exact.
func TestSupFromFractionalStateIsABound(t *testing.T) {
	net := fischer2(t)
	q := "sup{P(1).req}: P(1).x"
	cases := []struct {
		x, want string
	}{
		{"3", "7"},      // 3 + 4
		{"3.5", "<=8"},  // the region 3 < x < 4, within 4: below 8
		{"9.5", "<=10"}, // the invariant x <= 10: a bound, from the region
	}
	for _, c := range cases {
		from := fischerState(t, net, `{"locations": {"P(1)": "req", "P(2)": "A"}, "variables": {"id": 0}, "clocks": {"P(1).x": "`+c.x+`", "P(2).x": 0}}`)
		r := Check(zone.NewSystem(net), []*Query{compileQuery(t, net, q)}, Options{From: from, Within: 4})[0]
		if r.Verdict != Satisfied || len(r.Values) != 1 {
			t.Fatalf("x = %s: %v %v", c.x, r.Verdict, r.TraceErr)
		}
		if got := r.Values[0].String(); got != c.want {
			t.Errorf("x = %s: sup %s, want %s", c.x, got, c.want)
		}
	}
}

// TestJSONTraceFromStateReplays: a trace from a given state keeps its
// start through the JSON (start: given) and replays from it when read
// back; without that mark it is taken for a run from the initial state
// and refused.
func TestJSONTraceFromStateReplays(t *testing.T) {
	net := fischer2(t)
	from := fischerState(t, net, `{"locations": {"P(1)": "req", "P(2)": "wait"}, "variables": {"id": 2}, "clocks": {"P(1).x": "13/4", "P(2).x": 0.1}}`)
	r := Check(zone.NewSystem(net), []*Query{compileQuery(t, net, "E<> P(1).cs")}, Options{From: from, Within: 20})[0]
	if r.Trace == nil {
		t.Fatalf("no witness: %v %v", r.Verdict, r.TraceErr)
	}
	for _, c := range []struct {
		name  string
		start string
		ok    bool
	}{
		{"marked as from a given state", "given", true},
		{"without the mark", "", false},
	} {
		b, err := json.Marshal(RunJSON(net, r.Trace, "witness"))
		if err != nil {
			t.Fatal(err)
		}
		var j JSONRun
		if err := json.Unmarshal(b, &j); err != nil {
			t.Fatal(err)
		}
		if j.Start != "given" {
			t.Fatalf("the JSON trace says start %q", j.Start)
		}
		j.Start = c.start
		tr, err := j.RunTrace(net)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		err = Replay(net, tr, r.Goal)
		if (err == nil) != c.ok {
			t.Errorf("%s: replay error %v, want ok %v", c.name, err, c.ok)
		}
	}
}

// TestWithinLivenessIsBounded: under a horizon, A<> p asks that every run
// reaches p within it, E[] p that some run keeps p up to it (a run may end
// at the horizon, even where a move is enabled there), and a run that
// reaches the horizon without p is a counterexample that says so. P(1)
// waits with id = 1 at x = 4: it may enter cs once x > 10, and need not.
func TestWithinLivenessIsBounded(t *testing.T) {
	net := fischer2(t)
	from := fischerState(t, net, `{"locations": {"P(1)": "wait", "P(2)": "A"}, "variables": {"id": 1}, "clocks": {"P(1).x": 4, "P(2).x": 0}}`)
	cases := []struct {
		query  string
		within int32
		want   Verdict
	}{
		{"A<> P(1).cs", 6, Violated}, // x reaches 10, not more
		{"A<> P(1).cs", 7, Violated}, // P(1) may wait until the horizon
		{"E[] not P(1).cs", 6, Satisfied},
		{"E[] not P(1).cs", 7, Satisfied},
		{"E<> P(1).cs", 7, Satisfied},
		{"E[] P(1).wait", 100, Satisfied}, // no invariant: P(1) may wait for ever
		{"P(1).wait --> P(1).cs", 7, Violated},
		{"P(1).wait --> P(2).wait", 7, Violated},
	}
	for _, c := range cases {
		r := Check(zone.NewSystem(net), []*Query{compileQuery(t, net, c.query)}, Options{From: from, Within: c.within})[0]
		if r.Verdict != c.want {
			t.Errorf("%s within %d: %v (%v), want %v", c.query, c.within, r.Verdict, r.TraceErr, c.want)
			continue
		}
		if r.Trace == nil {
			t.Errorf("%s within %d: no trace (%v)", c.query, c.within, r.TraceErr)
			continue
		}
		if strings.HasPrefix(c.query, "E<>") {
			continue
		}
		if r.Trace.Cycle == 0 && r.Trace.End != "the run ends here, at the time horizon (--within)" {
			t.Errorf("%s within %d: the run ends with %q", c.query, c.within, r.Trace.End)
		}
		total := r.Trace.FinalDelay
		for _, d := range r.Trace.Delays {
			total += d
		}
		if r.Trace.End != "" && total != int64(c.within)*r.Trace.Den {
			t.Errorf("%s within %d: the run ends after %s, not at the horizon", c.query, c.within, Rat(total, r.Trace.Den))
		}
	}
}

// TestFromStateAllSearches: the sequential and the parallel search, the
// hull, and the liveness graph all start from Options.From (from a state
// where both processes are in cs, mutual exclusion is violated at once
// and P(1) can never again be outside cs without leaving it).
func TestFromStateAllSearches(t *testing.T) {
	net := fischer2(t)
	from := fischerState(t, net, `{"locations": {"P(1)": "cs", "P(2)": "cs"}, "variables": {"id": 2}, "clocks": {"P(1).x": 0.5, "P(2).x": 0.25}}`)
	cases := []struct {
		name  string
		query string
		opts  Options
		want  Verdict
	}{
		{"sequential", "A[] not (P(1).cs and P(2).cs)", Options{Workers: 1}, Violated},
		{"parallel", "A[] not (P(1).cs and P(2).cs)", Options{Workers: 2}, Violated},
		{"hull", "A[] not (P(1).cs and P(2).cs)", Options{Hull: true}, Violated},
		{"liveness graph", "E[] P(1).cs", Options{}, Satisfied},
		{"liveness under a horizon: P(1) may stay in cs until it", "A<> P(1).A", Options{Within: 3}, Violated},
	}
	for _, c := range cases {
		c.opts.From = from
		r := Check(zone.NewSystem(net), []*Query{compileQuery(t, net, c.query)}, c.opts)[0]
		if r.Verdict != c.want {
			t.Errorf("%s: %s is %v (%v), want %v", c.name, c.query, r.Verdict, r.TraceErr, c.want)
		}
	}
}

// TestWithinKeepsPriorityBlocking: under priorities the horizon's bound
// h <= T is compared negated too (a lower transition is taken where a
// higher one's target invariant fails), so it must survive extrapolation;
// without it a blocked transition raised a model error beyond the
// horizon (difftest finding 14).
func TestWithinKeepsPriorityBlocking(t *testing.T) {
	f, net := loadModel(t, "testdata/within/priority-blocked-error.yaml", nil)
	qs, err := FromFile(net, f, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range Check(zone.NewSystem(net), qs, Options{Within: 3}) {
		if r.Verdict != Satisfied {
			t.Errorf("%s within 3: %v (%v %v), want satisfied", r.Query.Name, r.Verdict, r.Err, r.TraceErr)
		}
	}
	net, qs, from := modelAndState(t, "testdata/within/seed-1315")
	for _, r := range Check(zone.NewSystem(net), qs, Options{From: from, Within: 2}) {
		if r.Query.Name != "q1" {
			continue
		}
		if r.Verdict != Error || r.Trace == nil || r.TraceErr != nil {
			t.Errorf("q1 within 2: %v, trace %v (%v), want an error with a replayed trace", r.Verdict, r.Trace != nil, r.TraceErr)
		}
	}
}

// TestHullConfirmsTheModelErrorsOfDoubledSups: a model error that the
// convex hull meets while a sup doubles its bound is confirmed on exact
// zones before it is reported, as one of the first exploration is
// (unconfirmed); before, from this state, q3 answered error for an
// overflow that no run reaches (difftest finding 15).
func TestHullConfirmsTheModelErrorsOfDoubledSups(t *testing.T) {
	net, qs, from := modelAndState(t, "testdata/from/seed-1453631")
	for _, r := range Check(zone.NewSystem(net), qs, Options{From: from, Hull: true}) {
		if r.Query.Name != "q3" {
			continue
		}
		if r.Verdict != Satisfied || len(r.Values) != 1 || r.Values[0].String() != "6" {
			t.Errorf("q3 under the hull: %v %v (%v %v), want 6", r.Verdict, r.Values, r.Err, r.TraceErr)
		}
	}
}

// modelAndState loads base.yaml, its queries, and the state document
// base.json.
func modelAndState(t *testing.T, base string) (*model.Network, []*Query, *State) {
	t.Helper()
	f, net := loadModel(t, base+".yaml", nil)
	qs, err := FromFile(net, f, nil)
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(base + ".json")
	if err != nil {
		t.Fatal(err)
	}
	from, err := ReadState(net, base+".json", src)
	if err != nil {
		t.Fatal(err)
	}
	return net, qs, from
}

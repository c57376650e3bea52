package queries

import (
	"fmt"
	"math/big"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tcheck/tcheck/model"
	"github.com/tcheck/tcheck/model/syntax"
	"github.com/tcheck/tcheck/zone"
)

// checkFormula checks one formula on the model at path with overrides.
func checkFormula(t *testing.T, path string, overrides map[string]int64, formula string, opts Options) *Result {
	r, _ := checkFormulaNet(t, path, overrides, formula, opts)
	return r
}

func checkFormulaNet(t *testing.T, path string, overrides map[string]int64, formula string, opts Options) (*Result, *model.Network) {
	t.Helper()
	_, net := loadModel(t, path, overrides)
	q, err := Compile(net, model.NewText(formula, model.Pos{File: "test", Line: 1, Col: 1}))
	if err != nil {
		t.Fatal(err)
	}
	return Check(zone.NewSystem(net), []*Query{q}, opts)[0], net
}

// TestFischerMutualExclusion checks Fischer's protocol for N = 2..6: mutual
// exclusion holds when the waiting delay w is at least the setting delay k,
// and fails otherwise, with a counterexample that replays.
func TestFischerMutualExclusion(t *testing.T) {
	const mutex = "A[] forall (i : id_t) forall (j : id_t) P(i).cs && P(j).cs imply i == j"
	for n := int64(2); n <= 6; n++ {
		for _, tc := range []struct {
			k, w int64
			want Verdict
		}{{10, 10, Satisfied}, {10, 11, Satisfied}, {10, 9, Violated}, {2, 1, Violated}, {1, 1, Satisfied}} {
			t.Run(fmt.Sprintf("N=%d/k=%d/w=%d", n, tc.k, tc.w), func(t *testing.T) {
				r, net := checkFormulaNet(t, "../testdata/fischer.yaml", map[string]int64{"N": n, "k": tc.k, "w": tc.w}, mutex, Options{})
				if r.Verdict != tc.want {
					t.Fatalf("got %v, want %v", r.Verdict, tc.want)
				}
				if tc.want == Violated {
					if r.Trace == nil || r.TraceErr != nil {
						t.Fatalf("no replayed counterexample: %v", r.TraceErr)
					}
					last := r.Trace.Locs[len(r.Trace.Locs)-1]
					inCS := 0
					for p, l := range last {
						if net.Procs[p].Locations[l].Name == "cs" {
							inCS++
						}
					}
					if inCS < 2 {
						t.Fatalf("counterexample ends with %d processes in cs", inCS)
					}
				}
			})
		}
	}
}

// TestFischerStateCounts pins the number of stored zones to TChecker 0.8's
// (tck-reach -a covreach -s bfs on examples/fischer.sh N 10), which uses
// the same abstraction (Extra_LU+ with local bounds) and inclusion.
func TestFischerStateCounts(t *testing.T) {
	for _, tc := range []struct {
		n      int64
		stored int64
	}{{4, 220}, {6, 2378}} {
		r := checkFormula(t, "../testdata/fischer.yaml", map[string]int64{"N": tc.n}, "A[] forall (i : id_t) forall (j : id_t) P(i).cs && P(j).cs imply i == j", Options{})
		if r.Stats.Stored != tc.stored {
			t.Errorf("N=%d: stored %d, want %d", tc.n, r.Stats.Stored, tc.stored)
		}
	}
}

// TestCSMACD checks CSMA/CD (TChecker's examples/csmacd.sh) for N = 2..4:
// collisions are reachable and two stations can start at once.
func TestCSMACD(t *testing.T) {
	for n := int64(2); n <= 4; n++ {
		t.Run(fmt.Sprintf("N=%d", n), func(t *testing.T) {
			checkFile(t, "../testdata/csmacd.yaml", map[string]int64{"N": n}, Options{})
		})
	}
}

// TestDeadlockVariants checks the deadlock predicate on a plain deadlock
// (no edge out of b, time diverges), a time-lock (the invariant of c
// expires before its guard opens) and a live loop.
func TestDeadlockVariants(t *testing.T) {
	for _, tc := range []struct {
		variant int64
		formula string
		want    Verdict
	}{
		{0, "A[] !deadlock", Satisfied},
		{1, "A[] !deadlock", Violated},
		{1, "E<> deadlock && P.b", Satisfied},
		{2, "E<> deadlock && P.c", Satisfied},
		{2, "E<> deadlock && P.c && x < 5", Satisfied},
		{2, "E<> P.b", Violated},
		{0, "E<> deadlock", Violated},
		{1, "E<> deadlock && P.start", Violated},
	} {
		t.Run(fmt.Sprintf("variant=%d/%s", tc.variant, tc.formula), func(t *testing.T) {
			for _, k := range []zone.ExtraKind{zone.ExtraLUPlus, zone.ExtraM, zone.ExtraNone} {
				r := checkFormula(t, "testdata/semantics/deadlock.yaml", map[string]int64{"variant": tc.variant}, tc.formula, Options{Extrapolation: k})
				if r.Verdict != tc.want {
					t.Fatalf("%v: got %v, want %v", k, r.Verdict, tc.want)
				}
				if (tc.want == Violated && r.Query.Kind == syntax.QueryAG) || (tc.want == Satisfied && r.Query.Kind == syntax.QueryEF) {
					if r.Trace == nil {
						t.Fatalf("%v: no replayed trace: %v", k, r.TraceErr)
					}
				}
			}
		})
	}
}

// TestRangeViolationIsAnError checks that assigning a value outside a
// variable's range during exploration is reported as a model error with
// the trace that reaches it, not wrapped or ignored.
func TestRangeViolationIsAnError(t *testing.T) {
	r := checkFormula(t, "testdata/errors/range.yaml", nil, "A[] n <= 3", Options{})
	if r.Verdict != Error || r.Err == nil {
		t.Fatalf("got %v (%v), want a model error", r.Verdict, r.Err)
	}
	if r.Trace == nil {
		t.Fatalf("no trace to the error: %v", r.TraceErr)
	}
	last := r.Trace.Vars[len(r.Trace.Vars)-1]
	if last[0] != 3 {
		t.Fatalf("trace ends with n = %d, want 3", last[0])
	}
	if want := "testdata/errors/range.yaml:12:"; len(r.Err.Error()) < len(want) || r.Err.Error()[:len(want)] != want {
		t.Fatalf("error %q does not point at the update", r.Err)
	}
}

// TestLivenessModelErrorHasATrace: a liveness query (E[], A<>, -->) on a
// model whose runs reach a model error is an error with a replayed trace
// to the move that raises it, as a reachability query's is (the
// differential tester's first liveness queries found them without one).
func TestLivenessModelErrorHasATrace(t *testing.T) {
	for _, formula := range []string{"E[] n <= 3", "A<> n == 3", "n == 1 --> n == 2"} {
		t.Run(formula, func(t *testing.T) {
			r := checkFormula(t, "testdata/errors/range.yaml", nil, formula, Options{})
			if r.Verdict != Error || r.Err == nil {
				t.Fatalf("got %v (%v), want a model error", r.Verdict, r.Err)
			}
			if r.Trace == nil {
				t.Fatalf("no trace to the error: %v", r.TraceErr)
			}
			if last := r.Trace.Vars[len(r.Trace.Vars)-1]; last[0] != 3 {
				t.Fatalf("trace ends with n = %d, want 3", last[0])
			}
		})
	}
}

// TestOutOfRangeIsAnError proves that values the engine cannot represent are
// model errors raised by the move that computes them, with a replayed trace
// to that move, under every option that changes how states are stored or
// explored. Each model once gave a wrong verdict or a panic (issue 12):
// data-dependent clock constants outside the DBM's range, clock resets out
// of range, and 32-bit overflow in expressions; and a failing constant
// operation and a constant index out of bounds in an update, which fail
// when they are evaluated.
func TestOutOfRangeIsAnError(t *testing.T) {
	cases := []struct {
		file, msg string
		trace     int // the moves of the trace to the failing move
	}{
		{"clock-const-data.yaml", "clock-const-data.yaml:15:35: clock constant 1500000000 out of range", 0},
		{"clock-const-data-mid.yaml", "clock-const-data-mid.yaml:14:35: clock constant -600000000 out of range", 0},
		{"clock-reset-data.yaml", "clock-reset-data.yaml:13:62: clock x reset to 600000000, out of range", 1},
		{"overflow-mul.yaml", "overflow-mul.yaml:14:40: integer overflow: 4294967296 does not fit in 32 bits", 0},
		{"overflow-add.yaml", "overflow-add.yaml:11:35: integer overflow: 2147483648 does not fit in 32 bits", 1},
		{"deadlock-error.yaml", "deadlock-error.yaml:15:35: assignment of 2 to v out of range", 0},
		{"constant-division-reached.yaml", "constant-division-reached.yaml:19:51: division by zero in a constant expression", 1},
		{"constant-index-reached.yaml", "constant-index-reached.yaml:20:48: index 2 out of bounds [0,1] of A", 1},
	}
	for _, c := range cases {
		for _, opts := range []Options{{}, {FullZones: true}, {Order: zone.DFS}, {Hull: true}} {
			t.Run(fmt.Sprintf("%s/%+v", c.file, opts), func(t *testing.T) {
				f, net := loadModel(t, "testdata/errors/"+c.file, nil)
				qs, err := FromFile(net, f, nil)
				if err != nil {
					t.Fatal(err)
				}
				r := Check(zone.NewSystem(net), qs, opts)[0]
				if r.Verdict != Error || r.Err == nil {
					t.Fatalf("got %v (%v), want a model error", r.Verdict, r.Err)
				}
				if !strings.Contains(r.Err.Error(), c.msg) {
					t.Fatalf("error %q, want it to contain %q", r.Err, c.msg)
				}
				if r.Trace == nil {
					t.Fatalf("no trace to the error: %v", r.TraceErr)
				}
				if got := len(r.Trace.Moves) - 1; got != c.trace { // Moves[0] is nil
					t.Fatalf("trace of %d moves, want %d", got, c.trace)
				}
			})
		}
	}
}

// TestReceiverGuardErrorNeedsASender proves that the guard of a receiving
// edge is evaluated where a sender on its channel is enabled, and there
// only (zone.Stepper evaluates such guards lazily): a division by zero in
// it is a model error at the state where P can send, with the trace to it,
// under every option that changes how states are stored or explored, and
// no error where no sender can use the edge.
func TestReceiverGuardErrorNeedsASender(t *testing.T) {
	for _, opts := range []Options{{}, {FullZones: true}, {Order: zone.DFS}, {Hull: true}, {Workers: 2}} {
		t.Run(fmt.Sprintf("%+v", opts), func(t *testing.T) {
			r := checkFormula(t, "testdata/errors/receiver-guard.yaml", nil, "E<> P.b", opts)
			if r.Verdict != Satisfied {
				t.Fatalf("E<> P.b: got %v (%v), want satisfied: no sender on c is enabled before P.b", r.Verdict, r.Err)
			}
			r = checkFormula(t, "testdata/errors/receiver-guard.yaml", nil, "A[] n == 0", opts)
			if r.Verdict != Error || r.Err == nil || !strings.Contains(r.Err.Error(), "receiver-guard.yaml:23:41: division by zero") {
				t.Fatalf("A[] n == 0: got %v (%v), want the division by zero in Q's guard", r.Verdict, r.Err)
			}
			if r.Trace == nil || len(r.Trace.Moves)-1 != 1 {
				t.Fatalf("trace to the error: %v (%v), want one move, to P.b", r.Trace, r.TraceErr)
			}
		})
	}
}

// TestSupTermErrorIsAnError proves that a sup/inf over a data term whose
// evaluation fails in a reachable state is an error naming the term, not
// a value over the states where it could be evaluated (issue 12, item 4).
func TestSupTermErrorIsAnError(t *testing.T) {
	for _, formula := range []string{"sup: 10 / n", "inf: 10 / n", "sup{P.a}: 10 / n"} {
		r := checkFormula(t, "testdata/errors/sup-term.yaml", nil, formula, Options{})
		if r.Verdict != Error || r.TraceErr == nil {
			t.Fatalf("%s: got %v %v, want an error", formula, r.Verdict, r.Values)
		}
		if want := "the term 10 / n raises an error in a reachable state: test:1:"; !strings.Contains(r.TraceErr.Error(), want) {
			t.Fatalf("%s: error %q, want it to contain %q", formula, r.TraceErr, want)
		}
	}
}

// TestNestedCallsAreBudgeted proves that function calls count against the
// evaluation budget (a guard making 2^35 calls fails instead of running for
// hours) and that a time limit stops a long evaluation from inside (issue
// 12, item 5).
func TestNestedCallsAreBudgeted(t *testing.T) {
	r := checkFormula(t, "testdata/errors/nested-calls.yaml", nil, "E<> P.b", Options{})
	if r.Verdict != Error || r.Err == nil || !strings.Contains(r.Err.Error(), "evaluation did not terminate") {
		t.Fatalf("got %v (%v), want the evaluation budget's error", r.Verdict, r.Err)
	}
	opts := Options{}
	opts.Limits.Timeout = time.Millisecond
	start := time.Now()
	r = checkFormula(t, "testdata/errors/nested-calls.yaml", nil, "E<> P.b", opts)
	if r.Verdict != Unknown || r.Reason != zone.LimitTime {
		t.Fatalf("with a 1 ms limit: got %v (%v, %v), want unknown at the time limit", r.Verdict, r.Reason, r.Err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("the time limit took %v to stop the evaluation", d)
	}
	// The same evaluation in a query formula is stopped by the limit too.
	r = checkFormula(t, "testdata/errors/nested-calls.yaml", nil, "E<> f34() == 1", opts)
	if r.Verdict != Unknown {
		t.Fatalf("formula with a 1 ms limit: got %v (%v, %v), want unknown", r.Verdict, r.Reason, r.TraceErr)
	}
}

// TestLimitsGiveUnknown checks that a state limit ends the search with the
// verdict unknown and the statistics so far.
func TestLimitsGiveUnknown(t *testing.T) {
	opts := Options{}
	opts.Limits.MaxStates = 50
	r := checkFormula(t, "../testdata/fischer.yaml", map[string]int64{"N": 5}, "A[] forall (i : id_t) forall (j : id_t) P(i).cs && P(j).cs imply i == j", opts)
	if r.Verdict != Unknown || r.Reason != zone.LimitStates {
		t.Fatalf("got %v (%v), want unknown at the state limit", r.Verdict, r.Reason)
	}
	if r.Stats.Stored < 50 || r.Stats.Explored == 0 {
		t.Fatalf("stats %+v", r.Stats)
	}
}

// TestQueryConstants checks that a query lists the model constants it
// mentions with their values (for the output: `where U = 4`), in order of
// first mention, leaving out quantified variables and non-constants.
func TestQueryConstants(t *testing.T) {
	_, net := loadModel(t, "../agreement/agreement.yaml", map[string]int64{"d": 1})
	q, err := Compile(net, model.NewText("A[] forall (T : pid_t) (t <= U + D imply T >= 0) && nf <= f && U > 0", model.Pos{File: "test", Line: 1, Col: 1}))
	if err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprint(q.Constants)
	if want := "[{U 8} {D 2} {f 1}]"; got != want {
		t.Fatalf("constants %s, want %s", got, want)
	}
}

// TestLivenessVariants checks E[], A<> and --> on testdata/semantics/
// liveness.yaml under its three variants (answers derived by hand in the
// file): cycles, time-locks and unbounded delays end paths as UPPAAL's
// semantics says, and every witness or counterexample replays.
func TestLivenessVariants(t *testing.T) {
	for _, tc := range []struct {
		variant int64
		formula string
		want    Verdict
	}{
		{1, "E[] !P.c", Violated},
		{1, "A<> P.c", Satisfied},
		{1, "P.b --> P.c", Satisfied},
		{1, "E[] !P.d", Satisfied}, // ends in c's time-lock
		{1, "A<> P.d", Violated},
		{2, "A<> P.d", Satisfied},
		{2, "E[] !P.d", Violated},
		{2, "E[] P.d || P.c", Violated},
		{2, "P.a --> P.d", Satisfied},
		{0, "P.a --> P.d", Violated},
		{0, "E[] true", Satisfied},
		{2, "E[] true", Satisfied},
	} {
		t.Run(fmt.Sprintf("variant=%d/%s", tc.variant, tc.formula), func(t *testing.T) {
			for _, k := range []zone.ExtraKind{zone.ExtraMPlus, zone.ExtraNone} {
				r := checkFormula(t, "testdata/semantics/liveness.yaml", map[string]int64{"variant": tc.variant}, tc.formula, Options{Extrapolation: k})
				if r.Verdict != tc.want {
					t.Fatalf("%v: got %v (%v), want %v", k, r.Verdict, r.TraceErr, tc.want)
				}
				witness := (r.Query.Kind == syntax.QueryEG) == (r.Verdict == Satisfied)
				if witness && (r.Trace == nil || r.TraceErr != nil) {
					t.Fatalf("%v: no replayed trace: %v", k, r.TraceErr)
				}
			}
		})
	}
}

// TestSupClockGrowsForever checks the cycle test of queries/unbounded.go:
// a clock that a time-divergent loop never resets has supremum inf, found
// without doubling its bound up to 2^20 (the difftest model took minutes),
// while loops that stop, or run under an invariant that caps the clock,
// keep their finite suprema; under every abstraction that terminates on
// them (Extra_None does not: the zones of the loop differ forever).
func TestSupClockGrowsForever(t *testing.T) {
	files, err := filepath.Glob("testdata/sup/*.yaml")
	if err != nil || len(files) < 3 {
		t.Fatalf("models: %v %v", files, err)
	}
	for _, path := range append(files, "../testdata/difftest/sup-unbounded-clock-slow.yaml") {
		for _, opts := range []Options{{}, {Extrapolation: zone.ExtraLU}, {Extrapolation: zone.ExtraMPlus}, {GlobalBounds: true}, {FullZones: true}, {Order: zone.DFS}} {
			t.Run(fmt.Sprintf("%s/%+v", filepath.Base(path), opts), func(t *testing.T) {
				opts.Limits.Timeout = time.Minute
				checkFile(t, path, nil, opts)
			})
		}
	}
}

// TestTimeLimitHoldsAmongBroadcastMoves proves that the time limit stops a
// search inside one state whose broadcasts have millions of moves
// (testdata/errors/broadcast-fanout.yaml, found by the differential
// tester): each move's evaluation is too short to poll the limit, so the
// enumeration polls it between moves; before, --timeout 5s ran for
// minutes. Sequential and parallel searches alike.
func TestTimeLimitHoldsAmongBroadcastMoves(t *testing.T) {
	for _, workers := range []int{1, 2} {
		opts := Options{Workers: workers}
		opts.Limits.Timeout = 200 * time.Millisecond
		done := make(chan *Result, 1)
		go func() { done <- checkFormula(t, "testdata/errors/broadcast-fanout.yaml", nil, "E<> deadlock", opts) }()
		select {
		case r := <-done:
			if r.Verdict != Unknown || r.Reason != zone.LimitTime {
				t.Fatalf("workers %d: got %v (%v, %v), want unknown at the time limit", workers, r.Verdict, r.Reason, r.Err)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("workers %d: no verdict 30 s after a 200 ms time limit", workers)
		}
	}
}

// TestTimeoutBoundsTheWholeCheck proves that Limits.Timeout bounds a whole
// Check, not each of its explorations: on
// testdata/limits/timeout-whole-check.yaml `sup: x0` is infinite and not
// seen to be, so checkSup doubles x0's bound in up to 19 explorations; with
// a timeout of 200 ms per exploration the check ran for 0.47-0.58 s (1 s at
// 300 ms, 2.5 s at 1 s). Now the check ends at the timeout with the
// verdict unknown, and the query decided before it keeps its verdict.
// Sequential and parallel searches alike. The timeout is 400 ms and the
// check may overrun it by 300 ms (the old code took 1 s at 300 ms): at
// 200 ms with a 100 ms margin, a run beside two fuzzing processes on two
// cores took 410 ms. The whole check takes about 1.1 s unbounded.
func TestTimeoutBoundsTheWholeCheck(t *testing.T) {
	const timeout, margin = 400 * time.Millisecond, 300 * time.Millisecond
	for _, workers := range []int{1, 2} {
		f, net := loadModel(t, "testdata/limits/timeout-whole-check.yaml", nil)
		qs, err := FromFile(net, f, nil)
		if err != nil {
			t.Fatal(err)
		}
		opts := Options{Workers: workers}
		opts.Limits.Timeout = timeout
		start := time.Now()
		rs := Check(zone.NewSystem(net), qs, opts)
		if d := time.Since(start); d > timeout+margin {
			t.Errorf("workers %d: the check took %v with a %v timeout", workers, d, timeout)
		}
		for _, r := range rs {
			switch r.Query.Name {
			case "sup-x0":
				if r.Verdict != Unknown || r.Reason != zone.LimitTime {
					t.Errorf("workers %d: sup-x0: got %v (%v), want unknown at the time limit", workers, r.Verdict, r.Reason)
				}
			case "no-deadlock":
				if !r.Matches() {
					t.Errorf("workers %d: no-deadlock: got %v, want %s", workers, r.Verdict, r.Query.Expect.Raw)
				}
			}
		}
	}
}

// TestSupGrowsForeverFromAState checks the second cycle test of
// queries/repeat.go (repeatsWithTime) from a given state with
// fractional clock values: the run it solves starts at those values, and
// the loop of sup-short-period.yaml still turns forever (inf, exact: an
// unbounded clock is unbounded from every valuation of the region), while
// a horizon caps the clock (2.5 + 50, so at most 53 over the region, a
// bound "<=").
func TestSupGrowsForeverFromAState(t *testing.T) {
	f, net := loadModel(t, "testdata/sup/sup-short-period.yaml", nil)
	qs, err := FromFile(net, f, nil)
	if err != nil {
		t.Fatal(err)
	}
	from, err := ReadState(net, "s.json", []byte(`{"locations": {"P": "L0"}, "clocks": {"x": "1/3", "t": "5/2"}}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		within int32
		inf    bool
		bound  int64
	}{{0, true, 0}, {50, false, 53}} {
		opts := Options{From: from, Within: c.within}
		opts.Limits.Timeout = time.Minute
		start := time.Now()
		r := Check(zone.NewSystem(net), qs, opts)[0]
		if r.Verdict != Satisfied || len(r.Values) != 1 {
			t.Fatalf("within %d: got %v %v (%v)", c.within, r.Verdict, r.Values, r.Err)
		}
		v := r.Values[0]
		if v.Inf != c.inf || v.Approx == c.inf || !c.inf && (v.Bound != c.bound || v.Exceeds) {
			t.Errorf("within %d: got %s, want inf %v bound %d", c.within, v, c.inf, c.bound)
		}
		if c.inf && r.Rounds > 2 {
			t.Errorf("within %d: %d explorations: the bound was doubled (took %v)", c.within, r.Rounds, time.Since(start))
		}
	}
}

// TestSupCycleTestSkipsCyclesThatCannotRepeat proves that the second
// cycle test spends its runs and its anchors on cycles that may repeat.
// A cycle that fails condition (1) on the graph (a clock bounded above
// on it and not reset on it) is skipped without a run: on difftest seed
// 505982's model such loops used up the 64 runs. An anchor counts only
// where it gives a run to try: on seeds 529095 and 532419 the first four
// anchors gave none, and the state whose loop repeats came later. Each
// doubled its bound to 2^20 for 28 s to 1m29s and answered >1048576; within
// a few seconds, under each exploration order, each is inf again. On seed
// 530374 the shortest way on to the condition reaches it with a clock its
// invariant bounds, grown with the wait; a way on that resets that clock
// first is tried too. On seed 583086 the loop that repeats is a state's
// self-loop after the anchors tried; such loops are tried last. On seed
// 588547, under global bounds, the cycles spent the runs before a state
// where time passes forever was tried; such states are tried first. On
// symmetric seed 94918 the shortest way on takes a guard that caps a clock
// grown with the wait, and answered >1048576 in 41 ms; the shortest way on
// that resets each clock before a guard or an invariant caps it is tried
// too (sup-way-on-resets-before-guard.yaml needs the reset on the way). On
// seed 784296 the way on takes a guard on the difference of two clocks
// that only grow, which the run's condition (1) took for an upper bound;
// the filter of the cycles did the same on a loop with such a guard.
func TestSupCycleTestSkipsCyclesThatCannotRepeat(t *testing.T) {
	for _, c := range []struct{ path, formula string }{
		{"testdata/sup/sup-loops-spend-the-runs.yaml", "sup: x0"},
		{"testdata/sup/sup-anchors-without-cycles.yaml", "sup: P1.z0"},
		{"testdata/sup/sup-anchors-without-cycles-2.yaml", "sup: x0"},
		{"testdata/sup/sup-way-on-resets-first.yaml", "sup{P2.L1}: x0"},
		{"testdata/sup/sup-loop-after-anchors.yaml", "sup: P3.z0"},
		{"testdata/sup/sup-way-on-resets-before-guard.yaml", "sup{P0.L1}: x0"},
		{"testdata/sup/sup-diagonal-of-growing-clocks.yaml", "sup{P0.L1}: P0.z2"},
		{"testdata/sup/sup-loop-diagonal-of-growing-clocks.yaml", "sup{P0.L0}: x"},
		{"testdata/sup/sup-way-on-uncapped.yaml", "sup{(exists (i : s_t) exists (k : s_t) i != k && P0(i).L2 && P0(k).L2)}: x0"},
		{"testdata/sup/sup-zeno-cycles-first.yaml", "sup: P0.z0"},
	} {
		wantSupInfWithin5s(t, c.path, c.formula)
	}
	// seed 588547 spent the runs on cycles under global bounds only
	r := checkFormula(t, "testdata/sup/sup-idle-before-cycles.yaml", nil, "sup{b0}: P3.z0", Options{Workers: 1, GlobalBounds: true, Limits: zone.Limits{Timeout: 5 * time.Second}})
	if len(r.Values) != 1 || !r.Values[0].Inf {
		t.Fatalf("sup-idle-before-cycles.yaml under global bounds: got %v %v (%v), want inf", r.Verdict, r.Values, r.Reason)
	}
}

// wantSupInfWithin5s checks that formula, a sup over a clock, is inf on the
// model at path within 5 seconds, sequentially, with two workers and depth
// first.
func wantSupInfWithin5s(t *testing.T, path, formula string) {
	t.Helper()
	for _, opts := range []Options{{Workers: 1}, {Workers: 2}, {Workers: 1, Order: zone.DFS}} {
		opts.Limits.Timeout = 5 * time.Second
		r := checkFormula(t, path, nil, formula, opts)
		if len(r.Values) != 1 || !r.Values[0].Inf {
			t.Fatalf("%s, %+v: got %v %v (%v), want inf", path, opts, r.Verdict, r.Values, r.Reason)
		}
	}
}

// TestSupUnderExtraNoneIsExact: without an abstraction every zone of the
// zone graph is the exact set its path reaches, so a sup over a clock is
// exact in one exploration, at any size (exactZones): no bound K to double,
// and a zone in which the clock has no upper bound answers inf, its
// witness the path to that zone. Before, Extra_None doubled K as the
// abstractions do, and where the cycle tests' graph (which has no end
// without an abstraction) was needed it answered >K: difftest seed
// 784296, sup-diagonal-of-growing-clocks.yaml, >1572864 after 0.5 s.
func TestSupUnderExtraNoneIsExact(t *testing.T) {
	for _, c := range []struct {
		path, formula string
		want          string
	}{
		{"testdata/sup/sup-diagonal-of-growing-clocks.yaml", "sup{P0.L1}: P0.z2", "inf"},
		{"testdata/sup/sup-capped-by-other-clock.yaml", "sup: x", "2000"},
		{"testdata/sup/sup-capped.yaml", "sup: z", "5"},
	} {
		for _, workers := range []int{1, 2} {
			none := Options{Workers: workers, Extrapolation: zone.ExtraNone, Limits: zone.Limits{Timeout: 5 * time.Second}}
			r := checkFormula(t, c.path, nil, c.formula, none)
			if len(r.Values) != 1 || r.Values[0].String() != c.want {
				t.Fatalf("%s, %d workers: got %v %v (%v), want %s", c.path, workers, r.Verdict, r.Values, r.Reason, c.want)
			}
			if r.Trace == nil || r.TraceErr != nil {
				t.Errorf("%s, %d workers: no replayed witness: %v", c.path, workers, r.TraceErr)
			}
			// one exploration: as many states explored as A[] true's
			all := checkFormula(t, c.path, nil, "A[] true", none)
			if workers == 1 && r.Stats.Explored != all.Stats.Explored {
				t.Errorf("%s: the sup explored %d states, one exploration %d", c.path, r.Stats.Explored, all.Stats.Explored)
			}
		}
	}
	r := checkFormula(t, "testdata/sup/sup-diagonal-of-growing-clocks.yaml", nil, "sup{P0.L1}: P0.z2", Options{Workers: 1, Extrapolation: zone.ExtraNone})
	if r.Trace == nil || !strings.Contains(r.Trace.End, "no upper bound") {
		t.Errorf("the witness of an inf under Extra_None does not say why: %+v", r.Trace)
	}
}

// TestSupInfUnderHullIsConfirmed: a sup whose clock grows for real in a
// state the convex hull reaches is confirmed on exact zones at the same K,
// in two explorations, with one worker or two, and every run gives the
// same exact inf (testdata/sup/sup-hull-inf-confirmed.yaml; before, two
// workers answered <=inf or inf from run to run, and one worker doubled K
// through seven explorations).
func TestSupInfUnderHullIsConfirmed(t *testing.T) {
	for _, workers := range []int{1, 2, 2, 2, 2, 2, 2, 2, 2} {
		r := checkFormula(t, "testdata/sup/sup-hull-inf-confirmed.yaml", nil, "sup{g0 <= 0}: x0", Options{Workers: workers, Hull: true, Extrapolation: zone.ExtraMPlus, Symmetry: true})
		if len(r.Values) != 1 || !r.Values[0].Inf || r.Values[0].Approx {
			t.Fatalf("%d workers: got %v %v, want an exact inf", workers, r.Verdict, r.Values)
		}
		if r.Rounds != 2 {
			t.Errorf("%d workers: %d explorations, want 2 (the hull's, then the exact one)", workers, r.Rounds)
		}
		if r.Trace == nil || r.TraceErr != nil || !strings.Contains(r.Trace.End, "time can pass in this state forever") {
			t.Errorf("%d workers: the witness does not end where time passes forever: %v", workers, r.TraceErr)
		}
	}
}

// TestSupPeriodBetweenPowersOfTwo checks that the second cycle test finds a
// cycle whose turns can last the same time forever where only periods
// strictly between two powers of 2 do (queries/repeat.go: the period is
// bisected between one too short and one too long): before, sup doubled
// its bound for minutes and answered >1048576 (difftest seed 551653).
func TestSupPeriodBetweenPowersOfTwo(t *testing.T) {
	for _, c := range []struct{ path, formula string }{
		{"testdata/sup/sup-period-between-powers.yaml", "sup: t"},
		{"testdata/sup/sup-period-between-powers-seed.yaml", "sup: P0.z1"},
	} {
		wantSupInfWithin5s(t, c.path, c.formula)
	}
}

// TestSupInfWitnessIsACycle checks the witness of an infinite sup found by
// the second cycle test (queries/repeat.go, repeatsWithTime): the run
// to the cycle and one turn of it, marked as a cycle the run can repeat
// forever (Trace.Cycle), in which the clock grows (by the turn's period);
// Check has replayed it. Where the sup is inf because time can pass
// forever in a state of the condition, the witness ends there and says
// so (Trace.End).
func TestSupInfWitnessIsACycle(t *testing.T) {
	for _, c := range []struct {
		path, clock string
		period      string // the turn's duration ("": no cycle, an End)
	}{
		{"testdata/sup/sup-short-period.yaml", "t", "1/2"},
		{"testdata/sup/sup-committed-loop.yaml", "t", "1"},
		{"testdata/sup/sup-cycle-not-shortest.yaml", "t", "1"},
		{"testdata/sup/sup-time-may-pass.yaml", "x0", "1"},
		{"testdata/sup/sup-idle.yaml", "x", ""},
		// no turn of 1 or 2 time units: bisected between them
		{"testdata/sup/sup-period-between-powers.yaml", "t", "3/2"},
	} {
		t.Run(filepath.Base(c.path), func(t *testing.T) {
			f, net := loadModel(t, c.path, nil)
			qs, err := FromFile(net, f, nil)
			if err != nil {
				t.Fatal(err)
			}
			// a limit, so that a cycle test that misses fails rather
			// than doubles the bound until the test times out
			r := Check(zone.NewSystem(net), qs[:1], Options{Workers: 1, Limits: zone.Limits{Timeout: 30 * time.Second}})[0]
			if len(r.Values) != 1 || !r.Values[0].Inf {
				t.Fatalf("got %v %v (%v), want inf", r.Verdict, r.Values, r.Reason)
			}
			tr := r.Trace
			if c.period == "" {
				if tr == nil || tr.Cycle != 0 || !strings.HasPrefix(tr.End, "time can pass in this state forever") {
					t.Fatalf("witness %+v (%v): want one that ends where time passes forever", tr, r.TraceErr)
				}
				return
			}
			if tr == nil || tr.Cycle == 0 {
				t.Fatalf("witness %+v (%v): want a cycle", tr, r.TraceErr)
			}
			// net.Clocks[0] is the reference clock, as in the valuations
			x := slices.IndexFunc(net.Clocks, func(cl model.Clock) bool { return cl.Name == c.clock })
			if x <= 0 {
				t.Fatalf("no clock %s", c.clock)
			}
			from := tr.Clocks[len(tr.Moves)-1-tr.Cycle][x]
			grown := new(big.Rat).SetFrac64(tr.Final[x]-from, tr.Den)
			if grown.Cmp(rat(c.period)) != 0 {
				t.Errorf("%s grows by %s a turn, want %s", c.clock, grown, c.period)
			}
		})
	}
}

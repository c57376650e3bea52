package simulate

import (
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/tcheck/tcheck/agreement"
	"github.com/tcheck/tcheck/model"
	"github.com/tcheck/tcheck/model/syntax"
	"github.com/tcheck/tcheck/queries"
)

// load compiles a model file (a path, or a bundled model's name) with
// parameter overrides.
func load(t testing.TB, name string, set map[string]int64) (*model.Network, *model.File) {
	t.Helper()
	var src []byte
	var err error
	if strings.HasSuffix(name, ".yaml") {
		src, err = os.ReadFile(name)
	} else {
		src, err = agreement.Source(name)
		name += ".yaml"
	}
	if err != nil {
		t.Fatal(err)
	}
	f, err := model.Parse(name, src)
	if err != nil {
		t.Fatal(err)
	}
	net, err := f.Compile(set)
	if err != nil {
		t.Fatal(err)
	}
	return net, f
}

func monitors(t testing.TB, net *model.Network, f *model.File, names ...string) []*queries.Query {
	t.Helper()
	qs, err := queries.FromFile(net, f, names)
	if err != nil {
		t.Fatal(err)
	}
	var out []*queries.Query
	for _, q := range qs {
		if Monitorable(q) == "" {
			out = append(out, q)
		}
	}
	return out
}

// TestRunsReplay replays every run the simulator makes, whole, with
// queries.Replay: the simulator's semantics (delays, committed and urgent
// locations, urgent and broadcast channels, selects, invariants) must be
// the concrete semantics the replay checks.
func TestRunsReplay(t *testing.T) {
	for _, tc := range []struct {
		model string
		set   map[string]int64
	}{
		{"../testdata/fischer.yaml", map[string]int64{"w": 9}},
		{"../testdata/csmacd.yaml", map[string]int64{"N": 3}},
		{"testdata/features.yaml", nil},
		{"testdata/delays.yaml", nil},
		{"../queries/testdata/semantics/broadcast-clock-guards.yaml", nil},
		{"../queries/testdata/semantics/priorities.yaml", nil},
		{"agreement", nil},
		{"timeout", nil},
		{"agreement-m5", nil},
	} {
		net, _ := load(t, tc.model, tc.set)
		for _, st := range []Strategy{Random, PCT, Swarm} {
			o := Options{Seed: 7, Runs: 15, Steps: 150, Strategy: st, PCTDepth: 3}
			r := newRunner(net, &o)
			for run := 0; run < o.Runs; run++ {
				out := r.run(run, nil, nil, o.Steps)
				if out.err != nil {
					t.Fatalf("%s %s run %d: %v", tc.model, st, run, out.err)
				}
				tr := r.trace(0)
				if len(tr.Moves)-1 != out.steps {
					t.Fatalf("%s: trace of %d moves for %d steps", tc.model, len(tr.Moves)-1, out.steps)
				}
				if err := queries.Replay(net, tr, nil); err != nil {
					t.Fatalf("%s %s run %d (%d steps) does not replay: %v", tc.model, st, run, out.steps, err)
				}
			}
		}
	}
}

func TestFindsFischerRace(t *testing.T) {
	net, f := load(t, "../testdata/fischer.yaml", map[string]int64{"w": 9})
	for _, tc := range []struct {
		strategy Strategy
		steps    int
	}{{Random, 1000}, {PCT, 20}} {
		res, err := Run(net, Options{Seed: 1, Runs: 2000, Steps: tc.steps, Strategy: tc.strategy, PCTDepth: 3, Monitors: monitors(t, net, f, "mutex")})
		if err != nil {
			t.Fatal(err)
		}
		m := res.Monitors[0]
		if m.Verdict() != queries.Violated || m.Matches() {
			t.Fatalf("%s: mutex %v after %d runs, want violated", tc.strategy, m.Verdict(), res.Runs)
		}
		if err := queries.Replay(net, m.Found.Trace, m.Goal); err != nil {
			t.Fatalf("%s: the counterexample does not replay: %v", tc.strategy, err)
		}
		if res.Runs != m.Found.Run+1 {
			t.Errorf("%s: the hunt went on after the violation (%d runs, found in run %d)", tc.strategy, res.Runs, m.Found.Run)
		}
	}
}

func TestSameSeedSameRuns(t *testing.T) {
	net, f := load(t, "agreement-m1", nil)
	for _, st := range []Strategy{Random, PCT} {
		o := Options{Seed: 42, Runs: 200, Steps: 300, Strategy: st, PCTDepth: 2, Monitors: monitors(t, net, f)}
		a, err := Run(net, o)
		if err != nil {
			t.Fatal(err)
		}
		o.Monitors = monitors(t, net, f)
		b, err := Run(net, o)
		if err != nil {
			t.Fatal(err)
		}
		if a.Runs != b.Runs || a.Steps != b.Steps {
			t.Fatalf("%s: %d runs %d steps, then %d runs %d steps", st, a.Runs, a.Steps, b.Runs, b.Steps)
		}
		for i := range a.Monitors {
			fa, fb := a.Monitors[i].Found, b.Monitors[i].Found
			if (fa == nil) != (fb == nil) || fa != nil && (fa.Run != fb.Run || !reflect.DeepEqual(fa.Trace, fb.Trace)) {
				t.Fatalf("%s: %s found differently", st, a.Monitors[i].Query.Name)
			}
		}
		o.Seed = 43
		o.Monitors = monitors(t, net, f)
		c, err := Run(net, o)
		if err != nil {
			t.Fatal(err)
		}
		if c.Steps == a.Steps && c.Runs == a.Runs {
			t.Logf("%s: seeds 42 and 43 took the same number of runs and steps", st)
		}
	}
}

// TestInsideDelays: a property that holds only strictly inside a delay, and
// a deadlock reached only by letting time pass, are found.
func TestInsideDelays(t *testing.T) {
	net, f := load(t, "testdata/delays.yaml", nil)
	for seed := uint64(1); seed <= 10; seed++ {
		res, err := Run(net, Options{Seed: seed, Runs: 5, Steps: 10, PCTDepth: 1, Monitors: monitors(t, net, f)})
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range res.Monitors {
			want := queries.Satisfied
			if m.Query.Kind == syntax.QueryAG {
				want = queries.Violated
			}
			if m.Verdict() != want || !m.Matches() {
				t.Errorf("seed %d: %s: %v, want %v", seed, m.Query.Name, m.Verdict(), want)
			}
		}
	}
}

func TestModelError(t *testing.T) {
	net, f := load(t, "testdata/overflow.yaml", nil)
	res, err := Run(net, Options{Seed: 3, Runs: 10, Steps: 100, PCTDepth: 1, Monitors: monitors(t, net, f)})
	if err != nil {
		t.Fatal(err)
	}
	if res.Error == nil || res.Error.Err == nil || res.Error.FailMove == nil {
		t.Fatalf("no model error reported: %+v", res)
	}
	if !strings.Contains(res.Error.Err.Error(), "out of range") || len(res.Error.Trace.Moves)-1 != 3 {
		t.Errorf("error %v after %d moves, want out of range after 3", res.Error.Err, len(res.Error.Trace.Moves)-1)
	}
	if res.Runs != 1 {
		t.Errorf("%d runs, want the hunt to stop at the error", res.Runs)
	}
}

func TestUntil(t *testing.T) {
	net, _ := load(t, "../testdata/fischer.yaml", nil)
	q, err := queries.Compile(net, model.NewText("E<> P(2).cs && id == 2", model.Pos{}))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(net, Options{Seed: 5, Runs: 50, Steps: 500, PCTDepth: 1, Until: q.Formula})
	if err != nil {
		t.Fatal(err)
	}
	if res.Until == nil {
		t.Fatal("until not reached")
	}
	last := res.Until.Trace.Locs[len(res.Until.Trace.Locs)-1]
	if net.Procs[1].Locations[last[1]].Name != "cs" {
		t.Errorf("the run stops in %v", last)
	}
}

func TestBadOptions(t *testing.T) {
	net, _ := load(t, "../testdata/fischer.yaml", nil)
	for _, tc := range []struct {
		o    Options
		want string
	}{
		{Options{Runs: 0, Steps: 1, PCTDepth: 1}, "--runs"},
		{Options{Runs: 1, Steps: 0, PCTDepth: 1}, "--steps"},
		{Options{Runs: 1, Steps: 1, PCTDepth: 0}, "--pct-depth"},
		{Options{Runs: 1, Steps: 1, PCTDepth: 1, TimeBound: -1}, "--time-bound"},
	} {
		if _, err := Run(net, tc.o); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want one about %s", tc.o, err, tc.want)
		}
	}
	if _, err := ParseStrategy("dfs"); err == nil {
		t.Error("strategy dfs accepted")
	}
}

func TestTimeBound(t *testing.T) {
	net, _ := load(t, "../testdata/fischer.yaml", nil)
	o := Options{Seed: 1, Runs: 20, Steps: 1000, TimeBound: 25, PCTDepth: 1}
	r := newRunner(net, &o)
	for run := 0; run < o.Runs; run++ {
		out := r.run(run, nil, nil, o.Steps)
		if out.err != nil {
			t.Fatal(out.err)
		}
		if r.elapsed > 25*r.den {
			t.Fatalf("run %d: %d/%d time units elapsed, bound 25", run, r.elapsed, r.den)
		}
		if out.steps >= o.Steps {
			t.Fatalf("run %d took %d steps within 25 time units", run, out.steps)
		}
	}
}

func BenchmarkFischer10(b *testing.B) {
	net, _ := load(b, "../testdata/fischer.yaml", map[string]int64{"N": 10})
	o := Options{Seed: 1, Runs: 1, Steps: 10000, PCTDepth: 1}
	r := newRunner(net, &o)
	steps := 0
	for i := 0; b.Loop(); i++ {
		steps += r.run(i, nil, nil, o.Steps).steps
	}
	b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "steps/s")
}

// TestNoCreepingRefinement: runs whose delays approach a strict bound
// without reaching it keep a coarse grid (the grid is refined only where a
// property changes value or a move needs it).
func TestNoCreepingRefinement(t *testing.T) {
	net, f := load(t, "testdata/creep.yaml", nil)
	res, err := Run(net, Options{Seed: 1, Runs: 30, Steps: 200, PCTDepth: 1, Monitors: monitors(t, net, f)})
	if err != nil {
		t.Fatal(err)
	}
	if res.Steps != 30*200 {
		t.Errorf("%d steps in %d runs, want every run to take 200", res.Steps, res.Runs)
	}
	for _, m := range res.Monitors {
		if m.Found != nil {
			t.Errorf("%s found: %v", m.Query.Name, m.Verdict())
		}
	}
	o := Options{Seed: 1, Runs: 1, Steps: 200, PCTDepth: 1}
	r := newRunner(net, &o)
	for run := 0; run < 30; run++ {
		r.run(run, nil, nil, o.Steps)
		if r.den > 12 {
			t.Errorf("run %d: grid refined to 1/%d", run, r.den)
		}
	}
}

// TestStopwatchModelsAreRefused proves the simulator refuses a model with
// a clock rate (its delays advance every clock) with ErrStopwatches rather
// than simulate runs in which a stopped clock advances.
func TestStopwatchModelsAreRefused(t *testing.T) {
	net, _ := load(t, "../queries/testdata/semantics/stopwatch-scheduler.yaml", nil)
	if _, err := Run(net, Options{Seed: 1, Runs: 1, Steps: 10, Strategy: Random, PCTDepth: 1}); !errors.Is(err, ErrStopwatches) {
		t.Fatalf("error %v, want ErrStopwatches", err)
	}
}

// TestDeadlineStopsTheHunt: with a deadline, the hunt starts no run at or
// after it (a clock that advances one second per reading, so that three
// runs start before a deadline three seconds on), says so, and the runs it
// made are those of a hunt of that many runs (the same seed, the same
// transitions).
func TestDeadlineStopsTheHunt(t *testing.T) {
	net, _ := load(t, "agreement-m1", nil)
	t0 := time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC)
	readings := 0
	clock := func() time.Time {
		readings++
		return t0.Add(time.Duration(readings-1) * time.Second)
	}
	o := Options{Seed: 7, Runs: 1000, Steps: 200, Strategy: Random, PCTDepth: 1, Deadline: t0.Add(3 * time.Second), Now: clock}
	timed, err := Run(net, o)
	if err != nil {
		t.Fatal(err)
	}
	if !timed.TimedOut || timed.Runs != 3 {
		t.Fatalf("with the deadline: %d runs, timed out %v; want 3 runs, timed out", timed.Runs, timed.TimedOut)
	}
	o.Runs, o.Deadline, o.Now = 3, time.Time{}, nil
	whole, err := Run(net, o)
	if err != nil {
		t.Fatal(err)
	}
	if whole.TimedOut || whole.Runs != 3 || whole.Steps != timed.Steps {
		t.Fatalf("three runs: %d runs, %d transitions, timed out %v; with the deadline %d transitions", whole.Runs, whole.Steps, whole.TimedOut, timed.Steps)
	}
}

// TestBroadcastSamplesMeetTheWindow: a broadcast with more choices of
// receivers than broadcastSample draws each receiver's option among those
// whose clock guard meets the window left by the sender's and the earlier
// options. Eleven to thirty receivers with guards x >= i % 3 on equal
// clocks have 2^11 to 2^30 choices, two of which have a delay: drawn from
// the whole product, every run found no move and ended in its initial
// state, and the deadlock monitor reported a deadlock that the replay
// refuted. Every run now takes the broadcast, and no deadlock is found
// before it.
func TestBroadcastSamplesMeetTheWindow(t *testing.T) {
	for _, n := range []int64{11, 30} {
		net, f := load(t, "../zone/testdata/broadcast-guarded-receivers.yaml", map[string]int64{"N": n})
		res, err := Run(net, Options{Seed: 1, Runs: 20, Steps: 10, PCTDepth: 1, Monitors: monitors(t, net, f, "q", "d")})
		if err != nil {
			t.Fatal(err)
		}
		if res.Error != nil {
			t.Fatalf("N = %d: %v", n, res.Error.Err)
		}
		q, d := res.Monitors[0], res.Monitors[1]
		if q.Verdict() != queries.Satisfied || q.Found.Run != 0 {
			t.Fatalf("N = %d: E<> S.b && R(0).b %v, want reached in the first run", n, q.Verdict())
		}
		if d.Verdict() != queries.Violated || len(d.Found.Trace.Moves) != 2 {
			t.Fatalf("N = %d: A[] not deadlock %v, want violated after the broadcast", n, d.Verdict())
		}
		if err := queries.Replay(net, d.Found.Trace, d.Goal); err != nil {
			t.Fatalf("N = %d: the deadlock does not replay: %v", n, err)
		}
	}
}

// TestMissedMovesAreErrors: a run that ends because the simulator found no
// move to take is replayed against the deadlock predicate, so that a move
// the simulator misses is an error even when no deadlock query is
// monitored. With the blind samples of a broadcast that it once drew (a
// test switch), eleven guarded receivers made every run end at once.
func TestMissedMovesAreErrors(t *testing.T) {
	net, f := load(t, "../zone/testdata/broadcast-guarded-receivers.yaml", map[string]int64{"N": 11})
	blindSamples = true
	defer func() { blindSamples = false }()
	_, err := Run(net, Options{Seed: 1, Runs: 5, Steps: 10, PCTDepth: 1, Monitors: monitors(t, net, f, "q")})
	if err == nil || !strings.Contains(err.Error(), "the simulator found no move to take, but the replay finds one") {
		t.Fatalf("err %v, want the replay to find the move the simulator missed", err)
	}
}

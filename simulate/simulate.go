package simulate

import (
	"errors"
	"fmt"
	"time"

	"github.com/tcheck/tcheck/model"
	"github.com/tcheck/tcheck/model/syntax"
	"github.com/tcheck/tcheck/queries"
	"github.com/tcheck/tcheck/zone"
)

// Strategy chooses the move taken at each step.
type Strategy int

const (
	Random Strategy = iota // uniformly among the moves that can be taken
	PCT                    // probabilistic concurrency testing (Burckhardt et al. 2010)
	// Swarm draws the strategy of each run: random, or PCT of depth 1 to 4
	// (the diversity of swarm verification, Holzmann, Joshi, Groce 2008).
	Swarm
)

func (s Strategy) String() string {
	switch s {
	case PCT:
		return "pct"
	case Swarm:
		return "swarm"
	}
	return "random"
}

// ParseStrategy reads "random" or "pct".
func ParseStrategy(s string) (Strategy, error) {
	switch s {
	case "random":
		return Random, nil
	case "pct":
		return PCT, nil
	case "swarm":
		return Swarm, nil
	}
	return Random, fmt.Errorf("unknown strategy %q (want random, pct or swarm)", s)
}

// Options configures a hunt.
type Options struct {
	Seed      uint64
	Runs      int   // number of runs (≥ 1)
	Steps     int   // transitions per run at most (≥ 1)
	TimeBound int64 // total time per run at most, in model time units (0: none)
	Strategy  Strategy
	// PCTDepth is d, the bug depth PCT targets: d-1 priority change points
	// per run (≥ 1).
	PCTDepth int
	// FirstRun numbers the first run (runs FirstRun .. FirstRun+Runs-1
	// draw from the generator seeded (Seed, run)); shards use it.
	FirstRun int
	// Monitors are the queries watched along the runs: only E<> and A[]
	// queries are monitored (see Monitorable).
	Monitors []*queries.Query
	// Until, when not nil, stops the hunt at the first state where it
	// holds.
	Until *model.Formula
	// Deadline, when not zero, stops the hunt before the first run that
	// would start at or after it (Result.TimedOut): a hunt that has a
	// time budget rather than a number of runs. Runs are checked whole,
	// each bounded by Steps; Now is the clock (time.Now when nil).
	Deadline time.Time
	Now      func() time.Time
}

// Validate checks the options.
func (o *Options) Validate() error {
	switch {
	case o.Runs < 1:
		return fmt.Errorf("--runs must be at least 1, not %d", o.Runs)
	case o.Steps < 1:
		return fmt.Errorf("--steps must be at least 1, not %d", o.Steps)
	case o.TimeBound < 0:
		return fmt.Errorf("--time-bound must not be negative, not %d", o.TimeBound)
	case o.TimeBound > model.MaxClockConst:
		return fmt.Errorf("--time-bound %d is too large (at most %d)", o.TimeBound, model.MaxClockConst)
	case o.PCTDepth < 1:
		return fmt.Errorf("--pct-depth must be at least 1, not %d", o.PCTDepth)
	case o.FirstRun < 0:
		return fmt.Errorf("the first run must not be negative")
	}
	return nil
}

// Monitorable says why q cannot be monitored along runs ("" when it can).
func Monitorable(q *queries.Query) string {
	if q.Err != nil {
		return q.Err.Error()
	}
	switch q.Kind {
	case syntax.QueryEF, syntax.QueryAG:
		return ""
	}
	return fmt.Sprintf("%s queries are not monitored by simulation (only E<> and A[])", q.Kind)
}

// Found is a run that decided something: its trace (replayed), the run
// that produced it, and the goal that holds in its last state.
type Found struct {
	Run   int
	Trace *queries.Trace
	Goal  *model.Formula // nil for a model error
	// Err is the model runtime error met by the run, with the move that
	// raised it (nil for a runtime error in a formula); the trace ends in
	// the state where the move is taken.
	Err      *model.RuntimeError
	FailMove zone.Move
}

// Monitor is the outcome of one monitored query.
type Monitor struct {
	Query *queries.Query
	Goal  *model.Formula // φ for E<> φ, ¬φ for A[] φ
	// Found is the first run reaching the goal (the E<> query satisfied,
	// the A[] query violated); nil when no run did.
	Found *Found
}

// Verdict is what the runs decided: Satisfied for a reached E<>, Violated
// for a violated A[], Unknown otherwise.
func (m *Monitor) Verdict() queries.Verdict {
	if m.Found == nil {
		return queries.Unknown
	}
	if m.Query.Kind == syntax.QueryAG {
		return queries.Violated
	}
	return queries.Satisfied
}

// Matches reports whether the verdict agrees with the query's expectation
// (an undecided query always does).
func (m *Monitor) Matches() bool {
	v := m.Verdict()
	return v == queries.Unknown || !m.Query.Expect.Given || m.Query.Expect.Verdict == v
}

// Result is the outcome of a hunt.
type Result struct {
	Runs  int   // runs tried (started)
	Steps int64 // transitions taken over all runs
	// TimedOut: Options.Deadline stopped the hunt before Options.Runs
	// runs.
	TimedOut bool
	// Monitors holds one entry per monitored query, in order.
	Monitors []*Monitor
	// Until is the run that reached the --until formula (nil if none).
	Until *Found
	// Error is the run that met a model runtime error (nil if none).
	Error *Found
	// ReplayErr is set when a reported trace failed to replay: the
	// simulator and the replay disagree (a bug of one of them).
	ReplayErr error
}

// ErrTooFine is returned when a run would need a finer grid of delays than
// the simulator supports.
var ErrTooFine = errors.New("delays would need a grid finer than 1/2^30")

// ErrStopwatches is returned for a model with stopwatches (clock rates x'
// == e): the simulator's delays advance every clock.
var ErrStopwatches = errors.New("models with stopwatches (clock rates x' == e) are not supported by the simulator (tcheck verify checks them)")

// Run runs the hunt: up to o.Runs runs, stopped by the first violated A[]
// query, the first state satisfying o.Until, the first model error, or when
// every monitor is decided (and no Until is given).
func Run(net *model.Network, o Options) (*Result, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	if net.Stopwatches {
		return nil, ErrStopwatches
	}
	res := &Result{}
	var mons []*monitor
	for _, q := range o.Monitors {
		if why := Monitorable(q); why != "" {
			return nil, fmt.Errorf("query %s: %s", q.Src, why)
		}
		goal := q.Formula
		if q.Kind == syntax.QueryAG {
			goal = &model.Formula{Kind: model.FNot, Args: []*model.Formula{q.Formula}, Src: "!(" + q.Formula.Src + ")"}
		}
		m := &Monitor{Query: q, Goal: goal}
		res.Monitors = append(res.Monitors, m)
		mons = append(mons, newMonitor(m, goal))
	}
	var until *monitor
	if o.Until != nil {
		until = newMonitor(nil, o.Until)
	}
	r := newRunner(net, &o)
	now := o.Now
	if now == nil {
		now = time.Now
	}
	maxLen := 0
	for i := 0; i < o.Runs; i++ {
		if !o.Deadline.IsZero() && !now().Before(o.Deadline) {
			res.TimedOut = true
			break
		}
		run := o.FirstRun + i
		res.Runs++
		// PCT draws its change points among the steps of a run: --steps
		// for the first run, then as many steps as the longest run took.
		pctLen := o.Steps
		if maxLen > 0 {
			pctLen = maxLen
		}
		out := r.run(run, mons, until, pctLen)
		res.Steps += int64(out.steps)
		maxLen = max(maxLen, out.steps)
		stop := false
		for _, f := range out.found {
			if err := queries.Replay(net, f.found.Trace, f.found.Goal); err != nil {
				res.ReplayErr = fmt.Errorf("run %d: the simulation and the replay disagree: %w", run, err)
				return res, nil
			}
			switch {
			case f.mon == nil:
				res.Error = f.found
				stop = true
			case f.mon == until:
				res.Until = f.found
				stop = true
			default:
				if f.mon.pub.Found == nil {
					f.mon.pub.Found = f.found
				}
				f.mon.done = true
				if f.mon.pub.Query.Kind == syntax.QueryAG {
					stop = true
				}
			}
		}
		if out.err != nil {
			return res, out.err
		}
		if stop {
			break
		}
		if until == nil && len(mons) > 0 {
			all := true
			for _, m := range mons {
				all = all && m.pub.Found != nil
			}
			if all {
				break
			}
		}
	}
	return res, nil
}

// monitor is the compiled form of a goal formula watched along runs.
type monitor struct {
	pub      *Monitor // nil for --until
	goal     *model.Formula
	clocks   []*model.ClockConstraint // leaves whose truth changes with time
	deadlock bool
	done     bool // decided in an earlier run (no need to watch it)
}

func newMonitor(pub *Monitor, goal *model.Formula) *monitor {
	m := &monitor{pub: pub, goal: goal, deadlock: goal.Has(model.FDeadlock)}
	var walk func(f *model.Formula)
	walk = func(f *model.Formula) {
		if f.Kind == model.FClock && (f.Clock.I == 0) != (f.Clock.J == 0) {
			m.clocks = append(m.clocks, &f.Clock)
		}
		for _, a := range f.Args {
			walk(a)
		}
	}
	walk(goal)
	return m
}

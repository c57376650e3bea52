package queries

import (
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tcheck/tcheck/dbm"
	"github.com/tcheck/tcheck/model"
	"github.com/tcheck/tcheck/model/syntax"
	"github.com/tcheck/tcheck/zone"
)

// Options configure checking.
type Options struct {
	Order zone.Order
	// Extrapolation is the requested abstraction (default Extra_LU+); it is
	// replaced by Extra_M+ for queries using deadlock and by diagonal
	// splitting when diagonal constraints occur (the result says which).
	Extrapolation zone.ExtraKind
	GlobalBounds  bool // use global instead of per-location clock bounds
	// Limits bound the whole of a Check call: its Timeout counts from the
	// call's start and covers every exploration and trace of it
	// (oneDeadline); MaxStates and MaxMemory bound each exploration.
	Limits   zone.Limits
	NoTrace  bool // skip building traces
	Progress func(q []*Query, s zone.Stats)
	// Now is the clock for time limits (time.Now when nil).
	Now func() time.Time
	// FullZones stores zones as matrices (zone.Options.FullZones).
	FullZones bool
	// AbstractFirst extrapolates successors before the inclusion test
	// (zone.Options.AbstractFirst): TChecker's stored zones.
	AbstractFirst bool
	// DeadlockConstantsFirst puts the clock constants and diagonals of a
	// deadlock query decided on the Extra_LU+ zones into the abstraction
	// from the start, skipping the coarser first try (explore); tests
	// compare both ways.
	DeadlockConstantsFirst bool
	// Hull explores with convex-hull over-approximation (zone.Options.Hull,
	// UPPAAL's -A): much smaller zone graphs where many zones share a
	// discrete part. What the hull finds unreachable is unreachable, so an
	// A[] it finds satisfied (an E<> violated) is decided; a goal state it
	// reaches may be an artefact of the hull and is decided again on exact
	// zones. sup/inf values become bounds (Value.Approx), except where the
	// hull's value still exceeds the clock's extrapolation bound once it
	// is doubled 5 times (hullSupDoublings): the exact exploration answers
	// then.
	// deadlock and the liveness queries ignore it and explore exactly.
	Hull bool
	// Subsumption chooses how a new zone is found covered by a stored one:
	// inclusion (the default) or aLU subsumption (zone.ALU: Herbreteau,
	// Srivathsan, Walukiewicz, LICS 2012), used for E<> and A[] only;
	// sup/inf, deadlock and liveness queries are explored with inclusion.
	Subsumption zone.Subsumption
	// Workers is the number of goroutines exploring the zone graph
	// (zone.SearchWorkers; 0 or 1: the sequential search). Verdicts and
	// sup/inf values do not depend on it; stored-state counts vary a little
	// from run to run with more than one, and a witness need not be a
	// shortest one (use 1 with BFS for shortest traces).
	Workers int
	// Symmetry stores one representative per orbit of the permutations of
	// the model's scalar sets (zone.Options.Symmetry), in the
	// reachability explorations and in the liveness properties' graph (its
	// quotient by the permutations); traces are mapped back to runs of the
	// model.
	Symmetry bool
	// From, when not nil, is the state to check from instead of the
	// initial state (see State); it must pass CheckState. Traces start
	// from it (Trace.Start).
	From *State
	// Within, when positive, bounds the runs explored to those lasting at
	// most Within time units from the start: verdicts speak about that
	// horizon. Check adds a clock that is never reset, with the invariant
	// h ≤ Within in every location (and Within as its extrapolation
	// bound); traces do not show it. deadlock is not decided under it
	// (every state at the horizon would be one): such queries are errors.
	Within int32
	// horizon is the horizon clock that checkWithin adds (0: none), and
	// horizonT its bound: liveness lets a run end where it reaches it.
	horizon  int
	horizonT int32
}

// Value is the answer of a sup or inf query for one expression.
type Value struct {
	Term string
	// None: no reachable state satisfies the condition.
	None bool
	// Inf: the supremum is +∞.
	Inf bool
	// Infimum: the value is an infimum (of an inf query), else a supremum.
	Infimum bool
	// Exceeds: the exact value could not be established; the supremum is
	// larger than Bound (the infimum at least Bound).
	Exceeds bool
	Bound   int64
	// Strict: the value is a supremum not attained (sup) or an infimum
	// not attained (inf).
	Strict bool
	// Approx: the value comes from an over-approximation (Options.Hull):
	// the exact supremum is at most it (the exact infimum at least it).
	Approx bool
}

// String prints the value: "12" (attained), "<12" (sup not attained),
// ">3" (inf not attained), "inf", ">K" (sup unknown beyond K), ">=K" (inf
// unknown beyond K), "none".
func (v Value) String() string {
	if v.Approx && !v.None {
		switch {
		case v.Infimum:
			return fmt.Sprintf(">=%d", v.Bound)
		case v.Inf || v.Exceeds:
			return "<=inf" // the over-approximation bounds nothing
		}
		return fmt.Sprintf("<=%d", v.Bound)
	}
	switch {
	case v.None:
		return "none"
	case v.Inf:
		return "inf"
	case v.Exceeds && v.Infimum:
		return fmt.Sprintf(">=%d", v.Bound)
	case v.Exceeds:
		return fmt.Sprintf(">%d", v.Bound)
	case v.Strict && v.Infimum:
		return fmt.Sprintf(">%d", v.Bound)
	case v.Strict:
		return fmt.Sprintf("<%d", v.Bound)
	}
	return fmt.Sprintf("%d", v.Bound)
}

// Result is the outcome of one query.
type Result struct {
	Query   *Query
	Verdict Verdict
	Values  []Value // sup/inf
	// Trace is the witness (satisfied E<>, sup) or counterexample (violated
	// A[]), concretised and replayed; nil when there is none or it was not
	// requested. TraceErr says why a wanted trace is missing.
	Trace    *Trace
	TraceErr error
	// Goal is the formula the trace's last state satisfies (φ for E<>, ¬φ
	// for A[]), for printing.
	Goal *model.Formula
	// Err is the model runtime error when Verdict is Error; its trace leads
	// to the state whose successor raised it.
	Err           *zone.ModelError
	Stats         zone.Stats
	Reason        zone.StopReason
	Extrapolation string
	// Rounds is the number of explorations (sup over clocks doubles the
	// clock's bound until the answer is below it).
	Rounds int
	// OverApprox names the over-approximation the answer comes from
	// ("stopwatches": the zone graph of a model with clock rates), "" when
	// it is exact (--hull results say so in Extrapolation).
	OverApprox string
	// Disputed is the verdict the engine reached when its witness or
	// counterexample did not replay (or could not be concretised): the
	// verdict is then Error and TraceErr says why (see confirmTraces).
	Disputed Verdict
}

// Matches reports whether the result meets the query's expectation (true
// when there is none).
func (r *Result) Matches() bool {
	e := r.Query.Expect
	if e.MaxStates > 0 && r.Stats.Stored > e.MaxStates {
		return false
	}
	if !e.Given {
		return r.Verdict != Error && r.Verdict != Unknown
	}
	if len(e.Values) > 0 {
		if len(e.Values) != len(r.Values) {
			return false
		}
		for i, v := range r.Values {
			if !e.Values[i].Matches(v, r.Query.Kind == syntax.QuerySup) {
				return false
			}
		}
		return true
	}
	return e.Verdict == r.Verdict
}

// Check answers the queries on sys. Queries that need the same
// abstraction share one exploration: one for those without `deadlock`
// (Extra_LU+ by default), one for those with it (Extra_M+). A sup/inf
// query over a clock whose value exceeds the bound it was explored with is
// explored again on its own with a larger bound (checkSup).
//
// Under Extra_LU+ (the default; not with --hull or stopwatches) an E<> or A[]
// query with `deadlock` first joins the first exploration, with inclusion
// subsumption, as an over-approximation (overDeadlock): its goal is
// evaluated on the stored, abstracted zones, which hold every reachable
// valuation, so a goal found in none of them is unreachable. Only a goal
// (or a model error) found there sends the query to the Extra_M+
// exploration, whose verdict and trace stand. Where the goal is
// unreachable, as for the agreement model's property (7), this saves the
// Extra_M+ exploration, the larger of the two.
func Check(sys *zone.System, qs []*Query, opts Options) []*Result {
	opts.Limits = oneDeadline(opts.Limits, opts.Now)
	if opts.Within > 0 {
		return checkWithin(sys, qs, opts)
	}
	results := make([]*Result, len(qs))
	var plain, dead []*member
	var live liveGraph // the liveness queries' graph, built once
	for i, q := range qs {
		r := &Result{Query: q}
		results[i] = r
		if q.Err != nil {
			r.Verdict, r.TraceErr = Error, q.Err
			continue
		}
		if msg := stopwatchRefusal(sys, q); msg != "" {
			r.Verdict, r.TraceErr = Error, &model.Error{Pos: q.Pos, Msg: msg}
			continue
		}
		m := &member{q: q, res: r}
		switch q.Kind {
		case syntax.QueryEF, syntax.QueryAG:
			m.goal = q.Formula
			if q.Kind == syntax.QueryAG {
				m.goal = &model.Formula{Kind: model.FNot, Args: []*model.Formula{q.Formula}, Src: "!(" + q.Formula.Src + ")"}
			}
			r.Goal = m.goal
		case syntax.QuerySup, syntax.QueryInf:
			m.sup = newSupState(sys, q, initialSupBound(sys))
			m.sup.exact = exactZones(sys, opts)
			r.Goal = m.sup.cond
		default:
			results[i] = checkLiveness(sys, q, opts, &live)
			continue
		}
		f := m.goal
		if m.sup != nil {
			f = m.sup.cond
		}
		switch {
		case !f.Has(model.FDeadlock):
			plain = append(plain, m)
		case m.goal != nil && overDeadlockApplies(sys, opts):
			m.overDead = true
			plain = append(plain, m)
		default:
			dead = append(dead, m)
		}
	}
	for gi := 0; gi < 2; gi++ {
		group := plain
		if gi == 1 {
			group = dead
		}
		if len(group) == 0 {
			continue
		}
		explore(sys, group, opts)
		if gi == 0 {
			// the over-approximated deadlock queries whose goal the
			// abstraction reached are decided exactly
			kept := group[:0:0]
			for _, m := range group {
				switch {
				case !m.overDead:
					kept = append(kept, m)
				case m.needExact:
					m.overDead, m.needExact, m.found = false, false, nil
					m.decided.Store(false)
					m.res.Trace, m.res.TraceErr, m.res.Err = nil, nil, nil
					dead = append(dead, m)
				default:
					m.overDead = false
					m.res.Extrapolation += "; deadlock decided on these stored zones (an over-approximation, exact where no deadlock is reached)"
					if m.coarse {
						m.res.Extrapolation += ", its clock constants left out of the bounds"
					}
				}
			}
			group = kept
		}
		if redo := unconfirmed(group); len(redo) > 0 {
			exact := opts
			exact.Hull = false
			explore(sys, redo, exact)
		}
		for _, m := range group {
			if m.sup != nil && m.res.Verdict == Satisfied {
				approx := m.approx || sys.Net.Stopwatches
				if m.approx && !sys.Net.Stopwatches && m.sup.infReached() {
					// confirmed on exact zones at the same K (infReached)
					exact := opts
					exact.Hull = false
					m.sup.exact = exactZones(sys, exact)
					checkSup(sys, m, exact, m.sup.k)
					continue
				}
				if !approx && m.sup.needsRedo() {
					m.res.Stats.Elapsed += m.sup.detectUnbounded(sys, opts, m.res.Stats.Stored)
				}
				if m.sup.needsRedo() {
					checkSup(sys, m, opts, 2*m.sup.maxBound())
				} else {
					m.sup.finish(sys, m.res, opts, approx)
				}
			}
		}
	}
	if !opts.NoTrace {
		for _, r := range results {
			confirmTraces(r)
		}
	}
	return results
}

// stopwatchRefusal says why q cannot be checked on a model with
// stopwatches ("" when it can): the zone graph of a stopwatch automaton is
// an over-approximation (dbm.UpStopped), which decides reachability one
// way only. The deadlock predicate subtracts the states that can still act,
// computed with the exact past operator, which stopwatches do not have; the
// liveness algorithms (E[], A<>, -->) read the zone graph as exact
// (maximal runs end in deadlocks).
func stopwatchRefusal(sys *zone.System, q *Query) string {
	if !sys.Net.Stopwatches {
		return ""
	}
	switch q.Kind {
	case syntax.QueryEF, syntax.QueryAG, syntax.QuerySup, syntax.QueryInf:
	default:
		return fmt.Sprintf("%s queries are not supported on a model with stopwatches (clock rates x' == e): tcheck's zone graph over-approximates stopwatch automata, which decides E<>, A[] and sup/inf only", q.Kind)
	}
	for _, f := range []*model.Formula{q.Formula, q.Formula2} {
		if f != nil && f.Has(model.FDeadlock) {
			return "deadlock is not supported on a model with stopwatches (clock rates x' == e): deciding it needs the exact past of a zone, which stopwatches do not have"
		}
	}
	return ""
}

// ErrDisputed marks the error of a verdict that the independent replay of
// its trace does not confirm (errors.Is(r.TraceErr, ErrDisputed)).
var ErrDisputed = errors.New("the engine and the replay disagree")

// traceLimitReasons are the limits that can end a trace's building, each
// a search's reason for an Unknown verdict.
var traceLimitReasons = []struct {
	err    error
	reason zone.StopReason
}{{ErrTraceTime, zone.LimitTime}, {ErrTraceMemory, zone.LimitMemory}, {ErrTraceCanceled, zone.Canceled}}

// confirmTraces makes replay a gate on verdicts: a verdict that comes with
// a witness or counterexample (E<> satisfied, A[] violated, a sup/inf value
// with its run, E[]/A<>/--> with a lasso) stands only if that trace was
// concretised and replayed by Replay, whose concrete semantics shares no
// code with the symbolic engine. Otherwise the engine and the replay
// disagree, and neither is to be trusted: the verdict becomes Error, and
// the engine's answer is kept in Disputed for the message.
func confirmTraces(r *Result) {
	if r.TraceErr == nil || r.Verdict == Error || r.Verdict == Unknown {
		return
	}
	for _, limit := range traceLimitReasons {
		if errors.Is(r.TraceErr, limit.err) {
			r.Verdict, r.Reason, r.Trace = Unknown, limit.reason, nil
			return
		}
	}
	r.Disputed = r.Verdict
	r.Verdict = Error
	r.Trace = nil
	if errors.Is(r.TraceErr, ErrNotConcretisable) {
		// nothing reached the replay: the run was not found, which is
		// the engine's side (or a limit of the arithmetic), not a
		// disagreement with the replay
		why, ok := strings.CutPrefix(r.TraceErr.Error(), ErrNotConcretisable.Error())
		if !ok {
			why = ": " + why // wrapped further in: keep the whole message
		}
		r.TraceErr = disputedError{fmt.Sprintf("internal error: the engine answers %s, but no concrete run follows its trace%s, so no replay confirms it", r.Disputed, why), r.TraceErr}
		return
	}
	r.TraceErr = fmt.Errorf("%w: the engine answers %s, but no replayed trace confirms it: %w", ErrDisputed, r.Disputed, r.TraceErr)
}

// disputedError is an ErrDisputed whose message does not say that the
// replay disagrees, for a verdict whose trace never reached the replay.
type disputedError struct {
	msg string
	err error
}

func (e disputedError) Error() string        { return e.msg }
func (e disputedError) Unwrap() error        { return e.err }
func (e disputedError) Is(target error) bool { return target == ErrDisputed }

// unconfirmed returns the members whose goal an over-approximating
// exploration reached, or which it ended with a model error, reset for an
// exact exploration: the architecture's rule that a violation found under
// the convex hull is confirmed by exact search before it is reported. A
// model error (an assignment out of range) may equally come from a
// valuation only the hull reaches.
func unconfirmed(group []*member) []*member {
	var redo []*member
	for _, m := range group {
		if m.approx && (m.found != nil || m.res.Verdict == Error) {
			m.found, m.approx = nil, false
			m.res.Trace, m.res.TraceErr, m.res.Err = nil, nil, nil
			redo = append(redo, m)
		}
	}
	return redo
}

// overDeadlockApplies reports whether a deadlock query may first be
// decided as an over-approximation in the Extra_LU(+) exploration (Check).
func overDeadlockApplies(sys *zone.System, opts Options) bool {
	return opts.Extrapolation == zone.ExtraLUPlus && !opts.Hull && !sys.Net.Stopwatches
}

// clockBounds adds the constants of f's clock constraints to l and u (both:
// a constraint may be checked negated) and collects its diagonals, each of
// which adds net's DiagonalBound to both its clocks.
func clockBounds(f *model.Formula, l, u []int32, diags *[]model.ClockConstraint, net *model.Network) error {
	if f == nil {
		return nil
	}
	if f.Kind == model.FClock {
		c := f.Clock
		if c.Value != nil {
			return fmt.Errorf("%s: the bound of a clock constraint in a query must be a constant", f.Src)
		}
		k := c.Const
		switch {
		case c.J == 0:
			raise(l, u, c.I, k)
		case c.I == 0:
			raise(l, u, c.J, -k)
		default:
			// |k| + the largest reset value: after x_I = v the diagonal
			// compares x_J with v - k
			*diags = append(*diags, c)
			a := net.DiagonalBound(c)
			raise(l, u, c.I, a)
			raise(l, u, c.J, a)
		}
	}
	for _, a := range f.Args {
		if err := clockBounds(a, l, u, diags, net); err != nil {
			return err
		}
	}
	return nil
}

func raise(l, u []int32, x int, k int32) {
	if k < 0 {
		k = 0
	}
	if k > l[x] {
		l[x] = k
	}
	if k > u[x] {
		u[x] = k
	}
}

func noBounds(n int) []int32 {
	b := make([]int32, n)
	for i := range b {
		b[i] = model.NoBound
	}
	return b
}

// extrapolationFor builds the abstraction for formulas fs.
func extrapolationFor(sys *zone.System, fs []*model.Formula, opts Options, deadlock bool) (zone.Extrapolation, error) {
	x := zone.Extrapolation{Kind: opts.Extrapolation, Local: !opts.GlobalBounds}
	x.ExtraL, x.ExtraU = noBounds(sys.Dim), noBounds(sys.Dim)
	x.Diagonals = append(x.Diagonals, sys.Net.Diagonals...)
	for _, f := range fs {
		if err := clockBounds(f, x.ExtraL, x.ExtraU, &x.Diagonals, sys.Net); err != nil {
			return x, err
		}
	}
	if deadlock && (x.Kind == zone.ExtraLU || x.Kind == zone.ExtraLUPlus) {
		// LU abstractions do not preserve deadlocks (STTT 2006, Sect. 6).
		x.Kind = zone.ExtraMPlus
	}
	return x, nil
}

type witness struct {
	moves []zone.Move
}

// pathMoves returns the moves from the initial state to parent, then m:
// a run of the model even when the search stored symmetry representatives
// (zone.System.TraceMoves).
func pathMoves(sys *zone.System, parent zone.Node, m zone.Move) ([]zone.Move, error) {
	return sys.TraceMoves(parent, m)
}

// member is a query taking part in a shared exploration.
type member struct {
	q   *Query
	res *Result
	// E<> and A[]: goal is the formula whose reachability decides (φ for
	// E<>, ¬φ for A[]); found is set when a state satisfies it.
	goal  *model.Formula
	found *witness
	// decided is set with found, for workers to read without the lock.
	decided atomic.Bool
	// sup and inf
	sup *supState
	// approx: the last exploration over-approximated the reachable states
	// (convex hull), so found may be spurious and sup values are bounds.
	approx bool
	// overDead: an E<>/A[] goal with deadlock, decided in this exploration
	// on the stored zones of an LU abstraction (zone.Visit.Stored), an
	// over-approximation; needExact is set when the goal or a model error
	// was met there, and the query is then explored again under Extra_M+.
	overDead, needExact bool
	// coarse: overDead, and its goal's clock constants and diagonals were
	// left out of the last exploration's abstraction (exploreTry).
	coarse bool
}

// explore answers the members with one exploration of the zone graph under
// an abstraction that suits them all: every clock constant of their
// formulas joins the extrapolation bounds, sup/inf clock terms get their
// bound K, and deadlock forces Extra_M+. It stops early once every E<>/A[]
// member is decided, unless a sup/inf member needs the whole graph.
func explore(sys *zone.System, ms []*member, opts Options) zone.Result {
	return exploreTry(sys, ms, opts, !opts.DeadlockConstantsFirst)
}

// exploreTry is explore; with coarse set, a deadlock query decided on the
// Extra_LU+ zones (overDead) first leaves its clock constants and
// diagonals out of the abstraction. They are there for precision only:
// the stored zones contain every reachable valuation whatever the bounds,
// so a goal met in none of them is unreachable, and the exploration is
// that of the other members (property (7) of agreement-scalar, f = 0,
// (9,10,50): 504,345 zones where its constant T - c1 makes 1,901,981).
// Where the goal is met, real or not, the exploration is made again with
// them (coarse unset), as if the first had not been: a coarser
// abstraction meets spurious deadlocks more often (the f = 1 rows of the
// agreement table), and the first exploration is the price of the try.
// The goal is decided on the zones stored when the exploration completes
// (zone.Options.VisitStored), not on every zone expanded, so a try that
// meets it has explored everything first.
func exploreTry(sys *zone.System, ms []*member, opts Options, coarse bool) zone.Result {
	var fs []*model.Formula
	deadlock := false
	open := 0
	var qs []*Query
	var overDead []*model.Formula
	for _, m := range ms {
		qs = append(qs, m.q)
		if m.overDead {
			// its constants join the bounds, its diagonals need not: the
			// abstraction only has to contain every reachable valuation
			overDead = append(overDead, m.goal)
			open++
			continue
		}
		if m.goal != nil {
			fs = append(fs, m.goal)
			open++
			deadlock = deadlock || m.goal.Has(model.FDeadlock)
		} else {
			fs = append(fs, m.sup.cond)
			deadlock = deadlock || m.sup.cond.Has(model.FDeadlock)
		}
	}
	wholeGraph := open < len(ms)
	xp, err := extrapolationFor(sys, fs, opts, deadlock)
	if err == nil {
		l, u := slices.Clone(xp.ExtraL), slices.Clone(xp.ExtraU)
		var diags []model.ClockConstraint
		for _, f := range overDead {
			if err = clockBounds(f, l, u, &diags, sys.Net); err != nil {
				break
			}
		}
		// the stored zones keep their clocks' upper bounds where time
		// cannot pass, which the moves there may need (agreement-scalar,
		// f = 1: a process in the committed location failing after x = 0,
		// bound for update's x <= T)
		xp.NoDelayUpper = len(overDead) > 0
		// the coarse try only where the constants change the abstraction
		coarse = coarse && err == nil && (len(diags) > 0 || !slices.Equal(l, xp.ExtraL) || !slices.Equal(u, xp.ExtraU))
		if !coarse {
			xp.ExtraL, xp.ExtraU = l, u
			// their diagonals are kept exact by splitting (under Extra_M
			// splitting when the other members need it already): the
			// clock differences a deadlock query names, as property (7)
			// of the agreement model does, are what tells its expected
			// deadlocks apart, and an abstraction that blurs them reaches
			// the goal in valuations that no run has
			if len(xp.Diagonals) > 0 {
				xp.Diagonals = append(xp.Diagonals, diags...)
			} else {
				xp.SplitDiagonals = diags
			}
		}
	}
	if err != nil {
		for _, m := range ms {
			m.res.Verdict, m.res.TraceErr = Error, err
		}
		return zone.Result{Reason: zone.Failed}
	}
	for _, m := range ms {
		m.coarse = coarse && m.overDead
		if m.sup != nil {
			m.sup.raiseBounds(xp.ExtraL, xp.ExtraU)
			m.sup.reset()
		}
	}
	// interrupt makes long evaluations of a formula poll the limits.
	var interrupt func() bool
	if opts.Limits.Timeout > 0 || !opts.Limits.Deadline.IsZero() || opts.Limits.Cancel != nil {
		now := opts.Now
		if now == nil {
			now = time.Now
		}
		start := now()
		interrupt = func() bool { return opts.Limits.Expired(now(), start) }
	}
	var checkErr error
	var checkModelErr *zone.ModelError
	var checkErrMoves []zone.Move
	// deadlock is decided exactly: the hull's extra valuations would add
	// deadlocks of their own.
	hull := opts.Hull && !deadlock
	zopts := zone.Options{Order: opts.Order, Extrapolation: xp, Limits: opts.Limits, Now: opts.Now, FullZones: opts.FullZones, AbstractFirst: opts.AbstractFirst, Hull: hull, Workers: opts.Workers, Symmetry: opts.Symmetry, Initial: opts.From.start()}
	if opts.Subsumption == zone.ALU && open == len(ms) && len(overDead) == 0 {
		// aLU subsumption preserves the reachability of locations, data and
		// clock constraints whose constants are in the LU bounds (the query's
		// are); the sup/inf accumulators read every stored zone's bounds and
		// are left to inclusion. zone.Search refuses it for M/M+ (deadlock),
		// the hull and diagonal constraints.
		zopts.Subsumption = zone.ALU
	}
	// E<>, A[] and deadlock goals are decided on the states the passed
	// list keeps (zone.Options.VisitNew: their clock constants are in the
	// bounds, deadlock is under M+); sup/inf accumulators see every
	// successor.
	zopts.VisitNew = !wholeGraph
	// with a sup/inf member, every successor is visited, and the E<>/A[]
	// goals skip those the passed list covers, as under VisitNew
	zopts.MarkCovered = wholeGraph
	// over-approximated deadlock goals are decided on the zones stored at
	// the end, which contain every reachable valuation under inclusion
	zopts.VisitStored = len(overDead) > 0
	if opts.Progress != nil {
		zopts.Progress = func(s zone.Stats) { opts.Progress(qs, s) }
	}
	// Each worker has its own checker and stepper; mu guards what the
	// members share (their witnesses, accumulators and the count of open
	// members) when several workers explore.
	var mu sync.Mutex
	var coarseHit atomic.Bool                  // coarse, and an overDead goal was met
	var failed atomic.Bool                     // checkErr is set
	workerSups := make([][]*supState, len(ms)) // per member, the workers' accumulators
	var undecided atomic.Int64                 // E<>/A[] members without a witness yet
	undecided.Store(int64(open))
	for _, m := range ms {
		m.decided.Store(m.found != nil)
	}
	newVisitor := func() zone.Visitor {
		checker := zone.NewChecker(sys)
		st := zone.NewStepper(sys)
		if interrupt != nil {
			checker.SetInterrupt(interrupt)
			st.SetInterrupt(interrupt)
		}
		// With several workers each has its own sup/inf accumulators,
		// merged after the search: the extreme values do not depend on
		// which worker saw them, and no lock is taken per successor.
		sups := make([]*supState, len(ms))
		for i, m := range ms {
			if m.sup == nil {
				continue
			}
			sups[i] = m.sup
			if opts.Workers > 1 {
				sups[i] = m.sup.forWorker()
				mu.Lock()
				workerSups[i] = append(workerSups[i], sups[i])
				mu.Unlock()
			}
		}
		// fail records the first error that ends the exploration
		fail := func(err error) {
			mu.Lock()
			if checkErr == nil {
				checkErr = err
			}
			failed.Store(true)
			mu.Unlock()
		}
		return func(v *zone.Visit) bool {
			for i, m := range ms {
				if v.Stored != m.overDead {
					continue
				}
				if m.overDead {
					if m.decided.Load() || failed.Load() {
						continue
					}
					ok, err := checker.Sat(m.goal, v.Locs, v.Vars, v.Zone)
					if err != nil && zone.Interrupted(err) {
						fail(err)
						return true
					}
					if (ok || err != nil) && coarse {
						// the coarse try is over (exploreTry)
						coarseHit.Store(true)
						return true
					}
					if ok || err != nil {
						// reached in the abstraction, or a model error on
						// valuations that may be unreachable: decided exactly
						mu.Lock()
						if !m.needExact {
							m.needExact = true
							m.decided.Store(true)
							undecided.Add(-1)
						}
						mu.Unlock()
					}
					continue
				}
				if m.sup != nil {
					if err := sups[i].visit(v, checker, st); err != nil {
						fail(err)
						return true
					}
					continue
				}
				if v.Covered || m.decided.Load() || failed.Load() {
					continue
				}
				ok, err := checker.Sat(m.goal, v.Locs, v.Vars, v.Zone)
				if err != nil {
					// A model error met while deciding the formula (the
					// deadlock predicate runs the updates of the state's
					// moves) is the model's error at this state, with a
					// trace to it like one met by the search.
					var me *zone.ModelError
					var moves []zone.Move
					modelErr := errors.As(err, &me) && !zone.Interrupted(err)
					if modelErr {
						var perr error
						moves, perr = pathMoves(sys, v.Parent, v.Move)
						modelErr = perr == nil
					}
					mu.Lock()
					if checkErr == nil {
						checkErr = err
						if modelErr {
							checkModelErr, checkErrMoves = me, moves
						}
					}
					failed.Store(true)
					mu.Unlock()
					return true
				}
				if ok {
					moves, err := pathMoves(sys, v.Parent, v.Move)
					mu.Lock()
					switch {
					case err != nil:
						if checkErr == nil {
							checkErr = err
						}
						failed.Store(true)
					case m.found == nil:
						m.found = &witness{moves: moves}
						m.decided.Store(true)
						undecided.Add(-1)
					}
					stop := checkErr != nil
					mu.Unlock()
					if stop {
						return true
					}
				}
			}
			return undecided.Load() == 0 && !wholeGraph
		}
	}
	res := zone.SearchWorkers(sys, zopts, newVisitor)
	if coarseHit.Load() {
		for _, m := range ms {
			m.found, m.needExact = nil, false
			m.res.Rounds++
		}
		return exploreTry(sys, ms, opts, false)
	}
	for i, ws := range workerSups {
		for _, w := range ws {
			ms[i].sup.merge(w)
		}
	}
	// With stopwatches every exploration over-approximates: a goal or a
	// model error it reaches stands only if a concrete run to it replays
	// (confirmStopwatch), so its trace is built even when none is wanted.
	stopwatch := sys.Net.Stopwatches
	wantTrace := !opts.NoTrace || stopwatch
	for _, m := range ms {
		r := m.res
		r.Stats, r.Reason, r.Extrapolation = res.Stats, res.Reason, res.Extrapolation
		r.Rounds++
		m.approx = hull
		if stopwatch {
			r.OverApprox = "stopwatches"
		}
		switch {
		case checkErr == nil && m.found != nil && hull:
			r.Verdict = Unknown // until an exact exploration confirms it (unconfirmed)
		case zone.Interrupted(checkErr):
			// a limit stopped the evaluation of the formula itself
			r.Verdict, r.Reason = Unknown, zone.LimitTime
		case checkModelErr != nil:
			r.Verdict, r.Err = Error, checkModelErr
			if wantTrace {
				r.Trace, r.TraceErr = traceToError(sys, opts, checkErrMoves, checkModelErr.Move)
			}
		case checkErr != nil:
			r.Verdict, r.TraceErr = Error, checkErr
		case m.found != nil:
			r.Verdict = Satisfied
			if m.q.Kind == syntax.QueryAG {
				r.Verdict = Violated
			}
			if wantTrace {
				r.Trace, r.TraceErr = withinTraceLimits(opts, func(stop func() bool) (*Trace, error) {
					return buildTrace(sys, opts.From, m.found.moves, m.goal, stop)
				})
			}
		case res.Reason == zone.Failed:
			r.Verdict, r.Err = Error, res.Err
			if wantTrace {
				moves, err := pathMoves(sys, res.ErrNode, nil)
				if err != nil {
					r.TraceErr = err
				} else {
					r.Err, r.Trace, r.TraceErr = traceToFailure(sys, opts, moves, res.Err, zone.Reduces(sys, zopts))
				}
			}
		case m.sup != nil && res.Reason == zone.Completed:
			r.Verdict = Satisfied // the values are set by the caller (supState.finish)
		case m.sup == nil && (res.Reason == zone.Completed || res.Reason == zone.Stopped):
			// explored everything (or stopped once every other member was
			// decided): no state reached the goal
			r.Verdict = Violated
			if m.q.Kind == syntax.QueryAG {
				r.Verdict = Satisfied
			}
		default:
			r.Verdict = Unknown
		}
		if stopwatch && !hull {
			confirmStopwatch(r, m.sup != nil, opts.NoTrace)
		}
	}
	return res
}

// confirmStopwatch applies the rule of stopwatch models to r, the result
// of an over-approximating exploration: a reached goal (E<> satisfied, A[]
// violated) or a model error stands only with a concrete run that
// replays; otherwise the goal or error may exist only in the
// over-approximation and the verdict is Unknown, with TraceErr saying why.
// What the exploration did not reach is unreachable: E<> violated and A[]
// satisfied stand. sup/inf values are bounds (Value.Approx). The trace is
// dropped afterwards when none was asked for.
func confirmStopwatch(r *Result, sup bool, noTrace bool) {
	reached := !sup && (r.Verdict == Satisfied && r.Query.Kind == syntax.QueryEF || r.Verdict == Violated && r.Query.Kind == syntax.QueryAG)
	modelErr := r.Verdict == Error && r.Err != nil
	if (reached || modelErr) && r.Trace == nil {
		what := "the goal"
		if modelErr {
			what = "the model error (" + r.Err.Error() + ")"
		}
		why := "no trace"
		if r.TraceErr != nil {
			// not an internal error here: over-approximate zones need
			// not hold a run
			why = strings.TrimPrefix(r.TraceErr.Error(), "internal error: ")
		}
		r.Verdict, r.Err = Unknown, nil
		r.TraceErr = fmt.Errorf("%w: %s is reached in the stopwatch over-approximation, but no concrete run to it was found (%s)", ErrOverApproximation, what, why)
		return
	}
	if noTrace {
		r.Trace, r.TraceErr = nil, nil
	}
}

// ErrOverApproximation marks the TraceErr of an Unknown verdict on a model
// with stopwatches whose goal (or model error) the over-approximating
// exploration reached without a concrete run confirming it.
var ErrOverApproximation = errors.New("unconfirmed")

// buildTrace recomputes the exact zones along moves from the initial
// state (from, when not nil), picks a final zone where goal holds (any
// valuation if goal is nil), concretises the run and replays it. A trace
// that does not replay is never returned.
//
// stop (nil: never) ends the building with ErrTraceTime.
func buildTrace(sys *zone.System, from *State, moves []zone.Move, goal *model.Formula, stop func() bool) (*Trace, error) {
	return buildTraceTarget(sys, from, moves, goal, nil, stop)
}

// oneDeadline turns l's Timeout into a Deadline that far from now (or
// keeps the earlier Deadline), so that it bounds the whole of a Check:
// every exploration (sup/inf explore again with doubled bounds, deadlock
// queries apart), every liveness check and every trace. A Timeout per
// exploration let `tcheck verify --timeout 3s` run for several times
// that (queries/testdata/limits/timeout-whole-check.yaml).
func oneDeadline(l zone.Limits, now func() time.Time) zone.Limits {
	if l.Timeout <= 0 {
		return l
	}
	if now == nil {
		now = time.Now
	}
	if d := now().Add(l.Timeout); l.Deadline.IsZero() || d.Before(l.Deadline) {
		l.Deadline = d
	}
	l.Timeout = 0
	return l
}

// ErrTraceTime is the TraceErr of a verdict whose trace was not built
// within the time limit (traceLimit): the verdict is then Unknown, not an
// error, since nothing disputes it. The builders return it whenever their
// stop says to stop; traceLimit.explain turns it into ErrTraceMemory or
// ErrTraceCanceled when that limit was the one reached.
var ErrTraceTime = errors.New("the time limit was reached while its trace was built (a longer --timeout gives it)")

// ErrTraceMemory is the TraceErr of a verdict whose trace would have taken
// the heap past Limits.MaxMemory: the verdict is then Unknown. The exact
// zones along a path take two full matrices a step (symbolicPath), which
// for a long run of a model with many clocks is far more than the search
// stored (1,500 steps of 1,500 clocks: 27 GB).
var ErrTraceMemory = errors.New("the memory limit was reached while its trace was built (a larger --max-memory gives it)")

// ErrTraceCanceled is the TraceErr of a verdict whose trace was being
// built when Limits.Cancel was closed: the verdict is then Unknown.
var ErrTraceCanceled = errors.New("interrupted while its trace was built")

// traceLimit bounds the building of one trace as one search is bounded:
// Limits.Timeout from the start of the building, the Deadline,
// cancellation and Limits.MaxMemory. A witness of half a million steps
// takes seconds to concretise in exact rationals, and one of many clocks
// gigabytes. A nil *traceLimit bounds nothing.
type traceLimit struct {
	limits zone.Limits
	now    func() time.Time
	start  time.Time
	reason zone.StopReason // the limit reached, once stop said so
}

// traceHeap measures the heap for Limits.MaxMemory; tests replace it.
var traceHeap = zone.HeapBytes

// newTraceLimit starts the bounds of one trace's building (nil when
// opts sets none).
func newTraceLimit(opts Options) *traceLimit {
	l := opts.Limits
	if l.Timeout == 0 && l.Deadline.IsZero() && l.Cancel == nil && l.MaxMemory == 0 {
		return nil
	}
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	return &traceLimit{limits: l, now: now, start: now()}
}

// stopFunc is the stop that the builders poll (nil: never stop).
func (t *traceLimit) stopFunc() func() bool {
	if t == nil {
		return nil
	}
	return t.stop
}

// stop reports whether a limit is reached, and remembers which. The heap
// is measured as the searches measure it, garbage included; above the
// limit it is collected once before the building gives up, so that what
// an earlier search left unreachable does not end a trace that fits.
func (t *traceLimit) stop() bool {
	if reason, hit := t.limits.ExpiredReason(t.now(), t.start); hit {
		t.reason = reason
		return true
	}
	if m := t.limits.MaxMemory; m > 0 && traceHeap() >= m {
		runtime.GC()
		if traceHeap() >= m {
			t.reason = zone.LimitMemory
			return true
		}
	}
	return false
}

// explain names the limit behind a builder's ErrTraceTime: the builders
// return that error whatever stop stopped them for.
func (t *traceLimit) explain(err error) error {
	if t == nil || !errors.Is(err, ErrTraceTime) {
		return err
	}
	switch t.reason {
	case zone.LimitMemory:
		return ErrTraceMemory
	case zone.Canceled:
		return ErrTraceCanceled
	}
	return err
}

// withinTraceLimits builds a trace with build under the bounds of opts
// (traceLimit), its error naming the limit that ended it.
func withinTraceLimits(opts Options, build func(stop func() bool) (*Trace, error)) (*Trace, error) {
	l := newTraceLimit(opts)
	t, err := build(l.stopFunc())
	return t, l.explain(err)
}

// buildTraceTarget is buildTrace with an optional refinement of the target
// zone (used by sup/inf to reach the extreme value).
func buildTraceTarget(sys *zone.System, from *State, moves []zone.Move, goal *model.Formula, refine func(dbm.DBM) bool, stop func() bool) (*Trace, error) {
	return buildLasso(sys, from, moves, 0, goal, refine, stop)
}

// buildLasso is buildTraceTarget for a run whose last cycle moves form a
// cycle (Trace.Cycle, 0: none), which the replay checks with it.
func buildLasso(sys *zone.System, from *State, moves []zone.Move, cycle int, goal *model.Formula, refine func(dbm.DBM) bool, stop func() bool) (*Trace, error) {
	t, entries, err := symbolicPath(sys, from, moves, stop)
	if err != nil {
		return nil, err
	}
	last := len(t.Zones) - 1
	target := t.Zones[last].Clone()
	if goal != nil {
		var picked dbm.DBM
		checker := zone.NewChecker(sys)
		err := checker.Zones(goal, t.Locs[last], t.Vars[last], t.Zones[last], func(z dbm.DBM) bool {
			c := z.Clone()
			if refine != nil && !refine(c) {
				return true
			}
			picked = c
			return false
		})
		if err != nil {
			return nil, err
		}
		if picked.M == nil {
			return nil, fmt.Errorf("%w (the goal does not hold on the exact final zone)", ErrNotConcretisable)
		}
		target = picked
	} else if refine != nil && !refine(target) {
		return nil, fmt.Errorf("%w (target)", ErrNotConcretisable)
	}
	if stop != nil && stop() {
		return nil, ErrTraceTime
	}
	if from != nil {
		err = concretiseFrom(sys, t, entries, target, from, stop)
	} else {
		err = concretise(sys, t, entries, target, stop)
	}
	if err != nil {
		return nil, err
	}
	t.Cycle = cycle
	if err := replayTrace(sys.Net, t, goal); err != nil {
		return nil, fmt.Errorf("internal error: the trace does not replay: %w", err)
	}
	return t, nil
}

// replayTrace is Replay; tests replace it to prove that a trace that does
// not replay makes the verdict an error.
var replayTrace = Replay

// concreteFailure is the model error me, met by a search that stored
// symmetry representatives, as the run moves (the path to its state,
// mapped to the model's own processes) meets it: me's move and message
// name the representative's processes, which the run's last state holds
// permuted (difftest symmetric seed 113159: a0[2] overflowed in the
// representative, a0[0] in the run, and the failing move's guard read
// another process's clock, so that no concrete run ended where it holds).
// The failing move is the first move of the run's last state whose
// successor raises an error at the same place of the model.
func concreteFailure(sys *zone.System, from *State, moves []zone.Move, me *zone.ModelError, stop func() bool) (*zone.ModelError, error) {
	t, _, err := symbolicPath(sys, from, moves, stop)
	if err != nil {
		return nil, err
	}
	last := len(t.Locs) - 1
	locs, vars, z := t.Locs[last], t.Vars[last], t.Zones[last]
	st := zone.NewStepper(sys)
	dl := make([]int32, sys.NProcs)
	dv := make([]int32, sys.NVars)
	dz := dbm.New(sys.Dim)
	var found *zone.ModelError
	err = st.Moves(locs, vars, z, func(m zone.Move) bool {
		_, perr := st.Post(locs, vars, z, m, dl, dv, dz)
		var ce *zone.ModelError
		if errors.As(perr, &ce) && !zone.Interrupted(perr) && ce.Err.Pos == me.Err.Pos {
			found = ce
			return false
		}
		return true
	})
	if err == nil && found == nil {
		err = fmt.Errorf("%w (no move of the run's last state raises the model error %v)", ErrNotConcretisable, me)
	}
	if err != nil {
		return nil, err
	}
	return found, nil
}

// traceToFailure is traceToError for the model error me that a search met
// after moves (a run of the model); where the search stored symmetry
// representatives (reduced), me is first taken to the run's own processes
// (concreteFailure). It returns the error as the trace meets it, me where
// that could not be done.
func traceToFailure(sys *zone.System, opts Options, moves []zone.Move, me *zone.ModelError, reduced bool) (*zone.ModelError, *Trace, error) {
	if reduced {
		l := newTraceLimit(opts)
		ce, err := concreteFailure(sys, opts.From, moves, me, l.stopFunc())
		if err != nil {
			return me, nil, l.explain(err)
		}
		me = ce
	}
	t, err := traceToError(sys, opts, moves, me.Move)
	return me, t, err
}

// traceToError builds the concrete trace along moves to the state where
// the move failing raises a model error, ending where its clock guard
// holds (errorMoveGuard; failing nil: anywhere in that state's zone).
func traceToError(sys *zone.System, opts Options, moves []zone.Move, failing zone.Move) (*Trace, error) {
	return withinTraceLimits(opts, func(stop func() bool) (*Trace, error) {
		return buildTraceTarget(sys, opts.From, moves, nil, errorMoveGuard(sys, opts.From, moves, failing, stop), stop)
	})
}

// errorMoveGuard returns a refinement of the last zone of the path to the
// valuations where the failing move's clock guard holds, so that the trace
// to a model error ends where the failing move is taken.
func errorMoveGuard(sys *zone.System, from *State, moves []zone.Move, failing zone.Move, stop func() bool) func(dbm.DBM) bool {
	if failing == nil {
		return nil
	}
	t, _, err := symbolicPath(sys, from, moves, stop)
	if err != nil {
		return nil
	}
	last := len(t.Locs) - 1
	dl := make([]int32, sys.NProcs)
	dv := make([]int32, sys.NVars)
	// Effect appends the guard before running the (failing) updates.
	guards, _, _ := zone.NewStepper(sys).Effect(t.Locs[last], t.Vars[last], failing, dl, dv, nil, nil)
	return func(z dbm.DBM) bool {
		for _, g := range guards {
			if !z.Constrain(g.I, g.J, g.B) {
				return false
			}
		}
		return true
	}
}

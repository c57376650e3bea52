package queries

import (
	"fmt"
	"slices"
	"time"

	"github.com/tcheck/tcheck/dbm"
	"github.com/tcheck/tcheck/model"
	"github.com/tcheck/tcheck/model/syntax"
	"github.com/tcheck/tcheck/zone"
)

// maxSupBound caps the doubling of a clock's extrapolation bound.
const maxSupBound = 1 << 20

// supAcc accumulates the extreme value of one term.
type supAcc struct {
	term  model.Term
	sup   bool
	seen  bool
	bound dbm.Bound // clocks: sup as an upper bound (≤c / <c / <∞), inf as a lower bound of -x
	data  int64
	// realInf: a state was seen where the clock grows without bound for
	// real (see checkSup).
	realInf bool
	// lasso, when the second cycle test found realInf, is the run to a
	// cycle and one turn of it, which the run can repeat forever, the
	// clock growing each turn (repeatsWithTime): the witness of inf.
	lasso *Trace
	// parent and move lead to the best state; the path is recovered once
	// at the end (System.PathMoves), not at every improvement.
	parent zone.Node
	move   zone.Move
}

// supState evaluates one sup{φ}: e1, ... / inf{φ}: ... query during an
// exploration: over the reachable states satisfying φ, the extreme value of
// each expression. A clock that guards never compare from the relevant side
// would have its bound erased by extrapolation, so a clock term gets the
// bound K as an extra extrapolation bound (architecture.md, "Queries and
// traces"). An answer ≤ K is exact, because Extra_LU with L(t) = U(t) = K
// only adds valuations that agree with a real one on t or exceed K (the LU
// simulation of Behrmann, Bouyer, Larsen, Pelánek, STTT 2006); when the
// answer exceeds K, checkSup doubles K and explores again. Past
// maxSupBound the result is reported as "> K", never as a wrong number.
type supState struct {
	q             *Query
	cond          *model.Formula
	isSup         bool
	condHasClocks bool
	k             int32
	accs          []*supAcc
	improved      []bool
	sawInf        []bool  // per term: the visit's zone leaves the clock unbounded
	kEff          []int32 // per term: the bound the exploration kept exact (≥ k)
	invBuf        []dbm.Constraint
	// cycleChecked: detectUnbounded has run (its answer does not depend on K).
	cycleChecked bool
	// exact: the exploration's zones are exact (Extra_None, no hull, no
	// stopwatches), so that every bound seen is the true one, K plays no
	// part, and a clock unbounded in a zone is unbounded in a run (see
	// exactZones).
	exact bool
}

// exactZones reports whether the zones of an exploration under opts are
// exact: under Extra_None every zone of the zone graph is the exact set of
// valuations that its path reaches (the symbolic successor is exact, and
// inclusion only keeps a larger such set), so the extreme value of a clock
// over the visited zones is the supremum over the reachable states, with
// no bound K to double and no cycle test: a zone in which the clock has no
// upper bound holds reachable valuations beyond every bound. The convex
// hull and stopwatches (dbm.UpStopped) over-approximate, so they are not.
func exactZones(sys *zone.System, opts Options) bool {
	return opts.Extrapolation == zone.ExtraNone && !opts.Hull && !sys.Net.Stopwatches
}

// initialSupBound is the first K: the largest constant any clock is
// compared with in the model (at least 1).
func initialSupBound(sys *zone.System) int32 {
	k := int32(1)
	for c := 1; c < sys.Dim; c++ {
		k = max(k, sys.Net.GlobalL[c], sys.Net.GlobalU[c])
	}
	return k
}

func newSupState(sys *zone.System, q *Query, k int32) *supState {
	s := &supState{q: q, cond: q.Formula, isSup: q.Kind == syntax.QuerySup, k: k}
	if s.cond == nil {
		s.cond = &model.Formula{Kind: model.FTrue, Src: "true"}
	}
	s.condHasClocks = s.cond.Has(model.FClock)
	s.improved = make([]bool, len(q.Terms))
	s.sawInf = make([]bool, len(q.Terms))
	return s
}

// raiseBounds adds K to the extrapolation bounds of the clock terms, and
// records each term's effective bound: the exploration may give a clock
// more than K (another query of the group compares it with a larger
// constant, as termination's t <= U does), and every answer up to that
// bound is exact.
func (s *supState) raiseBounds(l, u []int32) {
	for _, t := range s.q.Terms {
		if t.Clock > 0 {
			raise(l, u, t.Clock, s.k)
		}
	}
	s.kEff = s.kEff[:0]
	for _, t := range s.q.Terms {
		k := s.k
		if t.Clock > 0 {
			k = max(k, min(l[t.Clock], u[t.Clock]))
		}
		s.kEff = append(s.kEff, k)
	}
}

// reset clears the accumulators before an exploration.
func (s *supState) reset() {
	s.accs = s.accs[:0]
	for _, t := range s.q.Terms {
		s.accs = append(s.accs, &supAcc{term: t, sup: s.isSup})
	}
}

// forWorker returns a copy of s with fresh accumulators, for one worker
// of a parallel exploration (merge folds it back).
func (s *supState) forWorker() *supState {
	w := &supState{q: s.q, cond: s.cond, isSup: s.isSup, condHasClocks: s.condHasClocks, k: s.k, kEff: s.kEff, cycleChecked: s.cycleChecked, exact: s.exact}
	w.improved = make([]bool, len(s.accs))
	w.sawInf = make([]bool, len(s.accs))
	for _, a := range s.accs {
		w.accs = append(w.accs, &supAcc{term: a.term, sup: a.sup})
	}
	return w
}

// merge folds a worker's accumulators into s: for each term the more
// extreme value with its state, and "grows for real" if either saw it.
func (s *supState) merge(w *supState) {
	for i, b := range w.accs {
		a := s.accs[i]
		if !b.seen {
			continue
		}
		// a state where the clock grows for real is the better witness
		better := !a.seen || b.realInf && !a.realInf
		switch {
		case better:
		case a.term.Clock > 0:
			better = b.bound > a.bound // as in update: a weaker bound is more extreme
		case a.sup:
			better = b.data > a.data
		default:
			better = b.data < a.data
		}
		realInf := a.realInf || b.realInf
		lasso := a.lasso
		if lasso == nil {
			lasso = b.lasso
		}
		if better {
			*a = *b
		}
		a.realInf, a.lasso = realInf, lasso
	}
}

// visit folds a visited state into the accumulators.
func (s *supState) visit(v *zone.Visit, checker *zone.Checker, st *zone.Stepper) error {
	clear(s.improved)
	clear(s.sawInf)
	any := false
	var termErr error
	err := checker.Zones(s.cond, v.Locs, v.Vars, v.Zone, func(z dbm.DBM) bool {
		for i, a := range s.accs {
			ok, err := a.update(z, v, checker)
			if err != nil {
				termErr = err
				return false
			}
			if ok {
				s.improved[i] = true
				any = true
			}
			if a.term.Clock > 0 && a.sup && !a.realInf && !s.condHasClocks && z.At(a.term.Clock, 0) == dbm.LTInf {
				s.sawInf[i] = true
				any = true
			}
		}
		return true
	})
	if err == nil {
		err = termErr
	}
	if err != nil || !any {
		return err
	}
	for i, a := range s.accs {
		if !s.improved[i] && !s.sawInf[i] {
			continue
		}
		if s.improved[i] {
			a.witnessAt(v)
		}
		// Every visit where the clock is unbounded is looked at, not only
		// the one that first made it so: which state that is depends on
		// the order, and with two workers a sup under the hull answered
		// <=inf from one run and inf from the next (symmetric seed 92729).
		if s.sawInf[i] {
			// The clock is unbounded here. It is for real when time can
			// pass forever: delay allowed and no invariant bounds a clock
			// from above (every valuation of the zone then delays without
			// limit, and so does the real valuation that simulates it).
			// The invariant first: most states have one, and every visit
			// that leaves the clock unbounded comes here.
			inv, _, err := st.Invariant(v.Locs, v.Vars, s.invBuf[:0])
			s.invBuf = inv
			if err != nil {
				return err
			}
			if slices.ContainsFunc(inv, func(c dbm.Constraint) bool { return c.J == 0 && c.I != 0 }) {
				continue
			}
			delay, err := st.DelayAllowed(v.Locs, v.Vars)
			if err != nil {
				return err
			}
			if delay {
				// the witness: this state, where time passes forever
				a.realInf = true
				a.witnessAt(v)
			}
		}
	}
	return nil
}

// witnessAt makes the visited state v the accumulator's witness: its path
// is recovered at the end (System.PathMoves).
func (a *supAcc) witnessAt(v *zone.Visit) {
	a.parent, a.move = v.Parent, nil
	if v.Move != nil {
		a.move = append(zone.Move(nil), v.Move...)
	}
}

// detectUnbounded looks, once per query, for a clock term whose answer
// exceeds K because the clock grows forever (growsForever), so that it is
// answered inf at once instead of doubling K up to maxSupBound, each round
// storing about K zones. stored sizes the graph it may build. It returns
// the time it took, which counts in the query's time (--stats): on a model
// of four processes whose broadcasts each have a select, it was 210 ms of
// a query whose explorations took 6 ms.
func (s *supState) detectUnbounded(sys *zone.System, opts Options, stored int64) time.Duration {
	if s.cycleChecked || s.condHasClocks || !s.isSup {
		return 0
	}
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	start := now()
	s.cycleChecked = true
	for i, a := range s.accs {
		if a.term.Clock > 0 && a.seen && !a.realInf && a.bound > dbm.LE(s.kEff[i]) {
			if growsForever(sys, s.cond, a.term.Clock, opts, max(4*stored, 100000), &a.lasso) {
				a.realInf = true
			}
		}
	}
	return now().Sub(start)
}

// infReached reports whether a clock term grew for real in the last
// exploration (supAcc.realInf). Under the convex hull that state may be
// one no run reaches, and the answer would be the bound <=inf; it is
// confirmed on exact zones at the same K instead, as a goal the hull
// reaches is: before, whether the hull's exploration met such a
// state first or doubled K and fell back to exact zones depended on the
// order of the visits, and with two workers a sup answered <=inf in one
// run and inf in the next (symmetric seed 92729).
func (s *supState) infReached() bool {
	for _, a := range s.accs {
		if a.term.Clock > 0 && a.realInf {
			return true
		}
	}
	return false
}

// maxBound is the largest effective bound of the last exploration.
func (s *supState) maxBound() int32 {
	k := s.k
	for _, e := range s.kEff {
		k = max(k, e)
	}
	return k
}

// needsRedo reports whether a clock term's answer exceeds K (and K can
// still grow), so that the answer is not known to be exact.
func (s *supState) needsRedo() bool {
	if s.k >= maxSupBound || s.exact {
		return false
	}
	for i, a := range s.accs {
		if a.term.Clock > 0 && a.seen && !a.realInf && a.sup && a.bound > dbm.LE(s.kEff[i]) {
			return true
		}
		if a.infBeyond(s.kEff[i]) {
			return true
		}
	}
	return false
}

// finish sets the values and the witness of a completed exploration.
func (s *supState) finish(sys *zone.System, r *Result, opts Options, approx bool) {
	r.Verdict = Satisfied
	r.Values = nil
	// From the region of a state with fractional clock values (State), a
	// clock's extreme value bounds the one from the state itself.
	region := opts.From != nil && !opts.From.IsPoint()
	for i, a := range s.accs {
		v := a.value(s.kEff[i], s.exact)
		// an unbounded clock is unbounded from every valuation of the
		// region as well: each path of the zone graph built from the
		// region can be followed from each of them (region equivalence
		// is a time-abstract bisimulation), and repeatsWithTime starts
		// at the state's own values
		v.Approx = approx || region && a.term.Clock > 0 && !v.Inf
		r.Values = append(r.Values, v)
	}
	if opts.NoTrace || approx {
		// under the convex hull or with stopwatches the extreme valuation
		// may not be reached by any run: there is no witness to give
		return
	}
	// the witness of the first term that has one
	for i, a := range s.accs {
		if !a.seen || r.Values[i].Approx {
			continue
		}
		if r.Values[i].Inf && a.lasso != nil && replayTrace(sys.Net, a.lasso, s.cond) == nil {
			// a cycle that repeats forever, the clock growing each turn
			r.Trace = a.lasso
			return
		}
		moves, err := pathMoves(sys, a.parent, a.move)
		if err != nil {
			r.TraceErr = err
		} else {
			r.Trace, r.TraceErr = withinTraceLimits(opts, func(stop func() bool) (*Trace, error) {
				return buildTraceTarget(sys, opts.From, moves, s.cond, a.refiner(r.Values[i]), stop)
			})
		}
		if t := r.Trace; t != nil && r.Values[i].Inf && t.Cycle == 0 {
			switch {
			case idlesForever(zone.NewStepper(sys), t.Locs[len(t.Locs)-1], t.Vars[len(t.Vars)-1]):
				t.End = fmt.Sprintf("time can pass in this state forever, and %s grows with it", a.term.Src)
			case s.exact && !a.realInf:
				// the path's zone, exact, has no upper bound on the clock
				t.End = fmt.Sprintf("%s has no upper bound in this state's exact zone (no abstraction): runs along this path reach it with %s beyond every bound", a.term.Src, a.term.Src)
			}
		}
		return
	}
}

// hullSupDoublings bounds the doublings of K under the convex hull within
// checkSup, which starts from twice the first exploration's K (5
// doublings in all): a value still beyond the last K is answered by the
// exact exploration from that K.
// The hull's value is a bound, and where the hull lets the clock grow
// without bound (no run does) each round's hull climbs to K step by step,
// so that doubling K up to maxSupBound took 19 explorations and 4.19 M
// states for a model of 12 (docs/difftest.md, finding 7); a goal the hull
// reaches is confirmed exactly in the same way.
const hullSupDoublings = 4

// checkSup answers a sup/inf member on its own, starting with bound k and
// doubling it until the answer is below it (see supState).
func checkSup(sys *zone.System, m *member, opts Options, k int32) {
	stats := m.res.Stats
	hullLimit := k << hullSupDoublings
	for {
		m.sup.k = k
		res := explore(sys, []*member{m}, opts)
		stats.Explored += res.Explored
		stats.Transitions += res.Transitions
		stats.Elapsed += res.Elapsed
		stats.PeakMemory = max(stats.PeakMemory, res.PeakMemory)
		stats.Stored, stats.Discrete, stats.Covered = res.Stored, res.Discrete, res.Covered
		m.res.Stats = stats
		if m.approx && m.res.Verdict == Error && len(unconfirmed([]*member{m})) > 0 {
			// a model error met under the convex hull may come from a
			// valuation only the hull reaches: confirmed on exact zones
			// at the same K, as Check confirms the first exploration's
			// (difftest seed 1453631, finding 15: from a given state the
			// hull met one at a doubled K, and it was reported)
			opts.Hull = false
			m.sup.exact = exactZones(sys, opts)
			continue
		}
		if m.res.Verdict != Satisfied {
			return
		}
		approx := m.approx || sys.Net.Stopwatches
		if m.approx && !sys.Net.Stopwatches && m.sup.infReached() {
			// infReached: confirmed on exact zones at the same K
			opts.Hull = false
			m.sup.exact = exactZones(sys, opts)
			continue
		}
		if !approx && m.sup.needsRedo() {
			stats.Elapsed += m.sup.detectUnbounded(sys, opts, res.Stored)
			m.res.Stats = stats
		}
		if !m.sup.needsRedo() {
			m.sup.finish(sys, m.res, opts, approx)
			return
		}
		if m.approx && !sys.Net.Stopwatches && k >= hullLimit {
			opts.Hull = false // the same K, on exact zones
			m.sup.exact = exactZones(sys, opts)
			continue
		}
		k = 2 * m.sup.maxBound()
	}
}

// update folds the zone z (of the visited state v, satisfying the
// condition) into the accumulator and reports whether it improved. A data
// term whose evaluation raises a runtime error (an index out of bounds, a
// division by zero, an overflow) is an error of the query: skipping the
// state would give a supremum over fewer states than asked.
func (a *supAcc) update(z dbm.DBM, v *zone.Visit, c *zone.Checker) (bool, error) {
	if a.term.Clock > 0 {
		var b dbm.Bound
		if a.sup {
			b = z.At(a.term.Clock, 0) // x ≤ c
		} else {
			b = z.At(0, a.term.Clock) // -x ≤ c: the infimum is -c
		}
		// In both cases a larger encoded bound is a weaker constraint: a
		// larger supremum, or a smaller (or attained) infimum.
		if !a.seen || b > a.bound {
			a.seen, a.bound = true, b
			return true, nil
		}
		return false, nil
	}
	env := c.Env(v.Locs, v.Vars)
	x := int64(a.term.Data(env))
	if err := env.Err; err != nil {
		env.Err = nil
		return false, fmt.Errorf("the term %s raises an error in a reachable state: %w", a.term.Src, err)
	}
	if !a.seen || (a.sup && x > a.data) || (!a.sup && x < a.data) {
		a.seen, a.data = true, x
		return true, nil
	}
	return false, nil
}

// value is the accumulated answer, exact up to k, or at any size where
// the zones were exact (exactZones).
func (a *supAcc) value(k int32, exact bool) Value {
	v := Value{Term: a.term.Src, Infimum: !a.sup}
	switch {
	case !a.seen:
		v.None = true
	case a.term.Clock == 0:
		v.Bound = a.data
	case a.sup && (a.realInf || exact && a.bound.IsInf()):
		v.Inf = true
	case a.sup && !exact && a.bound > dbm.LE(k):
		v.Exceeds, v.Bound = true, int64(k)
	case a.sup:
		v.Bound, v.Strict = int64(a.bound.Const()), a.bound.Strict()
	case !exact && a.infBeyond(k):
		v.Exceeds, v.Bound = true, int64(k)
	default:
		// lower bound: -x ≺ c, so x ≻ -c
		v.Bound, v.Strict = -int64(a.bound.Const()), a.bound.Strict()
	}
	return v
}

// infBeyond reports whether an infimum reaches the bound K: there
// extrapolation turns a lower bound x ≥ c > K into x > K, so the value is
// not known to be exact (the dual of a supremum above K).
func (a *supAcc) infBeyond(k int32) bool {
	return !a.sup && a.term.Clock > 0 && a.seen && -a.bound.Const() >= k
}

// refiner narrows a witness zone to the extreme value of a clock term.
func (a *supAcc) refiner(v Value) func(dbm.DBM) bool {
	if a.term.Clock == 0 || v.None || v.Inf || v.Exceeds {
		return nil
	}
	x := a.term.Clock
	c := int32(v.Bound)
	return func(z dbm.DBM) bool {
		switch {
		case a.sup && !v.Strict:
			return z.Constrain(0, x, dbm.LE(-c)) // x ≥ c (and x ≤ c holds)
		case a.sup:
			return z.Constrain(0, x, dbm.LT(-(c - 1))) // c-1 < x < c
		case !v.Strict:
			return z.Constrain(x, 0, dbm.LE(c)) // x ≤ c
		default:
			return z.Constrain(x, 0, dbm.LT(c+1))
		}
	}
}

// idlesForever reports whether time can pass forever in the discrete
// state (locs, vars): delay is allowed and no invariant bounds a clock
// above.
func idlesForever(st *zone.Stepper, locs, vars []int32) bool {
	inv, _, err := st.Invariant(locs, vars, nil)
	return err == nil && idlesUnder(st, locs, vars, inv)
}

// idlesUnder is idlesForever for a discrete state whose invariant is inv.
func idlesUnder(st *zone.Stepper, locs, vars []int32, inv []dbm.Constraint) bool {
	delay, err := st.DelayAllowed(locs, vars)
	return err == nil && delay && !capsAClock(inv)
}

// capsAClock reports whether the invariant inv bounds a clock above, so
// that time cannot pass forever under it.
func capsAClock(inv []dbm.Constraint) bool {
	return slices.ContainsFunc(inv, func(c dbm.Constraint) bool { return c.I != 0 })
}

package queries

import (
	"fmt"
	"math"
	"math/big"

	"github.com/tcheck/tcheck/dbm"
	"github.com/tcheck/tcheck/model"
	"github.com/tcheck/tcheck/zone"
)

// concretiseByTimes gives the symbolic path t a concrete run by solving
// for all its times at once, where the step-by-step choice of concretise
// and concretiseFrom can fail: choosing each delay greedily, with no look
// ahead, may leave the next steps only half the room, and a chain of n
// steps that each need time inside one window then ends on a grid of
// 1/2^n (testdata/difftest/trace-halving-chain.yaml: 100 steps, a common
// denominator of 2^99 where the replay allows 2^30).
//
// Without stopwatches, a run along t is fixed by the times T_0 = 0 ≤ T_1
// ≤ ... ≤ T_n at which it enters its states (T_n: the time of the final
// valuation): a clock x in state i has the value T − T_r + v, where r is
// the last step up to i that reset x (to v; step 0 and the start's value
// when none did). Every constraint of the path — entry zones, zones and
// guards at the move, the target — is then a difference constraint
// between two of the times: x_a − x_b ≺ c at time T reads
// T_{r_b} − T_{r_a} ≺ c − v_a + v_b. On the grid of multiples of 1/q the
// system becomes one of integer difference constraints (a strict c
// becomes q·c − 1), which has a solution iff its constraint graph has no
// negative cycle; the rational system has a solution iff the grid system
// has one for q ≥ n+1 (a simple cycle, over at most n+1 times, loses at
// most one unit per strict edge, and its integer weight is at least 1
// when one of its edges is strict). The least solution, each time as
// early as it can be, is found by Bellman–Ford (Cormen et al.,
// Introduction to Algorithms, §24.4, "Difference constraints and shortest
// paths"), trying q = L, 2L, 4L, ... (L: the common denominator of the
// start's values) and keeping the first q that has one, so the run keeps
// the coarsest grid it can.
//
// start gives the clock values at T_0 (a live state, concretiseFrom); nil
// means every clock starts at 0. It answers ErrNotConcretisable when a
// state stops a clock (the times no longer fix the values) or the path
// has no run.
func concretiseByTimes(sys *zone.System, t *Trace, entries []dbm.DBM, target dbm.DBM, start []*big.Rat, stop func() bool) error {
	// units: the common denominator L of the start values, so that every
	// constant of the system is a whole number of 1/L.
	units := denominatorLCM(start)
	if !units.IsInt64() || units.Int64() > 1<<20 {
		return fmt.Errorf("%w (the start's denominator %s is too large)", ErrNotConcretisable, units)
	}
	pt, err := newPathTimes(sys, t, entries, target, start, units.Int64(), stop)
	if err != nil {
		return err
	}
	times, q, err := pt.cs.solve(len(t.Moves)+1, pt.L, stop)
	if err != nil {
		return err
	}
	return pt.setRun(t, entries, target, times, q)
}

// pathTimes is the system of difference constraints over the times of a
// run along a symbolic path (see concretiseByTimes), with what it takes
// to turn a solution into the run.
type pathTimes struct {
	cs timeSystem
	L  int64 // constants are whole numbers of 1/L
	// origins[i][x], offsets[i][x]: in state i (the final valuation is
	// in the last state), clock x > 0 is T − T_origins[i][x] +
	// offsets[i][x]/L
	origins [][]int
	offsets [][]int64
}

// newPathTimes builds the constraints of a run along the path t (entry
// zones entries) that ends in target, starting from the clock values
// start (nil: all 0), in units of 1/L (L a multiple of the start values'
// denominators).
func newPathTimes(sys *zone.System, t *Trace, entries []dbm.DBM, target dbm.DBM, start []*big.Rat, L int64, stop func() bool) (*pathTimes, error) {
	st := zone.NewStepper(sys)
	n := len(t.Moves)
	dim := sys.Dim
	// origin[x], offset[x]: x = T − T_origin[x] + offset[x]/L in the
	// current state; the reference clock's origin is the time itself.
	origin := make([]int, dim) // origin[0] is unused
	offset := make([]int64, dim)
	for x := 1; x < dim; x++ {
		if start != nil {
			v := new(big.Rat).Mul(start[x], new(big.Rat).SetInt64(L))
			if !v.IsInt() || !v.Num().IsInt64() || abs64(v.Num().Int64()) > 1<<40 {
				return nil, fmt.Errorf("%w (a start value is too large)", ErrNotConcretisable)
			}
			offset[x] = v.Num().Int64()
		}
	}
	pt := &pathTimes{L: L, origins: make([][]int, n), offsets: make([][]int64, n)}
	cs := &pt.cs
	cs.cons = make([]timeConstraint, 0, n*(2*dim*dim+2))
	// zoneAt adds the constraints of z on the valuation at the time tv.
	zoneAt := func(z dbm.DBM, tv int) {
		for a := 0; a < dim; a++ {
			for b := 0; b < dim; b++ {
				bd := z.At(a, b)
				if a == b || bd == dbm.LTInf {
					continue
				}
				cs.add(tv, origin, offset, L, a, b, int64(bd.Const()), bd.Strict())
			}
		}
	}
	dl := make([]int32, sys.NProcs)
	dv := make([]int32, sys.NVars)
	var guards []dbm.Constraint
	var resets []model.Reset
	for i := 0; i < n; i++ {
		if stop != nil && i&255 == 0 && stop() {
			return nil, ErrTraceTime
		}
		_, stopped, err := st.Stopped(t.Locs[i], t.Vars[i])
		if err != nil {
			return nil, err
		}
		if stopped {
			return nil, fmt.Errorf("%w (state %d stops a clock)", ErrNotConcretisable, i)
		}
		pt.origins[i] = append([]int(nil), origin...)
		pt.offsets[i] = append([]int64(nil), offset...)
		zoneAt(entries[i], i)
		// the move out of state i, or the final valuation, at T_{i+1}
		cs.order(i, i+1, 0, false) // T_i − T_{i+1} ≤ 0
		delay, err := st.DelayAllowed(t.Locs[i], t.Vars[i])
		if err != nil {
			return nil, err
		}
		if !delay {
			// a committed or urgent location, or an urgent
			// synchronisation: time cannot pass in state i. (Where the
			// zone merely equals the entry zone, time can pass inside
			// it: x < 1 entered at x ∈ [0, 1); repeatsWithTime needs
			// that delay.)
			cs.order(i+1, i, 0, false)
		}
		if i == n-1 {
			zoneAt(target, n)
			break
		}
		zoneAt(t.Zones[i], i+1)
		guards, resets, err = st.Effect(t.Locs[i], t.Vars[i], t.Moves[i+1], dl, dv, guards[:0], resets[:0])
		if err != nil {
			return nil, err
		}
		for _, g := range guards {
			cs.add(i+1, origin, offset, L, g.I, g.J, int64(g.B.Const()), g.B.Strict())
		}
		for _, r := range resets {
			origin[r.Clock], offset[r.Clock] = i+1, int64(r.Value)*L
		}
	}
	if cs.bad {
		return nil, fmt.Errorf("%w (a constraint of the path fails at every time)", ErrNotConcretisable)
	}
	return pt, nil
}

// value is clock x's value in state i at the time tv, in units of 1/q,
// given the solution times (units of 1/q).
func (pt *pathTimes) value(times []int64, q int64, i, tv, x int) int64 {
	if x == 0 {
		return 0
	}
	return times[tv] - times[pt.origins[i][x]] + pt.offsets[i][x]*(q/pt.L)
}

// setRun stores in t the run of the solution times (units of 1/q),
// checked against every entry zone and the target.
func (pt *pathTimes) setRun(t *Trace, entries []dbm.DBM, target dbm.DBM, times []int64, q int64) error {
	n := len(t.Moves)
	dim := len(pt.origins[0])
	t.Clocks = make([][]int64, n)
	t.Delays = make([]int64, n)
	for i := 0; i < n; i++ {
		t.Clocks[i] = make([]int64, dim)
		for x := range t.Clocks[i] {
			t.Clocks[i][x] = pt.value(times, q, i, i, x)
		}
		if !gridContains(entries[i], t.Clocks[i], q) {
			return fmt.Errorf("internal error: the solved run leaves the entry zone of state %d", i)
		}
		if i+1 < n {
			t.Delays[i+1] = times[i+1] - times[i]
		}
	}
	t.FinalDelay = times[n] - times[n-1]
	t.Final = make([]int64, dim)
	for x := range t.Final {
		t.Final[x] = pt.value(times, q, n-1, n, x)
	}
	if !gridContains(target, t.Final, q) {
		return fmt.Errorf("internal error: the solved run ends outside the target")
	}
	t.Den = q
	return t.reduceDen()
}

// gridContains reports whether the valuation p, in units of 1/q, meets
// every constraint of d.
func gridContains(d dbm.DBM, p []int64, q int64) bool {
	for i := 0; i < d.Dim; i++ {
		for j := 0; j < d.Dim; j++ {
			b := d.At(i, j)
			if i == j || b == dbm.LTInf {
				continue
			}
			diff, c := p[i]-p[j], int64(b.Const())*q
			if diff > c || diff == c && b.Strict() {
				return false
			}
		}
	}
	return true
}

// reduceDen divides the run's values and t.Den by their greatest common
// divisor, so that t.Den is the least common denominator, and checks the
// bounds that setConcrete checks.
func (t *Trace) reduceDen() error {
	g := t.Den
	gcd := func(v int64) {
		for v != 0 {
			g, v = v, g%v
		}
	}
	each := func(f func(*int64)) {
		for i := range t.Clocks {
			for x := range t.Clocks[i] {
				f(&t.Clocks[i][x])
			}
			f(&t.Delays[i])
		}
		f(&t.FinalDelay)
		for x := range t.Final {
			f(&t.Final[x])
		}
	}
	each(func(v *int64) { gcd(*v) })
	var bad bool
	each(func(v *int64) {
		*v /= g
		if *v < 0 || *v > math.MaxInt64/4 {
			bad = true
		}
	})
	t.Den /= g
	if t.Den > maxDen {
		return fmt.Errorf("%w (the common denominator %d is too large)", ErrNotConcretisable, t.Den)
	}
	if bad {
		return fmt.Errorf("%w (a scaled clock value overflows 64 bits)", ErrNotConcretisable)
	}
	return nil
}

// timeSystem is a system of difference constraints T_p − T_q ≤ c/L − s/q
// over the times of a run: c is in units of 1/L, and s is 1 for a strict
// bound (one grid step below c on the grid 1/q).
type timeSystem struct {
	cons []timeConstraint
	bad  bool // a constraint between a time and itself fails
	max  int64
	// cycle, after solve found no solution, holds the indices in cons of
	// a cycle of constraints that raised its times without end on the
	// finest grid tried (nil: none was found), which shows why: the
	// cycle's weight is negative (repeatsWithTime reads from it which
	// way to move a period)
	cycle []int32
}

type timeConstraint struct {
	p, q   int32
	c      int64 // in units of 1/L
	strict bool
}

// add adds x_a − x_b ≺ c (c whole) at the time tv, where x = T_tv −
// T_origin[x] + offset[x]/L (the reference clock's origin is tv).
func (s *timeSystem) add(tv int, origin []int, offset []int64, L int64, a, b int, c int64, strict bool) {
	ra, rb := tv, tv
	var va, vb int64
	if a != 0 {
		ra, va = origin[a], offset[a]
	}
	if b != 0 {
		rb, vb = origin[b], offset[b]
	}
	// T_rb − T_ra ≺ c − v_a + v_b
	k := c*L - va + vb
	if rb == ra {
		if k < 0 || k == 0 && strict {
			s.bad = true
		}
		return
	}
	s.cons = append(s.cons, timeConstraint{p: int32(rb), q: int32(ra), c: k, strict: strict})
	if m := abs64(k); m > s.max {
		s.max = m
	}
}

// order adds T_p − T_q ≤ c (c in units of 1/L) between two times.
func (s *timeSystem) order(p, q int, c int64, strict bool) {
	s.cons = append(s.cons, timeConstraint{p: int32(p), q: int32(q), c: c, strict: strict})
	if m := abs64(c); m > s.max {
		s.max = m
	}
}

// solve returns the least solution over n times with T_0 = 0, as
// multiples of 1/q, for the least q = L·2^k that has one.
func (s *timeSystem) solve(n int, L int64, stop func() bool) ([]int64, int64, error) {
	s.cycle = nil
	times := make([]int64, n)
	for m := int64(1); ; m *= 2 {
		// values stay below n·max·m in a feasible system: keep that far
		// from overflowing
		if s.max > 0 && m > math.MaxInt64/8/int64(n)/s.max {
			break
		}
		ok, err := s.leastOnGrid(times, m, stop)
		if err != nil {
			return nil, 0, err
		}
		if ok {
			return times, L * m, nil
		}
		if m >= int64(n) {
			break
		}
	}
	return nil, 0, fmt.Errorf("%w (no run meets the path's constraints)", ErrNotConcretisable)
}

// leastOnGrid sets times to the least solution with every time ≥ 0 of the
// system on the grid 1/(L·m) (constants c·m, strict ones c·m − 1), or
// reports false when there is none. T_p − T_q ≤ w raises T_q to at least
// T_p − w; passes over the constraints alternate direction, so that the
// chain of a path converges in a few of them. A system with no solution
// has a cycle of constraints that raises itself without end; a change in
// pass n+1 shows one (Bellman–Ford), and so, mostly much sooner, does a
// cycle among the constraints that last raised each time (the parent
// graph: a cycle there raises itself; Cherkassky and Goldberg,
// "Negative-cycle detection algorithms", Math. Programming 85, 1999).
// Where it finds such a cycle it keeps its constraints in s.cycle.
func (s *timeSystem) leastOnGrid(times []int64, m int64, stop func() bool) (bool, error) {
	for i := range times {
		times[i] = 0
	}
	n := len(times)
	parent := make([]int32, n)
	// by: the constraint that last raised each time
	by := make([]int32, n)
	for i := range parent {
		parent[i] = -1
	}
	limit := int64(n) * (s.max + 1) * m
	for round := 0; round <= n; round++ {
		if stop != nil && round&15 == 15 && stop() {
			return false, ErrTraceTime
		}
		changed := false
		relax := func(k int) {
			c := s.cons[k]
			w := c.c * m
			if c.strict {
				w--
			}
			if v := times[c.p] - w; v > times[c.q] {
				times[c.q] = v
				parent[c.q], by[c.q] = c.p, int32(k)
				changed = true
			}
		}
		if round%2 == 0 {
			for k := range s.cons {
				relax(k)
			}
		} else {
			for k := len(s.cons) - 1; k >= 0; k-- {
				relax(k)
			}
		}
		if !changed {
			// the least solution has T_0 = 0: the times never fall
			// below it (T_0 ≤ T_1 ≤ ...), so a raised T_0 could be
			// lowered with all the others
			if times[0] != 0 {
				return false, fmt.Errorf("internal error: the least run starts at %d", times[0])
			}
			return true, nil
		}
		for q, v := range times {
			if v > limit {
				// T_q ≤ T_parent − w holds all along (a parent raised
				// since only widens it), so a chain of parents from q
				// to a time never raised (0) bounds T_q by limit: the
				// chain from q has a cycle
				s.cycle = cycleThrough(parent, by, int32(q))
				return false, nil
			}
		}
		if u, ok := parentCycle(parent); ok {
			s.cycle = cycleThrough(parent, by, u)
			return false, nil
		}
	}
	return false, nil
}

// parentCycle reports whether the graph v → parent[v] (−1: none) has a
// cycle, and a node on it.
func parentCycle(parent []int32) (int32, bool) {
	n := int32(len(parent))
	done := make([]bool, n)
	mark := make([]int32, n) // the walk (from v: v+1) that last visited a node
	for v := int32(0); v < n; v++ {
		u := v
		for u >= 0 && !done[u] {
			if mark[u] == v+1 {
				return u, true
			}
			mark[u] = v + 1
			u = parent[u]
		}
		for u = v; u >= 0 && !done[u]; u = parent[u] {
			done[u] = true
		}
	}
	return -1, false
}

// cycleThrough returns the constraints (by) of the cycle that the chain
// of parents from u runs into (nil: the chain ends).
func cycleThrough(parent, by []int32, u int32) []int32 {
	for range parent {
		if u = parent[u]; u < 0 {
			return nil
		}
	}
	// u is on the cycle now: the chain has taken more steps than there
	// are times
	var cycle []int32
	for v := u; ; {
		cycle = append(cycle, by[v])
		if v = parent[v]; v == u {
			return cycle
		}
	}
}

func abs64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

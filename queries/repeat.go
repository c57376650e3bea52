package queries

import (
	"errors"
	"math"
	"math/big"
	"slices"

	"github.com/tcheck/tcheck/dbm"
	"github.com/tcheck/tcheck/zone"
)

// upTo returns the run t up to its state last (its final valuation that
// state's entry valuation, no final delay), with its last cycle moves
// marked as a cycle the run can repeat forever.
func (t *Trace) upTo(last, cycle int) *Trace {
	u := *t
	u.Moves = t.Moves[:last+1]
	u.Locs = t.Locs[:last+1]
	u.Vars = t.Vars[:last+1]
	u.Zones = t.Zones[:last+1]
	u.Delays = t.Delays[:last+1]
	u.Clocks = t.Clocks[:last+1]
	u.FinalDelay = 0
	u.Final = slices.Clone(t.Clocks[last])
	u.Cycle = cycle
	return &u
}

// lcm64 is the least common multiple of two positive numbers.
func lcm64(a, b int64) int64 {
	g, h := a, b
	for h != 0 {
		g, h = h, g%h
	}
	return a / g * b
}

// repeatsWithTime reports whether a run can let time pass forever without
// resetting the clocks that it lets grow, and then take the path exit: a
// sufficient condition for a clock that neither w nor exit resets to
// take arbitrarily large values in exit's last state. The run follows
// prefix (from the initial state, or from the state from: its valuation
// itself, which can follow every path of the zone graph built from its
// region, as concretiseFrom argues), then turns the cycle w (back to the
// same symbolic state) forever, each turn lasting the same time P > 0, or,
// when w is empty, waits in prefix's last state, where time can pass
// forever; and after any number of turns, or any delay, it can take exit.
//
// Such a run exists when (1) every clock that w does not reset (every
// clock, when w is empty) is bounded only from below on w (no guard,
// negated guard or invariant of w bounds it above, alone or against
// another clock; with w empty, the state's invariant bounds no clock
// above) and on exit until exit resets it (invariants of exit's states
// included, its last state's too), and (2) a run along prefix, w, w, exit
// turns w twice with the same delays, each turn taking P (with w empty: a
// run along prefix, exit). The clocks w resets then enter the second
// turn with the values that the delays after their last reset in the
// first turn give them, so they enter the third with the same values (the
// second turn's delays are the same), and every further turn repeats the
// second on them, at every step; the other clocks only grow, which only
// lower bounds constrain: by induction, each turn is a run, and so is exit
// after any number of turns (after any longer delay, with w empty). (2)
// is a system of difference constraints over the run's times for each P
// (pathTimes, with T_{e+j} − T_{s+j} = P for the j-th state of the turns
// entered at s and e), tried for P = 1, 2, 4, ..., 2^20 and 1/2, 1/4, ...,
// 1/64, then bisected on the grid 1/L between the largest P too short and
// the smallest too long, where those bracket one (the periods with a
// solution form an interval; each refutation's cycle of constraints says
// which side it lies on). The run found is replayed by Replay before it
// counts. The condition is not necessary (another cycle, prefix, exit or
// period may do), so nil (no run found) only keeps the caller's bound
// doubling, as does stop (the check's deadline). It returns the run
// found, replayed.
func repeatsWithTime(sys *zone.System, from *State, prefix, w, exit []zone.Move, stop func() bool) *Trace {
	path := make([]zone.Move, 0, len(prefix)+2*len(w)+len(exit))
	path = append(append(append(append(path, prefix...), w...), w...), exit...)
	t, entries, err := symbolicPath(sys, from, path, stop)
	if err != nil {
		return nil
	}
	k := len(w)
	s := len(prefix) // the state entering the first turn
	e := s + k       // the state entering the second
	f := e + k       // the state exit starts from
	n := len(t.Moves)
	st := zone.NewStepper(sys)
	dl := make([]int32, sys.NProcs)
	dv := make([]int32, sys.NVars)
	// (1): the clocks w resets, and no upper bound on the others on w
	// and on exit until exit resets them. A bound on the difference of
	// two clocks that neither w nor exit so far resets is no such bound:
	// both grow alike with every wait and turn, so their difference is
	// that of the run solved in (2), after any longer wait or more turns
	// (difftest seed 784296: the way on from a waiting state takes a
	// guard x0 - z2 < 3 on two clocks that only grow)
	reset := make([]bool, sys.Dim)
	bounded := func(cs []dbm.Constraint) bool {
		return slices.ContainsFunc(cs, func(c dbm.Constraint) bool {
			return c.I != 0 && !reset[c.I] && (c.J == 0 || reset[c.J])
		})
	}
	invariant := func(i int) ([]dbm.Constraint, bool) {
		inv, _, err := st.Invariant(t.Locs[i], t.Vars[i], nil)
		return inv, err == nil
	}
	var onW []dbm.Constraint
	for j := 0; j < k; j++ {
		guards, resets, err := st.Effect(t.Locs[s+j], t.Vars[s+j], t.Moves[s+j+1], dl, dv, nil, nil)
		if err != nil {
			return nil
		}
		for _, r := range resets {
			reset[r.Clock] = true
		}
		inv, ok := invariant(s + j)
		if !ok {
			return nil
		}
		onW = append(append(onW, guards...), inv...)
	}
	if k == 0 && !idlesForever(st, t.Locs[s], t.Vars[s]) {
		// time must pass forever in state s itself (not "the zone
		// differs from the entry zone": x < 1 entered at x in [0, 1)
		// lets time pass with both equal)
		return nil
	}
	if bounded(onW) {
		return nil
	}
	for i := f; i < n; i++ {
		inv, ok := invariant(i)
		if !ok || bounded(inv) {
			return nil
		}
		if i == n-1 {
			break
		}
		guards, resets, err := st.Effect(t.Locs[i], t.Vars[i], t.Moves[i+1], dl, dv, nil, nil)
		if err != nil || bounded(guards) {
			return nil
		}
		for _, r := range resets {
			reset[r.Clock] = true
		}
	}
	// (2), for each P in units of 1/64 (and of the start's denominators)
	L := int64(64)
	var start []*big.Rat
	if from != nil {
		start = from.Clocks
		for _, v := range start {
			d := v.Denom()
			if !d.IsInt64() || d.Int64() > 1<<10 {
				return nil
			}
			L = lcm64(L, d.Int64())
		}
		if L > 1<<20 {
			return nil
		}
	}
	pt, err := newPathTimes(sys, t, entries, t.Zones[n-1], start, L, stop)
	if err != nil {
		return nil
	}
	base := len(pt.cs.cons)
	var periods []int64
	for p := L; p <= L<<20 && p <= math.MaxInt32; p *= 2 {
		periods = append(periods, p)
	}
	for p := L / 2; p >= L/64; p /= 2 {
		periods = append(periods, p)
	}
	// perP: the coefficient of P in each constraint past base
	var perP []int64
	equal := func(a, b int, c int64) { // T_a − T_b = c
		pt.cs.order(a, b, c, false)
		pt.cs.order(b, a, -c, false)
		perP = append(perP, 1, -1)
	}
	// attempt solves (2) for the period p: the run, replayed, or nil and
	// which way p must move for a solution, read off the cycle of
	// constraints that refuted it: its weight is W + a·p, so a > 0 says
	// that every period with a solution is larger (1), a < 0 smaller
	// (-1); 0: no direction (no cycle, a cycle without P, a solution
	// that does not replay). stopped: the deadline passed.
	attempt := func(p int64) (run *Trace, dir int, stopped bool) {
		pt.cs.cons, perP = pt.cs.cons[:base], perP[:0]
		if k == 0 {
			pt.cs.order(s, s+1, -p, false) // a delay of P or more in state s
			perP = append(perP, -1)
		}
		for j := 0; k > 0 && j <= k; j++ {
			equal(e+j, s+j, p) // the same delays, each turn P
		}
		times, q, err := pt.cs.solve(n+1, L, stop)
		if errors.Is(err, ErrTraceTime) {
			return nil, 0, true
		}
		if err != nil {
			var a int64
			for _, c := range pt.cs.cycle {
				if int(c) >= base {
					a += perP[int(c)-base]
				}
			}
			return nil, int(max(-1, min(a, 1))), false
		}
		r := *t
		if pt.setRun(&r, entries, t.Zones[n-1], times, q) != nil || replayTrace(sys.Net, &r, nil) != nil {
			return nil, 0, false
		}
		return &r, 0, false
	}
	// The periods with a solution form an interval (the solutions of
	// (2) with P free are a convex set), which may fall between two
	// powers of 2: a loop that resets x0 to 2 under an invariant x0 < 4
	// and a guard x0 > 3 turns in P ∈ (1, 2) only (difftest seed
	// 551653, testdata/sup/sup-period-between-powers.yaml). Where the
	// powers tried bracket it (the largest too small below the smallest
	// too large), it is bisected on the grid 1/L.
	lo, hi := int64(0), int64(math.MaxInt64) // too small, too large
	for _, p := range periods {
		run, dir, stopped := attempt(p)
		if run != nil || stopped {
			return run
		}
		switch {
		case dir > 0:
			lo = max(lo, p)
		case dir < 0:
			hi = min(hi, p)
		}
	}
	if lo == 0 || hi == math.MaxInt64 {
		return nil
	}
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		run, dir, stopped := attempt(mid)
		if run != nil || stopped {
			return run
		}
		switch {
		case dir > 0:
			lo = mid
		case dir < 0:
			hi = mid
		default:
			return nil
		}
	}
	return nil
}

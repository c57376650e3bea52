package queries

import (
	"errors"
	"math"
	"math/big"

	"github.com/tcheck/tcheck/dbm"
	"github.com/tcheck/tcheck/model"
	"github.com/tcheck/tcheck/zone"
)

// growsForever reports whether clock x takes arbitrarily large values in
// the reachable states that satisfy cond (a formula on locations and data
// only), by a sufficient condition that sup's bound doubling cannot reach:
// a cycle of the explicit abstract zone graph that never resets x, passes
// through a state satisfying cond, and makes time diverge because it resets
// some clock y to 0, never to another value, and also takes a guard that
// needs y ≥ 1 (so each turn of the
// cycle lasts at least one time unit; Alur and Dill's "progress" condition
// for non-Zeno cycles, TCS 1994, Section 6). A cycle of that graph is an
// infinite run of the model (zone.Graph), which then visits cond-states at
// ever later times without resetting x.
//
// Where no cycle forces time to pass, a cycle that only lets it may still
// repeat forever with time diverging (a loop under an invariant x <= 5
// that resets x): repeatsWithTime looks for a concrete run that turns
// such a cycle with the same positive duration forever, from the initial
// state.
//
// The graph is built under Extra_M+ (where x, compared with nothing, is
// abstracted away entirely), with at most maxStates states; false when it
// is larger, when neither condition holds, or on a model error (the
// caller then keeps doubling the bound, which is sound either way).
func growsForever(sys *zone.System, cond *model.Formula, x int, opts Options, maxStates int64) bool {
	xp, err := extrapolationFor(sys, nil, opts, true)
	if err != nil {
		return false
	}
	limits := opts.Limits
	if limits.MaxStates == 0 || limits.MaxStates > maxStates {
		limits.MaxStates = maxStates
	}
	g, res := zone.BuildGraph(sys, zone.Options{Extrapolation: xp, Limits: limits, Now: opts.Now, FullZones: opts.FullZones, Initial: opts.From.start()})
	if res.Reason != zone.Completed {
		return false
	}
	st := zone.NewStepper(sys)
	checker := zone.NewChecker(sys)
	locs := make([]int32, sys.NProcs)
	vars := make([]int32, sys.NVars)
	dl := make([]int32, sys.NProcs)
	dv := make([]int32, sys.NVars)
	z := dbm.New(sys.Dim)

	// Every edge's effect on clocks: the clocks it resets, the clocks its
	// guard bounds below by 1 or more, whether it resets x.
	type edgeInfo struct {
		to               int32
		move             int32 // the move's index among the node's moves
		resets, atLeast1 []bool
		// nonZero: the edge leaves the clock at a value other than 0
		// (y = 3), after which a guard y ≥ 1 needs no time to pass
		nonZero []bool
	}
	edges := make([][]edgeInfo, len(g.Nodes))
	inCond := make([]bool, len(g.Nodes))
	var guards []dbm.Constraint
	var resets []model.Reset
	// the search's deadline holds here too: the graph may have as many
	// nodes as the exploration stored (a counter's 20,000 states)
	stop := traceStop(opts)
	for i := range g.Nodes {
		if stop != nil && i&255 == 0 && stop() {
			return false
		}
		g.Decode(int32(i), locs, vars, z)
		ok, err := checker.Sat(cond, locs, vars, z)
		if err != nil {
			return false
		}
		inCond[i] = ok
		var moves []zone.Move
		if err := st.Moves(locs, vars, z, func(m zone.Move) bool {
			moves = append(moves, append(zone.Move(nil), m...))
			return true
		}); err != nil {
			return false
		}
		n := &g.Nodes[i]
		for k, s := range n.Succ {
			mi := n.Moves[k]
			if int(mi) >= len(moves) {
				return false
			}
			guards, resets, err = st.Effect(locs, vars, moves[mi], dl, dv, guards[:0], resets[:0])
			if err != nil {
				return false
			}
			e := edgeInfo{to: s, move: mi, resets: make([]bool, sys.Dim), atLeast1: make([]bool, sys.Dim), nonZero: make([]bool, sys.Dim)}
			for _, r := range resets {
				// in execution order: the last assignment counts
				e.resets[r.Clock] = true
				e.nonZero[r.Clock] = r.Value != 0
			}
			if e.resets[x] {
				continue // not on a cycle that lets x grow
			}
			for _, c := range guards {
				// 0 - y ≺ c with c ≤ -1: y ≥ 1 (or more)
				if c.I == 0 && c.J > 0 && c.B.Const() <= -1 {
					e.atLeast1[c.J] = true
				}
			}
			edges[i] = append(edges[i], e)
		}
	}
	adj := make([][]int32, len(g.Nodes))
	for i, es := range edges {
		for _, e := range es {
			adj[i] = append(adj[i], e.to)
		}
	}
	comp, count := components(adj)
	sccs := make([][]int32, count)
	for v, c := range comp {
		sccs[c] = append(sccs[c], int32(v))
	}
	for c, scc := range sccs {
		cond := false
		for _, v := range scc {
			cond = cond || inCond[v]
		}
		if !cond {
			continue
		}
		reset := make([]bool, sys.Dim)
		atLeast1 := make([]bool, sys.Dim)
		nonZero := make([]bool, sys.Dim)
		internal := false
		for _, v := range scc {
			for _, e := range edges[v] {
				if comp[e.to] != int32(c) {
					continue
				}
				internal = true
				for y := 1; y < sys.Dim; y++ {
					reset[y] = reset[y] || e.resets[y]
					atLeast1[y] = atLeast1[y] || e.atLeast1[y]
					nonZero[y] = nonZero[y] || e.nonZero[y]
				}
			}
		}
		if !internal {
			continue
		}
		// A closed walk of the component through a reset of y and a guard
		// y ≥ 1 lasts at least one time unit per turn only if every
		// assignment to y on it is y = 0: an assignment y = 3 satisfies
		// the guard at once (a finding of the differential tester:
		// testdata/difftest/sup-reset-to-nonzero.yaml). Components with
		// such an assignment are not used for y (sound: the caller then
		// keeps doubling the bound).
		for y := 1; y < sys.Dim; y++ {
			if reset[y] && atLeast1[y] && !nonZero[y] {
				return true
			}
		}
	}
	// No cycle forces time to pass. Look for one that lets it: a cycle
	// through a cond-state whose turns can each last the same positive
	// time forever (repeatsWithTime).
	for c, scc := range sccs {
		tried := 0
		for _, v := range scc {
			if tried == maxCyclesTried {
				break
			}
			if !inCond[v] {
				continue
			}
			tried++
			// the shortest cycle from v back to v inside the component
			from := map[int32]int32{v: -1} // node -> the edge (index into via) that reached it
			type step struct{ node, edge int32 }
			var via []step
			queue := []int32{v}
			var cycle []step
			for len(queue) > 0 && cycle == nil {
				u := queue[0]
				queue = queue[1:]
				for k, e := range edges[u] {
					if comp[e.to] != int32(c) {
						continue
					}
					if e.to == v {
						// unwind: the edges from v to u, then this one
						cycle = []step{{u, int32(k)}}
						for at := from[u]; at >= 0; at = from[via[at].node] {
							cycle = append(cycle, via[at])
						}
						break
					}
					if _, seen := from[e.to]; !seen {
						from[e.to] = int32(len(via))
						via = append(via, step{u, int32(k)})
						queue = append(queue, e.to)
					}
				}
			}
			if cycle == nil {
				continue
			}
			w := make([]zone.Move, 0, len(cycle))
			for k := len(cycle) - 1; k >= 0; k-- {
				m, err := g.MoveTo(cycle[k].node, edges[cycle[k].node][cycle[k].edge].move)
				if err != nil {
					return false
				}
				w = append(w, m)
			}
			prefix, err := g.PathMoves(v)
			if err != nil {
				return false
			}
			if stop != nil && stop() {
				return false
			}
			if repeatsWithTime(sys, opts.From, prefix, w, stop) {
				return true
			}
		}
	}
	return false
}

// lcm64 is the least common multiple of two positive numbers.
func lcm64(a, b int64) int64 {
	g, h := a, b
	for h != 0 {
		g, h = h, g%h
	}
	return a / g * b
}

// maxCyclesTried bounds the cycles repeatsWithTime is tried on, per
// component.
const maxCyclesTried = 4

// repeatsWithTime reports whether the path prefix (from the initial state,
// or from the state from: its valuation itself, which can follow every
// path of the zone graph built from its region, as concretiseFrom argues)
// followed by the cycle w (back to the same symbolic state) has a
// concrete run whose turn of w can be repeated forever, each turn lasting
// the same time P > 0: a sufficient condition for a clock that w never
// resets to grow without bound along a run that keeps visiting the cycle's
// states.
//
// Such a run exists when (1) every clock that w does not reset is bounded
// only from below on w (no guard, negated guard or invariant of w bounds
// it above, alone or against another clock), and (2) a run along prefix,
// w, w turns w twice with the same delays, each turn taking P. The
// clocks w resets then enter the second turn with the values that the
// delays after their last reset in the first turn give them, so they
// enter the third with the same values (the second turn's delays are the
// same), and every further turn repeats the second on them, at every
// step; the other clocks only grow, which only lower bounds constrain: by
// induction, each turn is a run. (2) is a system of difference
// constraints over the run's times for each P (pathTimes, with T_{e+j} −
// T_{s+j} = P for the j-th state of the turns entered at s and e), tried
// for P = 1, 2, 4, ..., 2^20 and 1/2, 1/4, ..., 1/64. The run found is
// replayed by Replay before it counts. The condition is not necessary
// (another cycle, prefix or period may repeat), so false only keeps the
// caller's bound doubling, as does stop (the check's deadline).
func repeatsWithTime(sys *zone.System, from *State, prefix, w []zone.Move, stop func() bool) bool {
	path := make([]zone.Move, 0, len(prefix)+2*len(w))
	path = append(append(append(path, prefix...), w...), w...)
	t, entries, err := symbolicPath(sys, from, path)
	if err != nil {
		return false
	}
	k := len(w)
	s := len(prefix) // the state entering the first turn
	e := s + k       // the state entering the second
	n := len(t.Moves)
	// (1): the clocks w resets, and no upper bound on the others
	st := zone.NewStepper(sys)
	dl := make([]int32, sys.NProcs)
	dv := make([]int32, sys.NVars)
	reset := make([]bool, sys.Dim)
	var bounds []dbm.Constraint
	for j := 0; j < k; j++ {
		guards, resets, err := st.Effect(t.Locs[s+j], t.Vars[s+j], t.Moves[s+j+1], dl, dv, nil, nil)
		if err != nil {
			return false
		}
		for _, r := range resets {
			reset[r.Clock] = true
		}
		inv, _, err := st.Invariant(t.Locs[s+j], t.Vars[s+j], nil)
		if err != nil {
			return false
		}
		bounds = append(append(bounds, guards...), inv...)
	}
	for _, c := range bounds {
		// x_I − x_J ≺ c bounds x_I above
		if c.I != 0 && !reset[c.I] {
			return false
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
				return false
			}
			L = lcm64(L, d.Int64())
		}
		if L > 1<<20 {
			return false
		}
	}
	pt, err := newPathTimes(sys, t, entries, t.Zones[n-1], start, L, stop)
	if err != nil {
		return false
	}
	base := len(pt.cs.cons)
	var periods []int64
	for p := L; p <= L<<20 && p <= math.MaxInt32; p *= 2 {
		periods = append(periods, p)
	}
	for p := L / 2; p >= L/64; p /= 2 {
		periods = append(periods, p)
	}
	equal := func(a, b int, c int64) { // T_a − T_b = c
		pt.cs.order(a, b, c, false)
		pt.cs.order(b, a, -c, false)
	}
	for _, p := range periods {
		pt.cs.cons = pt.cs.cons[:base]
		for j := 0; j <= k; j++ {
			equal(e+j, s+j, p) // the same delays, each turn P
		}
		times, q, err := pt.cs.solve(n+1, L, stop)
		if errors.Is(err, ErrTraceTime) {
			return false
		}
		if err != nil {
			continue
		}
		run := *t
		if pt.setRun(&run, entries, t.Zones[n-1], times, q) != nil || replayTrace(sys.Net, &run, nil) != nil {
			continue
		}
		return true
	}
	return false
}

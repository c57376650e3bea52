package queries

import (
	"slices"

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
func growsForever(sys *zone.System, cond *model.Formula, x int, opts Options, maxStates int64, witness **Trace) bool {
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
		// capped: the clocks the edge's guard bounds above, which
		// repeatsWithTime's condition (1) allows on a cycle only for
		// clocks the cycle resets; diagonals: its guard's bounds on the
		// difference of two clocks, which (1) allows unless the cycle
		// resets the second clock and not the first (two clocks that
		// both only grow keep their difference)
		capped    []bool
		diagonals []dbm.Constraint
	}
	edges := make([][]edgeInfo, g.Len())
	inCond := make([]bool, g.Len())
	// idles: time can pass in the node forever (no invariant bounds a
	// clock above, and no committed or urgent location or urgent
	// synchronisation stops it)
	idles := make([]bool, g.Len())
	// invCapped: the clocks the node's invariant bounds above
	invCapped := make([][]bool, g.Len())
	// frozen: no time passes in the node: a committed or urgent location
	// or an urgent synchronisation stops it, or the invariant bounds a
	// clock by y <= 0 (or y < 0), which holds only with no delay
	frozen := make([]bool, g.Len())
	var guards []dbm.Constraint
	var resets []model.Reset
	var moveBuf []zone.EdgeRef
	var moveEnd []int
	// the search's deadline holds here too: the graph may have as many
	// nodes as the exploration stored (a counter's 20,000 states)
	stop := newTraceLimit(opts).stopFunc()
	for i := range g.Len() {
		if stop != nil && i&255 == 0 && stop() {
			return false
		}
		g.Decode(int32(i), locs, vars, z)
		ok, err := checker.Sat(cond, locs, vars, z)
		if err != nil {
			return false
		}
		inCond[i] = ok
		inv, _, err := st.Invariant(locs, vars, nil)
		if err != nil {
			return false
		}
		invCapped[i] = make([]bool, sys.Dim)
		delay, err := st.DelayAllowed(locs, vars)
		if err != nil {
			return false
		}
		// idlesUnder's test, on the delay computed once for both
		idles[i], frozen[i] = delay && !capsAClock(inv), !delay
		for _, c := range inv {
			invCapped[i][c.I] = c.I != 0
			if c.I != 0 && c.J == 0 && c.B <= dbm.LEZero {
				frozen[i] = true
			}
		}
		// the node's moves, one after the other in moveBuf (moveEnd[k]
		// ends move k), reused from node to node instead of a copy of
		// each move allocated per node (garbage for the collector, which
		// took a third of the profile of a sup over a model whose
		// broadcasts have selects, with the test's other allocations)
		moveBuf, moveEnd = moveBuf[:0], moveEnd[:0]
		if err := st.Moves(locs, vars, z, func(m zone.Move) bool {
			moveBuf = append(moveBuf, m...)
			moveEnd = append(moveEnd, len(moveBuf))
			return true
		}); err != nil {
			return false
		}
		succMoves, succ := g.SuccMoves(int32(i)), g.Succ(int32(i))
		// the node's edges and their clock sets, each in one allocation
		// (grown edge by edge, the edges' slices made the collector copy
		// and scan: a fifth of the test on difftest symmetric seed 99452)
		edges[i] = make([]edgeInfo, 0, len(succ))
		d := sys.Dim
		sets := make([]bool, 4*d*len(succ))
		for k, s := range succ {
			mi := succMoves[k]
			if int(mi) >= len(moveEnd) {
				return false
			}
			from := 0
			if mi > 0 {
				from = moveEnd[mi-1]
			}
			guards, resets, err = st.Effect(locs, vars, zone.Move(moveBuf[from:moveEnd[mi]]), dl, dv, guards[:0], resets[:0])
			if err != nil {
				return false
			}
			es := sets[4*d*k : 4*d*(k+1)]
			e := edgeInfo{to: s, move: mi, resets: es[:d:d], atLeast1: es[d : 2*d : 2*d], nonZero: es[2*d : 3*d : 3*d], capped: es[3*d : 4*d : 4*d]}
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
				switch {
				case c.I != 0 && c.J == 0:
					e.capped[c.I] = true
				case c.I != 0:
					e.diagonals = append(e.diagonals, c)
				}
			}
			edges[i] = append(edges[i], e)
		}
	}
	adj := make([][]int32, g.Len())
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
	// No cycle forces time to pass. Look for a run that lets it pass
	// forever without resetting x and then reaches a cond-state, still
	// without resetting x (repeatsWithTime): from an anchor, a cycle
	// whose turns can each last the same positive time forever, or a
	// state where time can pass forever, then the shortest way on to a
	// cond-state. Through each of a few anchors v of a component, it
	// tries the shortest cycle that starts with each of a few of v's
	// edges: the shortest cycle alone may be a loop that resets no clock
	// (seed 434372: a process idling on `L0 -> L0`), which an invariant
	// elsewhere then caps, where the next edge is the loop that resets
	// it. Cond-states come first as anchors, then the states that reach
	// one (seed 435894: time passes forever in L0, and the committed L1
	// is the condition).
	type step struct{ node, edge int32 }
	// reaches: the nodes from which a cond-state is reachable by the
	// edges that do not reset x
	reaches := slices.Clone(inCond)
	pred := make([][]int32, g.Len())
	for a, es := range edges {
		for _, e := range es {
			pred[e.to] = append(pred[e.to], int32(a))
		}
	}
	markPredecessors(pred, reaches)
	// search returns the edges of a shortest path from u, over the edges
	// where keep holds, whose last edge is one where last holds (false:
	// none)
	visits := 0 // the nodes search dequeued, bounded by maxVisits
	search := func(u int32, keep, last func(e edgeInfo) bool) ([]step, bool) {
		from := map[int32]step{u: {-1, -1}}
		queue := []int32{u}
		for len(queue) > 0 && visits < maxVisits {
			visits++
			a := queue[0]
			queue = queue[1:]
			for k, e := range edges[a] {
				if !keep(e) {
					continue
				}
				if last(e) {
					path := []step{{a, int32(k)}}
					for at := a; at != u; at = from[at].node {
						path = append(path, from[at])
					}
					slices.Reverse(path)
					return path, true
				}
				if _, seen := from[e.to]; seen {
					continue
				}
				from[e.to] = step{a, int32(k)}
				queue = append(queue, e.to)
			}
		}
		return nil, false
	}
	// shortest returns the edges of a shortest path from u to a node
	// where done holds, over the edges where keep holds, in order (nil,
	// true when done(u); false: none)
	shortest := func(u int32, keep func(e edgeInfo) bool, done func(int32) bool) ([]step, bool) {
		if done(u) {
			return nil, true
		}
		return search(u, keep, func(e edgeInfo) bool { return done(e.to) })
	}
	movesOf := func(path []step) ([]zone.Move, bool) {
		w := make([]zone.Move, 0, len(path))
		for _, st := range path {
			m, err := g.MoveTo(st.node, edges[st.node][st.edge].move)
			if err != nil {
				return nil, false
			}
			w = append(w, m)
		}
		return w, true
	}
	// mayRepeat is repeatsWithTime's condition (1) on the cycle alone,
	// read off the graph: every clock that a guard or a state's invariant
	// on the cycle bounds above is reset on it. A cycle that fails it is
	// not tried, and spends none of the runs: on a model whose states each
	// have loops that reset nothing under an invariant x1 <= 1 (difftest
	// seed 505982, testdata/sup/sup-loops-spend-the-runs.yaml), such loops
	// spent all 64 runs before the cycle that resets x1 was reached.
	mayRepeat := func(cycle []step) bool {
		// a cycle whose states all stop time turns in no time: its runs
		// are Zeno, and fail (difftest seed 873322: 64 runs spent on
		// cycles of P3's loops while P2 waits under x1 <= 0, the loops
		// that repeat with P2 under x1 < 3 never tried)
		if !slices.ContainsFunc(cycle, func(st step) bool { return !frozen[st.node] }) {
			return false
		}
		reset := make([]bool, sys.Dim)
		for _, st := range cycle {
			for y, r := range edges[st.node][st.edge].resets {
				reset[y] = reset[y] || r
			}
		}
		for _, st := range cycle {
			e := edges[st.node][st.edge]
			for y := 1; y < sys.Dim; y++ {
				if (e.capped[y] || invCapped[st.node][y]) && !reset[y] {
					return false
				}
			}
			// a diagonal bounds its first clock where the cycle resets
			// the second and not the first: the difference grows
			for _, c := range e.diagonals {
				if !reset[c.I] && reset[c.J] {
					return false
				}
			}
		}
		return true
	}
	isCond := func(v int32) bool { return inCond[v] }
	anyEdge := func(edgeInfo) bool { return true }
	budget := maxRunsTried
	// exhausted: the runs, the searches' visits or the check's time are
	// spent
	exhausted := func() bool { return budget == 0 || visits >= maxVisits || stop != nil && stop() }
	// resetFirst returns a way on from u that first takes an edge
	// resetting y (by a shortest path to such an edge), then the
	// shortest path on to a cond-state: where a cond-state's invariant
	// bounds y, the shortest way on may reach it with y grown as long as
	// the run waited (difftest seed 530374: sup{P2.L1}: x0 under P2.L1's
	// x1 < 4, where P0 resets x1 on the way)
	resetFirst := func(u int32, y int) ([]step, bool) {
		first, ok := search(u, anyEdge, func(e edgeInfo) bool { return e.resets[y] && reaches[e.to] })
		if !ok {
			return nil, false
		}
		last := first[len(first)-1]
		rest, ok := shortest(edges[last.node][last.edge].to, anyEdge, isCond)
		return append(first, rest...), ok
	}
	// condCapped: the clocks other than x that a cond-state's invariant
	// bounds above
	condCapped := make([]bool, sys.Dim)
	for i, ok := range inCond {
		for y := 1; ok && y < sys.Dim; y++ {
			condCapped[y] = condCapped[y] || invCapped[i][y] && y != x
		}
	}
	// tryExit tries the run that turns cycle from v (waits in v, with
	// cycle empty) and then takes the way on out.
	tryExit := func(v int32, cycle, out []step) bool {
		if budget == 0 || stop != nil && stop() {
			return false
		}
		budget--
		prefix, err := g.PathMoves(v)
		if err != nil {
			return false
		}
		w, ok1 := movesOf(cycle)
		exit, ok2 := movesOf(out)
		if !ok1 || !ok2 {
			return false
		}
		run := repeatsWithTime(sys, opts.From, prefix, w, exit, stop)
		if run == nil {
			return false
		}
		if witness != nil && len(w) > 0 && len(exit) == 0 {
			// the run to the cycle and one turn of it, which the run
			// can repeat forever: the witness of the sup's inf
			*witness = run.upTo(len(prefix)+len(w), len(w))
		}
		return true
	}
	// resetBeforeCap returns the edges of a shortest way on from u to a
	// cond-state on which each clock that a guard bounds above was reset
	// by an earlier edge (against another clock: unless neither was), and
	// each clock that the invariant of a state entered bounds above by an
	// earlier edge or the one entering it: a run that has waited in u as
	// long as it likes may take it, where the shortest way on may take a
	// guard that caps a clock grown with the wait (false: none, or more
	// than 64 clocks). It searches the pairs of a node and the clocks
	// reset on the way to it (a bit each), at most four per node of the
	// graph on average (a way on resets few clocks; the pairs could
	// otherwise grow with the subsets of the clocks).
	resetBeforeCap := func(u int32) ([]step, bool) {
		if inCond[u] {
			return nil, true
		}
		if sys.Dim > 64 {
			return nil, false
		}
		type at struct {
			node  int32
			reset uint64
		}
		type came struct {
			prev at
			edge int32
		}
		start := at{u, 0}
		from := map[at]came{start: {at{-1, 0}, -1}}
		queue := []at{start}
		for own := 0; len(queue) > 0 && visits < maxVisits && own < 4*g.Len(); own++ {
			visits++
			a := queue[0]
			queue = queue[1:]
		edge:
			for k, e := range edges[a.node] {
				r := a.reset
				for y := 1; y < sys.Dim; y++ {
					was := a.reset&(1<<y) != 0
					if e.capped[y] && !was || invCapped[e.to][y] && !was && !e.resets[y] {
						continue edge
					}
					if e.resets[y] {
						r |= 1 << y
					}
				}
				for _, c := range e.diagonals {
					if a.reset&(1<<c.I) == 0 && a.reset&(1<<c.J) != 0 {
						continue edge
					}
				}
				b := at{e.to, r}
				if _, seen := from[b]; seen {
					continue
				}
				from[b] = came{a, int32(k)}
				if !inCond[e.to] {
					queue = append(queue, b)
					continue
				}
				var path []step
				for c := b; c != start; c = from[c].prev {
					path = append(path, step{from[c].prev.node, from[c].edge})
				}
				slices.Reverse(path)
				return path, true
			}
		}
		return nil, false
	}
	// try tries the shortest way on from v, then ways on that first
	// reset a clock some cond-state's invariant bounds, then the
	// shortest way on that resets each clock before a guard or an
	// invariant bounds it.
	try := func(v int32, cycle []step) bool {
		out, ok := shortest(v, anyEdge, isCond)
		if !ok {
			return false
		}
		if tryExit(v, cycle, out) {
			return true
		}
		for y := 1; y < sys.Dim; y++ {
			if !condCapped[y] {
				continue
			}
			// the shortest way on may be one that resets y first: its
			// run has been tried
			if alt, ok := resetFirst(v, y); ok && !slices.Equal(alt, out) && tryExit(v, cycle, alt) {
				return true
			}
		}
		// the shortest way on may take a guard that bounds a clock the
		// run has let grow, where another way resets it first or takes
		// no such guard (difftest symmetric seed 94918: sup{both P0 in
		// L2}: x0, where the shortest way on is L1 -> L2 under z0 <= 0
		// and the way after a wait is L1 -> L2 under z1 > 0)
		if alt, ok := resetBeforeCap(v); ok && !slices.Equal(alt, out) && tryExit(v, cycle, alt) {
			return true
		}
		return false
	}
	// First the states where time can pass forever, a few per component:
	// each needs no cycle (wait there, then the shortest way on), and
	// where the cycles came first they could spend the runs before a
	// waiting state that reaches the condition was tried (difftest seed
	// 588547 under --global-bounds: 64 runs on cycles through states of
	// the condition, where an urgent channel stops time, before the
	// initial state, where time passes until P1 sets b0).
	idleTried := map[int32]bool{}
	loopTried := map[step]bool{} // the loops (cycles of one edge) tried through anchors
	for _, condFirst := range []bool{true, false} {
		for _, scc := range sccs {
			n := 0
			for _, v := range scc {
				if n == maxCondNodesTried {
					break
				}
				if exhausted() {
					return false
				}
				if inCond[v] != condFirst || !reaches[v] || !idles[v] {
					continue
				}
				n++
				idleTried[v] = true
				if try(v, nil) {
					return true
				}
			}
		}
	}
	for _, condFirst := range []bool{true, false} {
		for c, scc := range sccs {
			inC := func(e edgeInfo) bool { return comp[e.to] == int32(c) }
			nodes := 0
			for _, v := range scc {
				if nodes == maxCondNodesTried {
					break
				}
				if exhausted() {
					return false
				}
				if inCond[v] != condFirst || !reaches[v] {
					continue
				}
				if idles[v] && !idleTried[v] && try(v, nil) {
					return true
				}
				tried := 0
				for k, e0 := range edges[v] {
					if tried == maxCyclesTried {
						break
					}
					if !inC(e0) {
						continue
					}
					rest, ok := shortest(e0.to, inC, func(a int32) bool { return a == v })
					if !ok {
						continue
					}
					cycle := append([]step{{v, int32(k)}}, rest...)
					if len(cycle) == 1 {
						loopTried[cycle[0]] = true
					}
					if !mayRepeat(cycle) {
						continue
					}
					tried++
					if try(v, cycle) {
						return true
					}
				}
				// an anchor counts only where it gave a run to try: the
				// cycles through the first anchors may all take an edge
				// that bounds a clock without resetting it (difftest seed
				// 529095, testdata/sup/sup-anchors-without-cycles.yaml:
				// the loop that repeats is the fifth state's)
				if idles[v] || tried > 0 {
					nodes++
				}
			}
		}
	}
	// Then the loops of the states that reach a cond-state, a few per
	// component: a process that turns a loop forever is the commonest
	// cycle that repeats, and its state may come late in a component,
	// after the anchors (difftest seed 583086,
	// testdata/sup/sup-loop-after-anchors.yaml: P0's `c0!` loop resets
	// x1 under P3's `x1 <= 1` in the ninth state, once a clock it never
	// resets has grown past the model's constants; the four anchors
	// before it gave runs that fail).
	for _, scc := range sccs {
		loops := 0
		for _, v := range scc {
			if !reaches[v] {
				continue
			}
			for k, e := range edges[v] {
				if e.to != v || loops == maxCyclesTried {
					continue
				}
				if exhausted() {
					return false
				}
				cycle := []step{{v, int32(k)}}
				if loopTried[cycle[0]] || !mayRepeat(cycle) {
					continue
				}
				loops++
				if try(v, cycle) {
					return true
				}
			}
		}
	}
	return false
}

// maxCondNodesTried, maxCyclesTried and maxRunsTried bound the runs
// repeatsWithTime is tried on: through so many anchors of a component
// that give a run to try, the shortest cycle starting with each of so
// many of their edges, and so many runs in all (each builds the exact
// zones of its path, which may be as long as the graph is deep).
// maxVisits bounds the breadth-first searches for those cycles and ways
// on, in nodes visited: anchors that give no run are skipped for free
// but their searches are not.
const (
	maxCondNodesTried = 4
	maxCyclesTried    = 8
	maxRunsTried      = 64
	maxVisits         = 1 << 22
)

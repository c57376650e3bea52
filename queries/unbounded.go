package queries

import (
	"gonum.org/v1/gonum/graph/simple"
	"gonum.org/v1/gonum/graph/topo"

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
// The graph is built under Extra_M+ (where x, compared with nothing, is
// abstracted away entirely), with at most maxStates states; false when it
// is larger, when the condition does not hold, or on a model error (the
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
		resets, atLeast1 []bool
		// nonZero: the edge leaves the clock at a value other than 0
		// (y = 3), after which a guard y ≥ 1 needs no time to pass
		nonZero []bool
	}
	edges := make([][]edgeInfo, len(g.Nodes))
	inCond := make([]bool, len(g.Nodes))
	var guards []dbm.Constraint
	var resets []model.Reset
	for i := range g.Nodes {
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
			e := edgeInfo{to: s, resets: make([]bool, sys.Dim), atLeast1: make([]bool, sys.Dim), nonZero: make([]bool, sys.Dim)}
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
	dg := simple.NewDirectedGraph()
	for i := range g.Nodes {
		dg.AddNode(simple.Node(i))
	}
	for i, es := range edges {
		for _, e := range es {
			if int(e.to) != i && !dg.HasEdgeFromTo(int64(i), int64(e.to)) {
				dg.SetEdge(simple.Edge{F: simple.Node(i), T: simple.Node(e.to)})
			}
		}
	}
	comp := make([]int, len(g.Nodes))
	sccs := topo.TarjanSCC(dg)
	for c, scc := range sccs {
		for _, v := range scc {
			comp[v.ID()] = c
		}
	}
	for c, scc := range sccs {
		cond := false
		for _, v := range scc {
			cond = cond || inCond[v.ID()]
		}
		if !cond {
			continue
		}
		reset := make([]bool, sys.Dim)
		atLeast1 := make([]bool, sys.Dim)
		nonZero := make([]bool, sys.Dim)
		internal := false
		for _, v := range scc {
			for _, e := range edges[v.ID()] {
				if comp[e.to] != c {
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
	return false
}

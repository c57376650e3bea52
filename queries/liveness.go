package queries

import (
	"fmt"
	"slices"

	"github.com/tcheck/tcheck/dbm"
	"github.com/tcheck/tcheck/model"
	"github.com/tcheck/tcheck/model/syntax"
	"github.com/tcheck/tcheck/zone"
)

// Liveness properties, with UPPAAL's semantics (docs.uppaal.org, Semantics
// of the Symbolic Queries):
//
//   - E[] p holds when some path keeps p in every state and is infinite,
//     or ends in a state that can delay forever (within p and the
//     invariant), or ends in a state with no outgoing transition at all;
//   - A<> p is not E[] not p;
//   - p --> q is A[] (p imply A<> q).
//
// They are decided on the explicit abstract zone graph (zone.BuildGraph,
// states up to equality, no inclusion) under Extra_M+, which preserves
// deadlocks and cycles: a path satisfying E[] p is a path to a state that
// lies on a cycle of the p-subgraph or is maximal (deadlocked, or able to
// delay forever). As in UPPAAL, time divergence is not required of
// infinite paths. The state formulas p and q may test locations and data;
// clock constraints and deadlock inside them are not supported. Under
// Options.Symmetry the graph is the quotient by the permutations of the
// scalar sets (zone.BuildGraph), which p and q cannot tell apart, and
// zone.Graph.Run maps its lassos back to runs of the model.

// lasso is a witness of E[] p: the steps from the initial node start to a
// state of the p-subgraph, then (cycle > 0) the last cycle steps return to
// that state (zone.Graph.Run makes them a run of the model).
type lasso struct {
	start int32
	steps []zone.GraphStep
	cycle int
	// end is the node the witness ends in, deadlocked when dead.
	dead bool
	// horizon: the witness ends where it reaches the time horizon
	// (Options.Within), where a run may end.
	horizon bool
}

// livenessGraph is the abstract zone graph with the formulas evaluated.
type livenessGraph struct {
	sys     *zone.System
	g       *zone.Graph
	checker *zone.Checker
	st      *zone.Stepper
	locs    []int32
	vars    []int32
	z       dbm.DBM
	any     dbm.DBM        // all non-negative valuations (holds)
	maximal map[int32]int8 // 0 unknown, 1 maximal, 2 not; 3 maximal by deadlock
	// horizon is the horizon clock of Options.Within (0: none) and
	// horizonT its bound: a run may end where it reaches the horizon.
	horizon  int
	horizonT int32
}

// atHorizon reports whether a run in node i can reach the time horizon.
func (lg *livenessGraph) atHorizon(i int32) bool {
	if lg.horizon == 0 {
		return false
	}
	lg.g.Decode(i, lg.locs, lg.vars, lg.z)
	return lg.z.At(lg.horizon, 0) >= dbm.LE(lg.horizonT)
}

// holds reports whether f holds in node i. A liveness formula has no clock
// constraint (checkLiveness refuses them), so its value is the same in
// every non-empty zone: the node's zone is not decoded (on Fischer N = 7
// decoding each of the 655,075 nodes' zones took 0.8 s of a 7 s check),
// and f is evaluated on lg.any, a fixed non-empty zone.
func (lg *livenessGraph) holds(f *model.Formula, i int32) (bool, error) {
	if f.Has(model.FClock) || f.Has(model.FDeadlock) {
		lg.g.Decode(i, lg.locs, lg.vars, lg.z)
		return lg.checker.Sat(f, lg.locs, lg.vars, lg.z)
	}
	lg.g.DecodeKey(i, lg.locs, lg.vars)
	return lg.checker.Sat(f, lg.locs, lg.vars, lg.any)
}

// isMaximal reports whether a path can end in node i: some valuation has
// no outgoing action transition now or after any delay (then it also ends
// after the largest delay), or every valuation can delay forever. dead says
// which.
func (lg *livenessGraph) isMaximal(i int32) (ok, dead bool, err error) {
	if m, done := lg.maximal[i]; done {
		return m == 1 || m == 3, m == 3, nil
	}
	if lg.atHorizon(i) {
		// a run may end at the horizon (a deadlock that time reaches
		// the horizon in ends there too)
		lg.maximal[i] = 1
		return true, false, nil
	}
	lg.g.Decode(i, lg.locs, lg.vars, lg.z)
	fed, err := lg.st.Deadlocked(lg.locs, lg.vars, lg.z, dbm.Federation{})
	if err != nil {
		return false, false, err
	}
	if !fed.IsEmpty() {
		lg.maximal[i] = 3
		return true, true, nil
	}
	delay, err := lg.st.DelayAllowed(lg.locs, lg.vars)
	if err != nil {
		return false, false, err
	}
	if delay {
		inv, _, err := lg.st.Invariant(lg.locs, lg.vars, nil)
		if err != nil {
			return false, false, err
		}
		bounded := false
		for _, c := range inv {
			if c.J == 0 && c.I != 0 {
				bounded = true
			}
		}
		if !bounded {
			lg.maximal[i] = 1
			return true, false, nil
		}
	}
	lg.maximal[i] = 2
	return false, false, nil
}

// subgraph returns the nodes satisfying f (by index) and, among them, those
// on a cycle of the subgraph they induce (a strongly connected component
// with an edge inside it).
func (lg *livenessGraph) subgraph(f *model.Formula) (in []bool, cyclic []bool, err error) {
	n := lg.g.Len()
	in = make([]bool, n)
	for i := range lg.g.Len() {
		if in[i], err = lg.holds(f, int32(i)); err != nil {
			return nil, nil, err
		}
	}
	adj := make([][]int32, n)
	cyclic = make([]bool, n)
	for i := range lg.g.Len() {
		if !in[i] {
			continue
		}
		for _, s := range lg.g.Succ(int32(i)) {
			if !in[s] {
				continue
			}
			if int(s) == i {
				cyclic[i] = true // a self-loop
				continue
			}
			adj[i] = append(adj[i], s)
		}
	}
	comp, count := components(adj)
	size := make([]int, count)
	for _, c := range comp {
		size[c]++
	}
	for v, c := range comp {
		if size[c] > 1 {
			cyclic[v] = true
		}
	}
	return in, cyclic, nil
}

// pathWithin returns the steps of a shortest path from one of the nodes
// from (start) to a node satisfying target, through nodes with in set,
// and the node reached (-1 when there is none). Breadth first, successors
// in order: deterministic.
func (lg *livenessGraph) pathWithin(from []int32, in []bool, target func(int32) (bool, error)) (steps []zone.GraphStep, start, end int32, err error) {
	n := lg.g.Len()
	parent := make([]int32, n)
	via := make([]int32, n)
	seen := make([]bool, n)
	var queue []int32
	for _, s := range from {
		if in[s] && !seen[s] {
			seen[s], parent[s] = true, -1
			queue = append(queue, s)
		}
	}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		ok, err := target(cur)
		if err != nil {
			return nil, -1, -1, err
		}
		if ok {
			x := cur
			for ; parent[x] >= 0; x = parent[x] {
				steps = append(steps, zone.GraphStep{From: parent[x], To: x, Move: via[x]})
			}
			slices.Reverse(steps)
			return steps, x, cur, nil
		}
		moves := lg.g.SuccMoves(cur)
		for k, s := range lg.g.Succ(cur) {
			if in[s] && !seen[s] {
				seen[s], parent[s], via[s] = true, cur, moves[k]
				queue = append(queue, s)
			}
		}
	}
	return nil, -1, -1, nil
}

// cycleFrom returns the steps of a shortest cycle from node t back to t
// within the nodes with in set.
func (lg *livenessGraph) cycleFrom(t int32, in []bool) ([]zone.GraphStep, error) {
	succ := lg.g.Succ(t)
	for k, s := range succ {
		if s == t {
			return []zone.GraphStep{lg.g.Step(t, k)}, nil
		}
	}
	// the shortest path from a successor back to t
	var best []zone.GraphStep
	for k, s := range succ {
		if !in[s] {
			continue
		}
		steps, _, end, err := lg.pathWithin([]int32{s}, in, func(x int32) (bool, error) { return x == t, nil })
		if err != nil {
			return nil, err
		}
		if end < 0 || best != nil && len(steps)+1 >= len(best) {
			continue
		}
		best = append([]zone.GraphStep{lg.g.Step(t, k)}, steps...)
	}
	if best == nil {
		return nil, fmt.Errorf("internal error: no cycle through a cyclic state")
	}
	return best, nil
}

// liveGraph is the abstract zone graph of a Check's liveness queries: it
// depends on the model and the options only (their formulas have no clock
// constraint, so the extrapolation is the model's), so the first query
// builds it and the others reuse it. A file with several liveness queries
// explored the whole graph once per query (Fischer N = 7, 655,075 nodes:
// about 6 s each on the 2-core machine).
type liveGraph struct {
	g     *zone.Graph
	res   zone.Result
	built bool
}

// liveGraphBuilt, when set (by tests), is called each time checkLiveness
// builds a graph.
var liveGraphBuilt func()

// checkLiveness answers an E[], A<> or --> query on the graph live holds,
// building it first if need be.
func checkLiveness(sys *zone.System, q *Query, opts Options, live *liveGraph) *Result {
	r := &Result{Query: q, Rounds: 1}
	for _, f := range []*model.Formula{q.Formula, q.Formula2} {
		if f.Has(model.FClock) || f.Has(model.FDeadlock) {
			r.Verdict, r.TraceErr = Error, &model.Error{Pos: q.Pos, Msg: fmt.Sprintf("%s: clock constraints and deadlock are not supported in %s formulas (locations and data are)", f.Src, q.Kind)}
			return r
		}
	}
	if !live.built {
		xp, err := extrapolationFor(sys, nil, opts, true)
		if err != nil {
			r.Verdict, r.TraceErr = Error, err
			return r
		}
		live.g, live.res = zone.BuildGraph(sys, zone.Options{Extrapolation: xp, Limits: opts.Limits, Now: opts.Now, FullZones: opts.FullZones, Initial: opts.From.start(), Symmetry: opts.Symmetry})
		live.built = true
		if liveGraphBuilt != nil {
			liveGraphBuilt()
		}
	} else {
		// the time is the first query's, which built the graph
		live.res.Elapsed = 0
	}
	g, res := live.g, live.res
	r.Stats, r.Reason, r.Extrapolation = res.Stats, res.Reason, res.Extrapolation
	switch res.Reason {
	case zone.Completed:
	case zone.Failed:
		// a model error: the trace leads to it, as a reachability
		// query's does (checkMembers)
		r.Verdict, r.Err = Error, res.Err
		if !opts.NoTrace {
			var moves []zone.Move
			var err error
			if g.ErrNode >= 0 {
				start, steps := g.PathSteps(g.ErrNode)
				moves, _, err = g.Run(start, steps, 0)
			}
			if err != nil {
				r.TraceErr = err
			} else {
				// the graph's nodes are representatives under symmetry
				r.Err, r.Trace, r.TraceErr = traceToFailure(sys, opts, moves, res.Err, zone.Reduces(sys, zone.Options{Symmetry: opts.Symmetry}))
			}
		}
		return r
	default:
		r.Verdict = Unknown
		return r
	}
	lg := &livenessGraph{
		sys: sys, g: g, checker: zone.NewChecker(sys), st: zone.NewStepper(sys),
		locs: make([]int32, sys.NProcs), vars: make([]int32, sys.NVars), z: dbm.New(sys.Dim), any: dbm.New(sys.Dim),
		maximal: map[int32]int8{}, horizon: opts.horizon, horizonT: opts.horizonT,
	}
	var initial []int32
	for i := range int32(g.Len()) {
		if g.Node(i).Parent < 0 {
			initial = append(initial, i)
		}
	}
	neg := func(f *model.Formula) *model.Formula {
		return &model.Formula{Kind: model.FNot, Args: []*model.Formula{f}, Src: "!(" + f.Src + ")"}
	}
	var w *lasso
	var err error
	switch q.Kind {
	case syntax.QueryEG, syntax.QueryAF:
		p := q.Formula
		if q.Kind == syntax.QueryAF {
			p = neg(p)
		}
		r.Goal = p
		w, err = lg.eventuallyAlways(initial, p)
	case syntax.QueryLeadsTo:
		r.Goal = neg(q.Formula2)
		w, err = lg.leadsToViolation(q.Formula, q.Formula2, neg(q.Formula2))
	}
	if err != nil {
		r.Verdict, r.TraceErr = Error, err
		return r
	}
	found := w != nil
	switch {
	case q.Kind == syntax.QueryEG && found:
		r.Verdict = Satisfied
	case q.Kind == syntax.QueryEG:
		r.Verdict = Violated
	case found:
		r.Verdict = Violated
	default:
		r.Verdict = Satisfied
	}
	if found && !opts.NoTrace {
		var goal *model.Formula
		switch {
		case w.dead:
			goal = &model.Formula{Kind: model.FDeadlock, Src: "deadlock"}
		case w.horizon:
			goal = &model.Formula{Kind: model.FClock, Clock: model.ClockConstraint{I: 0, J: opts.horizon, Const: -opts.horizonT}, Src: "the horizon"}
		}
		moves, cycle, err := g.Run(w.start, w.steps, w.cycle)
		if err != nil {
			r.TraceErr = err
			return r
		}
		r.Trace, r.TraceErr = withinTraceLimits(opts, func(stop func() bool) (*Trace, error) {
			return buildLasso(sys, opts.From, moves, cycle, goal, nil, stop)
		})
		if r.Trace != nil {
			switch {
			case w.cycle > 0:
			case w.dead:
				r.Trace.End = "the run ends here: no transition is possible now or after any delay"
			case w.horizon:
				r.Trace.End = "the run ends here, at the time horizon (--within)"
			default:
				r.Trace.End = "the run may stay here forever: time can pass without bound (no invariant forces a move)"
			}
		}
	}
	return r
}

// eventuallyAlways looks for a witness of E[] p from the initial nodes.
func (lg *livenessGraph) eventuallyAlways(initial []int32, p *model.Formula) (*lasso, error) {
	in, cyclic, err := lg.subgraph(p)
	if err != nil {
		return nil, err
	}
	return lg.lassoFrom(initial, in, cyclic)
}

// lassoFrom finds the nearest node, reachable from from within in, that
// lies on a cycle of in or is maximal, and returns the path to it (with
// the cycle).
func (lg *livenessGraph) lassoFrom(from []int32, in, cyclic []bool) (*lasso, error) {
	dead := false
	steps, start, end, err := lg.pathWithin(from, in, func(x int32) (bool, error) {
		if cyclic[x] {
			dead = false
			return true, nil
		}
		ok, d, err := lg.isMaximal(x)
		dead = d
		return ok, err
	})
	if err != nil || end < 0 {
		return nil, err
	}
	w := &lasso{start: start, steps: steps, dead: dead}
	w.horizon = !cyclic[end] && !dead && lg.atHorizon(end)
	if cyclic[end] {
		cyc, err := lg.cycleFrom(end, in)
		if err != nil {
			return nil, err
		}
		w.steps = append(w.steps, cyc...)
		w.cycle = len(cyc)
	}
	return w, nil
}

// leadsToViolation looks for a reachable state satisfying p and not q from
// which a path keeps not q forever (E[] not q): the counterexample of
// p --> q.
func (lg *livenessGraph) leadsToViolation(p, q, notQ *model.Formula) (*lasso, error) {
	in, cyclic, err := lg.subgraph(notQ)
	if err != nil {
		return nil, err
	}
	// the nodes of the not-q subgraph from which a cycle or a maximal
	// node is reachable within it: backwards from those targets
	n := lg.g.Len()
	preds := make([][]int32, n)
	for i := range lg.g.Len() {
		if !in[i] {
			continue
		}
		for _, s := range lg.g.Succ(int32(i)) {
			if in[s] {
				preds[s] = append(preds[s], int32(i))
			}
		}
	}
	bad := make([]bool, n)
	for i := range lg.g.Len() {
		if !in[i] {
			continue
		}
		target := cyclic[i]
		if !target {
			if target, _, err = lg.isMaximal(int32(i)); err != nil {
				return nil, err
			}
		}
		bad[i] = target
	}
	markPredecessors(preds, bad)
	// the first reachable node (breadth-first order) with p, not q, bad
	for i := range lg.g.Len() {
		if !bad[i] {
			continue
		}
		hp, err := lg.holds(p, int32(i))
		if err != nil {
			return nil, err
		}
		if !hp {
			continue
		}
		start, prefix := lg.g.PathSteps(int32(i))
		w, err := lg.lassoFrom([]int32{int32(i)}, in, cyclic)
		if err != nil || w == nil {
			return nil, err
		}
		w.start, w.steps = start, append(prefix, w.steps...)
		return w, nil
	}
	return nil, nil
}

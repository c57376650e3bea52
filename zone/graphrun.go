package zone

import (
	"fmt"
	"slices"

	"github.com/tcheck/tcheck/dbm"
)

// GraphStep is an edge of a path in a Graph: from node From to node To by
// the move with index Move (Stepper.Moves order) of From's state.
type GraphStep struct {
	From, To, Move int32
}

// Step returns the step to node i's k-th successor (Succ order).
func (g *Graph) Step(i int32, k int) GraphStep {
	return GraphStep{From: i, To: g.Succ(i)[k], Move: g.SuccMoves(i)[k]}
}

// PathSteps returns the breadth-first tree's path to node i: the initial
// node it starts from and its steps.
func (g *Graph) PathSteps(i int32) (start int32, steps []GraphStep) {
	for x := i; ; {
		n := g.Node(x)
		if n.Parent < 0 {
			start = x
			break
		}
		steps = append(steps, GraphStep{From: n.Parent, To: x, Move: n.MoveIdx})
		x = n.Parent
	}
	slices.Reverse(steps)
	return start, steps
}

// maxCycleTurns bounds the turns Run repeats a cycle of representatives:
// the order of a permutation of the scalar sets, which closes it, is far
// below it for any set the search can handle.
const maxCycleTurns = 1 << 14

// Run returns the path that starts at the initial node start and takes
// steps as moves of a run of the model, and how many of the moves at its
// end form a cycle: where cycle > 0, the last cycle steps lead from a node
// back to it. Without symmetry reduction these are the nodes' own moves
// and cycle. Under symmetry each node stands for its orbit, and the path
// is mapped back from representatives as concretePath maps a passed
// list's (the run keeps c_i with node_i = σ_i(c_i) and takes the move of
// c_{i-1} whose successor is σ_{i-1}⁻¹ of node i-1's); a cycle of
// representatives leads from a state c to a permutation ρ(c) of it, so the
// run repeats it until it is back at c, at most the order of ρ times: a
// cycle of the unreduced zone graph (Emerson and Sistla, FMSD 1996).
func (g *Graph) Run(start int32, steps []GraphStep, cycle int) ([]Move, int, error) {
	if g.sym == nil {
		moves := make([]Move, 0, len(steps))
		for _, st := range steps {
			m, err := g.MoveTo(st.From, st.Move)
			if err != nil {
				return nil, 0, err
			}
			moves = append(moves, m)
		}
		return moves, cycle, nil
	}
	s := g.sys
	sym, why := newSymmetry(s)
	if sym == nil {
		return nil, 0, fmt.Errorf("internal error: a graph built under symmetry reduction has no symmetry (%s)", why)
	}
	xp := newExtrapolator(s, g.sym.extrap)
	stp := NewStepper(s)
	rep := newSymState(s)  // node i-1, a representative
	conc := newSymState(s) // c_{i-1}
	succ := newSymState(s) // node i-1's successor by the step's move
	want := newSymState(s) // σ_{i-1}⁻¹(succ)
	try := newSymState(s)  // a successor of c_{i-1}; then σ_{i-1}(c_i), a part of succ
	node := newSymState(s) // the node a part is compared with
	load := func(i int32, out *symState) { g.Decode(i, out.locs, out.vars, out.z) }
	// pick abstracts (locs, vars, z), z in place, finds the part whose
	// representative is node n, keeps it in out and returns the
	// permutation to n.
	pick := func(locs, vars []int32, z dbm.DBM, n int32, out *symState) (perm, error) {
		load(n, &node)
		parts, split := xp.apply(z, locs)
		if !split {
			parts = []dbm.DBM{z}
		}
		for _, p := range parts {
			cl, cv, cz, _, _ := sym.canon(locs, vars, p)
			if slices.Equal(cl, node.locs) && slices.Equal(cv, node.vars) && cz.Equal(node.z) {
				copy(out.locs, locs)
				copy(out.vars, vars)
				out.z.CopyFrom(p)
				return sym.canonPerm(), nil
			}
		}
		return nil, fmt.Errorf("internal error: a node of the zone graph is not the representative of a successor of its parent")
	}
	init := newSymState(s)
	ok, err := stp.InitialFrom(g.sym.start, init.locs, init.vars, init.z)
	if err != nil || !ok {
		return nil, 0, fmt.Errorf("internal error: the initial state of a trace is empty (%v)", err)
	}
	sigma, err := pick(init.locs, init.vars, init.z, start, &conc)
	if err != nil {
		return nil, 0, err
	}
	var moves []Move
	// follow takes step st from c_{i-1} (conc), whose representative is
	// st.From, to c_i.
	follow := func(st GraphStep) error {
		load(st.From, &rep)
		m, err := nthMove(stp, rep.locs, rep.vars, rep.z, st.Move)
		if err != nil {
			return err
		}
		ok, err := stp.Post(rep.locs, rep.vars, rep.z, m, succ.locs, succ.vars, succ.z)
		if err != nil || !ok {
			return fmt.Errorf("internal error: a move of a trace is not enabled at its representative (%v)", err)
		}
		inv := sigma.inverse()
		sym.apply(inv, succ.locs, succ.vars, succ.z, want.locs, want.vars, want.z, sym.ci)
		// the move of c_{i-1} whose successor is want
		found, err := moveReaching(stp, &conc, &want, &try)
		if err != nil {
			return err
		}
		moves = append(moves, found)
		// c_i: the part of the successor stored as st.To, unpermuted
		pi, err := pick(succ.locs, succ.vars, succ.z, st.To, &try)
		if err != nil {
			return err
		}
		sym.apply(inv, try.locs, try.vars, try.z, conc.locs, conc.vars, conc.z, sym.ci)
		sigma = sigma.then(pi)
		return nil
	}
	prefix := len(steps) - cycle
	for _, st := range steps[:prefix] {
		if err := follow(st); err != nil {
			return nil, 0, err
		}
	}
	if cycle == 0 {
		return moves, 0, nil
	}
	first := newSymState(s) // the state the cycle leaves
	copy(first.locs, conc.locs)
	copy(first.vars, conc.vars)
	first.z.CopyFrom(conc.z)
	for turns := 1; turns <= maxCycleTurns; turns++ {
		for _, st := range steps[prefix:] {
			if err := follow(st); err != nil {
				return nil, 0, err
			}
		}
		if conc.equal(&first) {
			return moves, turns * cycle, nil
		}
	}
	return nil, 0, fmt.Errorf("internal error: a cycle of symmetry representatives did not close after %d turns", maxCycleTurns)
}

package zone

import (
	"fmt"
	"slices"

	"github.com/tcheck/tcheck/dbm"
)

// symTrace is what a graph stored under symmetry reduction keeps to map
// its paths back to runs of the unreduced model: the extrapolation of the
// search, which concretePath repeats.
type symTrace struct {
	extrap Extrapolation
	start  *Start // Options.Initial
	// exactFirst: the representatives are those of the exact successors,
	// permuted after the abstraction (expander.storeSymmetricExact)
	exactFirst bool
}

// TraceMoves returns the moves from an initial state to parent, then last
// (nil: none), as a run of the model: on a graph stored under symmetry
// reduction the path through representatives is mapped back to the
// unreduced model (concretePath); otherwise it is PathMoves. A zero parent
// means that last leaves the initial state.
func (s *System) TraceMoves(parent Node, last Move) ([]Move, error) {
	if !parent.IsZero() && parent.g.sym != nil {
		return s.concretePath(parent, last)
	}
	var moves []Move
	if !parent.IsZero() {
		var err error
		if moves, err = s.PathMoves(parent); err != nil {
			return nil, err
		}
	}
	if last != nil {
		moves = append(moves, slices.Clone(last))
	}
	return moves, nil
}

// symState is a state during concretePath: discrete part and zone.
type symState struct {
	locs, vars []int32
	z          dbm.DBM
}

func newSymState(s *System) symState {
	return symState{locs: make([]int32, s.NProcs), vars: make([]int32, s.NVars), z: dbm.New(s.Dim)}
}

func (a *symState) equal(b *symState) bool {
	return slices.Equal(a.locs, b.locs) && slices.Equal(a.vars, b.vars) && a.z.Equal(b.z)
}

// concretePath maps the path to parent, then last, from representatives to
// a run of the unreduced model. Along the path, node i was stored as
// π_i(e_i), e_i an extrapolated successor of node i-1 by its move m_i; the
// concrete run keeps c_i with node_i = σ_i(c_i), σ_i = π_i∘σ_{i-1}, and
// takes from c_{i-1} the move whose successor is σ_{i-1}⁻¹ of node i-1's
// successor by m_i: the move σ_{i-1}⁻¹(m_i), found by comparing successors
// (a permutation commutes with the successor relation), so that moves need
// not be renamed themselves.
func (s *System) concretePath(parent Node, last Move) ([]Move, error) {
	sym, why := newSymmetry(s)
	if sym == nil {
		return nil, fmt.Errorf("internal error: a graph stored under symmetry reduction has no symmetry (%s)", why)
	}
	xp := newExtrapolator(s, parent.g.sym.extrap)
	st := NewStepper(s)
	path := parent.Path()

	rep := newSymState(s)  // the representative stored: node i-1
	conc := newSymState(s) // c_{i-1}
	succ := newSymState(s) // node i-1's successor by m_i
	want := newSymState(s) // σ⁻¹(succ)
	try := newSymState(s)  // c_{i-1}'s successor by a candidate move
	load := func(n Node) {
		s.Decode(n, rep.locs, rep.vars)
		n.LoadZone(rep.z)
	}
	// A node that a larger zone evicted may have lost its zone's bytes
	// (passedList.reclaim, only where the abstraction never splits a
	// zone): pick then takes the one part of the successor, whose
	// representative is the node's zone, and keeps it in next, from which
	// the path goes on instead of loading the node.
	gone := func(n Node) bool { return n.g.reclaimed && n.Covered() }
	next := newSymState(s)

	// pick finds the extrapolated part of (locs, vars, z) whose
	// representative is node n, stores it (unpermuted) in out and returns
	// the permutation to n.
	exactFirst := parent.g.sym.exactFirst
	permuted := dbm.New(s.Dim)
	pick := func(locs, vars []int32, z dbm.DBM, n Node, out *symState) (perm, error) {
		noZone := gone(n)
		if noZone {
			s.Decode(n, rep.locs, rep.vars)
		} else {
			load(n)
		}
		if exactFirst {
			// as storeSymmetricExact stored it: the exact successor's
			// representative, its permutation applied to each part
			xp.prepare(locs)
			xp.freeUnbounded(z, locs)
			cl, cv, _, ck, ci := sym.canon(locs, vars, z)
			if string(ck) == string(n.key()) && slices.Equal(cl, rep.locs) && slices.Equal(cv, rep.vars) {
				pi, ci := sym.canonPerm(), slices.Clone(ci)
				parts, split := xp.applyPrepared(z)
				if !split {
					parts = []dbm.DBM{z}
				}
				for _, p := range parts {
					permuteZone(p, ci, permuted)
					if noZone && len(parts) == 1 || !noZone && permuted.Equal(rep.z) {
						copy(out.locs, locs)
						copy(out.vars, vars)
						out.z.CopyFrom(p)
						copy(next.locs, cl)
						copy(next.vars, cv)
						next.z.CopyFrom(permuted)
						return pi, nil
					}
				}
			}
			return nil, fmt.Errorf("internal error: a stored state is not the representative of a successor of its parent")
		}
		parts, split := xp.apply(z, locs)
		if !split {
			parts = []dbm.DBM{z}
		}
		key := n.key()
		for _, p := range parts {
			cl, cv, cz, ck, _ := sym.canon(locs, vars, p)
			// equal for an exact search; under the convex hull, the node
			// holds the hull of this part and earlier ones
			if string(ck) == string(key) && slices.Equal(cl, rep.locs) && slices.Equal(cv, rep.vars) && (noZone && len(parts) == 1 || !noZone && cz.SubsetEq(rep.z)) {
				copy(out.locs, locs)
				copy(out.vars, vars)
				out.z.CopyFrom(p)
				copy(next.locs, cl)
				copy(next.vars, cv)
				next.z.CopyFrom(cz)
				return sym.canonPerm(), nil
			}
		}
		return nil, fmt.Errorf("internal error: a stored state is not the representative of a successor of its parent")
	}
	// at sets rep to node n, whose representative the last pick computed
	// into next.
	at := func(n Node) {
		if !gone(n) {
			load(n)
			return
		}
		copy(rep.locs, next.locs)
		copy(rep.vars, next.vars)
		rep.z.CopyFrom(next.z)
	}
	// step finds the move of conc whose successor is want.
	step := func() (Move, error) { return moveReaching(st, &conc, &want, &try) }
	// moveAt returns the move with index idx of the representative rep.
	moveAt := func(idx int32) (Move, error) { return nthMove(st, rep.locs, rep.vars, rep.z, idx) }

	// the initial state
	init := newSymState(s)
	ok, err := st.InitialFrom(parent.g.sym.start, init.locs, init.vars, init.z)
	if err != nil || !ok {
		return nil, fmt.Errorf("internal error: the initial state of a trace is empty (%v)", err)
	}
	sigma, err := pick(init.locs, init.vars, init.z, path[0], &conc)
	if err != nil {
		return nil, err
	}
	var moves []Move
	// follow reaches node's successor by m (a move of the representative
	// in rep), through c_{i-1} = conc.
	follow := func(m Move) (Move, error) {
		ok, err := st.Post(rep.locs, rep.vars, rep.z, m, succ.locs, succ.vars, succ.z)
		if err != nil || !ok {
			return nil, fmt.Errorf("internal error: a move of a trace is not enabled at its representative (%v)", err)
		}
		sym.apply(sigma.inverse(), succ.locs, succ.vars, succ.z, want.locs, want.vars, want.z, sym.ci)
		return step()
	}
	for i := 1; i < len(path); i++ {
		at(path[i-1])
		m, err := moveAt(path[i].g.rec(path[i].id).moveIdx)
		if err != nil {
			return nil, err
		}
		cm, err := follow(m)
		if err != nil {
			return nil, err
		}
		moves = append(moves, cm)
		// c_i: the part of the successor stored as node i, unpermuted
		pi, err := pick(succ.locs, succ.vars, succ.z, path[i], &try)
		if err != nil {
			return nil, err
		}
		inv := sigma.inverse()
		sym.apply(inv, try.locs, try.vars, try.z, conc.locs, conc.vars, conc.z, sym.ci)
		sigma = sigma.then(pi)
	}
	if last != nil {
		at(path[len(path)-1])
		cm, err := follow(last)
		if err != nil {
			return nil, err
		}
		moves = append(moves, cm)
	}
	return moves, nil
}

// moveReaching returns the move of the state from whose successor is want
// (try is scratch): the move of an unreduced state that a move between
// representatives stands for. A move whose update fails has no
// successor, so it is not the one sought (the representative's moves come
// in another order: the search may have stopped, at a goal, before it met
// that error there).
func moveReaching(st *Stepper, from, want, try *symState) (Move, error) {
	var found Move
	var perr error
	err := st.Moves(from.locs, from.vars, from.z, func(m Move) bool {
		ok, err := st.Post(from.locs, from.vars, from.z, m, try.locs, try.vars, try.z)
		if err != nil {
			if perr == nil {
				perr = err
			}
			return true
		}
		if ok && try.equal(want) {
			found = slices.Clone(m)
			return false
		}
		return true
	})
	if err == nil && found == nil {
		err = perr
	}
	if err == nil && found == nil {
		err = fmt.Errorf("no move of the model matches a move between symmetry representatives: the model is not symmetric in its scalar sets (a loop over a set whose effect depends on the order of its values?); check it with --symmetry off")
	}
	return found, err
}

// nthMove returns the move with index idx (Stepper.Moves order) of the
// state (locs, vars, z).
func nthMove(st *Stepper, locs, vars []int32, z dbm.DBM, idx int32) (Move, error) {
	var found Move
	k := int32(0)
	err := st.Moves(locs, vars, z, func(m Move) bool {
		if k == idx {
			found = slices.Clone(m)
			return false
		}
		k++
		return true
	})
	if err == nil && found == nil {
		err = errMoveNotFound
	}
	return found, err
}

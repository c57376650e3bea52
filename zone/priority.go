package zone

import (
	"slices"

	"github.com/tcheck/tcheck/dbm"
	"github.com/tcheck/tcheck/model"
)

// Priorities (UPPAAL's chan priority and system A < B): an action
// transition is taken only at valuations where no transition of strictly
// higher priority is enabled (docs.uppaal.org, Semantics: "There is no
// action transition from (L, v) with a strictly higher priority"); delays
// are never blocked. Where a move h is enabled is a convex set: its clock
// guard (with the skips of a broadcast) and the target invariant carried
// back through its resets, a conjunction c_0 ∧ … ∧ c_{m-1} of constraints
// on the source valuation. A move t of lower priority is taken where none
// of the higher moves is enabled, the intersection over them of the
// negations ¬(c_0 ∧ … ∧ c_{m-1}) = ∨_k (c_0 ∧ … ∧ c_{k-1} ∧ ¬c_k): one
// convex piece per choice of k for each higher move. prioritised emits t
// once per choice, with the chosen constraints appended (ConstraintRef),
// so that every successor stays one zone and Post, Effect and the traces
// need nothing else. A higher move whose conjunction is empty (enabled at
// every valuation) blocks t entirely; one whose target invariant fails on
// data, or holds no valuation after its resets, blocks nothing.

// preMove is a move before priorities: its priority and where it is
// enabled (always: no constraint; never: blocks nothing).
type preMove struct {
	m       Move
	prio    int64
	enabled []dbm.Constraint
	never   bool
}

// prioritised is Moves for a model with priorities. With a zone z, the
// pieces are enumerated depth first over the higher moves, and a branch is
// cut as soon as its constraints leave nothing of z (the number of pieces
// is then that of the non-empty ones, not the product); the higher moves
// are first reduced to distinct, minimal sets of constraints (a move whose
// constraints include another's is enabled only where that one is).
func (st *Stepper) prioritised(locs, vars []int32, z dbm.DBM, fn func(Move) bool) error {
	var pre []preMove
	// the moves before priorities, the choices of a broadcast whose clock
	// guards miss z cut (broadcastCut): such a move has no successor from
	// z, and as a higher move it is enabled nowhere in z, so it blocks
	// nothing there; kept, it would only split the lower moves into
	// pieces whose union is the same (and, with n guarded receivers, 2^n
	// of them to enumerate: 12 receivers under a channel priority took
	// 7.7 s, docs/results.md)
	if err := st.moves(locs, vars, z, func(m Move) bool {
		pre = append(pre, preMove{m: append(Move(nil), m...)})
		return true
	}); err != nil {
		return err
	}
	net := st.sys.Net
	tl := make([]int32, st.sys.NProcs)
	tv := make([]int32, st.sys.NVars)
	var guards []dbm.Constraint
	var resets []model.Reset
	var inv []dbm.Constraint
	val := make([]int32, st.sys.Dim)
	reset := make([]bool, st.sys.Dim)
	for i := range pre {
		p := &pre[i]
		ch, err := st.moveChannel(locs, vars, p.m)
		if err != nil {
			return err
		}
		p.prio = net.Priority(ch, func(yield func(int32) bool) {
			for _, r := range p.m.Taken() {
				if !yield(r.Proc) {
					return
				}
			}
		})
		// A model error in p's update (or target invariant) is raised where
		// p itself is taken (Post), if it is taken at all: its guard may
		// meet no valuation here, or a move above it may block it. Where
		// its guard holds, p is taken rather than any lower move (its
		// error ends the run there), so it blocks the lower moves there,
		// as the reference checker, which fires the levels from the
		// highest, and the replay see it. A guard that cannot be
		// evaluated blocks everything below: p's Post raises that error.
		guards, resets, err = st.Effect(locs, vars, p.m, tl, tv, guards[:0], resets[:0])
		var ok bool
		if err == nil {
			inv, ok, err = st.Invariant(tl, tv, inv[:0])
		}
		if err != nil {
			if Interrupted(err) {
				return err
			}
			if guards, err = st.Guards(locs, vars, p.m, guards[:0]); err == nil {
				p.enabled = sortedConstraints(append(p.enabled, guards...))
			} else if Interrupted(err) {
				return err
			}
			continue
		}
		if !ok {
			p.never = true
			continue
		}
		clear(reset)
		for _, r := range resets {
			val[r.Clock], reset[r.Clock] = r.Value, true
		}
		reset[0], val[0] = true, 0
		p.enabled = append(p.enabled, guards...)
		for _, c := range inv {
			ri, rj := reset[c.I], reset[c.J]
			switch {
			case ri && rj:
				if dbm.LE(val[c.I]-val[c.J]) > c.B {
					p.never = true
				}
			case ri:
				p.enabled = append(p.enabled, dbm.Constraint{I: 0, J: c.J, B: c.B.Add(dbm.LE(-val[c.I]))})
			case rj:
				p.enabled = append(p.enabled, dbm.Constraint{I: c.I, J: 0, B: c.B.Add(dbm.LE(val[c.J]))})
			default:
				p.enabled = append(p.enabled, c)
			}
		}
		p.enabled = sortedConstraints(p.enabled)
	}
	var higher []int
	var move Move
	var zs []dbm.DBM
	prune := z.M != nil
	for i := range pre {
		t := &pre[i]
		higher = higher[:0]
		blocked := false
		for j := range pre {
			h := &pre[j]
			if h.prio <= t.prio || h.never {
				continue
			}
			if len(h.enabled) == 0 {
				blocked = true
				break
			}
			// keep the minimal constraint sets: drop h if a kept one's
			// constraints are among h's, drop kept ones that h's are among
			redundant := false
			keep := higher[:0]
			for _, k := range higher {
				switch {
				case redundant:
					keep = append(keep, k)
				case subset(pre[k].enabled, h.enabled):
					redundant = true
					keep = append(keep, k)
				case !subset(h.enabled, pre[k].enabled):
					keep = append(keep, k)
				}
			}
			higher = keep
			if !redundant {
				higher = append(higher, j)
			}
		}
		if blocked {
			continue
		}
		move = append(move[:0], t.m...)
		if prune {
			for len(zs) < len(higher)+1 {
				zs = append(zs, dbm.New(z.Dim))
			}
			// (t's own guard is Post's business: a model error in its
			// update must still be found where the guard holds)
			zs[0].CopyFrom(z)
		}
		// depth first: at depth d, which constraint of higher[d] fails
		var rec func(d int) bool
		rec = func(d int) bool {
			if d == len(higher) {
				return fn(move)
			}
			cs := pre[higher[d]].enabled
			n := len(move)
			for k := range cs {
				move = move[:n]
				for _, c := range cs[:k] {
					move = append(move, ConstraintRef(c))
				}
				move = append(move, ConstraintRef(cs[k].Neg()))
				if prune {
					zs[d+1].CopyFrom(zs[d])
					if !st.constrainAll(zs[d+1], cs[:k]) || !zs[d+1].Constrain(cs[k].J, cs[k].I, cs[k].B.Neg()) {
						continue
					}
				}
				if !rec(d + 1) {
					return false
				}
			}
			move = move[:n]
			return true
		}
		if !rec(0) {
			return nil
		}
	}
	return nil
}

// constrainAll applies cs to z and reports whether it stays non-empty.
func (st *Stepper) constrainAll(z dbm.DBM, cs []dbm.Constraint) bool {
	for _, c := range cs {
		if !z.Constrain(c.I, c.J, c.B) {
			return false
		}
	}
	return true
}

// sortedConstraints sorts cs and drops duplicates (in place).
func sortedConstraints(cs []dbm.Constraint) []dbm.Constraint {
	slices.SortFunc(cs, func(a, b dbm.Constraint) int {
		if a.I != b.I {
			return a.I - b.I
		}
		if a.J != b.J {
			return a.J - b.J
		}
		return int(a.B) - int(b.B)
	})
	return slices.Compact(cs)
}

// subset reports whether every constraint of a is in b.
func subset(a, b []dbm.Constraint) bool {
	for _, c := range a {
		if !slices.Contains(b, c) {
			return false
		}
	}
	return true
}

// moveChannel returns the channel of m's first edge (the sender), or -1
// for an internal move.
func (st *Stepper) moveChannel(locs, vars []int32, m Move) (int32, error) {
	e := &st.sys.Net.Procs[m[0].Proc].Edges[m[0].Edge]
	if e.SyncExpr == nil {
		return int32(e.Sync), nil
	}
	env := st.env
	env.Vars, env.Locs = vars, locs
	ch := e.SyncExpr(env)
	if env.Err != nil {
		return 0, st.runtimeErr(m)
	}
	return ch, nil
}

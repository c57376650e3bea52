package zone

import (
	"fmt"

	"github.com/tcheck/tcheck/dbm"
	"github.com/tcheck/tcheck/model"
)

// maxSkips bounds the ways one process may stay out of one broadcast: the
// product over its data-enabled receiving edges of the constraints of their
// clock guards (each a move of its own).
const maxSkips = 1 << 16

// recvGroup is the receiving edges of one process for a broadcast: the
// indices [start, end) into the channel's receiver list, and how many ways
// the process can stay out (skip: 0 when one of its data-enabled receiving
// edges has no clock guard, since that edge is then enabled at every
// valuation and the process must receive).
type recvGroup struct {
	start, end int32
	skips      int32
}

// broadcastCutOn is false only in tests that compare broadcastCut with the
// whole product.
var broadcastCutOn = true

// broadcastScratch is broadcastCut's: the zone of the choices made so far,
// the entries they changed (dbm.ConstrainLog), and the bounds of the
// sender's clock guard followed by those of each receiving edge, at[pos]
// the first of the edge at position pos of the channel's receivers.
type broadcastScratch struct {
	z      dbm.DBM
	log    []dbm.Change
	bounds []dbm.Bound
	at     []int32
}

// broadcast emits the sender e with every choice of receivers: for each
// other process with a receiving edge on e's channel whose data guard
// holds, one of those edges, or, where each of them has a clock guard, the
// process stays out with a skip per edge naming the constraint of its
// clock guard that fails (SkipRef; UPPAAL's rule since version 4.1: a
// process takes part exactly where one of its receiving edges is enabled).
// The choices are disjoint: where a process receives by one edge and could
// by another, both moves are emitted, as for any nondeterministic choice.
//
// The choices are a product over the receiving processes, in odometer
// order, the last process fastest. Given the source zone z (z.M not nil),
// the choices whose clock guards leave nothing of z are left out
// (broadcastCut): with clock guards in n receivers the product has 2^n
// moves (24 receivers: 16 M, ten seconds for one state), of which the
// zone usually keeps a few.
func (st *Stepper) broadcast(e enabledEdge, z dbm.DBM, emit func(Move) bool) bool {
	es := &st.cur
	rs := es.recvs[e.ch]
	procs := st.sys.Net.Procs
	st.groups = st.groups[:0]
	for k := 0; k < len(rs); {
		p := es.enabled[rs[k]].proc
		end := k + 1
		for end < len(rs) && es.enabled[rs[end]].proc == p {
			end++
		}
		if p != e.proc {
			skips := int64(1)
			for _, ri := range rs[k:end] {
				r := es.enabled[ri]
				skips *= int64(len(procs[r.proc].Edges[r.edge].ClockGuard))
				if skips > maxSkips {
					// not silently cut: the model is refused at this state
					st.moveErr = &ModelError{Err: &model.RuntimeError{Pos: procs[r.proc].Edges[r.edge].SyncSrc, Msg: fmt.Sprintf("process %s has more than %d ways to stay out of a broadcast (the clock guards of its receiving edges on one channel have too many constraints)", procs[p].Name, maxSkips)}, Move: Move{{e.proc, e.edge}}}
					return false
				}
			}
			st.groups = append(st.groups, recvGroup{int32(k), int32(end), int32(skips)})
		}
		k = end
	}
	st.odometer = st.odometer[:0]
	for range st.groups {
		st.odometer = append(st.odometer, 0)
	}
	if z.M != nil && st.sys.movesReadZone && broadcastCutOn {
		if cut, ok := st.broadcastCut(e, z, emit); ok {
			return cut
		}
	}
	for {
		if !st.emitBroadcast(e, emit) {
			return false
		}
		// advance the odometer, last group fastest
		g := len(st.groups) - 1
		for ; g >= 0; g-- {
			gr := st.groups[g]
			st.odometer[g]++
			if st.odometer[g] < gr.end-gr.start+gr.skips {
				break
			}
			st.odometer[g] = 0
		}
		if g < 0 {
			return true
		}
	}
}

// emitBroadcast builds the move of the odometer's choices and emits it,
// polling the interrupt; it reports false where the enumeration is to
// stop (emit said so, or st.moveErr is set).
func (st *Stepper) emitBroadcast(e enabledEdge, emit func(Move) bool) bool {
	es := &st.cur
	rs := es.recvs[e.ch]
	procs := st.sys.Net.Procs
	st.move = append(st.move[:0], EdgeRef{e.proc, e.edge})
	skipping := false
	for gi, g := range st.groups {
		if v := st.odometer[gi]; v < g.end-g.start {
			r := es.enabled[rs[g.start+v]]
			st.move = append(st.move, EdgeRef{r.proc, r.edge})
		} else {
			skipping = true
		}
	}
	if skipping {
		for gi, g := range st.groups {
			s := st.odometer[gi] - (g.end - g.start)
			if s < 0 {
				continue
			}
			// s in mixed radix, one digit per edge (the number of
			// constraints of its clock guard), first edge fastest
			for _, ri := range rs[g.start:g.end] {
				r := es.enabled[ri]
				m := int32(len(procs[r.proc].Edges[r.edge].ClockGuard))
				st.move = append(st.move, SkipRef(r.proc, r.edge, s%m))
				s /= m
			}
		}
	}
	if !emit(st.move) {
		return false
	}
	return st.pollCombo(e)
}

// pollCombo counts a broadcast move (or a choice of broadcastCut) and
// polls the interrupt every 1024: one state may have millions of broadcast
// moves (receivers with several enabled edges each, in many processes:
// every choice is a move), each evaluated too briefly to poll the limits
// itself. It reports false, with st.moveErr set, when the search is to
// stop.
func (st *Stepper) pollCombo(e enabledEdge) bool {
	if st.combos++; st.combos%1024 == 0 && st.env.Interrupt != nil && st.env.Interrupt() {
		procs := st.sys.Net.Procs
		st.moveErr = &ModelError{Err: &model.RuntimeError{Pos: procs[e.proc].Edges[e.edge].SyncSrc, Msg: "evaluation interrupted (time limit or cancellation) among the moves of a broadcast", Interrupted: true}, Move: Move{{e.proc, e.edge}}}
		return false
	}
	return true
}

// broadcastCut is broadcast's enumeration in z: depth first over the
// groups in odometer order, each choice's clock guard (a receiving edge's,
// or a skip's constraints with the failing one negated) intersected with
// the zone of the choices above it, and a branch cut where that leaves
// nothing. The moves emitted are those of the full product, in its order,
// less those whose clock guards alone (the sender's and every choice's)
// leave nothing of z, for which Post reports no successor. So the moves a
// search stores indices of depend on z: the passed list keeps the zones
// of evicted states and PathMoves reads them (System.movesReadZone), as
// for priorities.
//
// Post evaluates a move's constraints in its own order and stops at the
// first that empties the zone, and an expression in a bound may fail (an
// index out of range): a move whose bounds fail where Post would meet
// them must still be emitted, so the bounds are all evaluated first, and
// where one fails nothing is cut (ok false: broadcast enumerates the
// product). Otherwise cut reports whether the enumeration went to its end.
func (st *Stepper) broadcastCut(e enabledEdge, z dbm.DBM, emit func(Move) bool) (cut, ok bool) {
	es := &st.cur
	rs := es.recvs[e.ch]
	procs := st.sys.Net.Procs
	env := st.env
	env.Vars, env.Locs = st.curVars, st.curLocs
	bc := &st.bcast
	bc.bounds = bc.bounds[:0]
	bc.at = bc.at[:0]
	eval := func(p, ei int32) bool {
		for k := range procs[p].Edges[ei].ClockGuard {
			b := constraintBound(&procs[p].Edges[ei].ClockGuard[k], env)
			if env.Err != nil {
				env.Err = nil
				return false
			}
			bc.bounds = append(bc.bounds, b)
		}
		return true
	}
	if !eval(e.proc, e.edge) {
		return false, false
	}
	for _, ri := range rs {
		r := es.enabled[ri]
		bc.at = append(bc.at, int32(len(bc.bounds)))
		if !eval(r.proc, r.edge) {
			return false, false
		}
	}
	if bc.z.Dim != z.Dim {
		bc.z = dbm.New(z.Dim)
	}
	bc.z.CopyFrom(z)
	bc.log = bc.log[:0]
	sender := procs[e.proc].Edges[e.edge].ClockGuard
	for k := range sender {
		c := &sender[k]
		var in bool
		if bc.log, in = bc.z.ConstrainLog(c.I, c.J, bc.bounds[k], bc.log); !in {
			return true, true // the sender's guard leaves nothing of z
		}
	}
	return st.cutGroup(e, 0, emit), true
}

// cutGroup enumerates the choices of groups gi and after in bc.z (see
// broadcastCut), reporting false where the enumeration is to stop.
func (st *Stepper) cutGroup(e enabledEdge, gi int, emit func(Move) bool) bool {
	if gi == len(st.groups) {
		return st.emitBroadcast(e, emit)
	}
	bc := &st.bcast
	es := &st.cur
	rs := es.recvs[e.ch]
	procs := st.sys.Net.Procs
	g := st.groups[gi]
	for v := int32(0); v < g.end-g.start+g.skips; v++ {
		if !st.pollCombo(e) {
			return false
		}
		st.odometer[gi] = v
		mark := len(bc.log)
		in := true
		if v < g.end-g.start {
			pos := g.start + v
			r := es.enabled[rs[pos]]
			for k := 0; k < len(procs[r.proc].Edges[r.edge].ClockGuard) && in; k++ {
				in = st.cutConstrain(rs, pos, k, false)
			}
		} else {
			// the skip's digits as emitBroadcast reads them: for each
			// edge, its constraints before the failing one, and that one
			// negated
			s := v - (g.end - g.start)
			for pos := g.start; pos < g.end && in; pos++ {
				r := es.enabled[rs[pos]]
				m := int32(len(procs[r.proc].Edges[r.edge].ClockGuard))
				fail := int(s % m)
				s /= m
				for k := 0; k <= fail && in; k++ {
					in = st.cutConstrain(rs, pos, k, k == fail)
				}
			}
		}
		more := !in || st.cutGroup(e, gi+1, emit)
		bc.log = bc.z.Undo(bc.log, mark)
		if !more {
			return false
		}
	}
	st.odometer[gi] = 0
	return true
}

// cutConstrain imposes on the zone of broadcastCut constraint k of the
// receiving edge at position pos of the channel's receivers rs (negated:
// a skip's failing constraint) and reports whether the zone is left
// non-empty.
func (st *Stepper) cutConstrain(rs []int32, pos int32, k int, negated bool) bool {
	bc := &st.bcast
	r := st.cur.enabled[rs[pos]]
	c := &st.sys.Net.Procs[r.proc].Edges[r.edge].ClockGuard[k]
	i, j, b := c.I, c.J, bc.bounds[bc.at[pos]+int32(k)]
	if negated {
		i, j, b = j, i, b.Neg()
	}
	var in bool
	bc.log, in = bc.z.ConstrainLog(i, j, b, bc.log)
	return in
}

package zone

import (
	"fmt"

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

// broadcast emits the sender e with every choice of receivers: for each
// other process with a receiving edge on e's channel whose data guard
// holds, one of those edges, or, where each of them has a clock guard, the
// process stays out with a skip per edge naming the constraint of its
// clock guard that fails (SkipRef; UPPAAL's rule since version 4.1: a
// process takes part exactly where one of its receiving edges is enabled).
// The choices are disjoint: where a process receives by one edge and could
// by another, both moves are emitted, as for any nondeterministic choice.
func (st *Stepper) broadcast(e enabledEdge, emit func(Move) bool) bool {
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
	for {
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
		// One state may have millions of broadcast moves (receivers with
		// several enabled edges each, in many processes: every choice is a
		// move), each evaluated too briefly to poll the limits itself: the
		// time limit and cancellation are polled between them.
		if st.combos++; st.combos%1024 == 0 && st.env.Interrupt != nil && st.env.Interrupt() {
			st.moveErr = &ModelError{Err: &model.RuntimeError{Pos: procs[e.proc].Edges[e.edge].SyncSrc, Msg: "evaluation interrupted (time limit or cancellation) among the moves of a broadcast", Interrupted: true}, Move: Move{{e.proc, e.edge}}}
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

package zone

import (
	"slices"

	"github.com/tcheck/tcheck/dbm"
)

// The moves of a discrete state, by transition kind: collectEnabled finds
// the edges whose data guards hold, Moves turns them into internal moves,
// binary synchronisations (binary) and broadcasts (broadcast.go), and
// drops, when a process is in a committed location, every move that no
// committed process takes part in (UPPAAL's committed rule); in a model
// with priorities, each move then carries the constraints under which no
// move of higher priority is enabled (priority.go).

// collectEnabled fills es with the edges whose data guards hold in
// (locs, vars), in process and edge order, and indexes receivers by channel.
//
// A receiving edge on a fixed channel takes part only in a move with a
// sender on that channel, so its guard is evaluated only when such a sender
// is enabled: a first pass evaluates the other edges and records the
// receivers in place, a second one decides those whose channel has a
// sender and drops the rest (in the agreement model most edges are the
// idle Broadcast automata's receptions, `b[id]?` under the loop of
// turn(), and a sender on b[id] is rarely enabled). So a runtime error in
// such a guard is reported where a sender could use the edge, not before.
// A receiver whose channel depends on data is evaluated at once, guard
// first, as before.
func (st *Stepper) collectEnabled(es *enabledSet, locs, vars []int32) error {
	for _, c := range es.touched {
		es.recvs[c] = es.recvs[c][:0]
	}
	es.touched = es.touched[:0]
	for _, c := range es.sent {
		es.sending[c] = false
	}
	es.sent = es.sent[:0]
	es.enabled = es.enabled[:0]
	env := st.env
	env.Vars, env.Locs = vars, locs
	deferred := false
	for p, proc := range st.sys.Net.Procs {
		loc := &proc.Locations[locs[p]]
		for _, ei := range loc.Out {
			e := &proc.Edges[ei]
			if e.Sync >= 0 && !e.Send && e.SyncExpr == nil {
				es.enabled = append(es.enabled, enabledEdge{proc: int32(p), edge: int32(ei), ch: int32(e.Sync), pending: true})
				deferred = true
				continue
			}
			if e.Guard != nil {
				ok := e.Guard(env)
				if env.Err != nil {
					return st.runtimeErr(Move{{int32(p), int32(ei)}})
				}
				if !ok {
					continue
				}
			}
			ch := int32(e.Sync)
			if e.SyncExpr != nil {
				ch = e.SyncExpr(env)
				if env.Err != nil {
					return st.runtimeErr(Move{{int32(p), int32(ei)}})
				}
			}
			es.enabled = append(es.enabled, enabledEdge{proc: int32(p), edge: int32(ei), ch: ch, send: e.Send})
			if ch >= 0 && e.Send && !es.sending[ch] {
				es.sending[ch] = true
				es.sent = append(es.sent, ch)
			}
		}
	}
	if deferred {
		// the deferred receivers: keep those with a sender and a true guard
		kept := es.enabled[:0]
		for _, ee := range es.enabled {
			if ee.pending {
				if !es.sending[ee.ch] {
					continue
				}
				ee.pending = false
				if g := st.sys.Net.Procs[ee.proc].Edges[ee.edge].Guard; g != nil {
					ok := g(env)
					if env.Err != nil {
						return st.runtimeErr(Move{{ee.proc, ee.edge}})
					}
					if !ok {
						continue
					}
				}
			}
			kept = append(kept, ee)
		}
		es.enabled = kept
	}
	for i, ee := range es.enabled {
		if ch := ee.ch; ch >= 0 && !ee.send {
			if len(es.recvs[ch]) == 0 {
				es.touched = append(es.touched, ch)
			}
			es.recvs[ch] = append(es.recvs[ch], int32(i))
		}
	}
	return nil
}

// Moves calls fn for every transition enabled in the discrete state (locs,
// vars), as far as data guards and the committed rule decide (clock guards
// are left to Post), in deterministic order. The Move passed to fn is
// scratch: copy it to keep it. fn returns false to stop.
//
// z is the zone of the state: in a model with priorities the moves are
// the pieces of z where no higher move is enabled (priority.go), and
// pieces empty in z are left out; in a model with clock guards on
// broadcast receivers the choices of receivers whose clock guards leave
// nothing of z are left out (broadcastCut). In those models
// (System.movesReadZone) the order, and a move's index in it, which paths
// store, depends on z too; it is not read otherwise (a zero DBM: nothing
// is left out).
func (st *Stepper) Moves(locs, vars []int32, z dbm.DBM, fn func(Move) bool) error {
	if st.sys.Net.Priorities {
		return st.prioritised(locs, vars, z, fn)
	}
	return st.moves(locs, vars, z, fn)
}

// moves is Moves without priorities.
func (st *Stepper) moves(locs, vars []int32, z dbm.DBM, fn func(Move) bool) error {
	if !st.curFor(locs, vars) {
		st.curValid = false // until cur is filled without error
		if err := st.collectEnabled(&st.cur, locs, vars); err != nil {
			return err
		}
		st.curLocs = append(st.curLocs[:0], locs...)
		st.curVars = append(st.curVars[:0], vars...)
		st.curValid = true
	}
	st.moveErr = nil
	defer func() { st.moveErr = nil }()
	es := &st.cur
	emit := fn
	if st.sys.hasCommitted && st.inCommitted(locs) {
		emit = func(m Move) bool { return !st.involvesCommitted(locs, m) || fn(m) }
	}
	for i := range es.enabled {
		e := es.enabled[i]
		switch {
		case e.ch < 0:
			st.move = append(st.move[:0], EdgeRef{e.proc, e.edge})
			if !emit(st.move) {
				return nil
			}
		case !e.send:
			// receivers move only with a sender
		case !st.sys.Net.Chans[e.ch].Broadcast:
			if !st.binary(e, emit) {
				return nil
			}
		default:
			if !st.broadcast(e, z, emit) {
				return st.moveErr
			}
		}
	}
	return nil
}

// curFor reports whether st.cur holds the enabled edges of (locs, vars)
// already: data guards and channel indices depend on the discrete state
// alone, so enumerating again the moves of the state enumerated last
// (the deadlock predicate of several formulas on one state, on one
// Checker's Stepper) reuses them.
func (st *Stepper) curFor(locs, vars []int32) bool {
	return st.curValid && slices.Equal(st.curLocs, locs) && slices.Equal(st.curVars, vars)
}

// binary emits the sender e with each enabled receiver of its channel in
// another process, in process and edge order.
func (st *Stepper) binary(e enabledEdge, emit func(Move) bool) bool {
	es := &st.cur
	for _, ri := range es.recvs[e.ch] {
		r := es.enabled[ri]
		if r.proc == e.proc {
			continue
		}
		st.move = append(st.move[:0], EdgeRef{e.proc, e.edge}, EdgeRef{r.proc, r.edge})
		if !emit(st.move) {
			return false
		}
	}
	return true
}

// inCommitted reports whether a process is in a committed location.
func (st *Stepper) inCommitted(locs []int32) bool {
	for p, proc := range st.sys.Net.Procs {
		if proc.Locations[locs[p]].Committed {
			return true
		}
	}
	return false
}

// involvesCommitted reports whether a process of m is in a committed
// location: the moves allowed while one is.
func (st *Stepper) involvesCommitted(locs []int32, m Move) bool {
	procs := st.sys.Net.Procs
	for _, r := range m.Taken() {
		if procs[r.Proc].Locations[locs[r.Proc]].Committed {
			return true
		}
	}
	return false
}

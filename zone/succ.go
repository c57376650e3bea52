package zone

import (
	"errors"

	"github.com/tcheck/tcheck/dbm"
	"github.com/tcheck/tcheck/model"
)

// ModelError is a runtime error of the model (a variable assigned out of its
// range, an index out of bounds, a division by zero) met while computing the
// successors of a state along Move (nil for the initial state).
type ModelError struct {
	Err  *model.RuntimeError
	Move Move
}

func (e *ModelError) Error() string { return e.Err.Error() }

// Interrupted reports whether err is an evaluation stopped by
// model.Env.Interrupt (a time limit or a cancellation reached inside a long
// evaluation) rather than an error of the model.
func Interrupted(err error) bool {
	var me *ModelError
	if errors.As(err, &me) {
		return me.Err != nil && me.Err.Interrupted
	}
	var re *model.RuntimeError
	return errors.As(err, &re) && re.Interrupted
}

// SetInterrupt makes the stepper's long evaluations poll stop
// (model.Env.Interrupt): when it returns true the evaluation ends with an
// error for which Interrupted is true.
func (st *Stepper) SetInterrupt(stop func() bool) { st.env.Interrupt = stop }

// enabledEdge is an edge whose data guard holds in the current state.
type enabledEdge struct {
	proc, edge int32
	ch         int32 // channel index, -1 for an internal edge
	send       bool
}

// Stepper computes symbolic successors. It owns scratch space and is not
// safe for concurrent use; make one per goroutine.
type Stepper struct {
	sys *System
	env *model.Env

	cur, tgt enabledSet // enabled edges of the source state and of a target (urgent channels)
	move     Move
	groups   [][2]int32 // broadcast receiver groups: [start, end) into a recvs list
	odometer []int32

	// scratch for post
	invBuf []invBound
	upper  []dbm.Bound
	tmpZ   dbm.DBM
}

// enabledSet holds the edges enabled in one discrete state.
type enabledSet struct {
	enabled []enabledEdge
	recvs   [][]int32 // per channel: indices into enabled of its receivers
	touched []int32   // channels with non-empty recvs
}

type invBound struct {
	i, j int
	b    dbm.Bound
}

// NewStepper returns a successor generator for sys.
func NewStepper(sys *System) *Stepper {
	return &Stepper{
		sys:   sys,
		env:   sys.Net.NewEnv(),
		cur:   enabledSet{recvs: make([][]int32, len(sys.Net.Chans))},
		tgt:   enabledSet{recvs: make([][]int32, len(sys.Net.Chans))},
		tmpZ:  dbm.New(sys.Dim),
		upper: make([]dbm.Bound, sys.Dim),
	}
}

func (st *Stepper) runtimeErr(m Move) error {
	err := st.env.Err
	st.env.Err = nil
	return &ModelError{Err: err, Move: append(Move(nil), m...)}
}

// collectEnabled fills es with the edges whose data guards hold in
// (locs, vars), in process and edge order, and indexes receivers by channel.
func (st *Stepper) collectEnabled(es *enabledSet, locs, vars []int32) error {
	for _, c := range es.touched {
		es.recvs[c] = es.recvs[c][:0]
	}
	es.touched = es.touched[:0]
	es.enabled = es.enabled[:0]
	env := st.env
	env.Vars, env.Locs = vars, locs
	for p, proc := range st.sys.Net.Procs {
		loc := &proc.Locations[locs[p]]
		for _, ei := range loc.Out {
			e := &proc.Edges[ei]
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
			if ch >= 0 && !e.Send {
				if len(es.recvs[ch]) == 0 {
					es.touched = append(es.touched, ch)
				}
				es.recvs[ch] = append(es.recvs[ch], int32(len(es.enabled)-1))
			}
		}
	}
	return nil
}

// Moves calls fn for every transition enabled in the discrete state (locs,
// vars), as far as data guards and the committed rule decide (clock guards
// are left to Post), in deterministic order. The Move passed to fn is
// scratch: copy it to keep it. fn returns false to stop.
func (st *Stepper) Moves(locs, vars []int32, fn func(Move) bool) error {
	if err := st.collectEnabled(&st.cur, locs, vars); err != nil {
		return err
	}
	es := &st.cur
	committed := false
	if st.sys.hasCommitted {
		for p, proc := range st.sys.Net.Procs {
			if proc.Locations[locs[p]].Committed {
				committed = true
				break
			}
		}
	}
	procs := st.sys.Net.Procs
	involvesCommitted := func(m Move) bool {
		for _, r := range m {
			if procs[r.Proc].Locations[locs[r.Proc]].Committed {
				return true
			}
		}
		return false
	}
	emit := func(m Move) bool {
		if committed && !involvesCommitted(m) {
			return true
		}
		return fn(m)
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
			for _, ri := range es.recvs[e.ch] {
				r := es.enabled[ri]
				if r.proc == e.proc {
					continue
				}
				st.move = append(st.move[:0], EdgeRef{e.proc, e.edge}, EdgeRef{r.proc, r.edge})
				if !emit(st.move) {
					return nil
				}
			}
		default:
			if !st.broadcast(e, emit) {
				return nil
			}
		}
	}
	return nil
}

// broadcast emits the sender e with every combination of one enabled
// receiving edge per other process that has any.
func (st *Stepper) broadcast(e enabledEdge, emit func(Move) bool) bool {
	es := &st.cur
	rs := es.recvs[e.ch]
	st.groups = st.groups[:0]
	for k := 0; k < len(rs); {
		p := es.enabled[rs[k]].proc
		end := k + 1
		for end < len(rs) && es.enabled[rs[end]].proc == p {
			end++
		}
		if p != e.proc {
			st.groups = append(st.groups, [2]int32{int32(k), int32(end)})
		}
		k = end
	}
	st.odometer = st.odometer[:0]
	for _, g := range st.groups {
		st.odometer = append(st.odometer, g[0])
	}
	for {
		st.move = append(st.move[:0], EdgeRef{e.proc, e.edge})
		for _, k := range st.odometer {
			r := es.enabled[rs[k]]
			st.move = append(st.move, EdgeRef{r.proc, r.edge})
		}
		if !emit(st.move) {
			return false
		}
		// advance the odometer, last group fastest
		g := len(st.groups) - 1
		for ; g >= 0; g-- {
			st.odometer[g]++
			if st.odometer[g] < st.groups[g][1] {
				break
			}
			st.odometer[g] = st.groups[g][0]
		}
		if g < 0 {
			return true
		}
	}
}

// DelayAllowed reports whether time may pass in the discrete state (locs,
// vars): no process is in a committed or urgent location and no
// synchronisation on an urgent channel is enabled.
func (st *Stepper) DelayAllowed(locs, vars []int32) (bool, error) {
	if st.sys.hasCommitted || st.sys.hasUrgentLocs {
		for p, proc := range st.sys.Net.Procs {
			l := &proc.Locations[locs[p]]
			if l.Committed || l.Urgent {
				return false, nil
			}
		}
	}
	if !st.sys.hasUrgentChans {
		return true, nil
	}
	es := &st.tgt
	if err := st.collectEnabled(es, locs, vars); err != nil {
		return false, err
	}
	for _, e := range es.enabled {
		if e.ch < 0 || !e.send || !st.sys.Net.Chans[e.ch].Urgent {
			continue
		}
		if st.sys.Net.Chans[e.ch].Broadcast {
			return false, nil
		}
		for _, ri := range es.recvs[e.ch] {
			if es.enabled[ri].proc != e.proc {
				return false, nil
			}
		}
	}
	return true, nil
}

// applyInvariants constrains z by the invariants of locs (clock part) and
// reports false if the data part fails or z becomes empty. The bounds are
// remembered in st.invBuf so that delayWithInvariants need not evaluate again.
func (st *Stepper) applyInvariants(locs, vars []int32, z dbm.DBM) (bool, error) {
	env := st.env
	env.Vars, env.Locs = vars, locs
	st.invBuf = st.invBuf[:0]
	for p, proc := range st.sys.Net.Procs {
		l := &proc.Locations[locs[p]]
		if l.InvData != nil {
			ok := l.InvData(env)
			if env.Err != nil {
				return false, st.runtimeErr(nil)
			}
			if !ok {
				return false, nil
			}
		}
		for k := range l.Invariant {
			c := &l.Invariant[k]
			b := constraintBound(c, env)
			if env.Err != nil {
				return false, st.runtimeErr(nil)
			}
			st.invBuf = append(st.invBuf, invBound{c.I, c.J, b})
			if !z.Constrain(c.I, c.J, b) {
				return false, nil
			}
		}
	}
	return true, nil
}

// delayWithInvariants lets time pass in z, which satisfies the invariants
// recorded in st.invBuf by applyInvariants, and re-imposes them: only their
// upper bounds x ≺ c can be violated by delay (diagonals and lower bounds
// are unaffected), so this is dbm.UpBounded, O(Dim²).
func (st *Stepper) delayWithInvariants(z dbm.DBM) {
	up := st.upper
	for i := range up {
		up[i] = dbm.LTInf
	}
	for _, c := range st.invBuf {
		if c.j == 0 && c.i != 0 && c.b < up[c.i] {
			up[c.i] = c.b
		}
	}
	z.UpBounded(up)
}

// Initial computes the initial symbolic state into locs, vars (of lengths
// NProcs, NVars) and z: all clocks zero, delayed if allowed, constrained by
// the invariants. ok is false if the initial state violates an invariant.
func (st *Stepper) Initial(locs, vars []int32, z dbm.DBM) (ok bool, err error) {
	l0, v0 := st.sys.InitialDiscrete()
	copy(locs, l0)
	copy(vars, v0)
	z.Zero()
	return st.finish(locs, vars, z)
}

// finish applies the target invariants and, where allowed, the delay.
func (st *Stepper) finish(locs, vars []int32, z dbm.DBM) (bool, error) {
	ok, err := st.applyInvariants(locs, vars, z)
	if !ok || err != nil {
		return false, err
	}
	delay, err := st.DelayAllowed(locs, vars)
	if err != nil {
		return false, err
	}
	if delay {
		st.delayWithInvariants(z)
	}
	return true, nil
}

// Post computes the exact (non-extrapolated) successor of (locs, vars, z)
// along m into (dlocs, dvars, dz): clock guards, updates in move order,
// resets, target invariants, delay. ok is false when the successor is empty
// or violates an invariant's data part.
func (st *Stepper) Post(locs, vars []int32, z dbm.DBM, m Move, dlocs, dvars []int32, dz dbm.DBM) (ok bool, err error) {
	return st.PostEntry(locs, vars, z, m, dlocs, dvars, dbm.DBM{}, dz)
}

// PostEntry is Post that also stores in entry (when entry.M is not nil) the
// successor zone before the delay: the valuations with which the target is
// entered. Traces are concretised from these.
func (st *Stepper) PostEntry(locs, vars []int32, z dbm.DBM, m Move, dlocs, dvars []int32, entry, dz dbm.DBM) (ok bool, err error) {
	env := st.env
	env.Vars, env.Locs = vars, locs
	dz.CopyFrom(z)
	procs := st.sys.Net.Procs
	for _, r := range m {
		e := &procs[r.Proc].Edges[r.Edge]
		for k := range e.ClockGuard {
			c := &e.ClockGuard[k]
			b := constraintBound(c, env)
			if env.Err != nil {
				return false, st.runtimeErr(m)
			}
			if !dz.Constrain(c.I, c.J, b) {
				return false, nil
			}
		}
	}
	copy(dvars, vars)
	copy(dlocs, locs)
	env.Vars = dvars
	env.Resets = env.Resets[:0]
	for _, r := range m {
		e := &procs[r.Proc].Edges[r.Edge]
		if e.Update != nil {
			e.Update(env)
			if env.Err != nil {
				return false, st.runtimeErr(m)
			}
		}
		dlocs[r.Proc] = int32(e.To)
	}
	for _, rs := range env.Resets {
		dz.Reset(rs.Clock, rs.Value)
	}
	ok, err = st.applyInvariants(dlocs, dvars, dz)
	if !ok || err != nil {
		return false, st.withMove(err, m)
	}
	if entry.M != nil {
		entry.CopyFrom(dz)
	}
	delay, err := st.DelayAllowed(dlocs, dvars)
	if err != nil {
		return false, st.withMove(err, m)
	}
	if delay {
		st.delayWithInvariants(dz)
	}
	return true, nil
}

func (st *Stepper) withMove(err error, m Move) error {
	if me, ok := err.(*ModelError); ok {
		me.Move = append(Move(nil), m...)
	}
	return err
}

// Effect computes the discrete effect of the move m from (locs, vars): the
// clock guard, appended to guards as DBM constraints (evaluated on the
// source), the target discrete state (dlocs, dvars) and the clock resets in
// execution order, appended to resets. It does not check invariants.
func (st *Stepper) Effect(locs, vars []int32, m Move, dlocs, dvars []int32, guards []dbm.Constraint, resets []model.Reset) ([]dbm.Constraint, []model.Reset, error) {
	env := st.env
	env.Vars, env.Locs = vars, locs
	procs := st.sys.Net.Procs
	for _, r := range m {
		e := &procs[r.Proc].Edges[r.Edge]
		for k := range e.ClockGuard {
			c := &e.ClockGuard[k]
			b := constraintBound(c, env)
			if env.Err != nil {
				return guards, resets, st.runtimeErr(m)
			}
			guards = append(guards, dbm.Constraint{I: c.I, J: c.J, B: b})
		}
	}
	copy(dvars, vars)
	copy(dlocs, locs)
	env.Vars = dvars
	env.Resets = env.Resets[:0]
	for _, r := range m {
		e := &procs[r.Proc].Edges[r.Edge]
		if e.Update != nil {
			e.Update(env)
			if env.Err != nil {
				return guards, resets, st.runtimeErr(m)
			}
		}
		dlocs[r.Proc] = int32(e.To)
	}
	resets = append(resets, env.Resets...)
	return guards, resets, nil
}

// Invariant appends the clock constraints of the invariants of the discrete
// state (locs, vars) to dst; ok is false if the data part of an invariant is
// false.
func (st *Stepper) Invariant(locs, vars []int32, dst []dbm.Constraint) (out []dbm.Constraint, ok bool, err error) {
	env := st.env
	env.Vars, env.Locs = vars, locs
	ok = true
	for p, proc := range st.sys.Net.Procs {
		l := &proc.Locations[locs[p]]
		if l.InvData != nil {
			holds := l.InvData(env)
			if env.Err != nil {
				return dst, false, st.runtimeErr(nil)
			}
			ok = ok && holds
		}
		for k := range l.Invariant {
			c := &l.Invariant[k]
			b := constraintBound(c, env)
			if env.Err != nil {
				return dst, false, st.runtimeErr(nil)
			}
			dst = append(dst, dbm.Constraint{I: c.I, J: c.J, B: b})
		}
	}
	return dst, ok, nil
}

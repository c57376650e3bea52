package zone

import (
	"github.com/tcheck/tcheck/dbm"
	"github.com/tcheck/tcheck/model"
)

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
	// upper bounds x ≺ c, most of an invariant, are imposed together at
	// the end (dbm.ConstrainUpper); the others one at a time
	st.invUpper = st.invUpper[:0]
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
			if c.J == 0 && c.I != 0 {
				// z with the bounds put off is empty exactly when z with
				// this one is (they leave row 0 as it is): say so now,
				// as one Constrain after another would
				if !z.UpperFits(c.I, b) {
					return false, nil
				}
				st.invUpper = append(st.invUpper, dbm.Constraint{I: c.I, J: 0, B: b})
				continue
			}
			if len(st.invUpper) > 0 {
				if !z.ConstrainUpper(st.invUpper) {
					return false, nil
				}
				st.invUpper = st.invUpper[:0]
			}
			if !z.Constrain(c.I, c.J, b) {
				return false, nil
			}
		}
	}
	if len(st.invUpper) > 0 && !z.ConstrainUpper(st.invUpper) {
		return false, nil
	}
	st.anyStopped = st.sys.Net.Stopped(env, locs, st.stopped)
	if env.Err != nil {
		return false, st.runtimeErr(nil)
	}
	return true, nil
}

// Stopped returns the clocks stopped in the discrete state (locs, vars)
// (model.Network.Stopped; the slice is the stepper's scratch, valid until
// its next call) and whether there is one.
func (st *Stepper) Stopped(locs, vars []int32) ([]bool, bool, error) {
	env := st.env
	env.Vars, env.Locs = vars, locs
	any := st.sys.Net.Stopped(env, locs, st.stopped)
	if env.Err != nil {
		return nil, false, st.runtimeErr(nil)
	}
	return st.stopped, any, nil
}

// delayWithInvariants lets time pass in z, which satisfies the invariants
// recorded in st.invBuf by applyInvariants, and re-imposes them: only their
// upper bounds x ≺ c can be violated by delay (diagonals and lower bounds
// are unaffected), so this is dbm.UpBounded, O(Dim²).
//
// With stopwatches (some clock stopped in this state) the delay is
// dbm.UpStopped, an over-approximation, after which every invariant
// constraint is imposed again: a diagonal between a running and a stopped
// clock can be violated by the delay too. Since z satisfies the convex
// invariant before the delay, a delayed valuation that satisfies it has
// satisfied it all along.
func (st *Stepper) delayWithInvariants(z dbm.DBM) {
	if st.anyStopped {
		z.UpStopped(st.stopped)
		for _, c := range st.invBuf {
			z.Constrain(c.i, c.j, c.b)
		}
		return
	}
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
		if c, ok := r.Constraint(); ok {
			if !dz.Constrain(c.I, c.J, c.B) {
				return false, nil
			}
			continue
		}
		e, n, neg := st.guardOf(r)
		for k := range n {
			c := &e.ClockGuard[k]
			b := constraintBound(c, env)
			if env.Err != nil {
				return false, st.runtimeErr(m)
			}
			i, j := c.I, c.J
			if k == neg {
				i, j, b = j, i, b.Neg()
			}
			if !dz.Constrain(i, j, b) {
				return false, nil
			}
		}
	}
	copy(dvars, vars)
	copy(dlocs, locs)
	env.Vars = dvars
	env.Resets = env.Resets[:0]
	for _, r := range m.Taken() {
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

// guardOf returns the edge of r, how many constraints of its clock guard
// apply and which of them is negated (-1 for none): the whole guard for an
// edge taken, the constraints up to the failing one for a skip (SkipRef).
func (st *Stepper) guardOf(r EdgeRef) (e *model.Edge, n, neg int) {
	edge, k, skip := r.Skip()
	e = &st.sys.Net.Procs[r.Proc].Edges[edge]
	if skip {
		return e, int(k) + 1, int(k)
	}
	return e, len(e.ClockGuard), -1
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
	guards, err := st.Guards(locs, vars, m, guards)
	if err != nil {
		return guards, resets, err
	}
	env := st.env
	procs := st.sys.Net.Procs
	copy(dvars, vars)
	copy(dlocs, locs)
	env.Vars = dvars
	env.Resets = env.Resets[:0]
	for _, r := range m.Taken() {
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

// Guards appends the clock guard of the move m from (locs, vars) to
// guards, as DBM constraints (with its skips negated and its constraints,
// see Move).
func (st *Stepper) Guards(locs, vars []int32, m Move, guards []dbm.Constraint) ([]dbm.Constraint, error) {
	env := st.env
	env.Vars, env.Locs = vars, locs
	for _, r := range m {
		if c, ok := r.Constraint(); ok {
			guards = append(guards, c)
			continue
		}
		e, n, neg := st.guardOf(r)
		for k := range n {
			c := &e.ClockGuard[k]
			b := constraintBound(c, env)
			if env.Err != nil {
				return guards, st.runtimeErr(m)
			}
			g := dbm.Constraint{I: c.I, J: c.J, B: b}
			if k == neg {
				g = g.Neg()
			}
			guards = append(guards, g)
		}
	}
	return guards, nil
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

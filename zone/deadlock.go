package zone

import (
	"slices"

	"github.com/tcheck/tcheck/dbm"
	"github.com/tcheck/tcheck/model"
)

// Deadlocked returns the valuations of the symbolic state (locs, vars, z)
// from which no transition is enabled, now or after any delay: z minus the
// union over the discretely enabled moves of the valuations that can take
// the move (after a delay, if time may pass here). This is UPPAAL's
// `deadlock` predicate; it covers time-locks as well as plain deadlocks.
//
// The pre-image of a move with guard g, resets r (x := c) and target
// invariant I' is  g ∧ I ∧ free_r(I' ∧ r)  where I is the source invariant,
// closed downwards (↓) when delay is allowed. It is exact on the zone it is
// given. What that says of the reachable states depends on the zone: under
// a bisimulation-preserving extrapolation (Extra_M, Extra_M+) or none, the
// exact successor zones suffice; LU abstractions do not preserve deadlocks
// (Behrmann et al., STTT 2006, Sect. 6: a valuation they add may be
// deadlocked where the one simulating it is not), so under them only the
// stored, abstracted zones, which contain every reachable valuation, tell
// that no deadlock is reachable (Options.VisitStored). The result is
// appended to out.Zones (after truncating it) and returned. out must hold
// no member or be the result of the caller's last call (on this Stepper or
// another of the same goroutine), which the caller no longer reads: its
// members' matrices are reused.
func (st *Stepper) Deadlocked(locs, vars []int32, z dbm.DBM, out dbm.Federation) (dbm.Federation, error) {
	out.Dim = st.sys.Dim
	// out's members are the caller's result from its last call, which it
	// gives back: their matrices, and those of the pieces that the
	// subtractions below make and drop, are reused, so that a deadlock
	// check per stored state allocates nothing once the spares have
	// grown to its largest federation.
	sp := &st.dead.spares
	for _, m := range out.Zones {
		if len(m.M) == len(z.M) {
			sp.Put(m)
		}
	}
	clear(out.Zones)
	out.Zones = append(out.Zones[:0], sp.Copy(z))
	delay, err := st.DelayAllowed(locs, vars)
	if err != nil {
		return out, err
	}
	sys := st.sys
	if st.dead.pre.M == nil {
		st.dead.pre = dbm.New(sys.Dim)
		st.dead.tlocs = make([]int32, sys.NProcs)
		st.dead.tvars = make([]int32, sys.NVars)
	}
	tlocs, tvars, pre := st.dead.tlocs, st.dead.tvars, st.dead.pre
	guards, resets := st.dead.guards[:0], st.dead.resets[:0]
	defer func() { st.dead.guards, st.dead.resets = guards[:0], resets[:0] }()
	// The moves are those of z's future: a move enabled only after a
	// delay from z counts (its pre-image is closed downwards), and the
	// choices of a broadcast are cut against the zone Moves is given
	// (broadcastCut). Under priorities the pieces are z's, as they were.
	mz := z
	if delay && sys.movesReadZone && !sys.Net.Priorities {
		if st.dead.future.M == nil {
			st.dead.future = dbm.New(sys.Dim)
		}
		mz = st.dead.future
		mz.CopyFrom(z)
		mz.Up()
		if ok, err := st.applyInvariants(locs, vars, mz); err != nil || !ok {
			mz = dbm.DBM{} // nothing cut
		}
	}
	var merr error
	err = st.Moves(locs, vars, mz, func(m Move) bool {
		if len(out.Zones) == 0 {
			return false
		}
		var err error
		guards, resets, err = st.Effect(locs, vars, m, tlocs, tvars, guards[:0], resets[:0])
		if err != nil {
			// The update failed. That is an error of the model only if the
			// move can be taken from z, as Post would take it: its clock
			// guard may exclude every valuation of z (a guard x >= 4 under
			// an invariant x <= 3), and then the update never runs.
			if !Interrupted(err) && len(guards) > 0 && !st.guardsMeet(z, guards) {
				return true
			}
			merr = err
			return false
		}
		// I' on the target
		pre.Init()
		ok, err := st.applyInvariants(tlocs, tvars, pre)
		if err != nil {
			merr = err
			return false
		}
		if !ok {
			return true
		}
		// free_r(I' ∧ r): the last assignment to a clock wins
		for k := len(resets) - 1; k >= 0; k-- {
			rs := resets[k]
			if slices.ContainsFunc(resets[k+1:], func(later model.Reset) bool { return later.Clock == rs.Clock }) {
				continue
			}
			if !pre.Constrain(rs.Clock, 0, dbm.LE(rs.Value)) || !pre.Constrain(0, rs.Clock, dbm.LE(-rs.Value)) {
				return true
			}
			pre.Free(rs.Clock)
		}
		// the guards, evaluated on the source
		for _, g := range guards {
			if !pre.Constrain(g.I, g.J, g.B) {
				return true
			}
		}
		// source invariant, then the delay closure
		if ok, err := st.applyInvariants(locs, vars, pre); err != nil || !ok {
			merr = err
			return err == nil
		}
		if delay {
			pre.Down()
		}
		out.SubtractOwned(pre, sp)
		return true
	})
	if err == nil {
		err = merr
	}
	return out, err
}

// guardsMeet reports whether some valuation of z satisfies every guard.
func (st *Stepper) guardsMeet(z dbm.DBM, guards []dbm.Constraint) bool {
	if st.tmpZ.M == nil {
		st.tmpZ = dbm.New(st.sys.Dim)
	}
	st.tmpZ.CopyFrom(z)
	for _, g := range guards {
		if !st.tmpZ.Constrain(g.I, g.J, g.B) {
			return false
		}
	}
	return true
}

package zone

import (
	"github.com/tcheck/tcheck/dbm"
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
// given; callers must pass a zone abstracted with a bisimulation-preserving
// extrapolation (Extra_M, Extra_M+) or none, because LU abstractions do not
// preserve deadlocks (Behrmann et al., STTT 2006, Sect. 6). The result is
// appended to out.Zones (after truncating it) and returned.
func (st *Stepper) Deadlocked(locs, vars []int32, z dbm.DBM, out dbm.Federation) (dbm.Federation, error) {
	out.Dim = st.sys.Dim
	out.Zones = append(out.Zones[:0], z.Clone())
	delay, err := st.DelayAllowed(locs, vars)
	if err != nil {
		return out, err
	}
	sys := st.sys
	tlocs := make([]int32, sys.NProcs)
	tvars := make([]int32, sys.NVars)
	pre := dbm.New(sys.Dim)
	env := st.env
	var merr error
	procs := sys.Net.Procs
	err = st.Moves(locs, vars, func(m Move) bool {
		if len(out.Zones) == 0 {
			return false
		}
		// target discrete state and resets
		env.Vars, env.Locs = vars, locs
		copy(tvars, vars)
		copy(tlocs, locs)
		env.Vars = tvars
		env.Resets = env.Resets[:0]
		for _, r := range m {
			e := &procs[r.Proc].Edges[r.Edge]
			if e.Update != nil {
				e.Update(env)
				if env.Err != nil {
					merr = st.runtimeErr(m)
					return false
				}
			}
			tlocs[r.Proc] = int32(e.To)
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
		for k := len(env.Resets) - 1; k >= 0; k-- {
			rs := env.Resets[k]
			seen := false
			for _, later := range env.Resets[k+1:] {
				if later.Clock == rs.Clock {
					seen = true
					break
				}
			}
			if seen {
				continue
			}
			if !pre.Constrain(rs.Clock, 0, dbm.LE(rs.Value)) || !pre.Constrain(0, rs.Clock, dbm.LE(-rs.Value)) {
				return true
			}
			pre.Free(rs.Clock)
		}
		// guards, evaluated on the source
		env.Vars, env.Locs = vars, locs
		for _, r := range m {
			e := &procs[r.Proc].Edges[r.Edge]
			for k := range e.ClockGuard {
				c := &e.ClockGuard[k]
				b := constraintBound(c, env)
				if env.Err != nil {
					merr = st.runtimeErr(m)
					return false
				}
				if !pre.Constrain(c.I, c.J, b) {
					return true
				}
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
		out.Subtract(pre)
		return true
	})
	if err == nil {
		err = merr
	}
	return out, err
}

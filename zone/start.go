package zone

import "github.com/tcheck/tcheck/dbm"

// Start is a state to explore from instead of the network's initial state
// (Options.Initial): a discrete part and a zone over all clocks, usually
// one point or the region of one point (queries.State.Zone).
type Start struct {
	Locs []int32
	Vars []int32
	Zone dbm.DBM // closed, of the system's dimension
}

// InitialFrom is Initial from s instead of the initial state (s nil:
// Initial): the discrete part of s, its zone, delayed where time may pass
// and constrained by the invariants. ok is false when s violates an
// invariant.
func (st *Stepper) InitialFrom(s *Start, locs, vars []int32, z dbm.DBM) (ok bool, err error) {
	if s == nil {
		return st.Initial(locs, vars, z)
	}
	copy(locs, s.Locs)
	copy(vars, s.Vars)
	z.CopyFrom(s.Zone)
	return st.finish(locs, vars, z)
}

package queries

import (
	"errors"
	"fmt"

	"github.com/tcheck/tcheck/dbm"
	"github.com/tcheck/tcheck/zone"
)

// Trace is a run of the network from its initial state (or from Start),
// both symbolic and concrete. Concrete clock values are rationals over the common denominator
// Den (value = Clocks[x] / Den).
//
// Reading it: the run starts in States[0] with all clocks zero (with the
// clock values of Start when it is set). For each
// i ≥ 1, time passes by Delays[i] in States[i-1], then Moves[i] is taken,
// entering States[i] with the valuation Clocks[i]. Finally time passes by
// FinalDelay in the last state, reaching the valuation Final, which is the
// witness (of the property, the deadlock, the supremum).
type Trace struct {
	Den        int64
	Moves      []zone.Move // Moves[0] is nil
	Locs       [][]int32   // location vector of each state
	Vars       [][]int32   // variable vector of each state
	Zones      []dbm.DBM   // exact symbolic zone of each state (delay closed)
	Delays     []int64     // Delays[0] = 0
	Clocks     [][]int64   // valuation on entering each state (scaled by Den)
	FinalDelay int64
	Final      []int64
	// Cycle, when positive, says that the last Cycle moves lead back to
	// the symbolic state they started from: a cycle of the abstract zone
	// graph that the run can repeat forever (liveness witnesses).
	Cycle int
	// End, for a liveness witness without a cycle, says why the run ends
	// in its last state.
	End string
	// Start, when set, is the state the run starts from (Options.From)
	// instead of the network's initial state.
	Start *State
}

// ErrNotConcretisable is returned when no concrete run follows a symbolic
// path; it indicates a bug, and the trace is never printed.
var ErrNotConcretisable = errors.New("internal error: the symbolic trace has no concrete run")

// symbolicPath recomputes the exact (non-extrapolated) zones along moves from
// the initial state (from, when not nil): entry zones (before delay) and
// delayed zones.
func symbolicPath(sys *zone.System, from *State, moves []zone.Move, stop func() bool) (t *Trace, entries []dbm.DBM, err error) {
	st := zone.NewStepper(sys)
	t = &Trace{Start: from}
	locs := make([]int32, sys.NProcs)
	vars := make([]int32, sys.NVars)
	z := dbm.New(sys.Dim)
	start := from.start()
	ok, err := st.InitialFrom(start, locs, vars, z)
	if err != nil {
		return nil, nil, err
	}
	if !ok {
		return nil, nil, ErrNotConcretisable
	}
	e0 := dbm.New(sys.Dim)
	e0.Zero()
	if start != nil {
		e0 = start.Zone
	}
	t.Moves = append(t.Moves, nil)
	t.Locs = append(t.Locs, locs)
	t.Vars = append(t.Vars, vars)
	t.Zones = append(t.Zones, z)
	entries = append(entries, e0)
	for _, m := range moves {
		// each step keeps two matrices: a long path of a model with many
		// clocks takes seconds and gigabytes (1,500 steps of 1,500
		// clocks: 18 MB a step), so the trace's limits are polled
		if stop != nil && stop() {
			return nil, nil, ErrTraceTime
		}
		dl := make([]int32, sys.NProcs)
		dv := make([]int32, sys.NVars)
		dz := dbm.New(sys.Dim)
		de := dbm.New(sys.Dim)
		ok, err := st.PostEntry(locs, vars, z, m, dl, dv, de, dz)
		if err != nil {
			return nil, nil, err
		}
		if !ok {
			return nil, nil, fmt.Errorf("%w (step %d is empty)", ErrNotConcretisable, len(t.Moves))
		}
		t.Moves = append(t.Moves, append(zone.Move(nil), m...))
		t.Locs = append(t.Locs, dl)
		t.Vars = append(t.Vars, dv)
		t.Zones = append(t.Zones, dz)
		entries = append(entries, de)
		locs, vars, z = dl, dv, dz
	}
	return t, entries, nil
}

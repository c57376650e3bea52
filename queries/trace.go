package queries

import (
	"errors"
	"fmt"
	"slices"

	"github.com/tcheck/tcheck/dbm"
	"github.com/tcheck/tcheck/model"
	"github.com/tcheck/tcheck/zone"
)

// Trace is a run of the network from its initial state, both symbolic and
// concrete. Concrete clock values are rationals over the common denominator
// Den (value = Clocks[x] / Den).
//
// Reading it: the run starts in States[0] with all clocks zero. For each
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
}

// ErrNotConcretisable is returned when no concrete run follows a symbolic
// path; it indicates a bug, and the trace is never printed.
var ErrNotConcretisable = errors.New("internal error: the symbolic trace has no concrete run")

// symbolicPath recomputes the exact (non-extrapolated) zones along moves from
// the initial state: entry zones (before delay) and delayed zones.
func symbolicPath(sys *zone.System, moves []zone.Move) (t *Trace, entries []dbm.DBM, err error) {
	st := zone.NewStepper(sys)
	t = &Trace{}
	locs := make([]int32, sys.NProcs)
	vars := make([]int32, sys.NVars)
	z := dbm.New(sys.Dim)
	ok, err := st.Initial(locs, vars, z)
	if err != nil {
		return nil, nil, err
	}
	if !ok {
		return nil, nil, ErrNotConcretisable
	}
	e0 := dbm.New(sys.Dim)
	e0.Zero()
	t.Moves = append(t.Moves, nil)
	t.Locs = append(t.Locs, locs)
	t.Vars = append(t.Vars, vars)
	t.Zones = append(t.Zones, z)
	entries = append(entries, e0)
	for _, m := range moves {
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

// scaled returns a copy of d with every constant multiplied by k.
func scaled(d dbm.DBM, k int64) (dbm.DBM, error) {
	s := d.Clone()
	for i, b := range s.M {
		if b == dbm.LTInf {
			continue
		}
		c := int64(b.Const()) * k
		if err := dbm.CheckConst(c); err != nil {
			return s, err
		}
		if b.Strict() {
			s.M[i] = dbm.LT(int32(c))
		} else {
			s.M[i] = dbm.LE(int32(c))
		}
	}
	return s, nil
}

func scaleBound(b dbm.Bound, k int64) dbm.Bound {
	if b == dbm.LTInf {
		return b
	}
	c := int32(int64(b.Const()) * k)
	if b.Strict() {
		return dbm.LT(c)
	}
	return dbm.LE(c)
}

// pointDBM returns the DBM holding exactly the integer valuation p.
func pointDBM(p []int64) dbm.DBM {
	d := dbm.New(len(p))
	for i := range p {
		for j := range p {
			d.Set(i, j, dbm.LE(int32(p[i]-p[j])))
		}
	}
	return d
}

// errRescale asks concretise to start over with a finer denominator.
type errRescale struct{ factor int64 }

func (e errRescale) Error() string { return "rescale" }

func intPoint(d dbm.DBM) ([]int64, error) {
	num, den := d.Point()
	if den != 1 {
		return nil, errRescale{den}
	}
	return num, nil
}

// concretise picks concrete delays backwards along the exact symbolic path
// so that every guard and invariant holds and the final valuation lies in
// target (a zone included in the last state's zone).
func concretise(sys *zone.System, t *Trace, entries []dbm.DBM, target dbm.DBM) error {
	k := int64(1)
	for attempt := 0; attempt < 12; attempt++ {
		err := concretiseScaled(sys, t, entries, target, k)
		var r errRescale
		if errors.As(err, &r) {
			k *= r.factor
			continue
		}
		return err
	}
	return fmt.Errorf("%w (no rational point with a small denominator)", ErrNotConcretisable)
}

func concretiseScaled(sys *zone.System, t *Trace, entries []dbm.DBM, target dbm.DBM, k int64) error {
	st := zone.NewStepper(sys)
	n := len(t.Moves)
	t.Den = k
	t.Delays = make([]int64, n)
	t.Clocks = make([][]int64, n)
	tz, err := scaled(target, k)
	if err != nil {
		return err
	}
	w, err := intPoint(tz)
	if err != nil {
		return err
	}
	t.Final = w
	delayOf := func(w, e []int64) int64 {
		if len(w) > 1 {
			return w[1] - e[1]
		}
		return 0
	}
	dl := make([]int32, sys.NProcs)
	dv := make([]int32, sys.NVars)
	var guards []dbm.Constraint
	var resets []model.Reset
	for i := n - 1; i >= 0; i-- {
		// e: the valuation on entering state i, on w's delay line
		c, err := scaled(entries[i], k)
		if err != nil {
			return err
		}
		line := pointDBM(w)
		line.Down()
		if !c.Intersect(line) {
			return fmt.Errorf("%w (state %d)", ErrNotConcretisable, i)
		}
		var e []int64
		if i == 0 {
			e = make([]int64, sys.Dim)
			if !c.Contains(e, 1) {
				return fmt.Errorf("%w (initial state)", ErrNotConcretisable)
			}
		} else if t.Zones[i].Equal(entries[i]) {
			// time cannot pass in state i (a committed or urgent
			// location, an urgent synchronisation, an invariant at its
			// bound): w itself is the entry point, after no delay. Any
			// other point on w's delay line would need a delay the
			// state forbids.
			if !c.Contains(w, 1) {
				return fmt.Errorf("%w (state %d admits no delay)", ErrNotConcretisable, i)
			}
			e = slices.Clone(w)
		} else {
			e, err = intPoint(c)
			if err != nil {
				return err
			}
		}
		t.Clocks[i] = e
		if i == n-1 {
			t.FinalDelay = delayOf(w, e)
		} else {
			t.Delays[i+1] = delayOf(w, e)
		}
		if i == 0 {
			break
		}
		// u: the valuation in state i-1 at which move i is taken; it
		// satisfies the guard and agrees with e on the clocks not reset.
		guards, resets, err = st.Effect(t.Locs[i-1], t.Vars[i-1], t.Moves[i], dl, dv, guards[:0], resets[:0])
		if err != nil {
			return err
		}
		a, err := scaled(t.Zones[i-1], k)
		if err != nil {
			return err
		}
		for _, g := range guards {
			if !a.Constrain(g.I, g.J, scaleBound(g.B, k)) {
				return fmt.Errorf("%w (guard of step %d)", ErrNotConcretisable, i)
			}
		}
		reset := make([]bool, sys.Dim)
		for _, r := range resets {
			reset[r.Clock] = true
		}
		for x := 1; x < sys.Dim; x++ {
			if reset[x] {
				continue
			}
			if !a.Constrain(x, 0, dbm.LE(int32(e[x]))) || !a.Constrain(0, x, dbm.LE(int32(-e[x]))) {
				return fmt.Errorf("%w (step %d)", ErrNotConcretisable, i)
			}
		}
		u, err := intPoint(a)
		if err != nil {
			return err
		}
		w = u
	}
	return nil
}

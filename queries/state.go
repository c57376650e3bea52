package queries

import (
	"fmt"
	"math/big"
	"slices"

	"github.com/tcheck/tcheck/dbm"
	"github.com/tcheck/tcheck/model"
	"github.com/tcheck/tcheck/zone"
)

// State is a concrete state of a network to check from (Options.From):
// one location per process, one value per variable slot, one value per
// clock (Clocks[0], the reference clock, is 0). Clock values are exact
// rationals: a state logged by a running system has decimals.
//
// The exploration starts from the region of the state (Zone): the
// valuations with the same integer parts and the same order of fractional
// parts. When every clock value is an integer the region is the point
// itself. Otherwise the region is the only zone with integer constants
// that holds the point, and it loses nothing: valuations of one such
// region are time-abstract bisimilar in every timed automaton with integer
// constants (Alur and Dill, TCS 1994), so E<>, A[], deadlock and the
// liveness properties have the same verdicts from the point as from its
// region, and a sup/inf value over clocks from the region bounds the one
// from the point (it is marked approximate). Traces start from the point
// itself (concretiseFrom).
type State struct {
	Locs   []int32
	Vars   []int32
	Clocks []*big.Rat
}

// IsPoint reports whether every clock value is an integer (the region is
// the point).
func (s *State) IsPoint() bool {
	for _, c := range s.Clocks {
		if !c.IsInt() {
			return false
		}
	}
	return true
}

// Zone returns the region of the state's valuation: for every pair of
// clocks (the reference clock included) x_i - x_j = v_i - v_j when that
// difference is an integer, ⌊v_i - v_j⌋ < x_i - x_j < ⌈v_i - v_j⌉
// otherwise. The values must lie within the DBM's constant range
// (CheckState checks them).
func (s *State) Zone() dbm.DBM {
	dim := len(s.Clocks)
	z := dbm.New(dim)
	d := new(big.Rat)
	for i := 0; i < dim; i++ {
		for j := 0; j < dim; j++ {
			if i == j {
				continue
			}
			d.Sub(s.Clocks[i], s.Clocks[j])
			if d.IsInt() {
				z.Set(i, j, dbm.LE(int32(d.Num().Int64())))
				continue
			}
			c := ratFloor(d)
			c.Add(c, big.NewRat(1, 1))
			z.Set(i, j, dbm.LT(int32(c.Num().Int64())))
		}
	}
	z.Close()
	return z
}

// start is the state's region for zone.Options.Initial (nil for nil).
func (s *State) start() *zone.Start {
	if s == nil {
		return nil
	}
	return &zone.Start{Locs: s.Locs, Vars: s.Vars, Zone: s.Zone()}
}

// scaled returns the clock values over the denominator den, false when
// one is not a multiple of 1/den.
func (s *State) scaled(den int64) ([]int64, bool) {
	out := make([]int64, len(s.Clocks))
	for x, c := range s.Clocks {
		v := new(big.Rat).Mul(c, big.NewRat(den, 1))
		if !v.IsInt() || !v.Num().IsInt64() {
			return nil, false
		}
		out[x] = v.Num().Int64()
	}
	return out, true
}

// withClock returns s with one more clock of value 0 (the horizon clock
// of Options.Within).
func (s *State) withClock() *State {
	return &State{Locs: s.Locs, Vars: s.Vars, Clocks: append(slices.Clone(s.Clocks), new(big.Rat))}
}

// InitialState returns the network's initial state as a State.
func InitialState(net *model.Network) *State {
	s := &State{Locs: make([]int32, len(net.Procs)), Vars: make([]int32, len(net.Vars)), Clocks: ratZeros(len(net.Clocks))}
	for p, proc := range net.Procs {
		s.Locs[p] = int32(proc.Initial)
	}
	for i, v := range net.Vars {
		s.Vars[i] = v.Init
	}
	return s
}

// StateError is a problem of a State with the model; Field names what is
// wrong (a process, a variable, a clock; "" for the state as a whole), for
// the reader of a state document to position the message.
type StateError struct {
	Kind  string // "location", "variable", "clock" or ""
	Index int    // the process, variable or clock
	Msg   string
}

func (e *StateError) Error() string { return e.Msg }

// CheckState checks s against net: the vectors' lengths, every variable
// within its declared range, clock values not negative and within the
// DBM's range, and the invariants of the locations (clock and data parts)
// at the given valuation.
func CheckState(net *model.Network, s *State) error {
	if len(s.Locs) != len(net.Procs) || len(s.Vars) != len(net.Vars) || len(s.Clocks) != len(net.Clocks) {
		return &StateError{Msg: fmt.Sprintf("the state has %d locations, %d variables and %d clocks; the model has %d, %d and %d", len(s.Locs), len(s.Vars), len(s.Clocks)-1, len(net.Procs), len(net.Vars), len(net.Clocks)-1)}
	}
	for p, l := range s.Locs {
		if l < 0 || int(l) >= len(net.Procs[p].Locations) {
			return &StateError{Kind: "location", Index: p, Msg: fmt.Sprintf("%s has no location %d", net.Procs[p].Name, l)}
		}
	}
	for i, v := range net.Vars {
		if x := s.Vars[i]; x < v.Min || x > v.Max {
			return &StateError{Kind: "variable", Index: i, Msg: fmt.Sprintf("%s = %d is out of its range [%d, %d]", v.Name, x, v.Min, v.Max)}
		}
	}
	if s.Clocks[0].Sign() != 0 {
		return &StateError{Msg: "the reference clock is not 0"}
	}
	lim := big.NewRat(int64(dbm.MaxConst)/2, 1)
	for x := 1; x < len(s.Clocks); x++ {
		c := s.Clocks[x]
		if c.Sign() < 0 {
			return &StateError{Kind: "clock", Index: x, Msg: fmt.Sprintf("clock %s = %s is negative", net.Clocks[x].Name, c.RatString())}
		}
		if c.Cmp(lim) > 0 {
			return &StateError{Kind: "clock", Index: x, Msg: fmt.Sprintf("clock %s = %s exceeds %s, the largest clock value tcheck represents", net.Clocks[x].Name, c.RatString(), lim.RatString())}
		}
	}
	// the invariants, on the exact values (the replayer's test, over the
	// common denominator of the clock values)
	den := big.NewInt(1)
	for _, c := range s.Clocks {
		g := new(big.Int).GCD(nil, nil, den, c.Denom())
		den.Mul(den, new(big.Int).Quo(c.Denom(), g))
	}
	if !den.IsInt64() || den.Int64() > maxDen {
		return &StateError{Msg: fmt.Sprintf("the clock values' common denominator %s is too large (at most %d)", den, maxDen)}
	}
	clocks, _ := s.scaled(den.Int64())
	r := &replayer{net: net, env: net.NewEnv(), den: den.Int64()}
	r.env.Vars, r.env.Locs = s.Vars, s.Locs
	for p, proc := range net.Procs {
		l := &proc.Locations[s.Locs[p]]
		if l.InvData != nil {
			ok := l.InvData(r.env)
			if err := r.err(); err != nil {
				return &StateError{Kind: "location", Index: p, Msg: fmt.Sprintf("the invariant of %s.%s: %v", proc.Name, l.Name, err)}
			}
			if !ok {
				return &StateError{Kind: "location", Index: p, Msg: fmt.Sprintf("the invariant of %s.%s (%s) is false", proc.Name, l.Name, l.Src)}
			}
		}
		for k := range l.Invariant {
			c := &l.Invariant[k]
			ok, err := r.sat(c, clocks)
			if err != nil {
				return &StateError{Kind: "location", Index: p, Msg: fmt.Sprintf("the invariant of %s.%s: %v", proc.Name, l.Name, err)}
			}
			if !ok {
				kind, idx := "location", p
				if c.I != 0 {
					kind, idx = "clock", c.I
				}
				return &StateError{Kind: kind, Index: idx, Msg: fmt.Sprintf("the clock values violate the invariant of %s.%s (%s)", proc.Name, l.Name, l.Src)}
			}
		}
	}
	return nil
}

// horizon returns a copy of net with one more clock, never reset, bounded
// by the invariant h ≤ within in every location: its runs are the runs of
// net that last at most within time units. Its per-location and global
// clock bounds give h the upper bound within, so that extrapolation keeps
// it. The copy shares everything else with net.
func horizon(net *model.Network, within int32) *model.Network {
	h := len(net.Clocks)
	n := *net
	n.Clocks = append(slices.Clone(net.Clocks), model.Clock{Name: "#horizon", Proc: -1})
	// The invariant h <= within bounds h from above only, so its lower
	// bound is none, unless the model has priorities: a transition of
	// lower priority is then taken where a higher one's target
	// invariant, this one among them, fails, so h > within is compared
	// too (model's priorityBounds). With no lower bound, Extra_LU+ drops
	// h <= within from the stored zones, and a lower transition looked
	// enabled beyond the horizon (difftest seed 1315, finding 14: a model
	// error raised where the higher transitions blocked it).
	lb := model.NoBound
	if net.Priorities {
		lb = within
	}
	n.GlobalL = append(slices.Clone(net.GlobalL), lb)
	n.GlobalU = append(slices.Clone(net.GlobalU), within)
	n.Procs = make([]*model.Process, len(net.Procs))
	for p, proc := range net.Procs {
		cp := *proc
		cp.Locations = slices.Clone(proc.Locations)
		for i := range cp.Locations {
			l := &cp.Locations[i]
			l.Invariant = append(slices.Clone(l.Invariant), model.ClockConstraint{I: h, J: 0, Const: within})
			l.L = append(slices.Clone(l.L), lb)
			l.U = append(slices.Clone(l.U), within)
		}
		n.Procs[p] = &cp
	}
	return &n
}

// dropClock removes the last clock (the horizon clock) from t's
// valuations.
func (t *Trace) dropClock() {
	for i := range t.Clocks {
		t.Clocks[i] = t.Clocks[i][:len(t.Clocks[i])-1]
	}
	t.Final = t.Final[:len(t.Final)-1]
	t.Zones = nil
	if t.Start != nil {
		t.Start = &State{Locs: t.Start.Locs, Vars: t.Start.Vars, Clocks: t.Start.Clocks[:len(t.Start.Clocks)-1]}
	}
}

// concretiseFrom is concretise for a path that starts from the given
// state s (Options.From): the run must start at s's valuation itself, not
// anywhere in its region, so it is built forwards. First, backwards, the
// exact sets of valuations from which the rest of the path reaches target:
// W_n = target, E_i = the entry valuations of state i that can delay into
// W_i (W_i itself where time cannot pass), W_{i-1} = the valuations of
// state i-1 satisfying move i's guard whose image under its resets lies in
// E_i. These are zones with integer constants, hence unions of regions;
// the region of s meets E_0 because the symbolic path is feasible from it,
// so it lies in E_0 and s can follow the path. Then, forwards from s, each
// delay is the simplest one that enters W_i. Where that greedy choice
// fails or a run of all the times solved at once has a smaller common
// denominator, that run is taken (withSolvedTimes).
func concretiseFrom(sys *zone.System, t *Trace, entries []dbm.DBM, target dbm.DBM, s *State, stop func() bool) error {
	return withSolvedTimes(t,
		func(t *Trace) error { return concretiseForward(sys, t, entries, target, s, stop) },
		func(t *Trace) error { return concretiseByTimes(sys, t, entries, target, s.Clocks, stop) })
}

// concretiseForward is concretiseFrom's step-by-step choice.
func concretiseForward(sys *zone.System, t *Trace, entries []dbm.DBM, target dbm.DBM, s *State, stop func() bool) error {
	st := zone.NewStepper(sys)
	n := len(t.Moves)
	w := make([]dbm.DBM, n)
	w[n-1] = target.Clone()
	dl := make([]int32, sys.NProcs)
	dv := make([]int32, sys.NVars)
	var guards []dbm.Constraint
	var resets []model.Reset
	noDelay := func(i int) bool { return t.Zones[i].Equal(entries[i]) }
	for i := n - 1; i >= 1; i-- {
		if stop != nil && i&255 == 0 && stop() {
			return ErrTraceTime
		}
		e := w[i].Clone()
		if !noDelay(i) {
			e.Down()
			if !e.Intersect(entries[i]) {
				return fmt.Errorf("%w (no entry of state %d reaches the rest of the path)", ErrNotConcretisable, i)
			}
		}
		var err error
		guards, resets, err = st.Effect(t.Locs[i-1], t.Vars[i-1], t.Moves[i], dl, dv, guards[:0], resets[:0])
		if err != nil {
			return err
		}
		last := map[int]int32{}
		for _, r := range resets {
			last[r.Clock] = r.Value
		}
		for x, v := range last {
			if !e.Constrain(x, 0, dbm.LE(v)) || !e.Constrain(0, x, dbm.LE(-v)) {
				return fmt.Errorf("%w (the resets of step %d)", ErrNotConcretisable, i)
			}
		}
		for x := range last {
			e.Free(x)
		}
		ok := e.Intersect(t.Zones[i-1])
		for _, g := range guards {
			ok = ok && e.Constrain(g.I, g.J, g.B)
		}
		if !ok {
			return fmt.Errorf("%w (no valuation of state %d takes step %d)", ErrNotConcretisable, i-1, i)
		}
		w[i-1] = e
	}
	clocks := make([][]*big.Rat, n)
	delays := make([]*big.Rat, n)
	delays[0] = new(big.Rat)
	var finalDelay *big.Rat
	p := make([]*big.Rat, sys.Dim)
	for x := range p {
		p[x] = new(big.Rat).Set(s.Clocks[x])
	}
	for i := 0; i < n; i++ {
		if tooFine(p) {
			return fmt.Errorf("%w (a denominator of state %d passes %d)", ErrNotConcretisable, i, maxDen)
		}
		clocks[i] = p
		d := new(big.Rat)
		if !noDelay(i) {
			var ok bool
			if d, ok = delayOnto(w[i], p); !ok {
				return fmt.Errorf("%w (state %d: no delay reaches the rest of the path)", ErrNotConcretisable, i)
			}
		}
		u := make([]*big.Rat, sys.Dim)
		u[0] = new(big.Rat)
		for x := 1; x < sys.Dim; x++ {
			u[x] = new(big.Rat).Add(p[x], d)
		}
		if !ratContains(w[i], u) {
			return fmt.Errorf("%w (state %d: the valuation leaves the path)", ErrNotConcretisable, i)
		}
		if i == n-1 {
			finalDelay = d
			p = u
			break
		}
		delays[i+1] = d
		var err error
		guards, resets, err = st.Effect(t.Locs[i], t.Vars[i], t.Moves[i+1], dl, dv, guards[:0], resets[:0])
		if err != nil {
			return err
		}
		for _, r := range resets {
			u[r.Clock] = big.NewRat(int64(r.Value), 1)
		}
		p = u
	}
	return t.setConcrete(clocks, delays, finalDelay, p)
}

// delayOnto returns the simplest delay d ≥ 0 such that p + d lies in the
// zone z, or false when there is none.
func delayOnto(z dbm.DBM, p []*big.Rat) (*big.Rat, bool) {
	lo, hi := bound{v: new(big.Rat)}, bound{}
	for x := 1; x < z.Dim; x++ {
		// p_x + d ≺ c (upper bound of x)  ⇒  d ≺ c − p_x
		if b := z.At(x, 0); b != dbm.LTInf {
			h := bound{new(big.Rat).Sub(ratOf(b), p[x]), b.Strict()}
			if tighterHi(h, hi) {
				hi = h
			}
		}
		// −(p_x + d) ≺ c (lower bound of x)  ⇒  d ≻ −c − p_x
		if b := z.At(0, x); b != dbm.LTInf {
			l := bound{new(big.Rat).Neg(new(big.Rat).Add(ratOf(b), p[x])), b.Strict()}
			if tighterLo(l, lo) {
				lo = l
			}
		}
	}
	return simplest(lo, hi)
}

// checkWithin is Check under Options.Within: the queries are checked on
// the network with the horizon clock (horizon), from opts.From (the
// initial state by default) with the horizon clock at 0; the traces lose
// that clock again.
func checkWithin(sys *zone.System, qs []*Query, opts Options) []*Result {
	hsys := zone.NewSystem(horizon(sys.Net, opts.Within))
	from := opts.From
	if from == nil {
		from = InitialState(sys.Net)
	}
	opts.horizon, opts.horizonT = len(sys.Net.Clocks), opts.Within
	opts.From, opts.Within = from.withClock(), 0
	var checked []*Query
	results := make([]*Result, len(qs))
	for i, q := range qs {
		if q.Err == nil && (q.Formula != nil && q.Formula.Has(model.FDeadlock) || q.Formula2 != nil && q.Formula2.Has(model.FDeadlock)) {
			results[i] = &Result{Query: q, Verdict: Error, TraceErr: &model.Error{Pos: q.Pos, Msg: "deadlock is not decided within a time horizon (--within): every state at the horizon would be one"}}
			continue
		}
		checked = append(checked, q)
	}
	rs := Check(hsys, checked, opts)
	k := 0
	for i := range results {
		if results[i] != nil {
			continue
		}
		r := rs[k]
		k++
		if r.Trace != nil {
			r.Trace.dropClock()
		}
		results[i] = r
	}
	return results
}

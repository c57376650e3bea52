package queries

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tcheck/tcheck/model"
	"github.com/tcheck/tcheck/zone"
)

// Replay re-checks a concrete trace step by step against the concrete
// semantics of the network, independently of the symbolic engine (it uses
// neither DBMs nor the zone package's successor code): every delay is
// allowed (no committed or urgent location, no enabled urgent
// synchronisation), advances the running clocks only (a clock whose rate
// is 0 in the current locations keeps its value: stopwatches) and respects
// the invariants, every move is a legal
// transition (right locations, channels matched, all broadcast receivers
// joined, the committed rule), its guards hold, its updates and resets
// give the next state, the target invariants hold. If goal is not nil it
// must hold in the final state; where t.Cycle is set, the last t.Cycle
// moves must return to the locations and variables they left. The run
// starts from the network's initial state, or from t.Start when it is set
// (a run checked from a given state). It returns nil when the trace
// replays.
func Replay(net *model.Network, t *Trace, goal *model.Formula) error {
	r := &replayer{net: net, env: net.NewEnv(), den: t.Den}
	start := t.Start
	if start == nil {
		start = InitialState(net)
	}
	if len(start.Locs) != len(net.Procs) || len(start.Vars) != len(net.Vars) || len(start.Clocks) != len(net.Clocks) {
		return fmt.Errorf("the start state is not a state of the model")
	}
	locs, vars := slices.Clone(start.Locs), slices.Clone(start.Vars)
	clocks, ok := start.scaled(t.Den)
	if !ok {
		return fmt.Errorf("initial state differs from the trace (a clock value of the start state is not a multiple of 1/%d)", t.Den)
	}
	if err := r.checkState(locs, vars, clocks); err != nil {
		return fmt.Errorf("initial state: %w", err)
	}
	if !slices.Equal(locs, t.Locs[0]) || !slices.Equal(vars, t.Vars[0]) || !slices.Equal(clocks, t.Clocks[0]) {
		return fmt.Errorf("initial state differs from the trace")
	}
	for i := 1; i < len(t.Moves); i++ {
		if err := r.delay(locs, vars, clocks, t.Delays[i]); err != nil {
			return fmt.Errorf("step %d: %w", i, err)
		}
		nl, nv, nc, err := r.move(locs, vars, clocks, t.Moves[i])
		if err != nil {
			return fmt.Errorf("step %d: %w", i, err)
		}
		if !slices.Equal(nl, t.Locs[i]) || !slices.Equal(nv, t.Vars[i]) || !slices.Equal(nc, t.Clocks[i]) {
			return fmt.Errorf("step %d: the state reached differs from the trace", i)
		}
		locs, vars, clocks = nl, nv, nc
	}
	if t.Cycle > 0 {
		// the last Cycle moves must lead back to the discrete state they
		// left (a cycle of the zone graph returns to its symbolic state;
		// under symmetry reduction the trace repeats a cycle of
		// representatives until it does)
		from := len(t.Moves) - 1 - t.Cycle
		if from < 0 {
			return fmt.Errorf("the trace's cycle of %d moves is longer than the trace", t.Cycle)
		}
		if !slices.Equal(t.Locs[from], locs) || !slices.Equal(t.Vars[from], vars) {
			return fmt.Errorf("the trace's cycle of %d moves does not return to the locations and variables of step %d", t.Cycle, from)
		}
	}
	if err := r.delay(locs, vars, clocks, t.FinalDelay); err != nil {
		return fmt.Errorf("final delay: %w", err)
	}
	if !slices.Equal(clocks, t.Final) {
		return fmt.Errorf("final valuation differs from the trace")
	}
	if goal != nil {
		ok, err := r.holds(goal, locs, vars, clocks)
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("the final state does not satisfy the property")
		}
	}
	return nil
}

type replayer struct {
	net *model.Network
	env *model.Env
	den int64
}

// sat reports whether x_I - x_J ≺ c holds for the scaled valuation.
func (r *replayer) sat(c *model.ClockConstraint, clocks []int64) (bool, error) {
	v := int64(c.Const)
	if c.Value != nil {
		v = int64(c.Value(r.env))
		if err := r.err(); err != nil {
			return false, err
		}
	}
	diff := clocks[c.I] - clocks[c.J]
	if c.Strict {
		return diff < v*r.den, nil
	}
	return diff <= v*r.den, nil
}

func (r *replayer) err() error {
	if r.env.Err != nil {
		e := r.env.Err
		r.env.Err = nil
		return e
	}
	return nil
}

// checkState checks the invariants of (locs, vars) at clocks.
func (r *replayer) checkState(locs, vars []int32, clocks []int64) error {
	r.env.Vars, r.env.Locs = vars, locs
	for p, proc := range r.net.Procs {
		l := &proc.Locations[locs[p]]
		if l.InvData != nil {
			ok := l.InvData(r.env)
			if err := r.err(); err != nil {
				return err
			}
			if !ok {
				return fmt.Errorf("invariant of %s.%s is false", proc.Name, l.Name)
			}
		}
		for k := range l.Invariant {
			ok, err := r.sat(&l.Invariant[k], clocks)
			if err != nil {
				return err
			}
			if !ok {
				return fmt.Errorf("invariant of %s.%s is violated", proc.Name, l.Name)
			}
		}
	}
	return nil
}

// channel returns the channel an edge synchronises on (-1 for none).
func (r *replayer) channel(e *model.Edge) (int, error) {
	if e.SyncExpr != nil {
		c := int(e.SyncExpr(r.env))
		return c, r.err()
	}
	return e.Sync, nil
}

func (r *replayer) guardHolds(e *model.Edge) (bool, error) {
	if e.Guard == nil {
		return true, nil
	}
	ok := e.Guard(r.env)
	return ok, r.err()
}

// delayForbidden says why time cannot pass in (locs, vars), or "".
func (r *replayer) delayForbidden(locs, vars []int32) (string, error) {
	r.env.Vars, r.env.Locs = vars, locs
	for p, proc := range r.net.Procs {
		l := &proc.Locations[locs[p]]
		if l.Committed {
			return proc.Name + "." + l.Name + " is committed", nil
		}
		if l.Urgent {
			return proc.Name + "." + l.Name + " is urgent", nil
		}
	}
	for p, proc := range r.net.Procs {
		for _, ei := range proc.Locations[locs[p]].Out {
			e := &proc.Edges[ei]
			if !e.HasSync() || !e.Send {
				continue
			}
			ch, err := r.channel(e)
			if err != nil {
				return "", err
			}
			if ch < 0 || !r.net.Chans[ch].Urgent {
				continue
			}
			ok, err := r.guardHolds(e)
			if err != nil {
				return "", err
			}
			if !ok {
				continue
			}
			if r.net.Chans[ch].Broadcast {
				return "urgent broadcast " + r.net.Chans[ch].Name + " is enabled", nil
			}
			for q, qproc := range r.net.Procs {
				if q == p {
					continue
				}
				for _, fi := range qproc.Locations[locs[q]].Out {
					f := &qproc.Edges[fi]
					if !f.HasSync() || f.Send {
						continue
					}
					fc, err := r.channel(f)
					if err != nil {
						return "", err
					}
					ok, err := r.guardHolds(f)
					if err != nil {
						return "", err
					}
					if fc == ch && ok {
						return "urgent channel " + r.net.Chans[ch].Name + " is enabled", nil
					}
				}
			}
		}
	}
	return "", nil
}

// delay lets d (scaled) time units pass, checking that it is allowed and
// that the invariants hold at the end (they are convex upper bounds, so they
// then hold throughout).
func (r *replayer) delay(locs, vars []int32, clocks []int64, d int64) error {
	if d < 0 {
		return fmt.Errorf("negative delay")
	}
	if d == 0 {
		return nil
	}
	why, err := r.delayForbidden(locs, vars)
	if err != nil {
		return err
	}
	if why != "" {
		return fmt.Errorf("time cannot pass: %s", why)
	}
	stopped, err := r.stopped(locs, vars, len(clocks))
	if err != nil {
		return err
	}
	for x := 1; x < len(clocks); x++ {
		if !stopped[x] {
			clocks[x] += d
		}
	}
	return r.checkState(locs, vars, clocks)
}

// stopped returns the clocks whose rate is 0 in (locs, vars): they keep
// their value while time passes (stopwatches; model.Network.Stopped).
func (r *replayer) stopped(locs, vars []int32, dim int) ([]bool, error) {
	s := make([]bool, dim)
	r.env.Vars, r.env.Locs = vars, locs
	r.net.Stopped(r.env, locs, s)
	return s, r.err()
}

// move takes the transition m at the current valuation and returns the
// next state, checking that m is a legal transition of the network.
func (r *replayer) move(locs, vars []int32, clocks []int64, m zone.Move) ([]int32, []int32, []int64, error) {
	net := r.net
	// The engine's skips (zone.SkipRef) say why a process stays out of a
	// broadcast; the replay ignores them and checks the rule itself.
	m = m.Taken()
	if len(m) == 0 {
		return nil, nil, nil, fmt.Errorf("empty move")
	}
	r.env.Vars, r.env.Locs = vars, locs
	inMove := make([]bool, len(net.Procs))
	committed, involvesCommitted := false, false
	for p, proc := range net.Procs {
		if proc.Locations[locs[p]].Committed {
			committed = true
		}
	}
	edges := make([]*model.Edge, len(m))
	for k, ref := range m {
		if int(ref.Proc) >= len(net.Procs) || inMove[ref.Proc] {
			return nil, nil, nil, fmt.Errorf("bad move: process %d", ref.Proc)
		}
		proc := net.Procs[ref.Proc]
		if int(ref.Edge) >= len(proc.Edges) {
			return nil, nil, nil, fmt.Errorf("bad move: edge %d of %s", ref.Edge, proc.Name)
		}
		e := &proc.Edges[ref.Edge]
		if int32(e.From) != locs[ref.Proc] {
			return nil, nil, nil, fmt.Errorf("edge of %s does not leave its current location %s", proc.Name, proc.Locations[locs[ref.Proc]].Name)
		}
		inMove[ref.Proc] = true
		if proc.Locations[locs[ref.Proc]].Committed {
			involvesCommitted = true
		}
		ok, err := r.guardHolds(e)
		if err != nil {
			return nil, nil, nil, err
		}
		if !ok {
			return nil, nil, nil, fmt.Errorf("data guard of %s's edge %s is false", proc.Name, edgeName(proc, e))
		}
		for i := range e.ClockGuard {
			ok, err := r.sat(&e.ClockGuard[i], clocks)
			if err != nil {
				return nil, nil, nil, err
			}
			if !ok {
				return nil, nil, nil, fmt.Errorf("clock guard of %s's edge %s is false", proc.Name, edgeName(proc, e))
			}
		}
		edges[k] = e
	}
	if committed && !involvesCommitted {
		return nil, nil, nil, fmt.Errorf("a process is committed but the move involves none")
	}
	// synchronisation structure
	first := edges[0]
	if !first.HasSync() {
		if len(m) != 1 {
			return nil, nil, nil, fmt.Errorf("internal edge moved together with others")
		}
	} else {
		ch, err := r.channel(first)
		if err != nil {
			return nil, nil, nil, err
		}
		if !first.Send {
			return nil, nil, nil, fmt.Errorf("a move must start with the sender")
		}
		for k := 1; k < len(edges); k++ {
			e := edges[k]
			c, err := r.channel(e)
			if err != nil {
				return nil, nil, nil, err
			}
			if !e.HasSync() || e.Send || c != ch {
				return nil, nil, nil, fmt.Errorf("receiver %d does not receive on %s", k, net.Chans[ch].Name)
			}
			if k > 1 && m[k].Proc <= m[k-1].Proc {
				return nil, nil, nil, fmt.Errorf("broadcast receivers out of process order")
			}
		}
		if net.Chans[ch].Broadcast {
			// every other process with an enabled receiving edge must join
			// (enabled at the valuation: its clock guard counts, as in
			// UPPAAL since version 4.1)
			for q, proc := range net.Procs {
				if inMove[q] {
					continue
				}
				for _, fi := range proc.Locations[locs[q]].Out {
					f := &proc.Edges[fi]
					if !f.HasSync() || f.Send {
						continue
					}
					c, err := r.channel(f)
					if err != nil {
						return nil, nil, nil, err
					}
					ok, err := r.guardHolds(f)
					if err != nil {
						return nil, nil, nil, err
					}
					for i := 0; ok && c == ch && i < len(f.ClockGuard); i++ {
						if ok, err = r.sat(&f.ClockGuard[i], clocks); err != nil {
							return nil, nil, nil, err
						}
					}
					if c == ch && ok {
						return nil, nil, nil, fmt.Errorf("%s can receive broadcast %s but does not join", proc.Name, net.Chans[ch].Name)
					}
				}
			}
		} else if len(m) != 2 {
			return nil, nil, nil, fmt.Errorf("binary synchronisation on %s needs exactly one receiver", net.Chans[ch].Name)
		}
	}
	if net.Priorities {
		if err := r.notBlocked(locs, vars, clocks, m, edges[0]); err != nil {
			return nil, nil, nil, err
		}
		r.env.Vars, r.env.Locs = vars, locs
	}
	// updates in move order, then resets
	nl := append([]int32(nil), locs...)
	nv := append([]int32(nil), vars...)
	nc := append([]int64(nil), clocks...)
	r.env.Vars = nv
	r.env.Resets = r.env.Resets[:0]
	for k, ref := range m {
		e := edges[k]
		if e.Update != nil {
			e.Update(r.env)
			if err := r.err(); err != nil {
				return nil, nil, nil, err
			}
		}
		nl[ref.Proc] = int32(e.To)
	}
	for _, rs := range r.env.Resets {
		nc[rs.Clock] = int64(rs.Value) * r.den
	}
	for i, v := range net.Vars {
		if nv[i] < v.Min || nv[i] > v.Max {
			return nil, nil, nil, fmt.Errorf("%s = %d out of range [%d,%d]", v.Name, nv[i], v.Min, v.Max)
		}
	}
	if err := r.checkState(nl, nv, nc); err != nil {
		return nil, nil, nil, err
	}
	return nl, nv, nc, nil
}

func edgeName(proc *model.Process, e *model.Edge) string {
	return proc.Locations[e.From].Name + "->" + proc.Locations[e.To].Name
}

// holds evaluates a state formula at a concrete state.
func (r *replayer) holds(f *model.Formula, locs, vars []int32, clocks []int64) (bool, error) {
	r.env.Vars, r.env.Locs = vars, locs
	switch f.Kind {
	case model.FTrue:
		return true, nil
	case model.FFalse:
		return false, nil
	case model.FData:
		v := f.Data(r.env)
		return v, r.err()
	case model.FClock:
		return r.sat(&f.Clock, clocks)
	case model.FNot:
		v, err := r.holds(f.Args[0], locs, vars, clocks)
		return !v, err
	case model.FAnd, model.FOr:
		and := f.Kind == model.FAnd
		for _, a := range f.Args {
			v, err := r.holds(a, locs, vars, clocks)
			if err != nil {
				return false, err
			}
			if v != and {
				return v, nil
			}
		}
		return and, nil
	case model.FDeadlock:
		live, err := r.canAct(locs, vars, clocks)
		return !live, err
	}
	return false, fmt.Errorf("unknown formula kind %d", f.Kind)
}

// canAct reports whether some transition can be taken from the concrete
// state now or after some delay: for every candidate move the set of
// admissible delays d is an interval, given by the constraints on u+d (the
// source invariant and the guard) and on (u+d)[r] (the target invariant).
func (r *replayer) canAct(locs, vars []int32, clocks []int64) (bool, error) {
	why, err := r.delayForbidden(locs, vars)
	if err != nil {
		return false, err
	}
	canDelay := why == ""
	found := false
	err = r.candidateMoves(locs, vars, func(m zone.Move) (bool, error) {
		ok, err := r.moveWindow(locs, vars, clocks, m, canDelay)
		if ok {
			found = true
			return false, err
		}
		return true, err
	})
	return found, err
}

// candidateMoves enumerates the moves whose data guards hold (clock guards
// are left to the caller), with the committed rule, independently of the
// zone package.
func (r *replayer) candidateMoves(locs, vars []int32, fn func(zone.Move) (bool, error)) error {
	net := r.net
	r.env.Vars, r.env.Locs = vars, locs
	committed := false
	for p, proc := range net.Procs {
		if proc.Locations[locs[p]].Committed {
			committed = true
		}
	}
	type en struct {
		p, e int
		ch   int
	}
	var enabled []en
	for p, proc := range net.Procs {
		for _, ei := range proc.Locations[locs[p]].Out {
			e := &proc.Edges[ei]
			ok, err := r.guardHolds(e)
			if err != nil {
				return err
			}
			if !ok {
				continue
			}
			ch := -1
			if e.HasSync() {
				if ch, err = r.channel(e); err != nil {
					return err
				}
			}
			enabled = append(enabled, en{p, ei, ch})
		}
	}
	ok := func(m zone.Move) bool {
		if !committed {
			return true
		}
		for _, ref := range m.Taken() {
			if net.Procs[ref.Proc].Locations[locs[ref.Proc]].Committed {
				return true
			}
		}
		return false
	}
	emit := func(m zone.Move) (bool, error) {
		if !ok(m) {
			return true, nil
		}
		return fn(m)
	}
	for _, s := range enabled {
		e := &net.Procs[s.p].Edges[s.e]
		switch {
		case s.ch < 0:
			if cont, err := emit(zone.Move{{Proc: int32(s.p), Edge: int32(s.e)}}); !cont || err != nil {
				return err
			}
		case !e.Send:
		case !net.Chans[s.ch].Broadcast:
			for _, q := range enabled {
				if q.p == s.p || q.ch != s.ch || net.Procs[q.p].Edges[q.e].Send {
					continue
				}
				if cont, err := emit(zone.Move{{Proc: int32(s.p), Edge: int32(s.e)}, {Proc: int32(q.p), Edge: int32(q.e)}}); !cont || err != nil {
					return err
				}
			}
		default:
			// one receiving edge per other process that has any
			var groups [][]en
			for _, q := range enabled {
				if q.p == s.p || q.ch != s.ch || net.Procs[q.p].Edges[q.e].Send {
					continue
				}
				if len(groups) > 0 && groups[len(groups)-1][0].p == q.p {
					groups[len(groups)-1] = append(groups[len(groups)-1], q)
				} else {
					groups = append(groups, []en{q})
				}
			}
			// A process whose receiving edges all have clock guards may
			// also stay out, where each guard fails: ¬(c_0 ∧ … ∧ c_{n-1})
			// is the union of the convex c_0 ∧ … ∧ c_{k-1} ∧ ¬c_k, one
			// skip per edge (zone.SkipRef; moveWindow reads them).
			var out []zone.EdgeRef
			var rec func(k int, m zone.Move) (bool, error)
			var skip func(k int, q []en, m zone.Move) (bool, error)
			rec = func(k int, m zone.Move) (bool, error) {
				if k == len(groups) {
					return emit(append(append(zone.Move(nil), m...), out...))
				}
				for _, q := range groups[k] {
					if cont, err := rec(k+1, append(m, zone.EdgeRef{Proc: int32(q.p), Edge: int32(q.e)})); !cont || err != nil {
						return cont, err
					}
				}
				for _, q := range groups[k] {
					if len(net.Procs[q.p].Edges[q.e].ClockGuard) == 0 {
						return true, nil
					}
				}
				return skip(k, groups[k], m)
			}
			skip = func(k int, q []en, m zone.Move) (bool, error) {
				if len(q) == 0 {
					return rec(k+1, m)
				}
				for c := range net.Procs[q[0].p].Edges[q[0].e].ClockGuard {
					out = append(out, zone.SkipRef(int32(q[0].p), int32(q[0].e), int32(c)))
					cont, err := skip(k, q[1:], m)
					out = out[:len(out)-1]
					if !cont || err != nil {
						return cont, err
					}
				}
				return true, nil
			}
			if cont, err := rec(0, zone.Move{{Proc: int32(s.p), Edge: int32(s.e)}}); !cont || err != nil {
				return err
			}
		}
	}
	return nil
}

// priorityOf is the priority of move m (model.Network.Priority), whose
// first edge is first.
func (r *replayer) priorityOf(m zone.Move, first *model.Edge) (int64, error) {
	ch := int32(-1)
	if first.HasSync() {
		c, err := r.channel(first)
		if err != nil {
			return 0, err
		}
		ch = int32(c)
	}
	return r.net.Priority(ch, func(yield func(int32) bool) {
		for _, ref := range m.Taken() {
			if !yield(ref.Proc) {
				return
			}
		}
	}), nil
}

// notBlocked checks UPPAAL's priority rule for move m at the valuation
// clocks: no move of strictly higher priority can be taken there (its
// guards hold and the target invariant holds after its updates).
func (r *replayer) notBlocked(locs, vars []int32, clocks []int64, m zone.Move, first *model.Edge) error {
	prio, err := r.priorityOf(m, first)
	if err != nil {
		return err
	}
	var blocker zone.Move
	err = r.candidateMoves(locs, vars, func(h zone.Move) (bool, error) {
		hf := &r.net.Procs[h[0].Proc].Edges[h[0].Edge]
		hp, err := r.priorityOf(h, hf)
		if err != nil || hp <= prio {
			return err == nil, err
		}
		ok, err := r.moveWindow(locs, vars, clocks, h, false)
		if ok && err == nil {
			blocker = h
			return false, nil
		}
		return err == nil, err
	})
	if err != nil {
		return err
	}
	if blocker != nil {
		var names []string
		for _, ref := range blocker.Taken() {
			names = append(names, Label(r.net, ref).String())
		}
		return fmt.Errorf("a transition of higher priority is enabled (%s)", strings.Join(names, ", "))
	}
	return nil
}

// interval is a set of delays {d : lo ≺ d ≺ hi} in scaled units.
type interval struct {
	lo, hi             int64
	loStrict, hiStrict bool
	hiInf              bool
}

func (iv *interval) empty() bool {
	if iv.hiInf {
		return false
	}
	if iv.lo < iv.hi {
		return false
	}
	return iv.lo > iv.hi || iv.loStrict || iv.hiStrict
}

// restrict adds the constraint coef·d + base ≺ bound (coef ∈ {-1,0,1}).
func (iv *interval) restrict(coef, base, bound int64, strict bool) {
	switch coef {
	case 0:
		if base > bound || (strict && base == bound) {
			iv.lo, iv.hi, iv.hiInf, iv.loStrict = 1, 0, false, true
		}
	case 1: // d ≺ bound - base
		h := bound - base
		if iv.hiInf || h < iv.hi || (h == iv.hi && strict) {
			iv.hi, iv.hiStrict, iv.hiInf = h, strict, false
		}
	case -1: // d ≻ base - bound
		l := base - bound
		if l > iv.lo || (l == iv.lo && strict) {
			iv.lo, iv.loStrict = l, strict
		}
	}
}

// moveWindow reports whether move m can be taken from the concrete state
// after some admissible delay (d = 0 only when delay is forbidden).
func (r *replayer) moveWindow(locs, vars []int32, clocks []int64, m zone.Move, canDelay bool) (bool, error) {
	net := r.net
	iv := interval{hiInf: true}
	if !canDelay {
		iv.hi, iv.hiInf = 0, false
	}
	dim := len(clocks)
	stopped, err := r.stopped(locs, vars, dim)
	if err != nil {
		return false, err
	}
	coef := make([]int64, dim)
	for x := 1; x < dim; x++ {
		if !stopped[x] {
			coef[x] = 1
		}
	}
	// constraint x_I - x_J ≺ c on u + d·coef (+ reset values)
	// ... or its negation x_J - x_I ≺' -c
	addNeg := func(c *model.ClockConstraint, val []int64, co []int64, neg bool) error {
		v := int64(c.Const)
		if c.Value != nil {
			v = int64(c.Value(r.env))
			if err := r.err(); err != nil {
				return err
			}
		}
		if neg {
			iv.restrict(co[c.J]-co[c.I], val[c.J]-val[c.I], -v*r.den, !c.Strict)
		} else {
			iv.restrict(co[c.I]-co[c.J], val[c.I]-val[c.J], v*r.den, c.Strict)
		}
		return nil
	}
	add := func(c *model.ClockConstraint, val []int64, co []int64) error { return addNeg(c, val, co, false) }
	r.env.Vars, r.env.Locs = vars, locs
	for p, proc := range net.Procs {
		l := &proc.Locations[locs[p]]
		for k := range l.Invariant {
			if err := add(&l.Invariant[k], clocks, coef); err != nil {
				return false, err
			}
		}
	}
	for _, ref := range m {
		if edge, fail, skip := ref.Skip(); skip {
			// the process stays out: constraints before fail hold, fail does not
			e := &net.Procs[ref.Proc].Edges[edge]
			for k := 0; k <= int(fail); k++ {
				if err := addNeg(&e.ClockGuard[k], clocks, coef, k == int(fail)); err != nil {
					return false, err
				}
			}
			continue
		}
		e := &net.Procs[ref.Proc].Edges[ref.Edge]
		for k := range e.ClockGuard {
			if err := add(&e.ClockGuard[k], clocks, coef); err != nil {
				return false, err
			}
		}
	}
	// No delay satisfies the source invariants and the clock guards: the
	// move cannot be taken, and its updates never run (running them could
	// raise an error no run meets).
	if iv.empty() {
		return false, nil
	}
	// target: run the updates on a copy
	nl := append([]int32(nil), locs...)
	nv := append([]int32(nil), vars...)
	r.env.Vars = nv
	r.env.Resets = r.env.Resets[:0]
	for _, ref := range m.Taken() {
		e := &net.Procs[ref.Proc].Edges[ref.Edge]
		if e.Update != nil {
			e.Update(r.env)
			if err := r.err(); err != nil {
				return false, err
			}
		}
		nl[ref.Proc] = int32(e.To)
	}
	tval := append([]int64(nil), clocks...)
	tco := append([]int64(nil), coef...)
	for _, rs := range r.env.Resets {
		tval[rs.Clock] = int64(rs.Value) * r.den
		tco[rs.Clock] = 0
	}
	r.env.Vars, r.env.Locs = nv, nl
	for p, proc := range net.Procs {
		l := &proc.Locations[nl[p]]
		if l.InvData != nil {
			ok := l.InvData(r.env)
			if err := r.err(); err != nil {
				return false, err
			}
			if !ok {
				return false, nil
			}
		}
		for k := range l.Invariant {
			if err := add(&l.Invariant[k], tval, tco); err != nil {
				return false, err
			}
		}
	}
	return !iv.empty(), nil
}

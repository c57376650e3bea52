package refcheck

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"

	"github.com/tcheck/tcheck/model"
)

// errRaise: some constraint was undetermined by a region; explorer.pend
// says which ceilings to raise before exploring again.
var errRaise = errors.New("refcheck: raise ceilings")

// raiseReq asks for clock's ceiling to be at least need.
type raiseReq struct {
	clock int
	need  int64
}

// explorer is one exploration of the region graph with fixed ceilings.
type explorer struct {
	layout
	net  *model.Network
	env  *model.Env
	ceil []int32 // per region clock; [0] unused
	max  int     // state limit
	nm   int     // the model's clocks (1..nm); nc = nm, or nm+1 with the tick clock

	// tick is the index of the auxiliary tick clock (0 = none): a clock of
	// no process, with ceiling 1, set back to 0 whenever it reaches 1, so
	// that a time step that makes it reach 1 witnesses one time unit.
	tick int
	// start: the state to explore from (Options.From; nil: the
	// initial state)
	start *Start
	// horizon is the index of the horizon clock (Options.Within; 0:
	// none), the last clock, and within its bound
	horizon int
	within  int32
	// supClock > 0: record the region graph's edges (succ) for Sup; graph:
	// record them for the liveness queries (liveness.go).
	supClock int
	graph    bool
	succ     [][]edgeRec

	states    [][]int32
	index     map[string]int32
	hasMove   []bool  // some discrete move is possible from the state
	delayNext []int32 // the time successor's index; -1: no delay; the state itself: stationary
	dead      []tri   // deadlock, computed on demand (tUnknown = not yet)

	pend []raiseReq

	// tried counts the moves (combinations of edges) enumerated so far;
	// past maxTried the exploration gives up (movesPerState).
	tried, maxTried int

	// per-state scratch
	edges [][]edgeInfo
	key   []byte
}

// edgeInfo is an outgoing edge of a process in the current state.
type edgeInfo struct {
	e       *model.Edge
	ch      int // channel index, -1 for none
	enabled bool
}

// edgeRec is an edge of the region graph, recorded for Sup.
type edgeRec struct {
	to     int32
	resets bool // a discrete move that resets supClock
	tick   bool // a time step in which the tick clock reaches 1
}

// newExplorer prepares an exploration with the given ceilings (indexed by
// clock); supClock > 0 adds the tick clock and records the graph.
func newExplorer(net *model.Network, ceil []int32, maxStates int, supClock int) *explorer {
	nm := len(net.Clocks) - 1
	maxStates = min(maxStates, math.MaxInt/movesPerState) // maxTried does not overflow
	x := &explorer{
		layout:   layout{np: len(net.Procs), nv: len(net.Vars), nc: nm},
		net:      net,
		env:      net.NewEnv(),
		ceil:     ceil,
		max:      maxStates,
		maxTried: maxStates * movesPerState,
		nm:       nm,
		supClock: supClock,
		index:    map[string]int32{},
		edges:    make([][]edgeInfo, len(net.Procs)),
	}
	if supClock > 0 {
		x.tick = nm + 1
		x.nc = nm + 1
		x.ceil = append(ceil[:nm+1:nm+1], 1)
	}
	return x
}

// addHorizon adds the horizon clock of Options.Within: never reset,
// starting at 0, with the ceiling t; valid keeps h <= t.
func (x *explorer) addHorizon(t int32) {
	x.nc++
	x.horizon = x.nc
	x.within = t
	x.ceil = append(x.ceil[:x.nc:x.nc], t)
}

// atHorizon reports whether the horizon clock of state i is at its bound
// (a liveness run may end there).
func (x *explorer) atHorizon(i int) bool {
	st := x.states[i]
	return x.horizon > 0 && st[x.kOff(x.horizon)] == x.within && st[x.ordOff(x.horizon)] == 0
}

// records reports whether the exploration records the graph's edges.
func (x *explorer) records() bool { return x.supClock > 0 || x.graph }

func (x *explorer) locs(st []int32) []int32 { return st[:x.np] }
func (x *explorer) vars(st []int32) []int32 { return st[x.np : x.np+x.nv] }

// modelErr wraps the Env's runtime error.
func (x *explorer) modelErr() error {
	err := x.env.Err
	x.env.Err = nil
	return &ModelError{Err: err}
}

// setEnv points the Env at a state's locations and variables.
func (x *explorer) setEnv(locs, vars []int32) {
	x.env.Locs, x.env.Vars, x.env.Err = locs, vars, nil
}

// add stores st if new and returns its index.
func (x *explorer) add(st []int32) (int32, error) {
	x.key = x.key[:0]
	for _, v := range st {
		x.key = binary.LittleEndian.AppendUint32(x.key, uint32(v))
	}
	if i, ok := x.index[string(x.key)]; ok {
		return i, nil
	}
	if len(x.states) >= x.max {
		return -1, ErrLimit
	}
	i := int32(len(x.states))
	x.index[string(x.key)] = i
	x.states = append(x.states, st)
	x.hasMove = append(x.hasMove, false)
	x.delayNext = append(x.delayNext, -1)
	if x.records() {
		x.succ = append(x.succ, nil)
	}
	return i, nil
}

// constraint decides a clock constraint over st's region; a data-dependent
// constant is computed from st's variables (runtime errors are model
// errors). An undetermined constraint records the ceilings to raise.
func (x *explorer) constraint(st []int32, cc *model.ClockConstraint) (tri, error) {
	c := int64(cc.Const)
	if cc.Value != nil {
		x.setEnv(x.locs(st), x.vars(st))
		c = int64(cc.Value(x.env))
		if x.env.Err != nil {
			return tFalse, x.modelErr()
		}
	}
	if cc.I < 0 || cc.I > x.nm || cc.J < 0 || cc.J > x.nm {
		return tFalse, &Unsupported{Msg: fmt.Sprintf("clock constraint over clocks %d, %d out of range", cc.I, cc.J)}
	}
	v := x.diffIval(st, cc.I, cc.J)
	t := v.le(c, cc.Strict)
	if t != tUnknown {
		return t, nil
	}
	i, j := cc.I, cc.J
	switch {
	case j == 0: // x_i ≺ c with x_i beyond its ceiling
		x.pend = append(x.pend, raiseReq{i, c})
	case i == 0: // x_j ≻ -c
		x.pend = append(x.pend, raiseReq{j, -c})
	default:
		ci, cj := int64(x.ceil[i]), int64(x.ceil[j])
		if v.beyondI {
			x.pend = append(x.pend, raiseReq{i, max(ci+1, c+cj+1)})
		}
		if v.beyondJ {
			x.pend = append(x.pend, raiseReq{j, max(cj+1, ci+1-c)})
		}
	}
	return tUnknown, nil
}

// conj decides a conjunction of clock constraints: false as soon as one is
// false (the undetermined ones then need no raise).
func (x *explorer) conj(st []int32, ccs []model.ClockConstraint) (tri, error) {
	mark := len(x.pend)
	res := tTrue
	for k := range ccs {
		t, err := x.constraint(st, &ccs[k])
		if err != nil {
			return tFalse, err
		}
		switch t {
		case tFalse:
			x.pend = x.pend[:mark]
			return tFalse, nil
		case tUnknown:
			res = tUnknown
		}
	}
	return res, nil
}

// valid reports whether st satisfies every process's invariant (data and
// clock part). An undetermined invariant is errRaise.
func (x *explorer) valid(st []int32) (bool, error) {
	if h := x.horizon; h > 0 && (st[x.kOff(h)] > x.within || st[x.kOff(h)] == x.within && st[x.ordOff(h)] != 0) {
		return false, nil // past the horizon
	}
	locs := x.locs(st)
	mark := len(x.pend)
	unknown := false
	for p, proc := range x.net.Procs {
		l := &proc.Locations[locs[p]]
		if l.InvData != nil {
			x.setEnv(locs, x.vars(st))
			ok := l.InvData(x.env)
			if x.env.Err != nil {
				return false, x.modelErr()
			}
			if !ok {
				x.pend = x.pend[:mark]
				return false, nil
			}
		}
		t, err := x.conj(st, l.Invariant)
		if err != nil {
			return false, err
		}
		switch t {
		case tFalse:
			x.pend = x.pend[:mark]
			return false, nil
		case tUnknown:
			unknown = true
		}
	}
	if unknown {
		return false, errRaise
	}
	return true, nil
}

// channel returns the channel index of a synchronising edge in st.
func (x *explorer) channel(st []int32, e *model.Edge) (int, error) {
	if !e.HasSync() {
		return -1, nil
	}
	ch := e.Sync
	if e.SyncExpr != nil {
		x.setEnv(x.locs(st), x.vars(st))
		ch = int(e.SyncExpr(x.env))
		if x.env.Err != nil {
			return -1, x.modelErr()
		}
	}
	if ch < 0 || ch >= len(x.net.Chans) {
		return -1, &ModelError{Err: &model.RuntimeError{Msg: fmt.Sprintf("channel index %d out of range (edge %s)", ch, e.SyncSrc)}}
	}
	return ch, nil
}

// scan evaluates, for every process, its outgoing edges in st: whether
// the guards (data, then clock) hold and, for an enabled edge, its channel.
// (The channel index of a disabled edge is not evaluated: a guard may
// protect it, as in `i < 3` with `c[i]!`.)
func (x *explorer) scan(st []int32) error {
	locs := x.locs(st)
	for p, proc := range x.net.Procs {
		x.edges[p] = x.edges[p][:0]
		for _, ei := range proc.Locations[locs[p]].Out {
			e := &proc.Edges[ei]
			enabled := true
			if e.Guard != nil {
				x.setEnv(locs, x.vars(st))
				enabled = e.Guard(x.env)
				if x.env.Err != nil {
					return x.modelErr()
				}
			}
			if enabled {
				t, err := x.conj(st, e.ClockGuard)
				if err != nil {
					return err
				}
				if t == tUnknown {
					return errRaise
				}
				enabled = t == tTrue
			}
			ch := -1
			if enabled {
				var err error
				if ch, err = x.channel(st, e); err != nil {
					return err
				}
			}
			x.edges[p] = append(x.edges[p], edgeInfo{e: e, ch: ch, enabled: enabled})
		}
	}
	return nil
}

// delayAllowed: no committed or urgent location, no enabled urgent
// synchronisation (scan must have run on the state).
func (x *explorer) delayAllowed(st []int32) bool {
	locs := x.locs(st)
	for p, proc := range x.net.Procs {
		l := &proc.Locations[locs[p]]
		if l.Committed || l.Urgent {
			return false
		}
	}
	for p := range x.net.Procs {
		for _, s := range x.edges[p] {
			if !s.enabled || s.ch < 0 || !s.e.Send || !x.net.Chans[s.ch].Urgent {
				continue
			}
			if x.net.Chans[s.ch].Broadcast {
				return false
			}
			for q := range x.net.Procs {
				if q == p {
					continue
				}
				for _, r := range x.edges[q] {
					if r.enabled && r.ch == s.ch && !r.e.Send {
						return false
					}
				}
			}
		}
	}
	return true
}

// fire performs the move of the given edges (sender first, then receivers
// in process order) from st and returns the target, or nil when the target
// violates an invariant; resetsSup says whether the move resets supClock.
func (x *explorer) fire(st []int32, parts []*model.Edge) (next []int32, resetsSup bool, err error) {
	next = slices.Clone(st)
	x.setEnv(x.locs(st), x.vars(next))
	x.env.Resets = x.env.Resets[:0]
	for _, e := range parts {
		if e.Update != nil {
			e.Update(x.env)
			if x.env.Err != nil {
				return nil, false, x.modelErr()
			}
		}
	}
	for _, e := range parts {
		next[e.Proc] = int32(e.To)
	}
	for _, r := range x.env.Resets {
		if r.Clock <= 0 || r.Clock > x.nm || r.Value < 0 {
			return nil, false, &ModelError{Err: &model.RuntimeError{Msg: fmt.Sprintf("bad reset of clock %d to %d", r.Clock, r.Value)}}
		}
		x.reset(next, r.Clock, r.Value)
		resetsSup = resetsSup || r.Clock == x.supClock
	}
	x.normalise(next)
	ok, err := x.valid(next)
	if err != nil || !ok {
		return nil, false, err
	}
	return next, resetsSup, nil
}

// moves calls emit with every discrete successor of st (scan must have
// run on st).
func (x *explorer) moves(st []int32, emit func(next []int32, resetsSup bool) error) error {
	locs := x.locs(st)
	committed := make([]bool, x.np)
	anyCommitted := false
	for p, proc := range x.net.Procs {
		committed[p] = proc.Locations[locs[p]].Committed
		anyCommitted = anyCommitted || committed[p]
	}
	// With priorities (UPPAAL's chan priority, system A < B) a transition
	// is taken only if none of strictly higher priority is enabled. The
	// order is total: the candidates are collected with their priorities
	// and fired from the highest level down; the first level where one
	// fires (its target invariant holds) gives the successors, and the
	// levels below are never fired (a blocked transition's update does not
	// run, so its model errors do not count).
	type candidate struct {
		parts []*model.Edge
		prio  int64
	}
	var cands []candidate
	try := func(parts []*model.Edge) error {
		// counted before anything else: the moves a state has can be
		// exponentially many, whether they fire or not
		x.tried++
		if x.tried > x.maxTried {
			return fmt.Errorf("%w: %d moves enumerated (%d per state of the limit)", ErrLimit, x.maxTried, movesPerState)
		}
		if anyCommitted {
			ok := false
			for _, e := range parts {
				ok = ok || committed[e.Proc]
			}
			if !ok {
				return nil
			}
		}
		if x.net.Priorities {
			ch, err := x.channel(st, parts[0])
			if err != nil {
				return err
			}
			prio := x.net.Priority(int32(ch), func(yield func(int32) bool) {
				for _, e := range parts {
					if !yield(int32(e.Proc)) {
						return
					}
				}
			})
			cands = append(cands, candidate{parts, prio})
			return nil
		}
		next, resetsSup, err := x.fire(st, parts)
		if err != nil || next == nil {
			return err
		}
		return emit(next, resetsSup)
	}
	for p := range x.net.Procs {
		for _, s := range x.edges[p] {
			if !s.enabled {
				continue
			}
			if s.ch < 0 {
				if err := try([]*model.Edge{s.e}); err != nil {
					return err
				}
				continue
			}
			if !s.e.Send {
				continue
			}
			if !x.net.Chans[s.ch].Broadcast {
				for q := range x.net.Procs {
					if q == p {
						continue
					}
					for _, r := range x.edges[q] {
						if r.enabled && r.ch == s.ch && !r.e.Send {
							if err := try([]*model.Edge{s.e, r.e}); err != nil {
								return err
							}
						}
					}
				}
				continue
			}
			// Broadcast: every other process with an enabled receiver joins
			// with one of them.
			var choices [][]*model.Edge
			for q := range x.net.Procs {
				if q == p {
					continue
				}
				var rs []*model.Edge
				for _, r := range x.edges[q] {
					if r.enabled && r.ch == s.ch && !r.e.Send {
						rs = append(rs, r.e)
					}
				}
				if len(rs) > 0 {
					choices = append(choices, rs)
				}
			}
			parts := make([]*model.Edge, 1+len(choices))
			parts[0] = s.e
			var rec func(k int) error
			rec = func(k int) error {
				if k == len(choices) {
					return try(slices.Clone(parts))
				}
				for _, r := range choices[k] {
					parts[1+k] = r
					if err := rec(k + 1); err != nil {
						return err
					}
				}
				return nil
			}
			if err := rec(0); err != nil {
				return err
			}
		}
	}
	slices.SortStableFunc(cands, func(a, b candidate) int { return cmp.Compare(b.prio, a.prio) })
	for i := 0; i < len(cands); {
		j := i
		fired := false
		for ; j < len(cands) && cands[j].prio == cands[i].prio; j++ {
			next, resetsSup, err := x.fire(st, cands[j].parts)
			if err != nil {
				return err
			}
			if next != nil {
				fired = true
				if err := emit(next, resetsSup); err != nil {
					return err
				}
			}
		}
		if fired {
			break
		}
		i = j
	}
	return nil
}

// initial returns the initial state: initial locations and variables,
// every clock 0.
func (x *explorer) initial() []int32 {
	st := make([]int32, x.size())
	if x.start != nil {
		return x.startRegion(st)
	}
	for p, proc := range x.net.Procs {
		st[p] = int32(proc.Initial)
	}
	for i, v := range x.net.Vars {
		st[x.np+i] = v.Init
	}
	return st
}

// startRegion fills st with the region of x.start: each clock's integer
// part, and its fractional part's rank among the clocks' (0 for an
// integer value; normalise makes the ranks dense); the tick and horizon
// clocks start at 0.
func (x *explorer) startRegion(st []int32) []int32 {
	s := x.start
	copy(st, s.Locs)
	copy(st[x.np:], s.Vars)
	n := min(x.nm, len(s.Clocks)-1)
	frac := make([]*big.Rat, n+1)
	for c := 1; c <= n; c++ {
		v := s.Clocks[c]
		k := new(big.Int).Quo(v.Num(), v.Denom()) // values are not negative
		st[x.kOff(c)] = int32(min(k.Int64(), int64(x.ceil[c])+1))
		frac[c] = new(big.Rat).Sub(v, new(big.Rat).SetInt(k))
	}
	for c := 1; c <= n; c++ {
		if frac[c].Sign() == 0 {
			continue
		}
		rank := int32(1) // 1 + the non-zero fractions below frac[c]
		for d := 1; d <= n; d++ {
			if frac[d].Sign() != 0 && frac[d].Cmp(frac[c]) < 0 {
				rank++
			}
		}
		st[x.ordOff(c)] = rank
	}
	x.normalise(st)
	return st
}

// explore builds the whole reachable region graph (breadth first).
func (x *explorer) explore() error {
	init := x.initial()
	ok, err := x.valid(init)
	if err != nil {
		return err
	}
	if !ok {
		// Not a valid state (model.Location: "a state whose data part is
		// false is not a valid state"): nothing is reachable, as in
		// tcheck.
		return nil
	}
	if _, err := x.add(init); err != nil {
		return err
	}
	for i := 0; i < len(x.states); i++ {
		st := x.states[i]
		if err := x.scan(st); err != nil {
			return err
		}
		err := x.moves(st, func(next []int32, resetsSup bool) error {
			x.hasMove[i] = true
			j, err := x.add(next)
			if err == nil && x.records() {
				x.succ[i] = append(x.succ[i], edgeRec{to: j, resets: resetsSup})
			}
			return err
		})
		if err != nil {
			return err
		}
		if !x.delayAllowed(st) {
			continue
		}
		next, stationary, tick := x.timeSucc(st)
		if stationary {
			x.delayNext[i] = int32(i)
			continue
		}
		ok, err := x.valid(next)
		if err != nil {
			return err
		}
		if ok {
			j, err := x.add(next)
			if err != nil {
				return err
			}
			x.delayNext[i] = j
			if x.records() {
				x.succ[i] = append(x.succ[i], edgeRec{to: j, tick: tick})
			}
		}
	}
	return nil
}

// deadlock reports whether state i has no move, now or after any allowed
// delay: along its chain of time successors no state has a discrete move.
// (With the tick clock the chain may end in a cycle of time steps: a
// region where time passes forever.)
func (x *explorer) deadlock(i int32) bool {
	if x.dead == nil {
		x.dead = make([]tri, len(x.states))
		for k := range x.dead {
			x.dead[k] = tUnknown
		}
	}
	var chain []int32
	res := false
	for j := i; ; {
		if x.dead[j] != tUnknown {
			res = x.dead[j] == tTrue
			break
		}
		if slices.Contains(chain, j) {
			res = true // a cycle of delays without a move
			break
		}
		chain = append(chain, j)
		if x.hasMove[j] {
			res = false
			break
		}
		n := x.delayNext[j]
		if n < 0 || n == j {
			res = true
			break
		}
		j = n
	}
	t := tFalse
	if res {
		t = tTrue
	}
	for _, j := range chain {
		x.dead[j] = t
	}
	return res
}

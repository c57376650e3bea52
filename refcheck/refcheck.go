package refcheck

import (
	"errors"
	"fmt"
	"math/big"

	"github.com/tcheck/tcheck/model"
)

// Options bound the exploration.
type Options struct {
	// MaxStates: 0 = default 200000; exceeding it returns ErrLimit. It
	// bounds the moves enumerated too: 64 per state of the limit
	// (movesPerState), then ErrLimit.
	MaxStates int
	// SupCeiling: for Sup over a clock, the clock's ceiling is raised to
	// this (0 = default 64).
	SupCeiling int64
	// From, when set, is the state the exploration starts from instead of
	// the initial one (tcheck's --from): it starts from the state's
	// region, which answers every question as the state does (Alur and
	// Dill's regions are a time-abstract bisimulation), and a sup or inf
	// over a clock gives the region's extreme, which bounds the state's
	// where a clock value is not an integer.
	From *Start
	// Within, when positive, explores only the runs that last at most
	// Within time units from the start (tcheck's --within): a horizon
	// clock, never reset, with the invariant h <= Within everywhere. A
	// liveness query's run may end where it reaches the horizon.
	Within int32
}

// Start is a state to explore from (Options.From): a location per
// process, the variable vector, and a value for every clock (Clocks[0],
// the reference clock, is 0).
type Start struct {
	Locs   []int32
	Vars   []int32
	Clocks []*big.Rat
}

const (
	defaultMaxStates  = 200000
	defaultSupCeiling = 64
	// minCap is the least ceiling up to which undetermined constraints make
	// the checker raise a ceiling and explore again.
	minCap = 64
	// maxRetries bounds the explorations of one question.
	maxRetries = 64
	// movesPerState bounds the time of an exploration as MaxStates bounds
	// its memory: it gives up (ErrLimit) once it has enumerated
	// movesPerState × MaxStates moves, fired or not. A broadcast joins one
	// receiving edge from every other process that has one, so a single
	// state can have exponentially many moves in the number of processes,
	// all leading to a few targets (testdata/limits/broadcast-fanout.yaml:
	// 6^8 per sending edge, 8450 states: days of enumeration). 64: the
	// explorations of difftest's random models that complete within its
	// state limit enumerate up to 41 moves per state of the limit.
	movesPerState = 64
)

// ErrLimit: the exploration stored Options.MaxStates states and would need
// more, or it enumerated the most moves that limit allows (Options).
var ErrLimit = errors.New("refcheck: state limit reached")

// Unsupported is returned for models and formulas outside what the
// reference handles (a constraint the regions cannot decide below the
// largest ceiling allowed, an initial state that violates an invariant, ...).
type Unsupported struct{ Msg string }

func (u *Unsupported) Error() string { return "refcheck: unsupported: " + u.Msg }

// ModelError: a reachable move (or the initial state, a guard or invariant
// of a reachable state, the query formula) raised a runtime error; Err is the
// model's error.
type ModelError struct{ Err *model.RuntimeError }

func (m *ModelError) Error() string { return "model error: " + m.Err.Error() }

// Reachable reports whether some reachable state (location vector, data,
// clock valuation, including states reached by delays) satisfies f. f may
// contain FDeadlock (the state has no enabled move now or after any delay).
// A runtime error raised anywhere in the reachable part of the model is a
// *ModelError, whether or not f is reachable.
func Reachable(net *model.Network, f *model.Formula, opts Options) (bool, error) {
	found := false
	err := solve(net, []*model.Formula{f}, 0, false, opts, func(x *explorer) error {
		found = false
		unknown := false
		for i := range x.states {
			mark := len(x.pend)
			t, err := x.eval(f, int32(i))
			if err != nil {
				return err
			}
			switch t {
			case tTrue:
				found = true
				return nil
			case tUnknown:
				unknown = true
			default:
				x.pend = x.pend[:mark]
			}
		}
		if unknown {
			return errRaise
		}
		return nil
	})
	return found, err
}

// Invariant reports whether every reachable state satisfies f (A[] f),
// that is !Reachable(not f).
func Invariant(net *model.Network, f *model.Formula, opts Options) (bool, error) {
	r, err := Reachable(net, not(f), opts)
	return !r, err
}

// SupValue is the supremum (or, with Infimum set, the infimum) of a clock
// or a data expression over the reachable states that satisfy a condition.
type SupValue struct {
	None   bool // no reachable state satisfies the condition
	Inf    bool // unbounded (a supremum only)
	Bound  int64
	Strict bool // Bound is not attained: "<Bound" (sup), ">Bound" (inf)
	// AtLeast: the clock exceeds its ceiling (Bound = opts.SupCeiling, or
	// the clock's largest constant if larger): the supremum is > Bound. Inf
	// is exact (package documentation), so an AtLeast supremum is finite.
	// Of an infimum: in every region where the condition holds the clock
	// is beyond its ceiling Bound, so the infimum is at least Bound.
	AtLeast bool
	// Infimum: the value is an infimum (Inf).
	Infimum bool
}

// String spells the value as tcheck's queries.Value.String does: "12",
// "<12", "inf", ">64", "none"; of an infimum "12", ">12" (not attained)
// and ">=64" (beyond the ceiling).
func (v SupValue) String() string {
	switch {
	case v.None:
		return "none"
	case v.Inf:
		return "inf"
	case v.AtLeast && v.Infimum:
		return fmt.Sprintf(">=%d", v.Bound)
	case v.AtLeast, v.Strict && v.Infimum:
		return fmt.Sprintf(">%d", v.Bound)
	case v.Strict:
		return fmt.Sprintf("<%d", v.Bound)
	}
	return fmt.Sprintf("%d", v.Bound)
}

// Sup computes the supremum of clock number clock (an index into
// net.Clocks, > 0) over the reachable states satisfying cond (nil = true).
// See the package documentation for why the value is exact, and when it is
// only a lower bound (AtLeast).
func Sup(net *model.Network, cond *model.Formula, clock int, opts Options) (SupValue, error) {
	if clock <= 0 || clock >= len(net.Clocks) {
		return SupValue{}, &Unsupported{Msg: fmt.Sprintf("sup over clock %d: no such clock", clock)}
	}
	var res SupValue
	err := solve(net, condList(cond), clock, false, opts, func(x *explorer) error {
		res = SupValue{None: true}
		var unbounded []bool // computed when first needed
		return x.eachWhere(cond, func(i int, st []int32) error {
			var v SupValue
			switch {
			case x.beyond(st, clock):
				if unbounded == nil {
					unbounded = x.unbounded()
				}
				v = SupValue{AtLeast: true, Bound: int64(x.ceil[clock])}
				if unbounded[i] {
					v = SupValue{Inf: true}
				}
			case st[x.ordOff(clock)] == 0:
				v = SupValue{Bound: int64(st[x.kOff(clock)])}
			default:
				v = SupValue{Bound: int64(st[x.kOff(clock)]) + 1, Strict: true}
			}
			res = supMax(res, v)
			return nil
		})
	})
	return res, err
}

// Inf computes the infimum of clock number clock (an index into
// net.Clocks, > 0) over the reachable states satisfying cond (nil =
// true). The clock's ceiling is raised to Options.SupCeiling as for Sup,
// and a region where the clock is below it gives its integer part k,
// attained where the fractional part is zero and not attained (">k")
// where it is not: by the argument that makes Sup exact, the reachable
// valuations of a region take every value of the clock the region
// allows, here down to k. A region where the clock is beyond its ceiling
// C says only that the values there exceed C (AtLeast, ">=C"), as all
// the valuations beyond a ceiling are one region.
func Inf(net *model.Network, cond *model.Formula, clock int, opts Options) (SupValue, error) {
	if clock <= 0 || clock >= len(net.Clocks) {
		return SupValue{}, &Unsupported{Msg: fmt.Sprintf("inf over clock %d: no such clock", clock)}
	}
	res := SupValue{None: true, Infimum: true}
	err := solveRaising(net, condList(cond), clock, 0, false, opts, func(x *explorer) error {
		res = SupValue{None: true, Infimum: true}
		return x.eachWhere(cond, func(_ int, st []int32) error {
			v := SupValue{Infimum: true, Bound: int64(st[x.kOff(clock)])}
			switch {
			case x.beyond(st, clock):
				v.AtLeast, v.Bound = true, int64(x.ceil[clock])
			case st[x.ordOff(clock)] != 0:
				v.Strict = true
			}
			res = infMin(res, v)
			return nil
		})
	})
	return res, err
}

// Data computes the supremum (sup) or infimum of the data expression e
// over the reachable states satisfying cond (nil = true): the largest or
// smallest value e takes on the discrete part of a reachable region where
// cond holds. A runtime error e raises in such a state is a *ModelError,
// as tcheck makes it an error of the query.
func Data(net *model.Network, cond *model.Formula, e model.IntExpr, sup bool, opts Options) (SupValue, error) {
	res := SupValue{None: true, Infimum: !sup}
	err := solve(net, condList(cond), 0, false, opts, func(x *explorer) error {
		res = SupValue{None: true, Infimum: !sup}
		return x.eachWhere(cond, func(_ int, st []int32) error {
			x.setEnv(x.locs(st), x.vars(st))
			v := int64(e(x.env))
			if x.env.Err != nil {
				return x.modelErr()
			}
			if res.None || sup && v > res.Bound || !sup && v < res.Bound {
				res = SupValue{Bound: v, Infimum: !sup}
			}
			return nil
		})
	})
	return res, err
}

func condList(cond *model.Formula) []*model.Formula {
	if cond == nil {
		return nil
	}
	return []*model.Formula{cond}
}

// eachWhere calls f on each explored region where cond (nil = true)
// holds. A region that cond's constraints do not decide at the present
// ceilings is skipped and the exploration made again with them raised
// (errRaise), once f has seen the others.
func (x *explorer) eachWhere(cond *model.Formula, f func(i int, st []int32) error) error {
	unknown := false
	for i, st := range x.states {
		if cond != nil {
			mark := len(x.pend)
			t, err := x.eval(cond, int32(i))
			if err != nil {
				return err
			}
			if t != tUnknown {
				x.pend = x.pend[:mark]
			}
			if t == tUnknown {
				unknown = true
			}
			if t != tTrue {
				continue
			}
		}
		if err := f(i, st); err != nil {
			return err
		}
	}
	if unknown {
		return errRaise
	}
	return nil
}

// infMin is the smaller of two infima.
func infMin(a, b SupValue) SupValue {
	switch {
	case a.None:
		return b
	case b.None:
		return a
	case a.AtLeast:
		return b
	case b.AtLeast:
		return a
	case a.Bound != b.Bound:
		if a.Bound < b.Bound {
			return a
		}
		return b
	}
	return SupValue{Bound: a.Bound, Strict: a.Strict && b.Strict, Infimum: true}
}

// supMax is the larger of two suprema.
func supMax(a, b SupValue) SupValue {
	switch {
	case a.None:
		return b
	case b.None:
		return a
	case a.Inf || b.Inf:
		return SupValue{Inf: true}
	case a.AtLeast:
		return a
	case b.AtLeast:
		return b
	case a.Bound != b.Bound:
		if a.Bound > b.Bound {
			return a
		}
		return b
	}
	return SupValue{Bound: a.Bound, Strict: a.Strict && b.Strict}
}

// eval decides formula f on state i.
func (x *explorer) eval(f *model.Formula, i int32) (tri, error) {
	st := x.states[i]
	switch f.Kind {
	case model.FTrue:
		return tTrue, nil
	case model.FFalse:
		return tFalse, nil
	case model.FData:
		x.setEnv(x.locs(st), x.vars(st))
		ok := f.Data(x.env)
		if x.env.Err != nil {
			return tFalse, x.modelErr()
		}
		if ok {
			return tTrue, nil
		}
		return tFalse, nil
	case model.FClock:
		return x.constraint(st, &f.Clock)
	case model.FDeadlock:
		if x.deadlock(i) {
			return tTrue, nil
		}
		return tFalse, nil
	case model.FNot:
		if len(f.Args) != 1 {
			return tFalse, &Unsupported{Msg: "malformed negation in formula " + f.Src}
		}
		t, err := x.eval(f.Args[0], i)
		return t.not(), err
	case model.FAnd, model.FOr:
		// Kleene's three-valued logic: a false conjunct (true disjunct)
		// decides, whatever the undetermined ones.
		decide, neutral := tFalse, tTrue
		if f.Kind == model.FOr {
			decide, neutral = tTrue, tFalse
		}
		mark := len(x.pend)
		res := neutral
		for _, a := range f.Args {
			t, err := x.eval(a, i)
			if err != nil {
				return tFalse, err
			}
			if t == decide {
				x.pend = x.pend[:mark]
				return decide, nil
			}
			if t == tUnknown {
				res = tUnknown
			}
		}
		return res, nil
	}
	return tFalse, &Unsupported{Msg: fmt.Sprintf("formula kind %d in %s", f.Kind, f.Src)}
}

// solve explores the region graph with the ceilings of net and fs (and
// SupCeiling for supClock > 0), recording its edges where graph is set,
// and runs query on the exploration; while
// the exploration or the query meets a constraint that a region does not
// decide, it raises the ceilings concerned and starts again, up to a cap
// (then Unsupported).
func solve(net *model.Network, fs []*model.Formula, supClock int, graph bool, opts Options, query func(*explorer) error) error {
	return solveRaising(net, fs, supClock, supClock, graph, opts, query)
}

// solveRaising is solve with the ceiling of clock raise (> 0) raised to
// SupCeiling, whether or not supClock's tick clock is added (Inf raises
// the ceiling without it).
func solveRaising(net *model.Network, fs []*model.Formula, raise, supClock int, graph bool, opts Options, query func(*explorer) error) error {
	if len(net.Clocks) == 0 {
		return &Unsupported{Msg: "the network has no reference clock"}
	}
	if net.Stopwatches {
		// reachability is undecidable for stopwatch automata: regions are
		// not a finite bisimulation when clocks advance at different rates
		return &Unsupported{Msg: "stopwatches (clock rates x' == e): the region graph is exact only when every clock advances"}
	}
	maxStates := opts.MaxStates
	if maxStates <= 0 {
		maxStates = defaultMaxStates
	}
	supCeil := opts.SupCeiling
	if supCeil <= 0 {
		supCeil = defaultSupCeiling
	}
	ceil := staticCeilings(net, fs)
	limit := int64(minCap)
	for _, c := range ceil {
		limit = max(limit, int64(c))
	}
	if raise > 0 {
		if supCeil > model.MaxClockConst {
			return &Unsupported{Msg: fmt.Sprintf("SupCeiling %d too large", supCeil)}
		}
		ceil[raise] = max(ceil[raise], int32(supCeil))
		limit = max(limit, supCeil)
	}
	for range maxRetries {
		x := newExplorer(net, ceil, maxStates, supClock)
		x.graph = graph
		x.start = opts.From
		if opts.Within > 0 {
			x.addHorizon(opts.Within)
		}
		err := x.explore()
		if err == nil {
			err = query(x)
		}
		if err != errRaise {
			return err
		}
		raised := false
		for _, r := range x.pend {
			if r.need <= int64(ceil[r.clock]) {
				continue
			}
			if r.need > limit {
				return &Unsupported{Msg: fmt.Sprintf("clock %s needs a ceiling of %d (more than %d) for its constraints to be decided by regions", net.Clocks[r.clock].Name, r.need, limit)}
			}
			ceil[r.clock] = int32(r.need)
			raised = true
		}
		if !raised {
			return &Unsupported{Msg: "internal: undetermined constraint without a ceiling to raise"}
		}
	}
	return &Unsupported{Msg: fmt.Sprintf("ceilings still too small after %d explorations", maxRetries)}
}

// staticCeilings gives every clock the largest constant it is compared
// with in a guard, an invariant or one of the formulas (data-dependent
// constants are taken care of by raising ceilings when they matter).
func staticCeilings(net *model.Network, fs []*model.Formula) []int32 {
	ceil := make([]int32, len(net.Clocks))
	see := func(cc *model.ClockConstraint) {
		if cc.Value != nil || cc.I < 0 || cc.J < 0 || cc.I >= len(ceil) || cc.J >= len(ceil) {
			return
		}
		c := cc.Const
		if c < 0 {
			c = -c
		}
		if cc.I > 0 {
			ceil[cc.I] = max(ceil[cc.I], c)
		}
		if cc.J > 0 {
			ceil[cc.J] = max(ceil[cc.J], c)
		}
	}
	for _, p := range net.Procs {
		for li := range p.Locations {
			for k := range p.Locations[li].Invariant {
				see(&p.Locations[li].Invariant[k])
			}
		}
		for ei := range p.Edges {
			for k := range p.Edges[ei].ClockGuard {
				see(&p.Edges[ei].ClockGuard[k])
			}
		}
	}
	var walk func(f *model.Formula)
	walk = func(f *model.Formula) {
		if f == nil {
			return
		}
		if f.Kind == model.FClock {
			see(&f.Clock)
		}
		for _, a := range f.Args {
			walk(a)
		}
	}
	for _, f := range fs {
		walk(f)
	}
	ceil[0] = 0
	return ceil
}

// unbounded marks the states whose region holds reachable valuations with
// arbitrarily large values of supClock. It is a sufficient condition (the
// answer is Inf only when it holds, AtLeast otherwise):
//
//   - Seeds: the states of a strongly connected component of the region
//     graph restricted to the edges that do not reset supClock, with a time
//     step inside the component at which the tick clock reaches 1. Take a
//     cycle through that step, and a reachable valuation v in a region R of
//     it. Every valuation of a region has a successor in each successor
//     region (Alur and Dill, Lemma 4.4), so the cycle can be followed from
//     v forever; the tick clock, reset by no edge, reaches 1 once per turn,
//     so m turns take at least m-1 time units, during which supClock, never
//     reset, grows by as much: R holds reachable valuations with supClock
//     as large as we like.
//   - Propagation: a successor, through an edge that does not reset
//     supClock, of a state holding reachable valuations with supClock > N
//     holds some too (the successor exists from every valuation, and
//     supClock does not decrease).
func (x *explorer) unbounded() []bool {
	n := len(x.states)
	keep := func(e edgeRec) bool { return !e.resets }
	// Tarjan's strongly connected components, iteratively.
	index := make([]int32, n)
	low := make([]int32, n)
	comp := make([]int32, n)
	for i := range index {
		index[i], comp[i] = -1, -1
	}
	onStack := make([]bool, n)
	var stack []int32
	type frame struct {
		v    int32
		edge int
	}
	var next, ncomp int32
	for root := range n {
		if index[root] >= 0 {
			continue
		}
		call := []frame{{v: int32(root)}}
		index[root], low[root] = next, next
		next++
		stack = append(stack, int32(root))
		onStack[root] = true
		for len(call) > 0 {
			f := &call[len(call)-1]
			v := f.v
			if f.edge < len(x.succ[v]) {
				e := x.succ[v][f.edge]
				f.edge++
				if !keep(e) {
					continue
				}
				w := e.to
				switch {
				case index[w] < 0:
					index[w], low[w] = next, next
					next++
					stack = append(stack, w)
					onStack[w] = true
					call = append(call, frame{v: w})
				case onStack[w]:
					low[v] = min(low[v], index[w])
				}
				continue
			}
			if low[v] == index[v] {
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					onStack[w] = false
					comp[w] = ncomp
					if w == v {
						break
					}
				}
				ncomp++
			}
			call = call[:len(call)-1]
			if len(call) > 0 {
				u := call[len(call)-1].v
				low[u] = min(low[u], low[v])
			}
		}
	}
	divergent := make([]bool, ncomp)
	for v := range n {
		for _, e := range x.succ[v] {
			if e.tick && keep(e) && comp[v] == comp[e.to] {
				divergent[comp[v]] = true
			}
		}
	}
	out := make([]bool, n)
	var queue []int32
	for v := range n {
		if divergent[comp[v]] {
			out[v] = true
			queue = append(queue, int32(v))
		}
	}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for _, e := range x.succ[v] {
			if keep(e) && !out[e.to] {
				out[e.to] = true
				queue = append(queue, e.to)
			}
		}
	}
	return out
}

package simulate

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/tcheck/tcheck/model"
	"github.com/tcheck/tcheck/model/syntax"
	"github.com/tcheck/tcheck/queries"
	"github.com/tcheck/tcheck/zone"
)

// grids are the denominators a run draws its delay grid from.
var grids = []int64{1, 2, 3, 4, 6, 12}

// maxDen bounds the refinement of the grid.
const maxDen = 1 << 30

// broadcastSample is the most receiver combinations of one broadcast
// considered at a step; beyond it, that many are drawn at random.
const broadcastSample = 64

// interval is a set of delays {d : lo ≺ d ≺ hi}, scaled by the run's
// denominator (the same representation as queries.Replay's).
type interval struct {
	lo, hi             int64
	loStrict, hiStrict bool
	hiInf              bool
}

func (iv *interval) empty() bool {
	if iv.hiInf || iv.lo < iv.hi {
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
	case 1:
		h := bound - base
		if iv.hiInf || h < iv.hi || (h == iv.hi && strict) {
			iv.hi, iv.hiStrict, iv.hiInf = h, strict, false
		}
	case -1:
		l := base - bound
		if l > iv.lo || (l == iv.lo && strict) {
			iv.lo, iv.loStrict = l, strict
		}
	}
}

// grid returns the first and last grid points of iv that are at most cap
// (math.MaxInt64: no cap); ok is false when there is none, and fine is then
// true when a finer grid would have one.
func (iv *interval) grid(limit int64) (lo, hi int64, ok, fine bool) {
	lo = iv.lo
	if iv.loStrict {
		lo++
	}
	hi = limit
	strict := false
	if !iv.hiInf && iv.hi <= limit {
		hi, strict = iv.hi, iv.hiStrict
	}
	realHi := hi
	if strict {
		hi--
	}
	if lo <= hi {
		return lo, hi, true, false
	}
	// the real interval (iv.lo, realHi) is non-empty but holds no grid point
	return 0, 0, false, iv.loStrict && strict && realHi == iv.lo+1
}

type enabled struct {
	p, e int32
	ch   int32
	send bool
}

type foundBy struct {
	mon   *monitor // nil for a model error
	found *Found
}

type outcome struct {
	steps int
	found []foundBy
	err   error
}

// runner holds the state of one run and the scratch space of the steps.
type runner struct {
	net      *model.Network
	env      *model.Env
	o        *Options
	rng      *rand.Rand
	dim      int
	maxConst int64
	ones     []int64

	// the current state; clocks and elapsed are scaled by den
	locs, vars []int32
	clocks     []int64
	den        int64
	elapsed    int64

	// history of the run, flat: state i's vectors, the delay before its
	// move and the move's edges hMoves[hOff[i]:hOff[i+1]]
	hLocs, hVars     []int32
	hClocks, hDelays []int64
	hMoves           []zone.EdgeRef
	hOff             []int

	// the moves that can be taken from the current state, with their
	// delay windows (not limited by the time bound)
	en    []enabled
	cPrio []int64 // the candidates' priorities (models with priorities)
	// cErr: a candidate whose update (or target invariant) raised a model
	// error, kept with its guard's window in a model with priorities: the
	// error counts only if the candidate is taken (not blocked)
	cErr     []*model.RuntimeError
	cEdges   []zone.EdgeRef
	cOff     []int
	cWin     []interval
	canDelay bool
	inv      interval // the delays the invariants allow

	tmpVars, tmpLocs []int32
	tval, tco        []int64
	mv               []zone.EdgeRef
	groups           [][]int
	pick             []int
	nopt             []int      // per receiver group: its edges, then its ways to stay out
	meets            []int      // divePicks: the options that meet the window
	windows          []interval // and the window each leaves
	elig             []int
	pts              []int64

	strategy Strategy // this run's (Swarm draws one per run)
	depth    int
	prio     []int
	change   []int

	// a runtime error met while enumerating the moves
	errMove  zone.Move
	errDelay int64
}

func newRunner(net *model.Network, o *Options) *runner {
	r := &runner{net: net, env: net.NewEnv(), o: o, dim: len(net.Clocks)}
	r.maxConst = 1
	for x := 1; x < r.dim; x++ {
		r.maxConst = max(r.maxConst, int64(net.GlobalL[x]), int64(net.GlobalU[x]))
	}
	r.ones = make([]int64, r.dim)
	for x := 1; x < r.dim; x++ {
		r.ones[x] = 1
	}
	r.locs = make([]int32, len(net.Procs))
	r.vars = make([]int32, len(net.Vars))
	r.clocks = make([]int64, r.dim)
	r.tmpLocs = make([]int32, len(net.Procs))
	r.tmpVars = make([]int32, len(net.Vars))
	r.tval = make([]int64, r.dim)
	r.tco = make([]int64, r.dim)
	r.prio = make([]int, len(net.Procs))
	return r
}

// run performs run number run.
func (r *runner) run(run int, mons []*monitor, until *monitor, pctLen int) outcome {
	o := r.o
	r.rng = rand.New(rand.NewPCG(o.Seed, uint64(run)))
	r.den = grids[r.rng.IntN(len(grids))]
	for p, proc := range r.net.Procs {
		r.locs[p] = int32(proc.Initial)
	}
	for i, v := range r.net.Vars {
		r.vars[i] = v.Init
	}
	clear(r.clocks)
	r.elapsed = 0
	r.hLocs, r.hVars, r.hClocks, r.hDelays = r.hLocs[:0], r.hVars[:0], r.hClocks[:0], r.hDelays[:0]
	r.hMoves, r.hOff = r.hMoves[:0], append(r.hOff[:0], 0)
	r.push(0)
	r.strategy, r.depth = o.Strategy, o.PCTDepth
	if o.Strategy == Swarm {
		// each run its own scheduler: random, or PCT of depth 1 to 4
		if k := r.rng.IntN(5); k == 0 {
			r.strategy = Random
		} else {
			r.strategy, r.depth = PCT, k
		}
	}
	if r.strategy == PCT {
		perm := r.rng.Perm(len(r.prio))
		for p := range r.prio {
			r.prio[p] = r.depth + perm[p]
		}
		r.change = r.change[:0]
		for i := 1; i < r.depth; i++ {
			r.change = append(r.change, 1+r.rng.IntN(max(pctLen, 1)))
		}
	}
	var out outcome
	if err := r.checkInitial(); err != nil {
		out.err = err
		return out
	}
	for {
		if rt := r.enumerate(); rt != nil {
			out.found = append(out.found, foundBy{nil, &Found{Run: run, Trace: r.trace(r.errDelay), Err: rt, FailMove: r.errMove}})
			return out
		}
		stop := false
		for _, m := range append(mons, until) {
			if m == nil || m.done {
				continue
			}
			d, ok, err := r.check(m)
			if rt, isRT := err.(*model.RuntimeError); isRT {
				out.found = append(out.found, foundBy{nil, &Found{Run: run, Trace: r.trace(0), Err: rt}})
				return out
			}
			if err != nil {
				out.err = err
				return out
			}
			if !ok {
				continue
			}
			out.found = append(out.found, foundBy{m, &Found{Run: run, Trace: r.trace(d), Goal: m.goal}})
			if m == until || m.pub.Query.Kind == syntax.QueryAG {
				stop = true
			} else {
				m.done = true
			}
		}
		if stop || out.steps >= o.Steps {
			return out
		}
		idx, d, err := r.choose(out.steps + 1)
		if err != nil {
			out.err = err
			return out
		}
		if idx < 0 {
			if len(r.cWin) == 0 {
				out.err = r.confirmStuck()
			}
			return out
		}
		if r.net.Priorities && r.cErr[idx] != nil {
			// the candidate taken raises a model error (see cErr)
			r.errMove = slices.Clone(zone.Move(r.cEdges[r.cOff[idx]:r.cOff[idx+1]]))
			out.found = append(out.found, foundBy{nil, &Found{Run: run, Trace: r.trace(d), Err: r.cErr[idx], FailMove: r.errMove}})
			return out
		}
		r.take(idx, d)
		out.steps++
	}
}

// stuckGoal is the deadlock predicate, which a run's last state satisfies
// where the simulator found no move at any delay.
var stuckGoal = &model.Formula{Kind: model.FDeadlock, Src: "deadlock"}

// confirmStuck replays the run, ending where the simulator found no move
// that can be taken now or after any delay, against the deadlock
// predicate: a move the simulator missed would otherwise end runs early
// and silently (a broadcast's samples once missed every move from eleven
// guarded receivers on), and only a monitored deadlock query showed it.
func (r *runner) confirmStuck() error {
	if err := queries.Replay(r.net, r.trace(0), stuckGoal); err != nil {
		return fmt.Errorf("internal error: the simulator found no move to take, but the replay finds one: %w", err)
	}
	return nil
}

// checkInitial checks that the initial state satisfies its invariants.
func (r *runner) checkInitial() error {
	r.env.Vars, r.env.Locs = r.vars, r.locs
	for p, proc := range r.net.Procs {
		l := &proc.Locations[r.locs[p]]
		if l.InvData != nil && !l.InvData(r.env) {
			if err := r.rtErr(); err != nil {
				return err
			}
			return fmt.Errorf("the initial state violates the invariant of %s.%s", proc.Name, l.Name)
		}
		for k := range l.Invariant {
			c := &l.Invariant[k]
			v, err := r.bound(c)
			if err != nil {
				return err
			}
			// every clock is 0: x_I − x_J = 0 must be ≺ v (an upper bound,
			// a lower bound or a diagonal alike)
			if v < 0 || (c.Strict && v == 0) {
				return fmt.Errorf("the initial state violates the invariant of %s.%s", proc.Name, l.Name)
			}
		}
	}
	return nil
}

func (r *runner) rtErr() *model.RuntimeError {
	e := r.env.Err
	r.env.Err = nil
	return e
}

// bound evaluates the constant of a clock constraint (scaled).
func (r *runner) bound(c *model.ClockConstraint) (int64, *model.RuntimeError) {
	if c.Value == nil {
		return int64(c.Const) * r.den, nil
	}
	v := c.Value(r.env)
	if err := r.rtErr(); err != nil {
		return 0, err
	}
	return int64(v) * r.den, nil
}

// restrict adds constraint c on the valuation val + d·co to iv.
func (r *runner) restrict(iv *interval, c *model.ClockConstraint, val, co []int64) *model.RuntimeError {
	b, err := r.bound(c)
	if err != nil {
		return err
	}
	iv.restrict(co[c.I]-co[c.J], val[c.I]-val[c.J], b, c.Strict)
	return nil
}

// restrictNeg restricts iv by the negation of c, x_J - x_I ≺' -c.
func (r *runner) restrictNeg(iv *interval, c *model.ClockConstraint, val, co []int64) *model.RuntimeError {
	b, err := r.bound(c)
	if err != nil {
		return err
	}
	iv.restrict(co[c.J]-co[c.I], val[c.J]-val[c.I], -b, !c.Strict)
	return nil
}

func (r *runner) push(delay int64) {
	r.hLocs = append(r.hLocs, r.locs...)
	r.hVars = append(r.hVars, r.vars...)
	r.hClocks = append(r.hClocks, r.clocks...)
	r.hDelays = append(r.hDelays, delay)
	r.hOff = append(r.hOff, len(r.hMoves))
}

// trace returns the run so far as a trace ending finalDelay after the
// current state.
func (r *runner) trace(finalDelay int64) *queries.Trace {
	n := len(r.hDelays)
	np, nv := len(r.locs), len(r.vars)
	t := &queries.Trace{Den: r.den, FinalDelay: finalDelay}
	for i := 0; i < n; i++ {
		var m zone.Move
		if i > 0 {
			m = append(zone.Move(nil), r.hMoves[r.hOff[i]:r.hOff[i+1]]...)
		}
		t.Moves = append(t.Moves, m)
		t.Locs = append(t.Locs, slices.Clone(r.hLocs[i*np:(i+1)*np]))
		t.Vars = append(t.Vars, slices.Clone(r.hVars[i*nv:(i+1)*nv]))
		t.Clocks = append(t.Clocks, slices.Clone(r.hClocks[i*r.dim:(i+1)*r.dim]))
		t.Delays = append(t.Delays, r.hDelays[i])
	}
	t.Final = slices.Clone(r.clocks)
	for x := 1; x < r.dim; x++ {
		t.Final[x] += finalDelay
	}
	return t
}

// rescale multiplies the grid's denominator by k.
func (r *runner) rescale(k int64) error {
	if r.den*k > maxDen {
		return ErrTooFine
	}
	r.den *= k
	r.elapsed *= k
	for i := range r.clocks {
		r.clocks[i] *= k
	}
	for i := range r.hClocks {
		r.hClocks[i] *= k
	}
	for i := range r.hDelays {
		r.hDelays[i] *= k
	}
	scale := func(iv *interval) {
		iv.lo *= k
		if !iv.hiInf {
			iv.hi *= k
		}
	}
	scale(&r.inv)
	for i := range r.cWin {
		scale(&r.cWin[i])
	}
	return nil
}

// enumerate computes the moves that can be taken from the current state and
// their delay windows. It returns the runtime error a guard, an update or
// an invariant raised (r.errMove is the move, r.errDelay its delay).
func (r *runner) enumerate() *model.RuntimeError {
	net, env := r.net, r.env
	env.Vars, env.Locs = r.vars, r.locs
	committed, urgent := false, false
	for p, proc := range net.Procs {
		l := &proc.Locations[r.locs[p]]
		committed = committed || l.Committed
		urgent = urgent || l.Urgent
	}
	r.en = r.en[:0]
	for p, proc := range net.Procs {
		for _, ei := range proc.Locations[r.locs[p]].Out {
			e := &proc.Edges[ei]
			if e.Guard != nil {
				ok := e.Guard(env)
				if err := r.rtErr(); err != nil {
					r.errMove, r.errDelay = zone.Move{{Proc: int32(p), Edge: int32(ei)}}, 0
					return err
				}
				if !ok {
					continue
				}
			}
			ch := int32(e.Sync)
			if e.SyncExpr != nil {
				ch = e.SyncExpr(env)
				if err := r.rtErr(); err != nil {
					r.errMove, r.errDelay = zone.Move{{Proc: int32(p), Edge: int32(ei)}}, 0
					return err
				}
				if ch < 0 || int(ch) >= len(net.Chans) {
					r.errMove, r.errDelay = zone.Move{{Proc: int32(p), Edge: int32(ei)}}, 0
					return &model.RuntimeError{Msg: fmt.Sprintf("channel index %d out of range", ch)}
				}
			}
			r.en = append(r.en, enabled{p: int32(p), e: int32(ei), ch: ch, send: e.Send})
		}
	}
	r.canDelay = !committed && !urgent && !r.urgentSync()
	r.inv = interval{hiInf: true}
	if !r.canDelay {
		r.inv = interval{}
	}
	for p, proc := range net.Procs {
		l := &proc.Locations[r.locs[p]]
		for k := range l.Invariant {
			if err := r.restrict(&r.inv, &l.Invariant[k], r.clocks, r.ones); err != nil {
				r.errMove, r.errDelay = nil, 0
				return err
			}
		}
	}
	r.cEdges, r.cOff, r.cWin, r.cPrio, r.cErr = r.cEdges[:0], append(r.cOff[:0], 0), r.cWin[:0], r.cPrio[:0], r.cErr[:0]
	for i := range r.en {
		s := &r.en[i]
		switch {
		case s.ch < 0:
			r.mv = append(r.mv[:0], zone.EdgeRef{Proc: s.p, Edge: s.e})
			if err := r.try(r.mv, committed); err != nil {
				return err
			}
		case !s.send:
		case !net.Chans[s.ch].Broadcast:
			for j := range r.en {
				q := &r.en[j]
				if q.p == s.p || q.send || q.ch != s.ch {
					continue
				}
				r.mv = append(r.mv[:0], zone.EdgeRef{Proc: s.p, Edge: s.e}, zone.EdgeRef{Proc: q.p, Edge: q.e})
				if err := r.try(r.mv, committed); err != nil {
					return err
				}
			}
		default:
			if err := r.broadcast(i, committed); err != nil {
				return err
			}
		}
	}
	return nil
}

// urgentSync reports whether a synchronisation on an urgent channel is
// enabled (data guards only, as urgent channels take no clock guards).
func (r *runner) urgentSync() bool {
	for i := range r.en {
		s := &r.en[i]
		if !s.send || s.ch < 0 || !r.net.Chans[s.ch].Urgent {
			continue
		}
		if r.net.Chans[s.ch].Broadcast {
			return true
		}
		for j := range r.en {
			q := &r.en[j]
			if q.p != s.p && !q.send && q.ch == s.ch {
				return true
			}
		}
	}
	return false
}

// broadcast tries the moves of the broadcast sender r.en[i]: one receiving
// edge for each other process that has an enabled one.
func (r *runner) broadcast(i int, committed bool) *model.RuntimeError {
	s := r.en[i]
	r.groups = r.groups[:0]
	last := int32(-1)
	for j := range r.en {
		q := &r.en[j]
		if q.p == s.p || q.send || q.ch != s.ch {
			continue
		}
		if q.p != last {
			r.groups = append(r.groups, nil)
			last = q.p
		}
		g := len(r.groups) - 1
		r.groups[g] = append(r.groups[g], j)
	}
	// options of group g: one of its edges, or, where each of them has a
	// clock guard, staying out where every guard fails: one skip per edge
	// naming the constraint that fails (zone.SkipRef), so that each option
	// has a convex window
	r.nopt, r.pick = r.nopt[:0], r.pick[:0]
	for _, g := range r.groups {
		n := 1
		for _, j := range g {
			q := &r.en[j]
			n *= len(r.net.Procs[q.p].Edges[q.e].ClockGuard)
		}
		r.nopt = append(r.nopt, len(g)+n)
		r.pick = append(r.pick, 0)
	}
	total := 1
	for _, n := range r.nopt {
		total *= n
		if total > broadcastSample {
			break
		}
	}
	build := func() []zone.EdgeRef {
		r.mv = append(r.mv[:0], zone.EdgeRef{Proc: s.p, Edge: s.e})
		for g, idx := range r.pick {
			if idx < len(r.groups[g]) {
				q := &r.en[r.groups[g][idx]]
				r.mv = append(r.mv, zone.EdgeRef{Proc: q.p, Edge: q.e})
			}
		}
		for g, idx := range r.pick {
			k := idx - len(r.groups[g])
			if k < 0 {
				continue
			}
			for _, j := range r.groups[g] {
				q := &r.en[j]
				n := len(r.net.Procs[q.p].Edges[q.e].ClockGuard)
				r.mv = append(r.mv, zone.SkipRef(q.p, q.e, int32(k%n)))
				k /= n
			}
		}
		return r.mv
	}
	if total > broadcastSample {
		for n := 0; n < broadcastSample; n++ {
			if blindSamples {
				for g := range r.pick {
					r.pick[g] = r.rng.IntN(r.nopt[g])
				}
			} else {
				r.divePicks(s)
			}
			if err := r.try(build(), committed); err != nil {
				return err
			}
		}
		return nil
	}
	for {
		if err := r.try(build(), committed); err != nil {
			return err
		}
		g := len(r.pick) - 1
		for ; g >= 0; g-- {
			r.pick[g]++
			if r.pick[g] < r.nopt[g] {
				break
			}
			r.pick[g] = 0
		}
		if g < 0 {
			return nil
		}
	}
}

// blindSamples draws a large broadcast's samples from the whole product,
// as the simulator once did; only tests set it, to show that a run the
// simulator ends for want of a move it missed is an error.
var blindSamples bool

// divePicks draws the options of the receiver groups of the broadcast
// sender s for one of broadcast's samples: each group's option at random
// among those whose clock guard leaves some delay of the window the
// sender's guard and the options drawn before leave. The options of a
// group cover every delay (where no receiving edge's guard holds, one of
// the ways to stay out does), so each draw meets the window. Drawn
// blindly from the whole product, nearly every sample missed it: eleven
// receivers with guards x >= 1 or x >= 2 on equal clocks have 2,048
// choices, two of which have a delay, and the runs found no move at all
// and ended, as if the state were deadlocked. An option whose bound fails
// to evaluate counts as meeting the window (try then raises the error).
func (r *runner) divePicks(s enabled) {
	env := r.env
	env.Vars, env.Locs = r.vars, r.locs
	iv := r.inv
	if r.restrictRef(&iv, zone.EdgeRef{Proc: s.p, Edge: s.e}) != nil {
		iv = r.inv
	}
	for g := range r.pick {
		r.meets = r.meets[:0]
		r.windows = r.windows[:0]
		for idx := 0; idx < r.nopt[g]; idx++ {
			if w, ok := r.optionWindow(g, idx, iv); ok {
				r.meets = append(r.meets, idx)
				r.windows = append(r.windows, w)
			}
		}
		if len(r.meets) == 0 {
			// none meets it (the sender's own guard leaves no delay):
			// any draw, which try finds empty
			r.pick[g] = r.rng.IntN(r.nopt[g])
			continue
		}
		k := r.rng.IntN(len(r.meets))
		r.pick[g], iv = r.meets[k], r.windows[k]
	}
}

// optionWindow restricts iv by the clock guard of option idx of receiver
// group g (broadcast: one of its edges, or a way to stay out, its failing
// constraints negated) and reports whether a delay is left; where a bound
// fails to evaluate, iv is returned as it is, meeting.
func (r *runner) optionWindow(g, idx int, iv interval) (interval, bool) {
	grp := r.groups[g]
	w := iv
	if idx < len(grp) {
		q := &r.en[grp[idx]]
		if r.restrictRef(&w, zone.EdgeRef{Proc: q.p, Edge: q.e}) != nil {
			return iv, true
		}
		return w, !w.empty()
	}
	k := idx - len(grp)
	for _, j := range grp {
		q := &r.en[j]
		n := len(r.net.Procs[q.p].Edges[q.e].ClockGuard)
		if r.restrictRef(&w, zone.SkipRef(q.p, q.e, int32(k%n))) != nil {
			return iv, true
		}
		k /= n
	}
	return w, !w.empty()
}

// restrictRef restricts iv by the clock guard of ref, a part of a move: an
// edge taken, or a way to stay out of a broadcast, whose failing
// constraint is negated (zone.SkipRef).
func (r *runner) restrictRef(iv *interval, ref zone.EdgeRef) *model.RuntimeError {
	edge, fail, skip := ref.Skip()
	e := &r.net.Procs[ref.Proc].Edges[edge]
	n := len(e.ClockGuard)
	if skip {
		n = int(fail) + 1
	}
	for k := range n {
		var err *model.RuntimeError
		if skip && k == int(fail) {
			err = r.restrictNeg(iv, &e.ClockGuard[k], r.clocks, r.ones)
		} else {
			err = r.restrict(iv, &e.ClockGuard[k], r.clocks, r.ones)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// try computes the delay window of move m and records it when non-empty.
func (r *runner) try(m []zone.EdgeRef, committed bool) *model.RuntimeError {
	net, env := r.net, r.env
	taken := zone.Move(m).Taken()
	if committed {
		ok := false
		for _, ref := range taken {
			ok = ok || net.Procs[ref.Proc].Locations[r.locs[ref.Proc]].Committed
		}
		if !ok {
			return nil
		}
	}
	iv := r.inv
	env.Vars, env.Locs = r.vars, r.locs
	for _, ref := range m {
		if err := r.restrictRef(&iv, ref); err != nil {
			r.errMove, r.errDelay = slices.Clone(zone.Move(m)), 0
			return err
		}
	}
	if iv.empty() {
		return nil
	}
	fail := func(err *model.RuntimeError) *model.RuntimeError {
		if net.Priorities {
			r.record(m, taken, iv, err)
			return nil
		}
		r.errMove = slices.Clone(zone.Move(m))
		lo, _, ok, _ := iv.grid(math.MaxInt64)
		if !ok {
			lo = iv.lo
		}
		r.errDelay = lo
		return err
	}
	copy(r.tmpVars, r.vars)
	copy(r.tmpLocs, r.locs)
	env.Vars = r.tmpVars
	env.Resets = env.Resets[:0]
	for _, ref := range taken {
		e := &net.Procs[ref.Proc].Edges[ref.Edge]
		if e.Update != nil {
			e.Update(env)
			if err := r.rtErr(); err != nil {
				return fail(err)
			}
		}
		r.tmpLocs[ref.Proc] = int32(e.To)
	}
	copy(r.tval, r.clocks)
	copy(r.tco, r.ones)
	for _, rs := range env.Resets {
		r.tval[rs.Clock] = int64(rs.Value) * r.den
		r.tco[rs.Clock] = 0
	}
	env.Locs = r.tmpLocs
	for p, proc := range net.Procs {
		l := &proc.Locations[r.tmpLocs[p]]
		if l.InvData != nil {
			ok := l.InvData(env)
			if err := r.rtErr(); err != nil {
				return fail(err)
			}
			if !ok {
				return nil
			}
		}
		for k := range l.Invariant {
			if err := r.restrict(&iv, &l.Invariant[k], r.tval, r.tco); err != nil {
				return fail(err)
			}
		}
	}
	if iv.empty() {
		return nil
	}
	r.record(m, taken, iv, nil)
	return nil
}

// record adds candidate move m (taken: its edges) with window iv, and, in
// a model with priorities, its priority and the model error its update
// raised (nil: none).
func (r *runner) record(m []zone.EdgeRef, taken zone.Move, iv interval, err *model.RuntimeError) {
	net, env := r.net, r.env
	if net.Priorities {
		first := &net.Procs[m[0].Proc].Edges[m[0].Edge]
		ch := int32(first.Sync)
		if first.SyncExpr != nil {
			env.Vars, env.Locs = r.vars, r.locs
			ch = first.SyncExpr(env) // evaluated without error when enabled
		}
		r.cPrio = append(r.cPrio, net.Priority(ch, func(yield func(int32) bool) {
			for _, ref := range taken {
				if !yield(ref.Proc) {
					return
				}
			}
		}))
		r.cErr = append(r.cErr, err)
	}
	r.cEdges = append(r.cEdges, m...)
	r.cOff = append(r.cOff, len(r.cEdges))
	r.cWin = append(r.cWin, iv)
}

// contains reports whether delay d is in iv.
func (iv *interval) contains(d int64) bool {
	return (d > iv.lo || d == iv.lo && !iv.loStrict) && (iv.hiInf || d < iv.hi || d == iv.hi && !iv.hiStrict)
}

// unblocked applies UPPAAL's priority rule to candidate idx taken after
// delay d: when a candidate of higher priority can be taken after d, one of
// the highest such candidates is taken instead (the highest priority
// enabled at a valuation is never blocked; delays never are).
func (r *runner) unblocked(idx int, d int64) int {
	top := r.cPrio[idx]
	for i := range r.cWin {
		if r.cPrio[i] > top && r.cWin[i].contains(d) {
			top = r.cPrio[i]
		}
	}
	if top == r.cPrio[idx] {
		return idx
	}
	var best []int
	for i := range r.cWin {
		if r.cPrio[i] == top && r.cWin[i].contains(d) {
			best = append(best, i)
		}
	}
	return best[r.rng.IntN(len(best))]
}

// limit is the largest delay the time bound allows from the current state.
func (r *runner) limit() int64 {
	if r.o.TimeBound == 0 {
		return math.MaxInt64
	}
	return r.o.TimeBound*r.den - r.elapsed
}

// choose picks a move that can be taken within the time bound and its
// delay; it returns -1 when there is none.
func (r *runner) choose(step int) (int, int64, error) {
	for {
		limit := r.limit()
		r.elig = r.elig[:0]
		refine := false
		for i := range r.cWin {
			if _, _, ok, fine := r.cWin[i].grid(limit); ok {
				r.elig = append(r.elig, i)
			} else if fine {
				refine = true
			}
		}
		if len(r.elig) == 0 && refine {
			if err := r.rescale(2); err != nil {
				return -1, 0, nil // the run ends: its moves need a finer grid than 2^-30
			}
			continue
		}
		if len(r.elig) == 0 {
			return -1, 0, nil
		}
		var idx int
		if r.strategy == PCT {
			idx = r.pctPick(step)
		} else {
			idx = r.elig[r.rng.IntN(len(r.elig))]
		}
		lo, hi, _, _ := r.cWin[idx].grid(limit)
		if r.cWin[idx].hiInf && hi == math.MaxInt64 {
			hi = lo + (r.maxConst+1)*r.den
		}
		var d int64
		switch x := r.rng.IntN(8); {
		case x < 3:
			d = lo
		case x < 6:
			d = hi
		default:
			d = lo + r.rng.Int64N(hi-lo+1)
		}
		if r.net.Priorities {
			idx = r.unblocked(idx, d)
		}
		return idx, d, nil
	}
}

// owner is the process a candidate move belongs to (its sender).
func (r *runner) owner(i int) int { return int(r.cEdges[r.cOff[i]].Proc) }

// pctPick applies PCT's rule: the highest-priority process with a move
// moves; at the i-th change point it first drops below every process.
func (r *runner) pctPick(step int) int {
	best := func() int {
		b := -1
		for _, i := range r.elig {
			if p := r.owner(i); b < 0 || r.prio[p] > r.prio[b] {
				b = p
			}
		}
		return b
	}
	top := best()
	for k, c := range r.change {
		if c == step {
			r.prio[top] = r.depth - 1 - k
			top = best()
		}
	}
	n := 0
	for _, i := range r.elig {
		if r.owner(i) == top {
			n++
		}
	}
	k := r.rng.IntN(n)
	for _, i := range r.elig {
		if r.owner(i) == top {
			if k == 0 {
				return i
			}
			k--
		}
	}
	panic("unreachable")
}

// take lets d pass and takes candidate move idx.
func (r *runner) take(idx int, d int64) {
	for x := 1; x < r.dim; x++ {
		r.clocks[x] += d
	}
	r.elapsed += d
	env := r.env
	env.Vars, env.Locs = r.vars, r.locs
	env.Resets = env.Resets[:0]
	m := r.cEdges[r.cOff[idx]:r.cOff[idx+1]]
	for _, ref := range zone.Move(m).Taken() {
		e := &r.net.Procs[ref.Proc].Edges[ref.Edge]
		if e.Update != nil {
			e.Update(env)
		}
	}
	r.env.Err = nil // the same updates ran without error in try
	for _, ref := range zone.Move(m).Taken() {
		r.locs[ref.Proc] = int32(r.net.Procs[ref.Proc].Edges[ref.Edge].To)
	}
	for _, rs := range env.Resets {
		r.clocks[rs.Clock] = int64(rs.Value) * r.den
	}
	r.hMoves = append(r.hMoves, m...)
	r.push(d)
}

// check looks for a point of the current state's delay where m's goal
// holds: it returns the delay of the first such point.
func (r *runner) check(m *monitor) (int64, bool, error) {
	for {
		d, ok, fine, err := r.checkOnce(m)
		if err != nil || !fine {
			return d, ok, err
		}
		if err := r.rescale(2); err != nil {
			// a point 2^-30 wide: give up on it rather than on the run
			return 0, false, nil
		}
	}
}

func (r *runner) checkOnce(m *monitor) (d int64, ok, fine bool, err error) {
	if len(m.clocks) == 0 && !m.deadlock {
		ok, err := r.holds(m.goal, 0)
		return 0, ok, false, err
	}
	// the delays allowed here: [0, maxD]
	span := r.inv
	_, maxD, any, _ := span.grid(r.limit())
	if !any {
		maxD = 0
	}
	// the truth value changes only at the breakpoints: it is constant on
	// [0, first breakpoint) and on each open interval after a breakpoint
	r.pts = append(r.pts[:0], 0)
	zeroBreak := false
	add := func(b int64) {
		if b == 0 {
			zeroBreak = true
		}
		if b > 0 && b <= maxD {
			r.pts = append(r.pts, b)
		}
	}
	r.env.Vars, r.env.Locs = r.vars, r.locs
	for _, c := range m.clocks {
		b, rt := r.bound(c)
		if rt != nil {
			return 0, false, false, rt
		}
		if c.J == 0 {
			add(b - r.clocks[c.I])
		} else {
			add(-b - r.clocks[c.J])
		}
	}
	if m.deadlock {
		for i := range r.cWin {
			if !r.cWin[i].hiInf {
				add(r.cWin[i].hi)
			}
		}
	}
	slices.Sort(r.pts)
	r.pts = slices.Compact(r.pts)
	for i, b := range r.pts {
		if ok, err := r.holds(m.goal, b); err != nil || ok {
			return b, ok, false, err
		}
		if b == 0 && !zeroBreak {
			continue // [0, next) has the value of 0
		}
		// the open interval after b, up to the next point or the end
		if i+1 < len(r.pts) {
			next := r.pts[i+1]
			if next == b+1 {
				return 0, false, true, nil // no grid point inside: refine
			}
			if ok, err := r.holds(m.goal, b+1); err != nil || ok {
				return b + 1, ok, false, err
			}
			continue
		}
		if b+1 <= maxD {
			if ok, err := r.holds(m.goal, b+1); err != nil || ok {
				return b + 1, ok, false, err
			}
		} else if !span.hiInf && span.hiStrict && span.hi == b+1 && span.hi <= r.limit() {
			return 0, false, true, nil
		}
	}
	return 0, false, false, nil
}

// holds evaluates f at the current state after delay d.
func (r *runner) holds(f *model.Formula, d int64) (bool, error) {
	switch f.Kind {
	case model.FTrue:
		return true, nil
	case model.FFalse:
		return false, nil
	case model.FData:
		r.env.Vars, r.env.Locs = r.vars, r.locs
		v := f.Data(r.env)
		if err := r.rtErr(); err != nil {
			return false, err
		}
		return v, nil
	case model.FClock:
		r.env.Vars, r.env.Locs = r.vars, r.locs
		b, err := r.bound(&f.Clock)
		if err != nil {
			return false, err
		}
		diff := r.clocks[f.Clock.I] + d*r.ones[f.Clock.I] - r.clocks[f.Clock.J] - d*r.ones[f.Clock.J]
		if f.Clock.Strict {
			return diff < b, nil
		}
		return diff <= b, nil
	case model.FNot:
		v, err := r.holds(f.Args[0], d)
		return !v, err
	case model.FAnd, model.FOr:
		and := f.Kind == model.FAnd
		for _, a := range f.Args {
			v, err := r.holds(a, d)
			if err != nil || v != and {
				return v, err
			}
		}
		return and, nil
	case model.FDeadlock:
		for i := range r.cWin {
			w := &r.cWin[i]
			if w.hiInf || w.hi > d || (w.hi == d && !w.hiStrict) {
				return false, nil
			}
		}
		return true, nil
	}
	return false, fmt.Errorf("unknown formula kind %d", f.Kind)
}

package zone

import (
	"runtime"
	"runtime/metrics"
	"sync/atomic"
	"time"

	"github.com/tcheck/tcheck/dbm"
)

// Limits bound a search; zero means unlimited. A search that reaches one
// ends with the corresponding StopReason and the statistics so far.
type Limits struct {
	MaxStates int64         // stored states
	Timeout   time.Duration // wall-clock time from the start of the search
	Deadline  time.Time     // wall-clock time, absolute (zero: none); ends like Timeout
	MaxMemory uint64        // heap bytes
	// Cancel, when closed, ends the search with reason Canceled.
	Cancel <-chan struct{}
}

// expired checks the limits that do not depend on the states: the timeout
// (from start), the deadline, cancellation. Searches check them at the
// first state expanded and then every 256, and poll them among the
// successors of a state every pollEvery (Stepper.pollSuccessor).
// Expired reports whether the time limit or the cancellation of l has
// been reached at t for a search started at start.
func (l Limits) Expired(t, start time.Time) bool {
	_, hit := l.expired(t, start)
	return hit
}

// ExpiredReason is Expired with the limit reached: LimitTime or Canceled.
func (l Limits) ExpiredReason(t, start time.Time) (StopReason, bool) {
	return l.expired(t, start)
}

func (l Limits) expired(t, start time.Time) (StopReason, bool) {
	if l.Timeout > 0 && t.Sub(start) >= l.Timeout || !l.Deadline.IsZero() && !t.Before(l.Deadline) {
		return LimitTime, true
	}
	select {
	case <-l.Cancel:
		return Canceled, true
	default:
	}
	return Completed, false
}

// Options configure a search.
type Options struct {
	Order         Order
	Extrapolation Extrapolation
	Limits        Limits
	// Progress, if set, is called with the statistics about once per
	// ProgressEvery (default 1 s) of wall-clock time.
	Progress      func(Stats)
	ProgressEvery time.Duration
	// Now is the clock (time.Now when nil); injectable for tests.
	Now func() time.Time
	// FullZones stores zones as matrices instead of minimal constraint
	// sets: more memory, no closure when a stored state is expanded.
	FullZones bool
	// AbstractFirst extrapolates each successor before its inclusion
	// test, as TChecker's covreach does (whose stored zones it then
	// stores). By default the test comes first (expander.exactFirst):
	// most successors are covered and are not extrapolated, with the
	// same verdicts. For comparisons and tests.
	AbstractFirst bool
	// Hull keeps one zone per discrete part, the convex hull of the zones
	// reaching it: an over-approximation of the reachable states (see
	// passedList.insertHull). Visitors then see supersets of the exact
	// successors, so a state they find may be unreachable.
	Hull bool
	// Subsumption is how a stored zone covers a new one (Inclusion by
	// default); ALU is used only where ResolveSubsumption allows it, and
	// Result.Extrapolation says which was used.
	Subsumption Subsumption
	// Workers is the number of goroutines of SearchWorkers (0 or 1: the
	// sequential Search).
	Workers int
	// Symmetry stores one representative per orbit of the permutations
	// of the model's scalar sets (symmetry.go), in Search and in
	// BuildGraph (whose paths Graph.Run maps back to runs);
	// Result.Extrapolation says whether it was used or why not.
	Symmetry bool
	// VisitNew calls the visitor only on the successors that the passed
	// list keeps, after the inclusion (or aLU) test, instead of on every
	// successor computed: a fraction of the calls where most successors
	// are covered. A covered successor's exact zone Z lies in the
	// abstraction a(Z') of a stored zone, visited when it was stored, and
	// every valuation of a(Z') is LU-simulated by one of Z' that agrees
	// with it on every clock constraint whose constants are within the
	// bounds (Behrmann, Bouyer, Larsen, Pelánek, STTT 2006; for Extra_M+ the
	// simulation is a bisimulation, which deadlocks respect): a property
	// of that kind that holds somewhere in Z holds somewhere in Z'. So the
	// visitor misses nothing of a formula whose clock constants are in the
	// extrapolation bounds (queries adds them) or of deadlock under M+.
	// It is ignored under Hull, whose stored zones contain valuations that
	// no visited zone does; sup/inf accumulators do not use it.
	VisitNew bool
	// MarkCovered, without VisitNew, still calls the visitor on every
	// successor, but after the inclusion (or aLU) test, and sets
	// Visit.Covered on those the passed list dropped: a formula of the
	// kind VisitNew describes need not be decided on them, while sup/inf
	// accumulators, which need every exact successor, see them all. It
	// is ignored under Hull, as VisitNew is.
	MarkCovered bool
	// VisitStored calls the visitor once more, when the search has
	// completed, on every state that the passed list then holds, with the
	// zone as stored (abstracted; under symmetry the representative's)
	// within the location's invariant, and Visit.Stored set. Under
	// inclusion subsumption every reachable valuation lies in one of these
	// zones, whatever the abstraction: a property found in none of them
	// holds nowhere, although one found in them may hold only in the
	// abstraction. queries decides deadlock this way under Extra_LU+,
	// which does not preserve deadlocks (see Deadlocked). Visiting only
	// the final zones, not every zone expanded, skips those that larger
	// zones evicted later: on the agreement table's largest rows two
	// thirds of the zones expanded.
	VisitStored bool
	// Initial, when not nil, is the state the search starts from instead
	// of the network's initial state (Stepper.InitialFrom).
	Initial *Start
}

// reclaimEvicted lets the searches reuse evicted zones' bytes
// (passedList.reclaim); searchDone is told at the end of a search how
// many bytes its stores handed out again. Both are for tests.
var (
	reclaimEvicted = true
	searchDone     func(reused uint64)
)

// Stats are the counters of a search. Elapsed and PeakMemory are volatile.
type Stats struct {
	Explored    int64 // states taken from the waiting list and expanded
	Stored      int64 // states in the passed list at the end
	Discrete    int64 // distinct discrete parts (locations and variables) stored
	Covered     int64 // successors dropped as included plus stored states evicted
	Transitions int64 // non-empty symbolic successors computed
	// Checked counts the nodes (stored or evicted) gone through by the
	// final visits of Options.VisitStored, out of Nodes; both are 0
	// before that phase. Progress reports only.
	Checked, Nodes int64
	Elapsed        time.Duration
	PeakMemory     uint64 // peak heap bytes in use (sampled)
}

// StopReason says why a search ended.
type StopReason int

const (
	Completed   StopReason = iota // the whole reachable zone graph was explored
	Stopped                       // the visitor asked to stop
	LimitStates                   // Limits.MaxStates reached
	LimitTime                     // Limits.Timeout or Limits.Deadline reached
	LimitMemory                   // Limits.MaxMemory reached
	Failed                        // a model runtime error (Result.Err)
	Canceled                      // Limits.Cancel was closed
)

var stopNames = [...]string{"completed", "stopped", "state limit reached", "time limit reached", "memory limit reached", "model error", "interrupted"}

func (r StopReason) String() string { return stopNames[r] }

// Result is the outcome of a search.
type Result struct {
	Stats
	Reason StopReason
	// Err is the model runtime error when Reason is Failed; ErrNode is the
	// state whose successor computation raised it (zero: the initial state).
	Err     *ModelError
	ErrNode Node
	// Extrapolation describes the abstraction used.
	Extrapolation string
}

// Visit is what a Visitor sees: a newly computed symbolic state, before
// extrapolation and before the inclusion check (with Options.VisitNew,
// after it: only the states stored). Parent is zero and Move nil
// for the initial state. Locs, Vars and Zone are scratch: copy to keep.
type Visit struct {
	Parent Node
	Move   Move
	Locs   []int32
	Vars   []int32
	Zone   dbm.DBM // exact: not extrapolated (but see Stored)
	// Stored marks a visit of Options.VisitStored: Parent is the state
	// itself, Move is nil and Zone is the stored, abstracted zone within
	// the invariant.
	Stored bool
	// Covered marks, under Options.MarkCovered, a successor that a
	// stored zone covers (the passed list did not keep it).
	Covered bool
}

// Visitor is called for the initial state and for every successor; it
// returns true to stop the search.
type Visitor func(v *Visit) (stop bool)

// Search explores the zone graph of sys from its initial state, calling
// visit on every symbolic state computed. It is the sequential driver:
// one expander, one waiting list in opts.Order, one passed list. See
// SearchWorkers for the parallel one.
func Search(sys *System, opts Options, visit Visitor) Result {
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	start := now()
	res := Result{Extrapolation: describeSearch(sys, opts)}
	sub, _ := ResolveSubsumption(sys, opts)
	passed := newPassedList(sys.Dim, opts.FullZones, opts.Hull)
	passed.graph.unpruned = opts.Hull
	passed.nodes.ranked = opts.Order == Ranked
	wait := &waitingList{order: opts.Order, graph: passed.graph}
	mem := newMemSampler()
	e := newExpander(sys, passed.graph, opts, sub == ALU, passed, visit)
	if e.sym != nil {
		passed.graph.sym = &symTrace{extrap: opts.Extrapolation, start: opts.Initial, exactFirst: e.exactFirst}
	}
	// An evicted zone's bytes are reused unless a trace may read them:
	// under priorities and with clock guards on broadcast receivers
	// PathMoves enumerates a parent's moves in its zone, and
	// under symmetry concretePath compares each node of a path with the
	// successor parts of its parent, which it can do without the node's
	// zone only where there is one part (no splitting).
	passed.reclaim = reclaimEvicted && !opts.Hull && !sys.movesReadZone && (e.sym == nil || !e.xp.splits())
	passed.graph.reclaimed = passed.reclaim
	if e.alu {
		// The extrapolator computes the bounds of the location vector
		// (local) or once (global) before each insert: the same bounds,
		// query constants included, serve the subsumption.
		passed.useALU(e.bl, e.bu)
	}

	finish := func(r StopReason) Result {
		res.Reason = r
		res.Explored, res.Transitions = e.explored.Load(), e.transitions.Load()
		res.Stored = passed.stored
		res.Discrete = passed.discrete()
		res.Covered = passed.cover
		res.Elapsed = now().Sub(start)
		res.PeakMemory = mem.sample()
		if searchDone != nil {
			searchDone(passed.nodes.reused)
		}
		return res
	}
	timeLimit := func(t time.Time) (StopReason, bool) { return opts.Limits.expired(t, start) }
	// A long evaluation (a guard calling expensive functions) polls the
	// limits itself; an evaluation it stops ends the search at the limit.
	e.st.SetInterrupt(func() bool { _, hit := timeLimit(now()); return hit })
	failed := func(err error, at nodeID) Result {
		if Interrupted(err) {
			r, hit := timeLimit(now())
			if !hit {
				r = LimitTime
			}
			return finish(r)
		}
		res.Err, res.ErrNode = err.(*ModelError), passed.node(at)
		return finish(Failed)
	}
	flush := func() {
		for i, n := range e.out {
			wait.push(n, e.outKey(i))
		}
		e.clearOut()
	}

	reason, err := e.initial()
	if err != nil {
		return failed(err, noNode)
	}
	if reason != Completed {
		return finish(reason)
	}
	flush()

	progressEvery := opts.ProgressEvery
	if progressEvery == 0 {
		progressEvery = time.Second
	}
	lastProgress := start
	// progress reports the counters at t if one is due (checked of nodes:
	// the final visits' records)
	progress := func(t time.Time, checked, nodes int64) {
		if opts.Progress == nil || t.Sub(lastProgress) < progressEvery {
			return
		}
		lastProgress = t
		s := Stats{Explored: e.explored.Load(), Transitions: e.transitions.Load(), Checked: checked, Nodes: nodes}
		s.Stored, s.Covered = passed.stored, passed.cover
		s.Elapsed = t.Sub(start)
		s.PeakMemory = mem.peak
		opts.Progress(s)
	}
	for {
		node, ok := wait.pop()
		if !ok {
			break
		}
		reason, err := e.expand(node)
		if err != nil {
			return failed(err, node)
		}
		if reason != Completed {
			return finish(reason)
		}
		flush()
		if explored := e.explored.Load(); explored&255 == 1 {
			t := now()
			if r, hit := timeLimit(t); hit {
				return finish(r)
			}
			if explored&4095 == 1 || opts.Limits.MaxMemory > 0 {
				m := mem.sample()
				if opts.Limits.MaxMemory > 0 && m >= opts.Limits.MaxMemory {
					return finish(LimitMemory)
				}
			}
			progress(t, 0, 0)
		}
	}
	if opts.VisitStored {
		chunks := passed.graph.storedChunks()
		nodes := chunksNodes(chunks)
		checked := int64(0)
		for _, c := range chunks {
			t := now()
			if r, hit := timeLimit(t); hit {
				return finish(r)
			}
			progress(t, checked, nodes)
			reason, at, err := e.visitStored(c.s, c.lo, c.hi)
			if err != nil {
				return failed(err, at)
			}
			if reason != Completed {
				return finish(reason)
			}
			checked += int64(c.hi - c.lo)
		}
	}
	return finish(Completed)
}

// describeSearch is Result.Extrapolation for a search with opts.
func describeSearch(sys *System, opts Options) string {
	d := opts.Extrapolation.Describe()
	if opts.Hull {
		d += ", convex-hull over-approximation"
	}
	if sys.Net.Stopwatches {
		d += ", stopwatch over-approximation"
	}
	sub, refused := ResolveSubsumption(sys, opts)
	d += describeSubsumption(sub, refused)
	if opts.Symmetry {
		d += describeSymmetry(sys, opts)
	}
	if opts.Order == Topological {
		d += ", topological order"
	}
	if opts.Order == Progress {
		if sys.Net.Progress == nil {
			d += ", progress order without a progress measure: breadth first"
		} else {
			d += ", progress order by " + sys.Net.ProgressSrc
		}
	}
	return d
}

// memSampler tracks the peak of live heap memory.
type memSampler struct {
	s    []metrics.Sample
	peak uint64
}

// newMemSampler starts tracking after a garbage collection when the heap
// holds more than gcBeforeSearch bytes beyond what it held after the last
// such collection (gcBase), so that the peak measures this search, not
// the garbage an earlier one left (a sweep runs its points one after
// another in the same process). Below that the collection is skipped: it
// costs small searches far more than they cost themselves, and the peak
// then includes at most that much of earlier garbage. The base is what
// the last collection here left, not the heap size alone: a sweep of three
// million points keeps 1.6 GB of grid and results live, and collecting it
// again before every point made such a sweep over three times slower. (The
// runtime's own live-heap figure will not do: an automatic collection
// during a search counts that search's passed list as live.)
func newMemSampler() *memSampler {
	m := &memSampler{s: []metrics.Sample{{Name: heapObjects}}}
	if metrics.Read(m.s); m.s[0].Value.Kind() != metrics.KindUint64 || m.s[0].Value.Uint64() > gcBase.Load()+gcBeforeSearch {
		runtime.GC()
		if metrics.Read(m.s); m.s[0].Value.Kind() == metrics.KindUint64 {
			gcBase.Store(m.s[0].Value.Uint64())
		}
	}
	m.sample()
	return m
}

// HeapBytes is the heap's size as the searches hold it to Limits.MaxMemory:
// the bytes of its objects, garbage not yet collected included.
func HeapBytes() uint64 {
	s := []metrics.Sample{{Name: heapObjects}}
	if metrics.Read(s); s[0].Value.Kind() == metrics.KindUint64 {
		return s[0].Value.Uint64()
	}
	return 0
}

const heapObjects = "/memory/classes/heap/objects:bytes"

// gcBase is the heap's objects after newMemSampler's last collection.
var gcBase atomic.Uint64

const gcBeforeSearch = 64 << 20

func (m *memSampler) sample() uint64 {
	metrics.Read(m.s)
	if m.s[0].Value.Kind() == metrics.KindUint64 {
		if v := m.s[0].Value.Uint64(); v > m.peak {
			m.peak = v
		}
	}
	return m.peak
}

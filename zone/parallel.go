package zone

import (
	"hash/maphash"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tcheck/tcheck/dbm"
)

// The parallel search follows Dalsgaard, Laarman, Larsen, Olesen and van de
// Pol, "Multi-core Reachability for Timed Automata" (FORMATS 2012): the
// workers share one passed list, a multimap from the discrete part to its
// zones, here split into shards by the hash of the discrete part, each
// under its own lock (their lockless table stores the discrete parts and
// locks the zone lists; a shard lock is held for one insert, a few
// inclusion tests). The covered test, which decides most successors,
// and the eviction tests of an uncovered one read a discrete part's zones
// without the lock (sharedView.coverExact, insertAt), so that workers
// whose successors fall under one discrete part of many zones test them
// at once; an evicted zone's bytes wait for the reads that may see them
// (graceClock) before they are reused. In breadth-first order the
// workers share one waiting list, taken in small batches (fifoList,
// sharedFIFO: each worker takes the nodes it stored itself where they are
// not much younger than the oldest queued, so that the zone it expands is
// usually one its own core wrote): with
// a list per worker, workers ran whole levels ahead of each other, and
// Fischer's protocol
// (N = 10, two workers) explored 473,900 to 634,401 states for its 260,998
// stored instead of the sequential search's 447,598, which the shared list
// keeps. In depth-first order each worker has its own waiting list and
// steals half of another's when its own runs dry. The search ends when no
// state is queued or being expanded. Inclusion then depends on the order in
// which the workers store zones, so the stored zones vary slightly from run
// to run; the reachable states, and so every verdict and sup value, do not.
// A passed list partitioned by owner (each worker storing and expanding
// the states of its own shards, the others' successors sent to them) was
// tried and was slower: its per-worker lists drift apart by levels and
// explore more (docs/results.md, "Tried and dropped").

// SearchWorkers explores like Search with opts.Workers goroutines (one
// when it is 0 or 1, which is Search itself). newVisitor is called once
// per worker: each worker calls its own visitor, so the visitors may keep
// scratch, but what they share must be guarded. With several workers the
// order of the visits is not BFS or DFS overall (each worker follows
// opts.Order on its own list), so a witness found first need not be a
// shortest one.
func SearchWorkers(sys *System, opts Options, newVisitor func() Visitor) Result {
	if opts.Workers <= 1 {
		return Search(sys, opts, newVisitor())
	}
	return searchParallel(sys, opts, newVisitor)
}

// sharedPassed is the passed list of a parallel search: passedLists in
// shards chosen by the hash of the discrete part.
type sharedPassed struct {
	seed   maphash.Seed
	mask   uint64
	shards []passedShard
	graph  *nodeGraph
	alu    bool
	// fullZones: the shards' codecs store full matrices, not minimal
	// constraints
	fullZones bool
	// lockFree: coverExact and insertAt read the chains without the
	// shard's lock (passedList.coveredShared, evictedShared), each
	// worker's reads counted by grace, whose grace periods the shards
	// wait for before they reuse an evicted zone's bytes
	lockFree bool
	grace    *graceClock
	// countStored: a state limit is set (Limits.MaxStates), so stored
	// counts; without one nothing reads it, and the workers do not write
	// its line at every state they store
	countStored bool
	// stored counts the states stored, for Limits.MaxStates (the other
	// counters stay in the shards, under their locks); it sits on a cache
	// line of its own so that its updates do not slow down every
	// worker's reads of the fields above.
	_      [64]byte
	stored atomic.Int64
	_      [56]byte
}

// passedShard is a shard's lock and list, by value: the list's fields
// that every lookup and insert writes (its scratch pointer and counters)
// come first, so that they share the lock's cache line, which the worker
// that takes the lock owns already (written once per operation: a
// waiter spinning on the line takes it back at each write), and the
// shard's size is a multiple of a cache line (TestPassedShardLayout), so
// that no two shards share one (the
// shards of even one worker take 3 KiB, and Go's allocator places
// objects over 1 KiB at multiples of 128 bytes).
type passedShard struct {
	mu spinLock
	p  passedList
	_  [24]byte // to whole lines (TestPassedShardLayout)
}

func newSharedPassed(dim int, opts Options, workers int, alu bool) *sharedPassed {
	n, b := 1, uint(0)
	for n < 16*workers {
		n *= 2
		b++
	}
	s := &sharedPassed{seed: maphash.MakeSeed(), mask: uint64(n - 1), shards: make([]passedShard, n), alu: alu, countStored: opts.Limits.MaxStates > 0}
	s.graph = &nodeGraph{stores: make([]*nodeStore, n), bits: b, mask: nodeID(n - 1), unpruned: opts.Hull}
	// the shards' caches of decoded zones share one budget (cachePool);
	// each may hold as many matrices as the sequential list's
	pool := &cachePool{limit: decodedCacheSmall}
	for i := range s.shards {
		s.shards[i].p = *newPassedListShard(dim, opts.FullZones, opts.Hull, decodedCacheBytes, decodedCacheSmall, pool, rangeCacheBytes/n, s.seed, uint64(i), b)
		s.shards[i].p.graph = s.graph
		s.graph.stores[i] = s.shards[i].p.nodes
		s.shards[i].p.nodes.ranked = opts.Order == Ranked
		// under aLU the bounds are those of the locking worker's
		// scratch (sharedView.lock)
		s.shards[i].p.alu = alu
	}
	s.fullZones = s.shards[0].p.full
	return s
}

// sharedView is one worker's access to the shared list: its aLU bounds
// are those of its own extrapolator, and the lists it locks use its
// scratch.
type sharedView struct {
	s       *sharedPassed
	scratch *viewScratch
	worker  int // the view's slot in s.grace
}

// viewScratch is a worker's scratch for the shared list: the passed
// lists' (with the worker's aLU bounds), in which it also computes the
// minimal constraints of a zone it will store before it takes the
// shard's lock, and the bytes of a stored zone it will decode.
type viewScratch struct {
	passedScratch
	zone []byte
	// cands holds the nodes that insertAt's scan without the lock found
	// the zone being inserted covers; sampling is the worker's schedule
	// of aLU tests in those scans
	cands    []uint32
	sampling aluSampling
	// covered counts the successors this worker found covered without
	// a shard's lock (sharedPassed.lockFree), which the shards' counts
	// do not hold; read by the coordinator for its progress reports.
	// coveredHere counts those of the expansion in progress, added to
	// covered at its end (endExpansion).
	covered     atomic.Int64
	coveredHere int64
}

// lock locks the shard of hash h and gives its list this worker's
// scratch; unlock unlocks it and, under a state limit, adds to the shared
// count the states the list stored since it held stored of them.
func (v sharedView) lock(h uint64) (*passedShard, *passedList) {
	s := v.s
	sh := &s.shards[h&s.mask]
	sh.mu.Lock()
	p := &sh.p
	p.sc = &v.scratch.passedScratch // on the lock's line: no miss
	return sh, p
}

func (v sharedView) unlock(sh *passedShard, stored int64) {
	ds := sh.p.stored - stored
	sh.mu.Unlock()
	if ds != 0 && v.s.countStored {
		v.s.stored.Add(ds)
	}
}

func (v sharedView) insert(key []byte, z dbm.DBM, parent nodeID, moveIdx int32) (nodeID, bool) {
	h := maphash.Bytes(v.s.seed, key)
	sh, p := v.lock(h)
	stored := p.stored
	n, ok := p.insertHashed(key, h, z, parent, moveIdx)
	v.unlock(sh, stored)
	return n, ok
}

func (v sharedView) coverExact(key []byte, z dbm.DBM) (keyRef, bool) {
	h := maphash.Bytes(v.s.seed, key)
	if v.s.lockFree {
		// most successors are covered: where the discrete part is
		// stored, the test runs without the lock, so that workers whose
		// successors fall under one discrete part of many zones test them
		// at once instead of in turn; insertAt tests the zones stored
		// since under the lock, and adds a discrete part not found here
		p := &v.s.shards[h&v.s.mask].p
		v.s.grace.enter(v.worker)
		k, ok := p.findShared(key, h)
		var head uint32
		covered := false
		if ok {
			head = atomic.LoadUint32(p.keyAt(k).head)
			covered = p.coveredShared(head, z, &v.scratch.passedScratch)
		}
		v.s.grace.exit(v.worker)
		if covered {
			v.scratch.coveredHere++
			return keyRef{}, true
		}
		if ok {
			return keyRef{h: h, k: k, head: head}, false
		}
		return keyRef{h: h, k: -1, key: key}, false
	}
	sh, p := v.lock(h)
	k, head, ok := p.coverExactHashed(key, h, z)
	sh.mu.Unlock()
	return keyRef{h: h, k: k, head: head}, ok
}

// insertAt tests inclusion again against the zones other workers stored
// under the key since coverExact (those before ref.head in its chain).
// z's minimal constraints are computed before the lock is taken: the
// zone is stored unless a zone stored since coverExact covers it, which
// is rare. A key that coverExact did not find (ref.k < 0) is looked up,
// and added, under the lock, and its whole chain tested there: in most
// searches it is a new discrete part, and the successor is stored under
// one lock instead of two (a worker that stored the key meanwhile may
// have stored a zone that covers the successor but not its abstraction,
// which is then stored too: sound, as any extra zone is).
func (v sharedView) insertAt(ref keyRef, z dbm.DBM, parent nodeID, moveIdx int32) (nodeID, bool) {
	ready := !v.s.fullZones
	if ready {
		c := &v.scratch.codec
		c.cons = z.MinConstraints(c.cons[:0])
	}
	var from uint32
	cands := v.scratch.cands[:0]
	if v.s.lockFree && ref.k >= 0 {
		// the eviction tests, a whole chain's, without the lock too:
		// under it, only the nodes stored since are tested
		p := &v.s.shards[ref.h&v.s.mask].p
		v.s.grace.enter(v.worker)
		from = atomic.LoadUint32(p.keyAt(ref.k).head)
		cands = p.evictedShared(from, z, &v.scratch.passedScratch, &v.scratch.sampling, cands)
		v.s.grace.exit(v.worker)
		v.scratch.cands = cands
	}
	sh, p := v.lock(ref.h)
	stored := p.stored
	if ref.k < 0 {
		ref.k = p.lookup(ref.key, ref.h)
	}
	n, ok := p.insertAtKey(ref, z, parent, moveIdx, true, ready, from, cands)
	v.unlock(sh, stored)
	return n, ok
}

// endExpansion adds the successors the worker found covered while it
// expanded a state to the count that progress reports read: one atomic
// addition a state instead of one a covered successor.
func (v sharedView) endExpansion() {
	if n := v.scratch.coveredHere; n != 0 {
		v.scratch.coveredHere = 0
		v.scratch.covered.Add(n)
	}
}

// loadSource decodes node's stored zone into dst; a node evicted by then
// is not expanded. Where another worker may evict the node and hand its
// bytes to a new zone (passedList.reclaim), the bytes are read in a read
// without the lock, whose grace period keeps them (sharedPassed.lockFree),
// or else copied under the shard's lock, the lock evictions take, and
// decoded after unlocking (under the convex hull).
func (v sharedView) loadSource(node nodeID, dst dbm.DBM) bool {
	g := v.s.graph
	if !g.reclaimed {
		g.node(node).LoadZone(dst)
		return true
	}
	if v.s.lockFree {
		// a read without the lock: a node not evicted yet keeps its
		// bytes until the read ends, as for the covered test (the evictor
		// sets the node's covered flag before it retires the bytes), so
		// they are decoded in place, without the lock and the copy
		v.s.grace.enter(v.worker)
		covered := g.covered(node)
		if !covered {
			g.store(node).zoneOf(g.rec(node)).load(dst)
		}
		v.s.grace.exit(v.worker)
		return !covered
	}
	sh := &v.s.shards[uint64(node)&v.s.mask]
	sh.mu.Lock()
	if g.covered(node) {
		sh.mu.Unlock()
		return false
	}
	sz := g.store(node).zoneOf(g.rec(node))
	v.scratch.zone = append(v.scratch.zone[:0], sz.b...)
	sh.mu.Unlock()
	sz.b = v.scratch.zone
	sz.load(dst)
	return true
}

func (v sharedView) storedCount() int64 { return v.s.stored.Load() }

func (v sharedView) coversAny(key []byte, zs []dbm.DBM) bool {
	h := maphash.Bytes(v.s.seed, key)
	sh, p := v.lock(h)
	ok := p.coversAnyHashed(key, h, zs)
	sh.mu.Unlock()
	return ok
}

func (v sharedView) evictWithin(key []byte, zs []dbm.DBM, keep nodeID) {
	h := maphash.Bytes(v.s.seed, key)
	sh, p := v.lock(h)
	stored := p.stored
	p.evictWithinHashed(key, h, zs, keep)
	v.unlock(sh, stored)
}

// coveredFree sums the successors the workers found covered without a
// shard's lock (a view not built yet counts none).
func coveredFree(views []*viewScratch) (n int64) {
	for _, v := range views {
		if v != nil {
			n += v.covered.Load()
		}
	}
	return n
}

// counts sums the shards' counters, taking each shard's lock in turn.
func (s *sharedPassed) counts() (stored, discrete, covered int64) {
	for i := range s.shards {
		sh := &s.shards[i]
		sh.mu.Lock()
		stored += sh.p.stored
		discrete += sh.p.discrete()
		covered += sh.p.cover
		sh.mu.Unlock()
	}
	return
}

// workQueue is a waiting list under a lock: in depth-first order one per
// worker, from which the others steal; in breadth-first order the one
// list of all workers.
type workQueue struct {
	mu spinLock
	nodeQueue
	// ranked, under the Ranked order, holds the shared list's nodes by
	// the ranks graph gives them, and progress, under the Progress order,
	// by their progress (the nodeQueue is then unused)
	ranked   *rankedQueue
	progress *progressQueue
	graph    *nodeGraph
	_        [16]byte
}

// pushAll queues ns; keys holds their progress under the Progress order
// (nil otherwise).
func (q *workQueue) pushAll(ns []nodeID, keys []int32) {
	q.mu.Lock()
	switch {
	case q.ranked != nil:
		for _, n := range ns {
			q.ranked.push(n, q.graph.rank(n))
		}
	case q.progress != nil:
		for i, n := range ns {
			k := int32(0)
			if keys != nil {
				k = keys[i]
			}
			q.progress.push(n, k)
		}
	default:
		q.items = append(q.items, ns...)
	}
	q.mu.Unlock()
}

// pop takes the next node in order, or false when the queue is empty.
// Covered nodes are returned too: the caller accounts for them.
func (q *workQueue) pop(order Order) (nodeID, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.take(order)
}

// stealHalf moves the older half of q's nodes (at least one) into buf.
func (q *workQueue) stealHalf(buf []nodeID) []nodeID {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.takeOldest(buf, (q.len()+1)/2)
}

// takeBatch moves up to a share of the queued nodes, oldest first, into
// buf: at most 1/(2·workers) of them and 32, at least one. A breadth-first
// parallel search has one such queue for all workers: they take the
// oldest nodes in small batches and append their successors, so that the
// order of expansion stays close to the sequential search's (per-worker
// lists run ahead of each other by whole levels, and aLU or inclusion
// then replaces more of what they store).
func (q *workQueue) takeBatch(buf []nodeID, workers int) []nodeID {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.ranked != nil {
		// of the highest rank only: a batch never mixes ranks
		return q.ranked.takeOldest(buf, min(max(q.ranked.len()/(2*workers), 1), 32))
	}
	if q.progress != nil {
		// of the lowest progress only
		return q.progress.takeOldest(buf, min(max(q.progress.len()/(2*workers), 1), 32))
	}
	return q.takeOldest(buf, min(max(q.len()/(2*workers), 1), 32))
}

// workerList is one worker's access to the waiting list of a parallel
// search: next gives the worker a node to expand, or false when none is
// queued for it now; put queues the nodes its expansion stored.
type workerList interface {
	next() (nodeID, bool)
	put(ns []nodeID, keys []int32)
}

// fifoList is a worker's access to the shared breadth-first list: it takes
// batches and collects the nodes it stores in an outbox of its own, handed
// to the list when the outbox is full or the batch is done (one lock per
// batch, not one per expansion; the outbox's nodes are counted as queued,
// so no worker ends while one holds some).
type fifoList struct {
	global *workQueue
	// shared, under plain breadth-first order, is the list instead of
	// global (sharedFIFO); worker is this worker's queue in it
	shared        *sharedFIFO
	worker        int
	workers       int
	batch, outbox []nodeID
	outKeys       []int32 // the outbox's progress (Progress order only)
}

const fifoOutboxMax = 64

func (l *fifoList) next() (nodeID, bool) {
	if len(l.batch) == 0 {
		if len(l.outbox) > 0 {
			l.flush()
		}
		if l.shared != nil {
			l.batch = l.shared.takeBatch(l.batch[:0], l.worker)
		} else {
			l.batch = l.global.takeBatch(l.batch[:0], l.workers)
		}
		if len(l.batch) == 0 {
			return noNode, false
		}
	}
	n := l.batch[0]
	l.batch = l.batch[1:]
	return n, true
}

func (l *fifoList) put(ns []nodeID, keys []int32) {
	l.outbox = append(l.outbox, ns...)
	if keys != nil {
		l.outKeys = append(l.outKeys, keys...)
	}
	if len(l.outbox) >= fifoOutboxMax {
		l.flush()
	}
}

// flush hands the outbox to the shared list.
func (l *fifoList) flush() {
	keys := l.outKeys
	if len(keys) == 0 {
		keys = nil
	}
	if l.shared != nil {
		l.shared.pushAll(l.outbox, l.worker)
	} else {
		l.global.pushAll(l.outbox, keys)
	}
	l.outbox, l.outKeys = l.outbox[:0], l.outKeys[:0]
}

// stealingList is a worker's own waiting list (depth-first order), from
// which the others steal half when theirs run dry.
type stealingList struct {
	queues []workQueue
	i      int // the worker's own
	order  Order
	stolen []nodeID
}

func (l *stealingList) next() (nodeID, bool) {
	q := &l.queues[l.i]
	for {
		if n, ok := q.pop(l.order); ok {
			return n, true
		}
		// steal from the others, starting after ourselves
		for k := 1; k < len(l.queues) && len(l.stolen) == 0; k++ {
			l.stolen = l.queues[(l.i+k)%len(l.queues)].stealHalf(l.stolen[:0])
		}
		if len(l.stolen) == 0 {
			return noNode, false
		}
		q.pushAll(l.stolen, nil)
		l.stolen = l.stolen[:0]
	}
}

func (l *stealingList) put(ns []nodeID, _ []int32) { l.queues[l.i].pushAll(ns, nil) }

// runWorker expands the nodes list gives until the search is stopped or
// done: worker's counters in flags count the nodes it queued and those it
// finished, and the search is done when every node queued is finished
// (runFlags.done).
func runWorker(e *expander, list workerList, flags *runFlags, worker int, opts Options, start time.Time, now func() time.Time, end func(StopReason, error, nodeID)) {
	stop, mine := &flags.stop, &flags.counts[worker]
	var view *sharedView
	if v, ok := e.passed.(sharedView); ok {
		view = &v
	}
	misses := 0
	for !stop.Load() {
		node, ok := list.next()
		if !ok {
			if flags.done() {
				return
			}
			// the others are expanding what is left: yield, then sleep
			// briefly, so that an idle worker does not keep its core busy
			// in a long narrow phase of the search
			if misses++; misses < 64 {
				runtime.Gosched()
			} else {
				time.Sleep(20 * time.Microsecond)
			}
			continue
		}
		misses = 0
		if e.graph.covered(node) {
			mine.finished.Add(1)
			continue
		}
		r, err := e.expand(node)
		if view != nil {
			view.endExpansion()
		}
		if err != nil || r != Completed {
			end(r, err, node)
			return
		}
		// the new nodes count before they are queued, this one after
		if len(e.out) > 0 {
			mine.queued.Add(int64(len(e.out)))
		}
		mine.finished.Add(1)
		if len(e.out) > 0 {
			list.put(e.out, e.outKeys)
			e.clearOut()
		}
		// the time limits, as the sequential search checks them (the
		// coordinator's tick may come after a short search has ended)
		if e.explored.Load()&255 == 1 {
			if r, hit := opts.Limits.expired(now(), start); hit {
				end(r, nil, noNode)
				return
			}
		}
	}
}

// runFlags are the atomics the workers share: stop, read at every step and
// written once, and each worker's counters, each on cache lines of its
// own, so that a step writes only lines its core holds already (one
// counter of pending nodes for all, written at every step by both of two
// workers, moved its line between their cores about once per expansion).
type runFlags struct {
	stop atomic.Bool
	_    [64]byte
	// counts[w] counts the nodes worker w queued (the initial states
	// count in counts[0]) and the nodes it finished: expanded, with their
	// successors counted as queued, or found covered
	counts []workerCounts
}

// workerCounts is one worker's counters, padded to a cache line pair so
// that no other worker's share them.
type workerCounts struct {
	queued, finished atomic.Int64
	_                [112]byte
}

// done reports whether every node queued has been finished, so that no
// node is queued or being expanded, and none can be queued again. It reads
// every worker's finished count before any queued count: a node counted
// finished was counted queued before, so the finished sum read first is
// at most the queued sum read after, and equal only when nothing counted
// as queued is still pending. A node queued after the queued counts were
// read is the successor of one being expanded, which the finished sum
// (read before) would then have missed: Mattern's counting scheme for
// termination detection ("Algorithms for distributed termination
// detection", Distributed Computing 2, 1987), with the counts read in two
// waves.
func (f *runFlags) done() bool {
	var finished, queued int64
	for i := range f.counts {
		finished += f.counts[i].finished.Load()
	}
	for i := range f.counts {
		queued += f.counts[i].queued.Load()
	}
	return finished == queued
}

// searchParallel is SearchWorkers with opts.Workers > 1 workers.
func searchParallel(sys *System, opts Options, newVisitor func() Visitor) Result {
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	start := now()
	workers := opts.Workers
	res := Result{Extrapolation: describeSearch(sys, opts)}
	sub, _ := ResolveSubsumption(sys, opts)
	shared := newSharedPassed(sys.Dim, opts, workers, sub == ALU)
	shared.grace = newGraceClock(workers + 1) // the last slot is the initial state's view
	mem := newMemSampler()

	// stop is set once the search must end: by a worker (the visitor asked
	// to stop, the state limit, a model error) or by the coordinator (a
	// limit, cancellation); the first reason given is kept.
	flags := runFlags{counts: make([]workerCounts, workers)}
	stop := &flags.stop
	var mu sync.Mutex
	reason := Completed
	end := func(r StopReason, err error, at nodeID) {
		mu.Lock()
		defer mu.Unlock()
		if stop.Load() {
			return
		}
		if err != nil {
			if Interrupted(err) {
				r, _ = opts.Limits.expired(now(), start)
				if r == Completed {
					r = LimitTime
				}
			} else {
				r = Failed
				res.Err, res.ErrNode = err.(*ModelError), shared.graph.node(at)
			}
		}
		reason = r
		stop.Store(true)
	}
	interrupt := func() bool {
		if stop.Load() {
			return true
		}
		_, hit := opts.Limits.expired(now(), start)
		return hit
	}

	// Each worker builds its expander (stepper, extrapolator, visitor and
	// their scratch) in its own goroutine: the allocator then takes them
	// from its own processor's spans, so that no two workers write to one
	// cache line (with them built here, Fischer's protocol ran 30 % slower
	// on two workers than it should).
	// views[i] is worker i's scratch for the shared list, views[workers]
	// the initial state's
	views := make([]*viewScratch, workers+1)
	newExp := func(i int) *expander {
		e := newExpander(sys, shared.graph, opts, sub == ALU, nil, newVisitor())
		sc := &viewScratch{passedScratch: *newPassedScratch(sys.Dim, opts.FullZones)}
		if !storesFull(sys.Dim, opts.FullZones) {
			sc.own = newOwnZones(sys.Dim)
		}
		views[i] = sc
		sc.l, sc.u = e.bl, e.bu
		e.passed = sharedView{s: shared, scratch: sc, worker: i}
		e.st.SetInterrupt(interrupt)
		return e
	}
	exps := make([]*expander, workers)
	queues := make([]workQueue, workers)

	finish := func() Result {
		res.Reason = reason
		for _, e := range exps {
			if e != nil {
				res.Explored += e.explored.Load()
				res.Transitions += e.transitions.Load()
			}
		}
		res.Stored, res.Discrete, res.Covered = shared.counts()
		res.Covered += coveredFree(views)
		res.Elapsed = now().Sub(start)
		res.PeakMemory = mem.sample()
		if searchDone != nil {
			var reused uint64
			for i := range shared.shards {
				reused += shared.shards[i].p.nodes.reused
			}
			searchDone(reused)
		}
		return res
	}

	init := newExp(workers)
	// evicted zones' bytes are reused on the sequential search's terms
	// (Search): the workers read a zone they expand under its shard's
	// lock (sharedView.loadSource), and the covered test, which reads the
	// chains without it, is waited for (graceClock) before the bytes of a
	// zone it may be reading are reused. Under the convex hull the covered
	// test takes the lock (insertHull replaces a discrete part's one
	// zone).
	shared.lockFree = !opts.Hull
	reclaim := reclaimEvicted && !opts.Hull && !sys.movesReadZone && (init.sym == nil || !init.xp.splits())
	shared.graph.reclaimed = reclaim
	for i := range shared.shards {
		p := &shared.shards[i].p
		p.reclaim = reclaim
		if reclaim && shared.lockFree {
			p.grace, p.retired = shared.grace, &retiredZones{}
		}
	}
	if init.sym != nil {
		shared.graph.sym = &symTrace{extrap: opts.Extrapolation, start: opts.Initial, exactFirst: init.exactFirst}
	}
	r, err := init.initial()
	if err != nil || r != Completed {
		end(r, err, noNode)
		return finish()
	}
	flags.counts[0].queued.Add(int64(len(init.out)))
	fifo := opts.Order != DFS
	var global workQueue
	switch opts.Order {
	case Ranked:
		global.ranked, global.graph = &rankedQueue{}, shared.graph
	case Progress, Topological:
		global.progress = &progressQueue{}
	}
	var plain *sharedFIFO
	if opts.Order == BFS {
		plain = newSharedFIFO(workers)
		plain.pushAll(init.out, workers)
	} else if fifo {
		global.pushAll(init.out, init.outKeys)
	} else {
		queues[0].pushAll(init.out, nil)
	}
	// the limits once before the workers start, so that a search shorter
	// than the coordinator's tick still meets them
	if r, hit := opts.Limits.expired(now(), start); hit {
		end(r, nil, noNode)
		return finish()
	}
	if opts.Limits.MaxMemory > 0 && mem.sample() >= opts.Limits.MaxMemory {
		end(LimitMemory, nil, noNode)
		return finish()
	}

	// the final visits (Options.VisitStored): once every worker is done
	// searching, they share out the passed list's records in chunks
	var searched sync.WaitGroup
	searched.Add(workers)
	var chunks []storedChunk
	var chunksOnce sync.Once
	var nextChunk atomic.Int64
	// nodes and checked count the records of the final visits and those
	// visited, for the progress reports
	var nodes, checked atomic.Int64
	visitStored := func(e *expander) {
		chunksOnce.Do(func() {
			chunks = shared.graph.storedChunks()
			nodes.Store(chunksNodes(chunks))
		})
		for !flags.stop.Load() {
			k := int(nextChunk.Add(1) - 1)
			if k >= len(chunks) {
				return
			}
			c := chunks[k]
			if r, at, err := e.visitStored(c.s, c.lo, c.hi); err != nil || r != Completed {
				end(r, err, at)
				return
			}
			checked.Add(int64(c.hi - c.lo))
		}
	}

	var wg, ready sync.WaitGroup
	for i := range exps {
		wg.Add(1)
		ready.Add(1)
		go func(i int) {
			defer wg.Done()
			e := newExp(i)
			exps[i] = e
			ready.Done()
			var list workerList = &stealingList{queues: queues, i: i, order: opts.Order}
			if fifo {
				list = &fifoList{global: &global, shared: plain, worker: i, workers: workers}
			}
			runWorker(e, list, &flags, i, opts, start, now, end)
			searched.Done()
			if opts.VisitStored {
				searched.Wait()
				visitStored(e)
			}
		}(i)
	}

	// The coordinator watches the limits and reports progress while the
	// workers run.
	ready.Wait()
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	progressEvery := opts.ProgressEvery
	if progressEvery == 0 {
		progressEvery = time.Second
	}
	lastProgress, lastMem := start, start
	for running := true; running; {
		select {
		case <-done:
			running = false
		case <-opts.Limits.Cancel:
			end(Canceled, nil, noNode)
			<-done
			running = false
		case <-tick.C:
			t := now()
			if r, hit := opts.Limits.expired(t, start); hit {
				end(r, nil, noNode)
				continue
			}
			if opts.Limits.MaxMemory > 0 || t.Sub(lastMem) >= 100*time.Millisecond {
				lastMem = t
				if m := mem.sample(); opts.Limits.MaxMemory > 0 && m >= opts.Limits.MaxMemory {
					end(LimitMemory, nil, noNode)
					continue
				}
			}
			if opts.Progress != nil && t.Sub(lastProgress) >= progressEvery {
				lastProgress = t
				var s Stats
				for _, e := range exps {
					s.Explored += e.explored.Load()
					s.Transitions += e.transitions.Load()
				}
				s.Stored, _, s.Covered = shared.counts()
				s.Covered += coveredFree(views)
				s.Checked, s.Nodes = checked.Load(), nodes.Load()
				s.Elapsed = t.Sub(start)
				s.PeakMemory = mem.peak
				opts.Progress(s)
			}
		}
	}
	return finish()
}

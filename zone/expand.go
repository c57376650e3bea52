package zone

import (
	"hash/maphash"
	"slices"
	"sync/atomic"

	"github.com/tcheck/tcheck/dbm"
	"github.com/tcheck/tcheck/model"
)

// passedStore is where an expander stores the states it computes: the
// sequential search's passedList, or one worker's view of the parallel
// search's sharded list.
type passedStore interface {
	// insert stores (key, z) unless a stored zone covers it, evicting
	// the stored zones it covers; it returns the new node, or false.
	insert(key []byte, z dbm.DBM, parent nodeID, moveIdx int32) (nodeID, bool)
	// storedCount is the number of states stored by all workers.
	storedCount() int64
	// coversAny reports whether a stored zone of key covers one of zs.
	coversAny(key []byte, zs []dbm.DBM) bool
	// evictWithin evicts the stored zones of key, other than node keep's,
	// that one of zs includes (passedList.evictWithinHashed).
	evictWithin(key []byte, zs []dbm.DBM, keep nodeID)
	// coverExact reports whether a stored zone of key covers z, a
	// successor before its abstraction (passedList.coverExactHashed),
	// and returns the key's reference for insertAt.
	coverExact(key []byte, z dbm.DBM) (keyRef, bool)
	// insertAt stores z, the abstraction of a successor that coverExact
	// found uncovered under ref's key, evicting the stored zones it
	// covers; it returns the new node, or false.
	insertAt(ref keyRef, z dbm.DBM, parent nodeID, moveIdx int32) (nodeID, bool)
	// loadSource copies the zone of node, taken from the waiting list to
	// be expanded, into dst; it reports false, and copies nothing, when
	// the node is covered by now. Where evicted zones' bytes are reused
	// (passedList.reclaim) and other workers evict, the zone must be
	// read under the lock that evictions take: once evicted, its bytes
	// may belong to another zone.
	loadSource(node nodeID, dst dbm.DBM) bool
}

// keyRef is a discrete part looked up by coverExact: its hash, the word
// offset of its bytes in its passed list's store (stable: keys are never
// removed) and
// the head of its chain then (head+1 of a node index; 0: none). New
// nodes go to the head of a chain, so a parallel search's second test
// (sharedView.insertAt) needs only the nodes before that one. A parallel
// worker's coverExact that did not find the key without the lock leaves
// k at -1 and key set (the caller's bytes, unchanged until insertAt):
// insertAt then adds the key, or finds it, under the one lock it takes.
type keyRef struct {
	h    uint64
	k    int
	head uint32
	key  []byte
}

func (p *passedList) storedCount() int64 { return p.stored }

func (p *passedList) coverExact(key []byte, z dbm.DBM) (keyRef, bool) {
	h := maphash.Bytes(p.seed, key)
	k, head, ok := p.coverExactHashed(key, h, z)
	return keyRef{h: h, k: k, head: head}, ok
}

// insertAt needs no second inclusion test: nothing was stored since
// coverExact, and a zone that covers nothing of z covers nothing of the
// abstraction of z.
func (p *passedList) insertAt(ref keyRef, z dbm.DBM, parent nodeID, moveIdx int32) (nodeID, bool) {
	return p.insertAtKey(ref, z, parent, moveIdx, false, false, 0, nil)
}

func (p *passedList) coversAny(key []byte, zs []dbm.DBM) bool {
	return p.coversAnyHashed(key, maphash.Bytes(p.seed, key), zs)
}

func (p *passedList) evictWithin(key []byte, zs []dbm.DBM, keep nodeID) {
	p.evictWithinHashed(key, maphash.Bytes(p.seed, key), zs, keep)
}

// expander is the step shared by the sequential and the parallel search
// (TChecker's layering: the algorithm is a loop over a waiting list, a
// passed list and this): it computes the successors of one stored state
// with its own Stepper, calls the visitor on each, extrapolates it and
// offers it to the passed list; the new nodes collect in out for the
// driver to queue. One expander belongs to one goroutine.
type expander struct {
	sys   *System
	graph *nodeGraph
	st    *Stepper
	xp    *extrapolator
	alu   bool
	// sym: store the symmetry representative of each state (nil: none);
	// bl, bu are the aLU bounds of the state inserted: xp's, or under
	// symmetry xp's permuted with the clocks.
	sym    *symmetry
	bl, bu []int32
	passed passedStore
	visit  Visitor
	// universe is the zone of all valuations, where the graph is
	// unpruned (movesZone)
	universe dbm.DBM
	// maxStates ends the search when the passed list holds that many
	// states (0: no limit).
	maxStates int64
	// visitNew: visit only the successors the passed list keeps, after
	// the inclusion test (Options.VisitNew); keep holds the exact zone
	// meanwhile, since extrapolation works in place.
	visitNew bool
	keep     dbm.DBM
	// markCovered: visit every successor after the inclusion test and
	// set Visit.Covered on those it drops (Options.MarkCovered); keep
	// holds the exact zone meanwhile.
	markCovered bool
	// inv is the zone a visit of Options.VisitStored shows
	inv dbm.DBM
	// start is Options.Initial (nil: the initial state).
	start *Start
	// exactFirst: test a successor's inclusion before abstracting it
	// (store); not under the convex hull, whose stored zone grows. perm
	// is scratch for a permuted zone under symmetry.
	exactFirst bool
	perm       dbm.DBM

	out []nodeID // nodes stored by the last initial or expand call
	// outKeys holds the progress of each node of out under the Progress
	// order with a measure (progress set; nil otherwise); penv evaluates
	// the measure.
	outKeys  []int32
	progress model.IntExpr
	penv     *model.Env
	// topo holds each process's location numbers under the Topological
	// order (locationRanks; nil otherwise), the measure of that order.
	topo [][]int32

	// explored and transitions are read by the parallel driver's progress
	// reports while the worker runs.
	explored, transitions atomic.Int64
	// moveTransitions counts the transitions of the expansion in
	// progress, added to transitions at its end
	moveTransitions int64

	// scratch
	locs, vars, dlocs, dvars []int32
	src, exact               dbm.DBM
	key                      []byte
	srcKey                   []byte // the key of node, (locs, vars) packed
	one                      []dbm.DBM
	v                        Visit

	// state of the expansion in progress, for succ
	node    nodeID
	moveIdx int32
	reason  StopReason
	err     error
	succ    func(Move) bool
}

func newExpander(sys *System, graph *nodeGraph, opts Options, alu bool, passed passedStore, visit Visitor) *expander {
	e := &expander{
		sys:         sys,
		graph:       graph,
		st:          NewStepper(sys),
		xp:          newExtrapolator(sys, opts.Extrapolation),
		alu:         alu,
		passed:      passed,
		visit:       visit,
		maxStates:   opts.Limits.MaxStates,
		visitNew:    opts.VisitNew && !opts.Hull,
		markCovered: opts.MarkCovered && !opts.VisitNew && !opts.Hull,
		start:       opts.Initial,
		locs:        make([]int32, sys.NProcs),
		vars:        make([]int32, sys.NVars),
		dlocs:       make([]int32, sys.NProcs),
		dvars:       make([]int32, sys.NVars),
		src:         dbm.New(sys.Dim),
		exact:       dbm.New(sys.Dim),
	}
	if e.visitNew || e.markCovered {
		e.keep = dbm.New(sys.Dim)
	}
	if graph.unpruned {
		e.universe = dbm.New(sys.Dim)
	}
	e.bl, e.bu = e.xp.l, e.xp.u
	if e.sym = symmetryFor(sys, opts); e.sym != nil {
		e.bl, e.bu = slices.Clone(e.xp.l), slices.Clone(e.xp.u)
	}
	e.exactFirst = !opts.Hull && !opts.AbstractFirst
	if e.sym != nil {
		e.perm = dbm.New(sys.Dim)
	}
	e.succ = e.successor
	if opts.Order == Progress && sys.Net.Progress != nil {
		e.progress, e.penv = sys.Net.Progress, sys.Net.NewEnv()
	}
	if opts.Order == Topological {
		e.topo = locationRanks(sys.Net)
	}
	return e
}

// store extrapolates (l, vv, work) and offers the result to the passed
// list; it reports whether the state limit is reached. work is modified
// (the visitor has seen it already).
func (e *expander) store(parent nodeID, moveIdx int32, l, vv []int32, work dbm.DBM) bool {
	before := len(e.out)
	limit := e.storeState(parent, moveIdx, l, vv, work)
	if (e.progress != nil || e.topo != nil) && len(e.out) > before {
		k := e.progressOf(l, vv)
		for range e.out[before:] {
			e.outKeys = append(e.outKeys, k)
		}
	}
	return limit
}

// progressOf evaluates the progress measure on (l, vv), the concrete
// successor (under symmetry its representative's measure may differ for
// a measure that is not symmetric: the order is a heuristic and either
// is sound). A runtime error of the measure is the search's error
// (e.err); the state then gets progress 0.
func (e *expander) progressOf(l, vv []int32) int32 {
	if e.topo != nil {
		k := int32(0)
		for p, loc := range l {
			k += e.topo[p][loc]
		}
		return k
	}
	e.penv.Locs, e.penv.Vars = l, vv
	k := e.progress(e.penv)
	if err := e.penv.Err; err != nil {
		e.penv.Err = nil
		if e.err == nil {
			e.err = &ModelError{Err: err}
		}
		return 0
	}
	return k
}

// clearOut empties out (and outKeys) once the driver has queued them.
func (e *expander) clearOut() {
	e.out, e.outKeys = e.out[:0], e.outKeys[:0]
}

// outKey returns the progress of out[i] (0 without a measure).
func (e *expander) outKey(i int) int32 {
	if e.outKeys == nil {
		return 0
	}
	return e.outKeys[i]
}

// storeState is store before the progress of the nodes stored.
func (e *expander) storeState(parent nodeID, moveIdx int32, l, vv []int32, work dbm.DBM) bool {
	if e.sym != nil {
		if e.exactFirst {
			return e.storeSymmetricExact(parent, moveIdx, l, vv, work)
		}
		return e.storeSymmetric(parent, moveIdx, l, vv, work)
	}
	if parent != noNode && parent == e.node {
		// a successor of the state being expanded: its key patched
		e.key = append(e.key[:0], e.srcKey...)
		e.sys.patchKey(e.key, e.locs, e.vars, l, vv)
	} else {
		e.key = e.sys.appendKey(e.key[:0], l, vv)
	}
	if e.exactFirst {
		// the inclusion test before the abstraction (coverExact): most
		// successors are covered, and are not abstracted
		if e.alu {
			e.xp.prepare(l) // the aLU test reads the bounds
		}
		ref, covered := e.passed.coverExact(e.key, work)
		if !covered {
			if !e.alu {
				e.xp.prepare(l)
			}
			e.insertAbstracted(ref, e.key, work, nil, parent, moveIdx)
		}
		return e.atLimit()
	}
	parts, split := e.xp.apply(work, l)
	if !split {
		if n, ok := e.passed.insert(e.key, work, parent, moveIdx); ok {
			e.out = append(e.out, n)
		}
	} else {
		for _, p := range parts {
			if n, ok := e.passed.insert(e.key, p, parent, moveIdx); ok {
				e.out = append(e.out, n)
			}
		}
	}
	return e.atLimit()
}

// insertAbstracted abstracts work, a successor that coverExact found
// uncovered under key (ref), and stores it, each clock c moved to ci[c]
// where ci is not nil (the representative's clock order, permuted into
// e.perm). Where diagonal splitting cuts it, each part is stored as
// insert stores it: a part need not include work, so the inclusion test
// is made again.
func (e *expander) insertAbstracted(ref keyRef, key []byte, work dbm.DBM, ci []int32, parent nodeID, moveIdx int32) {
	parts, split := e.xp.applyPrepared(work)
	if !split {
		if ci != nil {
			permuteZone(work, ci, e.perm)
			work = e.perm
		}
		if n, ok := e.passed.insertAt(ref, work, parent, moveIdx); ok {
			e.out = append(e.out, n)
		}
		return
	}
	for _, p := range parts {
		if ci != nil {
			permuteZone(p, ci, e.perm)
			p = e.perm
		}
		if n, ok := e.passed.insert(key, p, parent, moveIdx); ok {
			e.out = append(e.out, n)
		}
	}
}

// atLimit reports whether the passed list holds Limits.MaxStates states.
func (e *expander) atLimit() bool {
	return e.maxStates > 0 && e.passed.storedCount() >= e.maxStates
}

// permuteZone writes z with each clock c moved to ci[c] into out.
func permuteZone(z dbm.DBM, ci []int32, out dbm.DBM) {
	n := z.Dim
	for a := 0; a < n; a++ {
		row := z.M[a*n : a*n+n]
		o := out.M[int(ci[a])*n:]
		for b, x := range row {
			o[ci[b]] = x
		}
	}
}

// storeSymmetricExact is storeSymmetric with the inclusion test before
// the abstraction (exactFirst): the representative is that of the exact
// successor, its permutation is applied to the abstracted successor
// (abstraction commutes with renaming the clocks and their bounds), and
// only the successors kept are abstracted. concretePath picks the stored
// parts the same way (symTrace.exactFirst).
func (e *expander) storeSymmetricExact(parent nodeID, moveIdx int32, l, vv []int32, work dbm.DBM) bool {
	// Clocks that nothing compares in l (no bound, local or global, no
	// diagonal) are freed first, as the abstraction frees them: their
	// constraints would otherwise order members that differ only there,
	// and one discrete part would get several representatives (difftest
	// seed 70003). Extra_LU+ of the freed zone is that of work, and a
	// stored zone of l's key leaves them free, so the inclusion test
	// answers as it would for work.
	e.xp.freeUnbounded(work, l)
	cl, cv, cz, key, ci := e.sym.canon(l, vv, work)
	if e.alu {
		e.xp.prepare(l) // the aLU test reads the bounds, permuted
		for x, y := range ci {
			e.bl[y], e.bu[y] = e.xp.l[x], e.xp.u[x]
		}
	}
	// a stored zone covering cz, or else one of its images under the
	// permutations that keep the discrete part (whose orbit is the same),
	// covers it; the images are computed only where the first test fails
	// and the key has zones (a new discrete part has none)
	ref, covered := e.passed.coverExact(key, cz)
	if !covered {
		var alts []dbm.DBM
		if ref.head != 0 {
			if alts = e.sym.stabilizerZones(cl, cv, cz); len(alts) > 0 && e.passed.coversAny(key, alts) {
				return e.atLimit()
			}
		}
		if !e.alu {
			e.xp.prepare(l)
		}
		before := len(e.out)
		e.insertAbstracted(ref, key, work, ci, parent, moveIdx)
		// the stored zones that an image of the new one covers go too
		// (the test above, the other way round): the images of the zone
		// stored, the abstraction of cz, which insertAbstracted left in
		// e.perm (in work without a permutation); where diagonal
		// constraints split the zone there are several, and nothing more
		// is evicted
		if len(alts) > 0 && len(e.out) == before+1 && !e.xp.splits() {
			stored := work
			if ci != nil {
				stored = e.perm
			}
			e.passed.evictWithin(key, e.sym.stabilizerZones(cl, cv, stored), e.out[before])
		}
	}
	return e.atLimit()
}

// storeSymmetric is store with the representative of each zone's state
// in place of the state (see symmetry.go).
func (e *expander) storeSymmetric(parent nodeID, moveIdx int32, l, vv []int32, work dbm.DBM) bool {
	parts, split := e.xp.apply(work, l)
	if !split {
		e.one = append(e.one[:0], work)
		parts = e.one
	}
	for _, z := range parts {
		cl, cv, cz, key, ci := e.sym.canon(l, vv, z)
		if e.alu {
			for x, y := range ci {
				e.bl[y], e.bu[y] = e.xp.l[x], e.xp.u[x]
			}
		}
		// the representative's zone permuted by the permutations that
		// keep its discrete part: a stored zone covering one of them
		// covers the orbit
		if alts := e.sym.stabilizerZones(cl, cv, cz); len(alts) > 0 && e.passed.coversAny(key, alts) {
			continue
		}
		if n, ok := e.passed.insert(key, cz, parent, moveIdx); ok {
			e.out = append(e.out, n)
		}
	}
	return e.atLimit()
}

// initial computes, visits and stores the initial state (or
// Options.Initial). It returns
// Completed to go on (also when the initial state is empty: nothing is
// stored), Stopped or LimitStates to end, or the model's error.
func (e *expander) initial() (StopReason, error) {
	ok, err := e.st.InitialFrom(e.start, e.locs, e.vars, e.exact)
	if err != nil || !ok {
		return Completed, err
	}
	e.v = Visit{Locs: e.locs, Vars: e.vars, Zone: e.exact}
	if e.visit(&e.v) {
		return Stopped, nil
	}
	limit := e.store(noNode, -1, e.locs, e.vars, e.exact)
	if e.err != nil {
		return Completed, e.err
	}
	if limit {
		return LimitStates, nil
	}
	return Completed, nil
}

// expand computes, visits and stores the successors of node. It returns
// Completed to go on, Stopped or LimitStates to end, or the model's error
// (or an interrupted evaluation).
func (e *expander) expand(node nodeID) (StopReason, error) {
	s := e.graph.store(node)
	r := e.graph.rec(node)
	if s.ranked {
		atomic.OrUint32(&r.flags, expandedFlag)
	}
	if !e.passed.loadSource(node, e.src) {
		return Completed, nil // evicted meanwhile: its evictor covers it
	}
	e.srcKey = append(e.srcKey[:0], s.key(r.key)...)
	e.sys.decodeKey(e.srcKey, e.locs, e.vars)
	e.node, e.moveIdx, e.reason, e.err = node, 0, Completed, nil
	e.explored.Add(1)
	err := e.st.Moves(e.locs, e.vars, e.movesZone(), e.succ)
	// counted here, not at every successor: an atomic addition a
	// successor was a locked instruction a successor
	e.transitions.Add(e.moveTransitions)
	e.moveTransitions = 0
	if err == nil {
		err = e.err
	}
	if err == nil && e.reason == Completed && e.sym != nil && symCheckEvery > 0 {
		if n := e.explored.Load(); n <= symCheckFirst || n%symCheckEvery == 0 {
			err = e.checkSymmetry(n)
		}
	}
	return e.reason, err
}

// movesZone is the zone the moves of the state being expanded are
// enumerated against (Stepper.Moves): its own, or where the graph is
// unpruned (nodeGraph.unpruned) the zone of all valuations, which leaves
// out only the pieces of a move under priorities whose constraints
// contradict each other.
func (e *expander) movesZone() dbm.DBM {
	if e.graph.unpruned {
		return e.universe
	}
	return e.src
}

// successor is the callback of Stepper.Moves: one move of e.node.
func (e *expander) successor(m Move) bool {
	if err := e.st.pollSuccessor(); err != nil {
		e.err = err
		return false
	}
	idx := e.moveIdx
	e.moveIdx++
	ok, err := e.st.Post(e.locs, e.vars, e.src, m, e.dlocs, e.dvars, e.exact)
	if err != nil {
		e.err = err
		return false
	}
	if !ok {
		return true
	}
	e.moveTransitions++
	if e.visitNew || e.markCovered {
		e.keep.CopyFrom(e.exact)
		before := len(e.out)
		limit := e.store(e.node, idx, e.dlocs, e.dvars, e.exact)
		if e.err != nil {
			return false
		}
		if covered := len(e.out) == before; !covered || e.markCovered {
			e.v = Visit{Parent: e.graph.node(e.node), Move: m, Locs: e.dlocs, Vars: e.dvars, Zone: e.keep, Covered: covered}
			if e.visit(&e.v) {
				e.reason = Stopped
				return false
			}
		}
		if limit {
			e.reason = LimitStates
			return false
		}
		return true
	}
	e.v = Visit{Parent: e.graph.node(e.node), Move: m, Locs: e.dlocs, Vars: e.dvars, Zone: e.exact}
	if e.visit(&e.v) {
		e.reason = Stopped
		return false
	}
	limit := e.store(e.node, idx, e.dlocs, e.dvars, e.exact)
	if e.err != nil {
		return false
	}
	if limit {
		e.reason = LimitStates
		return false
	}
	return true
}

// visitStored calls the visitor on the states that records [lo, hi) of
// store s hold at the end of a completed search, skipping the evicted
// ones (Options.VisitStored). The abstraction may have dropped the
// invariant's upper bounds (Extra_LU+ keeps only what lower-bound guards
// can tell apart; successors apply the invariant again): the visitor sees
// the stored zone within the invariant, which still holds every reachable
// valuation it held. It returns Stopped when the visitor asks to stop.
func (e *expander) visitStored(s *nodeStore, lo, hi uint64) (StopReason, nodeID, error) {
	if e.inv.M == nil {
		e.inv = dbm.New(e.sys.Dim)
	}
	for i := lo; i < hi; i++ {
		r := s.recs.at(i)
		if atomic.LoadUint32(&r.flags)&coveredFlag != 0 {
			continue
		}
		e.sys.decodeKey(s.key(r.key), e.locs, e.vars)
		s.zoneOf(r).load(e.inv)
		ok, err := e.st.applyInvariants(e.locs, e.vars, e.inv)
		if err != nil {
			return Completed, s.id(i), err
		}
		if !ok {
			continue
		}
		e.v = Visit{Parent: e.graph.node(s.id(i)), Locs: e.locs, Vars: e.vars, Zone: e.inv, Stored: true}
		if e.visit(&e.v) {
			return Stopped, noNode, nil
		}
	}
	return Completed, noNode, nil
}

// storedChunk is a range of records of one store, the unit in which the
// final visits (Options.VisitStored) are shared out and the limits polled.
type storedChunk struct {
	s      *nodeStore
	lo, hi uint64
}

// chunksNodes returns the number of records in cs.
func chunksNodes(cs []storedChunk) int64 {
	n := int64(0)
	for _, c := range cs {
		n += int64(c.hi - c.lo)
	}
	return n
}

// storedChunks cuts the graph's records into chunks of at most 4,096.
func (g *nodeGraph) storedChunks() []storedChunk {
	const size = 4096
	var cs []storedChunk
	for _, s := range g.stores {
		for lo := uint64(0); lo < s.n; lo += size {
			cs = append(cs, storedChunk{s, lo, min(lo+size, s.n)})
		}
	}
	return cs
}

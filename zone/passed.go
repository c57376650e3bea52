package zone

import (
	"hash/maphash"
	"math/bits"
	"sync/atomic"

	"github.com/tcheck/tcheck/dbm"
)

// passedList maps each discrete part to the zones stored for it, chained
// through nodeRec.next. Its nodes live in a nodeStore; its index is an open
// addressing table of the discrete parts (no Go map, no pointer per key).
type passedList struct {
	// sc is the scratch the list's operations write besides the list
	// itself; cover and stored are counters. These are written at every
	// lookup or insert, in a parallel search by whichever worker holds
	// the shard's lock, which brings its own scratch (sharedView.lock).
	// They come first, on a cache line of their own (in a parallel
	// search, the lock's: passedShard), apart from the fields below,
	// which every test reads and only a new discrete part writes: a
	// worker then does not miss on those because another worker counted.
	// A waiting worker spins reading the lock's line, so a loop over a
	// chain counts in locals and writes here once (insertUncovered).
	sc     *passedScratch
	stored int64
	cover  int64 // successors dropped as included plus stored nodes evicted
	// aluTries counts the eviction tests under aLU, aluHits the aLU
	// evictions that inclusion would not have made (tryALUEviction)
	aluTries, aluHits int64
	// nkeys is the number of discrete parts in the index: written at every
	// new one, so it sits on this line too, not among the fields every
	// test reads (in Fischer's protocol every state stored has a new
	// discrete part, and each would take the other worker's next test of
	// the shard a miss on the line of slots).
	nkeys int
	_     [16]byte

	dim   int
	nodes *nodeStore
	graph *nodeGraph // the graph nodeIDs are resolved in (parents)
	seed  maphash.Seed
	// slots is the index of keys, open addressing with linear probing:
	// a slot holds the key's hash tag (the hash's top 32 bits) above 1 +
	// the word offset of its bytes in the store (0: empty; the head of
	// its chain is the word before, nodeStore.keyHead), so that a probe
	// passes a slot of another key without reading its record (at the
	// index's load, up to 3/4, a lookup of a key not stored probed some
	// 8 slots, and read each one's key record, a likely cache miss)
	slots []uint64
	// decoded caches decoded minimal zones (nil: none) for the aLU tests.
	decoded *decodedCache
	// ranges caches the clocks' ranges of stored minimal zones for the
	// aLU eviction test (nil: none).
	ranges *rangeCache
	// hull keeps one zone per discrete part, the convex hull of all zones
	// reached with it (see insertHull).
	hull bool
	// full: zones are stored as full matrices, not minimal constraints
	// (every scratch's codec says the same: storesFull)
	full bool
	// alu: subsumption by aLU (see Subsumption) with the bounds of the
	// scratch (sc.l, sc.u)
	alu bool
	// reclaim: an evicted node's zone bytes go back to the store for the
	// next zone of the same length. The search sets it where nothing
	// reads the zone of an evicted node again: workers read the zone they
	// expand under the lock evictions take (loadSource), and there are no
	// priorities (a path's moves are ordered by its nodes' zones), no
	// convex hull, and under symmetry no splitting (the concrete trace
	// computes a reclaimed node's representative from its parent's, which
	// needs the one part; nodeGraph.reclaimed). The record stays, for the
	// paths through it.
	reclaim bool
	// aluWarmup is the eviction tests this list makes with aLU before it
	// judges their rate (tryALUEviction): aluWarmup for a whole list, its
	// share for a parallel search's shard.
	aluWarmup int64
	// sharedSlots is slots for the readers that do not hold the shard's
	// lock (findShared): a copy of its header, stored again when the index
	// grows; the slots themselves are stored atomically.
	sharedSlots atomic.Pointer[[]uint64]
	// grace, in a parallel search whose workers read chains without the
	// lock, delays the reuse of evicted zones' bytes (reclaim) until no
	// such read can see them: retired holds them meanwhile
	grace   *graceClock
	retired *retiredZones
	// pads a passedShard to a whole number of cache lines
	// (TestPassedShardLayout)
	_ [48]byte
}

// passedScratch is what a passed list's operations write besides the list:
// the codec's buffers and matrix, the scratch of the aLU and inclusion
// tests, and the aLU bounds l, u of the location vector of the zone being
// inserted (the extrapolator's arrays, updated in place before each
// insert). A sequential search's list has one; in a parallel search each
// worker has its own and hands it to the shard it locks, so that the
// matrices and buffers it writes stay in its core's cache (a matrix
// decoded into a shard's scratch that another core wrote last would take
// a miss per cache line).
type passedScratch struct {
	codec      zoneCodec
	row0, dist []dbm.Bound
	l, u       []int32
	// own is a parallel worker's cache of the zones it decodes without a
	// shard's lock (nil elsewhere)
	own *ownZones
}

func newPassedScratch(dim int, full bool) *passedScratch {
	return &passedScratch{codec: newZoneCodec(dim, full), row0: make([]dbm.Bound, dim), dist: make([]dbm.Bound, dim)}
}

// keyRec is a discrete part in the index: the word offset of its bytes in
// the store, and the head of its chain of nodes (1 + index; 0: none),
// which the store keeps in the word before them (nodeStore.addKey).
type keyRec struct {
	key  uint32
	head *uint32
}

// keyAt returns the discrete part whose bytes are at word offset k.
func (p *passedList) keyAt(k int) keyRec {
	return keyRec{key: uint32(k), head: p.nodes.keyHead(uint32(k))}
}

func newPassedList(dim int, full, hull bool) *passedList {
	p := newPassedListShard(dim, full, hull, decodedCacheBytes, decodedCacheSmall, nil, rangeCacheBytes, maphash.MakeSeed(), 0, 0)
	p.graph = &nodeGraph{stores: []*nodeStore{p.nodes}}
	p.sc = newPassedScratch(dim, full)
	return p
}

// newPassedListShard returns shard number shard of 1<<shardBits (its
// graph is set by the caller), with a cache of decoded zones of at most
// cacheBytes, and of cacheSmall whatever the number of nodes, or growing
// while pool has room (a parallel search's shards; nil: a list of its
// own), and no scratch: a parallel search's worker hands its own to the
// shard it locks (sharedView.lock), newPassedList gives the sequential
// list one.
func newPassedListShard(dim int, full, hull bool, cacheBytes, cacheSmall int, pool *cachePool, rangeBytes int, seed maphash.Seed, shard uint64, shardBits uint) *passedList {
	p := &passedList{dim: dim, hull: hull, seed: seed, full: storesFull(dim, full), aluWarmup: max(int64(aluWarmup)>>shardBits, 1)}
	p.nodes = newNodeStore(dim*dim*4, shard, shardBits)
	p.slots = make([]uint64, 16)
	p.publishSlots()
	if !p.full {
		p.decoded = newDecodedCache(dim, cacheBytes, cacheSmall, pool)
		p.ranges = newRangeCache(dim, rangeBytes)
	}
	return p
}

// useALU switches the list to aLU subsumption with the bounds l, u (read
// at each insert; the caller updates them in place for the location
// vector of the zone inserted).
func (p *passedList) useALU(l, u []int32) {
	p.alu, p.sc.l, p.sc.u = true, l, u
}

// discrete returns the number of discrete parts stored.
func (p *passedList) discrete() int64 { return int64(p.nkeys) }

// lookup returns the word offset of key (hash h) in the store, adding it
// where it is new.
func (p *passedList) lookup(key []byte, h uint64) int {
	hi := uint32(h >> 32)
	mask := uint64(len(p.slots) - 1)
	shift := 64 - uint(bits.Len(uint(len(p.slots)-1)))
	for i := h >> shift & mask; ; i = (i + 1) & mask {
		s := p.slots[i]
		if s == 0 {
			k := int(p.nodes.addKey(key))
			p.nkeys++
			// published to findShared: the key's bytes and its head
			// are written before
			atomic.StoreUint64(&p.slots[i], slotOf(hi, k))
			if 4*p.nkeys > 3*len(p.slots) {
				p.grow()
			}
			return k
		}
		if k, ok := p.slotHolds(s, hi, key); ok {
			return k
		}
	}
}

// slotOf is the slot of the key at word offset k whose hash tag is hi.
func slotOf(hi uint32, k int) uint64 { return uint64(hi)<<32 | uint64(k+1) }

// slotHolds reports whether the full slot s holds key, whose hash tag is
// hi, and its word offset: the key's bytes are read only where the tags
// agree.
func (p *passedList) slotHolds(s uint64, hi uint32, key []byte) (int, bool) {
	if uint32(s>>32) != hi {
		return 0, false
	}
	k := uint32(s) - 1
	return int(k), string(p.nodes.key(k)) == string(key)
}

// find returns the word offset of key (hash h) in the store, or false.
func (p *passedList) find(key []byte, h uint64) (int, bool) {
	hi := uint32(h >> 32)
	mask := uint64(len(p.slots) - 1)
	shift := 64 - uint(bits.Len(uint(len(p.slots)-1)))
	for i := h >> shift & mask; ; i = (i + 1) & mask {
		s := p.slots[i]
		if s == 0 {
			return 0, false
		}
		if k, ok := p.slotHolds(s, hi, key); ok {
			return k, true
		}
	}
}

// coversAnyHashed reports whether a stored zone of key (hash h) covers
// one of zs, as insert decides coverage; it counts one covered successor
// if so.
func (p *passedList) coversAnyHashed(key []byte, h uint64, zs []dbm.DBM) bool {
	k, ok := p.find(key, h)
	if !ok {
		return false
	}
	s := p.nodes
	for i := *p.keyAt(k).head; i != 0; {
		r := s.recs.at(uint64(i - 1))
		sz := s.zoneOf(r)
		for _, z := range zs {
			if p.alu && p.aluCovers(z, sz, i-1) || !p.alu && sz.includes(z) {
				p.cover++
				return true
			}
		}
		i = r.next
	}
	return false
}

// grow doubles the index.
func (p *passedList) grow() {
	old := p.slots
	p.slots = make([]uint64, 2*len(old))
	mask := uint64(len(p.slots) - 1)
	shift := 64 - uint(bits.Len(uint(len(p.slots)-1)))
	for _, s := range old {
		if s == 0 {
			continue
		}
		// the tag is the hash's top half, which places the slot
		i := s >> 32 << 32 >> shift & mask
		for p.slots[i] != 0 {
			i = (i + 1) & mask
		}
		p.slots[i] = s
	}
	p.publishSlots()
}

// publishSlots gives findShared the index as it is now: filled before.
func (p *passedList) publishSlots() {
	sl := p.slots
	p.sharedSlots.Store(&sl)
}

// findShared is find for a caller that does not hold the shard's lock,
// which another worker may hold to add keys (lookup, grow): it reads the
// index through sharedSlots and each slot atomically, and the records and
// key bytes that a slot's store published. A key added meanwhile may be
// missed (false); the caller then looks it up under the lock.
func (p *passedList) findShared(key []byte, h uint64) (int, bool) {
	slots := *p.sharedSlots.Load()
	hi := uint32(h >> 32)
	mask := uint64(len(slots) - 1)
	shift := 64 - uint(bits.Len(uint(len(slots)-1)))
	for i := h >> shift & mask; ; i = (i + 1) & mask {
		s := atomic.LoadUint64(&slots[i])
		if s == 0 {
			return 0, false
		}
		if k, ok := p.slotHolds(s, hi, key); ok {
			return k, true
		}
	}
}

// evictedShared appends to cands the nodes of a chain, from head on, whose
// zones z covers, for a caller that does not hold the shard's lock (as
// coveredShared; head+1 of their index, in the chain's order), for
// insertEvicting to evict under the lock. The tests are those of evicts,
// on the caller's scratch sc (z's minimal constraints in its codec, where
// zones are minimal) and its own sampling of the aLU tests, without the
// shard's caches of decoded zones and clock ranges.
func (p *passedList) evictedShared(head uint32, z dbm.DBM, sc *passedScratch, sample *aluSampling, cands []uint32) []uint32 {
	s := p.nodes
	for i := head; i != 0; {
		r := s.recs.at(uint64(i - 1))
		sz := s.zoneOf(r)
		within := sz.maybeWithin(z.M, p.dim) && (!sz.minimal || minimalSatisfies(sz.b, sz.width, sc.codec.cons, sc.dist))
		if within || p.alu && sample.try() && p.aluEvictsIn(sz, i-1, z, sc, false) {
			cands = append(cands, i)
			if !within {
				sample.hits++
			}
		}
		i = atomic.LoadUint32(&r.next)
	}
	return cands
}

// coveredShared is coveredIn over a whole chain, from head (read
// atomically from the key's head word), for a caller that does not hold the
// shard's lock, with its own scratch sc (its aLU bounds and a matrix to
// decode into; the shard's cache of decoded zones is the lock holder's).
// The links are read atomically, as the holder stores them: the chain may
// lose evicted nodes and gain new ones at its head meanwhile, so every
// node stored before the scan and not evicted during it is tested, and
// maybe some evicted ones, whose zones are then covered by the zone that
// evicted them (both under inclusion and aLU, whose abstraction is a
// closure). Their bytes stay put: the store reuses an evicted zone's
// bytes only after a grace period (graceClock), which the caller's read
// holds up.
func (p *passedList) coveredShared(head uint32, z dbm.DBM, sc *passedScratch) bool {
	s := p.nodes
	for i := head; i != 0; {
		r := s.recs.at(uint64(i - 1))
		sz := s.zoneOf(r)
		if p.alu && p.aluCoversIn(z, sz, i-1, sc, false) || !p.alu && sz.includes(z) {
			return true
		}
		i = atomic.LoadUint32(&r.next)
	}
	return false
}

// insert adds (key, z) unless a stored zone for key includes z. Stored zones
// included in z are evicted and marked covered (TChecker's covreach with
// full covering). With alu, "includes" is "whose aLU abstraction
// includes", both ways. It returns the new node, or false if z was
// covered.
func (p *passedList) insert(key []byte, z dbm.DBM, parent nodeID, moveIdx int32) (nodeID, bool) {
	return p.insertHashed(key, maphash.Bytes(p.seed, key), z, parent, moveIdx)
}

// insertHashed is insert with the hash of key under p.seed.
func (p *passedList) insertHashed(key []byte, h uint64, z dbm.DBM, parent nodeID, moveIdx int32) (nodeID, bool) {
	kr := p.keyAt(p.lookup(key, h))
	if p.hull && *kr.head != 0 {
		return p.insertHull(kr, z, parent, moveIdx)
	}
	if p.coveredIn(kr, z, 0) {
		p.cover++
		return noNode, false
	}
	return p.insertUncovered(kr, z, parent, moveIdx, false)
}

// coverExactHashed looks key (hash h) up, adding it if new, and reports whether
// a stored zone of key covers z, counting a covered successor if so. z is
// a successor before its abstraction: what covers z covers the abstracted
// zone under aLU subsumption (a_LU(Extra_LU⁺(Z)) = a_LU(Z), LICS 2012),
// and under inclusion covers every valuation the successor has; a zone
// that covers nothing of z covers nothing of its abstraction, which
// includes z. So the search abstracts only the successors it keeps
// (insertAtKey), and a successor included in a stored zone is dropped even
// where its abstraction would not be: usually fewer zones, the same
// verdicts (docs/architecture.md). It returns the key's index and the head
// of its chain, for insertAtKey.
func (p *passedList) coverExactHashed(key []byte, h uint64, z dbm.DBM) (int, uint32, bool) {
	k := p.lookup(key, h)
	kr := p.keyAt(k)
	if p.coveredIn(kr, z, 0) {
		p.cover++
		return k, *kr.head, true
	}
	return k, *kr.head, false
}

// insertAtKey stores z (the abstraction of a successor that coverExact
// found uncovered under ref's key) unless recheck is set and a zone stored
// since covers it: a parallel search rechecks, as other workers may have
// stored zones since. Only those are tested: a zone that covered nothing
// of the successor covers nothing of its abstraction, which includes it
// (under aLU: z ⊑aLU Z' iff Extra_LU+(z) ⊑aLU Z', Herbreteau et al.,
// LICS 2012, Sect. 4). consReady says that the scratch's codec holds z's
// minimal constraints already: a parallel worker computes them in its
// scratch before it takes the shard's lock. from and cands are those of
// its scan without the lock for the zones z evicts (insertEvicting; 0 and
// nil: none).
func (p *passedList) insertAtKey(ref keyRef, z dbm.DBM, parent nodeID, moveIdx int32, recheck, consReady bool, from uint32, cands []uint32) (nodeID, bool) {
	kr := p.keyAt(ref.k)
	if recheck && p.coveredIn(kr, z, ref.head) {
		p.cover++
		return noNode, false
	}
	return p.insertEvicting(kr, z, parent, moveIdx, consReady, from, cands)
}

// coveredIn reports whether a zone of kr's chain before the node stop
// (head+1 of its index; 0: the whole chain) covers z. New nodes are put
// at the head and only eviction removes one, so the nodes before the
// chain's head of an earlier moment are those stored since; where that
// node was evicted since, the whole chain is tested.
func (p *passedList) coveredIn(kr keyRec, z dbm.DBM, stop uint32) bool {
	s := p.nodes
	for i := *kr.head; i != 0 && i != stop; {
		r := s.recs.at(uint64(i - 1))
		sz := s.zoneOf(r)
		if p.alu && p.aluCovers(z, sz, i-1) || !p.alu && sz.includes(z) {
			return true
		}
		i = r.next
	}
	return false
}

// insertUncovered stores z, which no stored zone of kr covers, evicting
// the stored zones that z covers; consReady: the scratch's codec holds z's
// minimal constraints (ignored by a codec that stores full matrices).
func (p *passedList) insertUncovered(kr keyRec, z dbm.DBM, parent nodeID, moveIdx int32, consReady bool) (nodeID, bool) {
	return p.insertEvicting(kr, z, parent, moveIdx, consReady, 0, nil)
}

// insertEvicting is insertUncovered where a scan without the lock
// (evictedShared) has tested the nodes of kr's chain up to the one of
// index from-1 (from: the head it started at; 0: none): cands holds those
// it found z covers, in the chain's order. Nodes stored since (a higher
// index: a store numbers its nodes in order) are tested here; the nodes
// the scan tested are evicted if they are among cands, and those it did
// not see were evicted meanwhile.
func (p *passedList) insertEvicting(kr keyRec, z dbm.DBM, parent nodeID, moveIdx int32, consReady bool, from uint32, cands []uint32) (nodeID, bool) {
	s := p.nodes
	// evict the stored zones included in z; under Ranked the new node
	// inherits its parent's rank and ranks above the expanded nodes it
	// evicts (evicting one that still waits wastes nothing)
	rank := 0
	if s.ranked {
		rank = int(p.graph.rank(parent))
	}
	prev := (*nodeRec)(nil)
	haveCons := consReady && !p.full // p.sc.codec.cons holds z's minimal constraints
	// the eviction tests and the evictions are counted here and written
	// to the list once: in a parallel search its counters share the shard
	// lock's cache line (passedShard), which a waiting worker reads as it
	// spins, and a write per test would then take the line back at every
	// test of the chain (docs/results.md, "A shard's counters under
	// contention")
	tries, evicted := p.aluTries, int64(0)
	for i, pos := *kr.head, 0; i != 0; pos++ {
		r := s.recs.at(uint64(i - 1))
		next := r.next
		var evict bool
		if i <= from {
			for len(cands) > 0 && cands[0] > i {
				cands = cands[1:] // evicted meanwhile
			}
			evict = len(cands) > 0 && cands[0] == i
		} else {
			if p.alu {
				tries++
			}
			evict = p.evicts(s.zoneOf(r), i-1, z, &haveCons, pos >= cachedFromPos, tries)
		}
		if evict {
			if s.ranked && atomic.LoadUint32(&r.flags)&expandedFlag != 0 {
				// a mistake: the evicted zone was expanded, and its
				// successors may be waiting; the new zone ranks above
				rank = max(rank, s.rankAbove(uint64(i-1)))
			}
			p.unlink(kr, prev, r, i, next)
			evicted++
		} else {
			prev = r
		}
		i = next
	}
	p.aluTries = tries
	p.cover += evicted
	p.stored -= evicted
	n := p.add(kr, z, parent, moveIdx, haveCons)
	if s.ranked {
		*s.ranks.at(uint64(n >> s.shardBits)) = uint8(rank)
	}
	return n, true
}

// unlink evicts the node of record r (head+1 index i) from kr's chain,
// between prev (nil: r is the head) and next.
func (p *passedList) unlink(kr keyRec, prev, r *nodeRec, i, next uint32) {
	atomic.OrUint32(&r.flags, coveredFlag)
	if p.decoded != nil {
		p.decoded.drop(i - 1)
	}
	// stored atomically for coveredShared's readers
	if prev == nil {
		atomic.StoreUint32(kr.head, next)
	} else {
		atomic.StoreUint32(&prev.next, next)
	}
	if p.reclaim {
		if p.grace != nil {
			p.retired.retire(p.grace, p.nodes, i-1) // unlinked first
		} else {
			p.nodes.release(r)
		}
	}
}

// evictWithinHashed evicts the stored zones of key (hash h), other than
// node keep's, that one of zs includes: under symmetry reduction, zs are
// the images of a new representative's zone under the permutations that
// keep its discrete part (symmetry.stabilizerZones), so that such a zone
// is covered by an image of the new node, whose orbit is the same (the
// eviction counterpart of the covered test's coversAny). Inclusion only,
// not aLU: any subset of the evictions is sound.
func (p *passedList) evictWithinHashed(key []byte, h uint64, zs []dbm.DBM, keep nodeID) {
	k, ok := p.find(key, h)
	if !ok {
		return
	}
	kr := p.keyAt(k)
	s := p.nodes
	keepAt := uint32(keep>>s.shardBits) + 1
	var prev *nodeRec
	evicted := int64(0)
	for i := *kr.head; i != 0; {
		r := s.recs.at(uint64(i - 1))
		next := r.next
		if i != keepAt && p.withinAny(s.zoneOf(r), i-1, zs) {
			p.unlink(kr, prev, r, i, next)
			evicted++
		} else {
			prev = r
		}
		i = next
	}
	p.cover += evicted
	p.stored -= evicted
}

// withinAny reports whether the stored zone sz (node index i) ⊆ one of zs.
func (p *passedList) withinAny(sz storedZone, i uint32, zs []dbm.DBM) bool {
	for _, z := range zs {
		haveCons := false
		if p.within(sz, i, z, &haveCons, false) {
			return true
		}
	}
	return false
}

// evicts reports whether the stored zone sz (of record i) is covered by z:
// under aLU by aLU subsumption while its tests pay (tryALUEviction; tries
// counts the list's eviction tests under aLU, this one included), else by
// inclusion. An aLU eviction is tested for inclusion too, to count those
// that inclusion would not have made; evictions are few.
func (p *passedList) evicts(sz storedZone, i uint32, z dbm.DBM, haveCons *bool, cached bool, tries int64) bool {
	if !p.alu || !p.tryALUEviction(tries) {
		return p.within(sz, i, z, haveCons, cached)
	}
	if !p.aluEvicts(sz, i, z) {
		return false
	}
	if !p.within(sz, i, z, haveCons, cached) {
		p.aluHits++
	}
	return true
}

// cachedFromPos is the position in a key's chain from which the eviction
// test looks for the stored zone's decoded matrix (within): a zone that
// deep in a chain is tested against every new zone of its discrete part,
// and there are many; nearer the head, as in Fischer's protocol (one or
// two zones a part), a zone is rarely tested twice, and the doorkeeper's
// false positives decoded zones for nothing (5–15 % slower on N = 10).
const cachedFromPos = 4

// within reports whether the stored zone sz (node index i) ⊆ z. A minimal
// stored zone is not decoded: z's minimal constraints, computed the first
// time (and then *haveCons set), are checked on its constraint graph
// (minimalSatisfies), or with cached on its decoded matrix where the
// zone was tested before (decodedCache.repeated); add encodes z from
// them.
func (p *passedList) within(sz storedZone, i uint32, z dbm.DBM, haveCons *bool, cached bool) bool {
	if !sz.maybeWithin(z.M, p.dim) {
		return false
	}
	if !sz.minimal {
		return true
	}
	if !*haveCons {
		p.sc.codec.cons = z.MinConstraints(p.sc.codec.cons[:0])
		*haveCons = true
	}
	if cached && p.decoded != nil {
		// a stored zone tested again: its closed matrix, decoded once
		// into the cache, answers by reading the entries z's minimal
		// constraints bound (decodedCache.repeated)
		if m, ok := p.decoded.repeated(sz, i, p.nodes.bytesUsed()); ok {
			return matrixSatisfies(m, p.sc.codec.cons)
		}
	}
	return minimalSatisfies(sz.b, sz.width, p.sc.codec.cons, p.sc.dist)
}

// add stores z as a new node at the head of kr's chain; haveCons: the
// codec's constraints are z's minimal constraints already (see within).
func (p *passedList) add(kr keyRec, z dbm.DBM, parent nodeID, moveIdx int32, haveCons bool) nodeID {
	s := p.nodes
	var b []byte
	var w uint8
	var minimal bool
	if haveCons {
		b, w, minimal = p.sc.codec.encodeCons()
	} else {
		b, w, minimal = p.sc.codec.encode(z)
	}
	zw, dst := s.alloc(len(b))
	copy(dst, b)
	if len(b) > maxZoneLen {
		panic("zone: an encoded zone is too long for a node record")
	}
	i, r := s.newRec()
	r.setParent(parent)
	r.zone = zw
	r.key = kr.key
	r.next = *kr.head
	r.moveIdx = moveIdx
	f := uint32(w) | uint32(len(b))<<zoneLenShift
	if minimal {
		f |= minimalFlag
	}
	atomic.StoreUint32(&r.flags, f)
	if minimal && p.alu {
		p.ranges.put(uint32(i), z)
	}
	atomic.StoreUint32(kr.head, uint32(i+1)) // publishes the node to coveredShared
	p.stored++
	return s.id(i)
}

// insertHull is insert under convex-hull over-approximation (UPPAAL's -A;
// Balarin, "Approximate reachability analysis of timed automata", RTSS
// 1996): the key keeps a single zone, the convex hull of every zone that
// reached it. A z inside it is dropped; otherwise the hull grows to include
// z and replaces the stored node (marked covered, so that the waiting list
// skips it if it was not explored yet), and the new node is explored
// again. The stored zones then include every reachable zone, possibly with
// valuations no run reaches: what is unreachable under the hull is
// unreachable, what is reached must be confirmed exactly. The new node
// keeps parent and moveIdx of the last zone merged; its path is a path to
// the key, not a run that reaches every valuation of the hull.
func (p *passedList) insertHull(kr keyRec, z dbm.DBM, parent nodeID, moveIdx int32) (nodeID, bool) {
	r := p.nodes.recs.at(uint64(*kr.head - 1))
	sz := p.nodes.zoneOf(r)
	if sz.includes(z) {
		p.cover++
		return noNode, false
	}
	h := p.sc.codec.scratch
	sz.load(h)
	h.ConvexHull(z)
	atomic.OrUint32(&r.flags, coveredFlag)
	p.cover++
	p.stored--
	old := *kr.head - 1
	atomic.StoreUint32(kr.head, 0)
	n := p.add(kr, h, parent, moveIdx, false)
	if s := p.nodes; s.ranked {
		// the hull replaces the stored zone: it ranks above it if that
		// was expanded
		rank := int(p.graph.rank(parent))
		if atomic.LoadUint32(&r.flags)&expandedFlag != 0 {
			rank = max(rank, s.rankAbove(uint64(old)))
		}
		*s.ranks.at(uint64(n >> s.shardBits)) = uint8(rank)
	}
	return n, true
}

// node returns the handle of a node of this list.
func (p *passedList) node(id nodeID) Node { return p.graph.node(id) }

// loadSource copies the zone of node into dst. The sequential search
// pops only uncovered nodes and nothing evicts while it expands one.
func (p *passedList) loadSource(node nodeID, dst dbm.DBM) bool {
	p.graph.node(node).LoadZone(dst)
	return true
}

// zoneOf returns the stored zone of a node of this list and its index in
// the store.
func (p *passedList) zoneOf(id nodeID) (storedZone, uint32) {
	i := uint64(id >> p.nodes.shardBits)
	return p.nodes.zoneOf(p.nodes.recs.at(i)), uint32(i)
}

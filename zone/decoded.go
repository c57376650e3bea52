package zone

import (
	"sync/atomic"

	"github.com/tcheck/tcheck/dbm"
)

// decodedCache keeps the closed matrices of recently decoded minimal zones,
// so that a zone stored under a busy key is decoded once, not at every aLU
// test against it (the inclusion tests read the stored constraints:
// minimalSatisfies). Where many zones share a discrete part and the
// search keeps finding new ones (FDDI under BFS: 40 thousand zones stored
// over 96 discrete parts, most evicted again), the eviction test decoded
// the same stored zones over and over: 58 % of the time. Entries
// are keyed by the node's index in its list's store; nodes never change
// once stored, so a cached matrix stays valid. A zone is cached the
// second time it is decoded within a while (a doorkeeper bitmap, as in
// TinyLFU): where most keys hold one or two zones, as in the agreement
// model, a zone is rarely decoded twice and the cache stays small. The
// cache grows to a
// fixed number of bytes, or to an eighth of the bytes of the nodes stored
// where that is more (up to a larger bound), so that it adds little to
// the memory per stored zone; it replaces entries in clock order (a used
// entry gets a second chance).
type decodedCache struct {
	// written at every miss: on a cache line apart from the fields read
	// at every get (a parallel search's workers share a shard's cache)
	misses int
	hand   int
	free   []int32 // slots of dropped entries
	_      [24]byte

	dim   int
	slots []decodedSlot
	index map[uint32]int32
	// seen has the bit of each node decoded once lately (by its index,
	// hashed); cleared every len(seen)*16 misses, so that at most a
	// quarter of its bits are set and few first decodes pass for second.
	seen  []uint64
	max   int // entries
	per   int // bytes per entry
	small int // bytes the cache may use whatever the store's size
	// pool, in a parallel search, is the budget all the shards' caches
	// draw on instead of small and their stores' sizes (nil: a
	// sequential list's own cache).
	pool *cachePool
}

// cachePool is the bytes of decoded zones a parallel search's shards may
// keep in all. An even share per shard starved the shards that hold the
// busy discrete parts (FDDI N = 15's 120 discrete parts fall on at most
// 120 of the 256 shards at 16 workers), and from dimension 46 a 256th of
// the budget held fewer than 16 matrices, so that no shard had a cache
// and each decode an aLU test needed was done again. Each shard's cache
// now grows while the pool has room, as the sequential list's does while
// it is within decodedCacheSmall.
type cachePool struct {
	used  atomic.Int64
	limit int64
}

// take reserves n bytes of the pool, or reports false if that would pass
// its limit.
func (p *cachePool) take(n int) bool {
	if p.used.Add(int64(n)) <= p.limit {
		return true
	}
	p.used.Add(-int64(n))
	return false
}

type decodedSlot struct {
	n   uint32
	m   dbm.DBM
	ref bool
}

// decodedCacheBytes bounds each passed list's cache, decodedCacheSmall is
// what it may use however few nodes are stored (a parallel search's
// shards draw on one pool of decodedCacheSmall: cachePool). With decodedCacheSmall at 4 MiB, FDDI N = 12
// under BFS (647 zones kept, 40 thousand stored and evicted again, of
// dimension 38, 5.8 KB a matrix) thrashed the cache and took 18 s instead of 6 s:
// its live zones and the new ones compared with them need more. The
// doorkeeper keeps the cache small where zones are rarely decoded twice
// (agreement f = 1, (1,1,2): 175 → 185 MiB of peak heap for 1.67 M zones).
const (
	decodedCacheBytes = 32 << 20
	decodedCacheSmall = 32 << 20
)

func newDecodedCache(dim int, bytes, small int, pool *cachePool) *decodedCache {
	per := dim * dim * 4
	max := min(bytes/max(per, 1), 1<<14)
	if max < 16 {
		return nil // zones too large to keep: decode every time
	}
	return &decodedCache{dim: dim, index: make(map[uint32]int32), max: max, per: per, small: small, seen: make([]uint64, 1<<12), pool: pool}
}

// mayGrow reports whether the cache may add an entry, the nodes of its
// store taking storeBytes.
func (c *decodedCache) mayGrow(storeBytes uint64) bool {
	if len(c.slots) >= c.max {
		return false
	}
	if c.pool != nil {
		return c.pool.take(c.per)
	}
	grow := (len(c.slots) + 1) * c.per
	return grow <= c.small || uint64(grow) <= storeBytes/8
}

// get returns the closed matrix of sz, the zone of the node at index n:
// the cache's, or decoded into scratch the first time, into the cache the
// second. The matrix is the cache's or scratch: read it before the next
// get. storeBytes is the memory of the nodes stored, which bounds the
// cache's growth.
func (c *decodedCache) get(sz storedZone, n uint32, storeBytes uint64, scratch dbm.DBM) dbm.DBM {
	if m, ok := c.repeated(sz, n, storeBytes); ok {
		return m
	}
	sz.load(scratch)
	return scratch
}

// add decodes sz, the zone of the node at index n, into a slot of the
// cache (a new one, a dropped one, or the next in clock order that was not
// used lately) and returns the slot's matrix; false where the cache has no
// slot and may not grow (a parallel search's shard whose first decode came
// after the other shards had spent the pool: FDDI N = 15 at two workers
// indexed an empty slice here in most runs).
func (c *decodedCache) add(sz storedZone, n uint32, storeBytes uint64) (dbm.DBM, bool) {
	var i int
	if k := len(c.free); k > 0 {
		i = int(c.free[k-1])
		c.free = c.free[:k-1]
	} else if c.mayGrow(storeBytes) {
		c.slots = append(c.slots, decodedSlot{m: dbm.New(c.dim)})
		i = len(c.slots) - 1
	} else if len(c.slots) == 0 {
		return dbm.DBM{}, false
	} else {
		for {
			s := &c.slots[c.hand]
			if !s.ref {
				break
			}
			s.ref = false
			c.hand = (c.hand + 1) % len(c.slots)
		}
		i = c.hand
		c.hand = (c.hand + 1) % len(c.slots)
		delete(c.index, c.slots[i].n)
	}
	s := &c.slots[i]
	s.n, s.ref = n, false
	sz.load(s.m)
	c.index[n] = int32(i)
	return s.m, true
}

// repeated returns the closed matrix of sz, the zone of the node at index
// n, where the node was seen before: the cache's copy, or decoded into the
// cache when the doorkeeper has its bit (a second test within a while).
// The first time it only sets the bit and reports false: get then decodes
// into its scratch, and the inclusion eviction test, its other caller,
// decides on the stored constraints (minimalSatisfies), which costs less
// than decoding a zone tested once. Where hundreds of zones share a
// discrete part, each stored zone is tested against every new zone of its
// part (scalar-pools N = M = 3: three quarters of the search was the
// Bellman–Ford of minimalSatisfies).
func (c *decodedCache) repeated(sz storedZone, n uint32, storeBytes uint64) (dbm.DBM, bool) {
	if i, ok := c.index[n]; ok {
		// written only when it changes: in a parallel search another
		// core may read the slot's line
		s := &c.slots[i]
		if !s.ref {
			s.ref = true
		}
		return s.m, true
	}
	if c.misses++; c.misses == len(c.seen)*16 {
		clear(c.seen)
		c.misses = 0
	}
	h := (n * 0x9e3779b1) >> 16 % uint32(len(c.seen)*64)
	if w, b := h/64, uint64(1)<<(h%64); c.seen[w]&b == 0 {
		c.seen[w] |= b
		return dbm.DBM{}, false
	}
	return c.add(sz, n, storeBytes)
}

// drop forgets the node at index n, evicted from the passed list: its zone
// is never compared again, and its slot is the next one used. Without
// this, the zones of evicted nodes would crowd out the live ones where
// most stored zones are evicted again (FDDI).
func (c *decodedCache) drop(n uint32) {
	if i, ok := c.index[n]; ok {
		delete(c.index, n)
		c.slots[i].ref = false
		c.free = append(c.free, i)
	}
}

// loadZone returns sz, the zone of the node at index i, as a closed
// matrix: the cache's copy for a minimal zone when there is a cache, else
// decoded into scratch.
func (p *passedList) loadZone(sz storedZone, i uint32) dbm.DBM {
	return p.loadZoneIn(sz, i, p.sc, true)
}

// loadZoneIn is loadZone into scratch sc's matrix, through the list's cache
// only where cached is set; a parallel worker's read without the lock goes
// through the worker's own cache (sc.own) instead.
func (p *passedList) loadZoneIn(sz storedZone, i uint32, sc *passedScratch, cached bool) dbm.DBM {
	if cached && sz.minimal && p.decoded != nil {
		return p.decoded.get(sz, i, p.nodes.bytesUsed(), sc.codec.scratch)
	}
	if !cached && sz.minimal && sc.own != nil {
		return sc.own.get(p, sz, i)
	}
	s := sc.codec.scratch
	sz.load(s)
	return s
}

// ownZones is a parallel worker's cache of the stored zones it decodes in
// its reads without a shard's lock (coveredShared, evictedShared), which
// may not use the shards' caches (decodedCache), the lock holder's: where
// many zones share a discrete part, the aLU tests of those reads decoded
// the same zones again and again (independent-loops N = 4 at one worker
// took 12 % longer than the sequential search). It is direct-mapped by the
// node's shard and index. A node's zone never changes (an evicted node's
// bytes go to a new node once no read can see them; the evicted node's own
// zone stays what it was, covered by its evictor), so an entry stays true.
type ownZones struct {
	dim   int
	mask  uint32
	lists []*passedList
	nodes []uint32 // 1 + the node's index in its list's store; 0: empty
	zones []dbm.DBM
	// the clocks' ranges of stored zones for the aLU eviction test, as
	// the list's rangeCache keeps them (row 0 and column 0 of the closed
	// zone, dim bounds each, in rb), direct-mapped by rmask
	rmask  uint32
	rlists []*passedList
	rnodes []uint32
	rb     []dbm.Bound
}

// ownZonesBytes bounds the matrices of a worker's ownZones, and a quarter
// of it the clocks' ranges; ownZonesMax bounds its matrices, four times it
// its ranges.
const (
	ownZonesBytes = 1 << 20
	ownZonesMax   = 1024
)

// newOwnZones returns a cache for zones of dimension dim: a power of two
// of entries, as many as ownZonesBytes holds (at least 4), their matrices
// allocated at their first use.
func newOwnZones(dim int) *ownZones {
	per := dim*dim*4 + 48
	n := 4
	for 2*n*per <= ownZonesBytes && 2*n <= ownZonesMax {
		n *= 2
	}
	r := 4
	for 2*r*(8*dim+12) <= ownZonesBytes/4 && 2*r <= 4*ownZonesMax {
		r *= 2
	}
	return &ownZones{dim: dim, mask: uint32(n - 1), lists: make([]*passedList, n), nodes: make([]uint32, n), zones: make([]dbm.DBM, n),
		rmask: uint32(r - 1), rlists: make([]*passedList, r), rnodes: make([]uint32, r), rb: make([]dbm.Bound, 2*r*dim)}
}

// ownSlot is the entry of node i of list p in a direct-mapped table of
// mask+1 entries.
func ownSlot(p *passedList, i, mask uint32) uint32 {
	return (i*0x9e3779b1 + uint32(p.nodes.shard)*0x85ebca6b) >> 7 & mask
}

// ranges returns the entry of node i of list p in the table of clocks'
// ranges, and whether it holds that node's ranges.
func (c *ownZones) ranges(p *passedList, i uint32) (row0, col0 []dbm.Bound, ok bool) {
	h := ownSlot(p, i, c.rmask)
	o := int(h) * 2 * c.dim
	return c.rb[o : o+c.dim], c.rb[o+c.dim : o+2*c.dim], c.rnodes[h] == i+1 && c.rlists[h] == p
}

// claimRanges gives node i of list p its entry, to be filled by the
// caller.
func (c *ownZones) claimRanges(p *passedList, i uint32) (row0, col0 []dbm.Bound) {
	h := ownSlot(p, i, c.rmask)
	c.rlists[h], c.rnodes[h] = p, i+1
	row0, col0, _ = c.ranges(p, i)
	return row0, col0
}

// get returns the closed matrix of the minimal zone sz of node i of list p,
// decoded now or earlier.
func (c *ownZones) get(p *passedList, sz storedZone, i uint32) dbm.DBM {
	h := ownSlot(p, i, c.mask)
	if c.nodes[h] == i+1 && c.lists[h] == p {
		return c.zones[h]
	}
	if c.zones[h].M == nil {
		c.zones[h] = dbm.New(c.dim)
	}
	sz.load(c.zones[h])
	c.lists[h], c.nodes[h] = p, i+1
	return c.zones[h]
}

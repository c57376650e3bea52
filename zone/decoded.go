package zone

import "github.com/tcheck/tcheck/dbm"

// decodedCache keeps the closed matrices of recently decoded minimal zones,
// so that a zone stored under a busy key is decoded once, not at every
// inclusion test against it. Where many zones share a discrete part and
// the search keeps finding new ones (FDDI under BFS: 40 thousand zones
// stored over 96 discrete parts, most evicted again), the eviction test
// decoded the same stored zones over and over: 58 % of the time. Entries
// are keyed by the node's index in its list's store; nodes never change
// once stored, so a cached matrix stays valid. The cache grows to a
// fixed number of bytes, or to an eighth of the bytes of the nodes stored
// where that is more (up to a larger bound), so that it adds little to
// the memory per stored zone; it replaces entries in clock order (a used
// entry gets a second chance).
type decodedCache struct {
	dim   int
	slots []decodedSlot
	index map[uint32]int32
	hand  int
	max   int // entries
	per   int // bytes per entry
	small int // bytes the cache may use whatever the store's size
}

type decodedSlot struct {
	n   uint32
	m   dbm.DBM
	ref bool
}

// decodedCacheBytes bounds each passed list's cache, decodedCacheSmall is
// what it may use however few nodes are stored (a parallel search's
// shards share the bounds).
const (
	decodedCacheBytes = 32 << 20
	decodedCacheSmall = 4 << 20
)

func newDecodedCache(dim int, bytes, small int) *decodedCache {
	per := dim * dim * 4
	max := min(bytes/max(per, 1), 1<<14)
	if max < 16 {
		return nil // zones too large to keep: decode every time
	}
	return &decodedCache{dim: dim, index: make(map[uint32]int32), max: max, per: per, small: small}
}

// get returns the closed matrix of sz, the zone of the node at index n,
// decoding it into the cache on a miss. The matrix is the cache's: read it
// before the next get.
// storeBytes is the memory of the nodes stored, which bounds the cache's
// growth.
func (c *decodedCache) get(sz storedZone, n uint32, storeBytes uint64) dbm.DBM {
	if i, ok := c.index[n]; ok {
		s := &c.slots[i]
		s.ref = true
		return s.m
	}
	var i int
	if grow := (len(c.slots) + 1) * c.per; len(c.slots) < c.max && (grow <= c.small || uint64(grow) <= storeBytes/8) {
		c.slots = append(c.slots, decodedSlot{m: dbm.New(c.dim)})
		i = len(c.slots) - 1
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
	return s.m
}

// loadZone returns sz, the zone of the node at index i, as a closed
// matrix: the cache's copy for a minimal zone when there is a cache, else
// decoded into scratch.
func (p *passedList) loadZone(sz storedZone, i uint32) dbm.DBM {
	if sz.minimal && p.decoded != nil {
		return p.decoded.get(sz, i, p.nodes.bytesUsed())
	}
	s := p.codec.scratch
	sz.load(s)
	return s
}

package zone

import "github.com/tcheck/tcheck/dbm"

// decodedCache keeps the closed matrices of recently decoded minimal zones,
// so that a zone stored under a busy key is decoded once, not at every
// inclusion test against it. Where many zones share a discrete part and
// the search keeps finding new ones (FDDI under BFS: 40 thousand zones
// stored over 96 discrete parts, most evicted again), the eviction test
// decoded the same stored zones over and over: 58 % of the time. Nodes
// never change once stored, so a cached matrix stays valid; the cache
// holds at most a fixed number of bytes and replaces entries in clock
// order (a used entry gets a second chance).
type decodedCache struct {
	dim   int
	slots []decodedSlot
	index map[*Node]int32
	hand  int
	max   int
}

type decodedSlot struct {
	n   *Node
	m   dbm.DBM
	ref bool
}

// decodedCacheBytes bounds each passed list's cache (a parallel search's
// shards share the bound).
const decodedCacheBytes = 32 << 20

func newDecodedCache(dim int, bytes int) *decodedCache {
	per := dim * dim * 4
	max := min(bytes/max(per, 1), 1<<14)
	if max < 16 {
		return nil // zones too large to keep: decode every time
	}
	return &decodedCache{dim: dim, index: make(map[*Node]int32), max: max}
}

// get returns the closed matrix of n's zone (minimal form), decoding it
// into the cache on a miss. The matrix is the cache's: read it before the
// next get.
func (c *decodedCache) get(n *Node) dbm.DBM {
	if i, ok := c.index[n]; ok {
		s := &c.slots[i]
		s.ref = true
		return s.m
	}
	var i int
	if len(c.slots) < c.max {
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
	n.LoadZone(s.m)
	c.index[n] = int32(i)
	return s.m
}

// loadZone returns n's zone as a closed matrix: the cache's copy for a
// minimal zone when there is a cache, else decoded into scratch.
func (p *passedList) loadZone(n *Node) dbm.DBM {
	if n.minimal && p.decoded != nil {
		return p.decoded.get(n)
	}
	s := p.codec.scratch
	n.LoadZone(s)
	return s
}

// decodeInto returns a loader for nodeSubsetEq that decodes into scratch.
func decodeInto(scratch dbm.DBM) func(*Node) dbm.DBM {
	return func(n *Node) dbm.DBM {
		n.LoadZone(scratch)
		return scratch
	}
}

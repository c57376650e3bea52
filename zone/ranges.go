package zone

import "github.com/tcheck/tcheck/dbm"

// rangeCache keeps, for the zones a passed list stored lately under aLU
// subsumption, row 0 and column 0 of the closed matrix: each clock's lower
// and upper bound. The eviction test (aluEvicts) reads witnesses of
// Z' ⊄ aLU(z) off them and the stored minimal constraints
// (rangesNotEvicted) without decoding Z'. A minimal constraint set gives
// them only by shortest paths (clockRanges), but the new zone's closed
// matrix is at hand when it is stored, so they are copied then. On FDDI
// N = 12 under BFS a stored zone is tested against about 180 new zones of
// its discrete part before it is evicted, and 96 % of the tests are
// settled by these entries; before, 79 % of them decoded the stored zone
// (docs/results.md, "FDDI under BFS and aLU").
//
// Entries are keyed by the node's index in its list's store (nodes never
// change once stored), direct-mapped: a newer node takes the slot of an
// older one, and a missing entry is computed again.
type rangeCache struct {
	dim  int
	mask uint32
	tags []uint32    // index + 1 of the node in each slot; 0: empty
	b    []dbm.Bound // per slot: row 0, then column 0, dim each
}

// rangeCacheBytes bounds each passed list's range cache (a parallel
// search's shards share it): 8,192 entries of dimension 38 (FDDI N = 15),
// 32,768 of dimension 10 (the agreement model, n = 3).
const rangeCacheBytes = 4 << 20

// newRangeCache makes a cache of at most bytes (at least one entry); the
// slots are allocated on first use, so that a list that never uses aLU
// pays nothing.
func newRangeCache(dim, bytes int) *rangeCache {
	per := 4 + 2*dim*4
	slots := 1
	for 2*slots*per <= bytes {
		slots *= 2
	}
	return &rangeCache{dim: dim, mask: uint32(slots - 1)}
}

// slot returns the row 0 and column 0 of node i's slot and whether they
// hold i's.
func (c *rangeCache) slot(i uint32) (row0, col0 []dbm.Bound, ok bool) {
	if c.tags == nil {
		c.tags = make([]uint32, c.mask+1)
		c.b = make([]dbm.Bound, int(c.mask+1)*2*c.dim)
	}
	s := i & c.mask
	o := int(s) * 2 * c.dim
	return c.b[o : o+c.dim], c.b[o+c.dim : o+2*c.dim], c.tags[s] == i+1
}

// claim gives node i the slot of its index, to be filled by the caller.
func (c *rangeCache) claim(i uint32) (row0, col0 []dbm.Bound) {
	row0, col0, _ = c.slot(i)
	c.tags[i&c.mask] = i + 1
	return row0, col0
}

// put records the ranges of node i, whose closed zone is z.
func (c *rangeCache) put(i uint32, z dbm.DBM) {
	row0, col0 := c.claim(i)
	n := c.dim
	copy(row0, z.M[:n])
	for k := range col0 {
		col0[k] = z.M[k*n]
	}
}

// clockRanges sets row0 and col0 to row 0 and column 0 of the closed zone
// of the minimal constraint set s (bounds of width w): the shortest paths
// from and to the reference clock in its constraint graph, whose edges are
// the constraints and the implicit x ≥ 0 (0 - x ≤ 0, an edge from the
// reference clock that only a path from it starts with, as the graph has
// no negative cycle). Bellman-Ford: rounds over the constraints until
// nothing changes, at most len(row0) of them.
func clockRanges(s []byte, w uint8, row0, col0 []dbm.Bound) {
	step := 2 + int(w)
	for i := range row0 {
		row0[i], col0[i] = dbm.LEZero, dbm.LTInf
	}
	col0[0] = dbm.LEZero
	for range row0 {
		changed := false
		for k := 0; k+step <= len(s); k += step {
			r := s[k : k+step]
			y, x := int(r[0]), int(r[1])
			b := minimalBound(r, w)
			if c := row0[y].Add(b); c < row0[x] {
				row0[x], changed = c, true
			}
			if c := b.Add(col0[x]); c < col0[y] {
				col0[y], changed = c, true
			}
		}
		if !changed {
			return
		}
	}
}

// rangesNotEvicted reports whether a witness pair (y, x) of
// Z' ⊄ aLU(z) (aluSubsetEq, with Z' the stored zone) has its entry
// Z'[y][x] known: y = 0 (row0), x = 0 (col0), or a constraint of the
// stored minimal set s; row0 and col0 are those of Z', exactly
// (clockRanges). False says nothing: the witness may be another entry.
func rangesNotEvicted(s []byte, w uint8, z []dbm.Bound, n int, l, u []int32, row0, col0 []dbm.Bound) bool {
	witness := func(y, x int, syx dbm.Bound) bool {
		p0x := row0[x]
		if u[x] < 0 || l[y] < 0 || p0x < dbm.LE(-u[x]) {
			return false
		}
		zyx := z[y*n+x]
		return zyx < syx && zyx.Add(dbm.LT(-l[y])) < p0x
	}
	for x := 1; x < n; x++ {
		if witness(0, x, row0[x]) || witness(x, 0, col0[x]) {
			return true
		}
	}
	step := 2 + int(w)
	for k := 0; k+step <= len(s); k += step {
		r := s[k : k+step]
		if witness(int(r[0]), int(r[1]), minimalBound(r, w)) {
			return true
		}
	}
	return false
}

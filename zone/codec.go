package zone

import (
	"math"

	"github.com/tcheck/tcheck/dbm"
)

// Stored zones use the narrowest of 8, 16 or 32 bits per bound that holds
// all of them: after extrapolation every finite bound is at most the
// largest clock constant in absolute value, so for most models a stored
// zone takes a quarter or half of the memory of the DBM. The largest value
// of each width stands for < ∞; it is larger than every narrow bound, so
// inclusion compares the stored bounds directly.
const (
	inf8  = math.MaxInt8
	inf16 = math.MaxInt16
)

// zoneWidth returns the bytes per bound needed to store m.
func zoneWidth(m []dbm.Bound) uint8 {
	w := uint8(1)
	for _, b := range m {
		if b == dbm.LTInf {
			continue
		}
		if b >= inf16 || b <= -inf16 {
			return 4
		}
		if b >= inf8 || b <= -inf8 {
			w = 2
		}
	}
	return w
}

func widen8(b byte) dbm.Bound {
	if int8(b) == inf8 {
		return dbm.LTInf
	}
	return dbm.Bound(int8(b))
}

func bound16(z []byte, i int) dbm.Bound {
	v := int16(uint16(z[2*i]) | uint16(z[2*i+1])<<8)
	if v == inf16 {
		return dbm.LTInf
	}
	return dbm.Bound(v)
}

func bound32(z []byte, i int) dbm.Bound {
	return dbm.Bound(uint32(z[4*i]) | uint32(z[4*i+1])<<8 | uint32(z[4*i+2])<<16 | uint32(z[4*i+3])<<24)
}

// storeZone encodes m into z (of len(m) * w bytes).
func storeZone(z []byte, m []dbm.Bound, w uint8) {
	for i, b := range m {
		switch w {
		case 1:
			if b == dbm.LTInf {
				z[i] = byte(int8(inf8))
			} else {
				z[i] = byte(int8(b))
			}
		case 2:
			v := uint16(inf16)
			if b != dbm.LTInf {
				v = uint16(int16(b))
			}
			z[2*i], z[2*i+1] = byte(v), byte(v>>8)
		default:
			v := uint32(b)
			z[4*i], z[4*i+1], z[4*i+2], z[4*i+3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
		}
	}
}

// storedZone is a zone as stored: bounds of width bytes each, little
// endian, either the whole matrix (see zoneWidth) or, with minimal set, the
// minimal constraint set (see zoneCodec).
type storedZone struct {
	b       []byte
	width   uint8
	minimal bool
}

// load copies the zone into dst.
func (s storedZone) load(dst dbm.DBM) {
	if s.minimal {
		decodeMinimal(s.b, s.width, dst)
		return
	}
	m := dst.M
	z := s.b
	switch s.width {
	case 1:
		z = z[:len(m)]
		for i, b := range z {
			m[i] = widen8(b)
		}
	case 2:
		for i := range m {
			m[i] = bound16(z, i)
		}
	default:
		for i := range m {
			m[i] = bound32(z, i)
		}
	}
}

// includes reports whether zd ⊆ the stored zone (both closed).
func (s storedZone) includes(zd dbm.DBM) bool {
	z := zd.M
	if s.minimal {
		return subsetEqMinimal(z, zd.Dim, s.b, s.width)
	}
	b := s.b
	switch s.width {
	case 1:
		b = b[:len(z)]
		for i, x := range z {
			if x > widen8(b[i]) {
				return false
			}
		}
	case 2:
		for i, x := range z {
			if x > bound16(b, i) {
				return false
			}
		}
	default:
		for i, x := range z {
			if x > bound32(b, i) {
				return false
			}
		}
	}
	return true
}

// maybeWithin reports whether the stored zone may be included in z (of
// dimension dim, closed): for a matrix, whether it is; for a minimal set,
// whether every stored constraint is at least as tight as z's entry. The
// stored constraints are entries of the stored closed zone, so one weaker
// than z's rules inclusion out without the O(k·Dim²) decoding: the common
// case when a new zone is compared with the zones stored under its key. A
// minimal zone that passes is decided on its constraints
// (minimalSatisfies).
func (s storedZone) maybeWithin(z []dbm.Bound, dim int) bool {
	if s.minimal {
		return minimalWithin(s.b, s.width, z, dim)
	}
	b := s.b
	switch s.width {
	case 1:
		b = b[:len(z)]
		for i, x := range z {
			if widen8(b[i]) > x {
				return false
			}
		}
	case 2:
		for i, x := range z {
			if bound16(b, i) > x {
				return false
			}
		}
	default:
		for i, x := range z {
			if bound32(b, i) > x {
				return false
			}
		}
	}
	return true
}

// boundsWithin reports whether every bound of a is at most b's.
func boundsWithin(a, b []dbm.Bound) bool {
	for i, x := range a {
		if x > b[i] {
			return false
		}
	}
	return true
}

// zoneCodec encodes zones for storage. By default a stored zone is its
// minimal constraint set (dbm.MinConstraints; Larsen, Larsson, Pettersson,
// Yi, "Efficient verification of real-time systems: compact data structure
// and state-space reduction", RTSS 1997, UPPAAL's default): a few
// constraints where the matrix has Dim² entries. Each constraint takes
// 2 + width bytes (i, j, the bound in the narrowest width that holds all
// of them). Inclusion of a closed zone in a stored one only reads the
// stored constraints; expanding a stored zone closes it again (O(Dim³)).
// With full set, or when Dim > 256, zones are stored as matrices.
type zoneCodec struct {
	full    bool
	buf     []byte
	cons    []dbm.Constraint
	scratch dbm.DBM
}

func newZoneCodec(dim int, full bool) zoneCodec {
	return zoneCodec{full: storesFull(dim, full), scratch: dbm.New(dim)}
}

// storesFull reports whether zones of dimension dim are stored as full
// matrices (full asked, or too many clocks for byte-sized indices).
func storesFull(dim int, full bool) bool { return full || dim > 256 }

// encode encodes z (closed, non-empty) and returns the bytes (the
// codec's, valid until the next encode), their width and whether they are
// the minimal form.
func (c *zoneCodec) encode(z dbm.DBM) ([]byte, uint8, bool) {
	if c.full {
		w := zoneWidth(z.M)
		b := c.grow(int(w) * len(z.M))
		storeZone(b, z.M, w)
		return b, w, false
	}
	c.cons = z.MinConstraints(c.cons[:0])
	return c.encodeCons()
}

// encodeCons encodes the minimal constraints in c.cons, as encode.
func (c *zoneCodec) encodeCons() ([]byte, uint8, bool) {
	w := uint8(1)
	for _, k := range c.cons {
		b := k.B
		if b >= inf16 || b <= -inf16 {
			w = 4
			break
		}
		if b >= inf8 || b <= -inf8 {
			w = 2
		}
	}
	out := c.grow(len(c.cons) * (2 + int(w)))
	for k, con := range c.cons {
		r := out[k*(2+int(w)):]
		r[0], r[1] = byte(con.I), byte(con.J)
		v := uint32(con.B)
		switch w {
		case 1:
			r[2] = byte(int8(con.B))
		case 2:
			r[2], r[3] = byte(v), byte(v>>8)
		default:
			r[2], r[3], r[4], r[5] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
		}
	}
	return out, w, true
}

func (c *zoneCodec) grow(n int) []byte {
	if cap(c.buf) < n {
		c.buf = make([]byte, n)
	}
	return c.buf[:n]
}

// minimalBound returns the bound of the constraint record at r.
func minimalBound(r []byte, w uint8) dbm.Bound {
	switch w {
	case 1:
		return dbm.Bound(int8(r[2]))
	case 2:
		return dbm.Bound(int16(uint16(r[2]) | uint16(r[3])<<8))
	default:
		return dbm.Bound(uint32(r[2]) | uint32(r[3])<<8 | uint32(r[4])<<16 | uint32(r[5])<<24)
	}
}

// decodeMinimal rebuilds the closed zone of a minimal constraint set: all
// clocks non-negative, then each constraint with incremental closure
// (O(Dim²) each; a minimal set has a few constraints, so this beats one
// full O(Dim³) closure).
func decodeMinimal(z []byte, w uint8, dst dbm.DBM) {
	dst.Init()
	step := 2 + int(w)
	for k := 0; k+step <= len(z); k += step {
		r := z[k : k+step]
		if !dst.Constrain(int(r[0]), int(r[1]), minimalBound(r, w)) {
			panic("zone: a stored zone decodes to the empty zone")
		}
	}
}

// subsetEqMinimal reports whether the closed zone m is included in the zone
// of the minimal constraint set z: whether m satisfies every constraint
// (m already satisfies the implicit x ≥ 0).
func subsetEqMinimal(m []dbm.Bound, n int, z []byte, w uint8) bool {
	step := 2 + int(w)
	for k := 0; k+step <= len(z); k += step {
		r := z[k : k+step]
		if m[int(r[0])*n+int(r[1])] > minimalBound(r, w) {
			return false
		}
	}
	return true
}

// minimalWithin reports whether every constraint of the minimal set z is
// at least as tight as the matching entry of the closed matrix m (of
// dimension n): necessary for the zone of z to be included in m's.
func minimalWithin(z []byte, w uint8, m []dbm.Bound, n int) bool {
	step := 2 + int(w)
	for k := 0; k+step <= len(z); k += step {
		r := z[k : k+step]
		if minimalBound(r, w) > m[int(r[0])*n+int(r[1])] {
			return false
		}
	}
	return true
}

// matrixSatisfies reports whether the closed zone m satisfies every
// constraint of cs: with cs the minimal constraints of a closed zone Z,
// whether m ⊆ Z (Z is the closure of cs and the clocks' x ≥ 0, which m
// satisfies). It reads len(cs) entries of m where comparing the matrices
// reads Dim².
func matrixSatisfies(m dbm.DBM, cs []dbm.Constraint) bool {
	n := m.Dim
	for _, c := range cs {
		if m.M[c.I*n+c.J] > c.B {
			return false
		}
	}
	return true
}

// minimalSatisfies reports whether the zone of the minimal constraint set
// z (width w, dimension len(dist)) satisfies every constraint of cs: with
// cs the minimal constraints of a closed zone Z, whether z's zone ⊆ Z
// (the clocks of both are ≥ 0). It decides this without decoding z: the
// closed form of z is the shortest paths in its constraint graph (an edge
// i → j of weight b for each constraint x_i − x_j ≺ b, and 0 → x of ≤0
// for each implicit x ≥ 0), and z's zone satisfies x_i − x_j ≺ b iff the
// shortest path from i to j is at most b. A constraint is first looked up
// as an edge of z; the others are decided by Bellman–Ford from their I
// (the paths in a minimal graph are short, so a few rounds over its
// edges settle them). O(len(cs) · len(z)) for the common case where every
// constraint is an edge; O(Dim · len(z)) per other source at worst,
// against O(len(z) · Dim²) for decoding z (Bengtsson & Yi 2004: the
// closure of a DBM is its graph's shortest paths).
//
// dist is scratch of the dimension's length. The eviction test of the
// passed list, where a new zone is compared with the zones stored for its
// discrete part, is the caller: on the agreement model's large rows it
// was a tenth of the time when it decoded.
func minimalSatisfies(z []byte, w uint8, cs []dbm.Constraint, dist []dbm.Bound) bool {
	step := 2 + int(w)
	src := -1 // the source dist holds the shortest paths from
outer:
	for _, c := range cs {
		if c.I == 0 && c.B >= dbm.LEZero {
			continue // implied by x_j ≥ 0
		}
		for k := 0; k+step <= len(z); k += step {
			r := z[k : k+step]
			if int(r[0]) == c.I && int(r[1]) == c.J {
				if minimalBound(r, w) <= c.B {
					continue outer
				}
				break
			}
		}
		if c.I != src {
			src = c.I
			shortestFrom(z, w, src, dist)
		}
		d := dist[c.J]
		if c.J != 0 && dist[0] < d {
			d = dist[0] // through 0 and the implicit 0 → x_j
		}
		if d > c.B {
			return false
		}
	}
	return true
}

// shortestFrom sets dist to the lengths of the shortest paths from src in
// the constraint graph of the minimal set z (see minimalSatisfies), except
// that a path whose last edge is an implicit 0 → x is left to the caller:
// dist[x] may exceed dist[0] for x ≥ 1. Bellman–Ford: the zone is not
// empty, so there is no negative cycle and a round that changes nothing
// ends it.
func shortestFrom(z []byte, w uint8, src int, dist []dbm.Bound) {
	for x := range dist {
		dist[x] = dbm.LTInf
	}
	dist[src] = dbm.LEZero
	step := 2 + int(w)
	for range dist {
		changed := false
		d0 := dist[0]
		for k := 0; k+step <= len(z); k += step {
			r := z[k : k+step]
			a, b := int(r[0]), int(r[1])
			da := dist[a]
			if a != 0 && d0 < da {
				da = d0 // 0 → x_a is an implicit edge of weight ≤0
			}
			if da == dbm.LTInf {
				continue
			}
			if v := da.Add(minimalBound(r, w)); v < dist[b] {
				dist[b] = v
				changed = true
				if b == 0 {
					d0 = v
				}
			}
		}
		if !changed {
			return
		}
	}
}

// arena hands out slices from large chunks, so that stored zones and moves
// cost no per-node allocation header and stay close in memory.
// Chunks start small and double up to arenaChunk elements, so that the
// many tiny searches of a test suite or a sweep of small points do not
// each clear megabytes.
type arena[T any] struct {
	chunk []T
	next  int // the size of the next chunk
}

const (
	arenaFirstChunk = 1 << 8
	arenaChunk      = 1 << 16
)

func (a *arena[T]) alloc(n int) []T {
	if n > len(a.chunk) {
		size := max(a.next, arenaFirstChunk)
		a.next = min(2*size, arenaChunk)
		if n > size {
			size = n
		}
		a.chunk = make([]T, size)
	}
	s := a.chunk[:n:n]
	a.chunk = a.chunk[n:]
	return s
}

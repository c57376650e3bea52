package zone

import (
	"fmt"
	"math"

	"github.com/tcheck/tcheck/dbm"
)

// Node is a stored symbolic state: its packed discrete part, its
// (extrapolated) zone, and how it was reached.
type Node struct {
	key string
	// zone holds the bounds, width bytes each, little endian (see
	// zoneWidth).
	zone   []byte
	Parent *Node
	next   *Node // next node with the same key in the passed list
	// moveIdx is the index of the transition from Parent in the order
	// Stepper.Moves enumerates Parent's moves (-1 for the initial state):
	// four bytes instead of the move itself; System.PathMoves recovers it.
	moveIdx int32
	Depth   int32
	width   uint8
	// minimal: zone holds the minimal constraint set (see zoneCodec), not
	// the matrix.
	minimal bool
	covered bool
}

// Covered reports whether a larger zone stored later evicted this node.
func (n *Node) Covered() bool { return n.covered }

// Path returns the nodes from the root to n.
func (n *Node) Path() []*Node {
	var path []*Node
	for x := n; x != nil; x = x.Parent {
		path = append(path, x)
	}
	for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
		path[i], path[j] = path[j], path[i]
	}
	return path
}

// LoadZone copies the node's zone into dst.
func (n *Node) LoadZone(dst dbm.DBM) {
	if n.minimal {
		decodeMinimal(n.zone, n.width, dst)
		return
	}
	m := dst.M
	z := n.zone
	switch n.width {
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

// Decode unpacks the node's discrete part into locs and vars.
func (s *System) Decode(n *Node, locs, vars []int32) { s.decodeKey(n.key, locs, vars) }

// PathMoves returns the transitions from the initial state to n, recovered
// by enumerating each parent's moves in the deterministic order of
// Stepper.Moves.
func (s *System) PathMoves(n *Node) ([]Move, error) {
	path := n.Path()
	st := NewStepper(s)
	locs := make([]int32, s.NProcs)
	vars := make([]int32, s.NVars)
	var moves []Move
	for _, x := range path[1:] {
		s.Decode(x.Parent, locs, vars)
		var found Move
		k := int32(0)
		err := st.Moves(locs, vars, func(m Move) bool {
			if k == x.moveIdx {
				found = append(Move(nil), m...)
				return false
			}
			k++
			return true
		})
		if err != nil {
			return nil, err
		}
		if found == nil {
			return nil, fmt.Errorf("internal error: move %d of a stored state not found", x.moveIdx)
		}
		moves = append(moves, found)
	}
	return moves, nil
}

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

// subsetEqNode reports whether z ⊆ the node's zone (both closed).
func subsetEqNode(zd dbm.DBM, n *Node) bool {
	z := zd.M
	s := n.zone
	if n.minimal {
		return subsetEqMinimal(z, zd.Dim, s, n.width)
	}
	switch n.width {
	case 1:
		s = s[:len(z)]
		for i, b := range z {
			if b > widen8(s[i]) {
				return false
			}
		}
	case 2:
		for i, b := range z {
			if b > bound16(s, i) {
				return false
			}
		}
	default:
		for i, b := range z {
			if b > bound32(s, i) {
				return false
			}
		}
	}
	return true
}

// nodeSubsetEq reports whether the node's zone ⊆ z (both closed). A zone
// stored in minimal form is decoded into scratch first.
func nodeSubsetEq(n *Node, z []dbm.Bound, scratch dbm.DBM) bool {
	if n.minimal {
		// The stored constraints are entries of the node's closed zone:
		// one weaker than z's entry rules inclusion out without the
		// O(k·Dim²) decoding, which is the common case when a new zone
		// is compared with the zones stored under its key.
		if !minimalWithin(n.zone, n.width, z, scratch.Dim) {
			return false
		}
		n.LoadZone(scratch)
		for i, b := range scratch.M {
			if b > z[i] {
				return false
			}
		}
		return true
	}
	s := n.zone
	switch n.width {
	case 1:
		s = s[:len(z)]
		for i, b := range z {
			if widen8(s[i]) > b {
				return false
			}
		}
	case 2:
		for i, b := range z {
			if bound16(s, i) > b {
				return false
			}
		}
	default:
		for i, b := range z {
			if bound32(s, i) > b {
				return false
			}
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
	arena   arena[byte]
	cons    []dbm.Constraint
	scratch dbm.DBM
}

func newZoneCodec(dim int, full bool) zoneCodec {
	return zoneCodec{full: full || dim > 256, scratch: dbm.New(dim)}
}

// encode stores z (closed, non-empty) and returns the bytes, their width
// and whether they are the minimal form.
func (c *zoneCodec) encode(z dbm.DBM) ([]byte, uint8, bool) {
	if c.full {
		w := zoneWidth(z.M)
		b := c.arena.alloc(int(w) * len(z.M))
		storeZone(b, z.M, w)
		return b, w, false
	}
	c.cons = z.MinConstraints(c.cons[:0])
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
	out := c.arena.alloc(len(c.cons) * (2 + int(w)))
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

// passedList maps each discrete part to the zones stored for it, chained
// through Node.next.
type passedList struct {
	dim int
	// hull keeps one zone per discrete part, the convex hull of all zones
	// reached with it (see insertHull).
	hull   bool
	m      map[string]*Node
	stored int64
	cover  int64 // successors dropped as included plus stored nodes evicted
	codec  zoneCodec
	nodes  arena[Node]
	// alu: subsumption by aLU (see Subsumption) with the bounds l, u of
	// the location vector of the zone being inserted (the extrapolator's
	// arrays, updated in place before each insert); row0 is scratch.
	alu  bool
	l, u []int32
	row0 []dbm.Bound
}

func newPassedList(dim int, full, hull bool) *passedList {
	return &passedList{dim: dim, hull: hull, m: make(map[string]*Node), codec: newZoneCodec(dim, full)}
}

// useALU switches the list to aLU subsumption with the bounds l, u (read
// at each insert; the caller updates them in place for the location
// vector of the zone inserted).
func (p *passedList) useALU(l, u []int32) {
	p.alu, p.l, p.u = true, l, u
	p.row0 = make([]dbm.Bound, p.dim)
}

// insert adds (key, z) unless a stored zone for key includes z. Stored zones
// included in z are evicted and marked covered (TChecker's covreach with
// full covering). With alu, "includes" is "whose aLU abstraction
// includes", both ways. It returns the new node or nil if z was covered.
func (p *passedList) insert(key []byte, z dbm.DBM, parent *Node, moveIdx int32) *Node {
	head := p.m[string(key)]
	if p.hull && head != nil {
		return p.insertHull(head, z, parent, moveIdx)
	}
	for n := head; n != nil; n = n.next {
		if p.alu && p.aluCovers(z, n) || !p.alu && subsetEqNode(z, n) {
			p.cover++
			return nil
		}
	}
	var skey string
	if head != nil {
		skey = head.key // share the string the map holds
		// evict the stored zones included in z
		var prev *Node
		for n := head; n != nil; n = n.next {
			if p.alu && p.aluEvicts(n, z) || !p.alu && nodeSubsetEq(n, z.M, p.codec.scratch) {
				n.covered = true
				p.cover++
				p.stored--
				if prev == nil {
					head = n.next
				} else {
					prev.next = n.next
				}
				continue
			}
			prev = n
		}
	} else {
		skey = string(key)
	}
	return p.add(skey, head, z, parent, moveIdx)
}

// add stores z as a new node chained before head.
func (p *passedList) add(skey string, head *Node, z dbm.DBM, parent *Node, moveIdx int32) *Node {
	n := &p.nodes.alloc(1)[0]
	n.key = skey
	n.zone, n.width, n.minimal = p.codec.encode(z)
	n.Parent = parent
	n.moveIdx = moveIdx
	if parent != nil {
		n.Depth = parent.Depth + 1
	}
	n.next = head
	p.m[skey] = n
	p.stored++
	return n
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
func (p *passedList) insertHull(head *Node, z dbm.DBM, parent *Node, moveIdx int32) *Node {
	if subsetEqNode(z, head) {
		p.cover++
		return nil
	}
	h := p.codec.scratch
	head.LoadZone(h)
	h.ConvexHull(z)
	head.covered = true
	p.cover++
	p.stored--
	return p.add(head.key, nil, h, parent, moveIdx)
}

// Order is the exploration order of the waiting list.
type Order int

const (
	BFS Order = iota // breadth first: shortest traces
	DFS              // depth first
)

func (o Order) String() string {
	if o == DFS {
		return "dfs"
	}
	return "bfs"
}

// waitingList holds nodes to explore; pop skips covered nodes (TChecker's
// fast removal from the waiting list).
type waitingList struct {
	order Order
	items []*Node
	head  int
}

func (w *waitingList) push(n *Node) { w.items = append(w.items, n) }

func (w *waitingList) pop() *Node {
	for {
		if w.head >= len(w.items) {
			return nil
		}
		var n *Node
		if w.order == DFS {
			n = w.items[len(w.items)-1]
			w.items[len(w.items)-1] = nil
			w.items = w.items[:len(w.items)-1]
		} else {
			n = w.items[w.head]
			w.items[w.head] = nil
			w.head++
			if w.head > 1024 && w.head*2 > len(w.items) {
				k := copy(w.items, w.items[w.head:])
				clear(w.items[k:])
				w.items = w.items[:k]
				w.head = 0
			}
		}
		if !n.covered {
			return n
		}
	}
}

func (w *waitingList) len() int { return len(w.items) - w.head }

var errMoveNotFound = fmt.Errorf("internal error: a move of a stored state was not found")

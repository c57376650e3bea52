package zone

import (
	"fmt"
	"math"
	"math/bits"
	"sync/atomic"
	"unsafe"

	"github.com/tcheck/tcheck/dbm"
)

// The stored states of a search hold no Go pointer: a node is a 32-byte
// record in large pointer-free segments, its zone and its discrete part
// are bytes in a slab of large segments, and nodes name each other
// (parent, next in a key's chain) by index. The garbage collector then
// never scans the passed list, and a stored state costs its record, its
// encoded zone (a few bytes per constraint, see zoneCodec) and a share of
// its discrete part, which all the zones of a key share.
//
// The segments of a store never move once allocated, so that the workers
// of a parallel search can read nodes that another worker is appending
// to: a segment directory is replaced (atomically) when it grows, and a
// node's fields are written before the node is published through a
// waiting list (a lock), except its flags' covered bit, which is atomic,
// and next, which only the owning passed list's lock guards.

// nodeID names a stored node: the index of the node in its store, shifted
// left by the graph's shard bits, or'ed with the store's number.
type nodeID uint64

// noNode is the parent of an initial state.
const noNode = ^nodeID(0)

// nodeRec is a stored node: 24 bytes, 4-aligned.
type nodeRec struct {
	// parent is the parent's nodeID, which newRec keeps below
	// maxNodeIDs (noParent for an initial state): 4 bytes, not 8, in
	// every stored node.
	parent32 uint32
	// zone is the offset of the encoded zone in the slab, in 4-byte words
	// (its length is in flags).
	zone uint32
	// key is the offset of the discrete part in the slab, in 4-byte words
	// (the packed key, of the store's keyLen bytes; see nodeStore.addKey).
	key uint32
	// next is 1 + the index of the next node with the same key in the
	// passed list (0: none); only the passed list's lock guards it.
	next uint32
	// moveIdx is the index of the transition from parent in the order
	// Stepper.Moves enumerates the parent's moves (-1 for an initial
	// state): four bytes instead of the move; System.PathMoves recovers it.
	moveIdx int32
	// flags: the zone's width in bytes per bound, minimalFlag, coveredFlag,
	// expandedFlag, and the zone's length in bytes above zoneLenShift;
	// read and written atomically (coveredFlag is set by evictions and
	// expandedFlag by the expanding worker while other workers read
	// the record).
	flags uint32
}

const (
	widthMask   = 7
	minimalFlag = 1 << 3
	coveredFlag = 1 << 4
	// expandedFlag is set when the node is taken from the waiting list
	// and expanded (the Ranked order counts an eviction of such a node
	// as a mistake).
	expandedFlag = 1 << 5
	zoneLenShift = 6
	// maxZoneLen is the longest encoded zone a record can describe: a
	// zone matrix of dimension 2,048 in 4 bytes per bound.
	maxZoneLen = 1<<(32-zoneLenShift) - 1
)

// noParent is noNode in nodeRec.parent32.
const noParent = ^uint32(0)

// maxNodeIDs bounds the nodeIDs of a search (all stores together): every
// id is below it, so that a parent fits in 32 bits. A store's records are
// 32-bit indices already (next, keyRec.head); with shards an id has the
// shard in its low bits. The bound is some 4.3 billion states, hundreds
// of GiB of passed list.
const maxNodeIDs = uint64(noParent)

func (r *nodeRec) parent() nodeID {
	if r.parent32 == noParent {
		return noNode
	}
	return nodeID(r.parent32)
}

func (r *nodeRec) setParent(id nodeID) {
	if id == noNode {
		r.parent32 = noParent
		return
	}
	r.parent32 = uint32(id)
}

// segLayout maps positions to segments whose sizes double from 2^first to
// 2^last and then stay 2^last: a small search allocates little, a large
// one allocates in large pieces.
type segLayout struct{ first, last uint }

// locate returns the segment of position i and the offset in it.
func (l segLayout) locate(i uint64) (int, uint64) {
	if i < 1<<l.last {
		if i < 1<<l.first {
			return 0, i
		}
		k := uint(bits.Len64(i >> l.first))
		return int(k), i - 1<<(l.first+k-1)
	}
	return int(l.last-l.first) + int(i>>l.last), i & (1<<l.last - 1)
}

// start returns the first position of segment k.
func (l segLayout) start(k int) uint64 {
	switch {
	case k == 0:
		return 0
	case uint(k) <= l.last-l.first:
		return 1 << (l.first + uint(k) - 1)
	default:
		return uint64(k-int(l.last-l.first)) << l.last
	}
}

// size returns the length of segment k.
func (l segLayout) size(k int) uint64 {
	switch {
	case k == 0:
		return 1 << l.first
	case uint(k) <= l.last-l.first:
		return 1 << (l.first + uint(k) - 1)
	default:
		return 1 << l.last
	}
}

// segArray is an array of T in segments that never move. One goroutine
// (the owner, under its lock) grows it; any goroutine may read positions
// published to it.
type segArray[T any] struct {
	layout segLayout
	dir    atomic.Pointer[[][]T]
}

// at returns the element at position i (allocated by ensure).
func (a *segArray[T]) at(i uint64) *T {
	k, off := a.layout.locate(i)
	return &(*a.dir.Load())[k][off]
}

// segment returns segment k (allocated by ensure).
func (a *segArray[T]) segment(k int) []T { return (*a.dir.Load())[k] }

// ensure allocates the segments up to and including segment k.
func (a *segArray[T]) ensure(k int) {
	var dir [][]T
	if d := a.dir.Load(); d != nil {
		dir = *d
	}
	if k < len(dir) {
		return
	}
	grown := make([][]T, len(dir), k+1)
	copy(grown, dir)
	for len(grown) <= k {
		grown = append(grown, make([]T, a.layout.size(len(grown))))
	}
	a.dir.Store(&grown)
}

// bytes returns the bytes the array holds (for statistics).
func (a *segArray[T]) segments() int {
	if d := a.dir.Load(); d != nil {
		return len(*d)
	}
	return 0
}

// nodeStore holds the nodes of one passed list (one shard of a parallel
// search's): their records and a slab with their zones and keys.
//
// Its fields that every lookup reads (the segments' directories) come
// first and those that every new node writes (the counts, the free
// lists) on the last cache line, and the store is 192 bytes, a size
// class of Go's allocator whose objects start on line boundaries
// (TestNodeStoreLayout): in a parallel search, a worker storing a node
// in a shard then does not take the other worker's next lookup there a
// miss on the directories' line.
type nodeStore struct {
	recs segArray[nodeRec]
	slab segArray[byte]
	// ranks holds each record's rank under the Ranked order (ranked set;
	// one byte per record, written before the node is published).
	ranks segArray[uint8]
	// shard and shardBits make the store's nodeIDs (see nodeID).
	shard     uint64
	shardBits uint
	ranked    bool
	// keyLen is the length of every discrete part stored (addKey); -1
	// before the first.
	keyLen int
	_      [24]byte

	n    uint64 // records used
	free uint64 // next free byte of the slab, a multiple of 4
	// reusable[w] holds the word offsets of released zones of w words
	// (release), which alloc hands out again before growing the slab.
	reusable [][]uint32
	reused   uint64 // bytes handed out again
	_        [16]byte
}

// maxSlab bounds a store's slab: offsets are 32-bit counts of words.
const maxSlab = 4 << 32

func newNodeStore(maxZoneBytes int, shard uint64, shardBits uint) *nodeStore {
	last := uint(20) // 1 MiB segments
	for 1<<last < maxZoneBytes+8 {
		last++
	}
	return &nodeStore{
		recs:      segArray[nodeRec]{layout: segLayout{first: 7, last: 15}},
		ranks:     segArray[uint8]{layout: segLayout{first: 7, last: 15}},
		slab:      segArray[byte]{layout: segLayout{first: 12, last: last}},
		shard:     shard,
		shardBits: shardBits,
		keyLen:    -1,
	}
}

// id returns the nodeID of the store's record at index i.
func (s *nodeStore) id(i uint64) nodeID { return nodeID(i<<s.shardBits | s.shard) }

// newRec appends a record and returns its index and the record.
func (s *nodeStore) newRec() (uint64, *nodeRec) {
	i := s.n
	if uint64(s.id(i)) >= maxNodeIDs {
		panic(fmt.Sprintf("zone: a search stores more than %d states", maxNodeIDs))
	}
	k, _ := s.recs.layout.locate(i)
	s.recs.ensure(k)
	if s.ranked {
		s.ranks.ensure(k)
	}
	s.n++
	return i, s.recs.at(i)
}

// rankAbove returns the rank just above record i's (saturating at
// maxRank).
func (s *nodeStore) rankAbove(i uint64) int { return min(int(s.rank(i))+1, maxRank) }

// rank returns the rank of record i (0 when the store keeps none).
func (s *nodeStore) rank(i uint64) uint8 {
	if !s.ranked {
		return 0
	}
	return *s.ranks.at(i)
}

// alloc returns n bytes of the slab, 4-aligned, within one segment, and
// their offset in words.
func (s *nodeStore) alloc(n int) (uint32, []byte) {
	size := uint64(n+3) &^ 3
	if words := size >> 2; words < uint64(len(s.reusable)) {
		if free := s.reusable[words]; len(free) > 0 {
			w := free[len(free)-1]
			s.reusable[words] = free[:len(free)-1]
			s.reused += size
			return w, s.bytes(w, n)
		}
	}
	if size > 1<<s.slab.layout.last {
		// no segment would ever be long enough (fitSegments, newNodeStore)
		panic(fmt.Sprintf("zone: an entry of %d bytes is longer than the slab's segments", n))
	}
	k, off := s.slab.layout.locate(s.free)
	for off+size > s.slab.layout.size(k) {
		// the rest of this segment is too short: start the next one,
		// or the first one long enough (the first segments are 4 KiB,
		// shorter than a full matrix from dimension 33 on: FDDI N = 30
		// under --full-zones panicked here); the segments skipped are
		// allocated but not used, less than the zone's own length
		k++
		off = 0
		s.free = s.slab.layout.start(k)
	}
	if s.free+size > maxSlab {
		panic(fmt.Sprintf("zone: one passed list holds more than %d GiB of zones", maxSlab>>30))
	}
	s.slab.ensure(k)
	w := uint32(s.free >> 2)
	s.free += size
	return w, s.slab.segment(k)[off : off+uint64(n) : off+uint64(n)]
}

// release gives back the zone of r, which nothing reads again (see
// passedList.reclaim): alloc hands its words to a zone of the same length.
func (s *nodeStore) release(r *nodeRec) {
	n := uint64(atomic.LoadUint32(&r.flags) >> zoneLenShift)
	words := (n + 3) >> 2
	if words == 0 {
		return
	}
	for uint64(len(s.reusable)) <= words {
		s.reusable = append(s.reusable, nil)
	}
	s.reusable[words] = append(s.reusable[words], r.zone)
}

// bytes returns the n bytes at word offset w.
func (s *nodeStore) bytes(w uint32, n int) []byte {
	k, off := s.slab.layout.locate(uint64(w) << 2)
	return s.slab.segment(k)[off : off+uint64(n) : off+uint64(n)]
}

// addKey stores a discrete part and returns the word offset of its bytes
// (nodeRec.key, keyRef.k). Every discrete part of a store has the
// same length (System.appendKey packs one layout per system), set by the
// first: it is kept once, not with each of them (4 bytes for each of the
// 51 million discrete parts of agreement-scalar at n = 4, f = 1, d = 1).
func (s *nodeStore) addKey(key []byte) uint32 {
	if s.keyLen < 0 {
		if len(key) > math.MaxInt32 {
			panic("zone: discrete part too long")
		}
		s.keyLen = len(key)
		s.fitSegments(len(key))
	} else if len(key) != s.keyLen {
		panic(fmt.Sprintf("zone: a discrete part of %d bytes in a store of %d-byte ones", len(key), s.keyLen))
	}
	// the word before the key is the head of its chain of nodes in the
	// passed list (keyHead): a lookup that finds the key reads the head
	// on the key's own cache line, not on a record apart
	w, b := s.alloc(4 + len(key))
	clear(b[:4]) // bytes reused from an evicted zone hold its constraints
	copy(b[4:], key)
	return w + 1
}

// keyHead returns the head word of the discrete part stored at word
// offset w by addKey: 1 + the index of the first node of its chain in the
// passed list (0: none), read and written atomically where workers read
// the chains without the shard's lock.
func (s *nodeStore) keyHead(w uint32) *uint32 {
	return (*uint32)(unsafe.Pointer(&s.bytes(w-1, 4)[0]))
}

// fitSegments lengthens the slab's segments, before anything is allocated
// in it, so that one holds an entry of n bytes: newNodeStore sizes them
// for the zones, and a discrete part can be longer than a full matrix (an
// array of a million integers packs into 2 MB, past the 1 MiB segments,
// and alloc went on looking for a segment long enough forever).
func (s *nodeStore) fitSegments(n int) {
	for uint64(n)+8 > 1<<s.slab.layout.last {
		if s.free != 0 {
			panic(fmt.Sprintf("zone: an entry of %d bytes after the slab's first allocation", n))
		}
		s.slab.layout.last++
	}
}

// key returns the discrete part stored at word offset w.
func (s *nodeStore) key(w uint32) []byte { return s.bytes(w, s.keyLen) }

// zoneOf returns the stored zone of r.
func (s *nodeStore) zoneOf(r *nodeRec) storedZone {
	f := atomic.LoadUint32(&r.flags)
	return storedZone{b: s.bytes(r.zone, int(f>>zoneLenShift)), width: uint8(f & widthMask), minimal: f&minimalFlag != 0}
}

// bytesUsed returns the bytes of the records and the slab in use.
func (s *nodeStore) bytesUsed() uint64 {
	return s.n*uint64(unsafe.Sizeof(nodeRec{})) + s.free
}

// memory returns the bytes the store has allocated.
func (s *nodeStore) memory() uint64 {
	var m uint64
	for k := range s.recs.segments() {
		m += s.recs.layout.size(k) * uint64(unsafe.Sizeof(nodeRec{}))
	}
	for k := range s.slab.segments() {
		m += s.slab.layout.size(k)
	}
	for k := range s.ranks.segments() {
		m += s.ranks.layout.size(k)
	}
	return m
}

// nodeGraph is the nodes of a search: one store, or one per shard of a
// parallel search's passed list.
type nodeGraph struct {
	stores []*nodeStore
	bits   uint
	mask   nodeID
	// sym is set when the nodes are symmetry representatives.
	sym *symTrace
	// unpruned: moves are enumerated against the zone of all valuations,
	// not their own (expander.movesZone), because a node's zone may grow
	// after its expansion (the convex hull), and a path's move indices
	// must be found again from the zone the node ends with. Under
	// priorities that still leaves out the pieces whose constraints
	// contradict each other: with none left out (a zero DBM), a move
	// below 11 higher moves of 2 to 6 constraints each came in 32.4 M
	// pieces, nearly all empty, and a two-state search took 6 s
	// (testdata/difftest/hull-priority-pieces.yaml).
	unpruned bool
	// reclaimed: the bytes of an evicted node's zone may have been handed
	// to another zone (passedList.reclaim); its key and record remain.
	reclaimed bool
}

func (g *nodeGraph) store(id nodeID) *nodeStore { return g.stores[id&g.mask] }

func (g *nodeGraph) rec(id nodeID) *nodeRec {
	return g.store(id).recs.at(uint64(id >> g.bits))
}

// rank returns the node's rank under the Ranked order (0 for no node and
// under the other orders).
func (g *nodeGraph) rank(id nodeID) uint8 {
	if id == noNode {
		return 0
	}
	return g.store(id).rank(uint64(id >> g.bits))
}

// covered reports whether the node was evicted by a larger zone.
func (g *nodeGraph) covered(id nodeID) bool {
	return atomic.LoadUint32(&g.rec(id).flags)&coveredFlag != 0
}

// Node is a stored symbolic state of a search: its discrete part, its
// (extrapolated) zone, and how it was reached. It is a handle: holding
// one keeps the search's stored states in memory. The zero Node is no
// state (the parent of an initial state).
type Node struct {
	g  *nodeGraph
	id nodeID
}

// IsZero reports whether n is no state.
func (n Node) IsZero() bool { return n.g == nil }

func (g *nodeGraph) node(id nodeID) Node {
	if id == noNode {
		return Node{}
	}
	return Node{g: g, id: id}
}

// Parent returns the state n was reached from (the zero Node for an
// initial state).
func (n Node) Parent() Node { return n.g.node(n.g.rec(n.id).parent()) }

// Covered reports whether a larger zone stored later evicted this node.
func (n Node) Covered() bool { return n.g.covered(n.id) }

// Path returns the nodes from an initial state to n.
func (n Node) Path() []Node {
	var path []Node
	for x := n; !x.IsZero(); x = x.Parent() {
		path = append(path, x)
	}
	for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
		path[i], path[j] = path[j], path[i]
	}
	return path
}

// LoadZone copies the node's zone into dst.
func (n Node) LoadZone(dst dbm.DBM) {
	s := n.g.store(n.id)
	s.zoneOf(n.g.rec(n.id)).load(dst)
}

// key returns the node's packed discrete part.
func (n Node) key() []byte {
	return n.g.store(n.id).key(n.g.rec(n.id).key)
}

// Decode unpacks the node's discrete part into locs and vars.
func (s *System) Decode(n Node, locs, vars []int32) { s.decodeKey(n.key(), locs, vars) }

// PathMoves returns the transitions from the initial state to n, recovered
// by enumerating each parent's moves in the deterministic order of
// Stepper.Moves. Under symmetry reduction they are moves between
// representatives: TraceMoves gives a run of the model.
func (s *System) PathMoves(n Node) ([]Move, error) {
	path := n.Path()
	st := NewStepper(s)
	locs := make([]int32, s.NProcs)
	vars := make([]int32, s.NVars)
	z := dbm.New(s.Dim)
	var universe dbm.DBM // all valuations, as an unpruned graph's expander
	var moves []Move
	for _, x := range path[1:] {
		s.Decode(x.Parent(), locs, vars)
		pz := z
		switch {
		case !s.movesReadZone:
			// Moves reads the zone only to leave out moves empty in it
			// (priorities, broadcasts); the zone of an evicted parent
			// may be gone (passedList.reclaim)
			pz = dbm.DBM{}
		case x.g.unpruned:
			if universe.M == nil {
				universe = dbm.New(s.Dim)
			}
			pz = universe
		default:
			x.Parent().LoadZone(z)
		}
		want := x.g.rec(x.id).moveIdx
		var found Move
		k := int32(0)
		err := st.Moves(locs, vars, pz, func(m Move) bool {
			if k == want {
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
			return nil, fmt.Errorf("internal error: move %d of a stored state not found", want)
		}
		moves = append(moves, found)
	}
	return moves, nil
}

var errMoveNotFound = fmt.Errorf("internal error: a move of a stored state was not found")

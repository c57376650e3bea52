package zone

import (
	"github.com/tcheck/tcheck/dbm"
)

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
	// decoded caches decoded minimal zones (nil: none).
	decoded *decodedCache
}

func newPassedList(dim int, full, hull bool) *passedList {
	return newPassedListCache(dim, full, hull, decodedCacheBytes)
}

// newPassedListCache is newPassedList with a cache of cacheBytes for
// decoded zones.
func newPassedListCache(dim int, full, hull bool, cacheBytes int) *passedList {
	p := &passedList{dim: dim, hull: hull, m: make(map[string]*Node), codec: newZoneCodec(dim, full)}
	if !p.codec.full {
		p.decoded = newDecodedCache(dim, cacheBytes)
	}
	return p
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
			if p.alu && p.aluEvicts(n, z) || !p.alu && nodeSubsetEq(n, z.M, p.dim, p.loadZone) {
				n.covered.Store(true)
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
	head.covered.Store(true)
	p.cover++
	p.stored--
	return p.add(head.key, nil, h, parent, moveIdx)
}

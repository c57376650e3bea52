package zone

import (
	"github.com/tcheck/tcheck/dbm"
)

// Node is a stored symbolic state: its packed discrete part, its
// (extrapolated) zone, and how it was reached.
type Node struct {
	key     string
	zone    []dbm.Bound
	Parent  *Node
	Move    Move // the transition from Parent (nil for the initial state)
	Depth   int32
	covered bool
}

// Zone returns the node's zone (shared; do not modify).
func (n *Node) Zone(dim int) dbm.DBM { return dbm.DBM{Dim: dim, M: n.zone} }

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

// Decode unpacks the node's discrete part into locs and vars.
func (s *System) Decode(n *Node, locs, vars []int32) { s.decodeKey(n.key, locs, vars) }

// arena hands out slices from large chunks, so that stored zones and moves
// cost no per-node allocation header and stay close in memory.
type arena[T any] struct {
	chunk []T
}

const arenaChunk = 1 << 16

func (a *arena[T]) alloc(n int) []T {
	if n > len(a.chunk) {
		size := arenaChunk
		if n > size {
			size = n
		}
		a.chunk = make([]T, size)
	}
	s := a.chunk[:n:n]
	a.chunk = a.chunk[n:]
	return s
}

// passedList maps each discrete part to the zones stored for it.
type passedList struct {
	dim    int
	m      map[string]*[]*Node
	stored int64
	cover  int64 // successors dropped as included plus stored nodes evicted
	zones  arena[dbm.Bound]
	moves  arena[EdgeRef]
	nodes  arena[Node]
}

func newPassedList(dim int) *passedList {
	return &passedList{dim: dim, m: make(map[string]*[]*Node)}
}

// insert adds (key, z) unless a stored zone for key includes z. Stored zones
// included in z are evicted and marked covered. It returns the new node or
// nil if z was covered.
func (p *passedList) insert(key []byte, z dbm.DBM, parent *Node, m Move) *Node {
	bucket := p.m[string(key)]
	var skey string
	if bucket != nil {
		nodes := *bucket
		for _, n := range nodes {
			if z.SubsetEq(n.Zone(p.dim)) {
				p.cover++
				return nil
			}
		}
		kept := nodes[:0]
		for _, n := range nodes {
			if n.Zone(p.dim).SubsetEq(z) {
				n.covered = true
				p.cover++
				p.stored--
				continue
			}
			kept = append(kept, n)
		}
		for i := len(kept); i < len(nodes); i++ {
			nodes[i] = nil
		}
		*bucket = kept
		if len(kept) > 0 {
			skey = kept[0].key // share the string already held
		} else {
			skey = string(key)
		}
	} else {
		bucket = new([]*Node)
		skey = string(key)
		p.m[skey] = bucket
	}
	n := &p.nodes.alloc(1)[0]
	n.key = skey
	n.zone = p.zones.alloc(len(z.M))
	copy(n.zone, z.M)
	n.Parent = parent
	if m != nil {
		n.Move = p.moves.alloc(len(m))
		copy(n.Move, m)
	}
	if parent != nil {
		n.Depth = parent.Depth + 1
	}
	*bucket = append(*bucket, n)
	p.stored++
	return n
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

// waitingList holds nodes to explore; Pop skips covered nodes (TChecker's
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

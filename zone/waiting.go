package zone

import (
	"fmt"
	"slices"
)

// Order is the exploration order of the waiting list.
type Order int

const (
	BFS Order = iota // breadth first: shortest traces
	DFS              // depth first
	// Ranked is breadth first among the states of equal rank, the
	// highest rank first (Herbreteau and Tran, "Improving search order
	// for reachability testing in timed automata", FORMATS 2015, Sect. 4):
	// a state whose zone evicts stored ones ranks above them and passes
	// its rank on to its successors, so that the larger zone's subtree is
	// explored before what remains of the smaller ones' and covers it,
	// instead of after it. Without evictions it is BFS; traces need not
	// be shortest.
	Ranked
	// Progress is breadth first among the states of equal progress, the
	// lowest progress first, by the model's progress measure
	// (model.Network.Progress; the sweep-line method's, Christensen,
	// Kristensen and Mailund, TACAS 2001). With a measure that no
	// transition decreases, every path to a state passes only through
	// states of lower or equal progress: where breadth first expands a
	// small zone that a longer path later replaces by a larger one, the
	// larger one often arrives first here. Traces need not be shortest.
	// Without a measure it is BFS.
	Progress
	// Topological is the Progress order by a measure computed from the
	// automata, so that it needs no declaration: the sum of the
	// processes' location numbers in a topological order of each
	// automaton (locationRanks; a waiting strategy in the sense of
	// Herbreteau and Tran, FORMATS 2015), the lowest first, breadth first
	// among equal sums. Traces need not be shortest.
	Topological
)

func (o Order) String() string {
	switch o {
	case DFS:
		return "dfs"
	case Ranked:
		return "ranked"
	case Progress:
		return "progress"
	case Topological:
		return "topological"
	}
	return "bfs"
}

// ParseOrder parses an order as printed by String.
func ParseOrder(s string) (Order, error) {
	for _, o := range []Order{BFS, DFS, Ranked, Progress, Topological} {
		if o.String() == s {
			return o, nil
		}
	}
	return 0, fmt.Errorf("unknown search order %q (want bfs, dfs, ranked, progress or topological)", s)
}

// maxRank is the highest rank: ranks saturate there (a state of that
// rank still comes before the lower ones).
const maxRank = 255

// nodeQueue is the queue of nodes both waiting lists are made of: take
// removes the next one in order (the oldest for BFS, the newest for DFS)
// and keeps the slice from growing without bound.
type nodeQueue struct {
	items []nodeID
	head  int
}

func (q *nodeQueue) len() int { return len(q.items) - q.head }

// take removes and returns the next node in order, or false when empty.
func (q *nodeQueue) take(order Order) (nodeID, bool) {
	if q.head >= len(q.items) {
		return noNode, false
	}
	var n nodeID
	if order == DFS {
		n = q.items[len(q.items)-1]
		q.items = q.items[:len(q.items)-1]
	} else {
		n = q.items[q.head]
		q.head++
	}
	q.settle()
	return n, true
}

// settle drops the taken part of q's slice: all of it once every node is
// taken, else once it is over 1024 nodes and over half the slice (the
// rest moves to the front). It returns the index the rest moved from and
// its length, from -1 when nothing moved, so that a slice kept beside the
// nodes (affinityQueue.flush) can follow.
func (q *nodeQueue) settle() (from, n int) {
	switch {
	case q.head == len(q.items):
		from = q.head
	case q.head > 1024 && q.head*2 > len(q.items):
		from, n = q.head, copy(q.items, q.items[q.head:])
	default:
		return -1, 0
	}
	q.items, q.head = q.items[:n], 0
	return from, n
}

// takeOldest moves the k oldest nodes (fewer if fewer are queued) into buf.
func (q *nodeQueue) takeOldest(buf []nodeID, k int) []nodeID {
	k = min(k, q.len())
	buf = append(buf, q.items[q.head:q.head+k]...)
	q.head += k
	q.settle()
	return buf
}

// waitingList is the sequential search's waiting list; pop skips covered
// nodes (TChecker's fast removal from the waiting list).
type waitingList struct {
	order Order
	graph *nodeGraph
	nodeQueue
	ranked   rankedQueue   // the list under Ranked
	progress progressQueue // the list under Progress
}

// push queues n; key is its progress (read under Progress only).
func (w *waitingList) push(n nodeID, key int32) {
	switch w.order {
	case Ranked:
		w.ranked.push(n, w.graph.rank(n))
	case Progress, Topological:
		w.progress.push(n, key)
	default:
		w.items = append(w.items, n)
	}
}

func (w *waitingList) pop() (nodeID, bool) {
	for {
		var n nodeID
		var ok bool
		switch w.order {
		case Ranked:
			n, ok = w.ranked.take()
		case Progress, Topological:
			n, ok = w.progress.take()
		default:
			n, ok = w.take(w.order)
		}
		if !ok || !w.graph.covered(n) {
			return n, ok
		}
	}
}

// rankedQueue is the waiting list of the Ranked order: a FIFO queue per
// rank, the highest non-empty one first.
type rankedQueue struct {
	buckets []nodeQueue // by rank
	top     int         // no bucket above it holds a node
	n       int
}

func (q *rankedQueue) len() int { return q.n }

func (q *rankedQueue) push(n nodeID, rank uint8) {
	r := int(rank)
	for len(q.buckets) <= r {
		q.buckets = append(q.buckets, nodeQueue{})
	}
	q.buckets[r].items = append(q.buckets[r].items, n)
	q.top = max(q.top, r)
	q.n++
}

// highest returns the highest non-empty bucket, or nil.
func (q *rankedQueue) highest() *nodeQueue {
	if q.n == 0 {
		return nil
	}
	for q.buckets[q.top].len() == 0 {
		q.top--
	}
	return &q.buckets[q.top]
}

// take removes the oldest node of the highest rank.
func (q *rankedQueue) take() (nodeID, bool) { return takeCounted(q.highest(), &q.n) }

// takeOldest moves up to k of the oldest nodes of the highest rank into
// buf.
func (q *rankedQueue) takeOldest(buf []nodeID, k int) []nodeID {
	return takeOldestCounted(q.highest(), &q.n, buf, k)
}

// progressQueue is the waiting list of the Progress order: a FIFO queue
// per progress value, the lowest non-empty one first. keys holds the
// values with a queue, ascending; a measure takes few distinct values at
// a time, so keeping them sorted by insertion is cheap.
type progressQueue struct {
	keys   []int32
	queues map[int32]*nodeQueue
	spare  []*nodeQueue // emptied queues, for reuse
	n      int
}

func (q *progressQueue) len() int { return q.n }

func (q *progressQueue) push(n nodeID, key int32) {
	b := q.queues[key]
	if b == nil {
		if q.queues == nil {
			q.queues = map[int32]*nodeQueue{}
		}
		if k := len(q.spare); k > 0 {
			b, q.spare = q.spare[k-1], q.spare[:k-1]
		} else {
			b = &nodeQueue{}
		}
		q.queues[key] = b
		i, _ := slices.BinarySearch(q.keys, key)
		q.keys = slices.Insert(q.keys, i, key)
	}
	b.items = append(b.items, n)
	q.n++
}

// lowest returns the queue of the lowest progress, or nil when empty;
// the queues it passes over are empty and are dropped.
func (q *progressQueue) lowest() *nodeQueue {
	if q.n == 0 {
		return nil
	}
	for {
		b := q.queues[q.keys[0]]
		if b.len() > 0 {
			return b
		}
		delete(q.queues, q.keys[0])
		q.keys = q.keys[1:]
		b.items, b.head = b.items[:0], 0
		q.spare = append(q.spare, b)
	}
}

// take removes the oldest node of the lowest progress.
func (q *progressQueue) take() (nodeID, bool) { return takeCounted(q.lowest(), &q.n) }

// takeOldest moves up to k of the oldest nodes of the lowest progress
// into buf.
func (q *progressQueue) takeOldest(buf []nodeID, k int) []nodeID {
	return takeOldestCounted(q.lowest(), &q.n, buf, k)
}

// takeCounted takes the oldest node of b (nil: none) for a queue of
// buckets that counts its nodes in n.
func takeCounted(b *nodeQueue, n *int) (nodeID, bool) {
	if b == nil {
		return noNode, false
	}
	*n--
	return b.take(BFS)
}

// takeOldestCounted moves up to k of the oldest nodes of b (nil: none)
// into buf for a queue of buckets that counts its nodes in n.
func takeOldestCounted(b *nodeQueue, n *int, buf []nodeID, k int) []nodeID {
	if b == nil {
		return buf
	}
	before := len(buf)
	buf = b.takeOldest(buf, k)
	*n -= len(buf) - before
	return buf
}

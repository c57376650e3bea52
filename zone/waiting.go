package zone

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
	if q.head == len(q.items) {
		q.items, q.head = q.items[:0], 0
	} else if q.head > 1024 && q.head*2 > len(q.items) {
		k := copy(q.items, q.items[q.head:])
		q.items, q.head = q.items[:k], 0
	}
	return n, true
}

// takeOldest moves the k oldest nodes (fewer if fewer are queued) into buf.
func (q *nodeQueue) takeOldest(buf []nodeID, k int) []nodeID {
	k = min(k, q.len())
	buf = append(buf, q.items[q.head:q.head+k]...)
	q.head += k
	if q.head == len(q.items) {
		q.items, q.head = q.items[:0], 0
	} else if q.head > 1024 && q.head*2 > len(q.items) {
		m := copy(q.items, q.items[q.head:])
		q.items, q.head = q.items[:m], 0
	}
	return buf
}

// waitingList is the sequential search's waiting list; pop skips covered
// nodes (TChecker's fast removal from the waiting list).
type waitingList struct {
	order Order
	graph *nodeGraph
	nodeQueue
}

func (w *waitingList) push(n nodeID) { w.items = append(w.items, n) }

func (w *waitingList) pop() (nodeID, bool) {
	for {
		n, ok := w.take(w.order)
		if !ok || !w.graph.covered(n) {
			return n, ok
		}
	}
}

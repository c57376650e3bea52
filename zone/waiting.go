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
		if !n.covered.Load() {
			return n
		}
	}
}

func (w *waitingList) len() int { return len(w.items) - w.head }

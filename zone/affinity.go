package zone

// sharedFIFO is the breadth-first waiting list of a parallel search
// (Order BFS): the workers' queues of the nodes each stored, under one
// lock, from which a worker takes its own oldest nodes unless another
// queue's are older by more than a few outbox flushes (affinityWindow).
// The order of expansion so stays within a few batches of the one list's
// (the workers still move through the levels together, which keeps the
// explored states at the sequential search's: workQueue.takeBatch), while
// most nodes are expanded by the worker that stored them, whose cache
// still holds the zone, the discrete part and the record it wrote. On a
// two-core virtual machine whose cores share no cache, reading a line the
// other core wrote costs 200 to 260 ns against 60 to 80 where they share
// one (docs/results.md, "Two workers and the host's core placement"); with
// one list, half the nodes a worker expanded were the other's.
type sharedFIFO struct {
	mu spinLock
	// queues[w] holds the nodes worker w stored, oldest first; the last
	// queue the initial states (nobody's own)
	queues []affinityQueue
	// flushes numbers the pushes: a node's flush orders it among the
	// queues' nodes
	flushes uint64
	total   int
	workers int
}

// affinityWindow is how many flushes older than a worker's own oldest
// node another queue's oldest may be before the worker takes from that
// queue instead, per worker.
const affinityWindow = 2

// affinityQueue is one producer's nodes with the flush of each.
type affinityQueue struct {
	nodeQueue
	flush []uint64 // flush[i] is items[i]'s
	_     [32]byte
}

func newSharedFIFO(workers int) *sharedFIFO {
	return &sharedFIFO{queues: make([]affinityQueue, workers+1), workers: workers}
}

// pushAll queues ns, stored by worker w (workers: the initial states).
func (q *sharedFIFO) pushAll(ns []nodeID, w int) {
	q.mu.Lock()
	q.flushes++
	a := &q.queues[w]
	a.items = append(a.items, ns...)
	for range ns {
		a.flush = append(a.flush, q.flushes)
	}
	q.total += len(ns)
	q.mu.Unlock()
}

// takeBatch moves up to a share of the queued nodes into buf (as
// workQueue.takeBatch: at most 1/(2·workers) of them and 32, at least
// one), from worker w's own queue unless the oldest queued node is older
// than its own oldest by more than the window: then from the queue that
// holds the oldest.
func (q *sharedFIFO) takeBatch(buf []nodeID, w int) []nodeID {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.total == 0 {
		return buf
	}
	oldest := -1
	for i := range q.queues {
		a := &q.queues[i]
		if a.len() > 0 && (oldest < 0 || a.flush[a.head] < q.queues[oldest].flush[q.queues[oldest].head]) {
			oldest = i
		}
	}
	from := oldest
	if own := &q.queues[w]; own.len() > 0 && own.flush[own.head] <= q.queues[oldest].flush[q.queues[oldest].head]+uint64(affinityWindow*q.workers) {
		from = w
	}
	a := &q.queues[from]
	k := min(max(q.total/(2*q.workers), 1), 32, a.len())
	buf = append(buf, a.items[a.head:a.head+k]...)
	a.head += k
	q.total -= k
	if from, n := a.settle(); from >= 0 {
		copy(a.flush, a.flush[from:])
		a.flush = a.flush[:n]
	}
	return buf
}

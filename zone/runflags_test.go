package zone

import (
	"sync"
	"sync/atomic"
	"testing"
)

// TestParallelDoneOnlyWhenNoWorkIsLeft: the workers' counters say the
// search is done only once every node queued has been finished, while
// workers queue each other's work and idle ones keep asking (runWorker).
// Synthetic nodes form a tree (a node's depth says how many children it
// has); a worker finishes a node after it counts and queues the children.
// When done first says so, every node of the tree must have been
// finished, and none may be finished after. Reading the queued counts
// before the finished ones breaks this within a few hundred rounds here.
func TestParallelDoneOnlyWhenNoWorkIsLeft(t *testing.T) {
	const workers, depth, rounds = 4, 6, 2000
	// the tree's size: node of depth d has (d % 3) + 1 children below depth
	var count func(d int) int64
	count = func(d int) int64 {
		n := int64(1)
		if d < depth {
			for c := 0; c < d%3+1; c++ {
				n += count(d + 1)
			}
		}
		return n
	}
	total := count(0)
	for round := 0; round < rounds; round++ {
		flags := runFlags{counts: make([]workerCounts, workers)}
		var mu spinLock
		queue := []int{0}
		flags.counts[0].queued.Add(1)
		var finished atomic.Int64
		var wg sync.WaitGroup
		atDone := make([]int64, workers)
		for w := 0; w < workers; w++ {
			wg.Add(1)
			go func(w int) {
				defer wg.Done()
				mine := &flags.counts[w]
				for {
					mu.Lock()
					d, ok := -1, len(queue) > 0
					if ok {
						d, queue = queue[len(queue)-1], queue[:len(queue)-1]
					}
					mu.Unlock()
					if !ok {
						if flags.done() {
							atDone[w] = finished.Load()
							return
						}
						continue
					}
					var children []int
					if d < depth {
						for c := 0; c < d%3+1; c++ {
							children = append(children, d+1)
						}
					}
					finished.Add(1)
					if len(children) > 0 {
						mine.queued.Add(int64(len(children)))
					}
					mine.finished.Add(1)
					mu.Lock()
					queue = append(queue, children...)
					mu.Unlock()
				}
			}(w)
		}
		wg.Wait()
		for w, n := range atDone {
			if n != total {
				t.Fatalf("round %d: worker %d saw the search done after %d of %d nodes", round, w, n, total)
			}
		}
	}
}

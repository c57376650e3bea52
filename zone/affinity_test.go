package zone

import (
	"slices"
	"testing"
)

// TestSharedFIFOTakesOwnNodesWithinTheWindow: a worker takes the nodes it
// stored itself unless another queue holds nodes older than its own by
// more than affinityWindow flushes per worker; then it takes the oldest.
// Each case pushes batches (worker, nodes) in order and has one worker
// take one batch.
func TestSharedFIFOTakesOwnNodesWithinTheWindow(t *testing.T) {
	const workers = 2
	window := affinityWindow * workers
	type push struct {
		w     int
		nodes []nodeID
	}
	// pushes of one node each by worker 1, then one by worker 0
	olderBy := func(k int) []push {
		var ps []push
		for i := range k {
			ps = append(ps, push{1, []nodeID{nodeID(100 + i)}})
		}
		return append(ps, push{0, []nodeID{7}})
	}
	for _, c := range []struct {
		name   string
		pushes []push
		taker  int
		want   []nodeID
	}{
		{"own nodes when they are the oldest", []push{{0, []nodeID{1, 2}}, {1, []nodeID{3, 4}}}, 0, []nodeID{1}},
		{"the other's when own has none", []push{{0, []nodeID{1, 2}}, {1, []nodeID{3, 4}}}, 1, []nodeID{3}},
		{"the initial states' queue, nobody's own, when oldest", []push{{workers, []nodeID{9}}, {1, []nodeID{3}}}, 0, []nodeID{9}},
		{"own nodes younger by the window", olderBy(window), 0, []nodeID{7}},
		{"the oldest when own are younger by more than the window", olderBy(window + 1), 0, []nodeID{100}},
	} {
		t.Run(c.name, func(t *testing.T) {
			q := newSharedFIFO(workers)
			for _, p := range c.pushes {
				q.pushAll(p.nodes, p.w)
			}
			if got := q.takeBatch(nil, c.taker); !slices.Equal(got, c.want) {
				t.Errorf("worker %d took %v, want %v", c.taker, got, c.want)
			}
		})
	}
}

// TestSharedFIFOHandsOutEveryNodeOnce: whatever the interleaving of
// pushes and takes, a batch is the oldest nodes of one producer's queue,
// in order, at most 32 of them and a 1/(2·workers) share of those queued
// (at least one), so that every node pushed is taken exactly once; the
// queue is the taker's own unless another's oldest node is older by more
// than the window. A model of the queues (a slice per producer, with each
// node's flush) says what each batch must be; the queues grow past the
// length at which takeBatch compacts them.
func TestSharedFIFOHandsOutEveryNodeOnce(t *testing.T) {
	const workers = 3
	q := newSharedFIFO(workers)
	model := make([][]nodeID, workers+1)
	flushOf := map[nodeID]int{}
	flushes := 0
	next := nodeID(0)
	queued := 0
	take := func(step, w int) int {
		b := q.takeBatch(nil, w)
		if queued > 0 && (len(b) == 0 || len(b) > 32 || len(b) > max(queued/(2*workers), 1)) {
			t.Fatalf("step %d: batch of %d with %d queued", step, len(b), queued)
		}
		if len(b) == 0 {
			return 0
		}
		oldest := -1
		for i, m := range model {
			if len(m) > 0 && (oldest < 0 || flushOf[m[0]] < flushOf[model[oldest][0]]) {
				oldest = i
			}
		}
		from := oldest
		if own := model[w]; len(own) > 0 && flushOf[own[0]] <= flushOf[model[oldest][0]]+affinityWindow*workers {
			from = w
		}
		if m := model[from]; len(m) < len(b) || !slices.Equal(m[:len(b)], b) {
			t.Fatalf("step %d: worker %d took %v, not the oldest nodes of queue %d", step, w, b, from)
		}
		model[from] = model[from][len(b):]
		queued -= len(b)
		return len(b)
	}
	for step := range 5000 {
		w := step * 7 % (workers + 1)
		if step%3 != 2 {
			k := step*13%70 + 1
			var ns []nodeID
			for range k {
				ns = append(ns, next)
				next++
			}
			q.pushAll(ns, w)
			flushes++
			for _, n := range ns {
				flushOf[n] = flushes
			}
			model[w] = append(model[w], ns...)
			queued += k
			continue
		}
		take(step, w%workers)
	}
	for queued > 0 {
		if take(-1, 1) == 0 {
			t.Fatalf("%d nodes queued but none taken", queued)
		}
	}
	if b := q.takeBatch(nil, 0); len(b) != 0 {
		t.Errorf("an empty list gave %v", b)
	}
}

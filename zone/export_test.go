package zone

// SearchParallelForTest runs the parallel driver even with one worker, to
// measure its machinery against the sequential Search.
func SearchParallelForTest(sys *System, opts Options, newVisitor func() Visitor) Result {
	return searchParallel(sys, opts, newVisitor)
}

// RankedQueueOrderForTest pushes (node, rank) pairs into a rankedQueue
// and returns the nodes in the order it gives them, taken batch at a
// time (at most batch each).
func RankedQueueOrderForTest(pushes [][2]int, batch int) []int {
	var q rankedQueue
	for _, p := range pushes {
		q.push(nodeID(p[0]), uint8(p[1]))
	}
	var out []int
	for q.len() > 0 {
		var buf []nodeID
		if batch == 1 {
			n, _ := q.take()
			buf = append(buf, n)
		} else {
			buf = q.takeOldest(nil, batch)
		}
		for _, n := range buf {
			out = append(out, int(n))
		}
	}
	return out
}

// ReclaimForTest switches the reuse of evicted zones' bytes on or off for
// the searches that follow and reports, through reused, the bytes the
// last search's store handed out again. It returns the restoring func.
func ReclaimForTest(on bool, reused *uint64) (restore func()) {
	old := reclaimEvicted
	reclaimEvicted = on
	searchDone = func(n uint64) { *reused = n }
	return func() { reclaimEvicted, searchDone = old, nil }
}

package zone

import "github.com/tcheck/tcheck/model"

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
		out = popForTest(&q, batch, out)
	}
	return out
}

// bucketQueue is what rankedQueue and progressQueue have in common.
type bucketQueue interface {
	len() int
	take() (nodeID, bool)
	takeOldest(buf []nodeID, k int) []nodeID
}

// popForTest takes one node (batch 1) or one batch of at most batch
// nodes from q and appends them to out.
func popForTest(q bucketQueue, batch int, out []int) []int {
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

// ProgressQueueOrderForTest pushes (node, progress) pairs into a
// progressQueue and returns the nodes in the order it gives them, taken
// batch at a time (at most batch each); pops interleave with pushes
// where a pair's node is negative (one pop, before the next push).
func ProgressQueueOrderForTest(pushes [][2]int, batch int) []int {
	var q progressQueue
	var out []int
	for _, p := range pushes {
		if p[0] < 0 {
			out = popForTest(&q, batch, out)
			continue
		}
		q.push(nodeID(p[0]), int32(p[1]))
	}
	for q.len() > 0 {
		out = popForTest(&q, batch, out)
	}
	return out
}

// LocationRanksForTest is locationRanks.
func LocationRanksForTest(net *model.Network) [][]int32 { return locationRanks(net) }

// SetBroadcastCutForTest switches broadcastCut on or off and returns the
// function that restores it.
func SetBroadcastCutForTest(on bool) (restore func()) {
	was := broadcastCutOn
	broadcastCutOn = on
	return func() { broadcastCutOn = was }
}

// BroadcastChoicesForTest returns how many choices of broadcast receivers
// st has enumerated (Stepper.combos), emitted or cut.
func BroadcastChoicesForTest(st *Stepper) uint64 { return st.combos }

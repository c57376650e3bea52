package zone

import "sync/atomic"

// graceClock lets a parallel search reuse an evicted zone's bytes while
// workers read the passed list's chains without the shard's lock
// (passedList.coveredShared): a read-copy-update grace period (McKenney
// and Slingwine, "Read-copy update", PDCS 1998). Each worker counts its
// lock-free reads on a cache line of its own, odd while one runs. Bytes
// whose node was unlinked before a snapshot of the counts may be reused
// once every worker has been outside a read at the snapshot or has
// finished the read it was in: a read that starts after the unlink cannot
// reach the node, since it follows the chain's links from its head, and
// the links it reads are at least as new as the unlink (Go's atomic
// operations are sequentially consistent).
type graceClock struct {
	slots []graceSlot
}

// graceSlot is one worker's count, padded so that no two workers' counts
// share a cache line (nor the neighbouring one, which some processors
// fetch in pairs).
type graceSlot struct {
	n atomic.Uint64
	_ [120]byte
}

func newGraceClock(workers int) *graceClock {
	return &graceClock{slots: make([]graceSlot, workers)}
}

// enter and exit bracket worker w's lock-free read: one test, not a
// worker's whole expansion, as a goroutine descheduled in the middle of a
// read holds up the reuse of every shard's evicted zones (with four
// workers on two cores, whole expansions as reads left Fischer N = 6
// without a zone reused in 2 to 4 runs of 20:
// TestParallelSearchReusesEvictedZones).
func (g *graceClock) enter(w int) { g.slots[w].n.Add(1) }
func (g *graceClock) exit(w int)  { g.slots[w].n.Add(1) }

// snapshot appends every worker's count to dst.
func (g *graceClock) snapshot(dst []uint64) []uint64 {
	for i := range g.slots {
		dst = append(dst, g.slots[i].n.Load())
	}
	return dst
}

// passed reports whether every read that was running at snapshot snap
// has finished.
func (g *graceClock) passed(snap []uint64) bool {
	for i, n := range snap {
		if n&1 != 0 && g.slots[i].n.Load() == n {
			return false
		}
	}
	return true
}

// retiredZones holds the records of a shard's evicted nodes whose bytes
// wait for a grace period before the store reuses them: those retired
// since the last snapshot (filling) and those of the last snapshot
// (waiting, with its counts).
type retiredZones struct {
	filling, waiting []uint32
	snap             []uint64
}

// retireBatch is the number of records retired between snapshots: a
// snapshot reads every worker's line, so it is taken once a batch.
const retireBatch = 8

// retire hands the bytes of record i (evicted, unlinked) to the store
// s once no lock-free read can be reading them. The caller holds the
// shard's lock.
func (r *retiredZones) retire(g *graceClock, s *nodeStore, i uint32) {
	r.filling = append(r.filling, i)
	if len(r.filling) < retireBatch {
		return
	}
	if len(r.waiting) > 0 {
		if !g.passed(r.snap) {
			return // the next retire looks again
		}
		for _, k := range r.waiting {
			s.release(s.recs.at(uint64(k)))
		}
	}
	r.waiting, r.filling = r.filling, r.waiting[:0]
	r.snap = g.snapshot(r.snap[:0])
}

package zone

import (
	"sync/atomic"
	"testing"
)

// TestGracePeriodWaitsForRunningReads checks the reuse of evicted zones'
// bytes under lock-free reads (graceClock, retiredZones): bytes retired
// while a worker's read runs are not handed back to the store before that
// read ends, and are once it has; a worker outside any read at the
// snapshot holds nothing up, nor does one that started a new read since.
func TestGracePeriodWaitsForRunningReads(t *testing.T) {
	s := newNodeStore(1<<10, 0, 0)
	// records whose zones are 16 bytes each, made before any is retired
	// (a zone allocated later would take a retired one's bytes)
	var recs []uint32
	for range 4*retireBatch + 2 {
		w, _ := s.alloc(16)
		i, r := s.newRec()
		r.zone = w
		atomic.StoreUint32(&r.flags, 16<<zoneLenShift)
		recs = append(recs, uint32(i))
	}
	newRecord := func() uint32 {
		i := recs[0]
		recs = recs[1:]
		return i
	}
	reusable := func() int {
		if len(s.reusable) <= 4 {
			return 0
		}
		return len(s.reusable[4])
	}
	g := newGraceClock(3)
	var r retiredZones
	retireBatchOf := func() {
		for range retireBatch {
			r.retire(g, s, newRecord())
		}
	}

	g.enter(0) // worker 0 reads; 1 and 2 do not
	retireBatchOf()
	if reusable() != 0 || len(r.waiting) != retireBatch {
		t.Fatalf("after one batch: %d reusable, %d waiting; want 0 and %d", reusable(), len(r.waiting), retireBatch)
	}
	g.enter(1) // starts after the snapshot: holds nothing up
	retireBatchOf()
	if reusable() != 0 {
		t.Fatalf("%d zones reusable while a read that could see them runs", reusable())
	}
	if len(r.filling) != retireBatch {
		t.Fatalf("the second batch: %d filling, want %d kept while the first waits", len(r.filling), retireBatch)
	}
	g.exit(0)
	g.enter(0) // a new read of worker 0: the one of the snapshot has ended
	r.retire(g, s, newRecord())
	if reusable() != retireBatch {
		t.Fatalf("after the read ended: %d reusable, want the first batch, %d", reusable(), retireBatch)
	}
	if len(r.waiting) != retireBatch+1 || len(r.filling) != 0 {
		t.Fatalf("%d waiting and %d filling, want %d and 0", len(r.waiting), len(r.filling), retireBatch+1)
	}
	// worker 1's read and worker 0's new one ran at that snapshot
	retireBatchOf()
	if reusable() != retireBatch {
		t.Fatalf("%d reusable while the snapshot's reads run, want %d", reusable(), retireBatch)
	}
	g.exit(0)
	g.exit(1)
	r.retire(g, s, newRecord())
	if reusable() != 2*retireBatch+1 {
		t.Fatalf("after every read ended: %d reusable, want %d", reusable(), 2*retireBatch+1)
	}
	if w, _ := s.alloc(16); s.reused != 16 {
		t.Fatalf("alloc(16) took word %d, not a retired zone's bytes", w)
	}
}

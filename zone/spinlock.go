package zone

import (
	"runtime"
	"sync/atomic"
)

// spinLock is a test-and-test-and-set lock for the parallel search's short
// critical sections (a shard of the passed list held for one lookup and a
// few inclusion tests, the shared waiting list for one batch). A waiter
// spins on a plain load and yields its processor to the Go scheduler after
// spinLockTries failed looks, so it never parks its thread: a sync.Mutex
// parks the waiting goroutine after a few spins, and on a virtual machine
// waking the sleeping core costs tens of microseconds, far more than the
// critical section. On the 2-core machine, Fischer's protocol (N = 10,
// two workers) met 41,690 contended acquisitions in 3.3 M, and the cores
// stood idle for 0.8–1.7 s of a 4–5 s search with sync.Mutex, for a few
// hundredths of a second with this lock (docs/results.md). Yielding, not
// sleeping, keeps the lock correct and live when the workers outnumber
// the processors: the holder gets to run.
type spinLock struct {
	v atomic.Int32
}

const spinLockTries = 128

func (l *spinLock) Lock() {
	for i := 0; ; i++ {
		if l.TryLock() {
			return
		}
		if i == spinLockTries {
			runtime.Gosched()
			i = 0
		}
	}
}

// TryLock takes the lock if it is free, without waiting.
func (l *spinLock) TryLock() bool {
	return l.v.Load() == 0 && l.v.CompareAndSwap(0, 1)
}

// Unlock releases the lock, which the caller holds.
func (l *spinLock) Unlock() {
	if l.v.Swap(0) != 1 {
		panic("zone: unlock of an unlocked spinLock")
	}
}

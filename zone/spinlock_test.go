package zone

import (
	"runtime"
	"sync"
	"testing"
)

// TestSpinLockExcludesWithMoreGoroutinesThanProcessors: the lock keeps a
// non-atomic read-modify-write exact, and ends, when the goroutines that
// want it outnumber the processors (a waiter yields, so the holder runs):
// --workers 16 on a 2-core machine must not hang.
func TestSpinLockExcludesWithMoreGoroutinesThanProcessors(t *testing.T) {
	for _, procs := range []int{1, 2} {
		prev := runtime.GOMAXPROCS(procs)
		var l spinLock
		count := 0
		const goroutines, each = 16, 2000
		var wg sync.WaitGroup
		for g := 0; g < goroutines; g++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; i < each; i++ {
					l.Lock()
					c := count
					if i%64 == 0 {
						runtime.Gosched() // let another goroutine find the lock held
					}
					count = c + 1
					l.Unlock()
				}
			}()
		}
		wg.Wait()
		runtime.GOMAXPROCS(prev)
		if count != goroutines*each {
			t.Fatalf("GOMAXPROCS=%d: count %d, want %d", procs, count, goroutines*each)
		}
	}
}

func TestSpinLockTryLockAndUnlockOfUnlocked(t *testing.T) {
	var l spinLock
	if !l.TryLock() {
		t.Fatal("TryLock of a free lock failed")
	}
	if l.TryLock() {
		t.Fatal("TryLock of a held lock succeeded")
	}
	l.Unlock()
	defer func() {
		if recover() == nil {
			t.Fatal("Unlock of an unlocked lock did not panic")
		}
	}()
	l.Unlock()
}

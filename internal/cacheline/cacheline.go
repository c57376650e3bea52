package cacheline

import "sync/atomic"

// PingPong passes a counter n times between the calling goroutine and one
// it starts, and returns when both have seen the last pass. It needs two
// processors (runtime.GOMAXPROCS) to measure anything but the scheduler.
func PingPong(n int64) {
	var line struct {
		_ [64]byte
		v atomic.Int64
		_ [56]byte
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := int64(1); i < n; i += 2 {
			for line.v.Load() != i {
			}
			line.v.Store(i + 1)
		}
	}()
	for i := int64(0); i < n; i += 2 {
		for line.v.Load() != i {
		}
		line.v.Store(i + 1)
	}
	<-done
}

package zone

import (
	"runtime"
	"testing"
)

// TestMemSamplerCollectsOnlyGarbage: a search starts with a collection only
// where earlier work left more than gcBeforeSearch bytes of garbage, not
// where the heap is large because its data is live (a sweep of three
// million points keeps 1.6 GB of grid and results: one collection of it per
// point made such a sweep over three times slower).
func TestMemSamplerCollectsOnlyGarbage(t *testing.T) {
	live := make([]byte, gcBeforeSearch+16<<20)
	for i := range live {
		live[i] = byte(i)
	}
	newMemSampler() // collects: the base is now the live heap, live included
	before := numGC()
	newMemSampler()
	if n := numGC() - before; n != 0 {
		t.Errorf("%d collections with %d MiB live and no garbage, want none", n, len(live)>>20)
	}
	garbage := make([]byte, gcBeforeSearch+16<<20)
	for i := range garbage {
		garbage[i] = byte(i)
	}
	garbage = nil
	before = numGC()
	newMemSampler()
	if n := numGC() - before; n == 0 {
		t.Errorf("no collection with %d MiB of garbage, want one", (gcBeforeSearch+16<<20)>>20)
	}
	runtime.KeepAlive(live)
}

func numGC() uint32 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.NumGC
}

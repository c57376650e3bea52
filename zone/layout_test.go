package zone

import (
	"testing"
	"unsafe"
)

// TestPassedShardLayout checks the layout that keeps a parallel search's
// workers from missing on cache lines that another one wrote needlessly:
// a shard's lock shares its line with the list's fields every test writes
// (scratch pointer, counters), those read at every test start on the
// next line, and a shard fills whole lines, so that no two shards share
// one (shards are allocated together, at a line boundary).
func TestPassedShardLayout(t *testing.T) {
	const line = 64
	var sh passedShard
	base := unsafe.Offsetof(sh.p)
	for _, f := range []struct {
		name string
		end  uintptr
	}{
		{"sc", base + unsafe.Offsetof(sh.p.sc) + unsafe.Sizeof(sh.p.sc)},
		{"stored", base + unsafe.Offsetof(sh.p.stored) + unsafe.Sizeof(sh.p.stored)},
		{"cover", base + unsafe.Offsetof(sh.p.cover) + unsafe.Sizeof(sh.p.cover)},
	} {
		if f.end > line {
			t.Errorf("passedShard: %s ends at byte %d, past the lock's cache line", f.name, f.end)
		}
	}
	if off := base + unsafe.Offsetof(sh.p.dim); off < line {
		t.Errorf("passedShard: the read-mostly fields start at byte %d, on the lock's cache line", off)
	}
	if size := unsafe.Sizeof(sh); size%line != 0 {
		t.Errorf("passedShard is %d bytes, not a multiple of %d", size, line)
	}
	var c decodedCache
	if off := unsafe.Offsetof(c.dim); off < line {
		t.Errorf("decodedCache: the read-mostly fields start at byte %d, on the line of the counters", off)
	}
}

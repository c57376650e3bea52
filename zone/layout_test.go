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
		{"nkeys", base + unsafe.Offsetof(sh.p.nkeys) + unsafe.Sizeof(sh.p.nkeys)},
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

// TestNodeStoreLayout checks that a node store's fields written at every
// new node (counts, free lists) sit on a cache line apart from the
// segments' directories that every lookup reads, and that the store is
// 192 bytes, a size class of Go's allocator whose objects start at line
// boundaries, so that no two shards' stores share a line.
func TestNodeStoreLayout(t *testing.T) {
	const line = 64
	var s nodeStore
	for _, f := range []struct {
		name string
		end  uintptr
	}{
		{"recs", unsafe.Offsetof(s.recs) + unsafe.Sizeof(s.recs)},
		{"slab", unsafe.Offsetof(s.slab) + unsafe.Sizeof(s.slab)},
		{"ranks", unsafe.Offsetof(s.ranks) + unsafe.Sizeof(s.ranks)},
		{"keyLen", unsafe.Offsetof(s.keyLen) + unsafe.Sizeof(s.keyLen)},
	} {
		if f.end > 2*line {
			t.Errorf("nodeStore: %s ends at byte %d, on the counters' line", f.name, f.end)
		}
	}
	if off := unsafe.Offsetof(s.n); off != 2*line {
		t.Errorf("nodeStore: the counters start at byte %d, not %d", off, 2*line)
	}
	if size := unsafe.Sizeof(s); size != 3*line {
		t.Errorf("nodeStore is %d bytes, not %d", size, 3*line)
	}
}

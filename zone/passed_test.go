package zone

import (
	"hash/maphash"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"

	"github.com/tcheck/tcheck/dbm"
	"github.com/tcheck/tcheck/model"
)

// TestKeyRoundTrip checks that packing a discrete part into a bit string
// gives the bits of its fields one after another, least significant
// first (refKey), as patching the key of another does, and that
// unpacking gives it back, for fields of every
// width (a single value, booleans, small and wide ranges, negative
// minimums).
func TestKeyRoundTrip(t *testing.T) {
	net := &model.Network{
		Vars: []model.Var{
			{Name: "b", Min: 0, Max: 1},
			{Name: "one", Min: 5, Max: 5},
			{Name: "s", Min: -1, Max: 3},
			{Name: "w", Min: -40000, Max: 40000},
			{Name: "full", Min: -1 << 31, Max: 1<<31 - 1},
			{Name: "c", Min: 0, Max: 255},
		},
		Procs: []*model.Process{
			{Locations: make([]model.Location, 1)},
			{Locations: make([]model.Location, 3)},
			{Locations: make([]model.Location, 300)},
		},
	}
	s := NewSystem(net)
	rng := rand.New(rand.NewPCG(1, 2))
	locs := make([]int32, 3)
	vars := make([]int32, len(net.Vars))
	gl := make([]int32, 3)
	gv := make([]int32, len(net.Vars))
	for range 10000 {
		for p, proc := range net.Procs {
			locs[p] = int32(rng.IntN(len(proc.Locations)))
		}
		for i, v := range net.Vars {
			vars[i] = int32(int64(v.Min) + rng.Int64N(int64(v.Max)-int64(v.Min)+1))
		}
		key := s.appendKey(nil, locs, vars)
		if len(key) != s.keyLen {
			t.Fatalf("key of %d bytes, want %d", len(key), s.keyLen)
		}
		if want := refKey(s, locs, vars); string(key) != string(want) {
			t.Fatalf("key %x, want %x", key, want)
		}
		// the key of a state that differs in some fields, patched
		pl, pv := slices.Clone(locs), slices.Clone(vars)
		for range rng.IntN(4) {
			if k := rng.IntN(len(pl) + len(pv)); k < len(pl) {
				pl[k] = int32(rng.IntN(len(net.Procs[k].Locations)))
			} else {
				v := net.Vars[k-len(pl)]
				pv[k-len(pl)] = int32(int64(v.Min) + rng.Int64N(int64(v.Max)-int64(v.Min)+1))
			}
		}
		patched := slices.Clone(key)
		s.patchKey(patched, locs, vars, pl, pv)
		if want := refKey(s, pl, pv); string(patched) != string(want) {
			t.Fatalf("patched key %x, want %x", patched, want)
		}
		s.decodeKey(key, gl, gv)
		for i := range locs {
			if gl[i] != locs[i] {
				t.Fatalf("location %d: got %d, want %d", i, gl[i], locs[i])
			}
		}
		for i := range vars {
			if gv[i] != vars[i] {
				t.Fatalf("variable %s: got %d, want %d", net.Vars[i].Name, gv[i], vars[i])
			}
		}
	}
}

// refKey packs locs and vars one bit at a time: the reference for
// appendKey.
func refKey(s *System, locs, vars []int32) []byte {
	var key []byte
	pos := 0
	for k, x := range append(append([]int32(nil), locs...), vars...) {
		u := uint32(x - s.offset[k])
		for b := range int(s.bits[k]) {
			if pos%8 == 0 {
				key = append(key, 0)
			}
			key[pos/8] |= byte(u>>b&1) << (pos % 8)
			pos++
		}
	}
	return key
}

// TestPassedListInclusion checks the passed list's inclusion both ways,
// with zones stored as matrices and as minimal constraint sets, in 8, 16
// and 32 bits per bound: an included zone is covered, a larger zone evicts
// the stored ones it includes, and loading a node gives back the zone
// stored.
func TestPassedListInclusion(t *testing.T) {
	for _, tc := range []struct {
		big   int32
		width uint8
		full  bool
	}{{10, 1, true}, {2000, 2, true}, {1000000, 4, true}, {10, 1, false}, {2000, 2, false}, {1000000, 4, false}} {
		big := tc.big
		p := newPassedList(3, tc.full, false)
		z := func(x, y int32) dbm.DBM {
			d := dbm.New(3)
			d.Zero()
			d.Up()
			d.Constrain(1, 0, dbm.LE(x*big/10))
			d.Constrain(2, 0, dbm.LE(y*big/10))
			return d
		}
		key := []byte("k")
		small, ok := p.insert(key, z(1, 1), noNode, -1)
		if sz, _ := p.zoneOf(small); !ok || sz.width != tc.width || sz.minimal == tc.full {
			t.Fatalf("big=%d: first zone not stored as expected", big)
		}
		if _, ok := p.insert(key, z(1, 1), noNode, -1); ok {
			t.Fatalf("big=%d: an equal zone was stored again", big)
		}
		if _, ok := p.insert([]byte("o"), z(1, 1), noNode, -1); !ok {
			t.Fatalf("big=%d: the same zone under another key was covered", big)
		}
		large, ok := p.insert(key, z(2, 2), noNode, -1)
		if !ok || !p.graph.covered(small) || p.stored != 2 {
			t.Fatalf("big=%d: larger zone did not evict the smaller one (stored %d)", big, p.stored)
		}
		got := dbm.New(3)
		p.node(large).LoadZone(got)
		if !got.Equal(z(2, 2)) {
			t.Fatalf("big=%d: loaded %v, want %v", big, got, z(2, 2))
		}
	}
}

// TestInsertAtRechecksZonesStoredSince checks the parallel search's second
// inclusion test (insertAtKey with recheck): a zone stored under the key
// after coverExact covers the successor, also where it evicted the chain's
// head of that moment; a zone that was stored before is not tested again
// (it covered nothing of the successor), so a zone that would cover it is
// found only when it is new.
func TestInsertAtRechecksZonesStoredSince(t *testing.T) {
	box := func(x, y int32) dbm.DBM {
		d := dbm.New(3)
		d.Zero()
		d.Up()
		d.Constrain(1, 0, dbm.LE(x))
		d.Constrain(2, 0, dbm.LE(y))
		return d
	}
	key := []byte("k")
	coverExact := func(p *passedList, z dbm.DBM) keyRef {
		t.Helper()
		h := maphash.Bytes(p.seed, key)
		k, head, covered := p.coverExactHashed(key, h, z)
		if covered {
			t.Fatalf("coverExact: %v covered", z)
		}
		return keyRef{h: h, k: k, head: head}
	}
	for _, full := range []bool{true, false} {
		// stored since, beside the old head: the recheck finds it
		p := newPassedList(3, full, false)
		p.insert(key, box(1, 5), noNode, -1)
		ref := coverExact(p, box(3, 3))
		p.insert(key, box(4, 4), noNode, -1)
		if _, ok := p.insertAtKey(ref, box(3, 3), noNode, -1, true, false, 0, nil); ok {
			t.Fatalf("full=%v: a zone stored since coverExact did not cover", full)
		}
		// stored since, evicting the old head: the whole chain is tested
		p = newPassedList(3, full, false)
		p.insert(key, box(1, 1), noNode, -1)
		ref = coverExact(p, box(3, 3))
		p.insert(key, box(4, 4), noNode, -1)
		if p.stored != 1 {
			t.Fatalf("full=%v: the old head was not evicted", full)
		}
		if _, ok := p.insertAtKey(ref, box(3, 3), noNode, -1, true, false, 0, nil); ok {
			t.Fatalf("full=%v: a zone that evicted the old head did not cover", full)
		}
		// nothing stored since: stored, even though a zone stored before
		// would cover it (the caller's contract says none does)
		p = newPassedList(3, full, false)
		p.insert(key, box(4, 4), noNode, -1)
		h := maphash.Bytes(p.seed, key)
		k := p.lookup(key, h)
		ref = keyRef{h: h, k: k, head: *p.keyAt(k).head}
		if _, ok := p.insertAtKey(ref, box(3, 3), noNode, -1, true, false, 0, nil); !ok {
			t.Fatalf("full=%v: a zone stored before coverExact was tested again", full)
		}
	}
}

// TestMinimalStorageRoundTrip checks that storing random zones in minimal
// form and loading them back gives the same zones, and that inclusion
// against a stored minimal zone agrees with inclusion of the matrices.
func TestMinimalStorageRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 2000 {
		dim := 2 + rng.IntN(7)
		a, b := randomZone(rng, dim), randomZone(rng, dim)
		c := newZoneCodec(dim, false)
		data, w, min := c.encode(a)
		n := storedZone{b: data, width: w, minimal: min}
		got := dbm.New(dim)
		n.load(got)
		if !got.Equal(a) {
			t.Fatalf("stored %v, loaded %v", a, got)
		}
		if n.includes(b) != b.SubsetEq(a) {
			t.Fatalf("%v ⊆ stored %v: %v, matrices say %v", b, a, n.includes(b), b.SubsetEq(a))
		}
		within := n.maybeWithin(b.M, dim)
		if within && n.minimal {
			within = boundsWithin(got.M, b.M)
		}
		if within != a.SubsetEq(b) {
			t.Fatalf("stored %v ⊆ %v: %v, matrices say %v", a, b, within, a.SubsetEq(b))
		}
	}
}

// TestEvictionTestIsInclusion checks the eviction test of the passed
// list, which decides a stored minimal zone ⊆ a new zone on the stored
// constraint graph without decoding it (minimalSatisfies), against the
// inclusion of the matrices, on pairs where inclusion is common: the
// second zone is the first one loosened (delay, a freed clock, the hull
// with a third zone) or tightened, besides independent pairs.
func TestEvictionTestIsInclusion(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	counts := [2]int{}
	for k := range 20000 {
		dim := 2 + rng.IntN(9)
		a := randomZone(rng, dim)
		b := a.Clone()
		switch k % 5 {
		case 0:
			b = randomZone(rng, dim)
		case 1:
			b.Up()
		case 2:
			b.Free(1 + rng.IntN(dim-1))
		case 3:
			b.ConvexHull(randomZone(rng, dim))
		case 4:
			i, j := rng.IntN(dim), rng.IntN(dim)
			if i != j && !b.Constrain(i, j, b.At(i, j)-2) {
				b = a.Clone()
			}
		}
		c := newZoneCodec(dim, false)
		data, w, min := c.encode(a)
		stored := storedZone{b: data, width: w, minimal: min}
		p := newPassedList(dim, false, false)
		want := a.SubsetEq(b)
		// three tests of one stored node: on its constraints the first
		// time, decoded into the cache the second, from the cache the third
		for try := range 3 {
			haveCons := false
			if got := p.within(stored, 7, b, &haveCons, true); got != want {
				t.Fatalf("stored %v ⊆ %v: eviction test %d says %v, matrices %v", a, b, try, got, want)
			}
		}
		// and minimalSatisfies alone, without the maybeWithin filter
		if got := minimalSatisfies(data, w, b.MinConstraints(nil), make([]dbm.Bound, dim)); got != want {
			t.Fatalf("stored %v satisfies the constraints of %v: %v, matrices say ⊆ is %v", a, b, got, want)
		}
		if want {
			counts[1]++
		} else {
			counts[0]++
		}
	}
	if counts[0] < 2000 || counts[1] < 2000 {
		t.Fatalf("too few cases of one outcome (not included, included): %v", counts)
	}
	t.Logf("not included, included: %v", counts)
}

// randomZone returns a random closed non-empty zone with small constants
// (equalities, strict bounds and unbounded clocks included).
func randomZone(rng *rand.Rand, dim int) dbm.DBM {
	for {
		d := dbm.New(dim) // all clocks non-negative
		if rng.IntN(4) == 0 {
			d.Zero()
			d.Up()
		}
		ok := true
		for range rng.IntN(2 * dim) {
			i, j := rng.IntN(dim), rng.IntN(dim)
			if i == j {
				continue
			}
			c := int32(rng.IntN(40) - 10)
			if rng.IntN(5) == 0 {
				c *= 1000 // wide bounds
			}
			b := dbm.LE(c)
			if rng.IntN(3) == 0 {
				b = dbm.LT(c)
			}
			if !d.Constrain(i, j, b) {
				ok = false
				break
			}
		}
		if ok {
			return d
		}
	}
}

// TestPassedListHull checks the convex-hull passed list: one zone per key,
// the hull of those inserted; an included zone is covered, a zone outside
// replaces the stored node (marked covered) with the hull.
func TestPassedListHull(t *testing.T) {
	for _, full := range []bool{false, true} {
		p := newPassedList(2, full, true)
		point := func(c int32) dbm.DBM {
			d := dbm.New(2)
			d.Zero()
			d.Up()
			d.Constrain(1, 0, dbm.LE(c))
			d.Constrain(0, 1, dbm.LE(-c))
			return d
		}
		key := []byte("k")
		a, okA := p.insert(key, point(1), noNode, -1)
		b, okB := p.insert(key, point(3), noNode, -1)
		if !okA || !okB || !p.graph.covered(a) || p.stored != 1 {
			t.Fatalf("full=%v: the second zone did not replace the first (stored %d)", full, p.stored)
		}
		if _, ok := p.insert(key, point(2), noNode, -1); ok {
			t.Fatalf("full=%v: x == 2 is inside the hull 1 <= x <= 3 but was stored", full)
		}
		got := dbm.New(2)
		p.node(b).LoadZone(got)
		want := point(1)
		want.ConvexHull(point(3))
		if !got.Equal(want) {
			t.Fatalf("full=%v: stored %v, want %v", full, got, want)
		}
	}
}

// TestDecodedCacheGivesTheStoredZone checks the cache of decoded zones
// against decoding: through admission on the second decode, clock
// replacement when full, and slots freed by dropped (evicted) nodes, every
// get returns the zone stored for that node.
func TestDecodedCacheGivesTheStoredZone(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const dim, nodes = 4, 200
	codec := newZoneCodec(dim, false)
	stored := make([]storedZone, nodes)
	want := make([]dbm.DBM, nodes)
	for i := range stored {
		want[i] = randomZone(rng, dim)
		b, w, min := codec.encode(want[i])
		stored[i] = storedZone{b: append([]byte(nil), b...), width: w, minimal: min}
	}
	// room for 16 entries: far fewer than the nodes, so that entries are
	// replaced
	c := newDecodedCache(dim, 16*dim*dim*4, 16*dim*dim*4, nil)
	scratch := dbm.New(dim)
	for k := range 20000 {
		n := uint32(rng.IntN(nodes))
		if k%7 == 0 {
			c.drop(n)
			continue
		}
		got := c.get(stored[n], n, 0, scratch)
		if !got.Equal(want[n]) {
			t.Fatalf("get %d: %v, stored %v", n, got, want[n])
		}
	}
	if len(c.slots) != 16 {
		t.Fatalf("the cache holds %d entries, want 16 (its bound)", len(c.slots))
	}
	for n, i := range c.index {
		if c.slots[i].n != n {
			t.Fatalf("index says node %d is in slot %d, which holds %d", n, i, c.slots[i].n)
		}
	}
}

// TestNodeRecordKeepsParents: a record holds its parent in 32 bits, the
// initial state's noNode and every id below maxNodeIDs, also one with a
// shard in its low bits; newRec refuses the id that would not fit.
func TestNodeRecordKeepsParents(t *testing.T) {
	var r nodeRec
	for _, id := range []nodeID{noNode, 0, 1, 37<<5 | 31, nodeID(maxNodeIDs - 1)} {
		r.setParent(id)
		if got := r.parent(); got != id {
			t.Errorf("setParent(%#x): parent() = %#x", uint64(id), uint64(got))
		}
	}
	if s := unsafe.Sizeof(nodeRec{}); s != 24 {
		t.Errorf("a record takes %d bytes, want 24", s)
	}
	s := newNodeStore(64, 3, 5)
	s.n = (maxNodeIDs - 3 + 31) >> 5 // the first index whose id is at or above maxNodeIDs
	if s.id(s.n-1) >= nodeID(maxNodeIDs) || s.id(s.n) < nodeID(maxNodeIDs) {
		t.Fatalf("the test's index is not the first one out of range")
	}
	defer func() {
		if recover() == nil {
			t.Errorf("newRec gave the id %#x", uint64(s.id(s.n-1)))
		}
	}()
	s.newRec()
}

// TestShardCachesShareOneBudget checks that a parallel search's shards
// each have a cache of decoded zones where the sequential list would, even
// when an even share of the budget holds fewer than 16 matrices (dimension
// 47, FDDI N = 15's, at 16 workers: 256 shards), and that together they
// grow no further than the budget.
func TestShardCachesShareOneBudget(t *testing.T) {
	const dim = 47
	s := newSharedPassed(dim, Options{}, 16, true)
	if len(s.shards) != 256 {
		t.Fatalf("%d shards, want 256", len(s.shards))
	}
	per := dim * dim * 4
	grown := 0
	for i := range s.shards {
		c := s.shards[i].p.decoded
		if c == nil {
			t.Fatalf("shard %d has no cache of decoded zones", i)
		}
		for c.mayGrow(0) {
			c.slots = append(c.slots, decodedSlot{})
			grown++
		}
	}
	if want := decodedCacheSmall / per; grown != want {
		t.Errorf("the shards' caches grew to %d matrices in all, want the budget's %d", grown, want)
	}
	if first := len(s.shards[0].p.decoded.slots); first != decodedCacheSmall/per {
		t.Errorf("the first shard took %d matrices, want all %d of the budget", first, decodedCacheSmall/per)
	}
}

// TestShardCacheWithoutRoomDecodesInScratch: a shard whose cache of
// decoded zones has no slot when the other shards have spent the pool
// they share answers a second decode without caching it (the caller
// decodes into its scratch). FDDI N = 15 under breadth first at two
// workers panicked in most runs ("index out of range [0] with length 0",
// decodedCache.add) once one shard's cache had taken the whole pool.
func TestShardCacheWithoutRoomDecodesInScratch(t *testing.T) {
	const dim = 47
	s := newSharedPassed(dim, Options{}, 2, true)
	full := s.shards[0].p.decoded
	for full.mayGrow(0) {
		full.slots = append(full.slots, decodedSlot{})
	}
	z := dbm.New(dim)
	z.Init()
	z.Constrain(1, 0, dbm.LE(5))
	codec := newZoneCodec(dim, false)
	b, w, minimal := codec.encode(z)
	sz := storedZone{b: append([]byte(nil), b...), width: w, minimal: minimal}
	c := s.shards[1].p.decoded
	for try := range 3 {
		if m, ok := c.repeated(sz, 7, 0); ok {
			t.Fatalf("try %d: the cache without room gave a matrix of dimension %d", try, m.Dim)
		}
	}
	scratch := dbm.New(dim)
	if m := c.get(sz, 7, 0, scratch); !m.Equal(z) {
		t.Fatalf("get decoded another zone")
	}
}

// TestNodeStoreAllocatesZonesLongerThanASegment: a zone longer than the
// slab's first segments (4 KiB, then 4 KiB and 8 KiB; a full matrix of
// dimension 47 takes 8,836 bytes) goes to the first segment long enough,
// and the slab goes on from there (FDDI N = 30 under --full-zones
// panicked with "slice bounds out of range [::8464] with capacity 4096").
func TestNodeStoreAllocatesZonesLongerThanASegment(t *testing.T) {
	s := newNodeStore(1<<20, 0, 0)
	seen := map[uint32]bool{}
	for _, n := range []int{100, 8836, 100, 40000, 8836, 3} {
		w, b := s.alloc(n)
		if len(b) != n {
			t.Fatalf("alloc(%d) gave %d bytes", n, len(b))
		}
		if seen[w] {
			t.Fatalf("alloc(%d) gave the word %d twice", n, w)
		}
		seen[w] = true
		for i := range b {
			b[i] = byte(n)
		}
		if got := s.bytes(w, n); len(got) != n || got[0] != byte(n) || got[n-1] != byte(n) {
			t.Fatalf("the %d bytes at word %d do not read back", n, w)
		}
	}
}

// TestNodeStoreStoresKeysLongerThanASegment: a discrete part longer than
// the slab's segments (sized for the zones: 1 MiB for small dimensions)
// lengthens them before the first allocation. `int a[1000000]` packs into
// 2 MB, and alloc looked for a segment long enough forever (the search
// hung past --timeout without a line of output).
func TestNodeStoreStoresKeysLongerThanASegment(t *testing.T) {
	s := newNodeStore(16, 0, 0)
	for i, n := range []int{2000001, 2000001, 2000001} {
		key := make([]byte, n)
		key[0], key[n-1] = byte(i+1), byte(i+1)
		w := s.addKey(key)
		if got := s.key(w); len(got) != n || got[0] != byte(i+1) || got[n-1] != byte(i+1) {
			t.Fatalf("key %d does not read back", i)
		}
		if _, b := s.alloc(64); len(b) != 64 {
			t.Fatalf("alloc(64) after key %d gave %d bytes", i, len(b))
		}
	}
}

// TestIndexTellsKeysApartByTagAndBytes checks the passed list's index of
// discrete parts, whose slots hold a hash tag beside the key's index: keys
// whose hashes are equal (one tag, one home slot), or whose tags are equal
// and home slots differ, or whose home slots are equal and tags differ,
// are each added once and found again, by lookup, find and findShared,
// across the index's growths; a key never added is not found.
func TestIndexTellsKeysApartByTagAndBytes(t *testing.T) {
	for _, tc := range []struct {
		name string
		hash func(i int) uint64
	}{
		{"one hash for all", func(int) uint64 { return 0x9e3779b97f4a7c15 }},
		{"one tag, home slots apart", func(i int) uint64 { return 0xdeadbeef<<32 | uint64(i)*0x10001 }},
		{"one home slot, tags apart", func(i int) uint64 { return uint64(0xabc00000+i) << 32 }},
		{"spread", func(i int) uint64 { return uint64(i+1) * 0x9e3779b97f4a7c15 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newPassedList(2, false, false)
			key := func(i int) []byte { return []byte{byte(i), byte(i >> 8), 7} }
			const n = 700 // several growths of the index (16 slots at first)
			at := make([]int, n)
			seen := map[int]bool{}
			for i := range n {
				at[i] = p.lookup(key(i), tc.hash(i))
				if seen[at[i]] {
					t.Fatalf("key %d added at %d, another key's place", i, at[i])
				}
				seen[at[i]] = true
				if got := p.nodes.key(uint32(at[i])); string(got) != string(key(i)) {
					t.Fatalf("key %d added at %d, which holds %v", i, at[i], got)
				}
			}
			for i := range n {
				if k := p.lookup(key(i), tc.hash(i)); k != at[i] {
					t.Fatalf("lookup of key %d: %d, want %d", i, k, at[i])
				}
				if k, ok := p.find(key(i), tc.hash(i)); !ok || k != at[i] {
					t.Fatalf("find of key %d: %d, %v", i, k, ok)
				}
				if k, ok := p.findShared(key(i), tc.hash(i)); !ok || k != at[i] {
					t.Fatalf("findShared of key %d: %d, %v", i, k, ok)
				}
			}
			if p.nkeys != n {
				t.Fatalf("%d keys, want %d", p.nkeys, n)
			}
			// a key never added, under the hash of one that was
			absent := []byte{0xff, 0xff, 0xff}
			for _, i := range []int{0, n / 2, n - 1} {
				if _, ok := p.find(absent, tc.hash(i)); ok {
					t.Fatalf("find: a key never added found under key %d's hash", i)
				}
				if _, ok := p.findShared(absent, tc.hash(i)); ok {
					t.Fatalf("findShared: a key never added found under key %d's hash", i)
				}
			}
		})
	}
}

// TestSharedInsertAddsAKeyNotFoundWithoutTheLock checks a parallel worker's
// store of a successor whose discrete part its covered test did not find
// (coverExact's keyRef with k < 0): insertAt adds the key under the lock
// and stores the zone; where another worker has stored the key and a zone
// covering the successor in between, insertAt finds both and stores
// nothing.
func TestSharedInsertAddsAKeyNotFoundWithoutTheLock(t *testing.T) {
	const dim = 3
	box := func(x, y int32) dbm.DBM {
		d := dbm.New(dim)
		d.Zero()
		d.Up()
		d.Constrain(1, 0, dbm.LE(x))
		d.Constrain(2, 0, dbm.LE(y))
		return d
	}
	for _, alu := range []bool{false, true} {
		s := newSharedPassed(dim, Options{}, 2, alu)
		s.grace = newGraceClock(2)
		s.lockFree = true
		views := make([]sharedView, 2)
		for w := range views {
			sc := &viewScratch{passedScratch: *newPassedScratch(dim, false)}
			sc.l, sc.u = []int32{0, 10, 10}, []int32{0, 10, 10}
			views[w] = sharedView{s: s, scratch: sc, worker: w}
		}
		key := []byte("part one") // one length: a store packs one

		ref, covered := views[0].coverExact(key, box(3, 3))
		if covered || ref.k >= 0 {
			t.Fatalf("alu=%v: a key never stored: covered %v, index %d", alu, covered, ref.k)
		}
		if _, ok := views[0].insertAt(ref, box(3, 3), noNode, -1); !ok {
			t.Fatalf("alu=%v: the successor of a new key was not stored", alu)
		}
		if st, disc, _ := s.counts(); st != 1 || disc != 1 {
			t.Fatalf("alu=%v: %d stored under %d keys, want 1 and 1", alu, st, disc)
		}
		// worker 1 misses a key that worker 0 then stores with a larger
		// zone: worker 1's insert finds it under the lock
		other := []byte("part two")
		ref, covered = views[1].coverExact(other, box(2, 2))
		if covered || ref.k >= 0 {
			t.Fatalf("alu=%v: a key never stored: covered %v, index %d", alu, covered, ref.k)
		}
		r0, _ := views[0].coverExact(other, box(5, 5))
		if _, ok := views[0].insertAt(r0, box(5, 5), noNode, -1); !ok {
			t.Fatalf("alu=%v: worker 0's zone was not stored", alu)
		}
		if _, ok := views[1].insertAt(ref, box(2, 2), noNode, -1); ok {
			t.Fatalf("alu=%v: a zone covered by one stored since the covered test was stored", alu)
		}
		if st, disc, _ := s.counts(); st != 2 || disc != 2 {
			t.Fatalf("alu=%v: %d stored under %d keys, want 2 and 2", alu, st, disc)
		}
	}
}

// TestKeyHeadStartsEmptyInReusedBytes checks the head word that a node
// store keeps before each discrete part (keyHead): a key stored in the
// bytes of an evicted zone (handed back by release, reused by alloc for an
// entry of the same length) starts with an empty chain, not with the
// zone's first constraint read as a node index.
func TestKeyHeadStartsEmptyInReusedBytes(t *testing.T) {
	s := newNodeStore(16, 0, 0)
	key := []byte("8 bytes!")
	first := s.addKey(key)
	*s.keyHead(first) = 7
	_, r := s.newRec()
	w, b := s.alloc(4 + len(key))
	for i := range b {
		b[i] = 0xff
	}
	r.zone = w
	r.flags = uint32(len(b)) << zoneLenShift
	s.release(r)
	k := s.addKey([]byte("another!"))
	if s.reused == 0 {
		t.Fatal("the key did not reuse the released zone's bytes: the test shows nothing")
	}
	if h := *s.keyHead(k); h != 0 {
		t.Fatalf("a key in reused bytes has head %#x, want 0", h)
	}
	if string(s.key(k)) != "another!" || string(s.key(first)) != string(key) || *s.keyHead(first) != 7 {
		t.Fatalf("keys read back %q (head %d) and %q", s.key(first), *s.keyHead(first), s.key(k))
	}
}

// TestOwnZonesKeepEachNodesZone checks a parallel worker's own cache of
// decoded zones and clocks' ranges (ownZones): nodes of the same index in
// two shards, or in two lists' shards of the same number, and more nodes
// than the cache has entries, each get their own zone and ranges back,
// whether from the cache or decoded again.
func TestOwnZonesKeepEachNodesZone(t *testing.T) {
	const dim = 4
	s := newSharedPassed(dim, Options{}, 2, true)
	// the first shard of another list: the same shard number, the same
	// entries, other zones
	lists := []*passedList{&s.shards[0].p, &s.shards[1].p, &newSharedPassed(dim, Options{}, 2, true).shards[0].p}
	c := newOwnZones(dim)
	n := int(c.mask+1) * 3
	codec := newZoneCodec(dim, false)
	zoneOf := func(shard, i int) (dbm.DBM, storedZone) {
		z := dbm.New(dim)
		z.Init()
		z.Constrain(1, 0, dbm.LE(int32(1+i%50)))
		z.Constrain(0, 2, dbm.LE(int32(-(shard + i%7))))
		z.Constrain(3, 1, dbm.LT(int32(2+i%11)))
		b, w, minimal := codec.encode(z)
		return z, storedZone{b: append([]byte(nil), b...), width: w, minimal: minimal}
	}
	for round := range 2 {
		for i := range n {
			for shard, p := range lists {
				z, sz := zoneOf(shard, i)
				if got := c.get(p, sz, uint32(i)); !got.Equal(z) {
					t.Fatalf("round %d: node %d of shard %d: the cache gave another zone", round, i, shard)
				}
				row0, col0, ok := c.ranges(p, uint32(i))
				if !ok {
					row0, col0 = c.claimRanges(p, uint32(i))
					copy(row0, z.M[:dim])
					for k := range col0 {
						col0[k] = z.M[k*dim]
					}
				}
				for k := range dim {
					if row0[k] != z.M[k] || col0[k] != z.M[k*dim] {
						t.Fatalf("round %d: node %d of shard %d: the ranges are another zone's", round, i, shard)
					}
				}
			}
		}
	}
}

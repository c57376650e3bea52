package zone

import (
	"math/rand/v2"
	"testing"

	"github.com/tcheck/tcheck/dbm"
	"github.com/tcheck/tcheck/model"
)

// smallZone returns a random closed non-empty zone with constants in
// [0, k] (strict and non-strict bounds, diagonals, unbounded clocks).
func smallZone(rng *rand.Rand, dim int, k int) dbm.DBM {
	for {
		d := dbm.New(dim)
		if rng.IntN(3) == 0 {
			d.Zero()
			d.Up()
		}
		ok := true
		for range rng.IntN(2 * dim) {
			i, j := rng.IntN(dim), rng.IntN(dim)
			if i == j {
				continue
			}
			c := int32(rng.IntN(k + 1))
			if i == 0 {
				c = -c // a lower bound on x_j
			} else if j != 0 && rng.IntN(2) == 0 {
				c = -c
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

// randomLU returns random LU bounds in [0, k] or NoBound.
func randomLU(rng *rand.Rand, dim, k int) (l, u []int32) {
	l, u = make([]int32, dim), make([]int32, dim)
	for x := 1; x < dim; x++ {
		l[x], u[x] = dbm.NoBound, dbm.NoBound
		if rng.IntN(4) != 0 {
			l[x] = int32(rng.IntN(k + 1))
		}
		if rng.IntN(4) != 0 {
			u[x] = int32(rng.IntN(k + 1))
		}
	}
	return l, u
}

// simulated reports whether the valuation num/den is LU-simulated by some
// valuation of zp (the definition, LICS 2012 Def. 2): v ≼LU v' iff for
// every clock x, v'(x) < v(x) implies v'(x) > L(x) and v'(x) > v(x)
// implies v(x) > U(x). The v' allowed for each clock form an interval, so
// the question is whether zp meets a box; everything is scaled by den to
// stay in integer bounds.
func simulated(zp dbm.DBM, l, u []int32, num []int64, den int64) bool {
	n := zp.Dim
	d := dbm.New(n)
	for i, b := range zp.M {
		if b != dbm.LTInf {
			c := int32(int64(b.Const()) * den)
			if b.Strict() {
				d.M[i] = dbm.LT(c)
			} else {
				d.M[i] = dbm.LE(c)
			}
		}
	}
	if !d.Close() {
		return false
	}
	for x := 1; x < n; x++ {
		v := int32(num[x])
		// lower end: below v only above L(x)
		lo := dbm.LE(-v) // v'(x) ≥ v
		if l[x] < 0 {
			lo = dbm.LEZero
		} else if int64(l[x])*den < int64(v) {
			lo = dbm.LT(-int32(int64(l[x]) * den)) // v'(x) > L(x)
		}
		if !d.Constrain(0, x, lo) {
			return false
		}
		// upper end: above v only when v > U(x)
		if u[x] >= 0 && int64(v) <= int64(u[x])*den {
			if !d.Constrain(x, 0, dbm.LE(v)) {
				return false
			}
		}
	}
	return true
}

// aluByPoints decides z ⊆ aLU(zp) by the definition: every point of z on
// the lattice (1/dim)ℤ up to the largest constant + 2 is LU-simulated by a
// point of zp. aLU(zp) is a union of regions for the constant
// max(L, U), z \ aLU(zp) one of regions for the largest constant of all,
// and that lattice meets every such region.
func aluByPoints(z, zp dbm.DBM, l, u []int32) bool {
	n := z.Dim
	var k int32
	for _, m := range [][]dbm.Bound{z.M, zp.M} {
		for _, b := range m {
			if b != dbm.LTInf {
				k = max(k, b.Const(), -b.Const())
			}
		}
	}
	for x := 1; x < n; x++ {
		k = max(k, l[x], u[x])
	}
	den := int64(n)
	top := (int64(k) + 2) * den
	num := make([]int64, n)
	var rec func(x int) bool
	rec = func(x int) bool {
		if x == n {
			return !z.Contains(num, den) || simulated(zp, l, u, num, den)
		}
		for v := int64(0); v <= top; v++ {
			num[x] = v
			if !rec(x + 1) {
				return false
			}
		}
		return true
	}
	return rec(1)
}

// TestALUSubsetEqAgainstPoints checks aluSubsetEq (the LICS 2012 test on
// closed DBMs) against the definition by LU-simulation of points, on small
// random zones of 2 and 3 clocks, and checks that the rule-outs read from
// a minimal constraint set and the passed list's tests agree with it.
func TestALUSubsetEqAgainstPoints(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 4))
	for _, tc := range []struct {
		dim, k, cases int
	}{{2, 3, 300}, {3, 3, 400}, {4, 2, 40}} {
		var yes, no, notIncl int
		for range tc.cases {
			z, zp := smallZone(rng, tc.dim, tc.k), smallZone(rng, tc.dim, tc.k)
			if rng.IntN(2) == 0 {
				// a zone near zp: tighten it a little
				z = zp.Clone()
				i, j := rng.IntN(tc.dim), rng.IntN(tc.dim)
				if i != j && z.At(i, j) != dbm.LTInf && z.At(i, j) > dbm.LT(-int32(tc.k)) {
					if !z.Constrain(i, j, z.At(i, j)-1) {
						z = zp.Clone()
					}
				}
				z, zp = zp, z // sometimes larger, sometimes equal
				if rng.IntN(2) == 0 {
					z, zp = zp, z
				}
			}
			l, u := randomLU(rng, tc.dim, tc.k)
			got := aluSubsetEq(z.M, zp.M, tc.dim, l, u)
			want := aluByPoints(z, zp, l, u)
			if got != want {
				t.Fatalf("z = %v, z' = %v, L = %v, U = %v: aluSubsetEq %v, by points %v", z, zp, l, u, got, want)
			}
			if got {
				yes++
				if !z.SubsetEq(zp) {
					notIncl++
				}
			} else {
				no++
			}
			if z.SubsetEq(zp) && !got {
				t.Fatalf("z ⊆ z' but not z ⊆ aLU(z'): %v, %v", z, zp)
			}
			// the passed list's tests, full and minimal
			for _, full := range []bool{true, false} {
				p := newPassedList(tc.dim, full, false)
				p.useALU(l, u)
				id, _ := p.insert([]byte("k"), zp, noNode, -1)
				nd, ni := p.zoneOf(id)
				if p.aluCovers(z, nd, ni) != got {
					t.Fatalf("full=%v: aluCovers(%v, stored %v) = %v, want %v", full, z, zp, !got, got)
				}
				if !full && minimalNotCovered(z.M, tc.dim, nd.b, nd.width, l, u) && got {
					t.Fatalf("minimalNotCovered wrong for %v, %v", z, zp)
				}
				ev := aluSubsetEq(zp.M, z.M, tc.dim, l, u)
				if p.aluEvicts(nd, ni, z) != ev {
					t.Fatalf("full=%v: aluEvicts(stored %v, %v) = %v, want %v", full, zp, z, !ev, ev)
				}
				if !full && minimalNotEvicted(nd.b, nd.width, z.M, tc.dim, l, u, p.sc.row0) && ev {
					t.Fatalf("minimalNotEvicted wrong for %v, %v", zp, z)
				}
				if !full {
					// the ranges stored with zp, and those computed
					// where the cache has lost them
					row0, col0, ok := p.ranges.slot(ni)
					if !ok {
						t.Fatalf("no ranges cached for the zone just stored")
					}
					if rangesNotEvicted(nd.b, nd.width, z.M, tc.dim, l, u, row0, col0) && ev {
						t.Fatalf("rangesNotEvicted wrong for %v, %v", zp, z)
					}
					p.ranges = newRangeCache(tc.dim, rangeCacheBytes)
					if p.aluEvicts(nd, ni, z) != ev {
						t.Fatalf("without cached ranges: aluEvicts(stored %v, %v) = %v, want %v", zp, z, !ev, ev)
					}
				}
			}
		}
		if yes == 0 || no == 0 || notIncl == 0 {
			t.Fatalf("dim %d: weak sample: %d included in aLU (%d of them not in the zone), %d not", tc.dim, yes, notIncl, no)
		}
		t.Logf("dim %d: %d ⊆ aLU (%d beyond inclusion), %d not", tc.dim, yes, notIncl, no)
	}
}

// TestSubsumptionNames checks the names round trip.
func TestSubsumptionNames(t *testing.T) {
	for _, s := range []Subsumption{Inclusion, ALU} {
		got, err := ParseSubsumption(s.String())
		if err != nil || got != s {
			t.Fatalf("%v: parsed %v, %v", s, got, err)
		}
	}
	if _, err := ParseSubsumption("lu"); err == nil {
		t.Fatal("parsed an unknown name")
	}
}

// TestClockRangesOfMinimalZones checks clockRanges, the shortest paths of
// a minimal constraint set from and to the reference clock, against row 0
// and column 0 of the closed zone it was made from, on random zones of 2
// to 12 clocks (larger ones take Bellman-Ford several rounds), and that
// the range cache is filled with them when a zone is stored under aLU.
func TestClockRangesOfMinimalZones(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 21))
	larger := 0
	for dim := 3; dim <= 13; dim++ {
		for range 200 {
			z := smallZone(rng, dim, 6)
			l, u := randomLU(rng, dim, 6)
			p := newPassedList(dim, false, false)
			p.useALU(l, u)
			id, _ := p.insert([]byte("k"), z, noNode, -1)
			nd, ni := p.zoneOf(id)
			if !nd.minimal {
				t.Fatalf("dim %d: the zone was stored whole, not minimal", dim)
			}
			row0, col0 := make([]dbm.Bound, dim), make([]dbm.Bound, dim)
			clockRanges(nd.b, nd.width, row0, col0)
			cached0, cachedCol, ok := p.ranges.slot(ni)
			for x := range dim {
				if row0[x] != z.At(0, x) || col0[x] != z.At(x, 0) {
					t.Fatalf("dim %d, zone %v: clock %d: ranges (%v, %v), closed zone (%v, %v)", dim, z, x, row0[x], col0[x], z.At(0, x), z.At(x, 0))
				}
				if !ok || cached0[x] != row0[x] || cachedCol[x] != col0[x] {
					t.Fatalf("dim %d, zone %v: the cached ranges differ (present %v)", dim, z, ok)
				}
			}
			if len(nd.b) > 2*(2+int(nd.width)) {
				larger++
			}
		}
	}
	if larger == 0 {
		t.Fatal("weak sample: no zone had more than two minimal constraints")
	}
}

// nextALUEviction counts one more eviction test of p, as insertUncovered
// does, and reports whether it is tried under aLU.
func nextALUEviction(p *passedList) bool {
	p.aluTries++
	return p.tryALUEviction(p.aluTries)
}

// TestALUEvictionTriedWhilePaying checks the schedule of tryALUEviction:
// every test during the warm-up, then one in aluSample while fewer than
// one in aluMinRate evicted, and every test again once the rate is back.
func TestALUEvictionTriedWhilePaying(t *testing.T) {
	p := newPassedList(3, false, false)
	tried := func(n int) (k int) {
		for range n {
			if nextALUEviction(p) {
				k++
			}
		}
		return k
	}
	if k := tried(aluWarmup - 1); k != aluWarmup-1 {
		t.Fatalf("warm-up: %d of %d tried", k, aluWarmup-1)
	}
	if k := tried(16 * aluSample); k != 16 {
		t.Fatalf("no eviction after the warm-up: %d of %d tried, want 16", k, 16*aluSample)
	}
	// evictions at the minimal rate: every test again
	p.aluHits = p.aluTries / aluMinRate
	if p.aluHits*aluMinRate < p.aluTries {
		p.aluHits++
	}
	if k := tried(1); k != 1 {
		t.Fatalf("at the minimal rate the test was skipped")
	}
}

// TestALUWarmupSharedByShards checks that the shards of a parallel
// search's passed list warm up for aluWarmup full tests together, as one
// sequential list does: with the whole warm-up each, 256 shards (16
// workers) could make 2.56 M full aLU tests before any judged its rate,
// and decoding the stored zones for them took 8 % of Fischer N = 11's
// CPU at 16 workers.
func TestALUWarmupSharedByShards(t *testing.T) {
	for _, workers := range []int{1, 2, 3, 16} {
		s := newSharedPassed(3, Options{}, workers, true)
		full := 0
		for i := range s.shards {
			p := &s.shards[i].p
			// a shard that never evicts beyond inclusion: count the full
			// tests until it first samples
			for nextALUEviction(p) {
				full++
			}
		}
		n := len(s.shards)
		if full < aluWarmup-2*n || full > aluWarmup {
			t.Errorf("%d workers, %d shards: %d full aLU tests in the warm-up, want about %d", workers, n, full, aluWarmup)
		}
	}
}

// TestALUEvictionSamplingKeepsStates runs FDDI N = 9 under breadth first,
// where aLU tests evict almost nothing and the list soon tests only one
// zone in aluSample, and checks that the discrete states stored and the
// states explored are those of inclusion (the skipped tests change only
// which zones stay stored).
func TestALUEvictionSamplingKeepsStates(t *testing.T) {
	_, net, err := model.Load("../testdata/fddi.yaml", map[string]int64{"N": 9})
	if err != nil {
		t.Fatal(err)
	}
	sys := NewSystem(net)
	visit := func(*Visit) bool { return false }
	opts := Options{Extrapolation: Extrapolation{Local: true}}
	inc := Search(sys, opts, visit)
	opts.Subsumption = ALU
	alu := Search(sys, opts, visit)
	if inc.Reason != Completed || alu.Reason != Completed || inc.Discrete != alu.Discrete || inc.Explored != alu.Explored {
		t.Fatalf("inclusion: %v, %d discrete, %d explored; aLU: %v, %d discrete, %d explored", inc.Reason, inc.Discrete, inc.Explored, alu.Reason, alu.Discrete, alu.Explored)
	}
}

package zone

import (
	"fmt"

	"github.com/tcheck/tcheck/dbm"
)

// Subsumption selects when a new zone is covered by a stored one of the
// same discrete part (and when a stored one is evicted by a new one).
type Subsumption int

const (
	// Inclusion covers Z by Z' when Z ⊆ Z' (the default).
	Inclusion Subsumption = iota
	// ALU covers Z by Z' when Z ⊆ aLU(Z'), the abstraction by
	// LU-simulation with the LU bounds of the discrete part's location
	// vector (Herbreteau, Srivathsan, Walukiewicz, "Better abstractions for
	// timed automata", LICS 2012; TChecker's aLU-covreach). aLU(Z') ⊇ Z' and
	// is the coarsest abstraction sound for reachability given those
	// bounds, so fewer zones are stored. It preserves the reachability of
	// locations, data and clock constraints whose constants are in the
	// bounds, not deadlocks; see ResolveSubsumption for where it is used.
	ALU
)

var subsumptionNames = [...]string{"inclusion", "alu"}

func (s Subsumption) String() string {
	if s >= 0 && int(s) < len(subsumptionNames) {
		return subsumptionNames[s]
	}
	return fmt.Sprintf("Subsumption(%d)", int(s))
}

// ParseSubsumption parses a subsumption name as printed by String.
func ParseSubsumption(s string) (Subsumption, error) {
	for i, n := range subsumptionNames {
		if n == s {
			return Subsumption(i), nil
		}
	}
	return 0, fmt.Errorf("unknown subsumption %q (want inclusion or alu)", s)
}

// ResolveSubsumption returns the subsumption a search of sys with opts
// uses: opts.Subsumption, except that ALU falls back to Inclusion (with the
// reason) where it is unsound or unwanted:
//
//   - with Hull (one zone per discrete part; no subsumption to choose);
//   - with an extrapolation kind other than Extra_LU / Extra_LU+: Extra_M
//     and Extra_M+ are what deadlock asks for, and aLU does not preserve
//     deadlocks (aLU with L = U = M would be aM, which does not either: a
//     zone covered by a larger one may be the only one with a deadlocked
//     valuation); with no extrapolation the bounds are not computed;
//   - with diagonal constraints (the model's or the extrapolation's): LU
//     simulation is unsound with diagonals (Bouyer, "Forward analysis of
//     updatable timed automata", 2004);
//   - with stopwatches: the explored zones already over-approximate, and
//     aLU's argument (LU simulation of the exact zone graph) is made for
//     clocks that all advance together; tcheck does not rely on it there.
func ResolveSubsumption(sys *System, opts Options) (Subsumption, string) {
	if opts.Subsumption != ALU {
		return Inclusion, ""
	}
	switch {
	case opts.Hull:
		return Inclusion, "convex hull"
	case opts.Extrapolation.Kind != ExtraLU && opts.Extrapolation.Kind != ExtraLUPlus:
		return Inclusion, fmt.Sprintf("extrapolation %s", opts.Extrapolation.Kind)
	case len(opts.Extrapolation.Diagonals) > 0 || sys != nil && len(sys.Net.Diagonals) > 0:
		return Inclusion, "diagonal constraints"
	case sys != nil && sys.Net.Stopwatches:
		return Inclusion, "stopwatches"
	}
	return ALU, ""
}

// describeSubsumption is the suffix of Result.Extrapolation for the
// subsumption used (nothing for plain inclusion when it was asked for).
func describeSubsumption(used Subsumption, refused string) string {
	switch {
	case used == ALU:
		return ", aLU subsumption"
	case refused != "":
		return ", inclusion (aLU refused: " + refused + ")"
	}
	return ""
}

// aluSubsetEq reports whether z ⊆ aLU(zp), for closed non-empty DBMs z and
// zp of dimension n and LU bounds l, u (l[0] = u[0] = 0; a negative entry,
// dbm.NoBound, is −∞: the clock is never compared that way).
//
// Contract: Herbreteau, Srivathsan and Walukiewicz, "Better abstractions
// for timed automata" (LICS 2012), Theorem 3 (in the form of TChecker's
// dbm::is_alu_le): z ⊄ aLU(zp) iff there are clocks x ≠ y (the reference
// clock 0 included) with
//
//	z[0][x] ≥ (≤ −U(x))  and  zp[y][x] < z[y][x]  and  zp[y][x] + (< −L(y)) < z[0][x]
//
// where U(x) = −∞ or L(y) = −∞ rules the pair out. O(n²), no allocation.
// Tested against the definition by LU-simulation of points
// (TestALUSubsetEqAgainstPoints).
func aluSubsetEq(z, zp []dbm.Bound, n int, l, u []int32) bool {
	for x := 0; x < n; x++ {
		if u[x] < 0 {
			continue
		}
		z0x := z[x]
		if z0x < dbm.LE(-u[x]) {
			continue
		}
		for y := 0; y < n; y++ {
			if y == x || l[y] < 0 {
				continue
			}
			b := zp[y*n+x]
			if b >= z[y*n+x] {
				continue
			}
			if b.Add(dbm.LT(-l[y])) < z0x {
				return false
			}
		}
	}
	return true
}

// minimalNotCovered reports whether one of the constraints of the minimal
// set s (entries of the stored closed zone Z') is a witness pair (y, x) of
// z ⊄ aLU(Z') (see aluSubsetEq). False says nothing: the witness may be an
// implied entry.
func minimalNotCovered(z []dbm.Bound, n int, s []byte, w uint8, l, u []int32) bool {
	step := 2 + int(w)
	for k := 0; k+step <= len(s); k += step {
		r := s[k : k+step]
		y, x := int(r[0]), int(r[1])
		if u[x] < 0 || l[y] < 0 {
			continue
		}
		z0x := z[x]
		if z0x < dbm.LE(-u[x]) {
			continue
		}
		b := minimalBound(r, w)
		if b < z[y*n+x] && b.Add(dbm.LT(-l[y])) < z0x {
			return true
		}
	}
	return false
}

// minimalNotEvicted reports whether a witness of Z' ⊄ aLU(z) can be read
// off the minimal set s of Z' alone: a pair (y, x) whose entry Z'[y][x] is
// stored and whose Z'[0][x] is known (x = 0, or stored). row0 is scratch of
// length n. False says nothing.
func minimalNotEvicted(s []byte, w uint8, z []dbm.Bound, n int, l, u []int32, row0 []dbm.Bound) bool {
	step := 2 + int(w)
	for i := range row0 {
		row0[i] = dbm.LTInf // unknown: a real row-0 entry is ≤ (≤ 0)
	}
	row0[0] = dbm.LEZero
	for k := 0; k+step <= len(s); k += step {
		if r := s[k : k+step]; r[0] == 0 {
			row0[r[1]] = minimalBound(r, w)
		}
	}
	for k := 0; k+step <= len(s); k += step {
		r := s[k : k+step]
		y, x := int(r[0]), int(r[1])
		p0x := row0[x]
		if p0x == dbm.LTInf || u[x] < 0 || l[y] < 0 || p0x < dbm.LE(-u[x]) {
			continue
		}
		zyx := z[y*n+x]
		if zyx < minimalBound(r, w) && zyx.Add(dbm.LT(-l[y])) < p0x {
			return true
		}
	}
	return false
}

// aluCovers reports whether z ⊆ aLU(sz) (the zone of the node at index
// i) under the bounds l, u of the key's location vector. Plain inclusion,
// read from the stored constraints, is tried first; a witness among the
// stored constraints rules coverage out without decoding a minimal zone.
func (p *passedList) aluCovers(z dbm.DBM, sz storedZone, i uint32) bool {
	return p.aluCoversIn(z, sz, i, p.sc, true)
}

// aluCoversIn is aluCovers with the bounds and matrix of scratch sc, and
// the list's cache of decoded zones only where cached is set (a reader
// without the shard's lock may not use it: coveredShared).
func (p *passedList) aluCoversIn(z dbm.DBM, sz storedZone, i uint32, sc *passedScratch, cached bool) bool {
	if sz.includes(z) {
		return true
	}
	if sz.minimal && minimalNotCovered(z.M, z.Dim, sz.b, sz.width, sc.l, sc.u) {
		return false
	}
	return aluSubsetEq(z.M, p.loadZoneIn(sz, i, sc, cached).M, z.Dim, sc.l, sc.u)
}

// aluEvicts reports whether sz (the zone of the node at index i) ⊆ aLU(z)
// (which holds when it is included in z). A minimal stored zone is
// decoded only when neither its stored constraints nor its clocks' ranges
// (rangeCache; computed where they are missing and the constraints alone
// settle nothing) rule eviction out.
func (p *passedList) aluEvicts(sz storedZone, i uint32, z dbm.DBM) bool {
	return p.aluEvictsIn(sz, i, z, p.sc, true)
}

// aluEvictsIn is aluEvicts with the bounds and matrices of scratch sc,
// and the list's caches of clock ranges and decoded zones only where
// cached is set (a reader without the shard's lock may not use them:
// evictedShared); without them the ranges are computed into sc, or into
// a parallel worker's own cache (sc.own).
func (p *passedList) aluEvictsIn(sz storedZone, i uint32, z dbm.DBM, sc *passedScratch, cached bool) bool {
	if sz.minimal {
		var row0, col0 []dbm.Bound
		ok := false
		if cached {
			row0, col0, ok = p.ranges.slot(i)
		} else if sc.own != nil {
			row0, col0, ok = sc.own.ranges(p, i)
		}
		if !ok {
			if minimalNotEvicted(sz.b, sz.width, z.M, z.Dim, sc.l, sc.u, sc.row0) {
				return false
			}
			switch {
			case cached:
				row0, col0 = p.ranges.claim(i)
			case sc.own != nil:
				row0, col0 = sc.own.claimRanges(p, i)
			default:
				row0, col0 = sc.row0, sc.dist
			}
			clockRanges(sz.b, sz.width, row0, col0)
		}
		if rangesNotEvicted(sz.b, sz.width, z.M, z.Dim, sc.l, sc.u, row0, col0) {
			return false
		}
	}
	return aluSubsetEq(p.loadZoneIn(sz, i, sc, cached).M, z.M, z.Dim, sc.l, sc.u)
}

// A stored zone is tested for aLU eviction while such tests pay: after
// aluWarmup of them, a list where fewer than one in aluMinRate evicted a
// zone that inclusion would not have tests one in aluSample with aLU and
// the others for inclusion only (so it keeps measuring, and resumes when
// the rate comes back). Eviction is an economy, never needed for a
// verdict: a zone not evicted stays stored, covers as before, and is
// expanded if it still waits. Under breadth first FDDI N = 12 made 7.2 M
// aLU eviction tests for 102 such evictions, most against zones still
// waiting (about 180 per discrete part), and aLU took 1.7 times as long
// as inclusion; CorSSO N = 4 evicts one zone in 41 tests that way, and
// without those evictions explores 3 times as many states. The counters
// are the list's (a parallel search's shard's), so a sequential search
// stays deterministic. A shard warms up for its share of aluWarmup, so
// that the shards together make the warm-up of one list: with the whole
// of it each, 16 workers' 256 shards could make 2.56 M full tests before
// judging, and on Fischer N = 11 the stored zones decoded for them took
// 3.4 s of the 42 s of CPU at 16 workers, against 0.13 s of 24 s at one
// (docs/results.md, "16 cores at f515afb, and the aLU warm-up shared by
// the shards").
const (
	aluWarmup  = 10000
	aluMinRate = 1000
	aluSample  = 16
)

// aluSampling is a parallel worker's own schedule of aLU eviction tests,
// for those it makes without a shard's lock (evictedShared): the one of
// tryALUEviction, over the worker's tests instead of a list's.
type aluSampling struct {
	tries, hits int64
}

// try counts an eviction test and reports whether it is made with aLU.
func (a *aluSampling) try() bool {
	a.tries++
	return aluTried(a.tries, a.hits, aluWarmup)
}

// aluTried reports whether the tries-th eviction test, after hits aLU
// evictions that inclusion would not have made, is made with aLU, for a
// warm-up of warmup tests (the schedule above).
func aluTried(tries, hits, warmup int64) bool {
	if tries < warmup || hits*aluMinRate >= tries {
		return true
	}
	return tries%aluSample == 0
}

// tryALUEviction reports whether to test the next stored zone for aLU
// eviction (else for inclusion only), the list's tries-th such test
// (insertUncovered counts them).
func (p *passedList) tryALUEviction(tries int64) bool {
	return aluTried(tries, p.aluHits, p.aluWarmup)
}

package dbm

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// stoppedDelayIn is the reference membership of the exact stopwatch delay:
// p − δ·r ∈ d for some δ ≥ 0, r_i = 0 for a stopped clock and 1 for a
// running one, solved exactly as an interval of δ from the constraints of
// d (no DBM operation involved).
func stoppedDelayIn(d DBM, stopped []bool, p point) bool {
	iv := interval{lo: 0}
	rate := func(i int) int64 {
		if i == 0 || stopped[i] {
			return 0
		}
		return 1
	}
	for _, c := range constraintsOf(d) {
		// (p_i − p_j) − δ·(r_i − r_j) ≺ C
		diff := p.num[c.I] - p.num[c.J]
		C := int64(c.B.Const()) * p.den
		s := c.B.Strict()
		switch rate(c.I) - rate(c.J) {
		case 0:
			if !p.satisfies(c) {
				return false
			}
		case 1: // δ ≻ diff − C
			iv.atLeast(diff-C, s)
		case -1: // δ ≺ C − diff
			iv.atMost(C-diff, s)
		}
	}
	for x := 1; x < len(p.num); x++ {
		if rate(x) == 1 { // p_x − δ ≥ 0
			iv.atMost(p.num[x], false)
		} else if p.num[x] < 0 {
			return false
		}
	}
	return iv.nonEmpty()
}

func randStopped(rng *rand.Rand, dim int) []bool {
	s := make([]bool, dim)
	for i := 1; i < dim; i++ {
		s[i] = rng.IntN(2) == 0
	}
	return s
}

// TestUpStoppedContainsEveryStopwatchDelay proves UpStopped sound and
// tight against the exact stopwatch delay on random zones and stopped
// sets: every point of the exact delay (by the interval reference, and
// every sampled point of Z delayed along r) is in the result; every finite
// bound of the result is Z's own (the supremum over the delay is reached
// at δ = 0: it is not looser than needed), and every bound the delay freed is exceeded by
// a delayed point far beyond the zone's constants (it had to be freed).
func TestUpStoppedContainsEveryStopwatchDelay(t *testing.T) {
	rng := newRand(41)
	for seed := 0; seed < testSeeds; seed++ {
		dim := genDim(rng, testMaxDim)
		z := genDBM(rng, dim, testMaxConst)
		stopped := randStopped(rng, dim)
		u := z.Clone()
		u.UpStopped(stopped)
		if !u.IsValid() {
			t.Fatalf("UpStopped result invalid:\n%s", u.Matrix())
		}
		closed := u.Clone()
		closed.Close()
		if !closed.Equal(u) {
			t.Fatalf("UpStopped result not closed:\n%s", u.Matrix())
		}
		// delayed: sampled points of Z moved along r, over a common
		// denominator (δ ∈ {0, 1/4, 1, 3, 100}).
		var delayed []point
		for _, p := range samplePoints(rng, dim, testMaxConst, 50, z, u) {
			if got, want := u.Contains(p.num, p.den), stoppedDelayIn(z, stopped, p); want && !got {
				t.Fatalf("UpStopped(%v): exact delay point %v missing\nZ:\n%s\nresult:\n%s", stopped, p, z.Matrix(), u.Matrix())
			}
			if !naiveIn(z, p) {
				continue
			}
			for _, delta := range []int64{0, 1, 4, 12, 400} {
				q := point{num: slices.Clone(p.num), den: p.den * 4}
				for x := 1; x < dim; x++ {
					q.num[x] = p.num[x] * 4
					if !stopped[x] {
						q.num[x] += delta * p.den
					}
				}
				if !u.Contains(q.num, q.den) {
					t.Fatalf("UpStopped(%v): %v delayed by %d/4 = %v missing", stopped, p, delta, q)
				}
				delayed = append(delayed, q)
			}
		}
		if len(delayed) == 0 {
			continue
		}
		for i := 0; i < dim; i++ {
			for j := 0; j < dim; j++ {
				if i == j {
					continue
				}
				// sup of 2·den·(x_i − x_j)/den over the delayed points, as a
				// rational compared by cross multiplication
				best := delayed[0]
				for _, q := range delayed[1:] {
					if (q.num[i]-q.num[j])*best.den > (best.num[i]-best.num[j])*q.den {
						best = q
					}
				}
				b := u.M[i*dim+j]
				if b == LTInf {
					if z.M[i*dim+j] == LTInf {
						continue // unbounded in Z already
					}
					// freed by the delay: some delayed point must go far
					// beyond every constant
					if (best.num[i] - best.num[j]) <= int64(4*testMaxConst+50)*best.den {
						t.Fatalf("UpStopped(%v): bound (%d,%d) freed but no delayed point exceeds %d (best %v)\nZ:\n%s", stopped, i, j, 4*testMaxConst+50, best, z.Matrix())
					}
					continue
				}
				// A finite bound cannot be tighter than Z's (δ = 0 keeps Z,
				// and soundness is checked above); it must not be looser
				// (Z is closed, so its bound is the supremum over Z, and
				// only differences that grow along r exceed it).
				if b != z.M[i*dim+j] {
					t.Fatalf("UpStopped(%v): bound (%d,%d) = %v, Z's is %v\nZ:\n%s\nresult:\n%s", stopped, i, j, b, z.M[i*dim+j], z.Matrix(), u.Matrix())
				}
			}
		}
	}
}

// TestUpStoppedCornerCases: with no clock stopped UpStopped is Up; with
// every clock stopped it changes nothing.
func TestUpStoppedCornerCases(t *testing.T) {
	rng := newRand(42)
	for seed := 0; seed < testSeeds; seed++ {
		dim := genDim(rng, testMaxDim)
		z := genDBM(rng, dim, testMaxConst)
		none, all := make([]bool, dim), make([]bool, dim)
		for i := 1; i < dim; i++ {
			all[i] = true
		}
		u, w := z.Clone(), z.Clone()
		u.UpStopped(none)
		w.Up()
		if !u.Equal(w) {
			t.Fatalf("UpStopped(none) differs from Up:\n%s\nvs\n%s", u.Matrix(), w.Matrix())
		}
		u = z.Clone()
		u.UpStopped(all)
		if !u.Equal(z) {
			t.Fatalf("UpStopped(all) changed the zone:\n%s\nvs\n%s", u.Matrix(), z.Matrix())
		}
	}
}

// TestUpStoppedOverApproximates pins the example of the contract: Z = {x =
// 0, 0 ≤ y ≤ z ≤ 1} with y stopped. Every delayed point has z − x ≥ y,
// which no zone can say; UpStopped contains (x, y, z) = (1, 1, 1), which no
// delay reaches (z − x = 0 < y = 1), and the reference agrees.
func TestUpStoppedOverApproximates(t *testing.T) {
	z := zoneOf(t, 4, le(1, 0, 0), le(2, 3, 0), le(3, 0, 1))
	stopped := []bool{false, false, true, false}
	u := z.Clone()
	u.UpStopped(stopped)
	p := point{num: []int64{0, 1, 1, 1}, den: 1}
	if !u.Contains(p.num, p.den) {
		t.Fatalf("UpStopped lost %v:\n%s", p, u.Matrix())
	}
	if stoppedDelayIn(z, stopped, p) {
		t.Fatalf("the reference delays Z to %v", p)
	}
	q := point{num: []int64{0, 2, 1, 3}, den: 1} // (0,1,1) + 2·(1,0,1)
	if !stoppedDelayIn(z, stopped, q) || !u.Contains(q.num, q.den) {
		t.Fatalf("%v must be a delay of Z and in the result", q)
	}
}

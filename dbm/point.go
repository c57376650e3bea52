package dbm

import (
	"fmt"
)

// Contains reports whether the valuation with clock i = num[i]/den belongs
// to d, checking every entry of the matrix as a constraint: num[i] −
// num[j] ≺ c_ij·den. Values are rational so that points strictly inside
// strict bounds (x > 1 ∧ x < 2) can be represented.
//
// Precondition: len(num) == d.Dim, num[0] == 0, den > 0 (checked); |num[i]|
// and |c·den| below 2^62 (not checked).
// Postcondition: d is unchanged.
func (d DBM) Contains(num []int64, den int64) bool {
	n := d.Dim
	if len(num) != n || den <= 0 || num[0] != 0 {
		panic(fmt.Sprintf("dbm: Contains: want %d values with num[0] = 0 and den > 0, got %v / %d", n, num, den))
	}
	if d.IsEmpty() {
		return false
	}
	m := d.M
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			b := m[i*n+j]
			if b == LTInf {
				continue
			}
			diff := num[i] - num[j]
			c := int64(b.Const()) * den
			if diff > c || (diff == c && b.Strict()) {
				return false
			}
		}
	}
	return true
}

// Point returns a deterministic valuation of d: clock i has value
// num[i]/den (num[0] = 0), and the fraction is in lowest terms over the
// common denominator. It looks for a point on the lattice (1/den)ℤ for den
// = 1, 2, 4, ...: scaled by den, the zone's strict bounds "< c" become
// "≤ c·den − 1" on integers, a closed integer DBM has an integer point
// whenever it is non-empty, and once den ≥ Dim every non-empty zone meets
// the lattice (a simple cycle has at most Dim strict edges). On the first
// lattice that meets the zone each clock, in index order, takes its
// smallest possible value, so integer zones give integer points and values
// stay small. Used to build concrete counterexample traces.
//
// Precondition: d is closed and non-empty (checked).
// Postcondition: d.Contains(num, den) (checked in debug builds).
func (d DBM) Point() (num []int64, den int64) {
	if d.IsEmpty() {
		panic("dbm: Point of an empty DBM")
	}
	if debug {
		d.check("Point")
	}
	n := d.Dim
	const inf = int64(1) << 62
	t := make([]int64, n*n)
	for den = 1; ; den *= 2 {
		for k, b := range d.M {
			switch {
			case b == LTInf:
				t[k] = inf
			case b.Strict():
				t[k] = int64(b.Const())*den - 1
			default:
				t[k] = int64(b.Const()) * den
			}
		}
		if closeInt(t, n, inf) {
			break
		}
		if den >= int64(2*n) {
			panic(fmt.Sprintf("dbm: Point: no lattice point with denominator %d in a non-empty zone\n%s", den, d.Matrix()))
		}
	}
	num = make([]int64, n)
	for x := 1; x < n; x++ {
		v := -t[x] // smallest value: x ≥ −c_0x
		num[x] = v
		// Fix x = v: x − 0 ≤ v and 0 − x ≤ −v, then restore closure.
		tightenInt(t, n, inf, x, 0, v)
		tightenInt(t, n, inf, 0, x, -v)
	}
	g := uint64(den)
	for _, v := range num {
		g = gcd(g, uint64(abs64(v)))
	}
	if g > 1 {
		for i := range num {
			num[i] /= int64(g)
		}
		den /= int64(g)
	}
	if debug && !d.Contains(num, den) {
		panic(fmt.Sprintf("dbm: Point: %v/%d not in zone\n%s", num, den, d.Matrix()))
	}
	return num, den
}

// closeInt closes an integer DBM (all bounds ≤, inf = no bound) and
// reports whether it is non-empty.
func closeInt(t []int64, n int, inf int64) bool {
	for k := 0; k < n; k++ {
		for i := 0; i < n; i++ {
			tik := t[i*n+k]
			if tik == inf {
				continue
			}
			for j := 0; j < n; j++ {
				tkj := t[k*n+j]
				if tkj == inf {
					continue
				}
				if s := tik + tkj; s < t[i*n+j] {
					t[i*n+j] = s
				}
			}
			if t[i*n+i] < 0 {
				return false
			}
		}
	}
	return true
}

// tightenInt adds x_i − x_j ≤ c to a closed non-empty integer DBM that
// stays non-empty, restoring closure in O(n²).
func tightenInt(t []int64, n int, inf int64, i, j int, c int64) {
	if c >= t[i*n+j] {
		return
	}
	t[i*n+j] = c
	for k := 0; k < n; k++ {
		tki := t[k*n+i]
		if tki == inf {
			continue
		}
		for l := 0; l < n; l++ {
			tjl := t[j*n+l]
			if tjl == inf {
				continue
			}
			if s := tki + c + tjl; s < t[k*n+l] {
				t[k*n+l] = s
			}
		}
	}
}

func gcd(a, b uint64) uint64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

func abs64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

// UpperBound returns entry (x, 0): the bound "x ≺ c" on clock x, LTInf if x
// is unbounded above.
//
// Precondition: 0 ≤ x < d.Dim (checked by the slice index only).
// Postcondition: d is unchanged.
func (d DBM) UpperBound(x int) Bound { return d.M[x*d.Dim] }

// LowerBound returns entry (0, x): the bound "−x ≺ c", that is x ≻ −c
// (x ≥ −c when weak, x > −c when strict).
//
// Precondition: 0 ≤ x < d.Dim (checked by the slice index only).
// Postcondition: d is unchanged.
func (d DBM) LowerBound(x int) Bound { return d.M[x] }

// Sup returns the supremum of clock x over the zone as a bound: "≤ c" when
// the maximum c is attained, "< c" when c is a supremum that is not
// attained, LTInf when x is unbounded. This is exact for a closed DBM and
// is what sup queries report.
//
// Precondition: d is closed and non-empty (checked in debug builds).
// Postcondition: d is unchanged.
func (d DBM) Sup(x int) Bound {
	if debug {
		d.check("Sup")
	}
	return d.M[x*d.Dim]
}

// Inf returns the infimum v of clock x over the zone and whether it is
// excluded (strict: x > v) rather than attained (x ≥ v). Exact for a
// closed DBM.
//
// Precondition: d is closed and non-empty (checked in debug builds).
// Postcondition: d is unchanged.
func (d DBM) Inf(x int) (v int32, strict bool) {
	if debug {
		d.check("Inf")
	}
	b := d.M[x]
	return -b.Const(), b.Strict()
}

// IsUnbounded reports whether some clock has no upper bound in d (the zone
// is unbounded), as after [DBM.Up].
//
// Precondition: d is closed and non-empty (not checked).
// Postcondition: d is unchanged.
func (d DBM) IsUnbounded() bool {
	n := d.Dim
	for i := 1; i < n; i++ {
		if d.M[i*n] == LTInf {
			return true
		}
	}
	return false
}

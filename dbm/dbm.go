package dbm

import (
	"fmt"
	"slices"
)

// DBM is a difference bound matrix of dimension Dim (Dim−1 clocks plus the
// reference clock 0) stored row-major in M: entry (i, j), at M[i*Dim+j], is
// the bound on x_i − x_j. See the package documentation for conventions.
//
// A DBM value is a small header; its methods work in place on the shared
// slice M, so copying a DBM value does not copy the matrix (use
// [DBM.Clone] or [DBM.CopyFrom]).
type DBM struct {
	Dim int
	M   []Bound // len(M) == Dim*Dim
}

// Relation is the result of comparing two zones as sets. Its values are bit
// flags: Equal == Subset|Superset.
type Relation uint8

const (
	// Different means neither zone includes the other.
	Different Relation = 0
	// Subset means the receiver is included in the argument.
	Subset Relation = 1
	// Superset means the receiver includes the argument.
	Superset Relation = 2
	// Equal means both inclusions hold.
	Equal Relation = Subset | Superset
)

// String renders r as "different", "subset", "superset" or "equal".
//
// Precondition: none.
// Postcondition: r is unchanged.
func (r Relation) String() string {
	switch r {
	case Different:
		return "different"
	case Subset:
		return "subset"
	case Superset:
		return "superset"
	case Equal:
		return "equal"
	}
	return fmt.Sprintf("Relation(%d)", uint8(r))
}

// New allocates a DBM of dimension dim (dim−1 clocks) holding the zone of
// all non-negative valuations (see [DBM.Init]).
//
// Precondition: dim ≥ 1 (checked).
// Postcondition: the result is closed and non-empty.
func New(dim int) DBM {
	if dim < 1 {
		panic(fmt.Sprintf("dbm: New(%d): dimension must be at least 1", dim))
	}
	d := DBM{Dim: dim, M: make([]Bound, dim*dim)}
	d.Init()
	return d
}

// Init sets d to the zone of all valuations with non-negative clocks:
// x_i ≥ 0 for every clock, no upper bounds, no difference constraints.
//
// Precondition: len(d.M) == d.Dim*d.Dim (not checked).
// Postcondition: d is closed and non-empty.
func (d DBM) Init() {
	n := d.Dim
	m := d.M
	for i := range m {
		m[i] = LTInf
	}
	for j := 0; j < n; j++ {
		m[j] = LEZero // row 0: 0 − x_j ≤ 0
		m[j*n+j] = LEZero
	}
}

// Zero sets d to the zone holding only the valuation with all clocks 0.
//
// Precondition: len(d.M) == d.Dim*d.Dim (not checked).
// Postcondition: d is closed and non-empty.
func (d DBM) Zero() {
	for i := range d.M {
		d.M[i] = LEZero
	}
}

// CopyFrom copies the matrix of src into d.
//
// Precondition: d.Dim == src.Dim (checked).
// Postcondition: d.Equal(src); d and src do not share storage.
func (d DBM) CopyFrom(src DBM) {
	if d.Dim != src.Dim {
		panic(fmt.Sprintf("dbm: CopyFrom: dimension %d into %d", src.Dim, d.Dim))
	}
	copy(d.M, src.M)
}

// Clone returns a copy of d with its own storage.
//
// Precondition: none (any matrix, closed or not).
// Postcondition: the result equals d and shares no storage with it.
func (d DBM) Clone() DBM {
	return DBM{Dim: d.Dim, M: slices.Clone(d.M)}
}

// At returns entry (i, j), the bound on x_i − x_j.
//
// Precondition: 0 ≤ i, j < d.Dim (checked by the slice index only).
// Postcondition: d is unchanged.
func (d DBM) At(i, j int) Bound { return d.M[i*d.Dim+j] }

// Set writes entry (i, j) without closing: the DBM is in general no longer
// closed, and [DBM.Close] must be called before any other operation. It is
// meant for building matrices from raw constraints (parsers, tests).
//
// Precondition: 0 ≤ i, j < d.Dim (checked by the slice index only).
// Postcondition: d.At(i, j) == b; closure is not maintained.
func (d DBM) Set(i, j int, b Bound) { d.M[i*d.Dim+j] = b }

// IsEmpty reports whether d is known to be empty: a previous [DBM.Close],
// [DBM.Constrain] or [DBM.Intersect] returned false and left the marker
// M[0] < LEZero. It costs O(1).
//
// Precondition: d is closed, or was marked empty by one of those (not
// checked).
// Postcondition: d is unchanged.
func (d DBM) IsEmpty() bool { return d.M[0] < LEZero }

// markEmpty records emptiness so that IsEmpty is O(1).
func (d DBM) markEmpty() { d.M[0] = LTZero }

// Close computes the canonical (shortest-path) form of d with the
// Floyd–Warshall algorithm in O(Dim³), stopping as soon as a negative cycle
// shows that the zone is empty. Bengtsson & Yi, "Timed automata: semantics,
// algorithms and tools", 2004 (DBM algorithms); Rokicki's thesis for the early
// emptiness test.
//
// Precondition: d.M entries are valid bounds (checked in debug builds).
// Postcondition: returns false iff the zone is empty; then d.IsEmpty() and
// the other entries are unspecified. Otherwise d is closed and denotes the
// same set of valuations (checked in debug builds).
func (d DBM) Close() bool { return d.close(0, false) }

// close is Close. When known is set, the bits of free name exactly the rows
// k < 64 that are < ∞ everywhere but on the diagonal (see unboundedRow),
// as an extrapolation that has just looked at every entry knows; rows from
// 64 on, and every row when known is not set, are scanned.
func (d DBM) close(free uint64, known bool) bool {
	n := d.Dim
	m := d.M[:n*n]
	for i := 0; i < n; i++ {
		if m[i*n+i] < LEZero {
			d.markEmpty()
			return false
		}
		m[i*n+i] = LEZero
	}
	for k := 0; k < n; k++ {
		rowK := m[k*n : k*n+n]
		if known && k < 64 {
			if free&(1<<k) != 0 {
				continue
			}
		} else if unboundedRow(rowK, k) {
			// No path leaves k over a finite edge, so k shortens no path,
			// now or later in the loop: a clock the extrapolation freed.
			continue
		}
		for i := 0; i < n; i++ {
			if i == k {
				continue
			}
			rowI := m[i*n : i*n+n]
			rowI = rowI[:len(rowK)]
			cik := rowI[k]
			if cik == LTInf {
				continue
			}
			c := int64(cik)
			for j, ckj := range rowK {
				if ckj == LTInf {
					continue
				}
				s := c + int64(ckj) - int64((cik|ckj)&1)
				if s < int64(rowI[j]) {
					rowI[j] = clamp(s)
				}
			}
			if rowI[i] < LEZero {
				d.markEmpty()
				return false
			}
		}
	}
	if debug {
		d.check("Close")
	}
	return true
}

// unboundedRow reports whether every entry of row (row k of a matrix) but
// the diagonal is < ∞. Such a row stays so under closure (a path out of k
// must begin with one of its edges), so k is never an intermediate node
// that shortens a path: Close skips it. This is where the Floyd–Warshall
// loop meets the clocks that are inactive in a state (no guard or
// invariant ahead; Extra_LU frees them), often most of the clocks of a
// model with pools of idle automata, as UDBM's closure after extrapolation
// skips the clocks with no bounds.
func unboundedRow(row []Bound, k int) bool {
	for j, c := range row {
		if c != LTInf && j != k {
			return false
		}
	}
	return true
}

// Constrain intersects d with the constraint x_i − x_j ≺ b and restores
// closure incrementally in O(Dim²): for all k, l, c_kl = min(c_kl,
// c_ki + b + c_jl). Bengtsson & Yi 2004 (and UDBM dbm_closeij).
//
// Precondition: d is closed and non-empty (checked in debug builds);
// 0 ≤ i, j < d.Dim (checked by the slice index only).
// Postcondition: returns false iff the result is empty, then d.IsEmpty();
// otherwise d is closed (checked in debug builds).
func (d DBM) Constrain(i, j int, b Bound) bool {
	n := d.Dim
	m := d.M[:n*n]
	if debug {
		d.check("Constrain (before)")
		if !b.valid() {
			panic(fmt.Sprintf("dbm: Constrain: invalid bound %d", b))
		}
	}
	if b >= m[i*n+j] {
		return true
	}
	if cji := m[j*n+i]; cji != LTInf && add64(b, cji) < int64(LEZero) {
		d.markEmpty()
		return false
	}
	m[i*n+j] = b
	rowJ := m[j*n : j*n+n]
	for k := 0; k < n; k++ {
		cki := m[k*n+i]
		if cki == LTInf {
			continue
		}
		ckib := clamp(add64(cki, b))
		c := int64(ckib)
		rowK := m[k*n : k*n+n]
		rowK = rowK[:len(rowJ)]
		for l, cjl := range rowJ {
			if cjl == LTInf {
				continue
			}
			s := c + int64(cjl) - int64((ckib|cjl)&1)
			if s < int64(rowK[l]) {
				rowK[l] = clamp(s)
			}
		}
	}
	if debug {
		d.check("Constrain")
	}
	return true
}

// ConstrainUpper intersects d with the upper bounds cs (each x_I − x_0 ≺
// B, I ≥ 1: an invariant's clock bounds) at once, in O(Dim × (len(cs) +
// Dim)) for the rows it tightens instead of one O(Dim²) Constrain per
// bound. A shortest path that uses a tightened edge x → 0 uses one (a
// second would pass 0 again), so the new c_i0 is u_i = min(c_i0, c_ix +
// b_x) over the old entries, and the new c_ij is min(c_ij, u_i + c_0j);
// row 0 keeps its entries, and the result is empty iff some b_x + c_0x <
// ≤0 (any other cycle through a new edge is longer).
//
// Precondition: d is closed and non-empty (checked in debug builds);
// every c.J == 0 and 1 ≤ c.I < d.Dim (checked).
// Postcondition: returns false iff the result is empty, then d.IsEmpty();
// otherwise d is closed and equals d ∧ ⋀ cs (checked in debug builds:
// closure).
func (d DBM) ConstrainUpper(cs []Constraint) bool {
	n := d.Dim
	m := d.M[:n*n]
	if debug {
		d.check("ConstrainUpper (before)")
	}
	row0 := m[:n]
	var buf [16]Constraint
	tight := buf[:0]
	for _, c := range cs {
		if c.J != 0 || c.I < 1 || c.I >= n {
			panic(fmt.Sprintf("dbm: ConstrainUpper: %v is not an upper bound of a clock of dimension %d", c, n))
		}
		if c.B >= m[c.I*n] {
			continue
		}
		if add64(c.B, row0[c.I]) < int64(LEZero) {
			d.markEmpty()
			return false
		}
		tight = append(tight, c)
	}
	if len(tight) == 0 {
		return true
	}
	for i := 1; i < n; i++ {
		row := m[i*n : i*n+n]
		row = row[:len(row0)]
		u := row[0]
		for _, c := range tight {
			if cix := row[c.I]; cix != LTInf {
				if s := clamp(add64(cix, c.B)); s < u {
					u = s
				}
			}
		}
		if u >= row[0] {
			continue
		}
		row[0] = u
		for j, c0j := range row0 {
			if j == 0 || j == i {
				continue
			}
			if s := add64(u, c0j); s < int64(row[j]) {
				row[j] = clamp(s)
			}
		}
	}
	if debug {
		d.check("ConstrainUpper")
	}
	return true
}

// UpperFits reports whether d ∧ x_i ≺ b is non-empty: b + c_0i ≥ ≤0.
//
// Precondition: d is closed and non-empty (not checked); 1 ≤ i < d.Dim.
// Postcondition: d is unchanged.
func (d DBM) UpperFits(i int, b Bound) bool {
	return add64(b, d.M[i]) >= int64(LEZero)
}

// ConstrainC is [DBM.Constrain] for a [Constraint].
//
// Precondition: as for Constrain.
// Postcondition: as for Constrain.
func (d DBM) ConstrainC(c Constraint) bool { return d.Constrain(c.I, c.J, c.B) }

// Intersect intersects d with o in place (entry-wise minimum, then
// closure).
//
// Precondition: d and o are closed and non-empty (checked in debug builds);
// d.Dim == o.Dim (checked).
// Postcondition: returns false iff the intersection is empty, then
// d.IsEmpty(); otherwise d is closed (checked in debug builds).
func (d DBM) Intersect(o DBM) bool {
	sameDim("Intersect", d, o)
	if debug {
		d.check("Intersect (receiver)")
		o.check("Intersect (argument)")
	}
	a, b := d.M, o.M[:len(d.M)]
	changed := false
	for k, v := range b {
		if v < a[k] {
			a[k] = v
			changed = true
		}
	}
	if !changed {
		return true
	}
	return d.Close()
}

// Up applies the delay (future) operator: d becomes {v + δ | v ∈ d, δ ≥ 0}.
// It removes the upper bounds x_i − 0 of every clock. Bengtsson & Yi 2004,
//
// Precondition: d is closed and non-empty (checked in debug builds).
// Postcondition: d is closed (checked in debug builds).
func (d DBM) Up() {
	n := d.Dim
	m := d.M
	for i := 1; i < n; i++ {
		m[i*n] = LTInf
	}
	if debug {
		d.check("Up")
	}
}

// UpStopped applies the delay operator of a stopwatch automaton in which
// the clocks i with stopped[i] set do not advance (rate 0) and the others
// do (rate 1): d becomes the smallest zone containing {v + δ·r | v ∈ d,
// δ ≥ 0}, r_i = 0 for a stopped clock, 1 for a running one (Cassez,
// Larsen, "The impressive power of stopwatches", CONCUR 2000). It frees the
// bounds x_i − x_j with x_i running and x_j stopped or the reference clock
// 0; every other difference does not grow along r and keeps its bound.
//
// The set of delayed valuations is a polyhedron that need not be a zone
// (x = 0 ∧ 0 ≤ y ≤ z ≤ 1 with y stopped gives z − x ≥ y), so the result
// over-approximates it; it is its tightest zone: each kept bound is the
// supremum of x_i − x_j over d (d is closed), reached at δ = 0, and each
// freed difference grows without bound. With no clock stopped this is Up;
// with every clock stopped, d is unchanged.
//
// Precondition: d is closed and non-empty, len(stopped) ≥ d.Dim
// (stopped[0] is ignored) (checked in debug builds: closure).
// Postcondition: d is closed (the bounds of a set's differences satisfy
// the triangle inequality) (checked in debug builds).
func (d DBM) UpStopped(stopped []bool) {
	n := d.Dim
	m := d.M
	stopped = stopped[:n]
	if debug {
		d.check("UpStopped (before)")
	}
	for i := 1; i < n; i++ {
		if stopped[i] {
			continue
		}
		row := m[i*n : i*n+n]
		row[0] = LTInf
		for j := 1; j < n; j++ {
			if stopped[j] {
				row[j] = LTInf
			}
		}
	}
	if debug {
		d.check("UpStopped")
	}
}

// UpBounded applies the delay operator and then the upper bounds
// x_i − 0 ≺ upper[i] (an invariant made only of clock upper bounds), in
// O(Dim²) instead of one O(Dim²) Constrain per bound. Because d already
// satisfies the bounds, delaying then re-imposing them can only change the
// column of upper bounds: the new c_i0 is min(upper[i], min_j c_ij +
// upper[j]) over the unchanged differences, and no other entry can be
// tightened through clock 0 (every new c_k0 is at least the old one).
// upper[0] is ignored; LTInf means no bound.
//
// Precondition: d is closed and non-empty, len(upper) == d.Dim, and d
// satisfies every bound (c_i0 ≤ upper[i]) (checked in debug builds).
// Postcondition: d is closed and equals Up(d) ∧ ⋀ x_i ≺ upper[i] (checked
// in debug builds: closure).
func (d DBM) UpBounded(upper []Bound) {
	n := d.Dim
	m := d.M[:n*n]
	upper = upper[:n]
	if debug {
		d.check("UpBounded (before)")
		for i := 1; i < n; i++ {
			if m[i*n] > upper[i] {
				panic(fmt.Sprintf("dbm: UpBounded: zone exceeds the upper bound of clock %d", i))
			}
		}
	}
	// The clocks with a bound, usually few (those of the invariants): the
	// inner loop visits only them.
	var buf [64]int32
	bounded := buf[:0]
	for j := 1; j < n; j++ {
		if upper[j] != LTInf {
			if len(bounded) == len(buf) {
				bounded = nil // many: the plain loop below
				break
			}
			bounded = append(bounded, int32(j))
		}
	}
	for i := 1; i < n; i++ {
		row := m[i*n : i*n+n]
		best := upper[i]
		if bounded != nil {
			for _, j := range bounded {
				if cij := row[j]; int(j) != i && cij != LTInf {
					if s := cij.Add(upper[j]); s < best {
						best = s
					}
				}
			}
			row[0] = best
			continue
		}
		for j := 1; j < n; j++ {
			uj, cij := upper[j], row[j]
			if j == i || uj == LTInf || cij == LTInf {
				continue
			}
			if s := cij.Add(uj); s < best {
				best = s
			}
		}
		row[0] = best
	}
	if debug {
		d.check("UpBounded")
	}
}

// Down applies the past operator: d becomes {v − δ | v ∈ d, δ ≥ 0, v − δ ≥
// 0}. The lower bound of x_j becomes the weakest that keeps every
// difference and x_i ≥ 0: c_0j = min(≤0, min_i c_ij). Bengtsson & Yi 2004,
//
// Precondition: d is closed and non-empty (checked in debug builds).
// Postcondition: d is closed (checked in debug builds).
func (d DBM) Down() {
	n := d.Dim
	m := d.M
	for j := 1; j < n; j++ {
		b := LEZero
		for i := 1; i < n; i++ {
			if c := m[i*n+j]; c < b {
				b = c
			}
		}
		m[j] = b
	}
	if debug {
		d.check("Down")
	}
}

// Reset assigns x := v: d becomes {v'[x := v] | v' ∈ d}. Bengtsson & Yi
// 2004.
//
// Precondition: d is closed and non-empty (checked in debug builds);
// 1 ≤ x < d.Dim and 0 ≤ v ≤ MaxConst (checked).
// Postcondition: d is closed (checked in debug builds).
func (d DBM) Reset(x int, v int32) {
	n := d.Dim
	if x < 1 || x >= n || v < 0 || v > MaxConst {
		panic(fmt.Sprintf("dbm: Reset(%d, %d) with dimension %d", x, v, n))
	}
	m := d.M
	pos, neg := LE(v), LE(-v)
	rowX := m[x*n : x*n+n]
	row0 := m[:n]
	for j := 0; j < n; j++ {
		// x − x_j = v − x_j, bounded by v + c_0j.
		rowX[j] = pos.Add(row0[j])
		// x_j − x = x_j − v, bounded by c_j0 − v.
		m[j*n+x] = m[j*n].Add(neg)
	}
	rowX[x] = LEZero
	if debug {
		d.check("Reset")
	}
}

// Free removes every constraint on clock x except x ≥ 0: d becomes
// {v'[x := t] | v' ∈ d, t ≥ 0}. Bengtsson & Yi 2004.
//
// Precondition: d is closed and non-empty (checked in debug builds);
// 1 ≤ x < d.Dim (checked).
// Postcondition: d is closed (checked in debug builds).
func (d DBM) Free(x int) {
	n := d.Dim
	if x < 1 || x >= n {
		panic(fmt.Sprintf("dbm: Free(%d) with dimension %d", x, n))
	}
	m := d.M
	for j := 0; j < n; j++ {
		if j == x {
			continue
		}
		m[x*n+j] = LTInf
		m[j*n+x] = m[j*n] // x_j − x ≤ x_j − 0 since x ≥ 0
	}
	if debug {
		d.check("Free")
	}
}

// Satisfies reports whether some valuation of d satisfies x_i − x_j ≺ b,
// that is whether d ∧ (x_i − x_j ≺ b) is non-empty. O(1).
//
// Precondition: d is closed and non-empty (checked in debug builds).
// Postcondition: d is unchanged; the answer equals
// d.Clone().Constrain(i, j, b) (tested).
func (d DBM) Satisfies(i, j int, b Bound) bool {
	if debug {
		d.check("Satisfies")
	}
	cji := d.M[j*d.Dim+i]
	if b == LTInf || cji == LTInf {
		return true
	}
	return add64(b, cji) >= int64(LEZero)
}

// SatisfiesC is [DBM.Satisfies] for a [Constraint].
//
// Precondition: as for Satisfies.
// Postcondition: as for Satisfies.
func (d DBM) SatisfiesC(c Constraint) bool { return d.Satisfies(c.I, c.J, c.B) }

// Implies reports whether every valuation of d satisfies x_i − x_j ≺ b. O(1).
//
// Precondition: d is closed and non-empty (checked in debug builds).
// Postcondition: d is unchanged; the answer is true iff d ∧ ¬(x_i − x_j ≺ b)
// is empty (tested).
func (d DBM) Implies(i, j int, b Bound) bool {
	if debug {
		d.check("Implies")
	}
	return d.M[i*d.Dim+j] <= b
}

// Relation compares d and o as sets of valuations: Subset if d ⊆ o,
// Superset if d ⊇ o, Equal if both, Different otherwise. For closed DBMs
// inclusion is entry-wise comparison, so the answer is exact. An empty DBM
// (IsEmpty) is included in everything.
//
// Precondition: d and o are closed or marked empty (checked in debug
// builds); d.Dim == o.Dim (checked).
// Postcondition: d and o are unchanged; the answer agrees with a
// constraint-wise inclusion test (tested).
func (d DBM) Relation(o DBM) Relation {
	sameDim("Relation", d, o)
	de, oe := d.IsEmpty(), o.IsEmpty()
	switch {
	case de && oe:
		return Equal
	case de:
		return Subset
	case oe:
		return Superset
	}
	if debug {
		d.check("Relation (receiver)")
		o.check("Relation (argument)")
	}
	a, b := d.M, o.M[:len(d.M)]
	sub, sup := true, true
	for k, x := range a {
		y := b[k]
		if x > y {
			sub = false
			if !sup {
				return Different
			}
		} else if x < y {
			sup = false
			if !sub {
				return Different
			}
		}
	}
	var r Relation
	if sub {
		r |= Subset
	}
	if sup {
		r |= Superset
	}
	return r
}

// SubsetEq reports whether d ⊆ o.
//
// Precondition: as for [DBM.Relation].
// Postcondition: d and o are unchanged.
func (d DBM) SubsetEq(o DBM) bool {
	sameDim("SubsetEq", d, o)
	if d.IsEmpty() {
		return true
	}
	if o.IsEmpty() {
		return false
	}
	if debug {
		d.check("SubsetEq (receiver)")
		o.check("SubsetEq (argument)")
	}
	b := o.M[:len(d.M)]
	for k, x := range d.M {
		if x > b[k] {
			return false
		}
	}
	return true
}

// Equal reports whether d and o denote the same set. For closed DBMs this
// is equality of the matrices.
//
// Precondition: as for [DBM.Relation].
// Postcondition: d and o are unchanged.
func (d DBM) Equal(o DBM) bool {
	if d.Dim != o.Dim {
		return false
	}
	if de, oe := d.IsEmpty(), o.IsEmpty(); de || oe {
		return de == oe
	}
	return slices.Equal(d.M, o.M)
}

// ConvexHull sets d to the smallest zone including d and o: the entry-wise
// maximum, which is closed when both are closed.
//
// Precondition: d and o closed or marked empty (checked in debug builds);
// d.Dim == o.Dim (checked).
// Postcondition: d ⊇ old d ∪ o and d is closed (checked in debug builds).
func (d DBM) ConvexHull(o DBM) {
	sameDim("ConvexHull", d, o)
	if o.IsEmpty() {
		return
	}
	if d.IsEmpty() {
		copy(d.M, o.M)
		return
	}
	b := o.M[:len(d.M)]
	for k, x := range b {
		if x > d.M[k] {
			d.M[k] = x
		}
	}
	if debug {
		d.check("ConvexHull")
	}
}

// Hash returns a hash of the matrix (equal closed DBMs hash equally). It
// does not allocate.
//
// Precondition: none.
// Postcondition: d is unchanged; equal matrices have equal hashes.
func (d DBM) Hash() uint64 {
	const prime = 0x100000001b3
	h := uint64(0xcbf29ce484222325) ^ uint64(d.Dim)
	for _, b := range d.M {
		h ^= uint64(uint32(b))
		h *= prime
		h ^= h >> 29
	}
	return h
}

// IsClosed reports whether d is closed (canonical): every diagonal entry is
// ≤ 0 exactly and c_ij ≤ c_ik + c_kj for all i, j, k. It costs O(Dim³), like
// Close: for debugging and tests only.
//
// Precondition: none (any matrix).
// Postcondition: d is unchanged.
func (d DBM) IsClosed() bool {
	n := d.Dim
	m := d.M
	if len(m) != n*n {
		return false
	}
	for i := 0; i < n; i++ {
		if m[i*n+i] != LEZero {
			return false
		}
	}
	for k := 0; k < n; k++ {
		for i := 0; i < n; i++ {
			cik := m[i*n+k]
			if cik == LTInf {
				continue
			}
			for j := 0; j < n; j++ {
				ckj := m[k*n+j]
				if ckj == LTInf {
					continue
				}
				if add64(cik, ckj) < int64(m[i*n+j]) {
					return false
				}
			}
		}
	}
	return true
}

// IsValid reports whether d is a well-formed, closed, non-empty DBM of
// non-negative clocks: Dim ≥ 1, len(M) == Dim², every entry a valid bound,
// diagonal ≤ 0, row 0 entries ≤ 0 (x_j ≥ 0), and closed. For debugging and
// tests only (O(Dim³)).
//
// Precondition: none (any matrix).
// Postcondition: d is unchanged.
func (d DBM) IsValid() bool {
	return d.validate() == ""
}

// validate returns "" or a description of the first broken invariant.
func (d DBM) validate() string {
	n := d.Dim
	if n < 1 {
		return fmt.Sprintf("dimension %d < 1", n)
	}
	if len(d.M) != n*n {
		return fmt.Sprintf("len(M) = %d, want %d", len(d.M), n*n)
	}
	for k, b := range d.M {
		if !b.valid() {
			return fmt.Sprintf("entry (%d,%d) = %d is not a valid bound", k/n, k%n, int32(b))
		}
	}
	for j := 0; j < n; j++ {
		if d.M[j] > LEZero {
			return fmt.Sprintf("entry (0,%d) = %v allows a negative clock", j, d.M[j])
		}
	}
	if d.M[0] < LEZero {
		return "empty"
	}
	if !d.IsClosed() {
		return "not closed"
	}
	return ""
}

// check panics with a clear message if d is not valid (debug builds).
func (d DBM) check(op string) {
	if msg := d.validate(); msg != "" {
		panic(fmt.Sprintf("dbm: %s: invariant broken: %s\n%s", op, msg, d.Matrix()))
	}
}

func sameDim(op string, d, o DBM) {
	if d.Dim != o.Dim {
		panic(fmt.Sprintf("dbm: %s: dimensions %d and %d differ", op, d.Dim, o.Dim))
	}
}

package dbm

import (
	"fmt"
	"strings"
)

// Federation is a finite union of zones of the same dimension, used where
// convexity is lost: subtraction (deadlock detection computes Z↑ ∧ Inv
// minus the union of the edges' pre-images) and diagonal-safe
// extrapolation. Every member is closed and non-empty; members may overlap
// (see [Federation.Reduce]). A Federation with no member is empty; the
// zero Federation takes its dimension from the first zone added.
//
// Methods with a pointer receiver change the federation in place; members
// added with [Federation.Add] are copies, so the federation never shares
// storage with its arguments.
type Federation struct {
	Dim   int
	Zones []DBM
}

// NewFederation returns the empty federation of dimension dim.
//
// Precondition: dim ≥ 1 (not checked).
// Postcondition: the result is empty.
func NewFederation(dim int) Federation { return Federation{Dim: dim} }

// FederationOf returns the federation holding copies of the non-empty zones
// given.
//
// Precondition: zones are closed or marked empty, with dimension dim
// (dimension checked).
// Postcondition: the result denotes the union of the zones and shares no
// storage with them.
func FederationOf(dim int, zones ...DBM) Federation {
	f := Federation{Dim: dim}
	for _, z := range zones {
		f.Add(z)
	}
	return f
}

// Len returns the number of members.
//
// Precondition: none.
// Postcondition: f is unchanged.
func (f Federation) Len() int { return len(f.Zones) }

// IsEmpty reports whether f denotes the empty set (it has no member, since
// members are non-empty).
//
// Precondition: f's members are non-empty (the invariant every method
// keeps).
// Postcondition: f is unchanged.
func (f Federation) IsEmpty() bool { return len(f.Zones) == 0 }

// Clone returns a deep copy of f.
//
// Precondition: none.
// Postcondition: the result denotes f and shares no storage with it.
func (f Federation) Clone() Federation {
	g := Federation{Dim: f.Dim, Zones: make([]DBM, len(f.Zones))}
	for k, z := range f.Zones {
		g.Zones[k] = z.Clone()
	}
	return g
}

// Add adds a copy of d to f unless d is empty (union with one zone). It
// does not remove redundant members; see [Federation.Reduce].
//
// Precondition: d is closed or marked empty (checked in debug builds);
// d.Dim == f.Dim, or f is the zero Federation (checked).
// Postcondition: f denotes old f ∪ d.
func (f *Federation) Add(d DBM) {
	if f.Dim == 0 && len(f.Zones) == 0 {
		f.Dim = d.Dim // the zero Federation takes the first zone's dimension
	}
	f.sameDim("Add", d)
	if d.IsEmpty() {
		return
	}
	if debug {
		d.check("Federation.Add")
	}
	f.Zones = append(f.Zones, d.Clone())
}

// Union adds copies of the members of o to f.
//
// Precondition: o.Dim == f.Dim (checked).
// Postcondition: f denotes old f ∪ o.
func (f *Federation) Union(o Federation) {
	for _, z := range o.Zones {
		f.Add(z)
	}
}

// IntersectDBM intersects every member with d, dropping those that become
// empty.
//
// Precondition: d is closed and non-empty; d.Dim == f.Dim (checked).
// Postcondition: f denotes old f ∩ d.
func (f *Federation) IntersectDBM(d DBM) {
	f.sameDim("IntersectDBM", d)
	out := f.Zones[:0]
	for _, z := range f.Zones {
		if z.Intersect(d) {
			out = append(out, z)
		}
	}
	clear(f.Zones[len(out):])
	f.Zones = out
}

// Intersect sets f to f ∩ o, the union of the pairwise intersections.
//
// Precondition: o.Dim == f.Dim (checked).
// Postcondition: f denotes old f ∩ o.
func (f *Federation) Intersect(o Federation) {
	if o.Dim != f.Dim {
		panic(fmt.Sprintf("dbm: Federation.Intersect: dimensions %d and %d differ", f.Dim, o.Dim))
	}
	var out []DBM
	for _, a := range f.Zones {
		for _, b := range o.Zones {
			c := a.Clone()
			if c.Intersect(b) {
				out = append(out, c)
			}
		}
	}
	f.Zones = out
}

// Constrain intersects every member with x_i − x_j ≺ b, dropping those that
// become empty.
//
// Precondition: 0 ≤ i, j < f.Dim (checked by the slice index only); b valid
// (checked in debug builds).
// Postcondition: f denotes old f ∩ (x_i − x_j ≺ b).
func (f *Federation) Constrain(i, j int, b Bound) {
	out := f.Zones[:0]
	for _, z := range f.Zones {
		if z.Constrain(i, j, b) {
			out = append(out, z)
		}
	}
	clear(f.Zones[len(out):])
	f.Zones = out
}

// Up applies [DBM.Up] to every member: f becomes its time successors.
//
// Precondition: f's members are closed and non-empty (checked in debug
// builds).
// Postcondition: f denotes {v + δ | v ∈ old f, δ ≥ 0} (tested).
func (f *Federation) Up() {
	for _, z := range f.Zones {
		z.Up()
	}
}

// Down applies [DBM.Down] to every member: f becomes its time predecessors.
//
// Precondition: f's members are closed and non-empty (checked in debug
// builds).
// Postcondition: f denotes {v − δ ≥ 0 | v ∈ old f, δ ≥ 0} (tested).
func (f *Federation) Down() {
	for _, z := range f.Zones {
		z.Down()
	}
}

// Free applies [DBM.Free](x) to every member.
//
// Precondition: 1 ≤ x < f.Dim (checked when f has a member).
// Postcondition: f denotes {v[x := t] | v ∈ old f, t ≥ 0} (tested).
func (f *Federation) Free(x int) {
	for _, z := range f.Zones {
		z.Free(x)
	}
}

// Reset applies [DBM.Reset](x, v) to every member.
//
// Precondition: 1 ≤ x < f.Dim, 0 ≤ v ≤ MaxConst (checked when f has a
// member).
// Postcondition: f denotes {v'[x := v] | v' ∈ old f} (tested).
func (f *Federation) Reset(x int, v int32) {
	for _, z := range f.Zones {
		z.Reset(x, v)
	}
}

// Subtract sets f to f − d, exactly (see [DBM.Subtract]).
//
// Precondition: d is closed or marked empty; d.Dim == f.Dim (checked).
// Postcondition: f denotes old f − d; its members are closed and non-empty.
func (f *Federation) Subtract(d DBM) { f.subtract(d, nil) }

// SubtractOwned is Subtract for a federation that owns its members' matrices:
// no other value refers to them. The matrices of the members it splits or
// removes go to spares, and the pieces it makes come from there, so that
// a caller that subtracts again and again from one federation (the
// deadlock predicate, once per stored state and move) allocates only
// while spares grows to the largest number of members it needs at once.
//
// Precondition: as Subtract; f's members share storage with nothing else;
// spares holds matrices of f.Dim only (checked) and is used by one
// goroutine.
// Postcondition: as Subtract; the matrices f no longer holds are in
// spares.
func (f *Federation) SubtractOwned(d DBM, spares *Spares) { f.subtract(d, spares) }

func (f *Federation) subtract(d DBM, sp *Spares) {
	f.sameDim("Subtract", d)
	if d.IsEmpty() || len(f.Zones) == 0 {
		return
	}
	out := Federation{Dim: f.Dim}
	if sp != nil {
		out.Zones = sp.zones[:0]
	}
	for _, z := range f.Zones {
		// inclusion first: where d covers a member (the deadlock
		// predicate's usual case: one move's pre-image covers the zone)
		// it ends the test at once, and where it does not it usually
		// fails at one of the first entries
		if z.SubsetEq(d) {
			sp.Put(z)
			continue
		}
		if z.disjointQuick(d) {
			// unchanged: the member itself, not a copy
			out.Zones = append(out.Zones, z)
			continue
		}
		out = z.splitBy(d, out, sp)
	}
	if sp != nil {
		// the old member list becomes the next call's scratch
		clear(f.Zones)
		sp.zones = f.Zones[:0]
		f.Zones = out.Zones
		return
	}
	if len(out.Zones) == 0 {
		// keep the backing array: a caller that empties a federation
		// again and again (Stepper.Deadlocked) reuses its first matrix
		f.Zones = f.Zones[:0]
		return
	}
	f.Zones = out.Zones
}

// Spares is a free list of matrices of one dimension, which
// [Federation.SubtractOwned] takes its pieces from and returns the
// matrices of the members it drops to. The zero Spares is empty and ready.
type Spares struct {
	free  [][]Bound
	zones []DBM
}

// Put gives d's matrix to s; d must not be used afterwards.
//
// Precondition: nothing else refers to d.M; every matrix in s has one
// length (checked when taken).
// Postcondition: s holds d.M.
func (s *Spares) Put(d DBM) {
	if s != nil && d.M != nil {
		s.free = append(s.free, d.M)
	}
}

// Copy returns a copy of d in a matrix from s (a new one when s has none).
//
// Precondition: the matrices in s have d's length (checked).
// Postcondition: the result shares storage with nothing but s's past.
func (s *Spares) Copy(d DBM) DBM {
	if s == nil || len(s.free) == 0 {
		return d.Clone()
	}
	m := s.free[len(s.free)-1]
	s.free = s.free[:len(s.free)-1]
	if len(m) != len(d.M) {
		panic(fmt.Sprintf("dbm: Spares.Copy: a matrix of %d entries for dimension %d", len(m), d.Dim))
	}
	copy(m, d.M)
	return DBM{Dim: d.Dim, M: m}
}

// SubtractFed sets f to f − o, subtracting the members of o one by one.
//
// Precondition: o.Dim == f.Dim (checked).
// Postcondition: f denotes old f − o.
func (f *Federation) SubtractFed(o Federation) {
	for _, z := range o.Zones {
		if len(f.Zones) == 0 {
			return
		}
		f.Subtract(z)
	}
}

// Subtract appends to out the zones of a partition of d − o, and returns
// out. It splits d along the constraints of o that cut it: with c_1 … c_k
// the non-redundant constraints of o ([DBM.MinConstraints]), d − o is the
// disjoint union over l of d ∧ c_1 ∧ … ∧ c_{l−1} ∧ ¬c_l. A constraint that
// the remaining part d ∧ c_1 ∧ … ∧ c_{l−1} already implies adds no piece,
// so every piece is non-empty and there are at most k of them. If d and o
// are disjoint the result is d itself, unsplit. This is the standard DBM
// subtraction of UDBM's federations; on keeping the number of pieces
// small see David, Håkansson, Larsen, Pettersson, "Minimal DBM
// subtraction", NWPT 2004.
//
// Precondition: d and o are closed or marked empty (checked in debug
// builds); same dimension, and out.Dim is that dimension or 0 (checked).
// Postcondition: the appended zones are closed, non-empty, pairwise
// disjoint, and their union is d − o.
func (d DBM) Subtract(o DBM, out Federation) Federation {
	sameDim("Subtract", d, o)
	if out.Dim == 0 {
		out.Dim = d.Dim
	}
	out.sameDim("Subtract", d)
	if d.IsEmpty() {
		return out
	}
	if o.IsEmpty() || d.disjointQuick(o) {
		out.Zones = append(out.Zones, d.Clone())
		return out
	}
	if d.SubsetEq(o) {
		return out
	}
	return d.splitBy(o, out, nil)
}

// splitBy is Subtract for a non-empty d that is neither included in o
// nor told apart from it by disjointQuick (the callers have checked
// both). With spares sp (SubtractOwned), d is a member that the
// federation owns: where d − o is d, d itself is appended, and
// otherwise d's matrix goes to sp; pieces and scratch come from sp.
func (d DBM) splitBy(o DBM, out Federation, sp *Spares) Federation {
	var buf [16]Constraint
	cs := o.MinConstraints(buf[:0])
	start := len(out.Zones)
	rem := sp.Copy(d)
	for _, c := range cs {
		if rem.Implies(c.I, c.J, c.B) {
			continue
		}
		piece := sp.Copy(rem)
		if !piece.ConstrainC(c.Neg()) {
			panic("dbm: Subtract: empty piece for a cutting constraint")
		}
		out.Zones = append(out.Zones, piece)
		if !rem.ConstrainC(c) {
			// d ∩ o is empty after all: d − o is d.
			for _, p := range out.Zones[start:] {
				sp.Put(p)
			}
			clear(out.Zones[start:])
			sp.Put(rem)
			if sp == nil {
				d = d.Clone()
			}
			out.Zones = append(out.Zones[:start], d)
			return out
		}
	}
	sp.Put(rem)
	sp.Put(d)
	return out
}

// disjointQuick reports a sufficient condition for d ∩ o = ∅: some
// c_ij(d) + c_ji(o) < ≤0.
func (d DBM) disjointQuick(o DBM) bool {
	n := d.Dim
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			a, b := d.M[i*n+j], o.M[j*n+i]
			if a != LTInf && b != LTInf && add64(a, b) < int64(LEZero) {
				return true
			}
		}
	}
	return false
}

// IncludesDBM reports exactly whether d ⊆ f, that is d − f = ∅. A member
// including d answers at once; otherwise the members are subtracted from d
// one by one.
//
// Precondition: d is closed or marked empty; d.Dim == f.Dim (checked).
// Postcondition: f and d are unchanged; the answer agrees with a naive
// subtraction reference and a lattice oracle (tested).
func (f Federation) IncludesDBM(d DBM) bool {
	f.sameDim("IncludesDBM", d)
	if d.IsEmpty() {
		return true
	}
	for _, z := range f.Zones {
		if d.SubsetEq(z) {
			return true
		}
	}
	rem := Federation{Dim: f.Dim, Zones: []DBM{d.Clone()}}
	for _, z := range f.Zones {
		rem.Subtract(z)
		if rem.IsEmpty() {
			return true
		}
	}
	return false
}

// SubsetEq reports exactly whether f ⊆ o.
//
// Precondition: f.Dim == o.Dim (checked).
// Postcondition: f and o are unchanged.
func (f Federation) SubsetEq(o Federation) bool {
	for _, z := range f.Zones {
		if !o.IncludesDBM(z) {
			return false
		}
	}
	return true
}

// Equal reports whether f and o denote the same set (mutual inclusion).
//
// Precondition: none (different dimensions are unequal).
// Postcondition: f and o are unchanged.
func (f Federation) Equal(o Federation) bool {
	return f.Dim == o.Dim && f.SubsetEq(o) && o.SubsetEq(f)
}

// Reduce removes every member included in another member (of two equal
// members the first is kept). The set denoted is unchanged; the order of
// the remaining members is preserved.
//
// Precondition: f's members are closed and non-empty (checked in debug
// builds).
// Postcondition: f denotes the same set and no member is included in another
// (tested).
func (f *Federation) Reduce() {
	zs := f.Zones
	drop := make([]bool, len(zs))
	for i, z := range zs {
		for j, o := range zs {
			if i == j {
				continue
			}
			// Drop z if it is strictly included in o, or equal to an
			// earlier member. A maximal member always survives.
			if r := z.Relation(o); r == Subset || (r == Equal && j < i) {
				drop[i] = true
				break
			}
		}
	}
	out := zs[:0]
	for i, z := range zs {
		if !drop[i] {
			out = append(out, z)
		}
	}
	clear(zs[len(out):])
	f.Zones = out
}

// Contains reports whether the valuation num/den (see [DBM.Contains])
// belongs to some member.
//
// Precondition: as for DBM.Contains (checked).
// Postcondition: f is unchanged.
func (f Federation) Contains(num []int64, den int64) bool {
	for _, z := range f.Zones {
		if z.Contains(num, den) {
			return true
		}
	}
	return false
}

// Hull returns the convex hull of the members (a new DBM), or an empty
// marked DBM if f is empty.
//
// Precondition: f's members are closed and non-empty (checked in debug
// builds).
// Postcondition: f is unchanged; the result is closed and includes every
// member.
func (f Federation) Hull() DBM {
	h := New(f.Dim)
	if len(f.Zones) == 0 {
		h.markEmpty()
		return h
	}
	h.CopyFrom(f.Zones[0])
	for _, z := range f.Zones[1:] {
		h.ConvexHull(z)
	}
	return h
}

// String renders f as a disjunction of its members, "false" when empty.
//
// Precondition: none.
// Postcondition: f is unchanged.
func (f Federation) String() string { return f.Format(nil) }

// Format is [Federation.String] with clock names (see [DBM.Format]).
//
// Precondition: none.
// Postcondition: f is unchanged.
func (f Federation) Format(names []string) string {
	if len(f.Zones) == 0 {
		return "false"
	}
	if len(f.Zones) == 1 {
		return f.Zones[0].Format(names)
	}
	parts := make([]string, len(f.Zones))
	for k, z := range f.Zones {
		parts[k] = "(" + z.Format(names) + ")"
	}
	return strings.Join(parts, " || ")
}

// IsValid reports whether every member is valid (see [DBM.IsValid]) and of
// dimension f.Dim. For debugging and tests only.
//
// Precondition: none.
// Postcondition: f is unchanged.
func (f Federation) IsValid() bool {
	for _, z := range f.Zones {
		if z.Dim != f.Dim || !z.IsValid() {
			return false
		}
	}
	return true
}

func (f Federation) sameDim(op string, d DBM) {
	if d.Dim != f.Dim {
		panic(fmt.Sprintf("dbm: Federation.%s: dimensions %d and %d differ", op, f.Dim, d.Dim))
	}
}

package dbm

import (
	"slices"
	"testing"
)

// The tests in this file check each DBM operation against its meaning as a
// set of valuations, by sampling rational points (see helpers_test.go) and,
// where a direct exact reference exists, by comparing with it.

const (
	testMaxConst = 6 // small constants make boundaries likely to be hit
	testMaxDim   = 6
)

// testSeeds is the number of random cases per property test, multiplied
// by -dbm.scale (see TestMain).
var testSeeds = 1000

func TestNewInitIsPositiveOrthant(t *testing.T) {
	for dim := 1; dim <= 5; dim++ {
		d := New(dim)
		if !d.IsValid() || d.IsEmpty() || !d.IsUnbounded() && dim > 1 {
			t.Fatalf("New(%d) invalid:\n%s", dim, d.Matrix())
		}
		if d.String() != "true" {
			t.Errorf("New(%d).String() = %q, want true", dim, d.String())
		}
		p := point{num: make([]int64, dim), den: 1}
		for x := 1; x < dim; x++ {
			p.num[x] = int64(100 * x)
		}
		if !d.Contains(p.num, p.den) {
			t.Errorf("New(%d) misses %v", dim, p)
		}
	}
}

func TestZeroIsOrigin(t *testing.T) {
	d := New(4)
	d.Zero()
	if !d.IsValid() {
		t.Fatalf("Zero invalid:\n%s", d.Matrix())
	}
	if got := d.String(); got != "x1==0 && x2==0 && x3==0" {
		t.Errorf("Zero().String() = %q", got)
	}
	if !d.Contains([]int64{0, 0, 0, 0}, 1) || d.Contains([]int64{0, 0, 1, 0}, 4) {
		t.Error("Zero membership wrong")
	}
}

func TestNewRejectsBadDimension(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("New(0) did not panic")
		}
	}()
	New(0)
}

// randomMatrix returns an arbitrary unclosed matrix over non-negative clocks
// (row 0 ≤ 0, diagonal ≤ 0), with some infinite entries.
func randomMatrix(rng interface{ IntN(int) int }, dim int, maxConst int) DBM {
	d := New(dim)
	for i := 0; i < dim; i++ {
		for j := 0; j < dim; j++ {
			if i == j || rng.IntN(3) == 0 {
				continue
			}
			c := int32(rng.IntN(2*maxConst+1) - maxConst)
			if i == 0 && c > 0 {
				c = -c
			}
			if rng.IntN(2) == 0 {
				d.Set(i, j, LT(c))
			} else {
				d.Set(i, j, LE(c))
			}
		}
	}
	return d
}

// TestCloseMatchesReference: Close reports emptiness exactly as an
// independent Bellman–Ford test does, leaves the set of valuations
// unchanged, yields a closed DBM, and is idempotent.
func TestCloseMatchesReference(t *testing.T) {
	rng := newRand(1)
	empties := 0
	for seed := 0; seed < 3*testSeeds; seed++ {
		dim := 1 + rng.IntN(testMaxDim)
		raw := randomMatrix(rng, dim, testMaxConst)
		d := raw.Clone()
		ok := d.Close()
		if want := !negCycle(raw); ok != want {
			t.Fatalf("Close() = %v, reference non-empty = %v\n%s", ok, want, raw.Matrix())
		}
		if !ok {
			empties++
			if !d.IsEmpty() {
				t.Fatalf("empty result not marked:\n%s", d.Matrix())
			}
			for _, p := range samplePoints(rng, dim, testMaxConst, 50) {
				if naiveIn(raw, p) {
					t.Fatalf("Close says empty but %v satisfies\n%s", p, raw.Matrix())
				}
			}
			continue
		}
		if !d.IsClosed() || !d.IsValid() {
			t.Fatalf("Close result not closed/valid:\n%s", d.Matrix())
		}
		for _, p := range samplePoints(rng, dim, testMaxConst, 60, d) {
			if naiveIn(raw, p) != naiveIn(d, p) || naiveIn(d, p) != d.Contains(p.num, p.den) {
				t.Fatalf("Close changed membership of %v\nraw:\n%s\nclosed:\n%s", p, raw.Matrix(), d.Matrix())
			}
		}
		e := d.Clone()
		if !e.Close() || !slices.Equal(e.M, d.M) {
			t.Fatalf("Close not idempotent:\n%s\n%s", d.Matrix(), e.Matrix())
		}
	}
	if empties == 0 {
		t.Error("generator produced no empty matrices")
	}
}

func TestCloseDetectsEmpty(t *testing.T) {
	tests := []struct {
		name string
		dim  int
		cs   []Constraint
	}{
		{"x1<1 && x1>1", 2, []Constraint{lt(1, 0, 1), lt(0, 1, -1)}},
		{"x1<=1 && x1>1", 2, []Constraint{le(1, 0, 1), lt(0, 1, -1)}},
		{"x1<1 && x1>=1", 2, []Constraint{lt(1, 0, 1), le(0, 1, -1)}},
		{"strict zero cycle x1<x2<=x1", 3, []Constraint{lt(1, 2, 0), le(2, 1, 0)}},
		{"four-clock cycle of sum <0", 5, []Constraint{lt(1, 2, 1), le(2, 4, -2), le(4, 3, 0), le(3, 1, 1)}},
		{"negative clock", 2, []Constraint{lt(1, 0, 0)}},
		{"negative diagonal entry", 3, []Constraint{lt(2, 2, 0)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := New(tt.dim)
			for _, c := range tt.cs {
				d.Set(c.I, c.J, min(d.At(c.I, c.J), c.B))
			}
			if d.Close() {
				t.Fatalf("Close() = true on an empty zone:\n%s", d.Matrix())
			}
			if !d.IsEmpty() || d.String() != "false" {
				t.Errorf("not marked empty: IsEmpty=%v String=%q", d.IsEmpty(), d.String())
			}
			// The same constraints applied one at a time with Constrain.
			e := New(tt.dim)
			ok := true
			for _, c := range tt.cs {
				ok = ok && e.ConstrainC(c)
			}
			if ok || !e.IsEmpty() {
				t.Errorf("Constrain sequence did not detect emptiness")
			}
		})
	}
}

func TestCloseKeepsNonEmpty(t *testing.T) {
	// x1 − x2 ≤ 3, x2 < 7, x1 > 0 (closure derives x1 < 10 and x2 − x1 < 7).
	d := New(3)
	d.Set(0, 1, LT(0))
	d.Set(1, 2, LE(3))
	d.Set(2, 0, LT(7))
	if !d.Close() {
		t.Fatal("empty")
	}
	want := []Bound{
		LEZero, LT(0), LEZero,
		LT(10), LEZero, LE(3),
		LT(7), LT(7), LEZero,
	}
	if !slices.Equal(d.M, want) {
		t.Errorf("closed matrix:\n%s", d.Matrix())
	}
}

// TestConstrainMatchesFullClose: the O(n²) incremental closure gives the
// same matrix as setting the entry and running the O(n³) Close, and its
// set is the intersection with the constraint.
func TestConstrainMatchesFullClose(t *testing.T) {
	rng := newRand(2)
	for seed := 0; seed < 2*testSeeds; seed++ {
		dim := genDim(rng, testMaxDim)
		if dim == 1 {
			continue
		}
		d := genDBM(rng, dim, testMaxConst)
		c := randConstraint(rng, dim, testMaxConst)
		inc := d.Clone()
		okInc := inc.ConstrainC(c)
		full := d.Clone()
		full.Set(c.I, c.J, min(full.At(c.I, c.J), c.B))
		okFull := full.Close()
		if okInc != okFull {
			t.Fatalf("Constrain(%v) = %v, Close = %v\n%s", c, okInc, okFull, d.Matrix())
		}
		if okInc != d.SatisfiesC(c) {
			t.Fatalf("Satisfies(%v) = %v but Constrain = %v\n%s", c, d.SatisfiesC(c), okInc, d.Matrix())
		}
		if !okInc {
			if !inc.IsEmpty() {
				t.Fatal("empty Constrain result not marked")
			}
			continue
		}
		if !slices.Equal(inc.M, full.M) || !inc.IsValid() {
			t.Fatalf("Constrain(%v) differs from full closure\ninput:\n%s\nincremental:\n%s\nfull:\n%s", c, d.Matrix(), inc.Matrix(), full.Matrix())
		}
		for _, p := range samplePoints(rng, dim, testMaxConst, 40, d, inc) {
			want := naiveIn(d, p) && p.satisfies(c)
			if inc.Contains(p.num, p.den) != want {
				t.Fatalf("Constrain(%v): %v membership %v, want %v\n%s", c, p, !want, want, d.Matrix())
			}
		}
	}
}

func TestConstrainNoOpAndTrivial(t *testing.T) {
	d := zoneOf(t, 3, le(1, 0, 5), lt(1, 2, 2))
	before := d.Clone()
	for _, c := range []Constraint{le(1, 0, 5), le(1, 0, 6), {1, 2, LTInf}, le(2, 2, 0), lt(1, 2, 3)} {
		if !d.ConstrainC(c) || !d.Equal(before) {
			t.Errorf("Constrain(%v) changed an implied constraint:\n%s", c, d.Matrix())
		}
	}
	if d.Constrain(2, 2, LT(0)) {
		t.Error("x2 − x2 < 0 should empty the zone")
	}
}

func TestIntersectIsSetIntersection(t *testing.T) {
	rng := newRand(3)
	for seed := 0; seed < testSeeds; seed++ {
		dim := genDim(rng, testMaxDim)
		a, b := genDBM(rng, dim, testMaxConst), genDBM(rng, dim, testMaxConst)
		c := a.Clone()
		ok := c.Intersect(b)
		// Exact emptiness reference: Bellman–Ford on the entry-wise minimum.
		raw := a.Clone()
		for k, v := range b.M {
			raw.M[k] = min(raw.M[k], v)
		}
		if ok != !negCycle(raw) {
			t.Fatalf("Intersect = %v, reference %v", ok, !negCycle(raw))
		}
		if !ok {
			continue
		}
		if !c.IsValid() {
			t.Fatalf("Intersect result invalid:\n%s", c.Matrix())
		}
		for _, p := range samplePoints(rng, dim, testMaxConst, 40, a, b, c) {
			if c.Contains(p.num, p.den) != (naiveIn(a, p) && naiveIn(b, p)) {
				t.Fatalf("Intersect membership of %v wrong", p)
			}
		}
	}
}

// TestUpIsDelay: p ∈ Up(Z) iff p − δ ∈ Z for some δ ≥ 0, checked exactly
// (δ as an interval) and by sampled delays (every delayed point of Z is in
// Up(Z)).
func TestUpIsDelay(t *testing.T) {
	rng := newRand(4)
	for seed := 0; seed < testSeeds; seed++ {
		dim := genDim(rng, testMaxDim)
		z := genDBM(rng, dim, testMaxConst)
		u := z.Clone()
		u.Up()
		if !u.IsValid() {
			t.Fatalf("Up result invalid:\n%s", u.Matrix())
		}
		pts := samplePoints(rng, dim, testMaxConst, 50, z, u)
		for _, p := range pts {
			if got, want := u.Contains(p.num, p.den), anyDelayIn(z, p, -1); got != want {
				t.Fatalf("Up: %v in result = %v, want %v\nZ:\n%s\nUp(Z):\n%s", p, got, want, z.Matrix(), u.Matrix())
			}
			if naiveIn(z, p) {
				for _, delta := range []int64{0, 1, 3, 5, 7, 12, 100} {
					q := point{num: slices.Clone(p.num), den: p.den * 4}
					for x := 1; x < dim; x++ {
						q.num[x] = p.num[x]*4 + delta
					}
					if !u.Contains(q.num, q.den) {
						t.Fatalf("Up: %v delayed by %d/%d = %v missing", p, delta, q.den, q)
					}
				}
			}
		}
	}
}

// TestUpBoundedIsUpThenConstrain checks UpBounded against its definition,
// Up followed by one Constrain per upper bound, on random zones and bounds
// that the zone satisfies; some with more than 64 bounded clocks, where
// UpBounded no longer lists them.
func TestUpBoundedIsUpThenConstrain(t *testing.T) {
	rng := newRand(41)
	many := 0
	for seed := 0; seed < testSeeds; seed++ {
		dim := genDim(rng, testMaxDim)
		if seed%100 == 0 {
			dim = 60 + rng.IntN(21)
		}
		z := genDBM(rng, dim, testMaxConst)
		upper := make([]Bound, dim)
		if seed%200 == 0 {
			z.Zero() // every clock bounded
		}
		for i := 1; i < dim; i++ {
			upper[i] = LTInf
			if (rng.IntN(3) > 0 || seed%200 == 0) && z.At(i, 0) != LTInf {
				// a bound the zone satisfies: its own or a weaker one
				c := z.At(i, 0).Const() + rng.Int32N(4)
				if c == z.At(i, 0).Const() && z.At(i, 0).Strict() {
					upper[i] = LT(c)
				} else if rng.IntN(2) == 0 && c > z.At(i, 0).Const() {
					upper[i] = LT(c)
				} else {
					upper[i] = LE(c)
				}
			}
		}
		want := z.Clone()
		want.Up()
		for i := 1; i < dim; i++ {
			if upper[i] != LTInf && !want.Constrain(i, 0, upper[i]) {
				t.Fatalf("empty: the zone does not satisfy its bounds")
			}
		}
		bounded := 0
		for _, b := range upper[1:] {
			if b != LTInf {
				bounded++
			}
		}
		if bounded > 64 {
			many++
		}
		got := z.Clone()
		got.UpBounded(upper)
		if !got.Equal(want) {
			t.Fatalf("UpBounded differs from Up+Constrain\nZ:\n%s\nbounds %v\ngot:\n%s\nwant:\n%s", z.Matrix(), upper, got.Matrix(), want.Matrix())
		}
	}
	if many == 0 {
		t.Error("no zone with more than 64 bounded clocks")
	}
}

func TestDownIsPast(t *testing.T) {
	rng := newRand(5)
	for seed := 0; seed < testSeeds; seed++ {
		dim := genDim(rng, testMaxDim)
		z := genDBM(rng, dim, testMaxConst)
		dn := z.Clone()
		dn.Down()
		if !dn.IsValid() {
			t.Fatalf("Down result invalid:\n%s\nfrom\n%s", dn.Matrix(), z.Matrix())
		}
		for _, p := range samplePoints(rng, dim, testMaxConst, 50, z, dn) {
			if got, want := dn.Contains(p.num, p.den), anyDelayIn(z, p, +1); got != want {
				t.Fatalf("Down: %v in result = %v, want %v\nZ:\n%s\nDown(Z):\n%s", p, got, want, z.Matrix(), dn.Matrix())
			}
		}
	}
}

func TestResetIsAssignment(t *testing.T) {
	rng := newRand(6)
	for seed := 0; seed < testSeeds; seed++ {
		dim := genDim(rng, testMaxDim)
		if dim == 1 {
			continue
		}
		z := genDBM(rng, dim, testMaxConst)
		x := 1 + rng.IntN(dim-1)
		v := rng.Int32N(testMaxConst + 1)
		r := z.Clone()
		r.Reset(x, v)
		if !r.IsValid() {
			t.Fatalf("Reset invalid:\n%s", r.Matrix())
		}
		for _, p := range samplePoints(rng, dim, testMaxConst, 50, z, r) {
			want := p.num[x] == int64(v)*p.den && anyValueIn(z, p, x)
			if got := r.Contains(p.num, p.den); got != want {
				t.Fatalf("Reset(x%d, %d): %v in result = %v, want %v\nZ:\n%s\nresult:\n%s", x, v, p, got, want, z.Matrix(), r.Matrix())
			}
		}
	}
}

func TestFreeReleasesClock(t *testing.T) {
	rng := newRand(7)
	for seed := 0; seed < testSeeds; seed++ {
		dim := genDim(rng, testMaxDim)
		if dim == 1 {
			continue
		}
		z := genDBM(rng, dim, testMaxConst)
		x := 1 + rng.IntN(dim-1)
		f := z.Clone()
		f.Free(x)
		if !f.IsValid() {
			t.Fatalf("Free invalid:\n%s", f.Matrix())
		}
		for _, p := range samplePoints(rng, dim, testMaxConst, 50, z, f) {
			if got, want := f.Contains(p.num, p.den), anyValueIn(z, p, x); got != want {
				t.Fatalf("Free(x%d): %v in result = %v, want %v\nZ:\n%s\nresult:\n%s", x, p, got, want, z.Matrix(), f.Matrix())
			}
		}
	}
}

func TestResetAndFreeRejectBadClock(t *testing.T) {
	for name, f := range map[string]func(){
		"Reset(0)":     func() { New(3).Reset(0, 1) },
		"Reset(3)":     func() { New(3).Reset(3, 1) },
		"Reset(x, -1)": func() { New(3).Reset(1, -1) },
		"Free(0)":      func() { New(3).Free(0) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s did not panic", name)
				}
			}()
			f()
		}()
	}
}

func TestSatisfiesAndImplies(t *testing.T) {
	rng := newRand(8)
	for seed := 0; seed < 2*testSeeds; seed++ {
		dim := genDim(rng, testMaxDim)
		if dim == 1 {
			continue
		}
		z := genDBM(rng, dim, testMaxConst)
		c := randConstraint(rng, dim, testMaxConst)
		// Satisfies: the intersection is non-empty.
		e := z.Clone()
		if got, want := z.SatisfiesC(c), e.ConstrainC(c); got != want {
			t.Fatalf("Satisfies(%v) = %v, want %v\n%s", c, got, want, z.Matrix())
		}
		// Implies: the negation has an empty intersection.
		e = z.Clone()
		if got, want := z.Implies(c.I, c.J, c.B), !e.ConstrainC(c.Neg()); got != want {
			t.Fatalf("Implies(%v) = %v, want %v\n%s", c, got, want, z.Matrix())
		}
	}
}

// TestRelationIsExactInclusion compares Relation and SubsetEq with a
// reference inclusion test (constraint by constraint emptiness of a ∧ ¬c),
// and checks the reference's witnesses point-wise.
func TestRelationIsExactInclusion(t *testing.T) {
	rng := newRand(9)
	counts := map[Relation]int{}
	for seed := 0; seed < 3*testSeeds; seed++ {
		dim := genDim(rng, testMaxDim)
		a := genDBM(rng, dim, testMaxConst)
		var b DBM
		switch rng.IntN(5) {
		case 0: // a superset of a
			b = a.Clone()
			b.Up()
			if dim > 1 && rng.IntN(2) == 0 {
				b.Free(1 + rng.IntN(dim-1))
			}
		case 1: // a subset of a
			b = a.Clone()
			if dim > 1 {
				c := randConstraint(rng, dim, testMaxConst)
				if b.SatisfiesC(c) {
					b.ConstrainC(c)
				}
			}
		case 2:
			b = a.Clone()
		default:
			b = genDBM(rng, dim, testMaxConst)
		}
		sub, wSub := refSubsetEq(a, b)
		sup, wSup := refSubsetEq(b, a)
		want := Different
		if sub {
			want |= Subset
		}
		if sup {
			want |= Superset
		}
		got := a.Relation(b)
		counts[got]++
		if got != want {
			t.Fatalf("Relation = %v, want %v\na:\n%s\nb:\n%s", got, want, a.Matrix(), b.Matrix())
		}
		if a.SubsetEq(b) != sub || b.SubsetEq(a) != sup || a.Equal(b) != (sub && sup) {
			t.Fatalf("SubsetEq/Equal disagree with Relation %v", got)
		}
		if sub && sup && !slices.Equal(a.M, b.M) {
			t.Fatal("Relation Equal but matrices differ (antisymmetry)")
		}
		if inv := b.Relation(a); inv != (got&Subset)<<1|(got&Superset)>>1 {
			t.Fatalf("Relation not symmetric: %v vs %v", got, inv)
		}
		if w := wSub; w != nil && (!naiveIn(a, *w) || naiveIn(b, *w)) {
			t.Fatalf("witness %v of a ⊄ b is wrong", *w)
		}
		if w := wSup; w != nil && (!naiveIn(b, *w) || naiveIn(a, *w)) {
			t.Fatalf("witness %v of b ⊄ a is wrong", *w)
		}
		if sub {
			for _, p := range samplePoints(rng, dim, testMaxConst, 20, a) {
				if naiveIn(a, p) && !naiveIn(b, p) {
					t.Fatalf("Subset but %v ∈ a \\ b", p)
				}
			}
		}
	}
	for _, r := range []Relation{Different, Subset, Superset, Equal} {
		if counts[r] == 0 {
			t.Errorf("no case with relation %v", r)
		}
	}
}

func TestRelationWithEmpty(t *testing.T) {
	a := zoneOf(t, 3, le(1, 0, 4))
	e := New(3)
	e.Constrain(1, 0, LT(0))
	if r := e.Relation(a); r != Subset {
		t.Errorf("empty vs non-empty = %v, want subset", r)
	}
	if r := a.Relation(e); r != Superset {
		t.Errorf("non-empty vs empty = %v, want superset", r)
	}
	if r := e.Relation(e.Clone()); r != Equal {
		t.Errorf("empty vs empty = %v, want equal", r)
	}
	if !e.SubsetEq(a) || a.SubsetEq(e) || a.Equal(e) {
		t.Error("SubsetEq/Equal with empty")
	}
}

func TestRelationString(t *testing.T) {
	for r, want := range map[Relation]string{Different: "different", Subset: "subset", Superset: "superset", Equal: "equal"} {
		if r.String() != want {
			t.Errorf("%d.String() = %q", r, r.String())
		}
	}
}

func TestConvexHullIsSmallestEnclosingZone(t *testing.T) {
	rng := newRand(10)
	for seed := 0; seed < testSeeds; seed++ {
		dim := genDim(rng, testMaxDim)
		a, b := genDBM(rng, dim, testMaxConst), genDBM(rng, dim, testMaxConst)
		h := a.Clone()
		h.ConvexHull(b)
		if !h.IsValid() || !a.SubsetEq(h) || !b.SubsetEq(h) {
			t.Fatalf("hull invalid or not enclosing\n%s", h.Matrix())
		}
		// Smallest: every entry of the hull is attained by a or b, so any
		// zone containing both has entries at least as large.
		for k := range h.M {
			if h.M[k] != a.M[k] && h.M[k] != b.M[k] {
				t.Fatalf("hull entry %d not from a or b", k)
			}
		}
		// Points of the hull lie in the convex hull of a ∪ b's closure; at
		// least check points of a and b are in it.
		for _, p := range samplePoints(rng, dim, testMaxConst, 20, a, b) {
			if (naiveIn(a, p) || naiveIn(b, p)) && !h.Contains(p.num, p.den) {
				t.Fatalf("hull misses %v", p)
			}
		}
	}
}

func TestHashAndEqual(t *testing.T) {
	rng := newRand(11)
	seen := map[uint64]int{}
	for seed := 0; seed < testSeeds; seed++ {
		dim := genDim(rng, testMaxDim)
		a := genDBM(rng, dim, testMaxConst)
		b := a.Clone()
		if !a.Equal(b) || a.Hash() != b.Hash() {
			t.Fatal("clone differs")
		}
		seen[a.Hash()]++
	}
	if len(seen) < testSeeds/4 {
		t.Errorf("only %d distinct hashes for %d random zones", len(seen), testSeeds)
	}
	if New(2).Equal(New(3)) {
		t.Error("DBMs of different dimension equal")
	}
}

func TestCopyFromAndClone(t *testing.T) {
	a := zoneOf(t, 3, le(1, 0, 4), lt(2, 1, 1))
	b := New(3)
	b.CopyFrom(a)
	if !b.Equal(a) {
		t.Error("CopyFrom")
	}
	c := a.Clone()
	c.Up()
	if a.Equal(c) {
		t.Error("Clone shares storage")
	}
	defer func() {
		if recover() == nil {
			t.Error("CopyFrom across dimensions did not panic")
		}
	}()
	New(2).CopyFrom(a)
}

func TestContainsTable(t *testing.T) {
	// 1 < x1 ≤ 3, x1 − x2 < 1.
	d := zoneOf(t, 3, lt(0, 1, -1), le(1, 0, 3), lt(1, 2, 1))
	tests := []struct {
		num  []int64
		den  int64
		want bool
	}{
		{[]int64{0, 2, 2}, 1, true},
		{[]int64{0, 1, 5}, 1, false}, // x1 = 1 excluded
		{[]int64{0, 3, 3}, 1, true},  // x1 = 3 included
		{[]int64{0, 7, 6}, 2, false}, // x1 = 7/2 > 3
		{[]int64{0, 5, 3}, 2, false}, // x1 − x2 = 1 excluded
		{[]int64{0, 5, 4}, 3, true},  // x1 = 5/3, x2 = 4/3, diff 1/3
	}
	for _, tt := range tests {
		if got := d.Contains(tt.num, tt.den); got != tt.want {
			t.Errorf("Contains(%v/%d) = %v, want %v", tt.num, tt.den, got, tt.want)
		}
	}
}

// TestPointIsInZone: Point returns a member of the zone, deterministically,
// in lowest terms, with integer coordinates whenever the zone has an
// integer point in the greedy order, including thin strict zones.
func TestPointIsInZone(t *testing.T) {
	rng := newRand(12)
	for seed := 0; seed < 2*testSeeds; seed++ {
		dim := genDim(rng, testMaxDim)
		z := genDBM(rng, dim, testMaxConst)
		num, den := z.Point()
		p := point{num, den}
		if !naiveIn(z, p) || !z.Contains(num, den) {
			t.Fatalf("Point %v not in zone\n%s", p, z.Matrix())
		}
		num2, den2 := z.Point()
		if den2 != den || !slices.Equal(num, num2) {
			t.Fatal("Point not deterministic")
		}
		g := uint64(den)
		for _, v := range num {
			g = gcd(g, uint64(v))
		}
		if g != 1 {
			t.Fatalf("Point %v/%d not in lowest terms", num, den)
		}
		if den&(den-1) != 0 {
			t.Fatalf("denominator %d not a power of two", den)
		}
	}
	thin := []struct {
		name string
		dim  int
		cs   []Constraint
	}{
		{"0<x1<1", 2, []Constraint{lt(0, 1, 0), lt(1, 0, 1)}},
		{"0<x1<x2<x3<1", 4, []Constraint{lt(0, 1, 0), lt(1, 2, 0), lt(2, 3, 0), lt(3, 0, 1)}},
		{"x1-x2==1/2 impossible on integers: 0<x1-x2<1", 3, []Constraint{lt(2, 1, 0), lt(1, 2, 1), le(1, 0, 5)}},
		{"5 chained strict clocks in (2,3)", 7, []Constraint{lt(0, 1, -2), lt(1, 2, 0), lt(2, 3, 0), lt(3, 4, 0), lt(4, 5, 0), lt(5, 6, 0), lt(6, 0, 3)}},
	}
	for _, tt := range thin {
		z := zoneOf(t, tt.dim, tt.cs...)
		num, den := z.Point()
		if !naiveIn(z, point{num, den}) {
			t.Errorf("%s: Point %v/%d not in zone", tt.name, num, den)
		}
	}
	// Integer zones give integer, smallest points.
	z := zoneOf(t, 3, le(0, 1, -2), le(1, 0, 4), le(0, 2, -1), le(2, 1, 0))
	if num, den := z.Point(); den != 1 || !slices.Equal(num, []int64{0, 2, 1}) {
		t.Errorf("Point of integer zone = %v/%d, want [0 2 1]/1", num, den)
	}
}

func TestSupInfBounds(t *testing.T) {
	// 1 < x1 ≤ 3, x2 ≥ 2, x2 − x1 < 4 (so x2 < 7).
	z := zoneOf(t, 3, lt(0, 1, -1), le(1, 0, 3), le(0, 2, -2), lt(2, 1, 4))
	if s := z.Sup(1); s != LE(3) {
		t.Errorf("Sup(x1) = %v, want <=3", s)
	}
	if s := z.Sup(2); s != LT(7) {
		t.Errorf("Sup(x2) = %v, want <7", s)
	}
	if v, strict := z.Inf(1); v != 1 || !strict {
		t.Errorf("Inf(x1) = %d strict=%v, want 1 strict", v, strict)
	}
	if v, strict := z.Inf(2); v != 2 || strict {
		t.Errorf("Inf(x2) = %d strict=%v, want 2 attained", v, strict)
	}
	if z.UpperBound(1) != LE(3) || z.LowerBound(1) != LT(-1) {
		t.Error("Upper/LowerBound")
	}
	if z.IsUnbounded() {
		t.Error("bounded zone reported unbounded")
	}
	z.Up()
	if z.Sup(1) != LTInf || !z.IsUnbounded() {
		t.Error("Up zone has a finite sup")
	}
}

// TestMinConstraintsRebuildAndMinimal: the minimal constraints rebuild the
// zone exactly, and none of them can be dropped.
func TestMinConstraintsRebuildAndMinimal(t *testing.T) {
	rng := newRand(13)
	for seed := 0; seed < testSeeds; seed++ {
		dim := genDim(rng, testMaxDim)
		z := genDBM(rng, dim, testMaxConst)
		cs := z.MinConstraints(nil)
		r := New(dim)
		for _, c := range cs {
			if !r.ConstrainC(c) {
				t.Fatalf("rebuild empty")
			}
		}
		if !r.Equal(z) {
			t.Fatalf("rebuild from %v differs\nzone:\n%s\nrebuilt:\n%s", cs, z.Matrix(), r.Matrix())
		}
		for skip := range cs {
			r := New(dim)
			for k, c := range cs {
				if k != skip {
					r.ConstrainC(c)
				}
			}
			if r.Equal(z) {
				t.Fatalf("constraint %v of %v is redundant\n%s", cs[skip], cs, z.Matrix())
			}
		}
	}
}

func TestStringFormat(t *testing.T) {
	tests := []struct {
		name string
		dim  int
		cs   []Constraint
		want string
	}{
		{"universal", 3, nil, "true"},
		{"upper and lower", 2, []Constraint{le(0, 1, -1), le(1, 0, 3)}, "x1>=1 && x1<=3"},
		{"strict", 2, []Constraint{lt(0, 1, -1), lt(1, 0, 3)}, "x1>1 && x1<3"},
		{"difference", 3, []Constraint{le(0, 1, -1), le(1, 0, 3), lt(1, 2, 1)}, "x1>=1 && x1<=3 && x1-x2<1"},
		{"equal clocks", 3, []Constraint{le(1, 2, 0), le(2, 1, 0), le(1, 0, 4)}, "x1<=4 && x1==x2"},
		{"fixed value", 3, []Constraint{le(1, 0, 2), le(0, 1, -2)}, "x1==2"},
		{"fixed offset", 3, []Constraint{le(1, 2, 3), le(2, 1, -3)}, "x1-x2==3"},
		{"clock at zero", 2, []Constraint{le(1, 0, 0)}, "x1==0"},
		{"lower difference", 3, []Constraint{lt(2, 1, 2)}, "x1-x2>-2"},
		{"implied bound dropped", 3, []Constraint{le(1, 0, 3), le(2, 1, 0)}, "x1<=3 && x1-x2>=0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			z := zoneOf(t, tt.dim, tt.cs...)
			if got := z.String(); got != tt.want {
				t.Errorf("String() = %q, want %q\n%s", got, tt.want, z.Matrix())
			}
		})
	}
	z := zoneOf(t, 3, le(1, 0, 3), lt(1, 2, 1))
	if got := z.Format([]string{"", "x", "y"}); got != "x<=3 && x-y<1" {
		t.Errorf("Format = %q", got)
	}
}

func TestMatrixTable(t *testing.T) {
	z := zoneOf(t, 3, le(0, 1, -1), le(1, 0, 3), lt(1, 2, 1))
	want := "" +
		"0     <=0   <=-1  <0\n" +
		"x1    <=3   <=0   <1\n" +
		"x2    <inf  <inf  <=0\n"
	got := z.Matrix()
	// The header row comes first.
	if len(got) < len(want) || got[len(got)-len(want):] != want {
		t.Errorf("Matrix() =\n%s\nwant rows\n%s", got, want)
	}
}

// TestHotOperationsDoNotAllocate guards the zero-allocation promise the
// benchmarks measure.
func TestHotOperationsDoNotAllocate(t *testing.T) {
	rng := newRand(14)
	z := genDBM(rng, 8, 20)
	w := z.Clone()
	o := genDBM(rng, 8, 20)
	max := []int32{0, 5, 10, 3, NoBound, 7, 2, 20}
	l := []int32{0, 5, 1, 3, NoBound, 7, 2, NoBound}
	ops := map[string]func(){
		"Close":       func() { w.CopyFrom(z); w.Close() },
		"Constrain":   func() { w.CopyFrom(z); w.Constrain(1, 2, LE(1)) },
		"Up":          func() { w.CopyFrom(z); w.Up() },
		"Down":        func() { w.CopyFrom(z); w.Down() },
		"Reset":       func() { w.CopyFrom(z); w.Reset(3, 2) },
		"Free":        func() { w.CopyFrom(z); w.Free(3) },
		"Relation":    func() { _ = z.Relation(o) },
		"SubsetEq":    func() { _ = z.SubsetEq(o) },
		"Intersect":   func() { w.CopyFrom(z); w.Intersect(o) },
		"Hash":        func() { _ = z.Hash() },
		"ExtraM":      func() { w.CopyFrom(z); w.ExtraM(max) },
		"ExtraMPlus":  func() { w.CopyFrom(z); w.ExtraMPlus(max) },
		"ExtraLU":     func() { w.CopyFrom(z); w.ExtraLU(l, max) },
		"ExtraLUPlus": func() { w.CopyFrom(z); w.ExtraLUPlus(l, max) },
		"ConvexHull":  func() { w.CopyFrom(z); w.ConvexHull(o) },
		"Satisfies":   func() { _ = z.Satisfies(1, 2, LT(0)) },
	}
	if debug {
		t.Skip("debug builds allocate in their precondition checks")
	}
	for name, op := range ops {
		if a := testing.AllocsPerRun(50, op); a != 0 {
			t.Errorf("%s allocates %.1f times per call", name, a)
		}
	}
}

// refClose is the textbook Floyd–Warshall closure, with no row skipped.
func refClose(d DBM) (DBM, bool) {
	e := d.Clone()
	n := e.Dim
	for k := 0; k < n; k++ {
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				if s := e.At(i, k).Add(e.At(k, j)); s < e.At(i, j) {
					e.Set(i, j, s)
				}
			}
		}
	}
	for i := 0; i < n; i++ {
		if e.At(i, i) < LEZero {
			return e, false
		}
	}
	return e, true
}

// TestCloseSkipsOnlyFreeClocks: Close skips the rows that are < ∞ off the
// diagonal (clocks an extrapolation freed) and gives the textbook closure
// entry for entry, also beyond dimension 64, where ExtraLUPlus's record of
// the free rows ends and rows are scanned; ExtraLUPlus, which hands that
// record to the closure, gives a closed zone equal to the definition's.
func TestCloseSkipsOnlyFreeClocks(t *testing.T) {
	rng := newRand(3)
	for seed := 0; seed < testSeeds; seed++ {
		dim := 2 + rng.IntN(8)
		if seed%50 == 0 {
			dim = 60 + rng.IntN(12)
		}
		z := genDBM(rng, dim, testMaxConst)
		raw := z.Clone()
		for x := 1; x < dim; x++ {
			if rng.IntN(2) == 0 {
				continue
			}
			for j := 0; j < dim; j++ {
				if j != x {
					raw.Set(x, j, LTInf) // row x free: x unbounded above, no difference bounded
				}
			}
			// and loosen the column, as Extra_LU does for a clock without bounds
			for i := 1; i < dim; i++ {
				if i != x {
					raw.Set(i, x, LTInf)
				}
			}
			raw.Set(0, x, LEZero)
		}
		got := raw.Clone()
		ok := got.Close()
		want, wantOK := refClose(raw)
		if ok != wantOK || ok && !slices.Equal(got.M, want.M) {
			t.Fatalf("dim %d: Close = %v, textbook = %v\nraw:\n%s\ngot:\n%s\nwant:\n%s", dim, ok, wantOK, raw.Matrix(), got.Matrix(), want.Matrix())
		}
		l, u := genBounds(rng, dim, testMaxConst), genBounds(rng, dim, testMaxConst)
		for x := 1; x < dim; x++ {
			if rng.IntN(2) == 0 {
				l[x], u[x] = NoBound, NoBound
			}
		}
		e := z.Clone()
		e.ExtraLUPlus(l, u)
		if w := refExtra(z, l, u, true); !e.IsClosed() || !e.Equal(w) {
			t.Fatalf("dim %d: ExtraLUPlus(L=%v U=%v) closed %v, differs from the definition\nZ:\n%s\ngot:\n%s\nwant:\n%s", dim, l, u, e.IsClosed(), z.Matrix(), e.Matrix(), w.Matrix())
		}
	}
}

// TestConstrainUpperIsConstrainEach checks ConstrainUpper (and UpperFits) against one
// Constrain per bound on random zones and upper bounds, some cutting the
// zone empty, several on one clock.
func TestConstrainUpperIsConstrainEach(t *testing.T) {
	rng := newRand(43)
	empties := 0
	for seed := 0; seed < 3*testSeeds; seed++ {
		dim := 2 + rng.IntN(testMaxDim)
		if seed%100 == 0 {
			dim = 30 + rng.IntN(10)
		}
		z := genDBM(rng, dim, testMaxConst)
		var cs []Constraint
		for range rng.IntN(2 * dim) {
			x := 1 + rng.IntN(dim-1)
			c := rng.Int32N(testMaxConst + 2)
			if rng.IntN(2) == 0 {
				cs = append(cs, Constraint{x, 0, LT(c)})
			} else {
				cs = append(cs, Constraint{x, 0, LE(c)})
			}
		}
		for _, c := range cs {
			if fits := z.Clone().ConstrainC(c); z.UpperFits(c.I, c.B) != fits {
				t.Fatalf("UpperFits(%v) = %v, Constrain = %v\nZ:\n%s", c, !fits, fits, z.Matrix())
			}
		}
		want := z.Clone()
		wantOK := true
		for _, c := range cs {
			if !want.ConstrainC(c) {
				wantOK = false
				break
			}
		}
		got := z.Clone()
		ok := got.ConstrainUpper(cs)
		if ok != wantOK {
			t.Fatalf("ConstrainUpper(%v) = %v, Constrain each = %v\nZ:\n%s", cs, ok, wantOK, z.Matrix())
		}
		if !ok {
			empties++
			if !got.IsEmpty() {
				t.Fatalf("empty result not marked")
			}
			continue
		}
		if !got.IsClosed() || !got.Equal(want) {
			t.Fatalf("ConstrainUpper(%v) differs from Constrain each\nZ:\n%s\ngot:\n%s\nwant:\n%s", cs, z.Matrix(), got.Matrix(), want.Matrix())
		}
	}
	if empties == 0 {
		t.Error("no bounds cut a zone empty")
	}
}

package dbm

import "testing"

// fuzzReader hands out the fuzz input byte by byte (zeros when exhausted).
type fuzzReader struct {
	data []byte
	pos  int
}

func (r *fuzzReader) byte() byte {
	if r.pos >= len(r.data) {
		return 0
	}
	b := r.data[r.pos]
	r.pos++
	return b
}

func (r *fuzzReader) done() bool { return r.pos >= len(r.data) }

// bound decodes a small bound: constant int8/4, strictness from the low bit.
func (r *fuzzReader) bound() Bound {
	b := r.byte()
	c := int32(int8(r.byte())) / 4
	if b&1 == 0 {
		return LT(c)
	}
	return LE(c)
}

func (r *fuzzReader) clockBounds(dim int) []int32 {
	m := make([]int32, dim)
	for x := 1; x < dim; x++ {
		if b := r.byte(); b >= 240 {
			m[x] = NoBound
		} else {
			m[x] = int32(b % 24)
		}
	}
	return m
}

// FuzzDBMOps decodes a dimension and a sequence of operations from the
// input, applies them to two DBMs and a federation, and checks after every
// step that nothing panics, every DBM stays valid and closed (IsValid),
// emptiness is reported consistently, and a few cheap semantic facts hold
// (Point in the zone, Z ⊆ extrapolations, Relation vs SubsetEq, pieces of
// a subtraction outside the subtrahend).
//
//	go test -run=XXX -fuzz=FuzzDBMOps -fuzztime=60s ./dbm/
func FuzzDBMOps(f *testing.F) {
	f.Add([]byte{3, 0, 1, 0, 9, 1, 2, 3, 1, 5})
	f.Add([]byte{4, 1, 3, 2, 7, 0, 2, 0, 3, 11, 9, 8, 7, 6, 5, 4, 3})
	f.Add([]byte{5, 13, 0, 1, 1, 20, 7, 3, 3, 3, 255, 0, 6, 11, 12})
	f.Add([]byte{2, 0, 0, 1, 1, 250, 0, 1, 0, 0, 8, 0, 11})
	f.Add([]byte{6, 3, 1, 5, 3, 2, 7, 1, 4, 1, 8, 2, 15, 1, 2, 1, 40, 14, 16, 10, 12})
	f.Add([]byte{7, 0, 2, 3, 1, 9, 0, 5, 1, 1, 30, 1, 9, 11, 14, 6, 15, 2, 0, 1, 13, 16})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 400 {
			data = data[:400]
		}
		r := &fuzzReader{data: data}
		dim := 1 + int(r.byte()%7)
		a, b := New(dim), New(dim)
		fed := NewFederation(dim)
		var spares Spares // SubtractOwned's, across the steps of one input
		clock := func() int { return 1 + int(r.byte())%(dim-1) }
		pair := func() (int, int) { return int(r.byte()) % dim, int(r.byte()) % dim }
		check := func(step int, op string) {
			for name, d := range map[string]DBM{"a": a, "b": b} {
				if !d.IsValid() {
					t.Fatalf("step %d %s: %s invalid: %s\n%s", step, op, name, d.validate(), d.Matrix())
				}
			}
			if !fed.IsValid() {
				t.Fatalf("step %d %s: federation invalid", step, op)
			}
		}
		for step := 0; !r.done(); step++ {
			op := r.byte() % 17
			opName := ""
			switch op {
			case 0:
				opName = "Constrain"
				i, j := pair()
				bd := r.bound()
				sat := a.Satisfies(i, j, bd)
				if ok := a.Constrain(i, j, bd); ok != sat {
					t.Fatalf("Constrain = %v, Satisfies = %v", ok, sat)
				} else if !ok {
					if !a.IsEmpty() {
						t.Fatal("empty result not marked")
					}
					a.Init()
				}
			case 1:
				opName = "Up"
				a.Up()
			case 2:
				opName = "Down"
				a.Down()
			case 3:
				opName = "Reset"
				if dim > 1 {
					a.Reset(clock(), int32(r.byte()%16))
				}
			case 4:
				opName = "Free"
				if dim > 1 {
					a.Free(clock())
				}
			case 5:
				opName = "Intersect"
				if !a.Intersect(b) {
					a.Init()
				}
			case 6:
				opName = "ConvexHull"
				old := a.Clone()
				a.ConvexHull(b)
				if !old.SubsetEq(a) || !b.SubsetEq(a) {
					t.Fatal("hull does not include its arguments")
				}
			case 7:
				opName = "Extra"
				l, u := r.clockBounds(dim), r.clockBounds(dim)
				old := a.Clone()
				switch r.byte() % 4 {
				case 0:
					a.ExtraM(l)
				case 1:
					a.ExtraMPlus(l)
				case 2:
					a.ExtraLU(l, u)
				case 3:
					a.ExtraLUPlus(l, u)
				}
				if !old.SubsetEq(a) {
					t.Fatalf("extrapolation lost points\n%s\n%s", old.Matrix(), a.Matrix())
				}
			case 8:
				opName = "Swap"
				a, b = b, a
			case 9:
				opName = "Copy"
				b.CopyFrom(a)
			case 10:
				opName = "Relation"
				rel := a.Relation(b)
				if (rel&Subset != 0) != a.SubsetEq(b) || (rel&Superset != 0) != b.SubsetEq(a) || (rel == Equal) != a.Equal(b) {
					t.Fatalf("Relation %v inconsistent", rel)
				}
			case 11:
				opName = "Subtract"
				fed = a.Subtract(b, NewFederation(dim))
				for _, z := range fed.Zones {
					num, den := z.Point()
					if !a.Contains(num, den) || b.Contains(num, den) {
						t.Fatalf("piece point %v/%d not in a − b", num, den)
					}
				}
			case 12:
				opName = "Point"
				num, den := a.Point()
				if !a.Contains(num, den) {
					t.Fatalf("Point %v/%d not in zone", num, den)
				}
			case 13:
				opName = "SetClose"
				i, j := pair()
				bd := r.bound()
				if i != j {
					if i == 0 && bd > LEZero {
						bd = LEZero
					}
					a.Set(i, j, min(a.At(i, j), bd))
					if !a.Close() {
						if !a.IsEmpty() {
							t.Fatal("empty result not marked")
						}
						a.Init()
					}
				}
			case 14:
				opName = "Federation"
				fed.Add(b)
				switch r.byte() % 5 {
				case 0:
					fed.Up()
				case 1:
					fed.Down()
				case 2:
					fed.Reduce()
				case 3:
					fed.Subtract(a)
				case 4:
					// SubtractOwned on a copy it owns leaves what
					// Subtract leaves; its members then go back
					owned := fed.Clone()
					fed.Subtract(a)
					owned.SubtractOwned(a, &spares)
					if len(owned.Zones) != len(fed.Zones) {
						t.Fatalf("SubtractOwned leaves %d members, Subtract %d", len(owned.Zones), len(fed.Zones))
					}
					for i := range fed.Zones {
						if !owned.Zones[i].Equal(fed.Zones[i]) {
							t.Fatalf("SubtractOwned's member %d is %s, Subtract's %s", i, owned.Zones[i], fed.Zones[i])
						}
						spares.Put(owned.Zones[i])
					}
				}
				if fed.IncludesDBM(a) {
					num, den := a.Point()
					if !fed.Contains(num, den) {
						t.Fatal("IncludesDBM but Point(a) not in federation")
					}
				}
			case 15:
				opName = "ExtraMDiagonal"
				if dim > 2 {
					i := clock()
					j := clock()
					if i != j {
						g := Constraint{i, j, r.bound()}
						fed = a.ExtraMDiagonal(r.clockBounds(dim), []Constraint{g}, NewFederation(dim))
						for _, z := range fed.Zones {
							if z.SatisfiesC(g) && z.SatisfiesC(g.Neg()) {
								t.Fatal("part meets a diagonal and its negation")
							}
						}
						if !fed.IncludesDBM(a) {
							t.Fatal("diagonal extrapolation lost points")
						}
					}
				}
			case 16:
				opName = "MinConstraints"
				rb := New(dim)
				for _, c := range a.MinConstraints(nil) {
					rb.ConstrainC(c)
				}
				if !rb.Equal(a) {
					t.Fatalf("MinConstraints do not rebuild %s", a)
				}
				_ = a.String() + a.Matrix() + fed.String()
			}
			check(step, opName)
		}
	})
}

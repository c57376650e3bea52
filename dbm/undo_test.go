package dbm

import (
	"math/rand/v2"
	"testing"
)

// TestConstrainLogUndoes: on random closed zones, ConstrainLog gives what
// Constrain gives (the same intersection, or empty for both), leaves the
// zone as it was when the result is empty, and Undo of a run of them puts
// back the zone exactly, at every mark.
func TestConstrainLogUndoes(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	empties := 0
	for range 5000 {
		n := 2 + rng.IntN(5)
		d := New(n)
		d.Up()
		for range rng.IntN(4) {
			i, j := rng.IntN(n), rng.IntN(n)
			if i != j && !d.Constrain(i, j, randBound(rng)) {
				d.Init()
			}
		}
		start := d.Clone()
		var log []Change
		var marks []int
		var zones []DBM
		for range 1 + rng.IntN(6) {
			i, j := rng.IntN(n), rng.IntN(n)
			if i == j {
				continue
			}
			b := randBound(rng)
			want := d.Clone()
			wantOK := want.Constrain(i, j, b)
			before := d.Clone()
			mark := len(log)
			var ok bool
			log, ok = d.ConstrainLog(i, j, b, log)
			if ok != wantOK {
				t.Fatalf("%v ∧ x%d − x%d %v: ConstrainLog %v, Constrain %v", before, i, j, b, ok, wantOK)
			}
			if !ok {
				empties++
				if !d.Equal(before) || len(log) != mark {
					t.Fatalf("%v ∧ x%d − x%d %v is empty, but ConstrainLog changed the zone to %v", before, i, j, b, d)
				}
				continue
			}
			if !d.Equal(want) {
				t.Fatalf("%v ∧ x%d − x%d %v: ConstrainLog %v, Constrain %v", before, i, j, b, d, want)
			}
			marks = append(marks, mark)
			zones = append(zones, before)
		}
		for k := len(marks) - 1; k >= 0; k-- {
			log = d.Undo(log, marks[k])
			if !d.Equal(zones[k]) {
				t.Fatalf("Undo to mark %d: %v, want %v", marks[k], d, zones[k])
			}
		}
		if !d.Equal(start) || len(log) != 0 {
			t.Fatalf("after every Undo: %v, want %v", d, start)
		}
	}
	if empties < 100 {
		t.Errorf("only %d empty intersections: the zones no longer test that case", empties)
	}
}

func randBound(rng *rand.Rand) Bound {
	c := int32(rng.IntN(9) - 4)
	if rng.IntN(2) == 0 {
		return LT(c)
	}
	return LE(c)
}

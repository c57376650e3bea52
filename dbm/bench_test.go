package dbm

import (
	"fmt"
	"testing"
)

// Benchmarks of the hot operations, sized by the number of clocks (the
// DBM dimension is clocks+1). Run with
//
//	go test -run=XXX -bench . -benchmem ./dbm/
//
// Operations that would do no work when repeated on their own output
// (Constrain, the extrapolations, Close on an unclosed matrix) restore
// their input with CopyFrom inside the timed loop; BenchmarkCopyFrom
// measures that copy on its own.

var benchClocks = []int{4, 8, 16, 32}

// benchZone returns a dense, bounded, closed zone with every entry finite:
// each clock has an upper bound, and random difference constraints.
func benchZone(clocks int) DBM {
	rng := newRand(uint64(1000 + clocks))
	dim := clocks + 1
	d := New(dim)
	for x := 1; x < dim; x++ {
		d.Constrain(x, 0, LE(50+rng.Int32N(50)))
		d.Constrain(0, x, LE(-rng.Int32N(20)))
	}
	for range 4 * dim {
		c := randConstraint(rng, dim, 40)
		if c.I != 0 && c.J != 0 && d.SatisfiesC(c) {
			e := d.Clone()
			if e.ConstrainC(c) {
				d.CopyFrom(e)
			}
		}
	}
	return d
}

// benchBounds returns clock bounds that cut some but not all entries.
func benchBounds(clocks int) (l, u []int32) {
	l, u = make([]int32, clocks+1), make([]int32, clocks+1)
	for x := 1; x <= clocks; x++ {
		l[x] = int32(10 + 7*x%40)
		u[x] = int32(20 + 11*x%50)
	}
	return l, u
}

func forSizes(b *testing.B, f func(b *testing.B, clocks int)) {
	for _, n := range benchClocks {
		b.Run(fmt.Sprintf("clocks=%d", n), func(b *testing.B) { f(b, n) })
	}
}

func BenchmarkCopyFrom(b *testing.B) {
	forSizes(b, func(b *testing.B, n int) {
		z := benchZone(n)
		w := z.Clone()
		b.ReportAllocs()
		for b.Loop() {
			w.CopyFrom(z)
		}
	})
}

// BenchmarkClose closes an already closed dense matrix: Floyd–Warshall does
// all (clocks+1)³ relaxations regardless (no entry is infinite).
func BenchmarkClose(b *testing.B) {
	forSizes(b, func(b *testing.B, n int) {
		w := benchZone(n)
		b.ReportAllocs()
		for b.Loop() {
			if !w.Close() {
				b.Fatal("empty")
			}
		}
	})
}

// BenchmarkCloseUnclosed restores a matrix with one tightened entry and
// closes it (includes the CopyFrom).
func BenchmarkCloseUnclosed(b *testing.B) {
	forSizes(b, func(b *testing.B, n int) {
		z := benchZone(n)
		z.Set(1, 2, z.At(1, 2)-1)
		w := z.Clone()
		b.ReportAllocs()
		for b.Loop() {
			w.CopyFrom(z)
			if !w.Close() {
				b.Fatal("empty")
			}
		}
	})
}

// BenchmarkConstrain tightens one difference constraint (includes the
// CopyFrom that restores the input).
func BenchmarkConstrain(b *testing.B) {
	forSizes(b, func(b *testing.B, n int) {
		z := benchZone(n)
		c := z.At(1, 2) - 2
		w := z.Clone()
		b.ReportAllocs()
		for b.Loop() {
			w.CopyFrom(z)
			if !w.Constrain(1, 2, c) {
				b.Fatal("empty")
			}
		}
	})
}

func BenchmarkUp(b *testing.B) {
	forSizes(b, func(b *testing.B, n int) {
		w := benchZone(n)
		b.ReportAllocs()
		for b.Loop() {
			w.Up()
		}
	})
}

func BenchmarkDown(b *testing.B) {
	forSizes(b, func(b *testing.B, n int) {
		w := benchZone(n)
		b.ReportAllocs()
		for b.Loop() {
			w.Down()
		}
	})
}

func BenchmarkReset(b *testing.B) {
	forSizes(b, func(b *testing.B, n int) {
		w := benchZone(n)
		b.ReportAllocs()
		for b.Loop() {
			w.Reset(1, 0)
		}
	})
}

// BenchmarkRelation compares two equal zones: the full matrix is scanned.
func BenchmarkRelation(b *testing.B) {
	forSizes(b, func(b *testing.B, n int) {
		z := benchZone(n)
		o := z.Clone()
		b.ReportAllocs()
		for b.Loop() {
			if z.Relation(o) != Equal {
				b.Fatal("not equal")
			}
		}
	})
}

func BenchmarkHash(b *testing.B) {
	forSizes(b, func(b *testing.B, n int) {
		z := benchZone(n)
		b.ReportAllocs()
		for b.Loop() {
			_ = z.Hash()
		}
	})
}

// BenchmarkExtraM and BenchmarkExtraLUPlus restore the zone, extrapolate
// and re-close (the bounds change some entries, so Close runs each time).
func BenchmarkExtraM(b *testing.B) {
	forSizes(b, func(b *testing.B, n int) {
		z := benchZone(n)
		_, m := benchBounds(n)
		w := z.Clone()
		b.ReportAllocs()
		for b.Loop() {
			w.CopyFrom(z)
			w.ExtraM(m)
		}
	})
}

func BenchmarkExtraLUPlus(b *testing.B) {
	forSizes(b, func(b *testing.B, n int) {
		z := benchZone(n)
		l, u := benchBounds(n)
		w := z.Clone()
		b.ReportAllocs()
		for b.Loop() {
			w.CopyFrom(z)
			w.ExtraLUPlus(l, u)
		}
	})
}

// BenchmarkSubtract subtracts a shifted copy of a zone (a federation
// operation; it allocates the pieces).
func BenchmarkSubtract(b *testing.B) {
	forSizes(b, func(b *testing.B, n int) {
		z := benchZone(n)
		o := z.Clone()
		o.Up()
		o.Constrain(0, 1, z.At(0, 1)-4)
		b.ReportAllocs()
		for b.Loop() {
			_ = z.Subtract(o, Federation{})
		}
	})
}

// BenchmarkMinConstraints measures the minimal constraint set of closed
// zones, which the passed list stores instead of the matrix.
//
//	go test -run XXX -bench MinConstraints -benchmem ./dbm/
func BenchmarkMinConstraints(b *testing.B) {
	for _, dim := range []int{4, 8, 16, 32} {
		b.Run(fmt.Sprintf("dim=%d", dim), func(b *testing.B) {
			rng := newRand(uint64(dim))
			z := genDBM(rng, dim, 50)
			buf := make([]Constraint, 0, dim*dim)
			b.ReportAllocs()
			for b.Loop() {
				buf = z.MinConstraints(buf[:0])
			}
		})
	}
}

package dbm

import (
	"math"
	"testing"
)

func TestBoundEncodingRoundTrip(t *testing.T) {
	for _, c := range []int32{0, 1, -1, 7, -7, MaxConst, -MaxConst, InfConst - 1, -(InfConst - 1)} {
		for _, strict := range []bool{false, true} {
			b := LE(c)
			if strict {
				b = LT(c)
			}
			if b.Const() != c || b.Strict() != strict || b.IsInf() {
				t.Errorf("bound %d (c=%d strict=%v): Const=%d Strict=%v IsInf=%v", b, c, strict, b.Const(), b.Strict(), b.IsInf())
			}
			if !b.valid() {
				t.Errorf("%v not valid", b)
			}
			if b.Neg().Neg() != b {
				t.Errorf("Neg(Neg(%v)) = %v", b, b.Neg().Neg())
			}
		}
	}
}

func TestBoundConstants(t *testing.T) {
	tests := []struct {
		name string
		got  Bound
		want Bound
	}{
		{"LE(3) is (3<<1)|1", LE(3), 7},
		{"LT(3) is 3<<1", LT(3), 6},
		{"LE(-2) is (-2<<1)|1", LE(-2), -3},
		{"LT(-2) is -2<<1", LT(-2), -4},
		{"LEZero is LE(0)", LEZero, LE(0)},
		{"LTZero is LT(0)", LTZero, LT(0)},
		{"LTInf is LT(InfConst)", LTInf, LT(InfConst)},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: got %d, want %d", tt.name, tt.got, tt.want)
		}
	}
	if !LTInf.IsInf() || LTInf.Const() != InfConst {
		t.Errorf("LTInf: IsInf=%v Const=%d", LTInf.IsInf(), LTInf.Const())
	}
}

// TestBoundOrderIsTightness proves (< c) < (≤ c) < (< c+1) over a range, so
// min is intersection.
func TestBoundOrderIsTightness(t *testing.T) {
	for c := int32(-50); c < 50; c++ {
		if !(LT(c) < LE(c) && LE(c) < LT(c+1) && LE(c) < LTInf) {
			t.Fatalf("order broken at %d", c)
		}
	}
}

func TestBoundNegIsComplement(t *testing.T) {
	tests := []struct{ b, want Bound }{
		{LE(3), LT(-3)}, // ¬(x ≤ 3) = −x < −3
		{LT(3), LE(-3)}, // ¬(x < 3) = −x ≤ −3
		{LE(0), LT(0)},  // ¬(x ≤ 0)
		{LT(-2), LE(2)}, // ¬(−x < −2) = x ≤ 2
		{LE(-5), LT(5)}, // ¬(−x ≤ −5) = x < 5
		{LT(0), LE(0)},  // ¬(x < 0)
		{LE(MaxConst), LT(-MaxConst)},
	}
	for _, tt := range tests {
		if got := tt.b.Neg(); got != tt.want {
			t.Errorf("%v.Neg() = %v, want %v", tt.b, got, tt.want)
		}
	}
	// A point satisfies exactly one of c and its negation.
	for c := int32(-4); c <= 4; c++ {
		for _, b := range []Bound{LE(c), LT(c)} {
			con := Constraint{1, 2, b}
			for num := int64(-40); num <= 40; num++ {
				p := point{num: []int64{0, num + 100, 100}, den: 4}
				if p.satisfies(con) == p.satisfies(con.Neg()) {
					t.Fatalf("%v and %v agree on %v", con, con.Neg(), p)
				}
			}
		}
	}
}

func TestBoundAdd(t *testing.T) {
	tests := []struct{ a, b, want Bound }{
		{LE(3), LE(4), LE(7)},
		{LE(3), LT(4), LT(7)},
		{LT(3), LE(4), LT(7)},
		{LT(3), LT(4), LT(7)},
		{LE(-3), LE(3), LE(0)},
		{LT(-3), LE(3), LT(0)},
		{LE(5), LTInf, LTInf},
		{LTInf, LT(-5), LTInf},
		{LTInf, LTInf, LTInf},
		{LE(MaxConst), LE(MaxConst), LE(2 * MaxConst)},
		{LE(-MaxConst), LT(-MaxConst), LT(-2 * MaxConst)},
	}
	for _, tt := range tests {
		if got := tt.a.Add(tt.b); got != tt.want {
			t.Errorf("%v + %v = %v, want %v", tt.a, tt.b, got, tt.want)
		}
		if got := tt.b.Add(tt.a); got != tt.want {
			t.Errorf("%v + %v = %v, want %v (commuted)", tt.b, tt.a, got, tt.want)
		}
	}
	// Sums of two constants within MaxConst stay finite and below LTInf.
	if s := LE(MaxConst).Add(LE(MaxConst)); s >= LTInf || !s.valid() {
		t.Errorf("MaxConst + MaxConst = %d is not a finite bound", s)
	}
}

func TestBoundAddSaturates(t *testing.T) {
	if debug {
		t.Skip("debug builds panic on saturation")
	}
	big := LE(InfConst - 1)
	if got := big.Add(big); got != LTInf {
		t.Errorf("overflowing sum = %v, want <inf", got)
	}
	if got := LE(-(InfConst - 1)).Add(LE(-(InfConst - 1))); got != minBound {
		t.Errorf("underflowing sum = %d, want minBound %d", got, minBound)
	}
}

func TestBoundString(t *testing.T) {
	tests := []struct {
		b    Bound
		want string
	}{
		{LE(3), "<=3"}, {LT(5), "<5"}, {LTInf, "<inf"}, {LE(-2), "<=-2"}, {LT(0), "<0"}, {LEZero, "<=0"},
	}
	for _, tt := range tests {
		if got := tt.b.String(); got != tt.want {
			t.Errorf("String(%d) = %q, want %q", tt.b, got, tt.want)
		}
	}
}

func TestCheckConstRange(t *testing.T) {
	for _, c := range []int64{0, 1, -1, int64(MaxConst), -int64(MaxConst)} {
		if err := CheckConst(c); err != nil {
			t.Errorf("CheckConst(%d) = %v, want nil", c, err)
		}
	}
	for _, c := range []int64{int64(MaxConst) + 1, -int64(MaxConst) - 1, math.MaxInt32, math.MinInt64, math.MaxInt64} {
		if err := CheckConst(c); err == nil {
			t.Errorf("CheckConst(%d) = nil, want an error", c)
		}
	}
}

func TestConstraintFormat(t *testing.T) {
	tests := []struct {
		c    Constraint
		want string
	}{
		{le(1, 0, 3), "x1<=3"},
		{lt(1, 0, 3), "x1<3"},
		{le(0, 2, -2), "x2>=2"},
		{lt(0, 2, -2), "x2>2"},
		{lt(1, 2, 1), "x1-x2<1"},
		{le(2, 1, -4), "x2-x1<=-4"},
		{Constraint{1, 2, LTInf}, "true"},
	}
	for _, tt := range tests {
		if got := tt.c.String(); got != tt.want {
			t.Errorf("%#v.String() = %q, want %q", tt.c, got, tt.want)
		}
	}
	if got := le(1, 2, 0).Format([]string{"", "x", "y"}); got != "x-y<=0" {
		t.Errorf("Format with names = %q", got)
	}
}

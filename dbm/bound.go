package dbm

import (
	"fmt"
	"math"
	"strconv"
)

// Bound is an encoded upper bound "≺ c" on a clock difference, with ≺ one
// of < and ≤: (c << 1) | 1 encodes "≤ c" and c << 1 encodes "< c".
//
// Encoded bounds order like their meaning, so the tighter of two bounds is
// the smaller integer:
//
//	(< c) < (≤ c) < (< c+1)
//
// The largest value, [LTInf], is "< ∞" (no constraint). There is no "≤ ∞".
type Bound int32

const (
	// InfConst is the constant of [LTInf]: no finite bound has a constant
	// of InfConst or more in absolute value.
	InfConst int32 = math.MaxInt32 >> 1 // 2^30 - 1

	// MaxConst is the largest constant a model may use (in guards,
	// invariants, resets, queries and clock bounds): |c| ≤ MaxConst. The sum
	// of two constants in that range, |c1 + c2| ≤ 2·MaxConst < InfConst, is
	// still a finite representable bound, so adding two such bounds never
	// overflows nor collides with [LTInf]. Package model enforces the same
	// limit (model.MaxClockConst) on every clock constant it compiles, and
	// at run time on constants computed from data and on reset values.
	MaxConst int32 = math.MaxInt32 >> 2 // 2^29 - 1

	// LTInf is "< ∞": no constraint.
	LTInf Bound = Bound(InfConst) << 1
	// LEZero is "≤ 0".
	LEZero Bound = 1
	// LTZero is "< 0".
	LTZero Bound = 0

	// minBound is the smallest bound the package stores ("< -InfConst"),
	// used to clamp results that would leave the representable range.
	minBound Bound = -LTInf
)

// LE returns the bound "≤ c".
//
// Precondition: |c| < InfConst (not checked).
// Postcondition: the result is a finite bound with Const() == c and
// !Strict() (tested).
func LE(c int32) Bound { return Bound(c<<1 | 1) }

// LT returns the bound "< c".
//
// Precondition: |c| < InfConst, or c == InfConst for [LTInf] (not checked).
// Postcondition: the result has Const() == c and Strict() (tested).
func LT(c int32) Bound { return Bound(c << 1) }

// Const returns the constant c of "≺ c". For [LTInf] it is [InfConst].
//
// Precondition: none.
// Postcondition: b is unchanged; LE(c).Const() == LT(c).Const() == c
// (tested).
func (b Bound) Const() int32 { return int32(b >> 1) } // arithmetic shift

// Strict reports whether b is "< c" (rather than "≤ c").
//
// Precondition: none.
// Postcondition: b is unchanged.
func (b Bound) Strict() bool { return b&1 == 0 }

// IsInf reports whether b is [LTInf], "no constraint".
//
// Precondition: none.
// Postcondition: b is unchanged.
func (b Bound) IsInf() bool { return b == LTInf }

// Neg returns the bound of the complement, read in the other direction:
// the negation of x_i − x_j ≺ c is x_j − x_i ≺' −c with ≺' = < when ≺ is ≤
// and ≺' = ≤ when ≺ is <. That is ¬(≤ c) = (< −c) and ¬(< c) = (≤ −c).
//
// Precondition: b is finite (checked in debug builds): the complement of
// LTInf is empty and has no bound.
// Postcondition: b.Neg().Neg() == b, and every valuation satisfies exactly
// one of a constraint and its negation (tested).
func (b Bound) Neg() Bound {
	if debug && b == LTInf {
		panic("dbm: Neg of LTInf")
	}
	return 1 - b
}

// Add returns the bound of the sum of two differences: (≺1 c1) + (≺2 c2) =
// (≺ c1+c2) where ≺ is ≤ only when both are ≤. Anything plus "< ∞" is
// "< ∞". Results outside the representable range saturate: above it to
// [LTInf], below it to the smallest finite bound (debug builds panic
// instead, since constants within [MaxConst] never get there in a sum of
// two).
//
// Precondition: none (operands outside ±MaxConst may saturate, see above).
// Postcondition: b and o are unchanged; Add is commutative (tested).
func (b Bound) Add(o Bound) Bound {
	if b == LTInf || o == LTInf {
		return LTInf
	}
	return clamp(int64(b) + int64(o) - int64((b|o)&1))
}

// add64 is Add for finite operands, in 64-bit arithmetic (no overflow).
func add64(b, o Bound) int64 {
	return int64(b) + int64(o) - int64((b|o)&1)
}

// clamp converts a 64-bit encoded sum back to a Bound, saturating.
func clamp(s int64) Bound {
	if s >= int64(LTInf) {
		if debug {
			panic(fmt.Sprintf("dbm: bound overflow (encoded %d)", s))
		}
		return LTInf
	}
	if s < int64(minBound) {
		if debug {
			panic(fmt.Sprintf("dbm: bound underflow (encoded %d)", s))
		}
		return minBound
	}
	return Bound(s)
}

// String renders b as "<=3", "<5" or "<inf".
//
// Precondition: none.
// Postcondition: b is unchanged.
func (b Bound) String() string {
	if b == LTInf {
		return "<inf"
	}
	if b.Strict() {
		return "<" + strconv.Itoa(int(b.Const()))
	}
	return "<=" + strconv.Itoa(int(b.Const()))
}

// valid reports whether b is a bound the package may store: LTInf or a
// finite bound with |c| < InfConst.
func (b Bound) valid() bool {
	return b == LTInf || (b >= minBound && b < LTInf)
}

// CheckConst returns an error if c is outside the range of constants a
// model may use, |c| ≤ [MaxConst], for constants that reach the DBM without
// going through the model compiler (concretised trace points). The model
// compiler enforces the same range on the constants of guards, invariants,
// resets and queries (model.MaxClockConst), so that DBM arithmetic on sums of
// two constants cannot overflow.
//
// Precondition: none.
// Postcondition: nil exactly when −MaxConst ≤ c ≤ MaxConst (tested).
func CheckConst(c int64) error {
	if c > int64(MaxConst) || c < -int64(MaxConst) {
		return fmt.Errorf("clock constant %d out of range [-%d, %d]", c, MaxConst, MaxConst)
	}
	return nil
}

// Constraint is the clock constraint x_I − x_J ≺ B (clock 0 is the constant
// zero, so {I: x, J: 0, B: LE(3)} is x ≤ 3 and {I: 0, J: x, B: LT(-2)} is
// x > 2).
type Constraint struct {
	I, J int
	B    Bound
}

// Neg returns the complement of c: ¬(x_I − x_J ≺ b) is x_J − x_I ≺' −b.
//
// Precondition: c.B is finite (checked in debug builds).
// Postcondition: c is unchanged; c.Neg().Neg() == c.
func (c Constraint) Neg() Constraint { return Constraint{I: c.J, J: c.I, B: c.B.Neg()} }

// String renders c with clock names x1, x2, ... (see [Constraint.Format]).
//
// Precondition: none.
// Postcondition: c is unchanged.
func (c Constraint) String() string { return c.Format(nil) }

// Format renders c with names[i] for clock i (default "x<i>"), e.g.
// "x1-x2<3", "x1<=4", "x2>1".
//
// Precondition: none.
// Postcondition: c is unchanged.
func (c Constraint) Format(names []string) string {
	switch {
	case c.B == LTInf:
		return "true"
	case c.J == 0 && c.I == 0:
		if c.B >= LEZero {
			return "true"
		}
		return "false"
	case c.J == 0:
		return clockName(names, c.I) + c.B.String()
	case c.I == 0:
		// −x_J ≺ c  ⇔  x_J ≻ −c
		op := ">="
		if c.B.Strict() {
			op = ">"
		}
		return clockName(names, c.J) + op + strconv.Itoa(-int(c.B.Const()))
	default:
		return clockName(names, c.I) + "-" + clockName(names, c.J) + c.B.String()
	}
}

func clockName(names []string, i int) string {
	if i < len(names) && names[i] != "" {
		return names[i]
	}
	return "x" + strconv.Itoa(i)
}

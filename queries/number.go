package queries

import (
	"fmt"
	"math/big"
	"strings"
)

// Bounds on a number read from a user's JSON (a clock value of a state
// document, a delay or clock value of a trace): big.Rat.SetString computes
// 10^e for an exponent e up to about a million, so "1e1000000", nine
// bytes, became a number of a million digits, which the error that
// refused it then printed in full.
const (
	maxNumberLen = 64
	maxExponent  = 64
)

// readRat reads s, a number as a state document or a trace writes it: a
// decimal ("2.5", "-3", ".5"), with an exponent where exponent is set
// ("25e-1": a JSON number), or a fraction of two decimal integers ("5/2").
// Everything else that big.Rat.SetString accepts is refused: a leading 0
// does not make "010/3" octal (8/3), and "0x10", "1p3" and "1_0" are not
// decimals.
func readRat(s string, exponent bool) (*big.Rat, error) {
	s = strings.TrimSpace(s)
	bad := func() error {
		return fmt.Errorf("%s is not a number (a decimal such as 2.5 or a fraction such as 5/2)", quoteShort(s))
	}
	if len(s) > maxNumberLen {
		return nil, fmt.Errorf("%s has more than %d characters", quoteShort(s), maxNumberLen)
	}
	if num, den, ok := strings.Cut(s, "/"); ok {
		a, okA := decimalInt(num, true)
		b, okB := decimalInt(den, false)
		if !okA || !okB {
			return nil, bad()
		}
		if b.Sign() == 0 {
			return nil, fmt.Errorf("%s divides by zero", quoteShort(s))
		}
		return new(big.Rat).SetFrac(a, b), nil
	}
	mant, exp, hasExp := strings.Cut(s, "e")
	if !hasExp {
		mant, exp, hasExp = strings.Cut(s, "E")
	}
	if hasExp {
		e, ok := decimalInt(exp, true)
		if !exponent || !ok {
			return nil, bad()
		}
		if e.CmpAbs(big.NewInt(maxExponent)) > 0 {
			return nil, fmt.Errorf("%s: the exponent is beyond ±%d", quoteShort(s), maxExponent)
		}
	}
	// the mantissa: a sign, digits with at most one point, one digit at
	// least
	digits, point := 0, false
	for i, c := range mant {
		switch {
		case c >= '0' && c <= '9':
			digits++
		case c == '.' && !point:
			point = true
		case (c == '-' || c == '+') && i == 0:
		default:
			return nil, bad()
		}
	}
	if digits == 0 {
		return nil, bad()
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return nil, bad()
	}
	return r, nil
}

// decimalInt reads s as a decimal integer, with a sign where signed is set.
func decimalInt(s string, signed bool) (*big.Int, bool) {
	if s == "" {
		return nil, false
	}
	for i, c := range s {
		if !(c >= '0' && c <= '9') && !(signed && i == 0 && (c == '-' || c == '+') && len(s) > 1) {
			return nil, false
		}
	}
	return new(big.Int).SetString(s, 10)
}

// quoteShort quotes s for a message, cut to its first 32 bytes when longer.
func quoteShort(s string) string {
	if len(s) > 32 {
		return fmt.Sprintf("%q…", s[:32])
	}
	return fmt.Sprintf("%q", s)
}

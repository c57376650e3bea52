package queries

import (
	"math/big"
	"strings"
	"testing"
	"time"
)

// TestReadRatReadsDecimalsAndFractionsOnly: a clock value or a delay is a
// decimal or a fraction of decimal integers, read exactly; what
// big.Rat.SetString would read otherwise (octal, hexadecimal, binary
// exponents, digit separators) is refused, and so is a number too long or
// with a large exponent (1e1000000 was a million digits, and the error
// that refused it printed them all).
func TestReadRatReadsDecimalsAndFractionsOnly(t *testing.T) {
	cases := []struct {
		in       string
		exponent bool
		want     string // the value, or the error's message
	}{
		{"2.5", false, "5/2"},
		{" 5/2 ", false, "5/2"},
		{".5", false, "1/2"},
		{"5.", false, "5"},
		{"-0.25", false, "-1/4"},
		{"+3", false, "3"},
		{"010/3", false, "10/3"}, // not octal
		{"010.5", false, "21/2"},
		{"25e-1", true, "5/2"},
		{"1E3", true, "1000"},
		{"25e-1", false, `"25e-1" is not a number`},
		{"0x10", false, `"0x10" is not a number`},
		{"1p3", true, `"1p3" is not a number`},
		{"1_0", false, `"1_0" is not a number`},
		{"0b1/3", false, `"0b1/3" is not a number`},
		{"1/-3", false, `"1/-3" is not a number`},
		{"1.5/2", false, `"1.5/2" is not a number`},
		{"", false, `"" is not a number`},
		{"-", false, `"-" is not a number`},
		{".", false, `"." is not a number`},
		{"1..2", false, `"1..2" is not a number`},
		{"soon", false, `"soon" is not a number`},
		{"1/0", false, `"1/0" divides by zero`},
		{"1e999999999", true, `"1e999999999": the exponent is beyond ±64`},
		{"1e1000000", true, `"1e1000000": the exponent is beyond ±64`},
		{"1e-65", true, `"1e-65": the exponent is beyond ±64`},
		{strings.Repeat("1", 65), false, `"11111111111111111111111111111111"… has more than 64 characters`},
	}
	for _, c := range cases {
		start := time.Now()
		r, err := readRat(c.in, c.exponent)
		if d := time.Since(start); d > time.Second {
			t.Errorf("%q took %v", c.in, d)
		}
		want, isValue := new(big.Rat).SetString(c.want)
		switch {
		case err != nil && (isValue || !strings.HasPrefix(err.Error(), c.want)):
			t.Errorf("%q: error %q, want %s", c.in, err, c.want)
		case err == nil && (!isValue || r.Cmp(want) != 0):
			t.Errorf("%q: %s, want %s", c.in, r.RatString(), c.want)
		}
	}
}

// TestReadStateRefusesAHugeExponentAtOnce: a state document's clock value
// 1e1000000 (a JSON number) is an error at its position, at once and in a
// short message (it was a million digits long).
func TestReadStateRefusesAHugeExponentAtOnce(t *testing.T) {
	net := fischer2(t)
	start := time.Now()
	_, err := ReadState(net, "s.json", []byte(`{"locations": ["P(1).req", "P(2).A"], "variables": {"id": 0}, "clocks": {"P(1).x": 1e1000000, "P(2).x": 0}}`))
	want := `s.json:1:84: clock P(1).x: "1e1000000": the exponent is beyond ±64`
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("took %v", d)
	}
}

package model

import (
	"fmt"
	"strings"
	"testing"
)

// luTable prints the per-location bounds of process 0 as
// "loc x:L/U y:L/U" lines ("-" for NoBound) and the global ones last.
func luTable(n *Network) string {
	var b strings.Builder
	row := func(name string, L, U []int32) {
		b.WriteString(name)
		for x := 1; x < len(n.Clocks); x++ {
			fmt.Fprintf(&b, " %s:%s/%s", n.Clocks[x].Name, boundStr(L[x]), boundStr(U[x]))
		}
		b.WriteString("\n")
	}
	for _, p := range n.Procs {
		for _, l := range p.Locations {
			row(p.Name+"."+l.Name, l.L, l.U)
		}
	}
	row("global", n.GlobalL, n.GlobalU)
	return b.String()
}

// TestClockBoundsBehrmannTACAS03 checks the local LU bounds of Behrmann,
// Bouyer, Fleury, Larsen (TACAS 2003) on small automata derived by hand:
// constraints count at the source of their edge and at the location of
// their invariant, and propagate backwards along edges that do not reset
// the clock.
func TestClockBoundsBehrmannTACAS03(t *testing.T) {
	cases := []struct {
		name, model, want string
	}{
		{
			// l0 --x>=3, y=0--> l1 --y>2--> l2 --x==7, x=0--> l0;
			// inv(l0) = x<=5, inv(l2) = y<10.
			// l2: x 7/7 (guard), y -/10 (invariant).
			// l1: y 2/- from its guard; x and y from l2 (no reset): x 7/7, y 2/10.
			// l0: x 3/5 own, 7/7 from l1 (y is reset on l0->l1, x is not);
			//     y nothing (reset on the way to l1).
			"cycle with resets",
			`declarations: clock x, y;
templates:
  - name: P
    locations:
      - {name: l0, initial: true, invariant: x <= 5}
      - {name: l1}
      - {name: l2, invariant: y < 10}
    edges:
      - {from: l0, to: l1, guard: x >= 3, update: y = 0}
      - {from: l1, to: l2, guard: y > 2}
      - {from: l2, to: l0, guard: x == 7, update: x = 0}
`,
			`P.l0 x:7/7 y:-/-
P.l1 x:7/7 y:2/10
P.l2 x:7/7 y:-/10
global x:7/7 y:2/10
`,
		},
		{
			// A reset to a non-zero value blocks propagation like a reset to 0.
			// Data-dependent bounds use the extreme of the expression:
			// x <= k + 1 with k in [0,4] gives U 5; x >= k with k in [-2,4]
			// is 0 - x <= -k, whose constant -k is at least -4: L 4.
			"reset to a value and data bounds",
			`declarations: clock x; int[0,4] k; int[-2,4] m;
templates:
  - name: P
    locations:
      - {name: a, initial: true, invariant: x <= k + 1}
      - {name: b}
      - {name: c}
    edges:
      - {from: a, to: b, update: x = 5}
      - {from: b, to: c, guard: x >= m && x < 9}
      - {from: c, to: a}
`,
			`P.a x:-/5
P.b x:4/9
P.c x:-/5
global x:4/9
`,
		},
		{
			// A diagonal x - y < 3 contributes 3 to both clocks, both sides.
			// Two processes: Q compares the global clock t that P resets;
			// each process's locations hold only what the process compares.
			"diagonals and two processes",
			`declarations: clock x, y, t;
templates:
  - name: P
    locations:
      - {name: a, initial: true}
      - {name: b}
    edges:
      - {from: a, to: b, guard: x - y < 3, update: t = 0}
  - name: Q
    locations:
      - {name: a, initial: true}
      - {name: b}
    edges:
      - {from: a, to: b, guard: t > 4}
system: system P, Q;
`,
			`P.a x:3/3 y:3/3 t:-/-
P.b x:-/- y:-/- t:-/-
Q.a x:-/- y:-/- t:4/-
Q.b x:-/- y:-/- t:-/-
global x:3/3 y:3/3 t:4/-
`,
		},
		{
			// A diagonal x - y < 3 where some clock is reset to 2 (t = 2)
			// contributes 3 + 2 to both clocks: after x = v it compares
			// y with v - 3 (Network.DiagonalBound; difftest seed 1307708,
			// testdata/difftest/diagonal-query-after-reset.yaml).
			"diagonals with a reset to a value",
			`declarations: clock x, y, t;
templates:
  - name: P
    locations:
      - {name: a, initial: true}
      - {name: b}
    edges:
      - {from: a, to: b, guard: x - y < 3, update: t = 2}
system: system P;
`,
			`P.a x:5/5 y:5/5 t:-/-
P.b x:-/- y:-/- t:-/-
global x:5/5 y:5/5 t:-/-
`,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n := mustCompile(t, c.model, nil)
			if got := luTable(n); got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}

// TestDiagonalsListed proves diagonal constraints of guards and invariants
// are reported to the engine, with their direction normalised.
func TestDiagonalsListed(t *testing.T) {
	n := mustCompile(t, `declarations: clock x, y;
templates:
  - name: P
    locations:
      - {name: a, initial: true, invariant: x - y <= 4}
    edges:
      - {from: a, to: a, guard: y - x > 1 && x < 2}
`, nil)
	var got []string
	for _, d := range n.Diagonals {
		got = append(got, n.ConstraintString(d))
	}
	if want := "x - y <= 4|x - y < -1"; strings.Join(got, "|") != want {
		t.Errorf("diagonals %q, want %q", strings.Join(got, "|"), want)
	}
}

// TestClockConstraintForms proves each comparison form compiles to the
// right DBM constraint x_I - x_J ≺ c.
func TestClockConstraintForms(t *testing.T) {
	cases := []struct{ guard, want string }{
		{"x < 3", "{1 0 true 3}"},
		{"x <= 3", "{1 0 false 3}"},
		{"x > 3", "{0 1 true -3}"},
		{"x >= 3", "{0 1 false -3}"},
		{"x == 3", "{1 0 false 3} {0 1 false -3}"},
		{"3 > x", "{1 0 true 3}"},
		{"x - y <= 2", "{1 2 false 2}"},
		{"x - y >= 2", "{2 1 false -2}"},
		{"y - x < 1", "{2 1 true 1}"},
		{"x + 1 <= 4", "{1 0 false 3}"},
		{"-x >= -4", "{1 0 false 4}"},
		{"x <= y + 2", "{1 2 false 2}"},
		{"(x >= 1) && k > 0 && (x < 2)", "{0 1 false -1} {1 0 true 2}"},
	}
	for _, c := range cases {
		n := mustCompile(t, `declarations: clock x, y; int k = 1;
templates:
  - name: P
    locations:
      - {name: a, initial: true}
    edges:
      - {from: a, to: a, guard: "`+c.guard+`"}
`, nil)
		var got []string
		for _, cn := range n.Procs[0].Edges[0].ClockGuard {
			got = append(got, fmt.Sprintf("{%d %d %v %d}", cn.I, cn.J, cn.Strict, cn.Const))
		}
		if strings.Join(got, " ") != c.want {
			t.Errorf("%s: %s, want %s", c.guard, strings.Join(got, " "), c.want)
		}
	}
}

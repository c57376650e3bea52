package model

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestCompileStopsWhenInterrupted: a compilation polls its interrupt
// (CompileOptions.Interrupt) and stops with ErrInterrupted, and no
// network, at the first poll that says so: in the expansion of a select
// over a million combinations (which the compiler's cap on edges alone
// stops after seconds), in a model's expressions, and in a query's long
// chain compiled against the network later. An interrupt that never fires
// changes nothing, and SetCompileInterrupt(nil) lifts it for later
// queries.
func TestCompileStopsWhenInterrupted(t *testing.T) {
	selectModel := `name: m
declarations: int[0,5] id;
templates:
  - name: P
    declarations: clock x;
    locations:
      - {name: A, initial: true}
      - {name: B}
    edges:
      - {from: A, to: B, select: "i : int[0,999], j : int[0,999]", guard: "i == 3 && j == 4 && x > 1", update: "id = 1"}
system: system P;
`
	// after calls polls, the interrupt fires; calls counts them
	interruptAfter := func(polls int, calls *int) func() bool {
		return func() bool {
			*calls++
			return *calls >= polls
		}
	}
	for _, c := range []struct {
		name, path string
		src        string
		polls      int // the call of the interrupt that fires
	}{
		// the fifth call is a thousand polls in: in the expansion
		{"a large select", "select.yaml", selectModel, 5},
		{"Fischer's expressions", "../testdata/fischer.yaml", "", 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := []byte(c.src)
			if c.src == "" {
				var err error
				if src, err = ReadSource(c.path); err != nil {
					t.Fatal(err)
				}
			}
			f, err := Parse(c.path, src)
			if err != nil {
				t.Fatal(err)
			}
			calls := 0
			n, err := f.CompileWith(nil, CompileOptions{Interrupt: interruptAfter(c.polls, &calls)})
			if !errors.Is(err, ErrInterrupted) || n != nil {
				t.Fatalf("interrupted at call %d: %v, %v", c.polls, n, err)
			}
			if calls != c.polls {
				t.Errorf("the interrupt was called %d times after it fired", calls-c.polls)
			}
		})
	}
	_, want, err := Load("../testdata/fischer.yaml", map[string]int64{"N": 6})
	if err != nil {
		t.Fatal(err)
	}
	f, err := Parse("../testdata/fischer.yaml", mustRead(t, "../testdata/fischer.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	got, err := f.CompileWith(map[string]int64{"N": 6}, CompileOptions{Interrupt: func() bool { calls++; return false }})
	if err != nil {
		t.Fatal(err)
	}
	if calls == 0 {
		t.Error("the interrupt was never polled")
	}
	if fmt.Sprint(len(got.Procs), len(got.Clocks), len(got.Vars), edgeCount(got)) != fmt.Sprint(len(want.Procs), len(want.Clocks), len(want.Vars), edgeCount(want)) {
		t.Errorf("an interrupt that never fires changed the network")
	}

	// a query of 20,000 clock conjuncts against the network
	formula := "E<> " + strings.TrimSuffix(strings.Repeat("P(1).x >= 0 && ", 20000), " && ")
	q, err := ParseQuery(NewText(formula, Pos{File: "q", Line: 1, Col: 1}))
	if err != nil {
		t.Fatal(err)
	}
	fired := false
	got.SetCompileInterrupt(func() bool { fired = true; return true })
	if _, err := got.CompileFormula(q.Formula, NewText(formula, Pos{File: "q", Line: 1, Col: 1})); !errors.Is(err, ErrInterrupted) || !fired {
		t.Errorf("a query compiled under a firing interrupt: %v", err)
	}
	got.SetCompileInterrupt(nil)
	if _, err := got.CompileFormula(q.Formula, NewText(formula, Pos{File: "q", Line: 1, Col: 1})); err != nil {
		t.Errorf("the query without an interrupt: %v", err)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	src, err := ReadSource(path)
	if err != nil {
		t.Fatal(err)
	}
	return src
}

func edgeCount(n *Network) int {
	e := 0
	for _, p := range n.Procs {
		e += len(p.Edges)
	}
	return e
}

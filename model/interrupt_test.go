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
// over 160,000 combinations (testdata/limits/large-select.yaml, seconds to
// compile unbounded), in a model's expressions, and in a query's long
// chain compiled against the network later. An interrupt that never fires
// changes nothing, and SetCompileInterrupt(nil) lifts it for later
// queries.
func TestCompileStopsWhenInterrupted(t *testing.T) {
	// after calls polls, the interrupt fires; calls counts them
	interruptAfter := func(polls int, calls *int) func() bool {
		return func() bool {
			*calls++
			return *calls >= polls
		}
	}
	for _, c := range []struct {
		name, path string
		polls      int // the call of the interrupt that fires
	}{
		// the fifth call is a thousand polls in: in the expansion
		{"a large select", "../testdata/limits/large-select.yaml", 5},
		{"Fischer's expressions", "../testdata/fischer.yaml", 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, err := Parse(c.path, readFile(t, c.path))
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
	f, err := Parse("../testdata/fischer.yaml", readFile(t, "../testdata/fischer.yaml"))
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

func edgeCount(n *Network) int {
	e := 0
	for _, p := range n.Procs {
		e += len(p.Edges)
	}
	return e
}

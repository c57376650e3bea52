package model

import (
	"fmt"
	"strings"
	"testing"
)

// shape prints a formula's tree: and(...), or(...), not(...), deadlock,
// true, false, data, and clock constraints with names.
func shape(n *Network, f *Formula) string {
	switch f.Kind {
	case FTrue:
		return "true"
	case FFalse:
		return "false"
	case FData:
		return "data"
	case FDeadlock:
		return "deadlock"
	case FClock:
		return "[" + n.ConstraintString(f.Clock) + "]"
	}
	var args []string
	for _, a := range f.Args {
		args = append(args, shape(n, a))
	}
	name := map[FormulaKind]string{FAnd: "and", FOr: "or", FNot: "not"}[f.Kind]
	return name + "(" + strings.Join(args, ", ") + ")"
}

func compileFormula(t *testing.T, n *Network, formula string) *Formula {
	t.Helper()
	q, err := ParseQuery(NewText(formula, Pos{File: "q", Line: 1, Col: 1}))
	if err != nil {
		t.Fatalf("%s: %v", formula, err)
	}
	f, err := n.CompileFormula(q.Formula, NewText(formula, Pos{File: "q", Line: 1, Col: 1}))
	if err != nil {
		t.Fatalf("%s: %v", formula, err)
	}
	return f
}

// TestFormulaShapesSeedQueries proves the seed models' queries compile to
// the expected trees: quantifiers expanded to concrete processes,
// data-only subformulas collapsed into one FData node, clock comparisons
// (also between clocks of two processes) as FClock leaves.
func TestFormulaShapesSeedQueries(t *testing.T) {
	_, a, err := Load("../agreement/agreement.yaml", nil)
	if err != nil {
		t.Fatal(err)
	}
	_, m, err := Load("../agreement/timeout.yaml", nil)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		n       *Network
		formula string
		want    string
	}{
		{a, "A[] forall (i : pid_t) forall (j : pid_t) (dec[i] >= 0 && dec[j] >= 0) imply dec[i] == dec[j]", "data"},
		{a, "A[] (exists (i : pid_t) Proc(i).wait) imply t <= U", "or(not(data), [t <= 4])"},
		{a, "A[] deadlock imply ((forall (i : pid_t) Proc(i).finished) || (exists (i : pid_t) exists (j : pid_t) Proc(j).x - Proc(i).x > T - c1))",
			"or(not(deadlock), data, [Proc(0).x - Proc(1).x < -2], [Proc(0).x - Proc(2).x < -2], [Proc(1).x - Proc(0).x < -2], [Proc(1).x - Proc(2).x < -2], [Proc(2).x - Proc(0).x < -2], [Proc(2).x - Proc(1).x < -2])"},
		{m, "A[] (Process.halted && Process.x > T) imply (Observer.halted || has_halted)", "or(not(and(data, [Process.x > 3])), data)"},
		{m, "E<> Process.halted && Process.x >= T && !has_halted && !Observer.halted", "and(data, [Process.x >= 3])"},
		// The quantifier's body extends to the right: forall (i) (idle && t > 0).
		{m, "A[] has_halted imply (Process.halted && forall (i : bid_t) Broadcast(i).idle && t > 0)", "or(not(data), and(data, [t > 0], [t > 0]))"},
		{m, "E<> Process.x == 2", "and([Process.x <= 2], [Process.x >= 2])"},
		{m, "E<> true", "true"},
		{m, "E<> !(Process.x < 1 || deadlock)", "not(or([Process.x < 1], deadlock))"},
	}
	for _, c := range cases {
		f := compileFormula(t, c.n, c.formula)
		if got := shape(c.n, f); got != c.want {
			t.Errorf("%s\n got  %s\n want %s", c.formula, got, c.want)
		}
	}
}

// TestFormulaDataEvaluation proves location tests read Env.Locs and
// process variables read the variable vector.
func TestFormulaDataEvaluation(t *testing.T) {
	_, m, err := Load("../agreement/timeout.yaml", nil)
	if err != nil {
		t.Fatal(err)
	}
	env := m.NewEnv()
	f := compileFormula(t, m, "E<> Process.comp && Observer.cnt == -1 && forall (i : bid_t) Broadcast(i).idle")
	if f.Kind != FData {
		t.Fatalf("shape %s", shape(m, f))
	}
	if f.Data(env) {
		t.Error("true in the initial state (Process is in init)")
	}
	env.Locs[0] = int32(m.Procs[0].LocationIndex("comp"))
	if !f.Data(env) {
		t.Error("false with Process in comp")
	}
	env.Locs[2] = int32(m.Procs[2].LocationIndex("sending"))
	if f.Data(env) {
		t.Error("true with Broadcast(0) sending")
	}
}

// TestTerms proves sup/inf terms compile to a clock or a data expression.
func TestTerms(t *testing.T) {
	_, m, err := Load("../agreement/timeout.yaml", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ expr, want string }{
		{"t", "clock 1"}, {"Process.x", "clock 2"}, {"Broadcast(1).x", "clock 5"}, {"Observer.cnt + 1", "data 0"},
	} {
		q, err := ParseQuery(NewText("sup: "+c.expr, Pos{File: "q", Line: 1, Col: 1}))
		if err != nil {
			t.Fatal(err)
		}
		term, err := m.CompileTerm(q.Exprs[0], NewText("sup: "+c.expr, Pos{File: "q", Line: 1, Col: 1}))
		if err != nil {
			t.Fatalf("%s: %v", c.expr, err)
		}
		got := fmt.Sprintf("clock %d", term.Clock)
		if term.Data != nil {
			got = fmt.Sprintf("data %d", term.Data(m.NewEnv()))
		}
		if got != c.want {
			t.Errorf("%s: %s, want %s", c.expr, got, c.want)
		}
	}
}

package model

import (
	"fmt"
	"runtime"
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

// TestLongChainsCompileInLinearMemory proves that a chain of conjuncts or
// disjuncts compiles in memory linear in its length: each node's text
// (Formula.Src) is a substring of one printing of the formula, and the
// chain is one junction of its operands. Printed level by level, 100,000
// clock constraints joined by && took over 22 GB and ten minutes; the
// bytes allocated for twice the operands were four times as many. A chain
// of data operands before the clocks stays one data operand, as compiled
// before.
func TestLongChainsCompileInLinearMemory(t *testing.T) {
	_, m, err := Load("../agreement/timeout.yaml", nil)
	if err != nil {
		t.Fatal(err)
	}
	chain := func(n int, op, operand, last string) string {
		parts := make([]string, n)
		for i := range parts {
			parts[i] = operand
		}
		s := strings.Join(parts, op)
		if last != "" {
			s += op + last
		}
		return "E<> " + s
	}
	compileBytes := func(formula string) (uint64, *Formula) {
		q, err := ParseQuery(NewText(formula, Pos{File: "q", Line: 1, Col: 1}))
		if err != nil {
			t.Fatal(err)
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		f, err := m.CompileFormula(q.Formula, NewText(formula, Pos{File: "q", Line: 1, Col: 1}))
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatal(err)
		}
		return after.TotalAlloc - before.TotalAlloc, f
	}
	for _, c := range []struct {
		name, op, operand, last string
		want                    func(n int) string
	}{
		{"clocks joined by &&", " && ", "Process.x >= 1", "", func(n int) string { return fmt.Sprintf("and(%d clocks)", n) }},
		{"clocks joined by ||", " || ", "Process.x > 2", "", func(n int) string { return fmt.Sprintf("or(%d clocks)", n) }},
		{"data, then a clock", " && ", "Observer.cnt == 0", "Process.x >= 1", func(int) string { return "and(data, 1 clocks)" }},
	} {
		t.Run(c.name, func(t *testing.T) {
			var bytes [2]uint64
			for i, n := range []int{2000, 4000} {
				formula := chain(n, c.op, c.operand, c.last)
				b, f := compileBytes(formula)
				bytes[i] = b
				got := ""
				clocks, data := 0, 0
				for _, a := range f.Args {
					switch a.Kind {
					case FClock:
						clocks++
					case FData:
						data++
						if a.Src != strings.TrimPrefix(chain(n, c.op, c.operand, ""), "E<> ") {
							t.Errorf("n = %d: the data operand's text is %.40q…", n, a.Src)
						}
					}
				}
				kind := map[FormulaKind]string{FAnd: "and", FOr: "or"}[f.Kind]
				if data > 0 {
					got = fmt.Sprintf("%s(data, %d clocks)", kind, clocks)
				} else {
					got = fmt.Sprintf("%s(%d clocks)", kind, clocks)
				}
				if want := c.want(n); got != want {
					t.Fatalf("n = %d: %s, want %s", n, got, want)
				}
				if f.Src != strings.TrimPrefix(formula, "E<> ") {
					t.Fatalf("n = %d: the formula's text is %.40q…", n, f.Src)
				}
			}
			if bytes[1] > 3*bytes[0] {
				t.Errorf("compiling twice the operands allocated %d bytes against %d: more than linear", bytes[1], bytes[0])
			}
		})
	}
}

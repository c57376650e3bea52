package model

import "testing"

// Benchmarks of compiled code on the agreement model (seed-models.md 4).
// Evaluation must not allocate:
//
//	go test -run XXX -bench . -benchmem ./model/

// agreementState loads the agreement model and puts process 0 in round 1
// with every round-0 message received, so that pre4(0) runs its loops to
// the end.
func agreementState(b *testing.B) (*Network, *Env) {
	b.Helper()
	_, n, err := Load("../agreement/agreement.yaml", nil)
	if err != nil {
		b.Fatal(err)
	}
	env := n.NewEnv()
	env.Vars[n.VarIndex("r[0]")] = 1
	for j := 0; j < 3; j++ {
		env.Vars[n.VarIndex("buff[0][0]["+string(rune('0'+j))+"]")] = 1
	}
	return n, env
}

// BenchmarkGuardPre4 evaluates the guard pre4(id) of edge P7 of Proc(0):
// a call of pre4, which calls pre3, each with a range loop over buff.
func BenchmarkGuardPre4(b *testing.B) {
	n, env := agreementState(b)
	p := n.ProcessByName("Proc(0)")
	var g BoolExpr
	for i := range p.Edges {
		if p.Edges[i].GuardSrc == "pre4(id)" {
			g = p.Edges[i].Guard
		}
	}
	if g == nil || !g(env) || env.Err != nil {
		b.Fatalf("pre4(0) is not true in the benchmark state (%v)", env.Err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if !g(env) {
			b.Fatal("pre4 false")
		}
	}
}

// BenchmarkUpdateP10 runs the update of a failure edge (P10): a call of
// failValue (which calls pre1..pre4), five assignments and a clock reset.
func BenchmarkUpdateP10(b *testing.B) {
	n, env := agreementState(b)
	p := n.ProcessByName("Proc(0)")
	var e *Edge
	for i := range p.Edges {
		if p.Edges[i].SelectSrc != "" && p.Edges[i].From == p.LocationIndex("wait") {
			e = &p.Edges[i]
			break
		}
	}
	saved := append([]int32(nil), env.Vars...)
	b.ReportAllocs()
	for b.Loop() {
		copy(env.Vars, saved)
		env.Resets = env.Resets[:0]
		e.Update(env)
	}
	if env.Err != nil || len(env.Resets) != 1 {
		b.Fatalf("update failed: %v %v", env.Err, env.Resets)
	}
}

// BenchmarkUpdateStart runs the update of a Broadcast automaton's B1 edge:
// x = 0, start() (a loop writing pend with shifts and masks).
func BenchmarkUpdateStart(b *testing.B) {
	n, env := agreementState(b)
	p := n.ProcessByName("Broadcast(0,0)")
	e := &p.Edges[0]
	saved := append([]int32(nil), env.Vars...)
	b.ReportAllocs()
	for b.Loop() {
		copy(env.Vars, saved)
		env.Resets = env.Resets[:0]
		e.Update(env)
	}
	if env.Err != nil {
		b.Fatal(env.Err)
	}
}

// BenchmarkCompileAgreement measures loading the agreement model.
func BenchmarkCompileAgreement(b *testing.B) {
	src := readFile(b, "../agreement/agreement.yaml")
	b.ReportAllocs()
	for b.Loop() {
		f, err := Parse("agreement.yaml", src)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := f.Compile(nil); err != nil {
			b.Fatal(err)
		}
	}
}

// TestEvaluationDoesNotAllocate keeps the 0 allocs/op promise in the
// ordinary test run.
func TestEvaluationDoesNotAllocate(t *testing.T) {
	for _, bench := range []func(*testing.B){BenchmarkGuardPre4, BenchmarkUpdateP10, BenchmarkUpdateStart} {
		r := testing.Benchmark(bench)
		if a := r.AllocsPerOp(); a != 0 {
			t.Errorf("%d allocs/op: %s", a, r.MemString())
		}
	}
}

// TestConcurrentEvaluation proves compiled code and formula compilation can
// run on several goroutines, each with its own Env (run with -race).
func TestConcurrentEvaluation(t *testing.T) {
	f, n, err := Load("../agreement/agreement.yaml", nil)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error)
	for w := 0; w < 4; w++ {
		go func() {
			env := n.NewEnv()
			for _, p := range n.Procs {
				for i := range p.Edges {
					e := &p.Edges[i]
					env.Err = nil
					if e.Guard == nil || e.Guard(env) {
						saved := append([]int32(nil), env.Vars...)
						env.Resets = env.Resets[:0]
						if e.Update != nil {
							e.Update(env)
						}
						copy(env.Vars, saved)
					}
				}
			}
			for _, q := range f.Queries {
				pq, err := ParseQuery(q.Formula)
				if err != nil {
					done <- err
					return
				}
				if pq.Formula != nil {
					if _, err := n.CompileFormula(pq.Formula, q.Formula); err != nil {
						done <- err
						return
					}
				}
			}
			done <- nil
		}()
	}
	for w := 0; w < 4; w++ {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}

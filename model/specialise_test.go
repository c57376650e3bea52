package model

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// TestSpecialisedCallsAreTheCalls proves that specialising calls with
// constant arguments (stmt.go specialise) changes no value, no update and
// no runtime error: every guard, channel expression and update of every
// example model, and of testdata/specialise/calls.yaml, which mixes calls
// the compiler specialises with calls it must leave general, is evaluated
// on random states of the model compiled with and without it, and the
// results, errors (message and position), variables and resets after the
// update must be the same.
func TestSpecialisedCallsAreTheCalls(t *testing.T) {
	files := modelFiles(t)
	for _, pat := range []string{"testdata/specialise/*.yaml", "../queries/testdata/*/*.yaml", "../zone/testdata/*.yaml"} {
		m, err := filepath.Glob(pat)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	specialised := 0
	for _, name := range files {
		t.Run(filepath.Base(filepath.Dir(name))+"/"+filepath.Base(name), func(t *testing.T) {
			_, on, err := Load(name, nil)
			if err != nil {
				t.Skip(err) // the error models
			}
			specialiseCalls = false
			_, off, err := Load(name, nil)
			specialiseCalls = true
			if err != nil {
				t.Fatalf("without specialisation: %v", err)
			}
			if len(on.Vars) != len(off.Vars) || len(on.Procs) != len(off.Procs) {
				t.Fatal("the two compilations differ in shape")
			}
			rng := rand.New(rand.NewPCG(7, uint64(len(name))))
			eon, eoff := on.NewEnv(), off.NewEnv()
			// 300 random states, fewer where evaluations run to the
			// budget (errors/nested-calls.yaml)
			deadline := time.Now().Add(time.Second)
			for trial := 0; trial < 300 && (trial < 2 || time.Now().Before(deadline)); trial++ {
				vars := make([]int32, len(on.Vars))
				for i, v := range on.Vars {
					vars[i] = int32(int64(v.Min) + rng.Int64N(int64(v.Max)-int64(v.Min)+1))
				}
				locs := make([]int32, len(on.Procs))
				for p, proc := range on.Procs {
					locs[p] = int32(rng.IntN(len(proc.Locations)))
				}
				for p := range on.Procs {
					for k := range on.Procs[p].Edges {
						a, b := &on.Procs[p].Edges[k], &off.Procs[p].Edges[k]
						where := fmt.Sprintf("%s edge %d (%s / %s)", on.Procs[p].Name, k, a.GuardSrc, a.UpdateSrc)
						ra := evalEdge(eon, a, locs, vars)
						rb := evalEdge(eoff, b, locs, vars)
						if ra != rb {
							t.Fatalf("%s on %v:\nspecialised: %s\ngeneral:     %s", where, vars, ra, rb)
						}
					}
				}
			}
		})
	}
	for _, name := range []string{"testdata/specialise/calls.yaml", "../agreement/agreement.yaml"} {
		n := specialisations(t, name)
		if n == 0 {
			t.Errorf("%s: no call specialised", name)
		}
		specialised += n
	}
	t.Logf("%d specialisations in calls.yaml and agreement.yaml", specialised)
}

// specialisations counts the specialised functions of a model.
func specialisations(t *testing.T, name string) int {
	t.Helper()
	_, n, err := Load(name, nil)
	if err != nil {
		t.Fatal(err)
	}
	return n.scope.(*netState).specials
}

// evalEdge evaluates e's guard, channel expression and update on (locs,
// vars) and describes the outcome.
func evalEdge(env *Env, e *Edge, locs, vars []int32) string {
	env.Locs, env.Vars, env.Err, env.Resets = locs, slices.Clone(vars), nil, env.Resets[:0]
	out := ""
	if e.Guard != nil {
		out += fmt.Sprintf("guard %v", e.Guard(env))
		if env.Err != nil {
			return out + " error " + env.Err.Error()
		}
	}
	if e.SyncExpr != nil {
		out += fmt.Sprintf(" chan %d", e.SyncExpr(env))
		if env.Err != nil {
			return out + " error " + env.Err.Error()
		}
	}
	if e.Update != nil {
		e.Update(env)
		if env.Err != nil {
			return out + " error " + env.Err.Error()
		}
		out += fmt.Sprintf(" vars %v resets %v", env.Vars, env.Resets)
	}
	return out
}

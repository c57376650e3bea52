package model

import (
	"path/filepath"
	"testing"

	"github.com/tcheck/tcheck/model/syntax"
)

// compileQueries compiles every query of f against n, as package queries
// will: the formula (or the sup/inf condition and terms).
func compileQueries(t testing.TB, f *File, n *Network) {
	t.Helper()
	for _, q := range f.Queries {
		pq, err := ParseQuery(q.Formula)
		if err != nil {
			t.Fatalf("query %s: %v", q.Name, err)
		}
		for _, x := range []syntax.Expr{pq.Formula, pq.Formula2} {
			if x == nil {
				continue
			}
			if _, err := n.CompileFormula(x, q.Formula); err != nil {
				t.Fatalf("query %s: %v", q.Name, err)
			}
		}
		for _, x := range pq.Exprs {
			if _, err := n.CompileTerm(x, q.Formula); err != nil {
				t.Fatalf("query %s: %v", q.Name, err)
			}
		}
	}
}

// TestSeedModelsLoad proves that every example model, including both seed
// models of shared/design/seed-models.md and their mutants, parses, checks
// and compiles, queries included.
func TestSeedModelsLoad(t *testing.T) {
	files := modelFiles(t)
	if len(files) == 0 {
		t.Fatal("no models found")
	}
	for _, name := range files {
		t.Run(filepath.Base(name), func(t *testing.T) {
			f, n, err := Load(name, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(n.Procs) == 0 {
				t.Fatal("no processes")
			}
			compileQueries(t, f, n)
		})
	}
}

// TestSeedModelsParameterTables proves that the seed models instantiate on
// every parameter row the paper verified (seed-models.md tables 2.1 and
// 2.2, the latter for f = 0 and f = 1), with the derived constants of the
// tables.
func TestSeedModelsParameterTables(t *testing.T) {
	type row struct{ c1, c2, d, D, T int64 }
	rowsA := []row{{1, 1, 0, 1, 3}, {1, 1, 1, 2, 5}, {1, 1, 2, 3, 7}, {1, 1, 3, 4, 9}, {1, 1, 4, 5, 11}, {1, 1, 5, 6, 13},
		{1, 2, 0, 2, 8}, {1, 2, 1, 3, 11}, {1, 2, 2, 4, 14}, {1, 2, 3, 5, 17}, {1, 2, 4, 6, 20}, {1, 2, 5, 7, 23},
		{9, 10, 5, 15, 35}, {9, 10, 9, 19, 49}, {9, 10, 10, 20, 50}, {9, 10, 11, 21, 51}, {9, 10, 15, 25, 55},
		{9, 10, 20, 30, 70}, {9, 10, 50, 60, 130}}
	for _, r := range rowsA {
		f, n, err := Load("../agreement/timeout.yaml", map[string]int64{"c1": r.c1, "c2": r.c2, "d": r.d})
		if err != nil {
			t.Fatalf("timeout %v: %v", r, err)
		}
		compileQueries(t, f, n)
		nb := r.d/r.c1 + 2
		if got := int64(len(n.Procs)) - 2; got != nb {
			t.Errorf("timeout %v: %d Broadcast processes, want NB_A = %d", r, got, nb)
		}
		// Process.update's invariant bound is T in the agreement model; here
		// check T through the Process.x bound of query-free code: the
		// Observer's cnt range is [-1, K].
		cnt := n.Vars[n.VarIndex("Observer.cnt")]
		if k := r.D/r.c1 + 1; int64(cnt.Max) != k {
			t.Errorf("timeout %v: K = %d, want %d", r, cnt.Max, k)
		}
	}
	rowsB := []row{{1, 1, 0, 1, 3}, {1, 1, 1, 2, 5}, {1, 1, 2, 3, 7}, {1, 1, 3, 4, 9}, {1, 1, 5, 6, 13}, {1, 1, 10, 11, 23},
		{1, 2, 0, 2, 8}, {1, 2, 1, 3, 11}, {1, 2, 2, 4, 14}, {1, 2, 3, 5, 17}, {1, 2, 5, 7, 23}, {1, 2, 10, 12, 38},
		{9, 10, 5, 15, 35}, {9, 10, 9, 19, 49}, {9, 10, 10, 20, 50}, {9, 10, 11, 21, 51}, {9, 10, 15, 25, 55},
		{9, 10, 20, 30, 70}, {9, 10, 50, 60, 130}, {9, 10, 100, 110, 240}}
	for _, r := range rowsB {
		for fv := int64(0); fv <= 1; fv++ {
			f, n, err := Load("../agreement/agreement.yaml", map[string]int64{"c1": r.c1, "c2": r.c2, "d": r.d, "f": fv})
			if err != nil {
				t.Fatalf("agreement %v f=%d: %v", r, fv, err)
			}
			compileQueries(t, f, n)
			// The update location's invariant is x <= T.
			p := n.ProcessByName("Proc(0)")
			inv := p.Locations[p.LocationIndex("update")].Invariant
			if len(inv) != 1 || int64(inv[0].Const) != r.T {
				t.Errorf("agreement %v f=%d: update invariant %v, want x <= %d", r, fv, inv, r.T)
			}
			nb := min(r.d/r.c1+2, 2*fv+3)
			if got := int64(len(n.Procs)) - 7; got != 3*nb { // Init, 3 Proc, 3 Timeout
				t.Errorf("agreement %v f=%d: %d Broadcast processes, want 3*NB = %d", r, fv, got, 3*nb)
			}
		}
	}
}

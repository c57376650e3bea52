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

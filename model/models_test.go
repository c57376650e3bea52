package model

import (
	"path/filepath"
	"testing"
)

// TestSeedModelsLoad proves that every example model, including both seed
// models of shared/design/seed-models.md and their mutants, parses, checks
// and compiles.
func TestSeedModelsLoad(t *testing.T) {
	files := modelFiles(t)
	if len(files) == 0 {
		t.Fatal("no models found")
	}
	for _, name := range files {
		t.Run(filepath.Base(name), func(t *testing.T) {
			_, n, err := Load(name, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(n.Procs) == 0 {
				t.Fatal("no processes")
			}
		})
	}
}

package model

import (
	"os"
	"path/filepath"
	"testing"
)

// modelFiles lists the example models under testdata/models (the repository
// root's, with the seed-model mutants) and model/testdata/valid.
func modelFiles(t testing.TB) []string {
	t.Helper()
	var files []string
	for _, pat := range []string{"../testdata/models/*.yaml", "../testdata/models/mutants/*.yaml", "testdata/valid/*.yaml"} {
		m, err := filepath.Glob(pat)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	return files
}

func readFile(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

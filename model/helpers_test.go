package model

import (
	"os"
	"path/filepath"
	"testing"
)

// modelFiles lists the example models of the repository (testdata/, the
// bundled models in agreement/) and model/testdata/valid. The seed-model
// mutants are patches over the bundled models; package agreement tests them.
func modelFiles(t testing.TB) []string {
	t.Helper()
	var files []string
	for _, pat := range []string{"../testdata/*.yaml", "../agreement/*.yaml", "testdata/valid/*.yaml"} {
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

// modelPath returns the file of an example model by name: Fischer in
// testdata/, the seed models in agreement/.
func modelPath(name string) string {
	if name == "fischer" {
		return "../testdata/fischer.yaml"
	}
	return "../agreement/" + name + ".yaml"
}

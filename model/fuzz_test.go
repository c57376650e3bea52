package model

import (
	"path/filepath"
	"reflect"
	"testing"
)

// FuzzLoadYAML feeds arbitrary model files to the whole front end: YAML
// parsing, checking, compilation and the compilation of the queries, then
// checks that printing a parsed file gives a file that parses to the same
// content. Nothing may panic or hang; errors are fine. The seed corpus is
// every example model, every semantics model of package queries (structs,
// scalar sets, ...) and every error case.
//
//	go test -run XXX -fuzz FuzzLoadYAML -fuzztime 1m -fuzzminimizetime 2s ./model/
//
// (Minimizing a large interesting input otherwise takes minutes and looks
// like a stall.)
func FuzzLoadYAML(f *testing.F) {
	semantics, err := filepath.Glob("../queries/testdata/semantics/*.yaml")
	if err != nil || len(semantics) == 0 {
		f.Fatalf("no semantics models: %v", err)
	}
	// calls the compiler specialises (and some it must not)
	special, err := filepath.Glob("testdata/specialise/*.yaml")
	if err != nil || len(special) == 0 {
		f.Fatalf("no specialisation models: %v", err)
	}
	semantics = append(semantics, special...)
	for _, name := range append(modelFiles(f), semantics...) {
		f.Add(readFile(f, name))
	}
	for _, c := range readCasesFile(f, "testdata/errors.txt") {
		f.Add([]byte(completeModel(c.text)))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if len(src) > 1<<16 {
			return
		}
		file, err := Parse("fuzz.yaml", src)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		out := FormatYAML(file)
		again, err := Parse("printed.yaml", out)
		if err != nil {
			t.Fatalf("printed file does not parse: %v\n%s", err, out)
		}
		if !reflect.DeepEqual(stripPositions(file), stripPositions(again)) {
			t.Fatalf("printing changed the model:\n%s", out)
		}
		_ = loadAll("fuzz.yaml", src)
	})
}

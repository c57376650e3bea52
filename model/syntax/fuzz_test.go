package syntax

import (
	"errors"
	"path/filepath"
	"testing"
)

// Fuzz targets. Run each with, for example,
//
//	go test ./model/syntax -run '^$' -fuzz '^FuzzParseDecls$' -fuzztime 60s
//
// Properties: the parser never panics (a panic fails the target) and never
// hangs; an error is an *Error whose position lies inside the input; and
// an input that parses prints to text that parses to the same tree (ignoring
// positions), and printing that tree again gives the same text.
// Crashers found by the fuzzer are kept under testdata/fuzz/<Target>/ and
// rerun by `go test`.

func FuzzParseDecls(f *testing.F)  { fuzzEntry(f, kindDecls, kindDecls) }
func FuzzParseSystem(f *testing.F) { fuzzEntry(f, kindSystem, kindSystem, kindDecls) }
func FuzzParseExpr(f *testing.F)   { fuzzEntry(f, kindExpr, kindExpr, kindUpdate, kindSync, kindParams) }
func FuzzParseQuery(f *testing.F)  { fuzzEntry(f, kindQuery, kindQuery, kindExpr) }

// fuzzEntry seeds the corpus with the valid and invalid test inputs of the
// seed kinds and fuzzes the entry point kind.
func fuzzEntry(f *testing.F, kind string, seedKinds ...string) {
	for _, src := range seedInputs(f, seedKinds) {
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src string) {
		checkParse(t, kind, src)
	})
}

// checkParse checks the fuzz properties for one input.
func checkParse(t *testing.T, kind, src string) {
	_, err := parseAs(kind, src)
	if err != nil {
		var se *Error
		if !errors.As(err, &se) {
			t.Fatalf("error %v is a %T, not an *Error", err, err)
		}
		if se.Pos.Line < 1 || se.Pos.Col < 1 || se.Pos.Off < 0 || se.Pos.Off > len(src) {
			t.Fatalf("error position %+v outside the input (%d bytes): %v", se.Pos, len(src), err)
		}
		return
	}
	checkRoundTrip(t, kind, src)
}

// seedInputs collects the test inputs of the given kinds: testdata files,
// the construct, precedence and error tables.
func seedInputs(tb testing.TB, kinds []string) []string {
	want := map[string]bool{}
	for _, k := range kinds {
		want[k] = true
	}
	var out []string
	names, err := filepath.Glob(filepath.Join("testdata", "*"))
	if err != nil {
		tb.Fatal(err)
	}
	for _, name := range names {
		switch filepath.Ext(name) {
		case ".decls", ".system", ".queries", ".labels":
		default:
			continue
		}
		for _, sn := range readSnippets(tb, name) {
			if want[sn.kind] {
				out = append(out, sn.src)
			}
		}
	}
	for _, tc := range constructTests {
		if want[tc.kind] {
			out = append(out, tc.src)
		}
	}
	if want[kindExpr] {
		for _, tc := range precedenceTests {
			out = append(out, tc.src)
		}
	}
	for _, tc := range errorTests {
		if want[tc.kind] && len(tc.src) < 1000 {
			out = append(out, tc.src)
		}
	}
	return out
}

// TestSeedInputsRoundTrip runs the fuzz properties on every seed input of
// every entry point, so `go test` checks them without fuzzing.
func TestSeedInputsRoundTrip(t *testing.T) {
	all := []string{kindDecls, kindSystem, kindParams, kindExpr, kindUpdate, kindSelect, kindSync, kindQuery}
	for _, kind := range all {
		for _, src := range seedInputs(t, all) {
			checkParse(t, kind, src)
		}
	}
}

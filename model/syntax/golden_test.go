package syntax

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// Golden-file tests. Each input under testdata/ is parsed with the entry
// point given by its extension, and the canonical print and the fully
// parenthesised tree are compared with testdata/<file>.golden (rewrite with
// `go test ./model/syntax -run Golden -update`, then inspect the diff).
//
//	*.decls    ParseDecls on the whole file
//	*.system   ParseSystem on the whole file
//	*.queries  ParseQuery on each line (blank lines and // comment lines skipped)
//	*.labels   one label per line, "kind: text", kind one of params, invariant,
//	           guard, select, sync, update (blank lines and # lines skipped)
var labelKinds = map[string]string{
	"params": kindParams, "invariant": kindExpr, "guard": kindExpr, "select": kindSelect,
	"sync": kindSync, "update": kindUpdate,
}

// snippet is one parse job read from a testdata file.
type snippet struct {
	kind, src, label string
	line             int
}

// readSnippets reads the parse jobs of the testdata input file name.
func readSnippets(t testing.TB, name string) []snippet {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	switch filepath.Ext(name) {
	case ".decls":
		return []snippet{{kind: kindDecls, src: text, line: 1}}
	case ".system":
		return []snippet{{kind: kindSystem, src: text, line: 1}}
	}
	var out []snippet
	for i, line := range strings.Split(text, "\n") {
		s := strings.TrimSpace(line)
		switch filepath.Ext(name) {
		case ".queries":
			if s == "" || strings.HasPrefix(s, "//") {
				continue
			}
			out = append(out, snippet{kind: kindQuery, src: s, line: i + 1})
		case ".labels":
			if s == "" || strings.HasPrefix(s, "#") {
				continue
			}
			label, src, ok := strings.Cut(s, ":")
			kind := labelKinds[label]
			if !ok || kind == "" {
				t.Fatalf("%s:%d: bad label line %q", name, i+1, line)
			}
			out = append(out, snippet{kind: kind, src: strings.TrimSpace(src), label: label, line: i + 1})
		default:
			t.Fatalf("%s: unknown input kind", name)
		}
	}
	return out
}

// goldenInputs lists the testdata input files.
func goldenInputs(t testing.TB) []string {
	t.Helper()
	var names []string
	for _, pat := range []string{"*.decls", "*.system", "*.queries", "*.labels"} {
		m, err := filepath.Glob(filepath.Join("testdata", pat))
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, m...)
	}
	if len(names) == 0 {
		t.Fatal("no testdata inputs")
	}
	return names
}

// TestGoldenFiles parses every testdata input (including every declaration,
// function, label and query of seed-models.md) and compares the printed
// trees with the golden files. It also checks the round trip on each.
func TestGoldenFiles(t *testing.T) {
	for _, name := range goldenInputs(t) {
		t.Run(filepath.Base(name), func(t *testing.T) {
			var b strings.Builder
			for _, sn := range readSnippets(t, name) {
				tree, err := parseAs(sn.kind, sn.src)
				if err != nil {
					t.Fatalf("%s:%d: %s: %v", name, sn.line, sn.kind, err)
				}
				checkRoundTrip(t, sn.kind, sn.src)
				switch sn.kind {
				case kindDecls, kindSystem:
					b.WriteString("-- format --\n")
					b.WriteString(render(tree, false))
					b.WriteString("-- tree --\n")
					b.WriteString(render(tree, true))
				default:
					if sn.label != "" {
						b.WriteString(sn.label + ": ")
					}
					b.WriteString(sn.src + "\n")
					b.WriteString("  format: " + render(tree, false) + "\n")
					b.WriteString("  tree:   " + render(tree, true) + "\n")
				}
			}
			golden := name + ".golden"
			got := b.String()
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("output differs from %s (run with -update and inspect the diff):\n%s", golden, got)
			}
		})
	}
}

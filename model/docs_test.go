package model

import (
	"strings"
	"testing"
)

// TestDocsExampleIsFischer proves the complete example of
// docs/model-format.md is the file testdata/fischer.yaml (which the
// other tests load and round-trip), so the documentation's example runs.
func TestDocsExampleIsFischer(t *testing.T) {
	doc := string(readFile(t, "../docs/model-format.md"))
	start := strings.Index(doc, "```yaml\n")
	if start < 0 {
		t.Fatal("no yaml example in docs/model-format.md")
	}
	rest := doc[start+len("```yaml\n"):]
	example := rest[:strings.Index(rest, "```")]
	if want := string(readFile(t, "../testdata/fischer.yaml")); example != want {
		t.Errorf("the example of docs/model-format.md differs from testdata/fischer.yaml")
	}
	f, n, err := Load("../testdata/fischer.yaml", map[string]int64{"N": 4})
	if err != nil {
		t.Fatal(err)
	}
	if len(n.Procs) != 4 || n.Procs[3].Name != "P(4)" {
		t.Errorf("processes: %d, last %s", len(n.Procs), n.Procs[len(n.Procs)-1].Name)
	}
	compileQueries(t, f, n)
}

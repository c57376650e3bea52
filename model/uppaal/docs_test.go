package uppaal

import (
	"os"
	"strings"
	"testing"

	"github.com/tcheck/tcheck/queries"
)

// TestDocsExample reads the example of docs/uppaal.md (an XTA model and
// its query file) and checks the verdicts the document states.
func TestDocsExample(t *testing.T) {
	doc, err := os.ReadFile("../../docs/uppaal.md")
	if err != nil {
		t.Fatal(err)
	}
	block := func(lang string) string {
		s := string(doc)
		i := strings.Index(s, "```"+lang+"\n")
		if i < 0 {
			t.Fatalf("no %s block in docs/uppaal.md", lang)
		}
		s = s[i+len(lang)+4:]
		return s[:strings.Index(s, "```")]
	}
	qs, err := ParseQueries("lamp.q", []byte(block("q")))
	if err != nil {
		t.Fatal(err)
	}
	f, err := parseXTA("lamp.xta", []byte(block("xta")), qs)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range check(t, f, queries.Options{}) {
		if !o.Matches || !o.Expect {
			t.Errorf("%v: not as the document says", o)
		}
	}
	for i := range f.Params {
		f.Params[i].Value = 0 // --set BRIGHT=0
	}
	if o := check(t, f, queries.Options{}); o[0].Verdict != "violated" {
		t.Errorf("with BRIGHT=0: %v", o[0])
	}
}

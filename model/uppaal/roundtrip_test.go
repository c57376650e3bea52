package uppaal

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tcheck/tcheck/model"
	"github.com/tcheck/tcheck/queries"
)

// roundTripModels are the YAML models of the round-trip tests.
func roundTripModels(t *testing.T) []string {
	files, err := filepath.Glob("../../queries/testdata/semantics/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no semantics models: %v", err)
	}
	return append(files,
		"../../testdata/fischer.yaml",
		"../../testdata/csmacd.yaml",
		"../../agreement/timeout.yaml",
	)
}

func parseYAML(t *testing.T, path string) *model.File {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := model.Parse(path, src)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// viaXML writes f as UPPAAL XML and reads it back.
func viaXML(t *testing.T, f *model.File) *model.File {
	t.Helper()
	b, _ := FormatXML(f)
	g, err := ParseXML(modelName(f.Path)+".xml", b)
	if err != nil {
		t.Fatalf("reading the written XML: %v\n%s", err, b)
	}
	return g
}

// viaXTA writes f as XTA and a .q file and reads them back.
func viaXTA(t *testing.T, f *model.File) *model.File {
	t.Helper()
	b, _ := FormatXTA(f)
	u, _ := ForUPPAAL(f)
	qs, err := ParseQueries(modelName(f.Path)+".q", FormatQueries(u.Queries))
	if err != nil {
		t.Fatalf("reading the written .q file: %v", err)
	}
	g, err := parseXTA(modelName(f.Path)+".xta", b, qs)
	if err != nil {
		t.Fatalf("reading the written XTA: %v\n%s", err, b)
	}
	return g
}

// viaYAML writes f as YAML and reads it back.
func viaYAML(t *testing.T, f *model.File) *model.File {
	t.Helper()
	b := FormatYAML(f)
	g, err := model.Parse(modelName(f.Path)+".yaml", b)
	if err != nil {
		t.Fatalf("reading the written YAML: %v\n%s", err, b)
	}
	return g
}

// TestRoundTripKeepsVerdictsAndStateCounts writes models as XML and XTA and
// reads them back (and from there to YAML again): every query keeps its
// name, verdict or values, expectation and number of stored states.
func TestRoundTripKeepsVerdictsAndStateCounts(t *testing.T) {
	for _, path := range roundTripModels(t) {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".yaml"), func(t *testing.T) {
			orig := parseYAML(t, path)
			want := check(t, orig, queries.Options{})
			for _, way := range []struct {
				name string
				via  func(*model.File) *model.File
			}{
				{"xml", func(f *model.File) *model.File { return viaXML(t, f) }},
				{"xta", func(f *model.File) *model.File { return viaXTA(t, f) }},
				{"xml-yaml", func(f *model.File) *model.File { return viaYAML(t, viaXML(t, f)) }},
				{"xta-yaml", func(f *model.File) *model.File { return viaYAML(t, viaXTA(t, f)) }},
				{"xml-xta-xml", func(f *model.File) *model.File { return viaXML(t, viaXTA(t, viaXML(t, f))) }},
			} {
				got := check(t, way.via(orig), queries.Options{})
				if d := sameOutcomes(want, got, false); d != "" {
					t.Errorf("via %s: %s", way.name, d)
				}
				for i := range want {
					if i < len(got) && (want[i].Expect != got[i].Expect || want[i].Matches != got[i].Matches) {
						t.Errorf("via %s: query %s: expectation given %v, met %v; then %v, %v",
							way.name, want[i].Name, want[i].Expect, want[i].Matches, got[i].Expect, got[i].Matches)
					}
				}
			}
		})
	}
}

// TestAgreementExportReimportsIdentically writes the bundled agreement
// model (too large to check in a unit test) as XML and XTA and compares the
// compiled networks of what is read back with that of the model made fit
// for UPPAAL (ForUPPAAL: renaming init and the like): every variable,
// clock, location, edge and clock bound must be the same.
func TestAgreementExportReimportsIdentically(t *testing.T) {
	path := "../../agreement/agreement.yaml"
	orig := parseYAML(t, path)
	fit, ren := ForUPPAAL(orig)
	if len(ren) == 0 {
		t.Errorf("expected renamings (a location is called init)")
	}
	dump := func(f *model.File) string {
		net, err := f.Compile(nil)
		if err != nil {
			t.Fatal(err)
		}
		d := net.Dump()
		// The first line names the model (the file's base name).
		return d[strings.IndexByte(d, '\n')+1:]
	}
	want := dump(fit)
	for name, f := range map[string]*model.File{"xml": viaXML(t, orig), "xta": viaXTA(t, orig)} {
		if got := dump(f); got != want {
			t.Errorf("via %s: the compiled network differs:\n%s", name, firstDiff(want, got))
		}
		if len(f.Queries) != len(orig.Queries) {
			t.Errorf("via %s: %d queries, want %d", name, len(f.Queries), len(orig.Queries))
		}
		for i := range f.Queries {
			if i < len(orig.Queries) && (f.Queries[i].Name != orig.Queries[i].Name || f.Queries[i].Expect != orig.Queries[i].Expect) {
				t.Errorf("via %s: query %d is %s (expect %q), want %s (expect %q)", name, i+1,
					f.Queries[i].Name, f.Queries[i].Expect, orig.Queries[i].Name, orig.Queries[i].Expect)
			}
		}
	}
}

// firstDiff shows the first differing line of two texts.
func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(al) && i < len(bl); i++ {
		if al[i] != bl[i] {
			return "want: " + al[i] + "\n got: " + bl[i]
		}
	}
	return "(one is a prefix of the other)"
}

// TestIssue17SyntaxSurvivesConversion proves that the syntax of issue 17
// that tcheck reads without changing its meaning is written back as it was
// through YAML, XML and XTA (the verdicts are checked by
// TestRoundTripKeepsVerdictsAndStateCounts; this checks the text, which the
// verdicts alone would not catch for meta, whose loss changes nothing
// tcheck computes but changes the model for UPPAAL).
func TestIssue17SyntaxSurvivesConversion(t *testing.T) {
	for _, c := range []struct{ file, want string }{
		{"meta.yaml", "meta int[0, 10] tmp;"},
		{"meta.yaml", "meta bool seen[2];"},
		{"power.yaml", "-2 ** 3"},
		{"power.yaml", "(n - 16) ** 2 ** 3"},
		{"default-out-of-zero-range.yaml", "int[1,5] m_status;"},
		{"stopwatch-scheduler.yaml", "e <= 4 && e' == running"},
		{"stopwatch-scheduler.yaml", "expect: unknown"},
	} {
		f := parseYAML(t, "../../queries/testdata/semantics/"+c.file)
		for _, via := range []struct {
			name string
			f    func(*testing.T, *model.File) *model.File
		}{{"XML", viaXML}, {"XTA", viaXTA}, {"YAML", viaYAML}} {
			g := viaYAML(t, via.f(t, f))
			if b := string(FormatYAML(g)); !strings.Contains(b, c.want) {
				t.Errorf("%s via %s: %q is lost:\n%s", c.file, via.name, c.want, b)
			}
		}
	}
}

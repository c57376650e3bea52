package uppaal

import (
	"bytes"
	"encoding/xml"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/tcheck/tcheck/model"
	"github.com/tcheck/tcheck/queries"
)

func yamlFile(t *testing.T, src string) *model.File {
	t.Helper()
	f, err := model.Parse("m.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestLiftedConstants checks which constants become parameters: `const
// int` with literal values in int's range, global, in the system
// declarations, or local to a template whose name nothing outside it uses;
// and that what remains keeps its positions.
func TestLiftedConstants(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
	}{
		{"global literals", "const int N = 4;\nconst int A = 1, B = -2;\nprocess P() { state a; init a; }\nsystem P;", "N=4 A=1 B=-2"},
		{"not expressions, bools or out of range", "const int N = 4;\nconst int M = N + 1;\nconst bool F = true;\nconst int H = 40000;\nint v = 3;\nprocess P() { state a; init a; }\nsystem P;", "N=4"},
		{"system declarations", "process P(const int d) { state a; init a; }\nconst int D = 5;\nP1 = P(D);\nsystem P1;", "D=5"},
		{"template-local, private", "process P() { clock x; const int k = 2; state a { x <= k }; init a; }\nsystem P;", "k=2"},
		{"template-local, used elsewhere", "process P() { const int k = 2; state a; init a; }\nprocess Q() { int k; state a; init a; }\nsystem P, Q;", ""},
		{"template-local, also global", "const int k = 1;\nprocess P() { const int k = 2; state a; init a; }\nsystem P;", "k=1"},
		{"old syntax", "const N 3;\nprocess P() { state a; init a; }\nsystem P;", "N=3"},
		{"inside a function: not lifted", "int f() { const int z = 1; return z; }\nprocess P() { state a; init a; }\nsystem P;", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := ParseXTA("m.xta", []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range f.Params {
				got = append(got, p.Name+"="+strconv.FormatInt(p.Value, 10))
			}
			if g := strings.Join(got, " "); g != tc.want {
				t.Errorf("params %q, want %q", g, tc.want)
			}
		})
	}
	// What remains on a line keeps its column.
	f, _ := ParseXTA("m.xta", []byte("const int N = 4; int x = @;\nprocess P() { state a; init a; }\nsystem P;"))
	if _, err := f.Compile(nil); err == nil || !strings.HasPrefix(err.Error(), "m.xta:1:26: ") {
		t.Errorf("got %v, want m.xta:1:26: ...", err)
	}
	// A second N (in the system declarations) is not lifted: it stays
	// where it was, with the meaning the checker gives it there.
	f, _ = ParseXTA("m.xta", []byte("const int N = 4;\nprocess P() { state a; init a; }\nconst int N = 5;\nsystem P;"))
	if len(f.Params) != 1 || !strings.Contains(f.System.S, "const int N = 5;") {
		t.Errorf("params %+v, system %q", f.Params, f.System.S)
	}
	// Parameters are overridable.
	f, _ = ParseXTA("m.xta", []byte("const int N = 4;\nint[0,N] v = N;\nprocess P() { state a; init a; }\nsystem P;"))
	net, err := f.Compile(map[string]int64{"N": 7})
	if err != nil {
		t.Fatal(err)
	}
	if len(net.Params) != 1 || net.Params[0].Value != 7 {
		t.Errorf("params %+v", net.Params)
	}
}

// renameModel has names UPPAAL reserves: a location init (and a template
// Init, so the new name is Init_), a variable select, and min/max calls.
const renameModel = `
name: rename
declarations: |
  int select = 1;
  int[0,10] v = min(3, max(1, 2));
templates:
  - name: P
    locations:
      - {name: init, initial: true}
      - {name: min}
    edges:
      - {from: init, to: min, guard: select == 1, update: "v = max(v, 5)"}
  - name: Init
    locations:
      - {name: a, initial: true}
system: system P, Init;
queries:
  reach-min:
    formula: E<> P.min && v == 5
    expect: satisfied
  stays-init:
    formula: E<> P.init && v == 2
    expect: satisfied
  never:
    formula: E<> P.init && v == 5
    expect: violated
`

// TestForUPPAALRenamesReservedNames checks the renaming for UPPAAL: every
// use of a reserved name changes, in code, names and queries, and the
// model means the same.
func TestForUPPAALRenamesReservedNames(t *testing.T) {
	f := yamlFile(t, renameModel)
	g, ren := ForUPPAAL(f)
	var got []string
	for _, r := range ren {
		got = append(got, r.From+"->"+r.To)
	}
	if s := strings.Join(got, " "); s != "init->Init_ select->Select" {
		t.Errorf("renamings %q", s)
	}
	if s := g.Templates[0].Locations[0].Name; s != "Init_" {
		t.Errorf("location renamed to %q", s)
	}
	if s := g.Queries[1].Formula.S; s != "E<> P.Init_ && v == 2" {
		t.Errorf("query %q", s)
	}
	if s := g.Declarations.S; !strings.Contains(s, "int Select = 1;") || !strings.Contains(s, "((3) <? (((1) >? (2))))") {
		t.Errorf("declarations %q", s)
	}
	if s := g.Templates[0].Edges[0].Update.S; s != "v = ((v) >? (5))" {
		t.Errorf("update %q", s)
	}
	if s := g.Templates[0].Locations[1].Name; s != "min" {
		t.Errorf("a location called min was renamed to %q", s)
	}
	want := check(t, f, queries.Options{})
	for _, o := range want {
		if !o.Matches {
			t.Errorf("original: %v", o)
		}
	}
	if d := sameOutcomes(want, check(t, g, queries.Options{}), false); d != "" {
		t.Errorf("the renamed model differs: %s", d)
	}
	if d := sameOutcomes(want, check(t, viaXML(t, f), queries.Options{}), false); d != "" {
		t.Errorf("via XML: %s", d)
	}
}

// TestFormatXMLFollowsTheDTD decodes the written XML and checks what
// UPPAAL's GUI needs: the DOCTYPE, the order of elements of the flat-1.2
// DTD, unique location ids and references to them, known label kinds.
func TestFormatXMLFollowsTheDTD(t *testing.T) {
	b, _ := FormatXML(parseYAML(t, "../../testdata/fischer.yaml"))
	if !bytes.Contains(b, []byte(`<!DOCTYPE nta PUBLIC '-//Uppaal Team//DTD Flat System 1.1//EN' 'http://www.it.uu.se/research/group/darts/uppaal/flat-1_2.dtd'>`)) {
		t.Error("no DOCTYPE")
	}
	order := map[string][]string{
		"nta":        {"declaration", "template", "system", "queries"},
		"template":   {"name", "parameter", "declaration", "location", "init", "transition"},
		"location":   {"name", "label", "urgent", "committed"},
		"transition": {"source", "target", "label", "nail"},
		"query":      {"formula", "comment", "expect"},
	}
	kinds := map[string]bool{"invariant": true, "comments": true, "select": true, "guard": true, "synchronisation": true, "assignment": true}
	ids := map[string]bool{}
	var refs []string
	d := xml.NewDecoder(bytes.NewReader(b))
	var stack []string
	last := map[int]int{} // depth -> index of the last child kind seen
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			if len(stack) > 0 {
				parent := stack[len(stack)-1]
				if want, ok := order[parent]; ok {
					k := indexOf(want, e.Name.Local)
					if k < 0 || k < last[len(stack)] {
						t.Errorf("<%s> out of order in <%s>", e.Name.Local, parent)
					}
					last[len(stack)] = k
				}
			}
			last[len(stack)+1] = 0
			for _, a := range e.Attr {
				switch {
				case e.Name.Local == "location" && a.Name.Local == "id":
					if ids[a.Value] {
						t.Errorf("id %s twice", a.Value)
					}
					ids[a.Value] = true
				case a.Name.Local == "ref":
					refs = append(refs, a.Value)
				case e.Name.Local == "label" && a.Name.Local == "kind" && !kinds[a.Value]:
					t.Errorf("label kind %q", a.Value)
				}
			}
			stack = append(stack, e.Name.Local)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		}
	}
	for _, r := range refs {
		if !ids[r] {
			t.Errorf("reference to unknown id %s", r)
		}
	}
}

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

// TestWritersGolden compares the XML, XTA and .q output for Fischer with
// golden files (the writers are deterministic: same model, same bytes).
func TestWritersGolden(t *testing.T) {
	f := parseYAML(t, "../../testdata/fischer.yaml")
	x, _ := FormatXML(f)
	golden(t, "fischer.xml.golden", string(x))
	y, _ := FormatXTA(f)
	golden(t, "fischer.xta.golden", string(y))
	golden(t, "fischer.q.golden", string(FormatQueries(f.Queries)))
	golden(t, "fischer.yaml.golden", string(FormatYAML(load(t, demoDir+"/fischer.xml"))))
	x2, _ := FormatXML(f)
	if !bytes.Equal(x, x2) {
		t.Error("FormatXML is not deterministic")
	}
}

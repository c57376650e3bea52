package uppaal

import (
	"strings"
	"testing"

	"github.com/tcheck/tcheck/model"
)

// xmlModel wraps template and system parts in a minimal UPPAAL document.
func xmlModel(decl, template, system, queries string) string {
	return `<?xml version="1.0" encoding="utf-8"?>
<nta>
<declaration>` + decl + `</declaration>
<template>
<name>P</name>
` + template + `
</template>
<system>` + system + `</system>` + queries + `
</nta>
`
}

const twoLocs = `<location id="id0"><name>a</name></location>
<location id="id1"><name>b</name></location>
<init ref="id0"/>`

// compileErr reads src with ParseFile as name and compiles it and its
// queries; it returns the first error ("" when there is none).
func compileErr(t *testing.T, name, src string) string {
	t.Helper()
	f, err := ParseFile(name, []byte(src))
	if err != nil {
		return err.Error()
	}
	net, err := f.Compile(nil)
	if err != nil {
		return err.Error()
	}
	for _, q := range f.Queries {
		if _, err := model.ParseQuery(q.Formula); err != nil {
			return err.Error()
		}
		_ = net
	}
	return ""
}

// TestErrorsInLabelsNameTheFilePosition checks that errors inside code
// name the line and column in the model file: in XML, syntax errors after
// entities (&lt; &amp;) and CDATA sections are exact; in XTA every error is
// (the code is kept verbatim).
func TestErrorsInLabelsNameTheFilePosition(t *testing.T) {
	for _, tc := range []struct {
		name, file, src, want string
	}{
		{"xml guard after entities", "m.xml",
			xmlModel("clock x;", twoLocs+`
<transition><source ref="id0"/><target ref="id1"/><label kind="guard">x &lt; 2 &amp;&amp; @</label></transition>`, "system P;", ""),
			"m.xml:9:91: unexpected character '@'"},
		{"xml multi-line declaration", "m.xml",
			xmlModel("clock x;\nint i = 1;\nint j = ;", twoLocs, "system P;", ""),
			"m.xml:5:9: expected expression, found ';'"},
		{"xml CDATA", "m.xml",
			xmlModel("clock x;", twoLocs+`
<transition><source ref="id0"/><target ref="id1"/><label kind="guard"><![CDATA[x < 2 && ]]]]><![CDATA[>]]></label></transition>`, "system P;", ""),
			"m.xml:9:89: expected expression, found ']'"},
		// Errors the checker finds after reading are exact too, past an
		// entity on the line (k is at column 66 of the file, 63 of the
		// decoded label).
		{"xml undeclared in an invariant (checker)", "m.xml",
			xmlModel("clock x;", `<location id="id0"><name>a</name><label kind="invariant">x &lt;= k</label></location>
<init ref="id0"/>`, "system P;", ""),
			"m.xml:6:66: undeclared name k"},
		{"xml unknown location reference", "m.xml",
			xmlModel("", twoLocs+`
<transition><source ref="id0"/><target ref="id7"/></transition>`, "system P;", ""),
			`m.xml:9:32: <target> refers to "id7", which is no location of template P`},
		{"xml not well-formed", "m.xml", "<nta>\n<declaration>int i;</nta>", "m.xml:2:"},
		{"xta guard", "m.xta", "clock x;\nprocess P() {\nstate a, b;\ninit a;\ntrans a -> b { guard x < 2 && @; };\n}\nsystem P;\n",
			"m.xta:5:31: "},
		{"xta invariant (checker)", "m.xta", "clock x;\nprocess P() {\nstate a { x <= k }, b;\ninit a;\n}\nsystem P;\n",
			"m.xta:3:16: "},
		{"xta unknown location", "m.xta", "process P() {\nstate a;\ninit a;\ntrans a -> c { };\n}\nsystem P;\n",
			"m.xta:4:12: no location c in template P"},
		{"xta missing init", "m.xta", "process P() {\nstate a;\n}\nsystem P;\n",
			"m.xta:3:1: process P has no 'init' declaration"},
		{"xta missing system", "m.xta", "process P() {\nstate a;\ninit a;\n}\n",
			"m.xta:5:1: missing system line"},
		{"xta unbalanced", "m.xta", "process P() {\nstate a;\ninit a;\n\nsystem P;\n",
			"m.xta:1:13: process P: unbalanced '{'"},
		{"xta unterminated comment", "m.xta", "/* no end\nsystem P;\n", "m.xta:1:1: unterminated comment"},
		// a list that is neither syntax's (FuzzParseXTA: the rewriting of
		// XTA 3.x lists panicked on an empty name before a ',')
		{"xta empty parameter before a comma", "m.xta", "process A(,;) {\nstate a;\ninit a;\n}\nsystem A;\n",
			"m.xta:1:11: expected parameter, found ','"},
		{"xta empty old-style group", "m.xta", "process A(const i; ,) {\nstate a;\ninit a;\n}\nsystem A;\n",
			"m.xta:1:"},
		// a name missing from an XTA 3.x list: the position is the
		// file's, not one in the rewritten list (col 21 and 24 before)
		{"xta old-style const without a name", "m.xta", "process A(const ;) {\nstate a;\ninit a;\n}\nsystem A;\n",
			"m.xta:1:17: "},
		{"xta old-style empty name after a comma", "m.xta", "process A(int a, ;) {\nstate a;\ninit a;\n}\nsystem A;\n",
			"m.xta:1:18: "},
		// errors in a rewritten XTA 3.x list (`const int i, int &x, int
		// &y[q]`) are at the file's text (2:39, 2:52 and 2:24 before)
		{"xta old-style list, error in a rewritten name", "m.xta",
			"int y[2];\nprocess A(const i; int &x, y[q]) {\nstate a;\ninit a;\n}\nA1 = A(1, y[0], y[1]);\nsystem A1;\n",
			"m.xta:2:30: undeclared name q"},
		{"xta old-style list over two lines", "m.xta",
			"int y[2];\nprocess A(const i,\n   j; int x, y[zz]) {\nstate a;\ninit a;\n}\nA1 = A(1, 2, y[0], y[1]);\nsystem A1;\n",
			"m.xta:3:16: undeclared name zz"},
		{"xta old-style list, unknown type", "m.xta",
			"int y[2];\nprocess A(const i; foo &x) {\nstate a;\ninit a;\n}\nA1 = A(1, y[0]);\nsystem A1;\n",
			"m.xta:2:20: undeclared type foo"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := compileErr(t, tc.file, tc.src)
			if tc.want == "" && got != "" || !strings.HasPrefix(got, tc.want) {
				t.Errorf("got  %q\nwant %q...", got, tc.want)
			}
		})
	}
}

// TestQueryFilePositions checks .q positions: a query continued with a
// backslash keeps exact positions on its second line.
func TestQueryFilePositions(t *testing.T) {
	qs, err := ParseQueries("m.q", []byte("// c\nE<> P.a and \\\n    @\n"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = model.ParseQuery(qs[0].Formula)
	if err == nil || !strings.HasPrefix(err.Error(), "m.q:3:5: ") {
		t.Errorf("got %v, want m.q:3:5: ...", err)
	}
}

// TestQueryFileComments checks how comments before a query describe it
// (UPPAAL's GUI writes a /* */ block right before each query): the header
// separated by a blank line is not a description; [name] names the query;
// EXPECT: gives the expectation.
func TestQueryFileComments(t *testing.T) {
	src := `//This file was generated by UPPAAL.

/*
[mutex] mutual exclusion
EXPECT: satisfied
*/
A[] not (P(1).cs && P(2).cs)

/*
*/
E<> P(1).cs

// first line
// second line
sup: x
inf{P.a}: x // trailing comments belong to the query
// EXPECT: 3, 4
sup: y, z
`
	qs, err := ParseQueries("m.q", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := []struct{ name, comment, expect, formula string }{
		{"mutex", "mutual exclusion", "satisfied", "A[] not (P(1).cs && P(2).cs)"},
		{"q2", "", "", "E<> P(1).cs"},
		{"q3", "first line\nsecond line", "", "sup: x"},
		{"q4", "", "", "inf{P.a}: x // trailing comments belong to the query"},
		{"q5", "", "3, 4", "sup: y, z"},
	}
	if len(qs) != len(want) {
		t.Fatalf("got %d queries, want %d", len(qs), len(want))
	}
	for i, w := range want {
		q := qs[i]
		if q.Name != w.name || q.Comment != w.comment || q.Expect != w.expect || q.Formula.S != w.formula {
			t.Errorf("query %d: got %q %q %q %q, want %q %q %q %q", i+1, q.Name, q.Comment, q.Expect, q.Formula.S, w.name, w.comment, w.expect, w.formula)
		}
	}
}

// TestXTAForms reads the XTA forms found in the wild into the same model:
// the current syntax, `->` chains (an item without a source starts where
// the previous one did), `-u->`, `:=`, XTA 3.x constants, guard and
// invariant lists with commas, and old parameter lists.
func TestXTAForms(t *testing.T) {
	current := `const int N = 2;
int[0,N] v;
process P(const int id, int &r) {
clock x;
state a { x <= 3 && v < 2 }, b, c;
commit c;
init a;
trans a -> b { guard x >= 1 && v == 0; assign v = id, r = 1; },
      a -> c { assign x = 0; },
      b -> a { };
}
int g;
P1 = P(1, g);
system P1;
`
	old := `const N 2;
int[0,N] v;
process P(int r; const id) {
clock x;
state a { x <= 3, v < 2 }, b, c;
commit c;
init a;
trans a -> b { guard x >= 1, v == 0; assign v := id, r := 1; },
        -> c { assign x := 0; },
      b -u-> a { };
}
int g;
P1 = P(g, 1);
system P1;
`
	fc, err := ParseXTA("current.xta", []byte(current))
	if err != nil {
		t.Fatal(err)
	}
	fo, err := ParseXTA("old.xta", []byte(old))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []*model.File{fc, fo} {
		if len(f.Params) != 1 || f.Params[0].Name != "N" || f.Params[0].Value != 2 {
			t.Errorf("%s: params %+v, want N = 2", f.Path, f.Params)
		}
		tp := f.Templates[0]
		if len(tp.Locations) != 3 || len(tp.Edges) != 3 || !tp.Locations[2].Committed || !tp.Locations[0].Initial {
			t.Fatalf("%s: %d locations, %d edges", f.Path, len(tp.Locations), len(tp.Edges))
		}
		if tp.Edges[1].From != "a" || tp.Edges[1].To != "c" || tp.Edges[2].From != "b" {
			t.Errorf("%s: edges %s->%s, %s->%s", f.Path, tp.Edges[1].From, tp.Edges[1].To, tp.Edges[2].From, tp.Edges[2].To)
		}
		if _, err := f.Compile(nil); err != nil {
			t.Errorf("%s: %v", f.Path, err)
		}
	}
	if got := fo.Templates[0].Edges[0].Guard.S; got != "x >= 1&&v == 0" {
		t.Errorf("old guard list read as %q", got)
	}
	if got := fo.Templates[0].Params.S; got != "int &r, const int id" {
		t.Errorf("old parameters read as %q", got)
	}
}

// TestXMLUnnamedLocationsAreNamedByID checks the names given to unnamed
// locations: the id when it is an identifier, else _ and the id, with _
// appended until free.
func TestXMLUnnamedLocationsAreNamedByID(t *testing.T) {
	src := xmlModel("", `<location id="id0"/>
<location id="a"><name>id0</name></location>
<location id="3-x"/>
<init ref="id0"/>
<transition><source ref="id0"/><target ref="3-x"/></transition>`, "system P;", "")
	f, err := ParseXML("m.xml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, l := range f.Templates[0].Locations {
		names = append(names, l.Name)
	}
	if got := strings.Join(names, " "); got != "id0_ id0 _3_x" {
		t.Errorf("names %q", got)
	}
	if e := f.Templates[0].Edges[0]; e.From != "id0_" || e.To != "_3_x" {
		t.Errorf("edge %s -> %s", e.From, e.To)
	}
}

// TestXMLQueries checks UPPAAL 5's query elements: the [name] tag of the
// comment, <expect> outcomes and values, empty formulas skipped, options
// and results ignored.
func TestXMLQueries(t *testing.T) {
	src := xmlModel("int v;", twoLocs, "system P;", `
<queries>
<option key="--diagnostic" value="0"/>
<query><formula>E&lt;&gt; P.b</formula><comment>[reach] b is reachable</comment>
<option key="--search-order" value="1"/><expect outcome="success" type="symbolic"/>
<result outcome="success" type="quality" timestamp="2024-01-01 00:00:00 +0100"><option key="--search-order" value="1"/></result></query>
<query><formula>A[] P.a</formula><expect outcome="failure" type="symbolic"/></query>
<query><formula></formula><comment>a heading</comment></query>
<query><formula>sup: v</formula><expect outcome="success" type="value" value="0"/></query>
</queries>`)
	f, err := ParseXML("m.xml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := []struct{ name, comment, expect string }{
		{"reach", "b is reachable", "satisfied"},
		{"q2", "", "violated"},
		{"q3", "", "0"},
	}
	if len(f.Queries) != len(want) {
		t.Fatalf("got %d queries, want %d", len(f.Queries), len(want))
	}
	for i, w := range want {
		q := f.Queries[i]
		if q.Name != w.name || q.Comment != w.comment || q.Expect != w.expect {
			t.Errorf("query %d: got %q %q %q, want %q %q %q", i+1, q.Name, q.Comment, q.Expect, w.name, w.comment, w.expect)
		}
	}
}

// TestParseFileDispatches checks the choice of reader by extension and
// content.
func TestParseFileDispatches(t *testing.T) {
	xml := xmlModel("", twoLocs, "system P;", "")
	for _, tc := range []struct {
		name, src, wantErr string
	}{
		{"m.xml", xml, ""},
		{"m.XML", xml, ""},
		{"m.model", xml, ""},
		{"m.xta", "process P() { state a; init a; }\nsystem P;", ""},
		{"m.yaml", "name: m\ntemplates:\n  - name: P\n    locations: [{name: a, initial: true}]\nsystem: system P;\n", ""},
		{"m.q", "E<> true", "m.q: a query file is not a model"},
	} {
		f, err := ParseFile(tc.name, []byte(tc.src))
		switch {
		case tc.wantErr != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.wantErr)):
			t.Errorf("%s: got %v, want %s", tc.name, err, tc.wantErr)
		case tc.wantErr == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.wantErr == "" && len(f.Templates) != 1:
			t.Errorf("%s: %d templates", tc.name, len(f.Templates))
		}
	}
}

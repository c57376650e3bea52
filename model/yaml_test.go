package model

import (
	"reflect"
	"strings"
	"testing"

	"github.com/tcheck/tcheck/model/syntax"
)

// offsetPos converts a byte offset of s into the syntax position the
// snippet parser would report for it.
func offsetPos(s string, off int) syntax.Pos {
	line, col := 1, 1
	for i := 0; i < off; i++ {
		if s[i] == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return syntax.Pos{Off: off, Line: line, Col: col}
}

// TestTextPositionsMapBackToFile proves that an offset inside a code
// snippet maps to the line and column of the same character in the file,
// for every YAML scalar style a model uses.
func TestTextPositionsMapBackToFile(t *testing.T) {
	src := `name: m
declarations: |
  const int N = 3;
    int[0,N] x;
  clock t;
templates:
  - name: P
    declarations: "clock y; int z;"
    parameters: 'const int id, int &r'
    locations:
      - {name: a, initial: true, invariant: y <= N}
      - name: b
        invariant: >-
          y <= 2 &&
          z < 1
    edges:
      - from: a
        to: b
        guard: y >= 1 && 
          x == 2
        update: "x = 1,\n z = 2"
system: |-
      system P;
`
	f, err := Parse("m.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(src, "\n")
	// charAt returns the character at a file position.
	charAt := func(p Pos) byte {
		if p.Line < 1 || p.Line > len(lines) || p.Col < 1 || p.Col > len(lines[p.Line-1]) {
			return 0
		}
		return lines[p.Line-1][p.Col-1]
	}
	tp := f.Templates[0]
	cases := []struct {
		name string
		text Text
		sub  string // a substring of the snippet
		want Pos
	}{
		{"literal first line", f.Declarations, "const", Pos{"m.yaml", 3, 3}},
		{"literal indented line", f.Declarations, "int[0,N]", Pos{"m.yaml", 4, 5}},
		{"literal third line", f.Declarations, "t;", Pos{"m.yaml", 5, 9}},
		{"double quoted", tp.Declarations, "z;", Pos{"m.yaml", 8, 33}},
		{"single quoted", tp.Params, "&r", Pos{"m.yaml", 9, 36}},
		{"flow plain", tp.Locations[0].Invariant, "N", Pos{"m.yaml", 11, 50}},
		{"folded second line", tp.Locations[1].Invariant, "z < 1", Pos{"m.yaml", 15, 11}},
		{"multi-line plain", tp.Edges[0].Guard, "x == 2", Pos{"m.yaml", 20, 11}},
		{"escape in double quoted", tp.Edges[0].Update, "z = 2", Pos{"m.yaml", 21, 27}},
		{"literal strip, deep indent", f.System, "P;", Pos{"m.yaml", 23, 14}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			off := strings.Index(c.text.S, c.sub)
			if off < 0 {
				t.Fatalf("%q not in %q", c.sub, c.text.S)
			}
			got := c.text.At(offsetPos(c.text.S, off))
			if got != c.want {
				t.Errorf("At(%q) = %v, want %v", c.sub, got, c.want)
			}
			if charAt(got) != c.sub[0] {
				t.Errorf("file has %q at %v, want %q", charAt(got), got, c.sub[0])
			}
		})
	}
}

// stripPositions returns a copy of f without positions, for comparing the
// content of two Files.
func stripPositions(f *File) *File {
	g := *f
	g.Path, g.NamePos = "", Pos{}
	g.Params = append([]FileParam(nil), f.Params...)
	for i := range g.Params {
		g.Params[i].Pos = Pos{}
	}
	st := func(t Text) Text { return Text{S: t.S} }
	g.Declarations, g.System, g.Progress = st(f.Declarations), st(f.System), st(f.Progress)
	g.Templates = nil
	for _, t := range f.Templates {
		u := *t
		u.Pos, u.Params, u.Declarations = Pos{}, st(t.Params), st(t.Declarations)
		u.Locations, u.Edges = nil, nil
		for _, l := range t.Locations {
			m := *l
			m.Pos, m.Invariant = Pos{}, st(l.Invariant)
			u.Locations = append(u.Locations, &m)
		}
		for _, e := range t.Edges {
			m := *e
			m.Pos, m.FromPos, m.ToPos = Pos{}, Pos{}, Pos{}
			m.Select, m.Guard, m.Sync, m.Update = st(e.Select), st(e.Guard), st(e.Sync), st(e.Update)
			u.Edges = append(u.Edges, &m)
		}
		g.Templates = append(g.Templates, &u)
	}
	g.Queries = nil
	for _, q := range f.Queries {
		m := *q
		m.Pos, m.ExpectPos, m.Formula = Pos{}, Pos{}, st(q.Formula)
		g.Queries = append(g.Queries, &m)
	}
	return &g
}

// TestFormatYAMLRoundTrip proves parse → print → parse gives the same File
// and that printing is idempotent.
func TestFormatYAMLRoundTrip(t *testing.T) {
	for _, name := range modelFiles(t) {
		t.Run(name, func(t *testing.T) {
			src := readFile(t, name)
			f1, err := Parse(name, src)
			if err != nil {
				t.Fatal(err)
			}
			out1 := FormatYAML(f1)
			f2, err := Parse("printed.yaml", out1)
			if err != nil {
				t.Fatalf("printed model does not parse: %v\n%s", err, out1)
			}
			if !reflect.DeepEqual(stripPositions(f1), stripPositions(f2)) {
				t.Fatalf("round trip changed the model:\n%s", out1)
			}
			out2 := FormatYAML(f2)
			if string(out1) != string(out2) {
				t.Errorf("printing is not idempotent:\n%s\n---\n%s", out1, out2)
			}
		})
	}
}

// TestFormatYAMLOddSnippets round-trips snippets that stress the printer's
// choice of scalar style.
func TestFormatYAMLOddSnippets(t *testing.T) {
	odd := []string{
		"x = 1", "b[id]!", "c?", "  leading", "trailing  ", "a\nb", "a\n  b\n", "x\n\n\n", "\ty",
		"#not a comment", "- x", "true", "0", "x: y", "{a}", "'q'", `"dq"`, "a\r\nb", "é ≤ 3",
	}
	for _, s := range odd {
		f := &File{Name: s, Declarations: Text{S: s}, System: Text{S: "system P;"},
			Templates: []*FileTemplate{{Name: "P", Locations: []*FileLocation{{Name: "a", Initial: true, Invariant: Text{S: s}}},
				Edges: []*FileEdge{{From: "a", To: "a", Guard: Text{S: s}, Comment: s}}}},
			Queries: []*FileQuery{{Name: "q", Formula: Text{S: "E<> true"}, Expect: s}}}
		g, err := Parse("x.yaml", FormatYAML(f))
		if err != nil {
			t.Errorf("%q: %v\n%s", s, err, FormatYAML(f))
			continue
		}
		if !reflect.DeepEqual(stripPositions(f), stripPositions(g)) {
			t.Errorf("%q: round trip changed the model:\n%s", s, FormatYAML(f))
		}
	}
}

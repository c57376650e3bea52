package msc

import (
	"bytes"
	"encoding/xml"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tcheck/tcheck/model"
	"github.com/tcheck/tcheck/queries"
	"github.com/tcheck/tcheck/zone"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// check runs a formula on a model and returns the result, with its trace.
func check(t *testing.T, path string, ov map[string]int64, formula string) (*model.Network, *queries.Result) {
	t.Helper()
	_, net, err := model.Load(path, ov)
	if err != nil {
		t.Fatal(err)
	}
	q, err := queries.Compile(net, model.NewText(formula, model.Pos{File: "test", Line: 1, Col: 1}))
	if err != nil {
		t.Fatal(err)
	}
	r := queries.Check(zone.NewSystem(net), []*queries.Query{q}, queries.Options{Workers: 1})[0]
	if r.Trace == nil {
		t.Fatalf("%s: no trace (%v)", formula, r.Verdict)
	}
	return net, r
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(want, got) {
		t.Errorf("%s differs (run go test -update and inspect the diff)", path)
	}
}

// wellFormed parses b as XML and returns the names of its elements and,
// prefixed with @, of their attributes.
func wellFormed(t *testing.T, b []byte) []string {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(b))
	var names []string
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return names
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok {
			names = append(names, se.Name.Local)
			for _, a := range se.Attr {
				names = append(names, "@"+a.Name.Local)
			}
		}
	}
}

func fischerRace(t *testing.T) *Document {
	net, r := check(t, "../../testdata/fischer.yaml", map[string]int64{"N": 3, "w": 9}, "A[] !(P(1).cs && P(2).cs)")
	return &Document{Title: "fischer N=3 w=9", Sections: []Section{ResultSection(net, r)}}
}

func TestGolden(t *testing.T) {
	d := fischerRace(t)
	var svg, page bytes.Buffer
	if err := WriteSVG(&svg, d); err != nil {
		t.Fatal(err)
	}
	if err := WriteHTML(&page, d); err != nil {
		t.Fatal(err)
	}
	golden(t, "fischer-race.svg", svg.Bytes())
	golden(t, "fischer-race.html", page.Bytes())
	wellFormed(t, svg.Bytes())
	wellFormed(t, page.Bytes())
}

// TestFischerChart checks what the race's chart says: two lanes end in cs,
// internal moves only, the concrete times of the steps, and the variable
// changes as labels (SVG) and in the hover details (HTML).
func TestFischerChart(t *testing.T) {
	d := fischerRace(t)
	c := d.Sections[0].Chart
	if len(c.Lanes) != 3 || c.Lanes[0] != "P(1)" {
		t.Fatalf("lanes %q", c.Lanes)
	}
	last := c.Steps[len(c.Steps)-1]
	if last.Locs[0] != "cs" || last.Locs[1] != "cs" {
		t.Errorf("last state %q, want P(1) and P(2) in cs", last.Locs)
	}
	for i, s := range c.Steps[1:] {
		if s.Kind != Internal || s.Sender < 0 || len(s.Receivers) != 0 {
			t.Errorf("step %d: %v from %d to %v, want an internal move", i+1, s.Kind, s.Sender, s.Receivers)
		}
	}
	if last.Time != 20*c.Den {
		t.Errorf("the race ends at t=%d/%d, want 20", last.Time, c.Den)
	}
	var svg, page bytes.Buffer
	if err := WriteSVG(&svg, d); err != nil {
		t.Fatal(err)
	}
	if err := WriteHTML(&page, d); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{">t=20</text>", ">id=1</text>", ">id=2</text>", ">cs</text>", "<title>[6] t=20, after a delay of 10\n-&gt; P(2): wait -&gt; cs"} {
		if !strings.Contains(svg.String(), want) {
			t.Errorf("SVG: no %q", want)
		}
	}
	if strings.Contains(page.String(), ">id=1</text>") {
		t.Errorf("HTML: the variable changes are labels; they belong to the hover panel")
	}
	for _, want := range []string{`data-detail="msc0-d3"`, `<div>changed: id=1</div>`, `id="msc0-d3"`, `>Δ 1</text>`} {
		if !strings.Contains(page.String(), want) {
			t.Errorf("HTML: no %q", want)
		}
	}
}

const broadcastModel = `
name: fan
declarations: |
  broadcast chan b;
  chan c;
  int[0, 3] n = 0;
templates:
  - name: S
    locations:
      - {name: A, initial: true}
      - {name: B}
      - {name: C}
    edges:
      - {from: A, to: B, sync: "b!", update: n = 1}
      - {from: B, to: C, sync: "c!"}
  - name: R
    parameters: const int[0, 1] id
    locations:
      - {name: I, initial: true}
      - {name: J}
      - {name: K}
    edges:
      - {from: I, to: J, sync: "b?"}
      - {from: J, to: K, guard: id == 1, sync: "c?", update: n = 2}
  - name: Q
    locations:
      - {name: Z, initial: true}
system: |
  system S, R, Q;
`

// TestBroadcastFansOut checks that a broadcast is drawn as an arrow from
// the sender to every receiver, and a binary synchronisation as one arrow.
func TestBroadcastFansOut(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "fan.yaml")
	if err := os.WriteFile(path, []byte(broadcastModel), 0o644); err != nil {
		t.Fatal(err)
	}
	net, r := check(t, path, nil, "E<> S.C")
	c := FromTrace(net, r.Trace)
	if len(c.Steps) != 3 {
		t.Fatalf("%d steps, want 3", len(c.Steps))
	}
	b, s := c.Steps[1], c.Steps[2]
	if b.Kind != Broadcast || b.Channel != "b" || b.Sender != 0 || !slicesEqual(b.Receivers, []int{1, 2}) {
		t.Errorf("step 1: %v on %q from %d to %v, want a broadcast on b from 0 to [1 2]", b.Kind, b.Channel, b.Sender, b.Receivers)
	}
	if s.Kind != Sync || s.Channel != "c" || s.Sender != 0 || !slicesEqual(s.Receivers, []int{2}) {
		t.Errorf("step 2: %v on %q from %d to %v, want a sync on c from 0 to [2]", s.Kind, s.Channel, s.Sender, s.Receivers)
	}
	if got := strings.Join(s.Changes, " "); got != "n=2" {
		t.Errorf("step 2 changes %q", got)
	}
	var svg bytes.Buffer
	if err := WriteSVG(&svg, &Document{Sections: []Section{{Title: "fan", Chart: c}}}); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(svg.String(), "marker-end="); n != 3 {
		t.Errorf("%d arrows, want 3 (two for the broadcast, one for c)", n)
	}
	if !strings.Contains(svg.String(), ">b (broadcast)</text>") {
		t.Errorf("no broadcast label")
	}
	names := wellFormed(t, svg.Bytes())
	if countOf(names, "line") < 3 {
		t.Errorf("elements %v", names)
	}
}

func slicesEqual(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func countOf(names []string, name string) int {
	n := 0
	for _, x := range names {
		if x == name {
			n++
		}
	}
	return n
}

// hostile are names a model or a trace could carry that must never turn
// into markup.
var hostile = []string{
	`<script>alert(1)</script>`,
	`"><img src=x onerror=alert(2)>`,
	`'><svg onload=alert(3)>`,
	`]]><!-- &amp; &lt; </title></svg></text>`,
	"ctl\x01\x1b\x00chars\xff",
}

// TestEscaping fills every text of a chart with hostile strings: the SVG
// and the HTML must stay well-formed, hold no element but those the
// renderer writes, and show the strings as text.
func TestEscaping(t *testing.T) {
	h := func(i int) string { return hostile[i%len(hostile)] }
	label := func(i int) queries.EdgeLabel {
		return queries.EdgeLabel{Process: h(i), From: h(i + 1), To: h(i + 2), Select: h(i + 3), Guard: h(i + 4), Sync: h(i), Update: h(i + 1)}
	}
	c := &Chart{Lanes: []string{h(0), h(1), h(2)}, Den: 2, End: h(3), Cycle: 1, FinalDelay: 1, FinalClocks: []string{h(4)}, Fail: []queries.EdgeLabel{label(0)}}
	c.Steps = []Step{
		{Kind: Initial, Sender: -1, Locs: []string{h(0), h(1), h(2)}, Changes: []string{h(3), h(4)}, Clocks: []string{h(0)}},
		{Time: 1, Delay: 1, Kind: Broadcast, Sender: 0, Receivers: []int{1, 2}, Channel: h(1), Edges: []queries.EdgeLabel{label(1), label(2)}, Locs: []string{h(3), h(4), h(0)}, Changes: []string{h(2)}, Clocks: []string{h(3)}},
		{Time: 3, Delay: 2, Kind: Internal, Sender: 2, Edges: []queries.EdgeLabel{label(3)}, Locs: []string{h(3), h(4), h(1)}, Changes: []string{h(4)}, Clocks: []string{h(1)}},
	}
	d := &Document{Title: h(0), Sections: []Section{{Title: h(1), Notes: []string{h(2), h(3)}, Chart: c}, {Title: h(4), Notes: []string{h(0)}}}}
	var svg, page bytes.Buffer
	if err := WriteSVG(&svg, d); err != nil {
		t.Fatal(err)
	}
	if err := WriteHTML(&page, d); err != nil {
		t.Fatal(err)
	}
	allowed := map[string]bool{"svg": true, "defs": true, "marker": true, "path": true, "rect": true, "text": true, "line": true, "g": true, "title": true, "circle": true,
		"html": true, "head": true, "meta": true, "style": true, "body": true, "h1": true, "h2": true, "p": true, "section": true, "div": true, "aside": true, "script": true}
	for _, doc := range []struct {
		name string
		b    []byte
	}{{"SVG", svg.Bytes()}, {"HTML", page.Bytes()}} {
		names := wellFormed(t, doc.b)
		for _, n := range names {
			if strings.HasPrefix(n, "@on") || !strings.HasPrefix(n, "@") && !allowed[n] {
				t.Errorf("%s: %q from a name", doc.name, n)
			}
		}
		want := 0
		if doc.name == "HTML" {
			want = 1
		}
		if n := countOf(names, "script"); n != want {
			t.Errorf("%s: %d script elements, want %d", doc.name, n, want)
		}
		s := string(doc.b)
		for _, bad := range []string{"<img", "<svg onload", "<script>alert", "]]>", "<!--", "\x00", "\x01", "\x1b"} {
			if strings.Contains(s, bad) {
				t.Errorf("%s: %q appears unescaped", doc.name, bad)
			}
		}
		if !strings.Contains(s, "&lt;script&gt;alert(1)&lt;/script&gt;") || !strings.Contains(s, "&#34;&gt;&lt;img src=x onerror=alert(2)&gt;") {
			t.Errorf("%s: the hostile names are not shown as text", doc.name)
		}
	}
}

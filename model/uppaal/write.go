package uppaal

import (
	"fmt"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/tcheck/tcheck/model"
	"github.com/tcheck/tcheck/model/syntax"
)

// FormatXML prints f as a UPPAAL XML document that UPPAAL's GUI loads (XML
// declaration and the DOCTYPE of the flat-1.2 DTD, location ids, init
// references, labels, a simple grid layout) and ParseXML reads back with
// the same meaning. The model is first made acceptable to UPPAAL by
// ForUPPAAL; the renamings made are returned. Parameters become `const int`
// declarations at the top of the global declarations; query names are kept
// as a `[name]` tag in the comment; expectations become UPPAAL 5 <expect>
// elements; max-states limits have no UPPAAL equivalent and are left out.
func FormatXML(f *model.File) ([]byte, []Renaming) {
	g, ren := ForUPPAAL(f)
	w := &xmlWriter{}
	w.line(0, `<?xml version="1.0" encoding="utf-8"?>`)
	w.line(0, `<!DOCTYPE nta PUBLIC '-//Uppaal Team//DTD Flat System 1.1//EN' 'http://www.it.uu.se/research/group/darts/uppaal/flat-1_2.dtd'>`)
	w.line(0, "<nta>")
	w.line(1, "<declaration>"+xmlText(globalDecls(g))+"</declaration>")
	for _, t := range g.Templates {
		w.template(t)
	}
	w.line(1, "<system>"+xmlText(strings.TrimRight(g.System.S, " \t\n"))+"</system>")
	if len(g.Queries) > 0 {
		w.line(1, "<queries>")
		for i, q := range g.Queries {
			w.line(2, "<query>")
			w.line(3, "<formula>"+xmlText(strings.TrimSpace(q.Formula.S))+"</formula>")
			if c := queryComment(q, i+1); c != "" {
				w.line(3, "<comment>"+xmlText(c)+"</comment>")
			}
			if q.Expect != "" {
				switch strings.ToLower(strings.TrimSpace(q.Expect)) {
				case "satisfied", "true", "holds":
					w.line(3, `<expect outcome="success" type="symbolic"/>`)
				case "violated", "false", "fails":
					w.line(3, `<expect outcome="failure" type="symbolic"/>`)
				case "unknown":
					// UPPAAL's outcome of an over-approximation that
					// reaches a goal: E<> maybe satisfied, A[] maybe
					// violated
					outcome := "maybe_true"
					if pq, err := syntax.ParseQuery(q.Formula.S); err == nil && pq.Kind == syntax.QueryAG {
						outcome = "maybe_false"
					}
					w.line(3, `<expect outcome="`+outcome+`" type="symbolic"/>`)
				default:
					w.line(3, `<expect outcome="success" type="value" value="`+xmlAttr(q.Expect)+`"/>`)
				}
			}
			w.line(2, "</query>")
		}
		w.line(1, "</queries>")
	}
	w.line(0, "</nta>")
	return []byte(w.b.String()), ren
}

// globalDecls returns the global declarations with the parameters first.
func globalDecls(f *model.File) string {
	var b strings.Builder
	for _, p := range f.Params {
		fmt.Fprintf(&b, "const int %s = %d;\n", p.Name, p.Value)
	}
	b.WriteString(strings.TrimRight(f.Declarations.S, " \t\n"))
	return strings.TrimRight(b.String(), "\n")
}

type xmlWriter struct {
	b  strings.Builder
	id int
}

func (w *xmlWriter) line(indent int, s string) {
	w.b.WriteString(strings.Repeat("\t", indent))
	w.b.WriteString(s)
	w.b.WriteByte('\n')
}

type point struct{ x, y int }

// Layout: locations on a grid, 200 by 170 units apart (UPPAAL's GUI draws
// a location with a radius of about 10).
const gridX, gridY = 200, 170

func (w *xmlWriter) template(t *model.FileTemplate) {
	w.line(1, "<template>")
	w.line(2, `<name x="0" y="0">`+xmlText(t.Name)+"</name>")
	if s := strings.TrimSpace(t.Params.S); s != "" {
		w.line(2, "<parameter>"+xmlText(s)+"</parameter>")
	}
	decls := strings.TrimRight(t.Declarations.S, " \t\n")
	if t.Comment != "" {
		decls = commentLines(t.Comment) + decls
	}
	if strings.TrimSpace(decls) != "" {
		w.line(2, "<declaration>"+xmlText(decls)+"</declaration>")
	}
	cols := int(math.Ceil(math.Sqrt(float64(len(t.Locations)))))
	if cols < 1 {
		cols = 1
	}
	ids := map[string]string{}
	at := map[string]point{}
	initID := ""
	for i, l := range t.Locations {
		id := fmt.Sprintf("id%d", w.id)
		w.id++
		ids[l.Name] = id
		p := point{(i % cols) * gridX, (i / cols) * gridY}
		at[l.Name] = p
		if l.Initial {
			initID = id
		}
		w.line(2, fmt.Sprintf(`<location id="%s" x="%d" y="%d">`, id, p.x, p.y))
		w.line(3, fmt.Sprintf(`<name x="%d" y="%d">%s</name>`, p.x-10, p.y-34, xmlText(l.Name)))
		if s := strings.TrimSpace(l.Invariant.S); s != "" {
			w.line(3, fmt.Sprintf(`<label kind="invariant" x="%d" y="%d">%s</label>`, p.x-10, p.y+17, xmlText(s)))
		}
		if l.Comment != "" {
			w.line(3, fmt.Sprintf(`<label kind="comments" x="%d" y="%d">%s</label>`, p.x-10, p.y+34, xmlText(l.Comment)))
		}
		if l.Urgent {
			w.line(3, "<urgent/>")
		}
		if l.Committed {
			w.line(3, "<committed/>")
		}
		w.line(2, "</location>")
	}
	if initID != "" {
		w.line(2, `<init ref="`+initID+`"/>`)
	}
	seen := map[[2]string]int{} // edges so far between an unordered pair of locations
	for _, e := range t.Edges {
		w.line(2, "<transition>")
		w.line(3, `<source ref="`+ids[e.From]+`"/>`)
		w.line(3, `<target ref="`+ids[e.To]+`"/>`)
		a, b := at[e.From], at[e.To]
		key := [2]string{e.From, e.To}
		if e.To < e.From {
			key = [2]string{e.To, e.From}
		}
		k := seen[key]
		seen[key]++
		var nails []point
		var lab point
		switch {
		case e.From == e.To:
			r := 40 + 25*k
			nails = []point{{a.x - r/2, a.y - r - 20}, {a.x + r/2, a.y - r - 20}}
			lab = point{a.x - r/2, a.y - r - 20 - 17*4}
		case k == 0:
			lab = point{(a.x + b.x) / 2, (a.y + b.y) / 2}
		default:
			// Parallel edges bend away from the straight one, alternately
			// to either side.
			dx, dy := float64(b.x-a.x), float64(b.y-a.y)
			n := math.Hypot(dx, dy)
			off := float64(40 * ((k + 1) / 2))
			if k%2 == 0 {
				off = -off
			}
			if e.To < e.From {
				off = -off
			}
			m := point{(a.x+b.x)/2 + int(-dy/n*off), (a.y+b.y)/2 + int(dx/n*off)}
			nails = []point{m}
			lab = m
		}
		y := lab.y
		for _, kv := range []struct {
			kind string
			t    model.Text
		}{{"select", e.Select}, {"guard", e.Guard}, {"synchronisation", e.Sync}, {"assignment", e.Update}} {
			if s := strings.TrimSpace(kv.t.S); s != "" {
				w.line(3, fmt.Sprintf(`<label kind="%s" x="%d" y="%d">%s</label>`, kv.kind, lab.x, y, xmlText(s)))
				y += 17 * (1 + strings.Count(s, "\n"))
			}
		}
		if e.Comment != "" {
			w.line(3, fmt.Sprintf(`<label kind="comments" x="%d" y="%d">%s</label>`, lab.x, y, xmlText(e.Comment)))
		}
		for _, n := range nails {
			w.line(3, fmt.Sprintf(`<nail x="%d" y="%d"/>`, n.x, n.y))
		}
		w.line(2, "</transition>")
	}
	w.line(1, "</template>")
}

// commentLines renders a comment as `//` lines.
func commentLines(c string) string {
	var b strings.Builder
	for _, l := range strings.Split(c, "\n") {
		b.WriteString(strings.TrimRight("// "+l, " ") + "\n")
	}
	return b.String()
}

// xmlText escapes character data. Characters XML cannot hold (control
// characters other than tab and newline) become U+FFFD, as in encoding/xml.
func xmlText(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '&':
			b.WriteString("&amp;")
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '\r':
			b.WriteString("&#xD;")
		case r == '\t' || r == '\n':
			b.WriteRune(r)
		case r < 0x20 || r == 0xFFFE || r == 0xFFFF || r == utf8.RuneError:
			b.WriteRune('\uFFFD')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// xmlAttr escapes an attribute value (in double quotes).
func xmlAttr(s string) string {
	s = xmlText(s)
	s = strings.ReplaceAll(s, `"`, "&quot;")
	s = strings.ReplaceAll(s, "\n", "&#xA;")
	s = strings.ReplaceAll(s, "\t", "&#x9;")
	return s
}

// FormatXTA prints f in UPPAAL's XTA format, which ParseXTA reads back with
// the same meaning; the queries go into a separate .q file (FormatQueries).
// Like FormatXML it first applies ForUPPAAL and returns its renamings.
// Comments of templates, locations and edges are written as `//` lines
// right before them, where ParseXTA finds them again.
func FormatXTA(f *model.File) ([]byte, []Renaming) {
	g, ren := ForUPPAAL(f)
	var b strings.Builder
	if d := globalDecls(g); d != "" {
		b.WriteString(d + "\n")
	}
	for _, t := range g.Templates {
		b.WriteString("\n")
		if t.Comment != "" {
			b.WriteString(commentLines(t.Comment))
		}
		fmt.Fprintf(&b, "process %s(%s) {\n", t.Name, endLine(strings.TrimSpace(t.Params.S)))
		if d := strings.Trim(t.Declarations.S, " \t\n"); d != "" {
			b.WriteString(d + "\n")
		}
		b.WriteString("state\n")
		for i, l := range t.Locations {
			if l.Comment != "" {
				b.WriteString(indentLines(commentLines(l.Comment), "    "))
			}
			b.WriteString("    " + l.Name)
			if s := strings.TrimSpace(l.Invariant.S); s != "" {
				b.WriteString(" { " + endLine(s) + " }")
			}
			if i < len(t.Locations)-1 {
				b.WriteString(",\n")
			} else {
				b.WriteString(";\n")
			}
		}
		for _, kind := range []string{"commit", "urgent"} {
			var names []string
			for _, l := range t.Locations {
				if kind == "commit" && l.Committed || kind == "urgent" && l.Urgent {
					names = append(names, l.Name)
				}
			}
			if len(names) > 0 {
				fmt.Fprintf(&b, "%s %s;\n", kind, strings.Join(names, ", "))
			}
		}
		for _, l := range t.Locations {
			if l.Initial {
				fmt.Fprintf(&b, "init %s;\n", l.Name)
			}
		}
		if len(t.Edges) > 0 {
			b.WriteString("trans\n")
			for i, e := range t.Edges {
				if e.Comment != "" {
					b.WriteString(indentLines(commentLines(e.Comment), "    "))
				}
				fmt.Fprintf(&b, "    %s -> %s {", e.From, e.To)
				for _, kv := range []struct {
					kw string
					t  model.Text
				}{{"select", e.Select}, {"guard", e.Guard}, {"sync", e.Sync}, {"assign", e.Update}} {
					if s := strings.TrimSpace(kv.t.S); s != "" {
						fmt.Fprintf(&b, " %s %s;", kv.kw, endLine(s))
					}
				}
				if i < len(t.Edges)-1 {
					b.WriteString(" },\n")
				} else {
					b.WriteString(" };\n")
				}
			}
		}
		b.WriteString("}\n")
	}
	b.WriteString("\n" + strings.TrimRight(g.System.S, " \t\n") + "\n")
	return []byte(b.String()), ren
}

// endLine adds a line break after code whose last line holds a `//`
// comment, which would otherwise swallow what follows.
func endLine(s string) string {
	last := s[strings.LastIndexByte(s, '\n')+1:]
	if strings.Contains(last, "//") {
		return s + "\n"
	}
	return s
}

func indentLines(s, indent string) string {
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = indent + l
	}
	return strings.Join(lines, "\n") + "\n"
}

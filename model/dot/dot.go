package dot

import (
	"fmt"
	"html"
	"strings"

	"gonum.org/v1/gonum/graph"
	"gonum.org/v1/gonum/graph/encoding"
	gdot "gonum.org/v1/gonum/graph/encoding/dot"
	"gonum.org/v1/gonum/graph/multi"

	"github.com/tcheck/tcheck/model"
)

// Colours of UPPAAL's editor for the kinds of labels.
const (
	colourInvariant = "#a020f0"
	colourSelect    = "#a08000"
	colourGuard     = "#008000"
	colourSync      = "#008080"
	colourUpdate    = "#0000c0"
)

// Encode draws the templates of f (only the template called template when
// it is not empty) as one DOT digraph.
func Encode(f *model.File, template string) ([]byte, error) {
	top := &graphAttrs{DirectedGraph: multi.NewDirectedGraph(), id: graphName(f), attrs: []encoding.Attribute{
		{Key: "label", Value: plain(graphLabel(f))},
		{Key: "labelloc", Value: "t"},
		{Key: "fontname", Value: "Helvetica"},
	}}
	top.node = []encoding.Attribute{{Key: "fontname", Value: "Helvetica"}, {Key: "fontsize", Value: "11"}}
	top.edge = []encoding.Attribute{{Key: "fontname", Value: "Helvetica"}, {Key: "fontsize", Value: "10"}}
	var names []string
	for _, t := range f.Templates {
		names = append(names, t.Name)
		if template != "" && t.Name != template {
			continue
		}
		top.subs = append(top.subs, cluster(t))
	}
	if len(top.subs) == 0 {
		if template != "" {
			return nil, fmt.Errorf("no template %q in %s (templates: %s)", template, f.Path, strings.Join(names, ", "))
		}
		return nil, fmt.Errorf("%s has no templates", f.Path)
	}
	b, err := gdot.MarshalMulti(top, "", "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// graphLabel is the model's name with its parameters.
func graphLabel(f *model.File) string {
	var ps []string
	for _, p := range f.Params {
		ps = append(ps, fmt.Sprintf("%s=%d", p.Name, p.Value))
	}
	if len(ps) == 0 {
		return f.Name
	}
	return f.Name + " (" + strings.Join(ps, ", ") + ")"
}

func graphName(f *model.File) string {
	if f.Name != "" {
		return f.Name
	}
	return "model"
}

// graphAttrs is a gonum multigraph with a DOT id, attributes and
// subgraphs.
type graphAttrs struct {
	*multi.DirectedGraph
	id         string
	attrs      []encoding.Attribute
	node, edge []encoding.Attribute
	subs       []gdot.Multigraph
}

type attributer []encoding.Attribute

func (a attributer) Attributes() []encoding.Attribute { return a }

func (g *graphAttrs) DOTID() string { return g.id }

func (g *graphAttrs) DOTAttributers() (graph, node, edge encoding.Attributer) {
	return attributer(g.attrs), attributer(g.node), attributer(g.edge)
}

func (g *graphAttrs) Structure() []gdot.Multigraph { return g.subs }

// node is a location (or the entry point of a template).
type node struct {
	id    int64
	dotID string
	attrs []encoding.Attribute
}

func (n node) ID() int64                        { return n.id }
func (n node) DOTID() string                    { return n.dotID }
func (n node) Attributes() []encoding.Attribute { return n.attrs }

// line is an edge.
type line struct {
	f, t  graph.Node
	id    int64
	attrs []encoding.Attribute
}

func (l line) From() graph.Node                 { return l.f }
func (l line) To() graph.Node                   { return l.t }
func (l line) ID() int64                        { return l.id }
func (l line) ReversedLine() graph.Line         { l.f, l.t = l.t, l.f; return l }
func (l line) Attributes() []encoding.Attribute { return l.attrs }

// cluster draws one template.
func cluster(t *model.FileTemplate) *graphAttrs {
	title := t.Name
	if p := strings.TrimSpace(t.Params.S); p != "" {
		title += "(" + oneLine(p) + ")"
	}
	g := &graphAttrs{DirectedGraph: multi.NewDirectedGraph(), id: "cluster_" + t.Name, attrs: []encoding.Attribute{
		{Key: "label", Value: plain(title)},
		{Key: "labeljust", Value: "l"},
		{Key: "style", Value: "rounded"},
	}}
	nodes := map[string]node{}
	for i, l := range t.Locations {
		label := "<B>" + esc(l.Name) + "</B>"
		var style []string
		switch {
		case l.Committed:
			label += " (C)"
			style = append(style, "filled")
		case l.Urgent:
			label += " (U)"
			style = append(style, "dashed")
		}
		if s := strings.TrimSpace(l.Invariant.S); s != "" {
			label += `<BR/>` + coloured(colourInvariant, s)
		}
		attrs := []encoding.Attribute{{Key: "label", Value: "<" + label + ">"}, {Key: "shape", Value: "ellipse"}}
		if len(style) > 0 {
			attrs = append(attrs, encoding.Attribute{Key: "style", Value: strings.Join(style, ",")})
			if l.Committed {
				attrs = append(attrs, encoding.Attribute{Key: "fillcolor", Value: "#e8e8e8"})
			}
		}
		if l.Comment != "" {
			attrs = append(attrs, encoding.Attribute{Key: "tooltip", Value: plain(l.Comment)})
		}
		n := node{id: int64(i + 1), dotID: t.Name + "." + l.Name, attrs: attrs}
		nodes[l.Name] = n
		g.AddNode(n)
		if l.Initial {
			entry := node{id: -int64(i + 1), dotID: t.Name + ".__init", attrs: []encoding.Attribute{
				{Key: "shape", Value: "point"}, {Key: "label", Value: ""},
			}}
			g.SetLine(line{f: entry, t: n, id: 0})
		}
	}
	for i, e := range t.Edges {
		var lines []string
		for _, kv := range []struct {
			colour string
			t      model.Text
		}{{colourSelect, e.Select}, {colourGuard, e.Guard}, {colourSync, e.Sync}, {colourUpdate, e.Update}} {
			if s := strings.TrimSpace(kv.t.S); s != "" {
				lines = append(lines, coloured(kv.colour, s))
			}
		}
		var attrs []encoding.Attribute
		if len(lines) > 0 {
			attrs = append(attrs, encoding.Attribute{Key: "label", Value: "<" + strings.Join(lines, "<BR/>") + ">"})
		}
		if e.Comment != "" {
			attrs = append(attrs, encoding.Attribute{Key: "tooltip", Value: plain(e.Comment)})
		}
		from, okf := nodes[e.From]
		to, okt := nodes[e.To]
		if !okf || !okt {
			continue // not a compiled model; the checker reports it
		}
		g.SetLine(line{f: from, t: to, id: int64(i + 1), attrs: attrs})
	}
	return g
}

// coloured renders code in an HTML-like label: escaped, one label line per
// code line.
func coloured(colour, s string) string {
	var parts []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			parts = append(parts, esc(l))
		}
	}
	return `<FONT COLOR="` + colour + `">` + strings.Join(parts, "<BR/>") + `</FONT>`
}

// esc escapes text for an HTML-like label.
func esc(s string) string { return html.EscapeString(s) }

// plain keeps a text attribute from being read as an HTML-like label or a
// quoted ID (which gonum's encoder writes as they are).
func plain(s string) string {
	if strings.HasPrefix(s, "<") || strings.HasPrefix(s, `"`) {
		return " " + s
	}
	return s
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

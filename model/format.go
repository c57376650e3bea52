package model

import (
	"bytes"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// FormatYAML prints f in the YAML model format. Parsing the output gives a
// File with the same content (positions aside): names, parameters in
// order, code snippets byte for byte, templates, locations, edges and
// queries in order. Multi-line code is printed as literal block scalars,
// short locations and edges as flow mappings, so the output reads like a
// hand-written model.
func FormatYAML(f *File) []byte {
	root := &yaml.Node{Kind: yaml.MappingNode}
	if f.Name != "" {
		addKV(root, "name", scalar(f.Name))
	}
	if len(f.Params) > 0 {
		pm := &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle}
		for _, p := range f.Params {
			addKV(pm, p.Name, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.FormatInt(p.Value, 10)})
		}
		root.Content = append(root.Content, keyNode("parameters"), pm)
	}
	if f.Declarations.S != "" {
		addKV(root, "declarations", code(f.Declarations.S))
	}
	if len(f.Templates) > 0 {
		seq := &yaml.Node{Kind: yaml.SequenceNode}
		for _, t := range f.Templates {
			seq.Content = append(seq.Content, formatTemplate(t))
		}
		root.Content = append(root.Content, keyNode("templates"), seq)
	}
	if f.System.S != "" {
		addKV(root, "system", code(f.System.S))
	}
	if f.Progress.S != "" {
		addKV(root, "progress", code(f.Progress.S))
	}
	if len(f.Queries) > 0 {
		qm := &yaml.Node{Kind: yaml.MappingNode}
		for _, q := range f.Queries {
			m := &yaml.Node{Kind: yaml.MappingNode}
			addKV(m, "formula", code(q.Formula.S))
			if q.Expect != "" {
				addKV(m, "expect", scalar(q.Expect))
			}
			if q.Comment != "" {
				addKV(m, "comment", scalar(q.Comment))
			}
			if q.MaxStates != 0 {
				addKV(m, "max-states", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.FormatInt(q.MaxStates, 10)})
			}
			addKV(qm, q.Name, m)
		}
		root.Content = append(root.Content, keyNode("queries"), qm)
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(root); err != nil {
		// Encoding a tree of strings cannot fail; keep the printer total.
		panic("model: FormatYAML: " + err.Error())
	}
	enc.Close()
	return buf.Bytes()
}

func formatTemplate(t *FileTemplate) *yaml.Node {
	m := &yaml.Node{Kind: yaml.MappingNode}
	addKV(m, "name", scalar(t.Name))
	if t.Comment != "" {
		addKV(m, "comment", scalar(t.Comment))
	}
	if t.Params.S != "" {
		addKV(m, "parameters", code(t.Params.S))
	}
	if t.Declarations.S != "" {
		addKV(m, "declarations", code(t.Declarations.S))
	}
	locs := &yaml.Node{Kind: yaml.SequenceNode}
	for _, l := range t.Locations {
		lm := &yaml.Node{Kind: yaml.MappingNode}
		addKV(lm, "name", scalar(l.Name))
		if l.Initial {
			addKV(lm, "initial", boolNode(true))
		}
		if l.Committed {
			addKV(lm, "committed", boolNode(true))
		}
		if l.Urgent {
			addKV(lm, "urgent", boolNode(true))
		}
		if l.Invariant.S != "" {
			addKV(lm, "invariant", code(l.Invariant.S))
		}
		if l.Comment != "" {
			addKV(lm, "comment", scalar(l.Comment))
		}
		flowIfShort(lm)
		locs.Content = append(locs.Content, lm)
	}
	addKV(m, "locations", locs)
	if len(t.Edges) > 0 {
		edges := &yaml.Node{Kind: yaml.SequenceNode}
		for _, e := range t.Edges {
			em := &yaml.Node{Kind: yaml.MappingNode}
			addKV(em, "from", scalar(e.From))
			addKV(em, "to", scalar(e.To))
			for _, kv := range []struct {
				k string
				t Text
			}{{"select", e.Select}, {"guard", e.Guard}, {"sync", e.Sync}, {"update", e.Update}} {
				if kv.t.S != "" {
					addKV(em, kv.k, code(kv.t.S))
				}
			}
			if e.Comment != "" {
				addKV(em, "comment", scalar(e.Comment))
			}
			flowIfShort(em)
			edges.Content = append(edges.Content, em)
		}
		addKV(m, "edges", edges)
	}
	return m
}

// flowIfShort prints a mapping of single-line scalars on one line when it
// fits in a reasonable width, as people write locations and edges.
func flowIfShort(m *yaml.Node) {
	width := 2
	for _, c := range m.Content {
		if c.Kind != yaml.ScalarNode || strings.ContainsAny(c.Value, "\n") || c.Style&yaml.LiteralStyle != 0 {
			return
		}
		width += len(c.Value) + 4
	}
	if width <= 100 {
		m.Style = yaml.FlowStyle
		// In flow context [ ] { } , are indicators: quote values with them.
		for _, c := range m.Content {
			if c.Tag == "!!str" && strings.ContainsAny(c.Value, "[]{},#:&*!|>'\"%@`") {
				c.Style = yaml.DoubleQuotedStyle
			}
		}
	}
}

func keyNode(k string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: k}
}

func addKV(m *yaml.Node, k string, v *yaml.Node) {
	m.Content = append(m.Content, keyNode(k), v)
}

func scalar(s string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
	if strings.Contains(s, "\n") {
		n.Style = yaml.LiteralStyle
	}
	return n
}

func boolNode(b bool) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(b)}
}

// code prints a snippet: multi-line code as a literal block (exact), a
// single line as a plain scalar when YAML allows (the encoder quotes it when
// it would read back as something else).
func code(s string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
	if strings.Contains(s, "\n") {
		n.Style = yaml.LiteralStyle
		// A literal block cannot start with a space-indented first line
		// reliably nor hold trailing spaces on lines; quote then.
		for _, line := range strings.Split(s, "\n") {
			if strings.HasSuffix(line, " ") || strings.HasSuffix(line, "\t") || strings.Contains(line, "\t") {
				n.Style = yaml.DoubleQuotedStyle
				break
			}
		}
		if strings.HasPrefix(s, " ") || strings.HasPrefix(s, "\n") {
			n.Style = yaml.DoubleQuotedStyle
		}
	}
	return n
}

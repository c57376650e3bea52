package model

import (
	"bytes"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// Parse reads a model file in the YAML format (docs/model-format.md) into a
// File. It checks the structure only: keys, types of scalars, required
// fields. The code snippets are parsed and checked by Compile. filename is
// used in positions.
func Parse(filename string, src []byte) (*File, error) {
	l := &yamlLoader{path: filename, src: src}
	l.lines = append(l.lines, 0)
	for i, c := range src {
		if c == '\n' {
			l.lines = append(l.lines, i+1)
		}
	}
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(src))
	if err := dec.Decode(&doc); err != nil {
		if err.Error() == "EOF" {
			return nil, errorf(Pos{File: filename, Line: 1, Col: 1}, "empty model file")
		}
		return nil, l.yamlError(err)
	}
	f, err := l.file(&doc)
	if err != nil {
		return nil, err
	}
	// A second document is almost certainly a mistake (a stray `---`).
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		return nil, errorf(l.pos(&extra), "unexpected second YAML document")
	} else if err.Error() != "EOF" {
		return nil, l.yamlError(err)
	}
	return f, nil
}

type yamlLoader struct {
	path  string
	src   []byte
	lines []int // byte offset of the start of each line
}

var yamlLineRE = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// yamlError turns an error of the YAML library into a positioned Error.
// The library reports a line and no column. For a scanner error ("mapping
// values are not allowed", "found character that cannot start any token")
// the line is where the problem is, and the error says that the column is
// unknown. For a parser error ("did not find expected ',' or '}'") it is
// the line before the one where the unfinished construct starts (the
// library prints that 0-based line number as it is): the error points at
// that construct, at its opening bracket when it is a flow collection.
func (l *yamlLoader) yamlError(err error) error {
	msg := err.Error()
	if m := yamlLineRE.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		problem := m[2]
		pos := Pos{File: l.path, Line: line}
		note := " (the YAML parser reports no column)"
		if strings.HasPrefix(problem, "did not find expected") {
			// 0-based: the construct's first line, or the problem's line
			// when the construct starts on the file's first line
			pos.Line = line + 1
			note = " (in the construct that starts on this line or just before)"
			bracket := ""
			switch {
			case strings.Contains(problem, "'}'"):
				bracket = "{"
			case strings.Contains(problem, "']'"):
				bracket = "["
			}
			if bracket != "" {
				for ln := pos.Line; ln >= 1 && ln >= pos.Line-1; ln-- {
					if open := strings.LastIndex(l.line(ln), bracket); open >= 0 {
						pos.Line, pos.Col = ln, open+1
						note = " (in the flow collection that opens here)"
						break
					}
				}
			}
		}
		return errorf(pos, "bad YAML: %s%s%s", problem, note, yamlHint(problem, l.line(pos.Line-1)+"\n"+l.line(pos.Line)))
	}
	msg = strings.TrimPrefix(msg, "yaml: ")
	return errorf(Pos{File: l.path, Line: 1, Col: 1}, "bad YAML: %s", msg)
}

// yamlHint explains the YAML errors that UPPAAL code in a plain scalar
// causes: `c!` or `c?` inside a flow mapping, `: ` in a formula.
// It is given only when the lines around the error look like code.
func yamlHint(msg, lines string) string {
	structural := strings.Contains(msg, "did not find expected ',' or '}'") || strings.Contains(msg, "mapping values are not allowed") ||
		strings.Contains(msg, "did not find expected key")
	code := strings.ContainsAny(lines, "!?")
	for _, ln := range strings.Split(lines, "\n") {
		code = code || strings.Count(ln, ": ") > 1
	}
	if structural && code {
		return ` (quote code that contains ": " or " #", a sync such as c! or c? inside {...}, or code that starts with !, ?, { or [: sync: "c!", formula: 'A[] forall (i : T) ...')`
	}
	return ""
}

// line returns the 1-based line n of the source ("" out of range).
func (l *yamlLoader) line(n int) string {
	if n < 1 || n > len(l.lines) {
		return ""
	}
	start := l.lines[n-1]
	end := len(l.src)
	if n < len(l.lines) {
		end = l.lines[n] - 1
	}
	if start > end {
		return ""
	}
	return string(l.src[start:end])
}

// byteOffset returns the byte offset of the 1-based line and the 1-based
// column as the YAML library counts it (characters).
func (l *yamlLoader) byteOffset(line, col int) int {
	if line < 1 || line > len(l.lines) {
		return len(l.src)
	}
	off := l.lines[line-1]
	for c := 1; c < col && off < len(l.src) && l.src[off] != '\n'; c++ {
		_, w := utf8.DecodeRune(l.src[off:])
		off += w
	}
	return off
}

// posOf maps a byte offset of the file to a position.
func (l *yamlLoader) posOf(off int) Pos {
	k := sort.Search(len(l.lines), func(i int) bool { return l.lines[i] > off }) - 1
	if k < 0 {
		k = 0
	}
	return Pos{File: l.path, Line: k + 1, Col: off - l.lines[k] + 1}
}

func (l *yamlLoader) pos(n *yaml.Node) Pos {
	if n == nil || n.Line == 0 {
		return Pos{File: l.path, Line: 1, Col: 1}
	}
	return l.posOf(l.byteOffset(n.Line, n.Column))
}

func (l *yamlLoader) lineText(line int) string {
	if line < 1 || line > len(l.lines) {
		return ""
	}
	start := l.lines[line-1]
	end := len(l.src)
	if line < len(l.lines) {
		end = l.lines[line] - 1
	}
	return strings.TrimSuffix(string(l.src[start:end]), "\r")
}

func resolve(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		return "a scalar"
	}
	return "nothing"
}

// mapping iterates over the key/value pairs of a mapping node, rejecting
// duplicate keys and keys not in allowed (listed in the message).
func (l *yamlLoader) mapping(n *yaml.Node, what string, allowed []string, fn func(key string, k, v *yaml.Node) error) error {
	n = resolve(n)
	if n.Kind != yaml.MappingNode {
		return errorf(l.pos(n), "%s must be a mapping, not %s", what, kindName(n))
	}
	seen := map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := resolve(n.Content[i]), resolve(n.Content[i+1])
		if k.Kind != yaml.ScalarNode {
			return errorf(l.pos(k), "%s: keys must be scalars", what)
		}
		if line, dup := seen[k.Value]; dup {
			return errorf(l.pos(k), "duplicate key %q in %s (first at line %d)", k.Value, what, line)
		}
		seen[k.Value] = k.Line
		if allowed != nil && !contains(allowed, k.Value) {
			return errorf(l.pos(k), "unknown key %q in %s (known keys: %s)", k.Value, what, strings.Join(allowed, ", "))
		}
		if err := fn(k.Value, k, v); err != nil {
			return err
		}
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (l *yamlLoader) str(n *yaml.Node, what string) (string, error) {
	if n.Kind != yaml.ScalarNode {
		return "", errorf(l.pos(n), "%s must be a string, not %s", what, kindName(n))
	}
	if n.Tag == "!!null" {
		return "", nil
	}
	return n.Value, nil
}

func (l *yamlLoader) boolean(n *yaml.Node, what string) (bool, error) {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!bool" {
		var b bool
		if err := n.Decode(&b); err == nil {
			return b, nil
		}
	}
	return false, errorf(l.pos(n), "%s must be true or false, not %q", what, n.Value)
}

func (l *yamlLoader) integer(n *yaml.Node, what string) (int64, error) {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!int" {
		var v int64
		if err := n.Decode(&v); err == nil {
			return v, nil
		}
	}
	if n.Kind != yaml.ScalarNode {
		return 0, errorf(l.pos(n), "%s must be an integer, not %s", what, kindName(n))
	}
	return 0, errorf(l.pos(n), "%s must be an integer, not %q", what, n.Value)
}

// text turns a scalar into a code snippet with its position map.
func (l *yamlLoader) text(n *yaml.Node, what string) (Text, error) {
	if n.Kind != yaml.ScalarNode {
		return Text{}, errorf(l.pos(n), "%s must be a string of code, not %s", what, kindName(n))
	}
	p := l.pos(n)
	if n.Tag == "!!null" && (n.Value == "" || n.Value == "~" || n.Value == "null") {
		return Text{Pos: p}, nil
	}
	t := Text{S: n.Value, Pos: p}
	if n.Style&yaml.LiteralStyle != 0 {
		t.segs = l.literalSegs(n)
		if len(t.segs) > 0 {
			t.Pos = Pos{File: l.path, Line: t.segs[0].line, Col: t.segs[0].col}
		}
		return t, nil
	}
	start := l.byteOffset(n.Line, n.Column)
	if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 {
		start++ // skip the opening quote
	} else if n.Style&yaml.FoldedStyle != 0 {
		// Content starts on the line after the indicator.
		if n.Line < len(l.lines) {
			start = l.lines[n.Line]
		}
	}
	t.segs = l.alignSegs(n.Value, start)
	if len(t.segs) > 0 {
		t.Pos = Pos{File: l.path, Line: t.segs[0].line, Col: t.segs[0].col}
	}
	return t, nil
}

// literalSegs maps a literal block scalar (`|`): line k of the value is the
// (k+1)-th line after the indicator with the block indentation removed, so
// its first byte is at column len(source line) - len(value line) + 1.
func (l *yamlLoader) literalSegs(n *yaml.Node) []textSeg {
	var segs []textSeg
	off := 0
	for k, vl := range strings.Split(n.Value, "\n") {
		line := n.Line + 1 + k
		src := l.lineText(line)
		col := 1
		if len(src) >= len(vl) && strings.HasSuffix(src, vl) {
			col = len(src) - len(vl) + 1
		}
		if line <= len(l.lines) {
			segs = append(segs, textSeg{off: off, line: line, col: col})
		}
		off += len(vl) + 1
	}
	return segs
}

// alignSegs maps a plain, quoted or folded scalar by aligning the decoded
// value with the source from start: each value byte is matched with the
// next equal source byte, skipping what the YAML scanner removes (line
// folds, indentation, escape backslashes, doubled quotes). Bytes that do not
// occur (escapes such as \n) are mapped to the current source byte. Exact for
// the usual cases (single-line scalars, folded lines without escapes).
func (l *yamlLoader) alignSegs(val string, start int) []textSeg {
	src := l.src
	j := start
	var segs []textSeg
	last := textSeg{off: -2}
	for i := 0; i < len(val); i++ {
		c := val[i]
		k := j
		for k < len(src) && src[k] != c && ignorable(src[k]) {
			k++
		}
		at := k
		if k < len(src) && src[k] == c {
			j = k + 1
		} else if k < len(src) {
			j = k + 1
		} else {
			at = len(src)
			j = len(src)
		}
		p := l.posOf(at)
		// Extend the current segment when the byte follows on the same line.
		if last.off >= 0 && p.Line == last.line && p.Col == last.col+(i-last.off) {
			continue
		}
		last = textSeg{off: i, line: p.Line, col: p.Col}
		segs = append(segs, last)
	}
	return segs
}

func ignorable(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', '\\', '\'', '"':
		return true
	}
	return false
}

var (
	topKeys      = []string{"name", "parameters", "declarations", "templates", "system", "progress", "queries"}
	templateKeys = []string{"name", "parameters", "declarations", "locations", "edges", "comment"}
	locationKeys = []string{"name", "initial", "invariant", "committed", "urgent", "comment"}
	edgeKeys     = []string{"from", "to", "select", "guard", "sync", "update", "comment"}
	queryKeys    = []string{"formula", "expect", "comment", "max-states"}
)

func (l *yamlLoader) file(doc *yaml.Node) (*File, error) {
	f := &File{Path: l.path}
	root := doc
	if root.Kind == yaml.DocumentNode {
		if len(root.Content) == 0 {
			return nil, errorf(Pos{File: l.path, Line: 1, Col: 1}, "empty model file")
		}
		root = root.Content[0]
	}
	root = resolve(root)
	if root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
		return nil, errorf(Pos{File: l.path, Line: 1, Col: 1}, "empty model file")
	}
	err := l.mapping(root, "the model", topKeys, func(key string, k, v *yaml.Node) error {
		var err error
		switch key {
		case "name":
			f.NamePos = l.pos(v)
			f.Name, err = l.str(v, "name")
		case "parameters":
			err = l.mapping(v, "parameters", nil, func(name string, k, v *yaml.Node) error {
				x, err := l.integer(v, "parameter "+name)
				if err != nil {
					return err
				}
				f.Params = append(f.Params, FileParam{Name: name, Value: x, Pos: l.pos(k)})
				return nil
			})
		case "declarations":
			f.Declarations, err = l.text(v, "declarations")
		case "system":
			f.System, err = l.text(v, "system")
		case "progress":
			f.Progress, err = l.text(v, "progress")
		case "templates":
			if v.Kind != yaml.SequenceNode {
				return errorf(l.pos(v), "templates must be a list, not %s", kindName(v))
			}
			for _, tn := range v.Content {
				t, err := l.template(resolve(tn))
				if err != nil {
					return err
				}
				f.Templates = append(f.Templates, t)
			}
		case "queries":
			if v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
				return nil
			}
			err = l.mapping(v, "queries", nil, func(name string, k, v *yaml.Node) error {
				q, err := l.query(name, k, v)
				if err == nil {
					f.Queries = append(f.Queries, q)
				}
				return err
			})
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return f, nil
}

func (l *yamlLoader) template(n *yaml.Node) (*FileTemplate, error) {
	t := &FileTemplate{Pos: l.pos(n)}
	hasName := false
	err := l.mapping(n, "a template", templateKeys, func(key string, k, v *yaml.Node) error {
		var err error
		switch key {
		case "name":
			hasName = true
			t.Pos = l.pos(v)
			t.Name, err = l.str(v, "template name")
		case "parameters":
			t.Params, err = l.text(v, "template parameters")
		case "declarations":
			t.Declarations, err = l.text(v, "template declarations")
		case "comment":
			t.Comment, err = l.str(v, "comment")
		case "locations":
			if v.Kind != yaml.SequenceNode {
				return errorf(l.pos(v), "locations must be a list, not %s", kindName(v))
			}
			for _, ln := range v.Content {
				loc, err := l.location(resolve(ln))
				if err != nil {
					return err
				}
				t.Locations = append(t.Locations, loc)
			}
		case "edges":
			if v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
				return nil
			}
			if v.Kind != yaml.SequenceNode {
				return errorf(l.pos(v), "edges must be a list, not %s", kindName(v))
			}
			for _, en := range v.Content {
				e, err := l.edge(resolve(en))
				if err != nil {
					return err
				}
				t.Edges = append(t.Edges, e)
			}
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	if !hasName || t.Name == "" {
		return nil, errorf(t.Pos, "template without a name")
	}
	return t, nil
}

func (l *yamlLoader) location(n *yaml.Node) (*FileLocation, error) {
	loc := &FileLocation{Pos: l.pos(n)}
	hasName := false
	err := l.mapping(n, "a location", locationKeys, func(key string, k, v *yaml.Node) error {
		var err error
		switch key {
		case "name":
			hasName = true
			loc.Pos = l.pos(v)
			loc.Name, err = l.str(v, "location name")
		case "initial":
			loc.Initial, err = l.boolean(v, "initial")
		case "committed":
			loc.Committed, err = l.boolean(v, "committed")
		case "urgent":
			loc.Urgent, err = l.boolean(v, "urgent")
		case "invariant":
			loc.Invariant, err = l.text(v, "invariant")
		case "comment":
			loc.Comment, err = l.str(v, "comment")
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	if !hasName || loc.Name == "" {
		return nil, errorf(loc.Pos, "location without a name")
	}
	return loc, nil
}

func (l *yamlLoader) edge(n *yaml.Node) (*FileEdge, error) {
	e := &FileEdge{Pos: l.pos(n)}
	err := l.mapping(n, "an edge", edgeKeys, func(key string, k, v *yaml.Node) error {
		var err error
		switch key {
		case "from":
			e.FromPos = l.pos(v)
			e.From, err = l.str(v, "from")
		case "to":
			e.ToPos = l.pos(v)
			e.To, err = l.str(v, "to")
		case "select":
			e.Select, err = l.text(v, "select")
		case "guard":
			e.Guard, err = l.text(v, "guard")
		case "sync":
			e.Sync, err = l.text(v, "sync")
		case "update":
			e.Update, err = l.text(v, "update")
		case "comment":
			e.Comment, err = l.str(v, "comment")
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	if e.From == "" {
		return nil, errorf(e.Pos, "edge without 'from'")
	}
	if e.To == "" {
		return nil, errorf(e.Pos, "edge without 'to'")
	}
	return e, nil
}

func (l *yamlLoader) query(name string, k, v *yaml.Node) (*FileQuery, error) {
	q := &FileQuery{Name: name, Pos: l.pos(k)}
	if v.Kind == yaml.ScalarNode {
		// Shorthand: `name: formula`.
		t, err := l.text(v, "query "+name)
		if err != nil {
			return nil, err
		}
		if t.IsEmpty() {
			return nil, errorf(q.Pos, "query %s has no formula", name)
		}
		q.Formula = t
		return q, nil
	}
	hasFormula := false
	err := l.mapping(v, "query "+name, queryKeys, func(key string, k, v *yaml.Node) error {
		var err error
		switch key {
		case "formula":
			hasFormula = true
			q.Formula, err = l.text(v, "formula")
		case "expect":
			q.ExpectPos = l.pos(v)
			q.Expect, err = l.str(v, "expect")
		case "comment":
			q.Comment, err = l.str(v, "comment")
		case "max-states":
			q.MaxStates, err = l.integer(v, "max-states")
			if err == nil && q.MaxStates < 0 {
				err = errorf(l.pos(v), "max-states must not be negative")
			}
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	if !hasFormula || q.Formula.IsEmpty() {
		return nil, errorf(q.Pos, "query %s has no formula", name)
	}
	return q, nil
}

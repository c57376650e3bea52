package uppaal

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tcheck/tcheck/model"
	"github.com/tcheck/tcheck/model/syntax"
)

// ParseXML reads a model in UPPAAL's XML format (the flat-1.2 DTD and the
// query elements of UPPAAL 5: option, expect, result) into a File. Elements
// that would change the meaning and that tcheck does not support
// (branchpoints, probability and exponential-rate labels, LSC templates,
// imports) are errors at their position; elements of the GUI only
// (coordinates, nails, colours, query results) are ignored. Syntax errors in
// labels are reported here with their exact position in the file; see
// docs/uppaal.md for the mapping.
func ParseXML(name string, src []byte) (*model.File, error) {
	s, err := toUTF8(name, src)
	if err != nil {
		return nil, err
	}
	r := &xmlReader{li: newLineIndex(name, s), src: s}
	root, err := r.tree()
	if err != nil {
		return nil, err
	}
	f, err := r.file(root)
	if err != nil {
		return nil, err
	}
	if err := r.check(); err != nil {
		return nil, err
	}
	return f, nil
}

var encodingRE = regexp.MustCompile(`^\s*<\?xml[^>]*encoding\s*=\s*["']([^"']*)["']`)

// toUTF8 returns the document as UTF-8 text: UTF-8 and ASCII are taken as
// they are, ISO-8859-1 (which old UPPAAL versions declared) is converted.
// Columns in positions then count the converted bytes.
func toUTF8(name string, src []byte) (string, error) {
	src = bytes.TrimPrefix(src, []byte("\xef\xbb\xbf"))
	enc := ""
	if m := encodingRE.FindSubmatch(src); m != nil {
		enc = strings.ToLower(string(m[1]))
	}
	switch enc {
	case "", "utf-8", "utf8", "us-ascii", "ascii":
		if !utf8.Valid(src) {
			return "", &model.Error{Pos: model.Pos{File: name, Line: 1, Col: 1}, Msg: "the file is not valid UTF-8"}
		}
		return string(src), nil
	case "iso-8859-1", "latin1", "latin-1", "iso8859-1":
		var b strings.Builder
		for _, c := range src {
			b.WriteRune(rune(c))
		}
		return b.String(), nil
	}
	return "", &model.Error{Pos: model.Pos{File: name, Line: 1, Col: 1}, Msg: fmt.Sprintf("unsupported XML encoding %q (use UTF-8)", enc)}
}

// xnode is an element of the document with the byte offsets needed for
// positions.
type xnode struct {
	name     string
	attrs    []xml.Attr
	off      int // the '<' of the start tag
	inner    int // just after the start tag
	children []*xnode
	chunks   []chunk // character data directly inside, in order
}

// chunk is a piece of character data: its decoded text and, for each
// decoded byte, the offset of the source byte it came from.
type chunk struct {
	s    string
	offs []int
}

func (n *xnode) attr(name string) (string, bool) {
	for _, a := range n.attrs {
		if a.Name.Local == name && a.Name.Space == "" {
			return a.Value, true
		}
	}
	return "", false
}

type xmlReader struct {
	li       *lineIndex
	src      string
	snippets []snippet // code to check with the syntax parsers, in file order
	tmplAt   []func(int) model.Pos
}

// snippet is a piece of code with the map from its bytes to file offsets.
type snippet struct {
	text  string
	offs  []int
	kind  snippetKind
	start int // offset for an empty snippet
}

type snippetKind int

const (
	snipDecls snippetKind = iota
	snipSystem
	snipParams
	snipExpr
	snipSelect
	snipSync
	snipUpdate
)

func (r *xmlReader) tree() (*xnode, error) {
	d := xml.NewDecoder(strings.NewReader(r.src))
	d.Strict = true
	d.CharsetReader = func(label string, input io.Reader) (io.Reader, error) { return input, nil }
	var stack []*xnode
	var root *xnode
	for {
		off := int(d.InputOffset())
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			var se *xml.SyntaxError
			if errors.As(err, &se) {
				p := r.li.pos(int(d.InputOffset()))
				if p.Line != se.Line {
					p = model.Pos{File: r.li.file, Line: se.Line, Col: 1}
				}
				return nil, &model.Error{Pos: p, Msg: "bad XML: " + se.Msg}
			}
			return nil, r.li.errAt(int(d.InputOffset()), "bad XML: %v", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			n := &xnode{name: t.Name.Local, attrs: t.Attr, off: off, inner: int(d.InputOffset())}
			if len(stack) == 0 {
				if root != nil {
					return nil, r.li.errAt(off, "bad XML: a second root element <%s>", n.name)
				}
				root = n
			} else {
				p := stack[len(stack)-1]
				p.children = append(p.children, n)
			}
			stack = append(stack, n)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) == 0 {
				continue
			}
			p := stack[len(stack)-1]
			p.chunks = append(p.chunks, r.decode(string(t), off, int(d.InputOffset())))
		}
	}
	if root == nil {
		return nil, r.li.errAt(0, "empty XML document")
	}
	return root, nil
}

// decode maps the decoded character data s, read from src[start:end], back
// to the source: entities and character references, CDATA sections and
// line-end normalisation. If the decoding does not reproduce s (it should),
// every byte is mapped to start.
func (r *xmlReader) decode(s string, start, end int) chunk {
	raw := r.src[start:end]
	var b []byte
	var offs []int
	for i := 0; i < len(raw); {
		switch {
		case strings.HasPrefix(raw[i:], "<![CDATA["):
			j := strings.Index(raw[i+9:], "]]>")
			if j < 0 {
				j = len(raw) - i - 9
			}
			for k := i + 9; k < i+9+j; k++ {
				if raw[k] == '\r' {
					if k+1 < len(raw) && raw[k+1] == '\n' {
						continue
					}
					b = append(b, '\n')
				} else {
					b = append(b, raw[k])
				}
				offs = append(offs, start+k)
			}
			i += 9 + j + 3
		case raw[i] == '&':
			j := strings.IndexByte(raw[i:], ';')
			var rs string
			if j > 0 {
				rs = entity(raw[i+1 : i+j])
			}
			if j <= 0 || rs == "" {
				b = append(b, raw[i])
				offs = append(offs, start+i)
				i++
				continue
			}
			for k := 0; k < len(rs); k++ {
				b = append(b, rs[k])
				offs = append(offs, start+i)
			}
			i += j + 1
		case raw[i] == '\r':
			b = append(b, '\n')
			offs = append(offs, start+i)
			if i+1 < len(raw) && raw[i+1] == '\n' {
				i++
			}
			i++
		default:
			b = append(b, raw[i])
			offs = append(offs, start+i)
			i++
		}
	}
	if string(b) != s {
		offs = make([]int, len(s))
		for i := range offs {
			offs[i] = start
		}
	}
	return chunk{s: s, offs: offs}
}

func entity(name string) string {
	switch name {
	case "lt":
		return "<"
	case "gt":
		return ">"
	case "amp":
		return "&"
	case "apos":
		return "'"
	case "quot":
		return "\""
	}
	if strings.HasPrefix(name, "#x") || strings.HasPrefix(name, "#X") {
		if v, err := strconv.ParseUint(name[2:], 16, 32); err == nil {
			return string(rune(v))
		}
	} else if strings.HasPrefix(name, "#") {
		if v, err := strconv.ParseUint(name[1:], 10, 32); err == nil {
			return string(rune(v))
		}
	}
	return ""
}

// content returns the character data directly inside n with its offset
// map.
func (n *xnode) content() (string, []int) {
	if len(n.chunks) == 1 {
		return n.chunks[0].s, n.chunks[0].offs
	}
	var b strings.Builder
	var offs []int
	for _, c := range n.chunks {
		b.WriteString(c.s)
		offs = append(offs, c.offs...)
	}
	return b.String(), offs
}

// code returns n's content as a code snippet and registers it for the
// syntax check.
func (r *xmlReader) code(n *xnode, kind snippetKind) model.Text {
	s, offs := n.content()
	if kind != snipDecls {
		s, offs = trimMapped(s, offs)
	}
	return r.codeOf(s, offs, n.inner, kind)
}

// trimMapped removes the white space around s and the corresponding
// entries of its offset map.
func trimMapped(s string, offs []int) (string, []int) {
	i, j := 0, len(s)
	for i < j && isSpace(s[i]) {
		i++
	}
	for j > i && isSpace(s[j-1]) {
		j--
	}
	if len(offs) == len(s) {
		offs = offs[i:j]
	}
	return s[i:j], offs
}

func (r *xmlReader) codeOf(s string, offs []int, start int, kind snippetKind) model.Text {
	r.snippets = append(r.snippets, snippet{text: s, offs: offs, kind: kind, start: start})
	return r.textOf(s, offs, start)
}

// textOf returns the snippet s read from the file at offs.
func (r *xmlReader) textOf(s string, offs []int, start int) model.Text {
	p := r.li.pos(start)
	if len(offs) > 0 {
		p = r.li.pos(offs[0])
	}
	if len(offs) != len(s) || len(s) == 0 {
		return model.NewText(s, p)
	}
	// one segment wherever the decoded text stops following the source
	// byte for byte (an entity, a CDATA boundary, a new line)
	var segs []model.TextSeg
	for i := range s {
		if i == 0 || offs[i] != offs[i-1]+1 || s[i-1] == '\n' {
			q := r.li.pos(offs[i])
			segs = append(segs, model.TextSeg{Off: i, Line: q.Line, Col: q.Col})
		}
	}
	return model.NewTextSegs(s, p.File, segs)
}

// plain returns n's content as plain text, trimmed.
func (n *xnode) plain() string {
	s, _ := n.content()
	return strings.TrimSpace(s)
}

func (r *xmlReader) errAt(n *xnode, format string, args ...any) error {
	return r.li.errAt(n.off, format, args...)
}

// unsupported names XML elements with no tcheck meaning that must not be
// skipped silently.
var unsupported = map[string]string{
	"branchpoint": "branchpoints (probabilistic edges of UPPAAL SMC) are not supported",
	"lsc":         "live sequence charts (LSC templates) are not supported",
	"lscTemplate": "live sequence charts (LSC templates) are not supported",
	"imports":     "imports (external libraries) are not supported",
}

func (r *xmlReader) unknown(n *xnode, where string) error {
	if msg, ok := unsupported[n.name]; ok {
		return r.errAt(n, "%s", msg)
	}
	return r.errAt(n, "unexpected element <%s> in <%s>", n.name, where)
}

func (r *xmlReader) file(root *xnode) (*model.File, error) {
	if root.name == "project" {
		return nil, r.errAt(root, "UPPAAL projects with live sequence charts are not supported")
	}
	if root.name != "nta" {
		return nil, r.errAt(root, "not a UPPAAL model: the root element is <%s>, not <nta>", root.name)
	}
	f := &model.File{Path: r.li.file, Name: modelName(r.li.file)}
	var decl, inst, sys *xnode
	for _, c := range root.children {
		switch c.name {
		case "declaration":
			if decl != nil {
				return nil, r.errAt(c, "second <declaration> in <nta>")
			}
			decl = c
		case "template":
			t, err := r.template(c)
			if err != nil {
				return nil, err
			}
			f.Templates = append(f.Templates, t)
		case "instantiation":
			inst = c
		case "system":
			if sys != nil {
				return nil, r.errAt(c, "second <system> in <nta>")
			}
			sys = c
		case "queries":
			qs, err := r.queries(c)
			if err != nil {
				return nil, err
			}
			f.Queries = append(f.Queries, qs...)
		default:
			return nil, r.unknown(c, "nta")
		}
	}
	globalAt := func(o int) model.Pos { return r.li.pos(root.inner) }
	if decl != nil {
		s, offs := decl.content()
		f.Declarations = r.codeOf(s, offs, decl.inner, snipDecls)
		globalAt = func(o int) model.Pos { return r.li.pos(offAt(offs, o, decl.inner)) }
	} else {
		f.Declarations = model.NewText("", r.li.pos(root.inner))
	}
	if sys == nil {
		return nil, r.errAt(root, "missing <system> element")
	}
	s, offs := sys.content()
	start := sys.inner
	if inst != nil {
		// UPPAAL 3.x kept instantiations apart; they precede the system.
		is, ioffs := inst.content()
		s = is + "\n" + s
		offs = append(append(append([]int(nil), ioffs...), inst.inner), offs...)
		start = inst.inner
	}
	f.System = r.codeOf(s, offs, start, snipSystem)
	uniqueQueryNames(f.Queries)
	liftParams(f, globalAt, func(o int) model.Pos { return r.li.pos(offAt(offs, o, start)) }, r.tmplAt)
	// The snippets keep the declarations as written (the syntax check
	// sees the lifted constants too).
	return f, nil
}

// offAt returns offs[o], or the end of the mapped text for o past it.
func offAt(offs []int, o, start int) int {
	switch {
	case len(offs) == 0:
		return start
	case o < 0:
		return offs[0]
	case o >= len(offs):
		return offs[len(offs)-1] + 1
	}
	return offs[o]
}

func (r *xmlReader) template(n *xnode) (*model.FileTemplate, error) {
	t := &model.FileTemplate{Pos: r.li.pos(n.off)}
	byID := map[string]*model.FileLocation{}
	idPos := map[string]*xnode{}
	var unnamed []*model.FileLocation
	var unnamedIDs []string
	var initNode *xnode
	var edges []*xnode
	hasName := false
	at := func(o int) model.Pos { return t.Pos }
	defer func() { r.tmplAt = append(r.tmplAt, at) }()
	for _, c := range n.children {
		switch c.name {
		case "name":
			hasName = true
			t.Name = c.plain()
			t.Pos = r.li.pos(c.off)
			if !isIdent(t.Name) {
				return nil, r.errAt(c, "template name %q is not an identifier", t.Name)
			}
		case "parameter":
			t.Params = r.code(c, snipParams)
		case "declaration":
			t.Declarations = r.code(c, snipDecls)
			_, offs := c.content()
			inner := c.inner
			at = func(o int) model.Pos { return r.li.pos(offAt(offs, o, inner)) }
		case "location":
			id, ok := c.attr("id")
			if !ok || strings.TrimSpace(id) == "" {
				return nil, r.errAt(c, "location without an id attribute")
			}
			if old, dup := idPos[id]; dup {
				return nil, r.errAt(c, "location id %q is used twice (first at %s)", id, r.li.pos(old.off))
			}
			idPos[id] = c
			loc, err := r.location(c)
			if err != nil {
				return nil, err
			}
			byID[id] = loc
			t.Locations = append(t.Locations, loc)
			if loc.Name == "" {
				unnamed = append(unnamed, loc)
				unnamedIDs = append(unnamedIDs, id)
			}
		case "init":
			initNode = c
		case "transition":
			edges = append(edges, c)
		default:
			return nil, r.unknown(c, "template")
		}
	}
	if !hasName || t.Name == "" {
		return nil, r.errAt(n, "template without a <name>")
	}
	// Unnamed locations (UPPAAL allows them) are called by their id.
	taken := map[string]bool{}
	for _, l := range t.Locations {
		if l.Name != "" {
			taken[l.Name] = true
		}
	}
	for i, l := range unnamed {
		l.Name = generatedName(unnamedIDs[i], taken)
		taken[l.Name] = true
	}
	if initNode == nil {
		return nil, r.errAt(n, "template %s has no initial location (<init ref=\"...\"/>)", t.Name)
	}
	ref, _ := initNode.attr("ref")
	if l := byID[ref]; l != nil {
		l.Initial = true
	} else {
		return nil, r.errAt(initNode, "<init> refers to %q, which is no location of template %s", ref, t.Name)
	}
	for _, c := range edges {
		e, err := r.edge(c, t, byID)
		if err != nil {
			return nil, err
		}
		t.Edges = append(t.Edges, e)
	}
	return t, nil
}

// generatedName names an unnamed location after its id: the id itself
// when it is an identifier (UPPAAL's GUI writes id0, id1, ...), otherwise
// `_` and the id with other characters replaced; `_` is appended until the
// name is free.
func generatedName(id string, taken map[string]bool) string {
	name := id
	if !isIdent(id) || syntax.IsKeyword(id) {
		b := []byte("_" + id)
		for i := 1; i < len(b); i++ {
			if !isIdentChar(b[i]) {
				b[i] = '_'
			}
		}
		name = string(b)
	}
	for taken[name] {
		name += "_"
	}
	return name
}

func (r *xmlReader) location(n *xnode) (*model.FileLocation, error) {
	loc := &model.FileLocation{Pos: r.li.pos(n.off)}
	for _, c := range n.children {
		switch c.name {
		case "name":
			loc.Name = c.plain()
			loc.Pos = r.li.pos(c.off)
			if loc.Name != "" && !isIdent(loc.Name) {
				return nil, r.errAt(c, "location name %q is not an identifier", loc.Name)
			}
		case "label":
			kind, _ := c.attr("kind")
			switch kind {
			case "invariant":
				if loc.Invariant.S != "" {
					return nil, r.errAt(c, "second invariant label")
				}
				loc.Invariant = r.code(c, snipExpr)
			case "comments":
				loc.Comment = c.plain()
			case "exponentialrate":
				return nil, r.errAt(c, "exponential rates (UPPAAL SMC) are not supported")
			case "testcodeEnter", "testcodeExit", "testcode":
				// Test-generation code (Yggdrasil): no meaning for checking.
			default:
				return nil, r.errAt(c, "unknown location label kind %q", kind)
			}
		case "urgent":
			loc.Urgent = true
		case "committed":
			loc.Committed = true
		default:
			return nil, r.unknown(c, "location")
		}
	}
	return loc, nil
}

func (r *xmlReader) edge(n *xnode, t *model.FileTemplate, byID map[string]*model.FileLocation) (*model.FileEdge, error) {
	e := &model.FileEdge{Pos: r.li.pos(n.off)}
	var src, dst *xnode
	for _, c := range n.children {
		switch c.name {
		case "source":
			src = c
		case "target":
			dst = c
		case "label":
			kind, _ := c.attr("kind")
			var slot *model.Text
			var sk snippetKind
			switch kind {
			case "select":
				slot, sk = &e.Select, snipSelect
			case "guard":
				slot, sk = &e.Guard, snipExpr
			case "synchronisation":
				slot, sk = &e.Sync, snipSync
			case "assignment":
				slot, sk = &e.Update, snipUpdate
			case "comments":
				e.Comment = c.plain()
				continue
			case "probability":
				return nil, r.errAt(c, "edge probabilities (UPPAAL SMC) are not supported")
			case "testcode":
				continue
			default:
				return nil, r.errAt(c, "unknown transition label kind %q", kind)
			}
			if slot.S != "" {
				return nil, r.errAt(c, "second %s label on one transition", kind)
			}
			*slot = r.code(c, sk)
		case "nail":
		default:
			return nil, r.unknown(c, "transition")
		}
	}
	for _, end := range []struct {
		n    *xnode
		what string
		name *string
		pos  *model.Pos
	}{{src, "source", &e.From, &e.FromPos}, {dst, "target", &e.To, &e.ToPos}} {
		if end.n == nil {
			return nil, r.errAt(n, "transition without a <%s>", end.what)
		}
		ref, _ := end.n.attr("ref")
		l := byID[ref]
		if l == nil {
			return nil, r.errAt(end.n, "<%s> refers to %q, which is no location of template %s", end.what, ref, t.Name)
		}
		*end.name, *end.pos = l.Name, r.li.pos(end.n.off)
	}
	return e, nil
}

func (r *xmlReader) queries(n *xnode) ([]*model.FileQuery, error) {
	var out []*model.FileQuery
	for _, c := range n.children {
		switch c.name {
		case "query":
			q, err := r.query(c)
			if err != nil {
				return nil, err
			}
			if q != nil {
				out = append(out, q)
			}
		case "option":
			// Model-level verification options of UPPAAL 5: search
			// order, extrapolation and the like; no effect on verdicts.
		default:
			return nil, r.unknown(c, "queries")
		}
	}
	return out, nil
}

// query reads one <query>; it returns nil for a query without a formula
// (UPPAAL's GUI keeps empty ones as placeholders and headings).
func (r *xmlReader) query(n *xnode) (*model.FileQuery, error) {
	q := &model.FileQuery{Pos: r.li.pos(n.off)}
	var expect *xnode
	for _, c := range n.children {
		switch c.name {
		case "formula":
			s, offs := trimMapped(c.content())
			// Queries are not checked here: a model with a query tcheck
			// cannot answer still loads, and the query's error comes when
			// it is checked.
			q.Formula = r.textOf(s, offs, c.inner)
		case "comment":
			q.Name, q.Comment, q.Expect = splitComment(c.plain())
			if q.Expect != "" {
				q.ExpectPos = r.li.pos(c.off)
			}
		case "expect":
			expect = c
		case "option", "result", "details", "samples", "plot":
			// Per-query options and the results of earlier runs.
		default:
			return nil, r.unknown(c, "query")
		}
	}
	if q.Formula.IsEmpty() {
		return nil, nil
	}
	if expect != nil {
		v, err := r.expectation(expect, q.Formula.S)
		if err != nil {
			return nil, err
		}
		q.Expect, q.ExpectPos = v, r.li.pos(expect.off)
	}
	return q, nil
}

// expectation maps UPPAAL 5's <expect outcome="success|failure|
// maybe_true|maybe_false" type="symbolic|value" value="..."/> to tcheck's
// expect: satisfied, violated or unknown (maybe_true and maybe_false are
// what UPPAAL's over-approximation of stopwatches answers when it reaches
// a goal), or the value for sup/inf queries.
func (r *xmlReader) expectation(n *xnode, formula string) (string, error) {
	outcome, _ := n.attr("outcome")
	typ, _ := n.attr("type")
	value, _ := n.attr("value")
	if typ == "probability" {
		return "", r.errAt(n, "probability expectations (statistical queries) are not supported")
	}
	if typ == "value" && value != "" {
		if q, err := syntax.ParseQuery(formula); err == nil && (q.Kind == syntax.QuerySup || q.Kind == syntax.QueryInf) {
			return value, nil
		}
	}
	switch outcome {
	case "success":
		return "satisfied", nil
	case "failure":
		return "violated", nil
	case "maybe_true", "maybe_false":
		// an over-approximation reached the goal (stopwatches): tcheck's
		// unknown
		return "unknown", nil
	case "":
		return "", nil
	}
	return "", r.errAt(n, "expect outcome %q is not supported (want success, failure, maybe_true or maybe_false)", outcome)
}

// check parses every code snippet with the syntax parser of its kind, so
// that syntax errors (and the unsupported features the parser rejects) are
// reported at their exact position in the file, entities and all.
func (r *xmlReader) check() error {
	for _, sn := range r.snippets {
		if strings.TrimSpace(sn.text) == "" {
			continue
		}
		var err error
		switch sn.kind {
		case snipDecls:
			_, err = syntax.ParseDecls(sn.text)
		case snipSystem:
			_, err = syntax.ParseSystem(sn.text)
		case snipParams:
			_, err = syntax.ParseParams(sn.text)
		case snipExpr:
			_, err = syntax.ParseExpr(sn.text)
		case snipSelect:
			_, err = syntax.ParseSelect(sn.text)
		case snipSync:
			_, err = syntax.ParseSync(sn.text)
		case snipUpdate:
			_, err = syntax.ParseUpdate(sn.text)
		}
		var se *syntax.Error
		if errors.As(err, &se) {
			return &model.Error{Pos: r.li.pos(offAt(sn.offs, se.Pos.Off, sn.start)), Msg: se.Msg}
		} else if err != nil {
			return &model.Error{Pos: r.li.pos(offAt(sn.offs, 0, sn.start)), Msg: err.Error()}
		}
	}
	return nil
}

package uppaal

import (
	"path/filepath"
	"strings"

	"github.com/tcheck/tcheck/model"
)

// ParseXTA reads a model in UPPAAL's textual XTA format (version 4 and
// later, and the common forms of 3.x, see docs/uppaal.md) into a File. The
// code between the structural keywords (declarations, parameters,
// invariants, guards, updates, the system declarations) is kept verbatim,
// so that errors found later name the exact line and column in name.
// Queries in `query { ... }` blocks are read; a `.q` file is not (see
// ParseFile).
func ParseXTA(name string, src []byte) (*model.File, error) {
	return parseXTA(name, src, nil)
}

// parseXTA reads an XTA model with more queries (from its .q file), which
// are taken into account when lifting constants into parameters.
func parseXTA(name string, src []byte, more []*model.FileQuery) (*model.File, error) {
	s := string(src)
	r := &xtaReader{li: newLineIndex(name, s), src: s}
	if err := checkUTF8(r.li); err != nil {
		return nil, err
	}
	toks, comments, serr := scan(s)
	if serr != nil {
		return nil, r.li.errAt(serr.off, "%s", serr.msg)
	}
	r.toks, r.comments = toks, comments
	return r.file(more)
}

type xtaReader struct {
	li        *lineIndex
	src       string
	toks      []token
	comments  []comment
	declStart []int // offset of each template's declarations
}

type span struct{ start, end int }

func (r *xtaReader) errAt(t token, format string, args ...any) error {
	return r.li.errAt(t.off, format, args...)
}

// describe renders a token for "found ..." in messages.
func describe(t token) string {
	if t.kind == tEOF {
		return "end of file"
	}
	return "'" + t.text + "'"
}

func (r *xtaReader) file(more []*model.FileQuery) (*model.File, error) {
	f := &model.File{Path: r.li.file, Name: modelName(r.li.file)}
	toks := r.toks
	var holes []span // processes and query blocks, blanked from the code
	firstInst, sysKeyword, lastProcEnd := -1, -1, -1
	stmtStart := true
	prevEnd := 0
	for i := 0; toks[i].kind != tEOF; {
		t := toks[i]
		if stmtStart && t.kind == tIdent {
			switch {
			case t.text == "process":
				if sysKeyword >= 0 {
					return nil, r.errAt(t, "process %s after the system line", toks[i+1].text)
				}
				tmpl, end, err := r.process(i, prevEnd)
				if err != nil {
					return nil, err
				}
				f.Templates = append(f.Templates, tmpl)
				holes = append(holes, span{t.off, toks[end].end})
				prevEnd = toks[end].end
				lastProcEnd = prevEnd
				i = end + 1
				continue
			case t.text == "query" && toks[i+1].is("{"):
				q, end, err := r.query(i, prevEnd, len(f.Queries)+1)
				if err != nil {
					return nil, err
				}
				f.Queries = append(f.Queries, q)
				holes = append(holes, span{t.off, toks[end].end})
				prevEnd = toks[end].end
				i = end + 1
				continue
			case t.text == "system":
				if sysKeyword >= 0 {
					return nil, r.errAt(t, "second system line (the first is at %s)", r.li.pos(sysKeyword))
				}
				sysKeyword = t.off
			case firstInst < 0 && sysKeyword < 0 && r.isInstantiation(i):
				firstInst = t.off
			}
		}
		// Skip one statement-level item: brackets as a whole.
		end := i
		if t.kind == tPunct && (t.text == "{" || t.text == "(" || t.text == "[") {
			if end = matching(toks, i); end < 0 {
				return nil, r.errAt(t, "unbalanced '%s'", t.text)
			}
		} else if t.kind == tPunct && (t.text == "}" || t.text == ")" || t.text == "]") {
			return nil, r.errAt(t, "unbalanced '%s'", t.text)
		}
		stmtStart = toks[end].is(";") || toks[end].is("}")
		prevEnd = toks[end].end
		i = end + 1
	}
	if sysKeyword < 0 {
		return nil, r.li.errAt(len(r.src), "missing system line (system P, Q;)")
	}
	// The system declarations are what follows the last process; they
	// start earlier when an instantiation comes before a process (UPPAAL's
	// grammar allows it).
	sysStart := lastProcEnd
	if sysStart < 0 {
		sysStart = sysKeyword
	}
	if firstInst >= 0 && firstInst < sysStart {
		sysStart = firstInst
	}
	code := r.src
	for _, h := range holes {
		code = blank(code, h.start, h.end)
	}
	f.Declarations = model.NewText(code[:sysStart], r.li.pos(0))
	f.System = model.NewText(code[sysStart:], r.li.pos(sysStart))
	f.Queries = append(f.Queries, more...)
	var tmplAt []func(int) model.Pos
	for _, start := range r.declStart {
		tmplAt = append(tmplAt, func(o int) model.Pos { return r.li.pos(start + o) })
	}
	liftParams(f, r.li.pos, func(o int) model.Pos { return r.li.pos(sysStart + o) }, tmplAt)
	uniqueQueryNames(f.Queries)
	return f, nil
}

// isInstantiation reports whether toks[i] starts `P1 = P(...)`,
// `P1 := P(...)` or `Q(const id_t i) = P(...)` at the top level.
func (r *xtaReader) isInstantiation(i int) bool {
	toks := r.toks
	if toks[i].kind != tIdent || !isIdent(toks[i].text) {
		return false
	}
	j := i + 1
	if toks[j].is("(") {
		if j = matching(toks, j); j < 0 {
			return false
		}
		j++
	}
	return (toks[j].is("=") || toks[j].is(":=")) && toks[j+1].kind == tIdent && toks[j+2].is("(")
}

// leadingComment returns the text of the comments that lie between offset
// from and the token at off, each on a line of its own (a comment that ends
// the line of the previous item belongs to that item).
func (r *xtaReader) leadingComment(from, off int) string {
	var parts []string
	for _, c := range r.comments {
		if c.off < from || c.end > off {
			continue
		}
		if strings.Contains(r.src[from:c.off], "\n") || from == 0 {
			if t := commentText(c); t != "" {
				parts = append(parts, t)
			}
		}
	}
	return strings.Join(parts, "\n")
}

// process reads `process Name(params) { body }` at toks[i]; it returns the
// template and the index of the closing brace.
func (r *xtaReader) process(i, prevEnd int) (*model.FileTemplate, int, error) {
	toks := r.toks
	kw := toks[i]
	nameTok := toks[i+1]
	if nameTok.kind != tIdent || !isIdent(nameTok.text) {
		return nil, 0, r.errAt(nameTok, "expected a template name after 'process', found %s", describe(nameTok))
	}
	t := &model.FileTemplate{Name: nameTok.text, Pos: r.li.pos(nameTok.off), Comment: r.leadingComment(prevEnd, kw.off)}
	j := i + 2
	if toks[j].is("(") {
		close := matching(toks, j)
		if close < 0 {
			return nil, 0, r.errAt(toks[j], "unbalanced '('")
		}
		t.Params = r.params(toks[j].end, toks[close].off)
		j = close + 1
	}
	if !toks[j].is("{") {
		return nil, 0, r.errAt(toks[j], "expected '{' after process %s, found %s", t.Name, describe(toks[j]))
	}
	end := matching(toks, j)
	if end < 0 {
		return nil, 0, r.errAt(toks[j], "process %s: unbalanced '{'", t.Name)
	}
	body := j + 1
	// Local declarations run up to `state` at the body's top level.
	k := body
	for k < end && !toks[k].is("state") {
		if toks[k].kind == tPunct && (toks[k].text == "{" || toks[k].text == "(" || toks[k].text == "[") {
			if k = matching(toks, k); k < 0 || k > end {
				return nil, 0, r.errAt(toks[body], "process %s: unbalanced brackets", t.Name)
			}
		}
		k++
	}
	t.Declarations = r.li.text(toks[j].end, toks[k].off)
	r.declStart = append(r.declStart, toks[j].end)
	if k == end {
		return nil, 0, r.errAt(toks[end], "process %s has no 'state' section", t.Name)
	}
	locs := map[string]*model.FileLocation{}
	seen := map[string]token{}
	prev := toks[k-1].end
	if k == body {
		prev = toks[j].end
	}
	for k < end {
		kw := toks[k]
		if kw.kind != tIdent {
			return nil, 0, r.errAt(kw, "process %s: expected state, commit, urgent, init or trans, found %s", t.Name, describe(kw))
		}
		if old, dup := seen[kw.text]; dup && kw.text != "commit" && kw.text != "urgent" {
			return nil, 0, r.errAt(kw, "process %s: second '%s' section (the first is at %s)", t.Name, kw.text, r.li.pos(old.off))
		}
		seen[kw.text] = kw
		var err error
		switch kw.text {
		case "state":
			k, err = r.states(t, locs, k+1, end, prev)
		case "commit", "urgent":
			k, err = r.locFlags(t, locs, kw.text, k+1, end)
		case "init":
			k, err = r.initLoc(t, locs, k+1, end)
		case "trans":
			k, err = r.transitions(t, k+1, end)
		case "branchpoint":
			return nil, 0, r.errAt(kw, "branchpoints (probabilistic edges of UPPAAL SMC) are not supported")
		default:
			return nil, 0, r.errAt(kw, "process %s: expected state, commit, urgent, init or trans, found %s", t.Name, describe(kw))
		}
		if err != nil {
			return nil, 0, err
		}
		prev = toks[k].end
		k++ // the ';'
	}
	if _, ok := seen["init"]; !ok {
		return nil, 0, r.errAt(toks[end], "process %s has no 'init' declaration", t.Name)
	}
	return t, end, nil
}

// params returns the parameter list src[start:end], rewriting XTA 3.x
// parameter lists (`const id; int &x`) into the current syntax.
func (r *xtaReader) params(start, end int) model.Text {
	start, end = r.li.trim(start, end)
	text := r.li.text(start, end)
	s, pieces, ok := oldParams(text.S)
	if !ok {
		return text
	}
	// each piece starts at the file position of the text it stands for
	// (a type repeated for each name of its group points back to it)
	segs := make([]model.TextSeg, 0, len(pieces))
	for _, p := range pieces {
		fp := r.li.pos(start + p.src)
		segs = append(segs, model.TextSeg{Off: p.off, Line: fp.Line, Col: fp.Col})
	}
	return model.NewTextSegs(s, text.Pos.File, segs)
}

// section returns the tokens from k up to (not including) the ';' that
// ends the section at bracket depth 0, or an error at the end.
func (r *xtaReader) sectionEnd(k, end int, what string) (int, error) {
	toks := r.toks
	for j := k; j < end; j++ {
		switch {
		case toks[j].is(";"):
			return j, nil
		case toks[j].kind == tPunct && (toks[j].text == "{" || toks[j].text == "(" || toks[j].text == "["):
			if j = matching(toks, j); j < 0 || j >= end {
				return 0, r.errAt(toks[k], "unbalanced brackets in %s", what)
			}
		}
	}
	return 0, r.errAt(toks[end], "expected ';' after %s, found %s", what, describe(toks[end]))
}

// states reads `a, b { inv }, c;` from k; it returns the index of the ';'.
func (r *xtaReader) states(t *model.FileTemplate, locs map[string]*model.FileLocation, k, end, prev int) (int, error) {
	toks := r.toks
	for {
		name := toks[k]
		if name.kind != tIdent || !isIdent(name.text) {
			return 0, r.errAt(name, "process %s: expected a location name, found %s", t.Name, describe(name))
		}
		if old, dup := locs[name.text]; dup {
			return 0, r.errAt(name, "location %s is already declared in process %s (at %s)", name.text, t.Name, old.Pos)
		}
		loc := &model.FileLocation{Name: name.text, Pos: r.li.pos(name.off), Comment: r.leadingComment(prev, name.off)}
		locs[name.text] = loc
		t.Locations = append(t.Locations, loc)
		k++
		if toks[k].is("{") {
			close := matching(toks, k)
			if close < 0 || close >= end {
				return 0, r.errAt(toks[k], "unbalanced '{' in the invariant of %s", name.text)
			}
			// `{ inv ; rate }` gives an exponential rate (UPPAAL SMC).
			for j := k + 1; j < close; j++ {
				if toks[j].is(";") {
					return 0, r.errAt(toks[j], "exponential rates (UPPAAL SMC) are not supported")
				}
				if toks[j].kind == tPunct && (toks[j].text == "(" || toks[j].text == "[" || toks[j].text == "{") {
					j = matching(toks, j)
				}
			}
			loc.Invariant = r.li.label(toks[k].end, toks[close].off)
			loc.Invariant.S = oldConjunction(loc.Invariant.S)
			k = close + 1
		}
		prev = toks[k-1].end
		switch {
		case toks[k].is(","):
			k++
		case toks[k].is(";"):
			return k, nil
		default:
			return 0, r.errAt(toks[k], "process %s: expected ',' or ';' after location %s, found %s", t.Name, name.text, describe(toks[k]))
		}
	}
}

// locFlags reads `commit a, b;` or `urgent c;`.
func (r *xtaReader) locFlags(t *model.FileTemplate, locs map[string]*model.FileLocation, kind string, k, end int) (int, error) {
	toks := r.toks
	for {
		name := toks[k]
		if name.kind != tIdent {
			return 0, r.errAt(name, "process %s: expected a location name after '%s', found %s", t.Name, kind, describe(name))
		}
		loc := locs[name.text]
		if loc == nil {
			return 0, r.errAt(name, "no location %s in process %s", name.text, t.Name)
		}
		if kind == "commit" {
			loc.Committed = true
		} else {
			loc.Urgent = true
		}
		k++
		switch {
		case toks[k].is(","):
			k++
		case toks[k].is(";"):
			return k, nil
		default:
			return 0, r.errAt(toks[k], "process %s: expected ',' or ';', found %s", t.Name, describe(toks[k]))
		}
	}
}

func (r *xtaReader) initLoc(t *model.FileTemplate, locs map[string]*model.FileLocation, k, end int) (int, error) {
	toks := r.toks
	name := toks[k]
	if name.kind != tIdent {
		return 0, r.errAt(name, "process %s: expected a location name after 'init', found %s", t.Name, describe(name))
	}
	loc := locs[name.text]
	if loc == nil {
		return 0, r.errAt(name, "no location %s in process %s", name.text, t.Name)
	}
	loc.Initial = true
	if !toks[k+1].is(";") {
		return 0, r.errAt(toks[k+1], "expected ';' after init %s, found %s", name.text, describe(toks[k+1]))
	}
	return k + 1, nil
}

// transitions reads `a -> b { ... }, -> c { ... }, b -> a { ... };`. An
// item without a source (`-> c`) starts at the source of the previous
// item, as in UPPAAL's grammar; `-u->` (uncontrollable, UPPAAL TIGA) is an
// ordinary edge for model checking.
func (r *xtaReader) transitions(t *model.FileTemplate, k, end int) (int, error) {
	toks := r.toks
	var from token
	prev := toks[k-1].end
	for {
		first := toks[k]
		if toks[k].kind == tIdent {
			from = toks[k]
			k++
		} else if from.kind != tIdent {
			return 0, r.errAt(toks[k], "process %s: expected a location name, found %s", t.Name, describe(toks[k]))
		}
		if !toks[k].is("->") && !toks[k].is("-u->") {
			return 0, r.errAt(toks[k], "process %s: expected '->', found %s", t.Name, describe(toks[k]))
		}
		to := toks[k+1]
		if to.kind != tIdent {
			return 0, r.errAt(to, "process %s: expected a location name after '->', found %s", t.Name, describe(to))
		}
		e := &model.FileEdge{
			Pos: r.li.pos(first.off), From: from.text, FromPos: r.li.pos(from.off), To: to.text, ToPos: r.li.pos(to.off),
			Comment: r.leadingComment(prev, first.off),
		}
		k += 2
		if !toks[k].is("{") {
			return 0, r.errAt(toks[k], "expected '{' after %s -> %s, found %s", from.text, to.text, describe(toks[k]))
		}
		close := matching(toks, k)
		if close < 0 || close >= end {
			return 0, r.errAt(toks[k], "unbalanced '{' in the edge %s -> %s", from.text, to.text)
		}
		if err := r.edgeBody(e, k+1, close); err != nil {
			return 0, err
		}
		t.Edges = append(t.Edges, e)
		k = close + 1
		prev = toks[close].end
		switch {
		case toks[k].is(","):
			k++
		case toks[k].is(";"):
			return k, nil
		default:
			return 0, r.errAt(toks[k], "process %s: expected ',' or ';' after an edge, found %s", t.Name, describe(toks[k]))
		}
	}
}

// edgeBody reads `select ...; guard ...; sync ...; assign ...;`.
func (r *xtaReader) edgeBody(e *model.FileEdge, k, close int) error {
	toks := r.toks
	seen := map[string]token{}
	for k < close {
		kw := toks[k]
		if old, dup := seen[kw.text]; dup {
			return r.errAt(kw, "second '%s' in one edge (the first is at %s)", kw.text, r.li.pos(old.off))
		}
		seen[kw.text] = kw
		switch kw.text {
		case "select", "guard", "sync", "assign":
		case "probability":
			return r.errAt(kw, "edge probabilities (UPPAAL SMC) are not supported")
		default:
			return r.errAt(kw, "expected select, guard, sync or assign, found %s", describe(kw))
		}
		semi, err := r.sectionEnd(k+1, close, kw.text)
		if err != nil {
			return err
		}
		text := r.li.label(toks[k].end, toks[semi].off)
		switch kw.text {
		case "select":
			e.Select = text
		case "guard":
			text.S = oldConjunction(text.S)
			e.Guard = text
		case "sync":
			e.Sync = text
		case "assign":
			e.Update = text
		}
		k = semi + 1
	}
	return nil
}

// query reads `query { formula }`.
func (r *xtaReader) query(i, prevEnd, n int) (*model.FileQuery, int, error) {
	toks := r.toks
	close := matching(toks, i+1)
	if close < 0 {
		return nil, 0, r.errAt(toks[i+1], "unbalanced '{' in query")
	}
	q := &model.FileQuery{Pos: r.li.pos(toks[i].off), Formula: r.li.label(toks[i+1].end, toks[close].off)}
	name, comment, expect := splitComment(r.leadingComment(prevEnd, toks[i].off))
	q.Name, q.Comment, q.Expect = name, comment, expect
	if q.Expect != "" {
		q.ExpectPos = q.Pos
	}
	if q.Name == "" {
		q.Name = defaultQueryName(n)
	}
	if q.Formula.IsEmpty() {
		return nil, 0, r.errAt(toks[i], "empty query")
	}
	return q, close, nil
}

// modelName is the model's name for a file: its base name without the
// extension.
func modelName(path string) string {
	b := filepath.Base(path)
	if ext := filepath.Ext(b); ext != "" && ext != b {
		b = strings.TrimSuffix(b, ext)
	}
	return b
}

// oldConjunction rewrites XTA 3.x guard and invariant lists `a, b` (a
// conjunction) into `a && b`. A top-level comma is a syntax error in the
// current syntax, so this never changes a current-syntax label. The comma
// and a following blank become `&&` (same length, positions unchanged);
// otherwise the rest of the line shifts by one column.
func oldConjunction(s string) string {
	toks, _, err := scan(s)
	if err != nil {
		return s
	}
	var commas []int
	for i := 0; toks[i].kind != tEOF; i++ {
		t := toks[i]
		if t.kind == tPunct && (t.text == "(" || t.text == "[" || t.text == "{") {
			if i = matching(toks, i); i < 0 {
				return s
			}
			continue
		}
		if t.is(",") {
			commas = append(commas, t.off)
		}
	}
	for k := len(commas) - 1; k >= 0; k-- {
		c := commas[k]
		if c+1 < len(s) && (s[c+1] == ' ' || s[c+1] == '\t') {
			s = s[:c] + "&&" + s[c+2:]
		} else {
			s = s[:c] + "&&" + s[c+1:]
		}
	}
	return s
}

// oldParams rewrites an XTA 3.x parameter list into the current syntax:
// groups are separated by ';', `const a, b` declares int constants, and
// other parameters are references (`int x, y` is `int &x, int &y`). It
// reports false (and leaves the list alone) when the list is in the current
// syntax, or names nothing where a name is due (the parser then reports
// that in the list as written). Each piece of the new list comes with the
// offset in s of the text it stands for (listPiece), so that errors in it
// are reported where the file has that text.
func oldParams(s string) (string, []listPiece, bool) {
	toks, _, err := scan(s)
	if err != nil {
		return s, nil, false
	}
	isOld := false
	for i := 0; toks[i].kind != tEOF; i++ {
		if toks[i].is(";") {
			isOld = true
		}
		if toks[i].is("const") && toks[i+1].kind == tIdent && !reservedHere(toks[i+1].text) &&
			(toks[i+2].is(",") || toks[i+2].is(")") || toks[i+2].is(";") || toks[i+2].is("[") || toks[i+2].kind == tEOF) {
			isOld = true
		}
	}
	if !isOld {
		return s, nil, false
	}
	var b strings.Builder
	var pieces []listPiece
	put := func(text string, src int) {
		pieces = append(pieces, listPiece{off: b.Len(), src: src})
		b.WriteString(text)
	}
	for _, group := range splitTop(toks, ";") {
		if len(group) == 0 {
			continue
		}
		var typ []token
		var names [][]token
		if group[0].is("const") {
			typ = []token{group[0], {text: "int", off: group[0].off}}
			names = splitTop(group[1:], ",")
		} else {
			// The type is everything before the first name: the tokens
			// up to the last identifier before the first ',' (or the end).
			parts := splitTop(group, ",")
			first := parts[0]
			if len(first) == 0 {
				// nothing before a ',' (`(,;)`): not a parameter list of
				// either syntax
				return s, nil, false
			}
			n := len(first) - 1
			for n > 0 && !(first[n].kind == tIdent) {
				n--
			}
			for n > 0 && first[n-1].is("&") {
				n--
			}
			typ = first[:n]
			names = append([][]token{first[n:]}, parts[1:]...)
		}
		if len(typ) == 0 {
			return s, nil, false
		}
		for _, nm := range names {
			if len(nm) == 0 {
				return s, nil, false
			}
			if b.Len() > 0 {
				put(", ", nm[0].off)
			}
			for k, t := range typ {
				if k > 0 {
					put(" ", t.off)
				}
				put(t.text, t.off)
			}
			put(" ", nm[0].off)
			if !typ[0].is("const") && !nm[0].is("&") {
				put("&", nm[0].off)
			}
			for _, t := range nm {
				put(t.text, t.off)
			}
		}
	}
	return b.String(), pieces, true
}

// listPiece is a piece of a rewritten parameter list: the bytes from off
// of the new list stand for the text at offset src of the old one.
type listPiece struct{ off, src int }

// splitTop splits tokens at sep outside brackets.
func splitTop(toks []token, sep string) [][]token {
	var out [][]token
	var cur []token
	depth := 0
	for _, t := range toks {
		if t.kind == tEOF {
			break
		}
		if t.kind == tPunct {
			switch t.text {
			case "(", "[", "{":
				depth++
			case ")", "]", "}":
				depth--
			}
		}
		if depth == 0 && t.is(sep) {
			out = append(out, cur)
			cur = nil
			continue
		}
		cur = append(cur, t)
	}
	return append(out, cur)
}

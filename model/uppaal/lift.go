package uppaal

import (
	"strconv"

	"github.com/tcheck/tcheck/model"
)

// Model parameters: tcheck's YAML format has `parameters:`, integer
// constants that `--set name=value` overrides (and sweep varies). UPPAAL has
// no such notion; a model's size and timing constants are declarations
// `const int N = 4;`, global, in the system declarations or local to a
// template (UPPAAL's Fischer demo declares k in the template). The importers
// lift those into File.Params: declarations at the top level of the global,
// system or a template's declarations, `const int`, every declarator initialised with an integer
// literal in int's range. A template's constant is lifted only when its name
// occurs nowhere outside that template (no other declaration, template,
// system line or query uses the word), so that making it global cannot
// change what any name refers to. Lifted declarations are blanked out
// (spaces, so every other position is unchanged); the compiler declares
// parameters as global int constants before the declarations, so the
// meaning is the same.

// liftParams lifts the constants of f into parameters. globalAt maps
// offsets of f.Declarations.S to file positions, systemAt those of
// f.System.S and tmplAt[i] those of f.Templates[i].Declarations.S.
func liftParams(f *model.File, globalAt, systemAt func(int) model.Pos, tmplAt []func(int) model.Pos) {
	f.Declarations.S, f.Params = liftConsts(f.Declarations.S, globalAt)
	// System declarations: a name the global declarations also declare
	// stays, for the checker to report.
	if toks, _, err := scan(f.System.S); err == nil {
		for _, d := range liftableDecls(toks, systemAt) {
			dup := false
			for _, l := range d {
				for _, p := range f.Params {
					dup = dup || p.Name == l.param.Name
				}
			}
			if dup {
				continue
			}
			f.System.S = blank(f.System.S, d[0].start, d[0].end)
			for _, l := range d {
				f.Params = append(f.Params, l.param)
			}
		}
	}
	for i, t := range f.Templates {
		toks, _, err := scan(t.Declarations.S)
		if err != nil {
			continue
		}
		decls := liftableDecls(toks, tmplAt[i])
		if len(decls) == 0 {
			continue
		}
		outside := map[string]bool{}
		for _, p := range f.Params {
			outside[p.Name] = true
		}
		g := &model.File{Declarations: f.Declarations, System: f.System, Queries: f.Queries}
		for j, u := range f.Templates {
			if j != i {
				g.Templates = append(g.Templates, u)
			}
		}
		eachText(g, func(t *model.Text) {
			toks, _, _ := scan(t.S)
			for _, tk := range toks {
				if tk.kind == tIdent {
					outside[tk.text] = true
				}
			}
		})
		// Lift the declarations whose names are all private to t.
		out := t.Declarations.S
		for _, d := range decls {
			ok := true
			for _, l := range d {
				if outside[l.param.Name] {
					ok = false
				}
			}
			if !ok {
				continue
			}
			out = blank(out, d[0].start, d[0].end)
			for _, l := range d {
				f.Params = append(f.Params, l.param)
			}
		}
		t.Declarations.S = out
	}
}

// intMin and intMax are the range of UPPAAL's (and tcheck's) int.
const (
	intMin = -32768
	intMax = 32767
)

// lifted is one constant lifted into a parameter.
type lifted struct {
	param      model.FileParam
	start, end int // span of the whole declaration in the text (blanked)
}

// liftConsts finds the liftable constant declarations at the top level of
// the declarations text s (positions via at, a map from offsets of s to
// file positions) and returns s with them blanked out, and the parameters.
// A declaration is lifted only when every declarator in it is liftable.
// Old XTA syntax `const N 5;` (no type, no '=') is lifted too.
func liftConsts(s string, at func(off int) model.Pos) (string, []model.FileParam) {
	toks, _, err := scan(s)
	if err != nil {
		return s, nil // the syntax parser reports it
	}
	var params []model.FileParam
	for _, d := range liftableDecls(toks, at) {
		s = blank(s, d[0].start, d[0].end)
		for _, l := range d {
			params = append(params, l.param)
		}
	}
	return s, params
}

// liftableDecls returns the liftable declarations among toks (each a list
// of declarators, the first with the declaration's span), without repeated
// names.
func liftableDecls(toks []token, at func(off int) model.Pos) [][]lifted {
	var out [][]lifted
	seen := map[string]bool{}
	depth := 0
	stmtStart := true
	for i := 0; i < len(toks) && toks[i].kind != tEOF; i++ {
		t := toks[i]
		if depth == 0 && stmtStart && t.is("const") {
			if l, next, ok := liftDecl(toks, i, at); ok {
				dup := false
				for _, p := range l {
					if seen[p.param.Name] {
						dup = true
					}
				}
				if !dup {
					for _, p := range l {
						seen[p.param.Name] = true
					}
					out = append(out, l)
					i = next
					stmtStart = true
					continue
				}
			}
		}
		stmtStart = false
		if t.kind == tPunct {
			switch t.text {
			case "{", "(", "[":
				depth++
			case "}", ")", "]":
				depth--
			}
			if (t.text == ";" || t.text == "}") && depth == 0 {
				stmtStart = true
			}
		}
	}
	return out
}

// liftDecl matches `const int A = 1, B = -2;` or old `const A 1;` at
// toks[i]; it returns the lifted declarators (all with the span of the
// whole declaration on the first) and the index of the ';'.
func liftDecl(toks []token, i int, at func(int) model.Pos) ([]lifted, int, bool) {
	start := toks[i].off
	j := i + 1
	old := true
	if toks[j].is("int") {
		old = false
		j++
	}
	var out []lifted
	for {
		if toks[j].kind != tIdent || !isIdent(toks[j].text) || reservedHere(toks[j].text) {
			return nil, 0, false
		}
		name, namePos := toks[j].text, at(toks[j].off)
		j++
		if toks[j].is("=") {
			j++
		} else if !old {
			return nil, 0, false
		}
		neg := false
		if toks[j].is("-") {
			neg = true
			j++
		}
		if toks[j].kind != tNumber {
			return nil, 0, false
		}
		v, err := strconv.ParseInt(toks[j].text, 10, 64)
		if err != nil {
			return nil, 0, false
		}
		if neg {
			v = -v
		}
		if v < intMin || v > intMax {
			return nil, 0, false
		}
		out = append(out, lifted{param: model.FileParam{Name: name, Value: v, Pos: namePos}})
		j++
		if toks[j].is(",") {
			j++
			continue
		}
		if !toks[j].is(";") {
			return nil, 0, false
		}
		out[0].start, out[0].end = start, toks[j].end
		return out, j, true
	}
}

// reservedHere reports words that cannot be a constant's name (so `const
// int` followed by a type keyword is not mistaken for old syntax).
func reservedHere(s string) bool {
	switch s {
	case "int", "bool", "clock", "chan", "void", "double", "string", "scalar",
		"urgent", "broadcast", "meta", "hybrid", "struct", "const":
		return true
	}
	return false
}

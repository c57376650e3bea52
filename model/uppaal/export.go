package uppaal

import (
	"fmt"
	"sort"
	"strings"

	"github.com/tcheck/tcheck/model"
	"github.com/tcheck/tcheck/model/syntax"
)

// uppaalReserved are words UPPAAL (libutap's keyword table, the reserved
// words of its documentation and its built-in declarations) does not take
// as identifiers but tcheck does. tcheck's own keywords cannot be
// identifiers, and words UPPAAL's grammar accepts as names anyway (A, E, U,
// W, R, M, sup, inf, simulation) are left out; `abs` is a built-in of both.
var uppaalReserved = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`
		select guard sync assign probability process state branchpoint init trans commit
		invariant location rate xor import before_update after_update progress gantt assert
		IO dynamic spawn exit query numOf foreach enum
		control control_t minE maxE minPr maxPr under imitate strategy simulate sat bounds
		Pmax Pr X loadStrategy saveStrategy
		fabs fmod fma fmax fmin fdim exp exp2 expm1 ln log log10 log2 log1p pow sqrt cbrt hypot
		sin cos tan asin acos atan atan2 sinh cosh tanh asinh acosh atanh erf erfc tgamma lgamma
		ceil floor trunc round fint ldexp ilogb logb nextafter nexttoward copysign fpclassify
		isfinite isinf isnan isnormal signbit isunordered random random_arcsine random_beta
		random_gamma random_normal random_poisson random_tri random_weibull
		INT8_MIN INT8_MAX UINT8_MAX INT16_MIN INT16_MAX UINT16_MAX INT32_MIN INT32_MAX
		int8_t uint8_t int16_t uint16_t int32_t FLT_MIN FLT_MAX DBL_MIN DBL_MAX
		M_PI M_PI_2 M_PI_4 M_E M_LOG2E M_LOG10E M_LN2 M_LN10 M_1_PI M_2_PI M_2_SQRTPI
		M_SQRT2 M_SQRT1_2`) {
		m[w] = true
	}
	return m
}()

// Renaming is one identifier renamed for UPPAAL.
type Renaming struct {
	From, To string
}

// ForUPPAAL returns a copy of f that UPPAAL accepts, and the renamings it
// made: identifiers UPPAAL reserves (uppaalReserved: a location called
// init, a clock called rate) are renamed everywhere — declarations, labels,
// the system, location and template names, parameters and queries — to a
// fresh name (init becomes Init; otherwise the capitalised word, with `_`
// appended while taken); calls of tcheck's built-ins min(a, b) and max(a,
// b), which UPPAAL lacks, become ((a) <? (b)) and ((a) >? (b)); and the
// blanks lifted parameters left in the declarations are removed. The
// renaming is global (one new name per old name), so it cannot change
// which declaration a name refers to. f is not modified.
func ForUPPAAL(f *model.File) (*model.File, []Renaming) {
	g := Tidy(f)
	used := map[string]bool{}
	eachText(g, func(t *model.Text) {
		toks, _, _ := scan(t.S)
		for i, tk := range toks {
			if tk.kind == tIdent && !blockWord(toks, i) {
				used[tk.text] = true
			}
		}
	})
	eachName(g, func(s *string) { used[*s] = true })
	var reserved []string
	for w := range used {
		if uppaalReserved[w] && !(model.IsPrelude(w) && !declares(g, w)) {
			// a name of tcheck's prelude that the model does not declare is
			// UPPAAL's own built-in, with the same meaning: kept as it is
			reserved = append(reserved, w)
		}
	}
	sort.Strings(reserved)
	ren := map[string]string{}
	var out []Renaming
	for _, w := range reserved {
		to := strings.ToUpper(w[:1]) + w[1:]
		for to == w || used[to] || uppaalReserved[to] || syntax.IsKeyword(to) {
			to += "_"
		}
		used[to] = true
		ren[w] = to
		out = append(out, Renaming{w, to})
	}
	builtin := map[string]bool{"min": !declares(g, "min"), "max": !declares(g, "max")}
	eachText(g, func(t *model.Text) { t.S = rewriteMinMax(renameIdents(t.S, ren), builtin) })
	eachName(g, func(s *string) {
		if to, ok := ren[*s]; ok {
			*s = to
		}
	})
	return g, out
}

// eachText calls fn on every code snippet of f.
func eachText(f *model.File, fn func(*model.Text)) {
	fn(&f.Declarations)
	for _, t := range f.Templates {
		fn(&t.Params)
		fn(&t.Declarations)
		for _, l := range t.Locations {
			fn(&l.Invariant)
		}
		for _, e := range t.Edges {
			fn(&e.Select)
			fn(&e.Guard)
			fn(&e.Sync)
			fn(&e.Update)
		}
	}
	fn(&f.System)
	for _, q := range f.Queries {
		fn(&q.Formula)
	}
}

// eachName calls fn on every name of f that is an identifier of the
// model's language: parameters, templates, locations, edge ends.
func eachName(f *model.File, fn func(*string)) {
	for i := range f.Params {
		fn(&f.Params[i].Name)
	}
	for _, t := range f.Templates {
		fn(&t.Name)
		for _, l := range t.Locations {
			fn(&l.Name)
		}
		for _, e := range t.Edges {
			fn(&e.From)
			fn(&e.To)
		}
	}
}

// blockWord reports whether toks[i] opens a progress measure or a Gantt
// chart (`progress {`, `gantt {` after the system line): UPPAAL's keywords
// there, not names to rename.
func blockWord(toks []token, i int) bool {
	t := toks[i]
	return (t.text == "progress" || t.text == "gantt") && i+1 < len(toks) && toks[i+1].text == "{"
}

// renameIdents replaces identifiers (outside comments) by their new names.
func renameIdents(s string, ren map[string]string) string {
	if len(ren) == 0 {
		return s
	}
	toks, _, err := scan(s)
	if err != nil {
		return s
	}
	var b strings.Builder
	last := 0
	for i, t := range toks {
		if to, ok := ren[t.text]; ok && t.kind == tIdent && !blockWord(toks, i) {
			b.WriteString(s[last:t.off])
			b.WriteString(to)
			last = t.end
		}
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// declares reports whether a declaration of f (global or of a template,
// or a template parameter) names name: a model that declares min or max
// shadows tcheck's built-in, and its calls are the model's own.
func declares(f *model.File, name string) bool {
	texts := []string{f.Declarations.S}
	for _, t := range f.Templates {
		texts = append(texts, t.Declarations.S)
		if ps, err := syntax.ParseParams(t.Params.S); err == nil {
			for _, p := range ps {
				if p.Name == name {
					return true
				}
			}
		}
	}
	for _, text := range texts {
		ds, err := syntax.ParseDecls(text)
		if err != nil {
			continue
		}
		for _, d := range ds {
			switch d := d.(type) {
			case *syntax.FuncDecl:
				if d.Name == name {
					return true
				}
			case *syntax.VarDecl:
				for _, n := range d.Names {
					if n.Name == name {
						return true
					}
				}
			case *syntax.TypedefDecl:
				for _, n := range d.Names {
					if n.Name == name {
						return true
					}
				}
			}
		}
	}
	return false
}

// rewriteMinMax replaces calls min(a, b) and max(a, b) of the built-ins
// (builtin[name]) by ((a) <? (b)) and ((a) >? (b)).
func rewriteMinMax(s string, builtin map[string]bool) string {
	toks, _, err := scan(s)
	if err != nil {
		return s
	}
	var b strings.Builder
	last := 0
	for i := 0; toks[i].kind != tEOF; i++ {
		t := toks[i]
		if t.kind != tIdent || !builtin[t.text] || !toks[i+1].is("(") || (i > 0 && toks[i-1].is(".")) {
			continue
		}
		close := matching(toks, i+1)
		if close < 0 {
			continue
		}
		args := splitTop(toks[i+2:close], ",")
		if len(args) != 2 || len(args[0]) == 0 || len(args[1]) == 0 {
			continue
		}
		op := "<?"
		if t.text == "max" {
			op = ">?"
		}
		a := s[args[0][0].off:args[0][len(args[0])-1].end]
		c := s[args[1][0].off:args[1][len(args[1])-1].end]
		b.WriteString(s[last:t.off])
		fmt.Fprintf(&b, "((%s) %s (%s))", rewriteMinMax(a, builtin), op, rewriteMinMax(c, builtin))
		last = toks[close].end
		i = close
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// Tidy returns a deep copy of f with its code tidied for writing: the
// blank lines that lifting constants into parameters and blanking out XTA
// processes left in the declarations (the importers keep them so that
// positions stay exact) are removed, as are trailing blanks on every line,
// runs of blank lines and the white space around each snippet.
func Tidy(f *model.File) *model.File {
	g := copyFile(f)
	// Lines that held lifted constants: what is left there is trimmed, and
	// a comment left alone names the constant it described.
	lines := map[int]string{}
	for _, p := range g.Params {
		lines[p.Pos.Line] = p.Name
	}
	texts := []*model.Text{&g.Declarations, &g.System}
	for _, t := range g.Templates {
		texts = append(texts, &t.Declarations)
	}
	for _, t := range texts {
		if len(g.Params) == 0 || t.Pos.File != g.Params[0].Pos.File {
			continue
		}
		ls := strings.Split(t.S, "\n")
		for k, l := range ls {
			name, ok := lines[t.Pos.Line+k]
			if !ok {
				continue
			}
			l = strings.TrimSpace(l)
			if strings.HasPrefix(l, "//") && !strings.Contains(l[2:], "//") && len(l) < len(ls[k]) {
				l = "// " + name + ": " + strings.TrimSpace(l[2:])
			}
			ls[k] = l
		}
		t.S = strings.Join(ls, "\n")
	}
	code := map[*model.Text]bool{&g.Declarations: true, &g.System: true}
	for _, t := range g.Templates {
		code[&t.Declarations] = true
	}
	eachText(g, func(t *model.Text) {
		if code[t] {
			t.S = tidyCode(t.S)
			return
		}
		// Labels and formulas: white space at the start of a line is
		// not indentation worth keeping.
		lines := strings.Split(t.S, "\n")
		for i, l := range lines {
			lines[i] = strings.TrimSpace(l)
		}
		t.S = tidyCode(strings.Join(lines, "\n"))
	})
	return g
}

// tidyCode removes trailing blanks on each line, runs of blank lines and
// leading and trailing blank lines; a one-line snippet loses the blanks
// around it.
func tidyCode(s string) string {
	var out []string
	blankRun := false
	for _, l := range strings.Split(s, "\n") {
		l = strings.TrimRight(l, " \t\r")
		if l == "" {
			if blankRun || len(out) == 0 {
				continue
			}
			blankRun = true
		} else {
			blankRun = false
		}
		out = append(out, l)
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	if len(out) > 0 {
		out[0] = strings.TrimLeft(out[0], " \t")
	}
	return strings.Join(out, "\n")
}

// copyFile copies f deeply (the code snippets are values).
func copyFile(f *model.File) *model.File {
	g := *f
	g.Params = append([]model.FileParam(nil), f.Params...)
	g.Templates = nil
	for _, t := range f.Templates {
		tc := *t
		tc.Locations, tc.Edges = nil, nil
		for _, l := range t.Locations {
			lc := *l
			tc.Locations = append(tc.Locations, &lc)
		}
		for _, e := range t.Edges {
			ec := *e
			tc.Edges = append(tc.Edges, &ec)
		}
		g.Templates = append(g.Templates, &tc)
	}
	g.Queries = nil
	for _, q := range f.Queries {
		qc := *q
		g.Queries = append(g.Queries, &qc)
	}
	return &g
}

// FormatYAML prints f in tcheck's YAML format (tidied, see Tidy).
func FormatYAML(f *model.File) []byte { return model.FormatYAML(Tidy(f)) }

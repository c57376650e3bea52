package model

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/tcheck/tcheck/model/syntax"
)

// formulaCompiler resolves what only queries may use: process members
// (`P.loc`, `P(i).x`, `P.var`) and the deadlock predicate.
type formulaCompiler struct {
	c *compiler
	// srcs holds the text of the formula being compiled and of each of
	// its subexpressions (exprStrings), set by the outermost formula call
	srcs map[syntax.Expr]string
}

// src returns the text of x, a subexpression of the formula being
// compiled.
func (fc *formulaCompiler) src(x syntax.Expr) string {
	if s, ok := fc.srcs[x]; ok {
		return s
	}
	return exprString(x)
}

func (n *Network) queryCompiler(src Text) (*formulaCompiler, *ctx, error) {
	st := n.state()
	if st == nil {
		return nil, nil, &Error{Pos: src.Pos, Msg: "the network was not compiled from a model file"}
	}
	c := &compiler{file: st.file, net: n, st: st, text: src, resetsOf: map[[2]int][]int{}, interrupt: st.interrupt}
	fc := &formulaCompiler{c: c}
	return fc, &ctx{sc: newScope(st.global), query: fc}, nil
}

// CompileFormula compiles a state formula of a query: boolean combinations
// of location tests (P.loc, P(i).loc), data expressions (including calls of
// side-effect-free functions and process variables P.v), clock constraints
// (x ~ e, x - y ~ e over global and process clocks), deadlock, and
// forall/exists over bounded types, expanded here so that P(i) names a
// concrete process. Subformulas without clocks and deadlock collapse into
// single FData nodes. src maps the positions of e to the file.
func (n *Network) CompileFormula(e syntax.Expr, src Text) (*Formula, error) {
	fc, cx, err := n.queryCompiler(src)
	if err != nil {
		return nil, err
	}
	f, err := fc.formula(cx, e)
	if fc.c.halted {
		return nil, ErrInterrupted
	}
	return f, err
}

// CompileTerm compiles an expression of a sup/inf query: a clock (global or
// P.x) or a side-effect-free data expression.
func (n *Network) CompileTerm(e syntax.Expr, src Text) (Term, error) {
	fc, cx, err := n.queryCompiler(src)
	if err != nil {
		return Term{}, err
	}
	t, err := fc.term(cx, e)
	if fc.c.halted {
		return Term{}, ErrInterrupted
	}
	return t, err
}

func (fc *formulaCompiler) term(cx *ctx, e syntax.Expr) (Term, error) {
	c := fc.c
	switch unparen(e).(type) {
	case *syntax.Ident, *syntax.IndexExpr, *syntax.MemberExpr:
		if r, err := c.refExpr(cx, unparen(e)); err == nil && r.space == rsClock {
			if r.t.kind != kClock || !r.static {
				return Term{}, c.errAt(e.Position(), "%s must be a single clock with constant indices", r.name)
			}
			return Term{Clock: r.off, Src: exprString(e)}, nil
		}
	}
	if c.special(cx, e) {
		return Term{}, c.errAt(e.Position(), "%s is not a clock or a data expression", exprString(e))
	}
	d, err := c.data(cx, e)
	if err != nil {
		return Term{}, err
	}
	if d.effects {
		return Term{}, c.errAt(e.Position(), "%s has side effects", exprString(e))
	}
	return Term{Data: c.intExpr(d.fn), Src: exprString(e)}, nil
}

func (fc *formulaCompiler) formula(cx *ctx, x syntax.Expr) (*Formula, error) {
	c := fc.c
	if x == nil {
		return nil, &Error{Pos: c.text.Pos, Msg: "missing formula"}
	}
	if err := c.poll(); err != nil {
		return nil, err
	}
	if fc.srcs == nil {
		fc.srcs = exprStrings(x)
	}
	src := fc.src(x)
	if !c.special(cx, x) {
		d, err := c.data(cx, x)
		if err != nil {
			return nil, err
		}
		if d.effects {
			return nil, c.errAt(x.Position(), "the formula %s has side effects", src)
		}
		d = c.truth(d)
		if d.isConst {
			if d.val != 0 {
				return &Formula{Kind: FTrue, Src: src}, nil
			}
			return &Formula{Kind: FFalse, Src: src}, nil
		}
		return &Formula{Kind: FData, Data: c.boolExpr(d), Src: src}, nil
	}
	switch y := unparen(x).(type) {
	case *syntax.DeadlockExpr:
		return &Formula{Kind: FDeadlock, Src: src}, nil
	case *syntax.UnaryExpr:
		if y.Op == syntax.OpNot {
			a, err := fc.formula(cx, y.X)
			if err != nil {
				return nil, err
			}
			return not(a, src), nil
		}
	case *syntax.BinaryExpr:
		switch y.Op {
		case syntax.OpAnd, syntax.OpOr:
			// a chain of one operator (a && b && c, parsed as (a && b)
			// && c) is one junction of its operands: compiled level by
			// level, each level tested its whole subtree (special) and
			// copied the arguments of the level below (junction), time
			// quadratic in the chain's length
			var parts []*Formula
			for _, o := range fc.chainOperands(cx, y) {
				f, err := fc.formula(cx, o)
				if err != nil {
					return nil, err
				}
				parts = append(parts, f)
			}
			if y.Op == syntax.OpAnd {
				return junction(FAnd, src, parts...), nil
			}
			return junction(FOr, src, parts...), nil
		case syntax.OpImply:
			a, err := fc.formula(cx, y.X)
			if err != nil {
				return nil, err
			}
			b, err := fc.formula(cx, y.Y)
			if err != nil {
				return nil, err
			}
			return junction(FOr, src, not(a, "!("+a.Src+")"), b), nil
		case syntax.OpLT, syntax.OpLE, syntax.OpGT, syntax.OpGE, syntax.OpEQ, syntax.OpNE:
			cs, d, err := c.clockAtom(cx, y)
			if err != nil {
				return nil, err
			}
			if d != nil {
				if d.isConst {
					if d.val != 0 {
						return &Formula{Kind: FTrue, Src: src}, nil
					}
					return &Formula{Kind: FFalse, Src: src}, nil
				}
				return &Formula{Kind: FData, Data: c.boolExpr(d), Src: src}, nil
			}
			var args []*Formula
			for _, cn := range cs {
				args = append(args, &Formula{Kind: FClock, Clock: cn, Src: src})
			}
			return junction(FAnd, src, args...), nil
		}
	case *syntax.QuantExpr:
		if y.Op == syntax.OpSum {
			break
		}
		t, err := c.typeOf(cx.sc, y.Type)
		if err != nil {
			return nil, err
		}
		lo, hi, err := c.enumRange(t, y.Type.Pos, "quantifier range")
		if err != nil {
			return nil, err
		}
		kind := FAnd
		if y.Op == syntax.OpExists {
			kind = FOr
		}
		var parts []*Formula
		for v := lo; v <= hi; v++ {
			if c.work++; c.work > maxWork {
				return nil, c.errAt(y.Pos, "too many quantifier expansions (at most %d)", maxWork)
			}
			sc := newScope(cx.sc)
			sc.syms[y.Var] = &symbol{name: y.Var, kind: symConst, t: t.withConst(true), vals: []int64{v}}
			b, err := fc.formula(&ctx{sc: sc, query: fc}, y.Body)
			if err != nil {
				return nil, err
			}
			parts = append(parts, b)
		}
		return junction(kind, src, parts...), nil
	}
	return nil, c.errAt(x.Position(), "%s combines clocks or deadlock in a way formulas do not support (use &&, ||, !, imply, forall, exists over clock constraints)", src)
}

// chainOperands returns the operands of the chain of x's operator that x
// heads, left to right: the left operands that apply the same operator
// without parentheses are unfolded, without recursion, down to the
// longest leftmost part of the chain that mentions no clock and no
// deadlock, which stays one operand, a data expression, as it was when
// each level was compiled on its own.
func (fc *formulaCompiler) chainOperands(cx *ctx, x *syntax.BinaryExpr) []syntax.Expr {
	var spine []*syntax.BinaryExpr // x, then its left operands in the chain
	var e syntax.Expr = x
	for {
		b, ok := e.(*syntax.BinaryExpr)
		if !ok || b.Op != x.Op {
			break
		}
		spine = append(spine, b)
		e = b.X
	}
	// the chain's nodes from the bottom that mention neither (special is
	// true of a node when it is of its left or its right operand)
	first, mixed := e, fc.c.special(cx, e)
	for i := len(spine) - 1; i >= 0; i-- {
		if mixed || fc.c.special(cx, spine[i].Y) {
			out := append(make([]syntax.Expr, 0, i+2), first)
			for ; i >= 0; i-- {
				out = append(out, spine[i].Y)
			}
			return out
		}
		first = spine[i]
	}
	// nothing in the chain is special, and neither is x (the caller
	// compiles such an x as data): its two operands, not x itself
	return []syntax.Expr{x.X, x.Y}
}

// not negates f, folding constants and double negations.
func not(f *Formula, src string) *Formula {
	switch f.Kind {
	case FTrue:
		return &Formula{Kind: FFalse, Src: src}
	case FFalse:
		return &Formula{Kind: FTrue, Src: src}
	case FNot:
		return f.Args[0]
	}
	return &Formula{Kind: FNot, Args: []*Formula{f}, Src: src}
}

// junction builds an n-ary and/or, flattening nested nodes of the same
// kind and simplifying constants (true && φ = φ, false && φ = false, ...).
func junction(k FormulaKind, src string, args ...*Formula) *Formula {
	unit, zero := FTrue, FFalse // for FAnd
	if k == FOr {
		unit, zero = FFalse, FTrue
	}
	out := &Formula{Kind: k, Src: src}
	for _, f := range args {
		switch {
		case f.Kind == zero:
			return &Formula{Kind: zero, Src: src}
		case f.Kind == unit:
		case f.Kind == k:
			out.Args = append(out.Args, f.Args...)
		default:
			out.Args = append(out.Args, f)
		}
	}
	out.Args = mergeData(k, out.Args)
	switch len(out.Args) {
	case 0:
		return &Formula{Kind: unit, Src: src}
	case 1:
		return out.Args[0]
	}
	return out
}

// mergeData combines the FData arguments of an and/or into one FData node
// (placed where the first one was), so that the engine evaluates the
// discrete part once.
func mergeData(k FormulaKind, args []*Formula) []*Formula {
	var data []BoolExpr
	var srcs []string
	first := -1
	for i, a := range args {
		if a.Kind == FData {
			if first < 0 {
				first = i
			}
			data = append(data, a.Data)
			srcs = append(srcs, a.Src)
		}
	}
	if len(data) < 2 {
		return args
	}
	var merged BoolExpr
	if k == FAnd {
		merged = func(e *Env) bool {
			for _, d := range data {
				if !d(e) {
					return false
				}
			}
			return true
		}
	} else {
		merged = func(e *Env) bool {
			for _, d := range data {
				if d(e) {
					return true
				}
			}
			return false
		}
	}
	op := " && "
	if k == FOr {
		op = " || "
	}
	var out []*Formula
	for i, a := range args {
		switch {
		case i == first:
			out = append(out, &Formula{Kind: FData, Data: merged, Src: "(" + strings.Join(srcs, ")"+op+"(") + ")"})
		case a.Kind != FData:
			out = append(out, a)
		}
	}
	return out
}

// special reports whether x mentions a clock or deadlock (and so is not a
// plain data condition).
func (c *compiler) special(cx *ctx, x syntax.Expr) bool {
	dead := false
	var walk func(syntax.Expr)
	walk = func(x syntax.Expr) {
		switch x := x.(type) {
		case *syntax.DeadlockExpr:
			dead = true
		case *syntax.ParenExpr:
			walk(x.X)
		case *syntax.UnaryExpr:
			walk(x.X)
		case *syntax.BinaryExpr:
			walk(x.X)
			walk(x.Y)
		case *syntax.CondExpr:
			walk(x.Cond)
			walk(x.Then)
			walk(x.Else)
		case *syntax.QuantExpr:
			walk(x.Body)
		}
	}
	walk(x)
	return dead || c.mentionsClock(cx, x)
}

// ---------------------------------------------------------------------------
// Process members

// process resolves the X of `X.name` to a process: an identifier (a process
// without free parameters) or a call `P(args)` with constant arguments.
func (fc *formulaCompiler) process(cx *ctx, x syntax.Expr) (*procInfo, error) {
	c := fc.c
	st := c.st
	switch y := unparen(x).(type) {
	case *syntax.Ident:
		var set bool
		for _, pi := range st.procs {
			if pi.inst == y.Name {
				if len(pi.args) == 0 {
					return pi, nil
				}
				set = true
			}
		}
		if set {
			return nil, c.errAt(y.Pos, "%s is a set of processes: name one as %s(...)", y.Name, y.Name)
		}
		return nil, c.errAt(y.Pos, "unknown process %s", y.Name)
	case *syntax.CallExpr:
		id, ok := y.Fun.(*syntax.Ident)
		if !ok {
			break
		}
		args := make([]int64, len(y.Args))
		parts := make([]string, len(y.Args))
		sets := make([]int, len(y.Args))
		for i, a := range y.Args {
			e, err := c.data(cx, a)
			if err != nil {
				return nil, err
			}
			if !e.isConst {
				return nil, c.errAt(a.Position(), "a process argument must be a constant expression")
			}
			args[i], sets[i] = e.val, scalarOf(e)
			parts[i] = strconv.FormatInt(e.val, 10)
		}
		for _, pi := range st.procs {
			if pi.inst == id.Name && slices.Equal(pi.args, args) {
				// A parameter of a scalar set takes only a value of the
				// set, as in the model (scalar.go): P(0) would name one
				// member, which no permutation of the set preserves.
				for i, set := range pi.argSets {
					if set != 0 && sets[i] != set {
						return nil, c.errAt(y.Args[i].Position(), "%s(%s) names one member of the scalar set %s: a query reaches members of a scalar set only through a variable of the set, as in forall (i : %s) %s(i)",
							id.Name, strings.Join(parts, ","), c.net.Scalars[set-1].Name, c.net.Scalars[set-1].Name, id.Name)
					}
					if set == 0 && sets[i] != 0 {
						return nil, c.errAt(y.Args[i].Position(), "a scalar value cannot be used as an integer argument of %s", id.Name)
					}
				}
				return pi, nil
			}
		}
		return nil, c.errAt(y.Pos, "unknown process %s(%s)", id.Name, strings.Join(parts, ","))
	}
	return nil, c.errAt(x.Position(), "%s is not a process", exprString(x))
}

// isProcess reports whether x, the X of `X.name`, names a process (a
// location test or a process member) rather than a struct: a call
// `P(args)`, or a name of a process (without free parameters, or of a set
// of processes) or of nothing declared (an unknown process, for the
// message). Any other X is a struct value (`s.a`, `P.s.a`, `m[i].c`).
func (fc *formulaCompiler) isProcess(cx *ctx, x syntax.Expr) bool {
	switch y := unparen(x).(type) {
	case *syntax.CallExpr:
		return true
	case *syntax.Ident:
		for _, pi := range fc.c.st.procs {
			if pi.inst == y.Name {
				return true
			}
		}
		return cx.sc.lookup(y.Name) == nil
	}
	return false
}

// member compiles `P.name`: a location test or the value of a process
// variable (or parameter).
func (fc *formulaCompiler) member(cx *ctx, x *syntax.MemberExpr) (*cexpr, error) {
	c := fc.c
	pi, err := fc.process(cx, x.X)
	if err != nil {
		return nil, err
	}
	if li, ok := pi.locs[x.Name]; ok {
		proc, loc := pi.proc.Index, int32(li)
		return &cexpr{t: boolType, lo: 0, hi: 1, pos: x.Pos, fn: func(e *Env) int32 { return b2i(e.Locs[proc] == loc) }}, nil
	}
	r, err := fc.memberRef(cx, x)
	if err != nil {
		return nil, err
	}
	return c.refValue(r, x.Pos), nil
}

// memberRef resolves `P.name` to a variable, constant or clock of process P.
func (fc *formulaCompiler) memberRef(cx *ctx, x *syntax.MemberExpr) (*ref, error) {
	c := fc.c
	pi, err := fc.process(cx, x.X)
	if err != nil {
		return nil, err
	}
	sym, ok := pi.scope.syms[x.Name]
	if !ok || sym.kind == symType || sym.kind == symFunc {
		if _, isLoc := pi.locs[x.Name]; isLoc {
			return nil, c.errAt(x.NamePos, "%s.%s is a location, not a variable", pi.proc.Name, x.Name)
		}
		return nil, c.errAt(x.NamePos, "no location or variable '%s' in process %s (template %s)", x.Name, pi.proc.Name, pi.proc.Template)
	}
	r, err := c.symRef(cx, sym, x.NamePos)
	if err != nil {
		return nil, err
	}
	r.name = pi.proc.Name + "." + x.Name
	r.readonly = true
	return r, nil
}

// memberFunc resolves `P.f` of a call `P.f(args)` to a function of
// process P (a function of its template, whose local variables are P's):
// UPPAAL queries may call them. A function with side effects is refused
// where the query checks for effects, as any other.
func (fc *formulaCompiler) memberFunc(cx *ctx, x *syntax.MemberExpr) (*symbol, error) {
	c := fc.c
	pi, err := fc.process(cx, x.X)
	if err != nil {
		return nil, err
	}
	sym, ok := pi.scope.syms[x.Name]
	if !ok || sym.kind != symFunc {
		return nil, c.errAt(x.NamePos, "no function %s in process %s (template %s)", x.Name, pi.proc.Name, pi.proc.Template)
	}
	return sym, nil
}

// bareName and bareRef are hooks for names that are not declared; queries
// have none beyond the model's declarations.
func (fc *formulaCompiler) bareName(*ctx, *syntax.Ident) (*cexpr, bool, error) {
	return nil, false, nil
}
func (fc *formulaCompiler) bareRef(*ctx, *syntax.Ident) (*ref, bool, error) { return nil, false, nil }

// ---------------------------------------------------------------------------
// Lookups for the query layer and trace printers.

// ProcessByName returns the process called name ("Observer", "Proc(1)",
// "Broadcast(0,2)"), or nil.
func (n *Network) ProcessByName(name string) *Process {
	for _, p := range n.Procs {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// LocationIndex returns the index of the location called name, or -1.
func (p *Process) LocationIndex(name string) int {
	for i := range p.Locations {
		if p.Locations[i].Name == name {
			return i
		}
	}
	return -1
}

// ClockIndex returns the index of the clock called name ("t",
// "Process.x"), or -1.
func (n *Network) ClockIndex(name string) int {
	for i, c := range n.Clocks {
		if c.Name == name {
			return i
		}
	}
	return -1
}

// VarIndex returns the slot of the variable called name ("alive",
// "buff[0][1][2]", "Observer.cnt"), or -1.
func (n *Network) VarIndex(name string) int {
	for i, v := range n.Vars {
		if v.Name == name {
			return i
		}
	}
	return -1
}

// LocationName returns "Proc(1).wait" for a process and location index.
func (n *Network) LocationName(proc, loc int) string {
	if proc < 0 || proc >= len(n.Procs) {
		return fmt.Sprintf("?%d.%d", proc, loc)
	}
	p := n.Procs[proc]
	if loc < 0 || loc >= len(p.Locations) {
		return fmt.Sprintf("%s.?%d", p.Name, loc)
	}
	return p.Name + "." + p.Locations[loc].Name
}

// Constant returns the value of a global scalar constant or parameter of
// the model (ok is false for anything else): queries print the constants
// they mention, such as U in `t <= U`, with their values.
func (n *Network) Constant(name string) (v int64, ok bool) {
	st := n.state()
	if st == nil {
		return 0, false
	}
	sym := st.global.lookup(name)
	if sym == nil || sym.kind != symConst || len(sym.vals) != 1 || sym.t == nil || !sym.t.isData() {
		return 0, false
	}
	return sym.vals[0], true
}

package model

import (
	"fmt"
	"math"

	"github.com/tcheck/tcheck/model/syntax"
)

// function is a compiled user function. Its frame holds the by-value
// parameters, the reference parameters (as unified addresses) and the local
// variables; a call reserves the frame on Env's stack, evaluates the
// arguments into it, switches the frame pointer, runs the body and pops.
type function struct {
	name      string
	res       *typ
	params    []fparam
	frameSize int
	body      func(*Env) ctl
	effects   bool   // assigns global state (directly or by a call) or resets clocks
	writesRef []bool // writesRef[i]: assigns through reference parameter i
	resets    bool   // resets clocks: only callable from updates
	compiling bool
	pos       Pos
	text      Text
	// decl and names let a call with constant arguments compile the body
	// again with the parameters bound to them (specialise); names is the
	// declaring scope as it stood then, flattened, so that later
	// declarations cannot change what a name in the body refers to.
	decl  *syntax.FuncDecl
	names *scope
	// specs are the specialisations by argument values (nil: the body did
	// not compile with them; calls use the general function).
	specs map[string]*special
}

// special is a function compiled for constant arguments: the parameters
// are constants there, so indices fold to fixed addresses and no argument
// is copied into a frame. A body that is one return statement is a plain
// expression (ret), evaluated without a frame.
type special struct {
	fn  *function
	ret func(*Env) int32 // the returned value, checked as return does; nil: call fn.body
}

type fparam struct {
	name string
	t    *typ
	ref  bool
	off  int
	pos  syntax.Pos
}

type ctl uint8

const (
	cNext ctl = iota
	cBreak
	cCont
	cRet
)

// stmtCtx is the state of compiling one function body.
type stmtCtx struct {
	fn    *function
	loops int
}

// funcDecl compiles a function declaration in scope sc and declares it.
func (c *compiler) funcDecl(sc *scope, d *syntax.FuncDecl) error {
	if err := c.declare(sc, d.Name, d.Pos); err != nil {
		return err
	}
	res, err := c.typeOf(sc, d.Result)
	if err != nil {
		return err
	}
	if res.hasStruct() {
		return c.errAt(d.Result.Pos, "function %s returns a struct: functions returning structs are not supported (pass a reference parameter T &result instead)", d.Name)
	}
	if res.kind != kVoid && !res.isData() {
		return c.errAt(d.Result.Pos, "function %s must return int, bool or void, not %s", d.Name, res)
	}
	f := &function{name: d.Name, res: res, pos: c.text.At(d.Pos), text: c.text, decl: d}
	sym := &symbol{name: d.Name, kind: symFunc, fn: f, pos: f.pos}
	sc.syms[d.Name] = sym
	f.names = flatten(sc)
	if d.Body == nil {
		return c.errAt(d.Pos, "function %s has no body", d.Name)
	}
	fsc := newScope(sc)
	fsc.fn = f
	for _, p := range d.Params {
		t, err := c.paramType(fsc, p)
		if err != nil {
			return err
		}
		if t.base().kind == kClock || t.base().kind == kChan {
			return c.errAt(p.Pos, "%s parameters of functions are not supported", t.base())
		}
		if err := c.declare(fsc, p.Name, p.Pos); err != nil {
			return err
		}
		fp := fparam{name: p.Name, t: t, ref: p.Ref, off: f.frameSize, pos: p.Pos}
		s := &symbol{name: p.Name, kind: symVar, t: t, off: f.frameSize, pos: c.text.At(p.Pos)}
		if p.Ref {
			s.where = stRef
			s.refParam, s.owner = len(f.params)+1, f
			f.frameSize++
		} else {
			s.where = stFrame
			f.frameSize += t.count()
		}
		fsc.syms[p.Name] = s
		f.params = append(f.params, fp)
		f.writesRef = append(f.writesRef, false)
	}
	f.compiling = true
	sx := &stmtCtx{fn: f}
	body, err := c.block(fsc, sx, d.Body)
	f.compiling = false
	if err != nil {
		return err
	}
	f.body = body
	if f.frameSize > c.st.frameSize {
		c.st.frameSize = f.frameSize
	}
	c.st.frameTotal += f.frameSize
	return nil
}

// flatten returns one scope holding what sc resolves now (the innermost
// symbol of each name).
func flatten(sc *scope) *scope {
	n := 0
	for s := sc; s != nil; s = s.parent {
		n += len(s.syms)
	}
	out := &scope{syms: make(map[string]*symbol, n)}
	for s := sc; s != nil; s = s.parent {
		for name, sym := range s.syms {
			if _, ok := out.syms[name]; !ok {
				out.syms[name] = sym
			}
		}
	}
	return out
}

// specialiseCalls enables specialise (tests compare with it off).
var specialiseCalls = true

// Bounds on the specialisations: per function, and per compiler.
const (
	maxSpecsPerFunc = 64
	maxSpecs        = 4096
)

// specialise returns f compiled with its parameters bound to the constant
// vals, or nil where that is not possible: a parameter that is not a
// plain int or bool by value (a reference, an array, a struct, a scalar
// set, whose symmetry must not meet constants), a body that does not
// compile so (it assigns a parameter; constant folding meets an error
// that the general function would raise only if it ran there), or a
// bound reached. The specialisation computes what the general function
// computes, with the same runtime errors at the same positions: every
// expression folded was folded without error, and the rest is compiled
// as before.
func (c *compiler) specialise(f *function, vals []int64) *special {
	if !specialiseCalls || f.decl == nil || f.compiling || len(vals) == 0 {
		return nil
	}
	for _, p := range f.params {
		if p.ref || p.t.kind == kArray || p.t.hasStruct() || p.t.scalar != 0 || !p.t.isData() {
			return nil
		}
	}
	key := fmt.Sprint(vals)
	if sp, ok := f.specs[key]; ok {
		return sp
	}
	if len(f.specs) >= maxSpecsPerFunc || c.nspecs >= maxSpecs {
		return nil
	}
	if f.specs == nil {
		f.specs = map[string]*special{}
	}
	c.nspecs++
	// a specialisation is kept for every call with these values: it is
	// compiled as evaluated, even for a call never evaluated
	// (compiler.dead), whose folding errors would otherwise be dropped
	text, work, dead := c.text, c.work, c.dead
	defer func() { c.text, c.work, c.dead = text, work, dead }()
	c.dead = 0
	c.text = f.text
	fsc := newScope(f.names)
	g := &function{name: f.name, res: f.res, pos: f.pos, text: f.text}
	fsc.fn = g
	for i, p := range f.params {
		fsc.syms[p.name] = &symbol{name: p.name, kind: symConst, t: p.t.withConst(true), vals: []int64{vals[i]}, pos: c.text.At(p.pos)}
	}
	f.compiling = true
	defer func() { f.compiling = false }()
	sp := &special{fn: g}
	if b := f.decl.Body; len(b.Stmts) == 1 && f.res.kind != kVoid {
		if r, ok := b.Stmts[0].(*syntax.ReturnStmt); ok && r.Value != nil {
			v, err := c.data(&ctx{sc: newScope(fsc)}, r.Value)
			if err != nil || v.effects {
				f.specs[key] = nil
				return nil
			}
			vf := v.fn
			if f.res.kind == kBool {
				sp.ret = func(e *Env) int32 { return b2i(vf(e) != 0) }
			} else {
				lo, hi, pos, name := int32(f.res.lo), int32(f.res.hi), c.posStr(r.Pos), f.name
				sp.ret = func(e *Env) int32 {
					r := vf(e)
					if r < lo || r > hi {
						e.fail(pos, "return value %d of %s out of range [%d,%d]", r, name, lo, hi)
						r = 0
					}
					return r
				}
			}
			f.specs[key] = sp
			c.noteSpecial()
			return sp
		}
	}
	body, err := c.block(fsc, &stmtCtx{fn: g}, f.decl.Body)
	if err != nil || g.effects != f.effects || g.resets != f.resets {
		f.specs[key] = nil
		return nil
	}
	g.body = body
	if c.st != nil {
		c.st.frameSize = max(c.st.frameSize, g.frameSize)
		c.st.frameTotal += g.frameSize
	}
	f.specs[key] = sp
	c.noteSpecial()
	return sp
}

// noteSpecial counts a specialisation made (netState.specials).
func (c *compiler) noteSpecial() {
	if c.st != nil {
		c.st.specials++
	}
}

// paramType returns the type of a parameter including its array dimensions.
func (c *compiler) paramType(sc *scope, p *syntax.Param) (*typ, error) {
	t, err := c.typeOf(sc, p.Type)
	if err != nil {
		return nil, err
	}
	if t.kind == kVoid {
		return nil, c.errAt(p.Pos, "parameter %s cannot be void", p.Name)
	}
	return c.arrayOf(sc, t, p.Dims)
}

func (c *compiler) block(sc *scope, sx *stmtCtx, b *syntax.BlockStmt) (func(*Env) ctl, error) {
	bsc := newScope(sc)
	var list []func(*Env) ctl
	for _, s := range b.Stmts {
		f, err := c.stmt(bsc, sx, s)
		if err != nil {
			return nil, err
		}
		if f != nil {
			list = append(list, f)
		}
	}
	switch len(list) {
	case 0:
		return func(*Env) ctl { return cNext }, nil
	case 1:
		return list[0], nil
	}
	return func(e *Env) ctl {
		for _, s := range list {
			if r := s(e); r != cNext {
				return r
			}
			if e.Err != nil {
				return cRet
			}
		}
		return cNext
	}, nil
}

func (c *compiler) stmt(sc *scope, sx *stmtCtx, s syntax.Stmt) (func(*Env) ctl, error) {
	cx := &ctx{sc: sc}
	switch s := s.(type) {
	case *syntax.BlockStmt:
		return c.block(sc, sx, s)
	case *syntax.EmptyStmt:
		return nil, nil
	case *syntax.DeclStmt:
		return c.localDecl(sc, sx, s.Decl)
	case *syntax.ExprStmt:
		f, err := c.effectExpr(cx, sx.fn, s.X)
		if err != nil {
			return nil, err
		}
		return func(e *Env) ctl { f(e); return cNext }, nil
	case *syntax.IfStmt:
		k, err := c.data(cx, s.Cond)
		if err != nil {
			return nil, err
		}
		c.noteEffects(sx.fn, k.effects)
		then, err := deadIf(c, k.isConst && k.val == 0, func() (func(*Env) ctl, error) { return c.stmtOrEmpty(sc, sx, s.Then) })
		if err != nil {
			return nil, err
		}
		els, err := deadIf(c, k.isConst && k.val != 0, func() (func(*Env) ctl, error) { return c.stmtOrEmpty(sc, sx, s.Else) })
		if err != nil {
			return nil, err
		}
		if k.isConst {
			if k.val != 0 {
				return then, nil
			}
			return els, nil
		}
		kf := k.fn
		return func(e *Env) ctl {
			if kf(e) != 0 {
				return then(e)
			}
			return els(e)
		}, nil
	case *syntax.WhileStmt:
		k, err := c.data(cx, s.Cond)
		if err != nil {
			return nil, err
		}
		c.noteEffects(sx.fn, k.effects)
		sx.loops++
		body, err := c.stmtOrEmpty(sc, sx, s.Body)
		sx.loops--
		if err != nil {
			return nil, err
		}
		kf, pos := k.fn, c.posStr(s.Pos)
		return func(e *Env) ctl {
			for e.step(pos) && kf(e) != 0 {
				switch body(e) {
				case cBreak:
					return cNext
				case cRet:
					return cRet
				}
			}
			return cNext
		}, nil
	case *syntax.DoWhileStmt:
		k, err := c.data(cx, s.Cond)
		if err != nil {
			return nil, err
		}
		c.noteEffects(sx.fn, k.effects)
		sx.loops++
		body, err := c.stmtOrEmpty(sc, sx, s.Body)
		sx.loops--
		if err != nil {
			return nil, err
		}
		kf, pos := k.fn, c.posStr(s.Pos)
		return func(e *Env) ctl {
			for e.step(pos) {
				switch body(e) {
				case cBreak:
					return cNext
				case cRet:
					return cRet
				}
				if kf(e) == 0 {
					break
				}
			}
			return cNext
		}, nil
	case *syntax.ForStmt:
		fsc := newScope(sc)
		fcx := &ctx{sc: fsc}
		var init, post []func(*Env) int32
		for _, x := range s.Init {
			f, err := c.effectExpr(fcx, sx.fn, x)
			if err != nil {
				return nil, err
			}
			init = append(init, f)
		}
		kf := func(*Env) int32 { return 1 }
		if s.Cond != nil {
			k, err := c.data(fcx, s.Cond)
			if err != nil {
				return nil, err
			}
			c.noteEffects(sx.fn, k.effects)
			kf = k.fn
		}
		for _, x := range s.Post {
			f, err := c.effectExpr(fcx, sx.fn, x)
			if err != nil {
				return nil, err
			}
			post = append(post, f)
		}
		sx.loops++
		body, err := c.stmtOrEmpty(fsc, sx, s.Body)
		sx.loops--
		if err != nil {
			return nil, err
		}
		pos := c.posStr(s.Pos)
		return func(e *Env) ctl {
			for _, f := range init {
				f(e)
			}
			for e.step(pos) && kf(e) != 0 {
				switch body(e) {
				case cBreak:
					return cNext
				case cRet:
					return cRet
				}
				// continue (cCont) runs the post expressions, as in C.
				for _, f := range post {
					f(e)
				}
			}
			return cNext
		}, nil
	case *syntax.RangeForStmt:
		t, err := c.typeOf(sc, s.Type)
		if err != nil {
			return nil, err
		}
		lo, hi, err := c.enumRange(t, s.Type.Pos, "loop range")
		if err != nil {
			return nil, err
		}
		fsc := newScope(sc)
		off := sx.fn.frameSize
		sx.fn.frameSize++
		fsc.syms[s.Var] = &symbol{name: s.Var, kind: symVar, where: stFrame, off: off, t: t.withConst(true), pos: c.text.At(s.VarPos)}
		sx.loops++
		body, err := c.stmtOrEmpty(fsc, sx, s.Body)
		sx.loops--
		if err != nil {
			return nil, err
		}
		pos := c.posStr(s.Pos)
		return func(e *Env) ctl {
			slot := e.fp + off
			// int64: a range ending at the largest int32 must not wrap.
			for v := lo; v <= hi && e.step(pos); v++ {
				e.frame[slot] = int32(v)
				switch body(e) {
				case cBreak:
					return cNext
				case cRet:
					return cRet
				}
			}
			return cNext
		}, nil
	case *syntax.ReturnStmt:
		f := sx.fn
		if s.Value == nil {
			if f.res.kind != kVoid {
				return nil, c.errAt(s.Pos, "function %s must return a value", f.name)
			}
			return func(*Env) ctl { return cRet }, nil
		}
		if f.res.kind == kVoid {
			return nil, c.errAt(s.Pos, "void function %s returns a value", f.name)
		}
		v, err := c.data(cx, s.Value)
		if err != nil {
			return nil, err
		}
		c.noteEffects(f, v.effects)
		vf := v.fn
		if f.res.kind == kBool {
			return func(e *Env) ctl { e.ret = b2i(vf(e) != 0); return cRet }, nil
		}
		lo, hi, pos, name := int32(f.res.lo), int32(f.res.hi), c.posStr(s.Pos), f.name
		return func(e *Env) ctl {
			r := vf(e)
			if r < lo || r > hi {
				e.fail(pos, "return value %d of %s out of range [%d,%d]", r, name, lo, hi)
				r = 0
			}
			e.ret = r
			return cRet
		}, nil
	case *syntax.BreakStmt:
		if sx.loops == 0 {
			return nil, c.errAt(s.Pos, "break outside a loop")
		}
		return func(*Env) ctl { return cBreak }, nil
	case *syntax.ContinueStmt:
		if sx.loops == 0 {
			return nil, c.errAt(s.Pos, "continue outside a loop")
		}
		return func(*Env) ctl { return cCont }, nil
	}
	return nil, c.errAt(s.Position(), "unsupported statement")
}

func (c *compiler) stmtOrEmpty(sc *scope, sx *stmtCtx, s syntax.Stmt) (func(*Env) ctl, error) {
	if s == nil {
		return func(*Env) ctl { return cNext }, nil
	}
	f, err := c.stmt(sc, sx, s)
	if err != nil || f != nil {
		return f, err
	}
	return func(*Env) ctl { return cNext }, nil
}

func (c *compiler) noteEffects(f *function, eff bool) {
	if f != nil && eff {
		f.effects = true
	}
}

// effectExpr compiles an expression evaluated for its effect: an
// assignment, a clock reset (in functions and updates), an increment or a
// call. f is the function being compiled (nil in edge updates).
func (c *compiler) effectExpr(cx *ctx, f *function, x syntax.Expr) (func(*Env) int32, error) {
	if a, ok := unparen(x).(*syntax.AssignExpr); ok {
		if r, err := c.refExpr(cx, a.LHS); err == nil && r.space == rsClock {
			act, err := c.reset(cx, r, a)
			if err != nil {
				return nil, err
			}
			if f != nil {
				f.effects, f.resets = true, true
			}
			return func(e *Env) int32 { act(e); return 0 }, nil
		}
	}
	v, err := c.expr(cx, x)
	if err != nil {
		return nil, err
	}
	if v.fn == nil {
		return nil, c.errAt(x.Position(), "%s is not a statement", exprString(x))
	}
	c.noteEffects(f, v.effects)
	return v.fn, nil
}

// reset compiles a clock reset x = e (only plain assignment; the value must
// be a non-negative integer).
func (c *compiler) reset(cx *ctx, r *ref, a *syntax.AssignExpr) (func(*Env), error) {
	if a.Op != syntax.OpAssign {
		return nil, c.errAt(a.Pos, "clock %s can only be reset with '=', not '%s'", r.name, a.Op)
	}
	if r.t.kind != kClock {
		return nil, c.errAt(a.Pos, "cannot assign to %s (%s)", r.name, kindDesc(r.t))
	}
	v, err := c.data(cx, a.RHS)
	if err != nil {
		return nil, err
	}
	if v.isConst && v.val < 0 {
		return nil, c.errAt(a.RHS.Position(), "clock %s reset to negative value %d", r.name, v.val)
	}
	if v.isConst && v.val > MaxClockConst {
		return nil, c.errAt(a.RHS.Position(), "clock %s reset to %d, out of range [0, %d]", r.name, v.val, MaxClockConst)
	}
	c.maxReset = max(c.maxReset, min(v.hi, MaxClockConst))
	pos := c.posStr(a.Pos)
	vf := v.fn
	idx := c.baseAddr(r)
	name := r.name
	return func(e *Env) {
		x := vf(e)
		if x < 0 {
			e.fail(pos, "clock %s reset to negative value %d", name, x)
			return
		}
		if x > MaxClockConst {
			e.fail(pos, "clock %s reset to %d, out of range [0, %d]", name, x, MaxClockConst)
			return
		}
		e.Resets = append(e.Resets, Reset{Clock: int(idx(e)), Value: x})
	}, nil
}

func unparen(x syntax.Expr) syntax.Expr {
	for {
		p, ok := x.(*syntax.ParenExpr)
		if !ok {
			return x
		}
		x = p.X
	}
}

// localDecl compiles a declaration inside a function body: typedefs,
// constants (folded when their initialiser is constant) and variables
// (frame slots initialised each time the declaration runs).
func (c *compiler) localDecl(sc *scope, sx *stmtCtx, d syntax.Decl) (func(*Env) ctl, error) {
	switch d := d.(type) {
	case *syntax.TypedefDecl:
		return nil, c.typedef(sc, d)
	case *syntax.VarDecl:
		base, err := c.typeOf(sc, d.Type)
		if err != nil {
			return nil, err
		}
		if k := base.kind; k == kClock || k == kChan || k == kVoid {
			return nil, c.errAt(d.Pos, "local %s variables are not supported", base)
		}
		var inits []func(*Env) ctl
		for _, dn := range d.Names {
			t, err := c.arrayOf(sc, base, dn.Dims)
			if err != nil {
				return nil, err
			}
			if err := c.declare(sc, dn.Name, dn.Pos); err != nil {
				return nil, err
			}
			var notConst error
			if base.constant && dn.Init != nil {
				// A constant with a constant initialiser is folded;
				// eagerly, so that a failing fold is said where the
				// constant is needed (the local then fails when it runs)
				vals, err := eagerly(c, func() ([]int64, error) { return c.constInit(&ctx{sc: sc}, t, dn.Init, dn.Name) })
				if err == nil {
					sc.syms[dn.Name] = &symbol{name: dn.Name, kind: symConst, t: t, vals: vals, pos: c.text.At(dn.Pos)}
					continue
				}
				notConst = err
			}
			off := sx.fn.frameSize
			sx.fn.frameSize += t.count()
			if sx.fn.frameSize > maxSlots {
				return nil, c.errAt(dn.Pos, "function %s has too many locals", sx.fn.name)
			}
			// The initialiser is compiled before the name is visible.
			init, err := c.localInit(&ctx{sc: sc}, sx.fn, t, off, dn)
			if err != nil {
				return nil, err
			}
			sc.syms[dn.Name] = &symbol{name: dn.Name, kind: symVar, where: stFrame, off: off, t: t, pos: c.text.At(dn.Pos), notConst: notConst}
			inits = append(inits, init)
		}
		return func(e *Env) ctl {
			for _, f := range inits {
				f(e)
			}
			return cNext
		}, nil
	}
	return nil, c.errAt(d.Position(), "unsupported local declaration")
}

// defaultValue is the initial value of a variable of base type b declared
// without an initialiser: 0, clamped into b's range (the lower bound of
// int[1,5], the upper bound of int[-5,-1]). UPPAAL's documentation does not
// say; see docs/uppaal.md for why tcheck chooses this.
func defaultValue(b *typ) int64 {
	return min(max(0, b.lo), b.hi)
}

// localInit compiles the initialisation of a local variable of type t at
// frame offset off: the initialiser's elements, or zeros.
func (c *compiler) localInit(cx *ctx, f *function, t *typ, off int, dn *syntax.Declarator) (func(*Env) ctl, error) {
	var elems []*cexpr
	if dn.Init != nil {
		var err error
		elems, err = c.flatInit(cx, t, dn.Init, dn.Name)
		if err != nil {
			return nil, err
		}
		for _, el := range elems {
			c.noteEffects(f, el.effects)
		}
	}
	n := t.count()
	ls := leaves(t)
	lo, hi, isBool := make([]int32, n), make([]int32, n), make([]bool, n)
	for k, l := range ls {
		lo[k], hi[k], isBool[k] = int32(l.lo), int32(l.hi), l.kind == kBool
	}
	pos, name := c.posStr(dn.Pos), dn.Name
	if elems == nil {
		defaults := make([]int32, n)
		for k, l := range ls {
			defaults[k] = int32(defaultValue(l))
		}
		return func(e *Env) ctl {
			copy(e.frame[e.fp+off:e.fp+off+n], defaults)
			return cNext
		}, nil
	}
	fns := make([]func(*Env) int32, len(elems))
	for i, el := range elems {
		fns[i] = el.fn
	}
	return func(e *Env) ctl {
		base := e.fp + off
		for i, f := range fns {
			v := f(e)
			if isBool[i] && v != 0 {
				v = 1
			}
			if v < lo[i] || v > hi[i] {
				e.fail(pos, "initial value %d of %s out of range [%d,%d]", v, name+slotPath(t, i), lo[i], hi[i])
				return cRet
			}
			e.frame[base+i] = v
		}
		return cNext
	}, nil
}

// flatInit checks an initialiser against type t and returns its scalar
// elements in row-major order.
func (c *compiler) flatInit(cx *ctx, t *typ, init syntax.Expr, name string) ([]*cexpr, error) {
	if _, ok := init.(*syntax.InitList); !ok && t.isAggregate() {
		// a whole struct or array of an equivalent type
		e, err := c.expr(cx, init)
		if err != nil {
			return nil, err
		}
		src := aggregateRef(e)
		if src == nil {
			if t.kind == kArray {
				return nil, c.errAt(init.Position(), "array %s needs an initialiser list {...}", name)
			}
			return nil, c.errAt(init.Position(), "struct %s needs an initialiser list {...} with one element per field, or a struct of its type", name)
		}
		if !equivalent(t, src.t) {
			return nil, c.errAt(init.Position(), "the initialiser %s of %s has type %s, not %s", src.name, name, src.t.withConst(false), t.withConst(false))
		}
		if src.effects {
			return nil, c.errAt(init.Position(), "the initialiser of %s has side effects", name)
		}
		return c.slotExprs(src, init.Position()), nil
	}
	if t.kind == kStruct {
		l := init.(*syntax.InitList)
		if len(l.Elems) != len(t.fields) {
			return nil, c.errAt(l.Pos, "initialiser of %s has %d elements, want %d (one per field of %s)", name, len(l.Elems), len(t.fields), t.withConst(false))
		}
		var out []*cexpr
		for i, el := range l.Elems {
			sub, err := c.flatInit(cx, t.fields[i].t, el, name+"."+t.fields[i].name)
			if err != nil {
				return nil, err
			}
			out = append(out, sub...)
		}
		return out, nil
	}
	if t.kind == kArray {
		l := init.(*syntax.InitList)
		if len(l.Elems) != t.size {
			return nil, c.errAt(l.Pos, "initialiser of %s has %d elements, want %d", name, len(l.Elems), t.size)
		}
		var out []*cexpr
		for _, el := range l.Elems {
			sub, err := c.flatInit(cx, t.elem, el, name)
			if err != nil {
				return nil, err
			}
			out = append(out, sub...)
		}
		return out, nil
	}
	if l, ok := init.(*syntax.InitList); ok {
		return nil, c.errAt(l.Pos, "%s is not an array or a struct: initialiser list not allowed", name)
	}
	v, err := c.data(cx, init)
	if err != nil {
		return nil, err
	}
	if err := c.checkScalarAssign(t, v, "the initialiser of "+name, init.Position()); err != nil {
		return nil, err
	}
	if v.isConst {
		if t.kind == kBool {
			v = constExpr(boolType, b64(v.val != 0), v.pos)
		} else if v.val < t.lo || v.val > t.hi {
			return nil, c.errAt(init.Position(), "initial value %d of %s out of range [%d,%d]", v.val, name, t.lo, t.hi)
		}
	}
	return []*cexpr{v}, nil
}

// ---------------------------------------------------------------------------
// Calls

var builtins = map[string]int{"min": 2, "max": 2, "abs": 1}

func (c *compiler) call(cx *ctx, x *syntax.CallExpr) (*cexpr, error) {
	if m, ok := x.Fun.(*syntax.MemberExpr); ok && cx.query != nil {
		// P(i).f(args) in a query: a function of process P(i)'s template
		sym, err := cx.query.memberFunc(cx, m)
		if err != nil {
			return nil, err
		}
		return c.callFunc(cx, x, sym.fn)
	}
	id, ok := x.Fun.(*syntax.Ident)
	if !ok {
		return nil, c.errAt(x.Pos, "%s is not a function", exprString(x.Fun))
	}
	sym := cx.sc.lookup(id.Name)
	if sym == nil {
		if n, ok := builtins[id.Name]; ok {
			return c.builtin(cx, x, id.Name, n)
		}
		if cx.query != nil && c.net != nil {
			for _, p := range c.net.Procs {
				if p.Template == id.Name {
					return nil, c.errAt(x.Pos, "%s is a process, not a function: write P(i).name for its locations and variables", id.Name)
				}
			}
		}
		return nil, c.errAt(x.Pos, "undeclared function %s", id.Name)
	}
	if sym.kind != symFunc {
		return nil, c.errAt(x.Pos, "%s is not a function", id.Name)
	}
	return c.callFunc(cx, x, sym.fn)
}

// callFunc compiles the call x of the function f.
func (c *compiler) callFunc(cx *ctx, x *syntax.CallExpr, f *function) (*cexpr, error) {
	if f.compiling {
		return nil, c.errAt(x.Pos, "recursive call of %s (recursion is not supported)", f.name)
	}
	if len(x.Args) != len(f.params) {
		return nil, c.errAt(x.Pos, "%s takes %d arguments, not %d", f.name, len(f.params), len(x.Args))
	}
	type argw func(e *Env, base int)
	var args []argw
	extra := 0 // slots after the callee's frame for const reference arguments
	effects := f.effects
	// consts holds the arguments' values while every one is a constant
	// int or bool by value (then the call may be specialised)
	consts := make([]int64, 0, len(f.params))
	allConst := true
	for i, p := range f.params {
		ax := x.Args[i]
		off := p.off
		if p.ref || p.t.kind == kArray || p.t.hasStruct() {
			allConst = false
		}
		if p.ref {
			r, err := c.refExpr(cx, ax)
			if p.t.constant && (err != nil || r.space == rsConst) {
				// A const reference takes any value of its type, as in
				// UTAP: a constant or an expression is copied into slots
				// reserved after the callee's frame, which the parameter
				// then refers to.
				a, err := c.constRefArg(cx, f, i, ax, extra)
				if err != nil {
					return nil, err
				}
				effects = effects || a.effects
				extra += p.t.count()
				args = append(args, a.write)
				continue
			}
			if err != nil {
				return nil, c.errAt(ax.Position(), "argument %d of %s must be a variable (reference parameter %s)", i+1, f.name, p.name)
			}
			if r.space == rsConst || r.space == rsClock || r.space == rsChan {
				return nil, c.errAt(ax.Position(), "argument %d of %s must be a variable (reference parameter %s)", i+1, f.name, p.name)
			}
			if r.readonly && !p.t.constant {
				return nil, c.errAt(ax.Position(), "constant %s passed to the non-const reference parameter %s of %s", r.name, p.name, f.name)
			}
			if !sameShape(r.t, p.t) || p.t.hasStruct() && !equivalent(r.t, p.t) {
				return nil, c.errAt(ax.Position(), "argument %d of %s has type %s, parameter %s has type %s", i+1, f.name, r.t, p.name, p.t)
			}
			if !r.global && !sameType(r.t, p.t) {
				return nil, c.errAt(ax.Position(), "local %s of type %s passed by reference to %s of type %s: the ranges must match", r.name, r.t, p.name, p.t)
			}
			if f.writesRef[i] && c.writeEffect(cx, r) {
				effects = true
			}
			addr := c.baseAddr(r)
			args = append(args, func(e *Env, base int) { e.frame[base+off] = addr(e) })
			continue
		}
		if p.t.hasStruct() {
			// a struct (or an array of structs) is copied into the frame,
			// each value checked against its field's range
			e, err := c.expr(cx, ax)
			if err != nil {
				return nil, err
			}
			r := aggregateRef(e)
			if r == nil || !equivalent(r.t, p.t) {
				return nil, c.errAt(ax.Position(), "argument %d of %s has type %s, parameter %s has type %s", i+1, f.name, e.t.withConst(false), p.name, p.t)
			}
			effects = effects || r.effects
			dst := &ref{t: p.t, space: rsData, name: p.name}
			cp := c.copier(dst, r, ax.Position())
			args = append(args, func(e *Env, base int) { cp(e, frameAddr(base+off)) })
			continue
		}
		if p.t.kind == kArray {
			r, err := c.refExpr(cx, ax)
			if err != nil {
				return nil, err
			}
			if !sameShape(r.t, p.t) || !r.t.base().isData() {
				return nil, c.errAt(ax.Position(), "argument %d of %s has type %s, parameter %s has type %s", i+1, f.name, r.t, p.name, p.t)
			}
			n := p.t.count()
			if r.space == rsConst {
				vals := r.vals
				addr := c.baseAddr(r)
				args = append(args, func(e *Env, base int) {
					a := int(addr(e))
					copy(e.frame[base+off:base+off+n], vals[a:a+n])
				})
			} else {
				addr := c.baseAddr(r)
				args = append(args, func(e *Env, base int) {
					a := addr(e)
					for k := 0; k < n; k++ {
						e.frame[base+off+k] = e.load(addrAdd(a, int32(k)))
					}
				})
			}
			continue
		}
		v, err := c.data(cx, ax)
		if err != nil {
			return nil, err
		}
		if err := c.checkScalarAssign(p.t, v, fmt.Sprintf("argument %d of %s", i+1, f.name), ax.Position()); err != nil {
			return nil, err
		}
		effects = effects || v.effects
		if allConst = allConst && v.isConst; allConst {
			if p.t.kind == kBool {
				consts = append(consts, int64(b2i(v.val != 0)))
			} else {
				consts = append(consts, v.val)
			}
		}
		if p.t.kind == kBool {
			vf := v.fn
			args = append(args, func(e *Env, base int) { e.frame[base+off] = b2i(vf(e) != 0) })
			continue
		}
		if v.isConst && (v.val < p.t.lo || v.val > p.t.hi) && c.dead == 0 {
			return nil, c.errAt(ax.Position(), "argument %d out of range [%d,%d] of parameter %s of %s", v.val, p.t.lo, p.t.hi, p.name, f.name)
		}
		vf, lo, hi := v.fn, int32(p.t.lo), int32(p.t.hi)
		pos, pname, fname := c.posStr(ax.Position()), p.name, f.name
		args = append(args, func(e *Env, base int) {
			a := vf(e)
			if a < lo || a > hi {
				e.fail(pos, "argument %d out of range [%d,%d] of parameter %s of %s", a, lo, hi, pname, fname)
				a = lo
			}
			e.frame[base+off] = a
		})
	}
	size := f.frameSize + extra
	if extra > 0 && c.st != nil {
		c.st.frameTotal += extra // NewEnv's stack holds these slots too
	}
	hasResult := f.res.kind != kVoid
	pos, fname := c.posStr(x.Pos), f.name
	out := &cexpr{t: f.res, pos: x.Pos, effects: effects, lo: math.MinInt32, hi: math.MaxInt32}
	if f.res.isData() {
		out.lo, out.hi = f.res.lo, f.res.hi
	}
	if f.resets {
		// Resetting clocks propagates to the calling function; guards and
		// other effect-free contexts reject the call through effects.
		out.effects = true
		if cx.sc.fn != nil {
			cx.sc.fn.resets = true
		}
	}
	// body runs in the callee's frame after args fill it: the general
	// function's, or a specialisation's, which takes no arguments
	body := f.body
	if allConst && len(f.params) > 0 {
		if sp := c.specialise(f, consts); sp != nil {
			if ret := sp.ret; ret != nil {
				out.fn = func(e *Env) int32 {
					if !e.step(pos) {
						return 0
					}
					return ret(e)
				}
				return out, nil
			}
			size, body, args = sp.fn.frameSize, sp.fn.body, nil
		}
	}
	out.fn = func(e *Env) int32 {
		// A call counts against the evaluation budget like a loop
		// iteration: functions calling each other twice at each of 35
		// levels make 2^35 calls without any loop.
		if !e.step(pos) {
			return 0
		}
		base := e.push(size)
		for _, a := range args {
			a(e, base)
		}
		oldfp := e.fp
		e.fp = base
		r := body(e)
		e.fp = oldfp
		e.sp = base
		if r != cRet && hasResult && e.Err == nil {
			e.fail(pos, "function %s ended without returning a value", fname)
		}
		if !hasResult {
			return 0
		}
		return e.ret
	}
	return out, nil
}

// constArg is a compiled argument for a const reference parameter that
// is not a variable: write stores its value(s) at the reserved slots and
// binds the parameter to them.
type constArg struct {
	write   func(e *Env, base int)
	effects bool
}

// constRefArg compiles argument i (ax) of a call of f whose parameter is a
// const reference and whose argument is a constant or an expression: its
// value goes to the slots at f.frameSize+at of the callee's frame.
func (c *compiler) constRefArg(cx *ctx, f *function, i int, ax syntax.Expr, at int) (*constArg, error) {
	p := f.params[i]
	off, slot := p.off, f.frameSize+at
	e, err := c.expr(cx, ax)
	if err != nil {
		return nil, err
	}
	if p.t.isAggregate() {
		src := aggregateRef(e)
		if src == nil || !sameShape(src.t, p.t) || p.t.hasStruct() && !equivalent(src.t, p.t) {
			return nil, c.errAt(ax.Position(), "argument %d of %s has type %s, parameter %s has type %s", i+1, f.name, e.t.withConst(false), p.name, p.t)
		}
		cp := c.copier(&ref{t: p.t, space: rsData, name: p.name}, src, ax.Position())
		return &constArg{effects: src.effects, write: func(e *Env, base int) {
			a := frameAddr(base + slot)
			cp(e, a)
			e.frame[base+off] = a
		}}, nil
	}
	v, err := c.asData(e, ax)
	if err != nil {
		return nil, err
	}
	if err := c.checkScalarAssign(p.t, v, fmt.Sprintf("argument %d of %s", i+1, f.name), ax.Position()); err != nil {
		return nil, err
	}
	if v.isConst && p.t.kind != kBool && (v.val < p.t.lo || v.val > p.t.hi) && c.dead == 0 {
		return nil, c.errAt(ax.Position(), "argument %d out of range [%d,%d] of parameter %s of %s", v.val, p.t.lo, p.t.hi, p.name, f.name)
	}
	vf, lo, hi, isBool := v.fn, int32(p.t.lo), int32(p.t.hi), p.t.kind == kBool
	pos, pname, fname := c.posStr(ax.Position()), p.name, f.name
	return &constArg{effects: v.effects, write: func(e *Env, base int) {
		a := vf(e)
		if isBool {
			a = b2i(a != 0)
		} else if a < lo || a > hi {
			e.fail(pos, "argument %d out of range [%d,%d] of parameter %s of %s", a, lo, hi, pname, fname)
			a = lo
		}
		e.frame[base+slot] = a
		e.frame[base+off] = frameAddr(base + slot)
	}}, nil
}

func (c *compiler) builtin(cx *ctx, x *syntax.CallExpr, name string, n int) (*cexpr, error) {
	if len(x.Args) != n {
		return nil, c.errAt(x.Pos, "%s takes %d arguments, not %d", name, n, len(x.Args))
	}
	var a []*cexpr
	for _, ax := range x.Args {
		v, err := c.data(cx, ax)
		if err != nil {
			return nil, err
		}
		if scalarOf(v) != 0 {
			return nil, c.errAt(ax.Position(), "%s of a scalar value: values of a scalar set allow only ==, != and assignment", name)
		}
		a = append(a, v)
	}
	switch name {
	case "min", "max":
		op := syntax.OpMin
		if name == "max" {
			op = syntax.OpMax
		}
		return c.binaryOf(op, a[0], a[1], x.Pos)
	}
	// abs
	if a[0].isConst {
		v := a[0].val
		if v < 0 {
			v = -v
		}
		return c.folded(litType, v, x.Pos)
	}
	f := a[0].fn
	hi := max(a[0].hi, -a[0].lo)
	pos := c.posStr(x.Pos)
	return &cexpr{t: litType, pos: x.Pos, effects: a[0].effects, lo: 0, hi: clamp32(hi), fn: func(e *Env) int32 {
		v := f(e)
		if v < 0 {
			return e.fit32(pos, -int64(v))
		}
		return v
	}}, nil
}

// binaryOf2 applies a comparison to compiled operands.
func (c *compiler) binaryOf2(op syntax.Op, a, b *cexpr, p syntax.Pos) (*cexpr, error) {
	if a.isConst && b.isConst {
		v, t, err := c.foldBinary(op, a.val, b.val, p)
		if err != nil {
			return c.deadFold(t, p, err)
		}
		return c.folded(t, v, p)
	}
	return &cexpr{t: boolType, lo: 0, hi: 1, pos: p, effects: a.effects || b.effects, fn: compare(op, a, b)}, nil
}

// binaryOf applies a binary operator to compiled operands.
func (c *compiler) binaryOf(op syntax.Op, a, b *cexpr, p syntax.Pos) (*cexpr, error) {
	if a.isConst && b.isConst {
		v, t, err := c.foldBinary(op, a.val, b.val, p)
		if err != nil {
			return c.deadFold(t, p, err)
		}
		return c.folded(t, v, p)
	}
	f, g := a.fn, b.fn
	r := &cexpr{t: litType, pos: p, effects: a.effects || b.effects}
	switch op {
	case syntax.OpMin:
		r.fn = func(e *Env) int32 { return min(f(e), g(e)) }
		r.lo, r.hi = min(a.lo, b.lo), min(a.hi, b.hi)
	case syntax.OpMax:
		r.fn = func(e *Env) int32 { return max(f(e), g(e)) }
		r.lo, r.hi = max(a.lo, b.lo), max(a.hi, b.hi)
	default:
		return nil, c.errAt(p, "unsupported operator %s", op)
	}
	return r, nil
}

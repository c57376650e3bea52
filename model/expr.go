package model

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/tcheck/tcheck/model/syntax"
)

// cexpr is a checked, compiled expression. Data expressions (int and bool)
// have fn; constants also have isConst/val (fn then returns val). Objects
// that are not values (arrays, clocks, channels) have ref instead.
type cexpr struct {
	t       *typ
	isConst bool
	val     int64
	fn      func(*Env) int32
	lo, hi  int64 // the values fn can return (for static clock bounds)
	effects bool  // assigns non-local state or resets clocks
	ref     *ref
	pos     syntax.Pos
}

// ref is a reference to an object: a data variable (scalar or array), a
// constant array, a clock (array) or a channel (array).
type ref struct {
	t     *typ
	space uint8
	// static addressing (static == true): for rsData, where is stGlobal
	// (off = slot) or stFrame (off relative to fp); for the other spaces off
	// is the index of the first element.
	static bool
	where  int
	off    int
	// dynamic addressing: a unified data address (rsData) or an index.
	addr     func(*Env) int32
	vals     []int32 // rsConst
	name     string  // for messages
	readonly bool
	global   bool // may address the variable vector (writes are effects)
	viaRef   bool // through a reference parameter: check the target's range too
	effects  bool // computing the address has side effects (an index like a[i++])
	sym      *symbol
}

const (
	rsData uint8 = iota
	rsConst
	rsClock
	rsChan
)

// ctx is what an expression may do where it is compiled.
type ctx struct {
	sc *scope
	// query is non-nil when compiling a query formula (process members,
	// deadlock and clocks in constraints are allowed there).
	query *formulaCompiler
}

func (c *compiler) errAt(p syntax.Pos, format string, args ...any) error {
	return &Error{Pos: c.text.At(p), Msg: fmt.Sprintf(format, args...)}
}

func (c *compiler) posStr(p syntax.Pos) string { return c.text.At(p).String() }

func constExpr(t *typ, v int64, p syntax.Pos) *cexpr {
	v32 := int32(v)
	return &cexpr{t: t, isConst: true, val: v, lo: v, hi: v, pos: p, fn: func(*Env) int32 { return v32 }}
}

func b2i(b bool) int32 {
	if b {
		return 1
	}
	return 0
}

func b64(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func clamp32(v int64) int64 {
	if v < math.MinInt32 {
		return math.MinInt32
	}
	if v > math.MaxInt32 {
		return math.MaxInt32
	}
	return v
}

// typeName describes a non-data type in messages.
func kindDesc(t *typ) string {
	switch t.kind {
	case kClock:
		return "a clock"
	case kChan:
		return "a channel"
	case kVoid:
		return "void"
	case kArray:
		return "an array"
	case kStruct:
		return "a struct"
	case kBool:
		return "a bool"
	}
	return "an integer"
}

// data compiles x and requires an int or bool value.
func (c *compiler) data(cx *ctx, x syntax.Expr) (*cexpr, error) {
	e, err := c.expr(cx, x)
	if err != nil {
		return nil, err
	}
	return c.asData(e, x)
}

// asData requires the compiled expression e (of x) to be an int or bool
// value.
func (c *compiler) asData(e *cexpr, x syntax.Expr) (*cexpr, error) {
	if e.fn == nil || !e.t.isData() {
		switch e.t.kind {
		case kClock:
			return nil, c.errAt(x.Position(), "clock %s used as data (clocks may only appear in clock constraints and resets)", exprString(x))
		case kChan:
			return nil, c.errAt(x.Position(), "channel %s used as a value", exprString(x))
		case kArray:
			return nil, c.errAt(x.Position(), "array %s used as a value (index it)", exprString(x))
		case kStruct:
			return nil, c.errAt(x.Position(), "struct %s used as a value (select a field with '.')", exprString(x))
		case kVoid:
			return nil, c.errAt(x.Position(), "%s has no value (void)", exprString(x))
		}
		return nil, c.errAt(x.Position(), "%s is not a value", exprString(x))
	}
	return e, nil
}

// constInt compiles x and requires a constant int or bool value (its
// failing folding an error, compiler.lazy or not).
func (c *compiler) constInt(cx *ctx, x syntax.Expr, what string) (int64, error) {
	e, err := eagerly(c, func() (*cexpr, error) { return c.data(cx, x) })
	if err != nil {
		return 0, err
	}
	if !e.isConst {
		if id, ok := unparen(x).(*syntax.Ident); ok {
			if sym := cx.sc.lookup(id.Name); sym != nil && sym.notConst != nil {
				return 0, c.errAt(x.Position(), "%s must be a constant expression, and %s is not: %v", what, id.Name, sym.notConst)
			}
		}
		return 0, c.errAt(x.Position(), "%s must be a constant expression", what)
	}
	return e.val, nil
}

func (c *compiler) expr(cx *ctx, x syntax.Expr) (*cexpr, error) {
	if err := c.poll(); err != nil {
		return nil, err
	}
	switch x := x.(type) {
	case *syntax.IntLit:
		if x.Value > math.MaxInt32 || x.Value < math.MinInt32 {
			return nil, c.errAt(x.Pos, "integer %d out of the 32-bit range", x.Value)
		}
		return constExpr(litType, x.Value, x.Pos), nil
	case *syntax.BoolLit:
		return constExpr(boolType, b64(x.Value), x.Pos), nil
	case *syntax.ParenExpr:
		return c.expr(cx, x.X)
	case *syntax.Ident:
		return c.ident(cx, x)
	case *syntax.IndexExpr:
		r, err := c.refExpr(cx, x)
		if err != nil {
			return nil, err
		}
		return c.refValue(r, x.Pos), nil
	case *syntax.MemberExpr:
		if cx.query != nil && cx.query.isProcess(cx, x.X) {
			return cx.query.member(cx, x)
		}
		r, err := c.refExpr(cx, x)
		if err != nil {
			return nil, err
		}
		return c.refValue(r, x.Pos), nil
	case *syntax.CallExpr:
		return c.call(cx, x)
	case *syntax.UnaryExpr:
		return c.unary(cx, x)
	case *syntax.IncDecExpr:
		return c.incDec(cx, x)
	case *syntax.BinaryExpr:
		return c.binary(cx, x)
	case *syntax.CondExpr:
		return c.cond(cx, x)
	case *syntax.AssignExpr:
		return c.assign(cx, x)
	case *syntax.QuantExpr:
		return c.quant(cx, x)
	case *syntax.DeadlockExpr:
		return nil, c.errAt(x.Pos, "deadlock is only allowed in queries")
	case *syntax.RateExpr:
		return nil, c.errAt(x.Pos, "the clock rate %s is only allowed in a location invariant, as a conjunct %s == 0 or %s == e (stopwatches)", exprString(x), exprString(x), exprString(x))
	case *syntax.InitList:
		return nil, c.errAt(x.Pos, "an initialiser list is only allowed in a declaration")
	case nil:
		return nil, &Error{Pos: c.text.Pos, Msg: "missing expression"}
	}
	return nil, c.errAt(x.Position(), "unsupported expression")
}

func (c *compiler) ident(cx *ctx, x *syntax.Ident) (*cexpr, error) {
	sym := cx.sc.lookup(x.Name)
	if sym == nil {
		if cx.query != nil {
			if e, ok, err := cx.query.bareName(cx, x); ok || err != nil {
				return e, err
			}
		}
		return nil, c.errAt(x.Pos, "undeclared name %s", x.Name)
	}
	switch sym.kind {
	case symType:
		return nil, c.errAt(x.Pos, "type %s used as a value", x.Name)
	case symFunc:
		return nil, c.errAt(x.Pos, "function %s used without a call", x.Name)
	case symConst:
		if sym.t.isScalar() {
			e := constExpr(sym.t, sym.vals[0], x.Pos)
			return e, nil
		}
	}
	r, err := c.symRef(cx, sym, x.Pos)
	if err != nil {
		return nil, err
	}
	return c.refValue(r, x.Pos), nil
}

// symRef returns a reference to the object a symbol names.
func (c *compiler) symRef(cx *ctx, sym *symbol, p syntax.Pos) (*ref, error) {
	r := &ref{t: sym.t, name: sym.name, sym: sym, static: true, readonly: sym.t.constant}
	switch sym.kind {
	case symConst:
		r.space = rsConst
		r.vals = make([]int32, len(sym.vals))
		for i, v := range sym.vals {
			r.vals[i] = int32(v)
		}
		r.readonly = true
	case symClock:
		r.space, r.off = rsClock, sym.off
	case symChan:
		r.space, r.off = rsChan, sym.off
	case symVar:
		r.space = rsData
		switch sym.where {
		case stGlobal:
			r.where, r.off, r.global = stGlobal, sym.off, true
			r.name = sym.vname
		case stFrame:
			r.where, r.off = stFrame, sym.off
		case stRef:
			off := sym.off
			r.static = false
			r.addr = func(e *Env) int32 { return e.frame[e.fp+off] }
			r.global, r.viaRef = true, true
		}
	default:
		return nil, c.errAt(p, "%s is not an object", sym.name)
	}
	return r, nil
}

// refExpr compiles an identifier or an index chain to a reference.
func (c *compiler) refExpr(cx *ctx, x syntax.Expr) (*ref, error) {
	switch x := x.(type) {
	case *syntax.ParenExpr:
		return c.refExpr(cx, x.X)
	case *syntax.Ident:
		sym := cx.sc.lookup(x.Name)
		if sym == nil {
			if cx.query != nil {
				if r, ok, err := cx.query.bareRef(cx, x); ok || err != nil {
					return r, err
				}
			}
			return nil, c.errAt(x.Pos, "undeclared name %s", x.Name)
		}
		if sym.kind == symType || sym.kind == symFunc {
			return nil, c.errAt(x.Pos, "%s is not a variable", x.Name)
		}
		return c.symRef(cx, sym, x.Pos)
	case *syntax.MemberExpr:
		if cx.query != nil && cx.query.isProcess(cx, x.X) {
			return cx.query.memberRef(cx, x)
		}
		r, err := c.refExpr(cx, x.X)
		if err != nil {
			return nil, err
		}
		return c.field(r, x)
	case *syntax.IndexExpr:
		r, err := c.refExpr(cx, x.X)
		if err != nil {
			return nil, err
		}
		if r.t.kind != kArray {
			return nil, c.errAt(x.Pos, "%s is not an array", r.name)
		}
		ix, err := c.data(cx, x.Index)
		if err != nil {
			return nil, err
		}
		return c.index(r, ix, x.Pos)
	}
	return nil, c.errAt(x.Position(), "%s is not a variable", exprString(x))
}

// field selects the field x.Name of the struct r.
func (c *compiler) field(r *ref, x *syntax.MemberExpr) (*ref, error) {
	switch r.t.kind {
	case kStruct:
	case kArray:
		return nil, c.errAt(x.Pos, "%s is an array: index it before selecting field %s", r.name, x.Name)
	default:
		return nil, c.errAt(x.Pos, "%s is not a struct (it is %s): it has no field %s", r.name, kindDesc(r.t), x.Name)
	}
	f := r.t.fieldOf(x.Name)
	if f == nil {
		var names []string
		for _, f := range r.t.fields {
			names = append(names, f.name)
		}
		return nil, c.errAt(x.NamePos, "%s (%s) has no field %s (its fields: %s)", r.name, r.t.withConst(false), x.Name, strings.Join(names, ", "))
	}
	n := *r
	n.t = f.t
	n.name = r.name + "." + f.name
	k := int32(f.off)
	switch {
	case r.static:
		n.off = r.off + f.off
	case r.space == rsData:
		base := r.addr
		n.addr = func(e *Env) int32 { return addrAdd(base(e), k) }
	default:
		base := r.addr
		n.addr = func(e *Env) int32 { return base(e) + k }
	}
	return &n, nil
}

// index selects element ix of the array r (indexed from r.t.first).
func (c *compiler) index(r *ref, ix *cexpr, p syntax.Pos) (*ref, error) {
	if si := scalarOf(ix); si != r.t.index {
		if r.t.index != 0 {
			return nil, c.errAt(ix.pos, "%s is indexed by a scalar set: its index must be a value of that set, not an integer", r.name)
		}
		return nil, c.errAt(ix.pos, "a scalar value indexes only an array whose dimension is its scalar set (%s is not)", r.name)
	}
	size := r.t.size
	first := r.t.first
	last := first + int64(size) - 1
	stride := int32(r.t.elem.count())
	n := *r
	n.t = r.t.elem
	n.effects = r.effects || ix.effects
	if ix.isConst {
		if ix.val < first || ix.val > last {
			msg := fmt.Sprintf("index %d out of bounds [%d,%d] of %s", ix.val, first, last, r.name)
			switch {
			case c.dead > 0:
				// never evaluated: any element will do
				ix = constExpr(ix.t, first, ix.pos)
			case c.lazy > 0 && (r.space == rsData || r.space == rsConst):
				return c.failingRef(r, &n, c.posStr(p), msg), nil
			default:
				return nil, c.errAt(ix.pos, "%s", msg)
			}
		}
		n.name = fmt.Sprintf("%s[%d]", r.name, ix.val)
		k := int32(ix.val-first) * stride
		if r.static {
			n.off = r.off + int(k)
			return &n, nil
		}
		base := r.addr
		if r.space == rsData {
			n.addr = func(e *Env) int32 { return addrAdd(base(e), k) }
		} else {
			n.addr = func(e *Env) int32 { return base(e) + k }
		}
		return &n, nil
	}
	n.name = r.name + "[...]"
	base := c.baseAddr(r)
	idx := ix.fn
	pos := c.posStr(p)
	name := r.name
	first32, last32 := int32(first), int32(last)
	n.static = false
	if r.space == rsData {
		n.addr = func(e *Env) int32 {
			b := base(e)
			i := idx(e)
			if i < first32 || i > last32 {
				e.fail(pos, "index %d out of bounds [%d,%d] of %s", i, first32, last32, name)
				return b
			}
			return addrAdd(b, (i-first32)*stride)
		}
	} else {
		n.addr = func(e *Env) int32 {
			b := base(e)
			i := idx(e)
			if i < first32 || i > last32 {
				e.fail(pos, "index %d out of bounds [%d,%d] of %s", i, first32, last32, name)
				return b
			}
			return b + (i-first32)*stride
		}
	}
	return &n, nil
}

// failingRef is element n of the array r whose constant index is out of
// bounds, in code that runs in states (compiler.lazy): as for a failing
// constant operation (deadFold), a reference that fails with msg at pos
// when its address is computed, as an index computed at run time does.
// Clocks and channels keep the load-time error: their indices must be
// static.
func (c *compiler) failingRef(r, n *ref, pos, msg string) *ref {
	base := c.baseAddr(r)
	n.name = r.name + "[...]"
	n.static = false
	n.addr = func(e *Env) int32 {
		e.fail(pos, "%s", msg)
		return base(e)
	}
	return n
}

// baseAddr returns a function computing r's unified address (rsData) or
// index (other spaces) at run time.
func (c *compiler) baseAddr(r *ref) func(*Env) int32 {
	if !r.static {
		return r.addr
	}
	off := int32(r.off)
	if r.space == rsData && r.where == stFrame {
		o := r.off
		return func(e *Env) int32 { return frameAddr(e.fp + o) }
	}
	return func(*Env) int32 { return off }
}

// refValue turns a reference into an expression: a load for scalar data,
// the reference itself otherwise.
func (c *compiler) refValue(r *ref, p syntax.Pos) *cexpr {
	e := &cexpr{t: r.t, pos: p, lo: math.MinInt32, hi: math.MaxInt32, effects: r.effects}
	if r.t.isData() {
		e.lo, e.hi = r.t.lo, r.t.hi
	}
	if !r.t.isData() {
		e.ref = r
		return e
	}
	switch r.space {
	case rsConst:
		if r.static {
			return constExpr(r.t, int64(r.vals[r.off]), p)
		}
		vals, addr := r.vals, r.addr
		e.fn = func(en *Env) int32 { return vals[addr(en)] }
	case rsData:
		switch {
		case r.static && r.where == stGlobal:
			s := r.off
			e.fn = func(en *Env) int32 { return en.Vars[s] }
		case r.static:
			o := r.off
			e.fn = func(en *Env) int32 { return en.frame[en.fp+o] }
		default:
			addr := r.addr
			e.fn = func(en *Env) int32 { return en.load(addr(en)) }
		}
	default:
		e.ref = r
		e.fn = nil
	}
	e.ref = r
	return e
}

// ---------------------------------------------------------------------------
// Operators

func (c *compiler) unary(cx *ctx, x *syntax.UnaryExpr) (*cexpr, error) {
	a, err := c.data(cx, x.X)
	if err != nil {
		return nil, err
	}
	if scalarOf(a) != 0 {
		return nil, c.errAt(x.Pos, "%s on a scalar value: values of a scalar set allow only ==, != and assignment", x.Op)
	}
	if a.isConst {
		var v int64
		var t *typ = litType
		switch x.Op {
		case syntax.OpNeg:
			v = -a.val
		case syntax.OpPlus:
			v = a.val
		case syntax.OpNot:
			v, t = b64(a.val == 0), boolType
		case syntax.OpBitNot:
			v = int64(^int32(a.val))
		default:
			return nil, c.errAt(x.Pos, "unsupported operator %s", x.Op)
		}
		return c.folded(t, v, x.Pos)
	}
	f := a.fn
	r := &cexpr{t: litType, pos: x.Pos, effects: a.effects, lo: math.MinInt32, hi: math.MaxInt32}
	switch x.Op {
	case syntax.OpNeg:
		pos := c.posStr(x.Pos)
		r.fn = func(e *Env) int32 { return e.fit32(pos, -int64(f(e))) }
		r.lo, r.hi = clamp32(-a.hi), clamp32(-a.lo)
	case syntax.OpPlus:
		r.fn, r.lo, r.hi = f, a.lo, a.hi
	case syntax.OpNot:
		r.t, r.lo, r.hi = boolType, 0, 1
		r.fn = func(e *Env) int32 { return b2i(f(e) == 0) }
	case syntax.OpBitNot:
		r.fn = func(e *Env) int32 { return ^f(e) }
	default:
		return nil, c.errAt(x.Pos, "unsupported operator %s", x.Op)
	}
	return r, nil
}

// folded returns a folded constant, checking that it fits in 32 bits (the
// same arithmetic as at run time, without silent wrapping at load time).
func (c *compiler) folded(t *typ, v int64, p syntax.Pos) (*cexpr, error) {
	if v > math.MaxInt32 || v < math.MinInt32 {
		return c.deadFold(t, p, c.errAt(p, "constant expression overflows 32 bits (%d)", v))
	}
	return constExpr(t, v, p), nil
}

// deadFold is the result of a folding that failed with err (a division by
// zero, an overflow): in an operand never evaluated (compiler.dead), a
// constant that its caller discards; in code that runs in states
// (compiler.lazy), an expression that fails with err's message when it is
// evaluated; else the error.
func (c *compiler) deadFold(t *typ, p syntax.Pos, err error) (*cexpr, error) {
	if t == nil {
		t = litType
	}
	if c.dead > 0 {
		return constExpr(t, 0, p), nil
	}
	var me *Error
	if c.lazy > 0 && errors.As(err, &me) {
		pos, msg := me.Pos.String(), me.Msg
		// lo and hi 0: it yields no value (the static bounds of clock
		// constraints read them)
		return &cexpr{t: t, pos: p, fn: func(e *Env) int32 { e.fail(pos, "%s", msg); return 0 }}, nil
	}
	return nil, err
}

// decidedBy reports whether the constant left operand a of op decides the
// result, so that the right operand is never evaluated.
func decidedBy(op syntax.Op, a *cexpr) bool {
	if !a.isConst {
		return false
	}
	switch op {
	case syntax.OpAnd, syntax.OpImply:
		return a.val == 0
	case syntax.OpOr:
		return a.val != 0
	}
	return false
}

// eagerly compiles with compile where a constant is needed: a failing
// constant operation is then an error (compiler.lazy off).
func eagerly[T any](c *compiler, compile func() (T, error)) (T, error) {
	lazy := c.lazy
	c.lazy = 0
	defer func() { c.lazy = lazy }()
	return compile()
}

// deadIf compiles with compile, counting it as never evaluated when dead.
func deadIf[T any](c *compiler, dead bool, compile func() (T, error)) (T, error) {
	if dead {
		c.dead++
		defer func() { c.dead-- }()
	}
	return compile()
}

func (c *compiler) binary(cx *ctx, x *syntax.BinaryExpr) (*cexpr, error) {
	a, err := c.expr(cx, x.X)
	if err != nil {
		return nil, err
	}
	if (x.Op == syntax.OpEQ || x.Op == syntax.OpNE) && a.t.isAggregate() {
		return c.compareAggregate(cx, x, a)
	}
	if a.t.kind == kStruct {
		return nil, c.errAt(x.Pos, "%s on struct %s: a whole struct allows only =, == and !=", x.Op, exprString(x.X))
	}
	if a, err = c.asData(a, x.X); err != nil {
		return nil, err
	}
	b, err := deadIf(c, decidedBy(x.Op, a), func() (*cexpr, error) { return c.data(cx, x.Y) })
	if err != nil {
		return nil, err
	}
	op := x.Op
	if err := c.checkScalarBinary(op, a, b, x.Pos); err != nil {
		return nil, err
	}
	if a.isConst && b.isConst {
		v, t, err := c.foldBinary(op, a.val, b.val, x.Pos)
		if err != nil {
			return c.deadFold(t, x.Pos, err)
		}
		return c.folded(t, v, x.Pos)
	}
	// Short-circuit operators with a constant left operand fold away.
	if a.isConst {
		switch op {
		case syntax.OpAnd:
			if a.val == 0 {
				return constExpr(boolType, 0, x.Pos), nil
			}
			return c.truth(b), nil
		case syntax.OpOr:
			if a.val != 0 {
				return constExpr(boolType, 1, x.Pos), nil
			}
			return c.truth(b), nil
		case syntax.OpImply:
			if a.val == 0 {
				return constExpr(boolType, 1, x.Pos), nil
			}
			return c.truth(b), nil
		}
	}
	f, g := a.fn, b.fn
	r := &cexpr{t: litType, pos: x.Pos, effects: a.effects || b.effects, lo: math.MinInt32, hi: math.MaxInt32}
	pos := c.posStr(x.Pos)
	switch op {
	case syntax.OpAdd:
		r.fn = func(e *Env) int32 { return e.fit32(pos, int64(f(e))+int64(g(e))) }
		r.lo, r.hi = clamp32(a.lo+b.lo), clamp32(a.hi+b.hi)
	case syntax.OpSub:
		r.fn = func(e *Env) int32 { return e.fit32(pos, int64(f(e))-int64(g(e))) }
		r.lo, r.hi = clamp32(a.lo-b.hi), clamp32(a.hi-b.lo)
	case syntax.OpMul:
		r.fn = func(e *Env) int32 { return e.fit32(pos, int64(f(e))*int64(g(e))) }
		p := []int64{a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi}
		r.lo, r.hi = p[0], p[0]
		for _, v := range p[1:] {
			r.lo, r.hi = min(r.lo, v), max(r.hi, v)
		}
		r.lo, r.hi = clamp32(r.lo), clamp32(r.hi)
	case syntax.OpDiv:
		r.fn = func(e *Env) int32 {
			d := g(e)
			if d == 0 {
				e.fail(pos, "division by zero")
				return 0
			}
			return e.fit32(pos, int64(f(e))/int64(d))
		}
		if b.isConst && b.val > 0 {
			r.lo, r.hi = a.lo/b.val, a.hi/b.val
		}
	case syntax.OpMod:
		r.fn = func(e *Env) int32 {
			d := g(e)
			if d == 0 {
				e.fail(pos, "modulo by zero")
				return 0
			}
			return f(e) % d
		}
		if b.isConst && b.val > 0 {
			r.lo, r.hi = -(b.val - 1), b.val-1
			if a.lo >= 0 {
				r.lo = 0
			}
		}
	case syntax.OpPow:
		r.fn = func(e *Env) int32 { return e.pow32(pos, f(e), g(e)) }
		if b.isConst && b.val >= 0 && a.lo >= 0 {
			lo, okLo := power(a.lo, b.val)
			hi, okHi := power(a.hi, b.val)
			if okLo && okHi {
				r.lo, r.hi = lo, hi
			}
		}
	case syntax.OpShl:
		r.fn = func(e *Env) int32 {
			s := g(e)
			if s < 0 {
				e.fail(pos, "negative shift count %d", s)
				return 0
			}
			return e.shl32(pos, f(e), s)
		}
	case syntax.OpShr:
		r.fn = func(e *Env) int32 {
			s := g(e)
			if s < 0 {
				e.fail(pos, "negative shift count %d", s)
				return 0
			}
			return f(e) >> uint32(s)
		}
	case syntax.OpBitAnd:
		r.fn = func(e *Env) int32 { return f(e) & g(e) }
		if a.lo >= 0 || b.lo >= 0 {
			r.lo = 0
			r.hi = math.MaxInt32
			if a.lo >= 0 {
				r.hi = a.hi
			}
			if b.lo >= 0 && b.hi < r.hi {
				r.hi = b.hi
			}
		}
	case syntax.OpBitOr:
		r.fn = func(e *Env) int32 { return f(e) | g(e) }
	case syntax.OpBitXor:
		r.fn = func(e *Env) int32 { return f(e) ^ g(e) }
	case syntax.OpMin:
		r.fn = func(e *Env) int32 { return min(f(e), g(e)) }
		r.lo, r.hi = min(a.lo, b.lo), min(a.hi, b.hi)
	case syntax.OpMax:
		r.fn = func(e *Env) int32 { return max(f(e), g(e)) }
		r.lo, r.hi = max(a.lo, b.lo), max(a.hi, b.hi)
	case syntax.OpLT, syntax.OpLE, syntax.OpGT, syntax.OpGE, syntax.OpEQ, syntax.OpNE:
		r.t, r.lo, r.hi = boolType, 0, 1
		r.fn = compare(op, a, b)
	case syntax.OpAnd:
		r.t, r.lo, r.hi = boolType, 0, 1
		r.fn = func(e *Env) int32 { return b2i(f(e) != 0 && g(e) != 0) }
	case syntax.OpOr:
		r.t, r.lo, r.hi = boolType, 0, 1
		r.fn = func(e *Env) int32 { return b2i(f(e) != 0 || g(e) != 0) }
	case syntax.OpImply:
		r.t, r.lo, r.hi = boolType, 0, 1
		r.fn = func(e *Env) int32 { return b2i(f(e) == 0 || g(e) != 0) }
	default:
		return nil, c.errAt(x.Pos, "unsupported operator %s", op)
	}
	return r, nil
}

// compare builds a comparison, specialised when one side is a constant
// (the common `x == c` of guards).
func compare(op syntax.Op, a, b *cexpr) func(*Env) int32 {
	f, g := a.fn, b.fn
	if b.isConst {
		k := int32(b.val)
		switch op {
		case syntax.OpLT:
			return func(e *Env) int32 { return b2i(f(e) < k) }
		case syntax.OpLE:
			return func(e *Env) int32 { return b2i(f(e) <= k) }
		case syntax.OpGT:
			return func(e *Env) int32 { return b2i(f(e) > k) }
		case syntax.OpGE:
			return func(e *Env) int32 { return b2i(f(e) >= k) }
		case syntax.OpEQ:
			return func(e *Env) int32 { return b2i(f(e) == k) }
		default:
			return func(e *Env) int32 { return b2i(f(e) != k) }
		}
	}
	switch op {
	case syntax.OpLT:
		return func(e *Env) int32 { return b2i(f(e) < g(e)) }
	case syntax.OpLE:
		return func(e *Env) int32 { return b2i(f(e) <= g(e)) }
	case syntax.OpGT:
		return func(e *Env) int32 { return b2i(f(e) > g(e)) }
	case syntax.OpGE:
		return func(e *Env) int32 { return b2i(f(e) >= g(e)) }
	case syntax.OpEQ:
		return func(e *Env) int32 { return b2i(f(e) == g(e)) }
	}
	return func(e *Env) int32 { return b2i(f(e) != g(e)) }
}

// truth converts a data expression to a bool (C: non-zero is true).
func (c *compiler) truth(a *cexpr) *cexpr {
	if a.t.kind == kBool {
		return a
	}
	if a.isConst {
		return constExpr(boolType, b64(a.val != 0), a.pos)
	}
	f := a.fn
	return &cexpr{t: boolType, lo: 0, hi: 1, pos: a.pos, effects: a.effects, fn: func(e *Env) int32 { return b2i(f(e) != 0) }}
}

// foldBinary evaluates a binary operator on constants in 64 bits; the
// caller checks that the result fits in 32.
func (c *compiler) foldBinary(op syntax.Op, a, b int64, p syntax.Pos) (int64, *typ, error) {
	switch op {
	case syntax.OpAdd:
		return a + b, litType, nil
	case syntax.OpSub:
		return a - b, litType, nil
	case syntax.OpMul:
		return a * b, litType, nil
	case syntax.OpDiv, syntax.OpMod:
		if b == 0 {
			return 0, nil, c.errAt(p, "division by zero in a constant expression")
		}
		if op == syntax.OpDiv {
			return a / b, litType, nil
		}
		return a % b, litType, nil
	case syntax.OpPow:
		if b < 0 {
			return 0, nil, c.errAt(p, "negative exponent in a constant expression (%d ** %d is not an integer)", a, b)
		}
		v, ok := power(a, b)
		if !ok {
			return 0, nil, c.errAt(p, "constant expression overflows 32 bits (%d ** %d)", a, b)
		}
		return v, litType, nil
	case syntax.OpShl, syntax.OpShr:
		if b < 0 {
			return 0, nil, c.errAt(p, "negative shift count %d", b)
		}
		if op == syntax.OpShl {
			if a != 0 && b >= 32 {
				return 0, nil, c.errAt(p, "constant expression overflows 32 bits (%d << %d)", a, b)
			}
			if a == 0 {
				return 0, litType, nil
			}
			return a << uint(b), litType, nil // folded checks the range
		}
		return int64(int32(a) >> uint32(b)), litType, nil
	case syntax.OpBitAnd:
		return int64(int32(a) & int32(b)), litType, nil
	case syntax.OpBitOr:
		return int64(int32(a) | int32(b)), litType, nil
	case syntax.OpBitXor:
		return int64(int32(a) ^ int32(b)), litType, nil
	case syntax.OpMin:
		return min(a, b), litType, nil
	case syntax.OpMax:
		return max(a, b), litType, nil
	case syntax.OpLT:
		return b64(a < b), boolType, nil
	case syntax.OpLE:
		return b64(a <= b), boolType, nil
	case syntax.OpGT:
		return b64(a > b), boolType, nil
	case syntax.OpGE:
		return b64(a >= b), boolType, nil
	case syntax.OpEQ:
		return b64(a == b), boolType, nil
	case syntax.OpNE:
		return b64(a != b), boolType, nil
	case syntax.OpAnd:
		return b64(a != 0 && b != 0), boolType, nil
	case syntax.OpOr:
		return b64(a != 0 || b != 0), boolType, nil
	case syntax.OpImply:
		return b64(a == 0 || b != 0), boolType, nil
	}
	return 0, nil, c.errAt(p, "unsupported operator %s", op)
}

func (c *compiler) cond(cx *ctx, x *syntax.CondExpr) (*cexpr, error) {
	k, err := c.data(cx, x.Cond)
	if err != nil {
		return nil, err
	}
	for _, y := range []syntax.Expr{x.Then, x.Else} {
		if r, err := c.refExpr(cx, y); err == nil && r.t.kind == kStruct {
			return nil, c.errAt(x.Pos, "a conditional expression choosing between structs is not supported (assign in an if statement instead)")
		}
	}
	a, err := deadIf(c, k.isConst && k.val == 0, func() (*cexpr, error) { return c.data(cx, x.Then) })
	if err != nil {
		return nil, err
	}
	b, err := deadIf(c, k.isConst && k.val != 0, func() (*cexpr, error) { return c.data(cx, x.Else) })
	if err != nil {
		return nil, err
	}
	t := litType
	if a.t.kind == kBool && b.t.kind == kBool {
		t = boolType
	}
	if k.isConst {
		if k.val != 0 {
			return a, nil
		}
		return b, nil
	}
	f, g, h := k.fn, a.fn, b.fn
	return &cexpr{t: t, pos: x.Pos, effects: k.effects || a.effects || b.effects,
		lo: min(a.lo, b.lo), hi: max(a.hi, b.hi),
		fn: func(e *Env) int32 {
			if f(e) != 0 {
				return g(e)
			}
			return h(e)
		}}, nil
}

// ---------------------------------------------------------------------------
// Assignments

// lvalue compiles the target of an assignment: a scalar data variable that
// is not constant.
func (c *compiler) lvalue(cx *ctx, x syntax.Expr) (*ref, error) {
	r, err := c.refExpr(cx, x)
	if err != nil {
		return nil, err
	}
	if r.space == rsConst || r.readonly {
		return nil, c.errAt(x.Position(), "cannot assign to constant %s", r.name)
	}
	if r.space == rsClock {
		return nil, c.errAt(x.Position(), "clock %s can only be reset (x = e) as an update or a statement", r.name)
	}
	if !r.t.isData() {
		return nil, c.errAt(x.Position(), "cannot assign to %s (%s)", r.name, kindDesc(r.t))
	}
	return r, nil
}

// storer returns a function that stores a value into the (scalar data)
// reference r, normalising bools to 0/1 (C semantics, as UPPAAL) and
// failing with a runtime error when the value is outside the declared range
// (the store is then not performed). The address is computed once by the
// caller (addr), so that compound assignments evaluate the target once.
func (c *compiler) storer(r *ref, p syntax.Pos) (addr func(*Env) int32, store func(e *Env, a int32, v int32) int32) {
	lo, hi := int32(r.t.lo), int32(r.t.hi)
	isBool := r.t.kind == kBool
	pos := c.posStr(p)
	net := c.net
	name := r.name
	viaRef := r.viaRef
	addr = c.baseAddr(r)
	if r.static && r.where == stGlobal {
		name = c.net.Vars[r.off].Name
	}
	store = func(e *Env, a int32, v int32) int32 {
		if isBool && v != 0 {
			v = 1
		}
		if v < lo || v > hi {
			e.fail(pos, "assignment of %d to %s out of range [%d,%d]", v, slotName(net, a, name), lo, hi)
			return v
		}
		if a >= 0 {
			if viaRef {
				vr := &net.Vars[a]
				if v < vr.Min || v > vr.Max {
					e.fail(pos, "assignment of %d to %s out of range [%d,%d]", v, vr.Name, vr.Min, vr.Max)
					return v
				}
			}
			e.Vars[a] = v
		} else {
			e.frame[-a-1] = v
		}
		return v
	}
	return addr, store
}

func slotName(n *Network, a int32, local string) string {
	if a >= 0 && int(a) < len(n.Vars) {
		return n.Vars[a].Name
	}
	return local
}

func (c *compiler) assign(cx *ctx, x *syntax.AssignExpr) (*cexpr, error) {
	if r, err := c.refExpr(cx, x.LHS); err == nil && r.space == rsClock {
		return nil, c.errAt(x.Pos, "clock reset %s must be a top-level update or a statement of its own", exprString(x))
	} else if err == nil && r.t.isAggregate() && (r.space == rsData || r.space == rsConst) {
		return c.assignAggregate(cx, x, r)
	}
	r, err := c.lvalue(cx, x.LHS)
	if err != nil {
		return nil, err
	}
	rhs, err := c.data(cx, x.RHS)
	if err != nil {
		return nil, err
	}
	if x.Op != syntax.OpAssign && (r.t.scalar != 0 || scalarOf(rhs) != 0) {
		return nil, c.errAt(x.Pos, "%s on a scalar value: values of a scalar set allow only ==, != and assignment", x.Op)
	}
	if err := c.checkScalarAssign(r.t, rhs, "assignment to "+r.name, x.Pos); err != nil {
		return nil, err
	}
	addr, store := c.storer(r, x.Pos)
	g := rhs.fn
	pos := c.posStr(x.Pos)
	out := &cexpr{t: r.t, pos: x.Pos, lo: r.t.lo, hi: r.t.hi, effects: rhs.effects || r.effects || c.writeEffect(cx, r)}
	if x.Op == syntax.OpAssign {
		if r.static && r.where == stGlobal && !r.viaRef {
			// The common case, without the address closure.
			s := int32(r.off)
			out.fn = func(e *Env) int32 { return store(e, s, g(e)) }
		} else {
			out.fn = func(e *Env) int32 { a := addr(e); return store(e, a, g(e)) }
		}
		return out, nil
	}
	var op func(e *Env, old, v int32) int32
	switch x.Op {
	case syntax.OpAddAssign:
		op = func(e *Env, o, v int32) int32 { return e.fit32(pos, int64(o)+int64(v)) }
	case syntax.OpSubAssign:
		op = func(e *Env, o, v int32) int32 { return e.fit32(pos, int64(o)-int64(v)) }
	case syntax.OpMulAssign:
		op = func(e *Env, o, v int32) int32 { return e.fit32(pos, int64(o)*int64(v)) }
	case syntax.OpDivAssign, syntax.OpModAssign:
		mod := x.Op == syntax.OpModAssign
		op = func(e *Env, o, v int32) int32 {
			if v == 0 {
				e.fail(pos, "division by zero")
				return o
			}
			if mod {
				return o % v
			}
			return e.fit32(pos, int64(o)/int64(v))
		}
	case syntax.OpAndAssign:
		op = func(_ *Env, o, v int32) int32 { return o & v }
	case syntax.OpOrAssign:
		op = func(_ *Env, o, v int32) int32 { return o | v }
	case syntax.OpXorAssign:
		op = func(_ *Env, o, v int32) int32 { return o ^ v }
	case syntax.OpShlAssign, syntax.OpShrAssign:
		left := x.Op == syntax.OpShlAssign
		op = func(e *Env, o, v int32) int32 {
			if v < 0 {
				e.fail(pos, "negative shift count %d", v)
				return o
			}
			if left {
				return e.shl32(pos, o, v)
			}
			return o >> uint32(v)
		}
	default:
		return nil, c.errAt(x.Pos, "unsupported assignment operator %s", x.Op)
	}
	out.fn = func(e *Env) int32 {
		a := addr(e)
		v := op(e, e.load(a), g(e))
		if e.Err != nil {
			return 0
		}
		return store(e, a, v)
	}
	return out, nil
}

// writeEffect reports whether assigning r is a side effect where it is
// compiled. Function locals are not. A write through a reference parameter
// of the function being compiled is recorded on the function instead: it is
// an effect of a call only when the argument is not local to the caller.
func (c *compiler) writeEffect(cx *ctx, r *ref) bool {
	if c.isLocal(r) {
		return false
	}
	if r.viaRef && r.sym != nil && r.sym.refParam > 0 && r.sym.owner == cx.sc.fn && cx.sc.fn != nil {
		cx.sc.fn.writesRef[r.sym.refParam-1] = true
		return false
	}
	return true
}

// isLocal reports whether r addresses only function-local storage, whose
// modification is not a side effect of the function.
func (c *compiler) isLocal(r *ref) bool {
	return r.space == rsData && !r.global
}

func (c *compiler) incDec(cx *ctx, x *syntax.IncDecExpr) (*cexpr, error) {
	r, err := c.lvalue(cx, x.X)
	if err != nil {
		return nil, err
	}
	if r.t.scalar != 0 {
		return nil, c.errAt(x.Pos, "%s on a scalar value: values of a scalar set allow only ==, != and assignment", x.Op)
	}
	addr, store := c.storer(r, x.Pos)
	d := int32(1)
	if x.Op == syntax.OpDec {
		d = -1
	}
	out := &cexpr{t: litType, pos: x.Pos, lo: r.t.lo - 1, hi: r.t.hi + 1, effects: r.effects || c.writeEffect(cx, r)}
	pos := c.posStr(x.Pos)
	if x.Prefix {
		out.fn = func(e *Env) int32 { a := addr(e); return store(e, a, e.fit32(pos, int64(e.load(a))+int64(d))) }
	} else {
		out.fn = func(e *Env) int32 {
			a := addr(e)
			o := e.load(a)
			store(e, a, e.fit32(pos, int64(o)+int64(d)))
			return o
		}
	}
	return out, nil
}

// ---------------------------------------------------------------------------
// Quantifiers: forall/exists/sum over a bounded type, expanded when
// compiling (the body is compiled once per value with the variable bound to
// a constant).

func (c *compiler) quant(cx *ctx, x *syntax.QuantExpr) (*cexpr, error) {
	t, err := c.typeOf(cx.sc, x.Type)
	if err != nil {
		return nil, err
	}
	lo, hi, err := c.enumRange(t, x.Type.Pos, "quantifier range")
	if err != nil {
		return nil, err
	}
	var parts []*cexpr
	effects := false
	for v := lo; v <= hi; v++ {
		if c.work++; c.work > maxWork {
			return nil, c.errAt(x.Pos, "too many quantifier expansions (at most %d)", maxWork)
		}
		sc := newScope(cx.sc)
		sc.syms[x.Var] = &symbol{name: x.Var, kind: symConst, t: t.withConst(true), vals: []int64{v}}
		b, err := c.data(&ctx{sc: sc, query: cx.query}, x.Body)
		if err != nil {
			return nil, err
		}
		effects = effects || b.effects
		parts = append(parts, b)
	}
	switch x.Op {
	case syntax.OpForall, syntax.OpExists:
		all := x.Op == syntax.OpForall
		var fns []func(*Env) int32
		for _, p := range parts {
			if p.isConst {
				if (p.val != 0) != all {
					return constExpr(boolType, b64(!all), x.Pos), nil
				}
				continue
			}
			fns = append(fns, p.fn)
		}
		if len(fns) == 0 {
			return constExpr(boolType, b64(all), x.Pos), nil
		}
		out := &cexpr{t: boolType, lo: 0, hi: 1, pos: x.Pos, effects: effects}
		if all {
			out.fn = func(e *Env) int32 {
				for _, f := range fns {
					if f(e) == 0 {
						return 0
					}
				}
				return 1
			}
		} else {
			out.fn = func(e *Env) int32 {
				for _, f := range fns {
					if f(e) != 0 {
						return 1
					}
				}
				return 0
			}
		}
		return out, nil
	case syntax.OpSum:
		var k int64
		var fns []func(*Env) int32
		lo, hi := int64(0), int64(0)
		for _, p := range parts {
			lo, hi = clamp32(lo+p.lo), clamp32(hi+p.hi)
			if p.isConst {
				k += p.val
				continue
			}
			fns = append(fns, p.fn)
		}
		if len(fns) == 0 {
			return c.folded(litType, k, x.Pos)
		}
		// the constant instances' part may pass 32 bits where the total
		// does not (it is 64 bits, as the sum at run time, whose total
		// must fit: sum (j : int[0,2]) (j == 1 ? a : 2000000000) at a =
		// -2000000000 is 2000000000)
		pos := c.posStr(x.Pos)
		return &cexpr{t: litType, lo: lo, hi: hi, pos: x.Pos, effects: effects, fn: func(e *Env) int32 {
			s := k
			for _, f := range fns {
				s += int64(f(e))
			}
			return e.fit32(pos, s)
		}}, nil
	}
	return nil, c.errAt(x.Pos, "unsupported quantifier %s", x.Op)
}

// enumRange returns the values of a bounded type used for enumeration
// (select, quantifiers, free parameters, range loops).
func (c *compiler) enumRange(t *typ, p syntax.Pos, what string) (int64, int64, error) {
	if !t.isData() || t.kind == kArray {
		return 0, 0, c.errAt(p, "%s must be a bounded integer type, not %s", what, t)
	}
	if t.hi-t.lo+1 > maxRangeEnum {
		return 0, 0, c.errAt(p, "%s %s has %d values (at most %d supported)", what, t, t.hi-t.lo+1, maxRangeEnum)
	}
	return t.lo, t.hi, nil
}

package model

import (
	"github.com/tcheck/tcheck/model/syntax"
)

// Structs (UPPAAL's `struct { int a; bool b[2]; } s;`, `typedef struct
// {...} T;`) are flattened into their scalar slots, as arrays are: a struct
// variable occupies count() consecutive slots of the variable vector (or of
// a function frame), a field is a fixed offset within them, and `s.a` is a
// reference like `a[2]`. A struct is used whole only where UPPAAL allows
// it: assignment `s = t`, comparison `s == t` and `s != t`, initialisation
// (`T s = {1, true};` or `T s = t;`) and parameters (by value or by
// reference); the types must then be equivalent (equivalent). Whole arrays
// follow the same rules.

// readSlot returns a function reading slot k of the aggregate r whose
// address (index for constants) a the caller computed with baseAddr.
func readSlot(r *ref) func(e *Env, a, k int32) int32 {
	if r.space == rsConst {
		vals := r.vals
		return func(_ *Env, a, k int32) int32 { return vals[a+k] }
	}
	return func(e *Env, a, k int32) int32 { return e.load(addrAdd(a, k)) }
}

// aggregateRef returns the object an aggregate expression e denotes, or
// nil when e is no struct or array variable or constant.
func aggregateRef(e *cexpr) *ref {
	if e == nil || e.ref == nil || !e.t.isAggregate() || (e.ref.space != rsData && e.ref.space != rsConst) {
		return nil
	}
	return e.ref
}

// copier returns an action copying the aggregate src into the object dst
// of an equivalent type, whose address the caller passes (a), slot by
// slot, normalising bools and checking each value against the range of the
// slot it goes into (an assignment of a value outside a field's range is a
// runtime error, as for a scalar).
func (c *compiler) copier(dst, src *ref, p syntax.Pos) func(e *Env, a int32) {
	n := int32(dst.t.count())
	lo, hi, isBool := make([]int32, n), make([]int32, n), make([]bool, n)
	for k, l := range leaves(dst.t) {
		lo[k], hi[k], isBool[k] = int32(l.lo), int32(l.hi), l.kind == kBool
	}
	sa, read := c.baseAddr(src), readSlot(src)
	pos, net, name, t, viaRef := c.posStr(p), c.net, dst.name, dst.t, dst.viaRef
	return func(e *Env, a int32) {
		b := sa(e)
		if e.Err != nil {
			return
		}
		// All values are checked before any is stored: a copy that fails
		// leaves the target as it was, as a failing scalar store does.
		for k := int32(0); k < n; k++ {
			v := read(e, b, k)
			if isBool[k] && v != 0 {
				v = 1
			}
			d := addrAdd(a, k)
			if v < lo[k] || v > hi[k] {
				e.fail(pos, "assignment of %d to %s out of range [%d,%d]", v, slotName(net, d, name+slotPath(t, int(k))), lo[k], hi[k])
				return
			}
			if viaRef && d >= 0 {
				if vr := &net.Vars[d]; v < vr.Min || v > vr.Max {
					e.fail(pos, "assignment of %d to %s out of range [%d,%d]", v, vr.Name, vr.Min, vr.Max)
					return
				}
			}
		}
		for k := int32(0); k < n; k++ {
			v := read(e, b, k)
			if isBool[k] && v != 0 {
				v = 1
			}
			if d := addrAdd(a, k); d < 0 {
				e.frame[-d-1] = v
			} else {
				e.Vars[d] = v
			}
		}
	}
}

// assignAggregate compiles `s = t` for a struct or array target r.
func (c *compiler) assignAggregate(cx *ctx, x *syntax.AssignExpr, r *ref) (*cexpr, error) {
	what := "struct"
	if r.t.kind == kArray {
		what = "array"
	}
	if r.space != rsData || r.readonly {
		return nil, c.errAt(x.LHS.Position(), "cannot assign to constant %s", r.name)
	}
	if x.Op != syntax.OpAssign {
		return nil, c.errAt(x.Pos, "%s on %s %s: a whole %s is only assigned with '='", x.Op, what, r.name, what)
	}
	rhs, err := c.expr(cx, x.RHS)
	if err != nil {
		return nil, err
	}
	src := aggregateRef(rhs)
	if src == nil {
		return nil, c.errAt(x.RHS.Position(), "assignment to %s %s of %s, which is not %s of its type %s", what, r.name, exprString(x.RHS), kindDesc(r.t), r.t.withConst(false))
	}
	if !equivalent(r.t, src.t) {
		return nil, c.errAt(x.Pos, "assignment of %s (%s) to %s (%s): the types differ", src.name, src.t.withConst(false), r.name, r.t.withConst(false))
	}
	cp, da := c.copier(r, src, x.Pos), c.baseAddr(r)
	return &cexpr{t: r.t.withConst(false), pos: x.Pos, effects: rhs.effects || r.effects || c.writeEffect(cx, r),
		fn: func(e *Env) int32 { cp(e, da(e)); return 0 }}, nil
}

// compareAggregate compiles `s == t` or `s != t` for aggregates: equal
// when every slot is.
func (c *compiler) compareAggregate(cx *ctx, x *syntax.BinaryExpr, a *cexpr) (*cexpr, error) {
	b, err := c.expr(cx, x.Y)
	if err != nil {
		return nil, err
	}
	ra, rb := aggregateRef(a), aggregateRef(b)
	if ra == nil {
		return nil, c.errAt(x.X.Position(), "%s cannot be compared (it is %s, but not a variable or constant)", exprString(x.X), kindDesc(a.t))
	}
	if rb == nil {
		return nil, c.errAt(x.Y.Position(), "%s compares %s with %s, which is not a struct or array variable or constant", x.Op, ra.name, exprString(x.Y))
	}
	if !equivalent(ra.t, rb.t) {
		return nil, c.errAt(x.Pos, "%s compares %s (%s) with %s (%s): the types differ", x.Op, ra.name, ra.t.withConst(false), rb.name, rb.t.withConst(false))
	}
	eq := x.Op == syntax.OpEQ
	n := int32(ra.t.count())
	if ra.space == rsConst && rb.space == rsConst && ra.static && rb.static {
		same := true
		for k := 0; k < int(n); k++ {
			same = same && ra.vals[ra.off+k] == rb.vals[rb.off+k]
		}
		return constExpr(boolType, b64(same == eq), x.Pos), nil
	}
	aa, ba, reada, readb := c.baseAddr(ra), c.baseAddr(rb), readSlot(ra), readSlot(rb)
	yes, no := b2i(eq), b2i(!eq)
	return &cexpr{t: boolType, lo: 0, hi: 1, pos: x.Pos, effects: a.effects || b.effects, fn: func(e *Env) int32 {
		p, q := aa(e), ba(e)
		for k := int32(0); k < n; k++ {
			if reada(e, p, k) != readb(e, q, k) {
				return no
			}
		}
		return yes
	}}, nil
}

// slotExprs returns the values of the slots of the aggregate r as
// expressions (constants for a constant with constant indices), for an
// initialiser that is a whole struct or array: `T s = k;`.
func (c *compiler) slotExprs(r *ref, p syntax.Pos) []*cexpr {
	ls := leaves(r.t)
	out := make([]*cexpr, len(ls))
	if r.space == rsConst && r.static {
		for k, l := range ls {
			v := int64(r.vals[r.off+k])
			out[k] = constExpr(l, v, p)
		}
		return out
	}
	base, read := c.baseAddr(r), readSlot(r)
	for k, l := range ls {
		k32 := int32(k)
		out[k] = &cexpr{t: l, lo: l.lo, hi: l.hi, pos: p, effects: r.effects,
			fn: func(e *Env) int32 { return read(e, base(e), k32) }}
	}
	return out
}

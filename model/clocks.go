package model

import (
	"github.com/tcheck/tcheck/model/syntax"
)

// conjuncts splits a conjunction (&&, and) into its parts.
func conjuncts(x syntax.Expr, out []syntax.Expr) []syntax.Expr {
	x = unparen(x)
	if b, ok := x.(*syntax.BinaryExpr); ok && b.Op == syntax.OpAnd {
		out = conjuncts(b.X, out)
		return conjuncts(b.Y, out)
	}
	return append(out, x)
}

// mentionsClock reports whether x refers to a clock anywhere. Inside a
// quantifier the variable is bound to the first value of its type, so that
// `Proc(i).x` resolves.
func (c *compiler) mentionsClock(cx *ctx, x syntax.Expr) bool {
	switch x := x.(type) {
	case nil:
		return false
	case *syntax.Ident, *syntax.IndexExpr, *syntax.MemberExpr:
		if r, err := c.refExpr(cx, x); err == nil && r.space == rsClock {
			return true
		}
		if ix, ok := x.(*syntax.IndexExpr); ok {
			return c.mentionsClock(cx, ix.X) || c.mentionsClock(cx, ix.Index)
		}
	case *syntax.ParenExpr:
		return c.mentionsClock(cx, x.X)
	case *syntax.UnaryExpr:
		return c.mentionsClock(cx, x.X)
	case *syntax.BinaryExpr:
		return c.mentionsClock(cx, x.X) || c.mentionsClock(cx, x.Y)
	case *syntax.CondExpr:
		return c.mentionsClock(cx, x.Cond) || c.mentionsClock(cx, x.Then) || c.mentionsClock(cx, x.Else)
	case *syntax.CallExpr:
		for _, a := range x.Args {
			if c.mentionsClock(cx, a) {
				return true
			}
		}
	case *syntax.IncDecExpr:
		return c.mentionsClock(cx, x.X)
	case *syntax.AssignExpr:
		return c.mentionsClock(cx, x.LHS) || c.mentionsClock(cx, x.RHS)
	case *syntax.QuantExpr:
		sc := newScope(cx.sc)
		if t, err := c.typeOf(cx.sc, x.Type); err == nil && t.isData() && t.kind != kArray {
			sc.syms[x.Var] = &symbol{name: x.Var, kind: symConst, t: t.withConst(true), vals: []int64{t.lo}}
		}
		return c.mentionsClock(&ctx{sc: sc, query: cx.query}, x.Body)
	}
	return false
}

// clockConstraints splits a guard or invariant into clock constraints and
// a data condition (nil when there is none). Guards and invariants must be
// conjunctions; each conjunct that mentions a clock must be a comparison of
// a clock or a clock difference with a data expression. In an invariant a
// clock may only be bounded from above (x < e, x <= e) or by a diagonal.
//
// rates is nil for a guard; for an invariant it collects the clock rates
// (conjuncts x' == e, UPPAAL's stopwatches).
func (c *compiler) clockConstraints(cx *ctx, x syntax.Expr, rates *[]ClockRate) ([]ClockConstraint, *cexpr, error) {
	inv := rates != nil
	var cc []ClockConstraint
	var data *cexpr
	for _, k := range conjuncts(x, nil) {
		if inv {
			if b, rx, val := rateConjunct(k); rx != nil {
				r, err := c.rate(cx, k, b, rx, val)
				if err != nil {
					return nil, nil, err
				}
				*rates = append(*rates, r)
				continue
			}
		}
		if !c.mentionsClock(cx, k) {
			d, err := c.data(cx, k)
			if err != nil {
				return nil, nil, err
			}
			d = c.truth(d)
			if data == nil {
				data = d
			} else {
				data, err = c.andExpr(data, d)
				if err != nil {
					return nil, nil, err
				}
			}
			continue
		}
		cs, d, err := c.clockAtom(cx, k)
		if err != nil {
			return nil, nil, err
		}
		if d != nil {
			if data == nil {
				data = d
			} else if data, err = c.andExpr(data, d); err != nil {
				return nil, nil, err
			}
			continue
		}
		cc = append(cc, cs...)
	}
	return cc, data, nil
}

// rateConjunct recognises x' == e and e == x' (rx is nil otherwise).
func rateConjunct(k syntax.Expr) (b *syntax.BinaryExpr, rx *syntax.RateExpr, val syntax.Expr) {
	b, ok := unparen(k).(*syntax.BinaryExpr)
	if !ok || b.Op != syntax.OpEQ {
		return nil, nil, nil
	}
	if r, ok := unparen(b.X).(*syntax.RateExpr); ok {
		return b, r, b.Y
	}
	if r, ok := unparen(b.Y).(*syntax.RateExpr); ok {
		return b, r, b.X
	}
	return nil, nil, nil
}

// rate compiles the invariant conjunct k, x' == val: x must be one clock
// and val a data expression without side effects whose value is 0 or 1 —
// checked here when it is constant, else when it is evaluated (a runtime
// error at val's position).
func (c *compiler) rate(cx *ctx, k syntax.Expr, b *syntax.BinaryExpr, rx *syntax.RateExpr, val syntax.Expr) (ClockRate, error) {
	r, err := c.refExpr(cx, rx.X)
	if err != nil || r.space != rsClock {
		return ClockRate{}, c.errAt(rx.X.Position(), "%s' is not a clock rate: %s is not a clock", exprString(rx.X), exprString(rx.X))
	}
	if r.t.kind != kClock {
		return ClockRate{}, c.errAt(rx.X.Position(), "%s is an array of clocks: index it", r.name)
	}
	if !r.static {
		return ClockRate{}, c.errAt(rx.X.Position(), "the index of clock %s must be a constant", r.name)
	}
	if c.mentionsClock(cx, val) {
		return ClockRate{}, c.errAt(val.Position(), "the rate of clock %s must be a data expression (0 or 1), not %s", r.name, exprString(val))
	}
	d, err := c.data(cx, val)
	if err != nil {
		return ClockRate{}, err
	}
	if d.effects {
		return ClockRate{}, c.errAt(val.Position(), "the rate %s has side effects", exprString(val))
	}
	out := ClockRate{Clock: r.off, Src: exprString(k)}
	if d.isConst {
		if d.val != 0 && d.val != 1 {
			return ClockRate{}, c.errAt(val.Position(), "the rate of clock %s is %d: only 0 (stopped) and 1 (running) are supported (stopwatches)", r.name, d.val)
		}
		out.Const = int32(d.val)
		return out, nil
	}
	f, pos, name := d.fn, c.posStr(val.Position()), r.name
	out.Value = c.intExpr(func(e *Env) int32 {
		v := f(e)
		if v != 0 && v != 1 {
			e.fail(pos, "the rate of clock %s is %d: a stopwatch rate must be 0 (stopped) or 1 (running)", name, v)
			return 1
		}
		return v
	})
	return out, nil
}

func (c *compiler) andExpr(a, b *cexpr) (*cexpr, error) {
	if a.isConst {
		if a.val == 0 {
			return a, nil
		}
		return b, nil
	}
	if b.isConst {
		if b.val == 0 {
			return b, nil
		}
		return a, nil
	}
	f, g := a.fn, b.fn
	return &cexpr{t: boolType, lo: 0, hi: 1, pos: a.pos, effects: a.effects || b.effects,
		fn: func(e *Env) int32 { return b2i(f(e) != 0 && g(e) != 0) }}, nil
}

// clockAtom compiles one clock comparison `L op R` where L - R is a clock,
// minus a clock, or a difference of two clocks, plus data terms.
//
// When the clocks cancel out (x - x ~ e, from a quantified formula), the
// result is the data condition 0 ~ e instead.
func (c *compiler) clockAtom(cx *ctx, k syntax.Expr) ([]ClockConstraint, *cexpr, error) {
	x := unparen(k)
	b, ok := x.(*syntax.BinaryExpr)
	if !ok {
		switch x := x.(type) {
		case *syntax.UnaryExpr:
			if x.Op == syntax.OpNot {
				return nil, nil, c.errAt(x.Pos, "negation of a clock constraint is not supported (write the opposite comparison)")
			}
		case *syntax.QuantExpr:
			return nil, nil, c.errAt(x.Pos, "quantifiers over clock constraints are not supported here")
		}
		return nil, nil, c.errAt(k.Position(), "%s uses a clock as data (clocks may only be compared: x < e, x - y <= e)", exprString(k))
	}
	switch b.Op {
	case syntax.OpOr, syntax.OpImply:
		return nil, nil, c.errAt(b.Pos, "disjunction over clock constraints is not supported in invariants (an invariant is a conjunction, as in UPPAAL)")
	case syntax.OpLT, syntax.OpLE, syntax.OpGT, syntax.OpGE, syntax.OpEQ:
	case syntax.OpNE:
		return nil, nil, c.errAt(b.Pos, "clock disequality %s is not a convex constraint (not supported)", exprString(k))
	default:
		return nil, nil, c.errAt(k.Position(), "%s uses a clock as data (clocks may only be compared: x < e, x - y <= e)", exprString(k))
	}
	lin := &linear{}
	if err := c.linearize(cx, b.X, 1, lin); err != nil {
		return nil, nil, err
	}
	if err := c.linearize(cx, b.Y, -1, lin); err != nil {
		return nil, nil, err
	}
	// Clock part p - q (0 is the reference clock).
	var p, q int
	var nz []clockTerm
	for _, t := range lin.clocks {
		if t.coef != 0 {
			nz = append(nz, t)
		}
	}
	switch {
	case len(nz) == 1 && nz[0].coef == 1:
		p = nz[0].clock
	case len(nz) == 1 && nz[0].coef == -1:
		q = nz[0].clock
	case len(nz) == 2 && nz[0].coef == 1 && nz[1].coef == -1:
		p, q = nz[0].clock, nz[1].clock
	case len(nz) == 2 && nz[0].coef == -1 && nz[1].coef == 1:
		p, q = nz[1].clock, nz[0].clock
	case len(nz) == 0:
		// x - x ~ e (quantifiers make these): the constraint is 0 ~ e.
		bnd, err := c.negSum(lin.data, b.Pos)
		if err != nil {
			return nil, nil, err
		}
		d, err := c.binaryOf2(b.Op, constExpr(litType, 0, b.Pos), bnd, b.Pos)
		return nil, d, err
	default:
		return nil, nil, c.errAt(b.Pos, "unsupported clock constraint %s: only x ~ e and x - y ~ e are allowed", exprString(k))
	}
	// p - q + D op 0, so p - q op -D: the bound B is -D.
	bnd, err := c.negSum(lin.data, b.Pos)
	if err != nil {
		return nil, nil, err
	}
	if bnd.isConst && (bnd.val > MaxClockConst || bnd.val < -MaxClockConst) {
		return nil, nil, c.errAt(b.Pos, "clock constant %d in %s out of range [-%d, %d]", bnd.val, exprString(k), MaxClockConst, MaxClockConst)
	}
	pos := c.posStr(b.Pos)
	upper := func(i, j int, strict bool, v *cexpr) ClockConstraint {
		cn := ClockConstraint{I: i, J: j, Strict: strict}
		if v.isConst {
			cn.Const = int32(v.val)
			cn.lo, cn.hi = v.val, v.val
		} else {
			// A constant computed from data is checked when it is
			// evaluated: leaving the DBM's range is a runtime error of
			// the move (or state) that evaluates it.
			f := v.fn
			cn.Value = c.intExpr(func(e *Env) int32 {
				x := f(e)
				if x > MaxClockConst || x < -MaxClockConst {
					e.fail(pos, "clock constant %d out of range [-%d, %d]", x, MaxClockConst, MaxClockConst)
					return 0
				}
				return x
			})
			cn.lo, cn.hi = max(v.lo, -MaxClockConst), min(v.hi, MaxClockConst)
		}
		return cn
	}
	neg := c.negate(bnd)
	switch b.Op {
	case syntax.OpLT:
		return []ClockConstraint{upper(p, q, true, bnd)}, nil, nil
	case syntax.OpLE:
		return []ClockConstraint{upper(p, q, false, bnd)}, nil, nil
	case syntax.OpGT:
		return []ClockConstraint{upper(q, p, true, neg)}, nil, nil
	case syntax.OpGE:
		return []ClockConstraint{upper(q, p, false, neg)}, nil, nil
	}
	// ==: both bounds, the upper first.
	return []ClockConstraint{upper(p, q, false, bnd), upper(q, p, false, neg)}, nil, nil
}

type clockTerm struct {
	clock, coef int
}

type signedData struct {
	sign int
	e    *cexpr
}

type linear struct {
	clocks []clockTerm
	data   []signedData
}

func (l *linear) addClock(x, coef int) {
	for i := range l.clocks {
		if l.clocks[i].clock == x {
			l.clocks[i].coef += coef
			return
		}
	}
	l.clocks = append(l.clocks, clockTerm{x, coef})
}

// linearize splits a sum of clocks and data into clock terms and data
// terms.
func (c *compiler) linearize(cx *ctx, x syntax.Expr, sign int, l *linear) error {
	x = unparen(x)
	switch y := x.(type) {
	case *syntax.BinaryExpr:
		switch y.Op {
		case syntax.OpAdd:
			if err := c.linearize(cx, y.X, sign, l); err != nil {
				return err
			}
			return c.linearize(cx, y.Y, sign, l)
		case syntax.OpSub:
			if err := c.linearize(cx, y.X, sign, l); err != nil {
				return err
			}
			return c.linearize(cx, y.Y, -sign, l)
		}
	case *syntax.UnaryExpr:
		switch y.Op {
		case syntax.OpNeg:
			return c.linearize(cx, y.X, -sign, l)
		case syntax.OpPlus:
			return c.linearize(cx, y.X, sign, l)
		}
	case *syntax.Ident, *syntax.IndexExpr, *syntax.MemberExpr:
		r, err := c.refExpr(cx, x)
		if err == nil && r.space == rsClock {
			if r.t.kind != kClock {
				return c.errAt(x.Position(), "%s is an array of clocks: index it", r.name)
			}
			if !r.static {
				return c.errAt(x.Position(), "the index of clock %s must be a constant", r.name)
			}
			l.addClock(r.off, sign)
			return nil
		}
		// an element of a clock array that cannot be selected (its index
		// out of bounds, not an integer): that error, not "unsupported
		// clock expression"
		if ix, ok := x.(*syntax.IndexExpr); ok && err != nil {
			if a, aerr := c.refExpr(cx, ix.X); aerr == nil && a.space == rsClock {
				return err
			}
		}
	}
	if c.mentionsClock(cx, x) {
		return c.errAt(x.Position(), "unsupported clock expression %s: clocks may only be added or subtracted", exprString(x))
	}
	d, err := c.data(cx, x)
	if err != nil {
		return err
	}
	if d.effects {
		return c.errAt(x.Position(), "%s has side effects", exprString(x))
	}
	l.data = append(l.data, signedData{sign, d})
	return nil
}

// negSum returns -(Σ sign·e): the bound of a clock constraint.
func (c *compiler) negSum(ds []signedData, p syntax.Pos) (*cexpr, error) {
	var k int64
	var lo, hi int64
	var fns []func(*Env) int32
	var signs []int32
	for _, d := range ds {
		s := int64(-d.sign)
		if d.e.isConst {
			k += s * d.e.val
			continue
		}
		fns = append(fns, d.e.fn)
		signs = append(signs, int32(s))
		if s > 0 {
			lo, hi = lo+d.e.lo, hi+d.e.hi
		} else {
			lo, hi = lo-d.e.hi, hi-d.e.lo
		}
	}
	if len(fns) == 0 {
		return c.folded(litType, k, p)
	}
	// k, the constants' part, may pass 32 bits where the bound does not:
	// it is 64 bits, as the sum at run time, whose total must fit (x <=
	// 2000000000 + a + 2000000000 + a + 10 at a = -2000000000 is x <= 10)
	out := &cexpr{t: litType, pos: p, lo: clamp32(lo + k), hi: clamp32(hi + k)}
	pos := c.posStr(p)
	if len(fns) == 1 && signs[0] == 1 {
		f := fns[0]
		out.fn = func(e *Env) int32 { return e.fit32(pos, int64(f(e))+k) }
		return out, nil
	}
	out.fn = func(e *Env) int32 {
		s := k
		for i, f := range fns {
			s += int64(signs[i]) * int64(f(e))
		}
		return e.fit32(pos, s)
	}
	return out, nil
}

func (c *compiler) negate(v *cexpr) *cexpr {
	if v.isConst {
		return constExpr(litType, -v.val, v.pos)
	}
	f := v.fn
	return &cexpr{t: litType, pos: v.pos, lo: -v.hi, hi: -v.lo, fn: func(e *Env) int32 { return -f(e) }} // -MinInt32 wraps to MinInt32, which the range check of a clock constant rejects
}

package model

import "github.com/tcheck/tcheck/model/syntax"

// Guards that mix clock constraints with disjunction, such as
// `(set && c <= 5) || !set`, are accepted by UPPAAL although a zone (a
// conjunction of clock constraints) cannot represent them. The compiler
// splits such an edge into copies whose guards are conjunctions and are
// pairwise disjoint, so that every valuation enabling the original edge
// enables exactly one copy: the transition relation is unchanged, no move
// is duplicated, and broadcast receivers still join once.
//
// guardDisjuncts computes those conjunctions: a disjunctive normal form
// over literals, where a literal is a comparison that mentions a clock (its
// negation is the opposite comparison; x == c negates to x < c || x > c) or
// a clock-free subexpression, kept whole. The clauses D1, ..., Dk are made
// disjoint as D1, D2 ∧ ¬D1, ..., with each ¬Dj (¬l1 ∨ ¬l2 ∨ ...) written
// disjointly as ¬l1 ∨ (l1 ∧ ¬l2) ∨ .... A guard whose clock constraints
// are only conjoined is returned as it is.

// maxGuardClauses bounds the copies of one edge.
const maxGuardClauses = 64

// guardDisjuncts returns the guards of the copies of an edge with guard g,
// or []syntax.Expr{g} when no copy is needed.
func (c *compiler) guardDisjuncts(cx *ctx, g syntax.Expr) ([]syntax.Expr, error) {
	if g == nil || !c.clockDisjunction(cx, g, false) {
		return []syntax.Expr{g}, nil
	}
	clauses, err := c.dnf(cx, g, false)
	if err != nil {
		return nil, err
	}
	var disjoint [][]syntax.Expr
	for k, d := range clauses {
		parts := [][]syntax.Expr{d}
		for _, prev := range clauses[:k] {
			var next [][]syntax.Expr
			for _, p := range parts {
				// p ∧ ¬prev, written disjointly
				for i, l := range prev {
					neg, err := c.dnf(cx, l, true)
					if err != nil {
						return nil, err
					}
					for _, n := range neg {
						cl := append(append(append([]syntax.Expr{}, p...), prev[:i]...), n...)
						next = append(next, cl)
					}
				}
			}
			parts = next
			if len(parts) > maxGuardClauses {
				return nil, c.errAt(g.Position(), "the guard's disjunction over clock constraints needs more than %d disjoint cases (simplify it)", maxGuardClauses)
			}
		}
		disjoint = append(disjoint, parts...)
		if len(disjoint) > maxGuardClauses {
			return nil, c.errAt(g.Position(), "the guard's disjunction over clock constraints needs more than %d disjoint cases (simplify it)", maxGuardClauses)
		}
	}
	out := make([]syntax.Expr, len(disjoint))
	for i, cl := range disjoint {
		out[i] = conj(cl)
	}
	return out, nil
}

// clockDisjunction reports whether x (negated when neg) needs splitting:
// a disjunction, implication or negated conjunction that has a clock
// constraint below it.
func (c *compiler) clockDisjunction(cx *ctx, x syntax.Expr, neg bool) bool {
	switch y := x.(type) {
	case *syntax.ParenExpr:
		return c.clockDisjunction(cx, y.X, neg)
	case *syntax.UnaryExpr:
		if y.Op == syntax.OpNot {
			return c.clockDisjunction(cx, y.X, !neg)
		}
	case *syntax.BinaryExpr:
		switch y.Op {
		case syntax.OpAnd, syntax.OpOr, syntax.OpImply:
			or := isDisjunction(y.Op, neg)
			if or && c.mentionsClock(cx, y) {
				return true
			}
			nx := neg
			if y.Op == syntax.OpImply {
				nx = !neg
			}
			return c.clockDisjunction(cx, y.X, nx) || c.clockDisjunction(cx, y.Y, neg)
		case syntax.OpEQ:
			return neg && c.mentionsClock(cx, y)
		}
	}
	return false
}

// dnf returns x (its negation when neg) as a disjunction of conjunctions
// of literals.
func (c *compiler) dnf(cx *ctx, x syntax.Expr, neg bool) ([][]syntax.Expr, error) {
	if !c.mentionsClock(cx, x) {
		if neg {
			x = &syntax.UnaryExpr{Pos: x.Position(), Op: syntax.OpNot, X: &syntax.ParenExpr{Pos: x.Position(), X: x}}
		}
		return [][]syntax.Expr{{x}}, nil
	}
	switch y := x.(type) {
	case *syntax.ParenExpr:
		return c.dnf(cx, y.X, neg)
	case *syntax.UnaryExpr:
		if y.Op == syntax.OpNot {
			return c.dnf(cx, y.X, !neg)
		}
	case *syntax.BinaryExpr:
		switch y.Op {
		case syntax.OpAnd, syntax.OpOr, syntax.OpImply:
			a, err := c.dnf(cx, y.X, neg != (y.Op == syntax.OpImply))
			if err != nil {
				return nil, err
			}
			b, err := c.dnf(cx, y.Y, neg)
			if err != nil {
				return nil, err
			}
			or := isDisjunction(y.Op, neg)
			if or {
				return append(a, b...), nil
			}
			var out [][]syntax.Expr
			for _, p := range a {
				for _, q := range b {
					out = append(out, append(append([]syntax.Expr{}, p...), q...))
				}
			}
			if len(out) > maxGuardClauses {
				return nil, c.errAt(y.Pos, "the guard's disjunction over clock constraints needs more than %d disjoint cases (simplify it)", maxGuardClauses)
			}
			return out, nil
		case syntax.OpLT, syntax.OpLE, syntax.OpGT, syntax.OpGE, syntax.OpEQ, syntax.OpNE:
			if !neg {
				return [][]syntax.Expr{{y}}, nil
			}
			flip := func(op syntax.Op) syntax.Expr { return &syntax.BinaryExpr{Pos: y.Pos, Op: op, X: y.X, Y: y.Y} }
			switch y.Op {
			case syntax.OpLT:
				return [][]syntax.Expr{{flip(syntax.OpGE)}}, nil
			case syntax.OpLE:
				return [][]syntax.Expr{{flip(syntax.OpGT)}}, nil
			case syntax.OpGT:
				return [][]syntax.Expr{{flip(syntax.OpLE)}}, nil
			case syntax.OpGE:
				return [][]syntax.Expr{{flip(syntax.OpLT)}}, nil
			case syntax.OpEQ:
				return [][]syntax.Expr{{flip(syntax.OpLT)}, {flip(syntax.OpGT)}}, nil
			default: // x != e negated is x == e
				return [][]syntax.Expr{{flip(syntax.OpEQ)}}, nil
			}
		}
	}
	// anything else with a clock: leave it to clockConstraints' message
	if neg {
		x = &syntax.UnaryExpr{Pos: x.Position(), Op: syntax.OpNot, X: x}
	}
	return [][]syntax.Expr{{x}}, nil
}

// isDisjunction reports whether a binary && / || / imply, negated when
// neg, is a disjunction: a || b, a imply b (= !a || b), !(a && b).
func isDisjunction(op syntax.Op, neg bool) bool {
	return (op == syntax.OpAnd) == neg
}

// conj joins literals with &&.
func conj(ls []syntax.Expr) syntax.Expr {
	x := ls[0]
	for _, l := range ls[1:] {
		x = &syntax.BinaryExpr{Pos: l.Position(), Op: syntax.OpAnd, X: x, Y: l}
	}
	return x
}

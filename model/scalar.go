package model

import "github.com/tcheck/tcheck/model/syntax"

// Scalar sets (scalar[n]; Ip and Dill's Murϕ, "Better verification through
// symmetry", 1996, and UPPAAL after Hendriks, Behrmann, Larsen, Niebert,
// Vaandrager, "Adding symmetry reduction to Uppaal", FORMATS 2003) are
// types whose values may be permuted without changing what a model does.
// That holds only if the model never tells the values apart except by
// equality: so a scalar value may be compared with == and != against a
// value of the same set, assigned to a variable of the same set, passed
// to a parameter of the same set and used to index an array whose
// dimension is the set, and nothing else: no arithmetic, no order, no
// constants (a literal names one member). The values are 0..n-1 inside.

// scalarOf is the scalar set of e's value (0: none).
func scalarOf(e *cexpr) int {
	if e == nil || e.t == nil {
		return 0
	}
	return e.t.scalar
}

// checkScalarBinary enforces the rules on a binary operator.
func (c *compiler) checkScalarBinary(op syntax.Op, a, b *cexpr, p syntax.Pos) error {
	sa, sb := scalarOf(a), scalarOf(b)
	if sa == 0 && sb == 0 {
		return nil
	}
	if op != syntax.OpEQ && op != syntax.OpNE {
		return c.errAt(p, "%s on a scalar value: values of a scalar set allow only ==, != and assignment", op)
	}
	if sa != sb {
		return c.errAt(p, "%s compares values of different types: a scalar value equals only values of its own scalar set (no constants)", op)
	}
	return nil
}

// checkScalarAssign enforces the rules where a value v goes into a place
// of type t (an assignment, an initialiser, an argument): the same scalar
// set on both sides, or none.
func (c *compiler) checkScalarAssign(t *typ, v *cexpr, what string, p syntax.Pos) error {
	st, sv := 0, scalarOf(v)
	if t != nil {
		st = t.scalar
	}
	switch {
	case st == sv:
		return nil
	case st != 0 && sv == 0:
		return c.errAt(p, "%s: a scalar variable takes only values of its scalar set, not integers (no scalar constants)", what)
	case st == 0:
		return c.errAt(p, "%s: a scalar value cannot be used as an integer", what)
	}
	return c.errAt(p, "%s: values of different scalar sets", what)
}

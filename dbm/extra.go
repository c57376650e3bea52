package dbm

import "fmt"

// NoBound is the clock bound "−∞": the clock is never compared (with the
// corresponding kind of constraint), so extrapolation may forget everything
// about it. Any negative bound is treated as NoBound.
const NoBound int32 = -(1 << 30)

// The four extrapolations below follow Behrmann, Bouyer, Larsen, Pelánek,
// "Lower and upper bounds in zone-based abstractions of timed automata",
// STTT 8(3), 2006, which defines Extra_M, Extra_M^+, Extra_LU and
// Extra_LU^+. Each is defined entry by entry on a closed DBM (c_ij ≺_ij),
// with M, L, U the clock bound arrays indexed by clock and M(x_0) = L(x_0) =
// U(x_0) = 0. "c > K" compares the constant of the bound with K. The
// conditions read the original entries, so row 0 (which the "+" variants
// consult) is rewritten last. The result is not closed in general and is
// closed afterwards; it always includes the original zone, so it is never
// empty.
//
// A bound that replaces a lower bound by "< −K" cannot use K = −∞: for
// NoBound the entry becomes "≤ 0" in row 0 (x ≥ 0, the weakest valid lower
// bound) and "< ∞" elsewhere.
//
// The inclusions Z ⊆ Extra_M(Z) ⊆ Extra_M^+(Z) ⊆ Extra_LU^+(Z) and
// Extra_M(Z) ⊆ Extra_LU(Z) ⊆ Extra_LU^+(Z) (for M = max(L, U)) hold, and
// Extra_LU with L = U = M is Extra_M (tested).

// lowerRepl is the replacement "< −k" for a lower bound in row i.
func lowerRepl(i int, k int32) Bound {
	if k < 0 {
		if i == 0 {
			return LEZero
		}
		return LTInf
	}
	return LT(-k)
}

// ExtraM applies the classical maximal-bounds extrapolation Extra_M
// (STTT 2006; the "normalisation" of Bengtsson & Yi 2004):
//
//	c'_ij = < ∞     if c_ij > M(x_i)
//	        < −M(x_j) if −c_ij > M(x_j)
//	        c_ij     otherwise
//
// It preserves region equivalence (Extra_M(Z) is included in the union of
// M-regions that meet Z), hence every property of the model with bounds M
// without diagonal constraints. It does not allocate.
//
// Precondition: d is closed and non-empty (checked in debug builds);
// len(max) == d.Dim, max[0] == 0, each max[x] is NoBound or in [0, MaxConst]
// (checked in debug builds).
// Postcondition: d ⊇ old d and d is closed (checked in debug builds).
func (d DBM) ExtraM(max []int32) {
	if debug {
		d.checkExtra("ExtraM", max, max)
	}
	n := d.Dim
	m := d.M
	max = max[:n]
	changed := false
	for i := 1; i < n; i++ {
		row := m[i*n : i*n+n]
		mi := max[i]
		for j, c := range row {
			if j == i || c == LTInf {
				continue
			}
			if c.Const() > mi {
				row[j] = LTInf
				changed = true
			} else if -c.Const() > max[j] {
				row[j] = lowerRepl(i, max[j])
				changed = true
			}
		}
	}
	row0 := m[:n]
	for j := 1; j < n; j++ {
		if c := row0[j]; -c.Const() > max[j] {
			row0[j] = lowerRepl(0, max[j])
			changed = true
		}
	}
	d.finishExtra("ExtraM", changed)
}

// ExtraMPlus applies Extra_M^+ (STTT 2006), coarser than Extra_M
// and still preserving reachability for bounds M:
//
//	c'_ij = < ∞     if c_ij > M(x_i)
//	        < ∞     if −c_0i > M(x_i)
//	        < ∞     if −c_0j > M(x_j), i ≠ 0
//	        < −M(x_j) if −c_0j > M(x_j), i = 0
//	        c_ij     otherwise
//
// It does not allocate.
//
// Precondition: as for [DBM.ExtraM].
// Postcondition: d ⊇ old d and d is closed (checked in debug builds).
func (d DBM) ExtraMPlus(max []int32) {
	if debug {
		d.checkExtra("ExtraMPlus", max, max)
	}
	n := d.Dim
	m := d.M
	max = max[:n]
	row0 := m[:n]
	changed := false
	for i := 1; i < n; i++ {
		row := m[i*n : i*n+n]
		mi := max[i]
		dropRow := -row0[i].Const() > mi // x_i is above M(x_i) everywhere
		for j, c := range row {
			if j == i || c == LTInf {
				continue
			}
			if dropRow || c.Const() > mi || (j != 0 && -row0[j].Const() > max[j]) {
				row[j] = LTInf
				changed = true
			}
		}
	}
	for j := 1; j < n; j++ {
		if c := row0[j]; -c.Const() > max[j] {
			row0[j] = lowerRepl(0, max[j])
			changed = true
		}
	}
	d.finishExtra("ExtraMPlus", changed)
}

// ExtraLU applies Extra_LU (STTT 2006) with lower bounds l and
// upper bounds u (L(x): largest constant in a constraint x > c or x ≥ c;
// U(x): largest in x < c or x ≤ c):
//
//	c'_ij = < ∞     if c_ij > L(x_i)
//	        < −U(x_j) if −c_ij > U(x_j)
//	        c_ij     otherwise
//
// It preserves reachability (LU-simulation). It does not allocate.
//
// Precondition: d is closed and non-empty (checked in debug builds);
// len(l) == len(u) == d.Dim, l[0] == u[0] == 0, entries NoBound or in
// [0, MaxConst] (checked in debug builds).
// Postcondition: d ⊇ old d and d is closed (checked in debug builds).
func (d DBM) ExtraLU(l, u []int32) {
	if debug {
		d.checkExtra("ExtraLU", l, u)
	}
	n := d.Dim
	m := d.M
	l, u = l[:n], u[:n]
	changed := false
	for i := 1; i < n; i++ {
		row := m[i*n : i*n+n]
		li := l[i]
		for j, c := range row {
			if j == i || c == LTInf {
				continue
			}
			if c.Const() > li {
				row[j] = LTInf
				changed = true
			} else if -c.Const() > u[j] {
				row[j] = lowerRepl(i, u[j])
				changed = true
			}
		}
	}
	row0 := m[:n]
	for j := 1; j < n; j++ {
		if c := row0[j]; -c.Const() > u[j] {
			row0[j] = lowerRepl(0, u[j])
			changed = true
		}
	}
	d.finishExtra("ExtraLU", changed)
}

// ExtraLUPlus applies Extra_LU^+ (STTT 2006), the coarsest of the
// four and tcheck's default for reachability:
//
//	c'_ij = < ∞     if c_ij > L(x_i)
//	        < ∞     if −c_0i > L(x_i)
//	        < ∞     if −c_0j > U(x_j), i ≠ 0
//	        < −U(x_j) if −c_0j > U(x_j), i = 0
//	        c_ij     otherwise
//
// It does not allocate.
//
// Precondition: as for [DBM.ExtraLU].
// Postcondition: d ⊇ old d and d is closed (checked in debug builds).
func (d DBM) ExtraLUPlus(l, u []int32) {
	if debug {
		d.checkExtra("ExtraLUPlus", l, u)
	}
	n := d.Dim
	m := d.M
	l, u = l[:n], u[:n]
	row0 := m[:n]
	changed := false
	var free uint64 // rows left < ∞ off the diagonal, for the closure
	for i := 1; i < n; i++ {
		row := m[i*n : i*n+n]
		li := l[i]
		if -row0[i].Const() > li {
			// the whole row goes: often a clock without bounds, whose row
			// is < ∞ already
			for j, c := range row {
				if c != LTInf && j != i {
					row[j] = LTInf
					changed = true
				}
			}
			if i < 64 {
				free |= 1 << i
			}
			continue
		}
		finite := false
		for j, c := range row {
			if j == i || c == LTInf {
				continue
			}
			if c.Const() > li || (j != 0 && -row0[j].Const() > u[j]) {
				row[j] = LTInf
				changed = true
			} else {
				finite = true
			}
		}
		if !finite && i < 64 {
			free |= 1 << i
		}
	}
	for j := 1; j < n; j++ {
		if c := row0[j]; -c.Const() > u[j] {
			row0[j] = lowerRepl(0, u[j])
			changed = true
		}
	}
	d.finishExtraFree("ExtraLUPlus", changed, free, true)
}

func (d DBM) finishExtra(op string, changed bool) { d.finishExtraFree(op, changed, 0, false) }

// finishExtraFree closes d after an extrapolation that changed it. When
// known is set, free names the rows below 64 the extrapolation left < ∞
// everywhere but on the diagonal (as for close).
func (d DBM) finishExtraFree(op string, changed bool, free uint64, known bool) {
	if changed && !d.close(free, known) {
		panic("dbm: " + op + ": extrapolation produced an empty zone (input was empty or not closed)")
	}
	if debug {
		d.check(op)
	}
}

func (d DBM) checkExtra(op string, l, u []int32) {
	d.check(op + " (before)")
	for _, a := range [][]int32{l, u} {
		if len(a) != d.Dim {
			panic(fmt.Sprintf("dbm: %s: %d bounds for dimension %d", op, len(a), d.Dim))
		}
		if a[0] != 0 {
			panic(fmt.Sprintf("dbm: %s: bound of the reference clock is %d, want 0", op, a[0]))
		}
		for x, k := range a {
			if k != NoBound && (k < 0 || k > MaxConst) {
				panic(fmt.Sprintf("dbm: %s: bound %d of clock %d is neither NoBound nor in [0, MaxConst]", op, k, x))
			}
		}
	}
}

// ExtraMDiagonal extrapolates d for a model or query with diagonal
// constraints diags (x_I − x_J ≺ B with I, J ≥ 1), where plain Extra_M is
// unsound because it may change the truth of a diagonal constraint. It
// follows the zone-splitting normalisation of Bengtsson & Yi, "Timed
// automata: semantics, algorithms and tools", 2004 (and Bengtsson's
// thesis, 2002): d is split along each diagonal constraint that cuts it, so that every
// part lies entirely inside or entirely outside each constraint; each part
// is extrapolated with Extra_M and then intersected again with the
// constraints it satisfied and with the negations of those it violated.
// The parts are appended to out (which is returned); they are pairwise
// disjoint, their union includes d, and no part meets both a diagonal
// constraint and its negation. As in Bengtsson & Yi, max holds the maximal
// constants of the non-diagonal constraints; the diagonal constraints are
// taken care of by the splitting.
//
// Precondition: d is closed and non-empty; max as for [DBM.ExtraM] (checked
// in debug builds); out.Dim == d.Dim or out is the zero Federation
// (checked).
// Postcondition: the appended parts are closed and non-empty (checked in
// debug builds).
func (d DBM) ExtraMDiagonal(max []int32, diags []Constraint, out Federation) Federation {
	return d.extraSplit("ExtraMDiagonal", diags, out, func(e DBM) { e.ExtraM(max) })
}

// ExtraLUPlusSplit is [DBM.ExtraMDiagonal] with Extra_LU^+ (bounds l and u)
// in place of Extra_M: d is split along the constraints diags that cut it
// and each part is extrapolated and intersected again with the side of
// each constraint it lay on. The union of the parts includes d and every
// part keeps the truth of every constraint of diags; but Extra_LU^+ does
// not preserve what diagonal guards of a model decide (Bouyer 2004), so
// this is for over-approximations that must keep some diagonal
// constraints of a query exact (zone.Extrapolation.SplitDiagonals), not
// for models with diagonal guards.
//
// Precondition: as for [DBM.ExtraLUPlus] and [DBM.ExtraMDiagonal].
// Postcondition: as for [DBM.ExtraMDiagonal].
func (d DBM) ExtraLUPlusSplit(l, u []int32, diags []Constraint, out Federation) Federation {
	return d.extraSplit("ExtraLUPlusSplit", diags, out, func(e DBM) { e.ExtraLUPlus(l, u) })
}

// extraSplit splits d along diags, extrapolates each part with extra and
// restores each part's side of every constraint (ExtraMDiagonal).
func (d DBM) extraSplit(op string, diags []Constraint, out Federation, extra func(DBM)) Federation {
	if out.Dim == 0 {
		out.Dim = d.Dim
	}
	sameDim(op, d, DBM{Dim: out.Dim})
	parts := []DBM{d.Clone()}
	for _, g := range diags {
		if g.B == LTInf {
			continue
		}
		ng := g.Neg()
		k := len(parts)
		for p := 0; p < k; p++ {
			z := parts[p]
			if z.SatisfiesC(g) && z.SatisfiesC(ng) {
				other := z.Clone()
				z.ConstrainC(g)
				other.ConstrainC(ng)
				parts = append(parts, other)
			}
		}
	}
	for _, z := range parts {
		e := z.Clone()
		extra(e)
		for _, g := range diags {
			if g.B == LTInf {
				continue
			}
			if z.Implies(g.I, g.J, g.B) {
				e.ConstrainC(g)
			} else {
				e.ConstrainC(g.Neg())
			}
		}
		if debug {
			e.check(op)
		}
		out.Zones = append(out.Zones, e)
	}
	return out
}

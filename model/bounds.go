package model

import "math"

// clockBounds computes the static clock bounds used for LU extrapolation:
// per location L/U and the global GlobalL/GlobalU, and collects the diagonal
// constraints.
//
// The local bounds are the fixed point of Behrmann, Bouyer, Fleury and
// Larsen, "Static guard analysis in timed automata verification" (TACAS
// 2003, Sect. 3), computed per process over its own automaton:
//
//	L_l(x) ≥ c  for every lower bound x > c, x ≥ c, x == c in a guard of an
//	            edge leaving l (and in l's invariant, where only diagonals can
//	            give one);
//	U_l(x) ≥ c  for every upper bound x < c, x ≤ c, x == c in a guard of an
//	            edge leaving l or in the invariant of l;
//	            (a guard of an edge receiving on a broadcast channel counts
//	            negated as well: where it fails, the process stays out, so
//	            x ≤ c there is also the lower bound x > c)
//	L_l(x) ≥ L_l'(x), U_l(x) ≥ U_l'(x) for every edge l → l' that does not
//	            assign x.
//
// An edge that assigns x (x = v, for any value v) stops the propagation for
// x: the value of x before the edge is never compared again. The paper
// treats resets to 0; for a reset to v > 0 nothing needs to be added to the
// source either, since the zone after the update holds x = v exactly and the
// target's own bounds (and everything reachable from it) are what the
// abstraction of the target must preserve. A reset whose clock index or
// occurrence depends on data (a reset inside a function, an update that runs
// conditionally) is only recognised when it is unconditional at the top of
// the update; otherwise the bound is propagated, which is sound (bounds only
// get larger).
//
// A constraint whose constant depends on data contributes the largest value
// its expression can take (interval analysis over the declared ranges). A
// diagonal x - y ≺ c contributes |c| + MaxReset to the L and U of both
// clocks (Network.DiagonalBound: after x = v it compares y with v - c; sound
// for M-extrapolation with the zone splitting of Bengtsson and Yi; LU
// extrapolation is unsound with diagonals anyway, which is why they are
// listed in Network.Diagonals for the engine). Clocks of
// other processes and global clocks compared in a process are bounded in
// that process's locations; the bound of a global state is the maximum over
// its processes' locations, as in TChecker's clockbounds.
func (c *compiler) clockBounds() {
	n := c.net
	nc := len(n.Clocks)
	newArr := func() []int32 {
		a := make([]int32, nc)
		for i := range a {
			a[i] = NoBound
		}
		a[0] = 0
		return a
	}
	n.GlobalL, n.GlobalU = newArr(), newArr()
	n.MaxReset = boundConst(c.maxReset)
	for _, p := range n.Procs {
		for li := range p.Locations {
			l := &p.Locations[li]
			l.L, l.U = newArr(), newArr()
			for _, cn := range l.Invariant {
				addBound(n, l.L, l.U, cn)
				c.noteDiagonal(cn)
				if c.net.Priorities {
					// another process's transition that resets one of
					// cn's clocks is enabled only where cn holds after
					// the reset (see priorityBounds)
					m := boundConst(max(cn.hi, -cn.lo, 0) + c.maxReset)
					for _, x := range []int{cn.I, cn.J} {
						if x != 0 {
							l.L[x], l.U[x] = max(l.L[x], m), max(l.U[x], m)
						}
					}
				}
			}
		}
		// Constraints of guards contribute to the source location.
		resets := make([][]bool, len(p.Edges))
		for ei := range p.Edges {
			e := &p.Edges[ei]
			src := &p.Locations[e.From]
			if c.net.Priorities {
				c.priorityBounds(p, e, src)
			}
			for _, cn := range e.ClockGuard {
				addBound(n, src.L, src.U, cn)
				if e.BroadcastRecv {
					// where the process stays out, the negation holds:
					// a lower bound becomes an upper one and vice versa
					addBound(n, src.L, src.U, cn.negated())
				}
				c.noteDiagonal(cn)
			}
			resets[ei] = c.edgeResets(p.Index, ei, nc)
		}
		// Backward propagation to the fixed point. Each pass only raises
		// bounds, which are bounded, so it terminates.
		for changed := true; changed; {
			changed = false
			for ei := range p.Edges {
				e := &p.Edges[ei]
				src, dst := &p.Locations[e.From], &p.Locations[e.To]
				for x := 1; x < nc; x++ {
					if resets[ei][x] {
						continue
					}
					if dst.L[x] > src.L[x] {
						src.L[x], changed = dst.L[x], true
					}
					if dst.U[x] > src.U[x] {
						src.U[x], changed = dst.U[x], true
					}
				}
			}
		}
		for li := range p.Locations {
			l := &p.Locations[li]
			for x := 1; x < nc; x++ {
				n.GlobalL[x] = max(n.GlobalL[x], l.L[x])
				n.GlobalU[x] = max(n.GlobalU[x], l.U[x])
			}
		}
	}
}

// priorityBounds adds to src, the source of e, the constants with which a
// model with priorities compares clocks there: a transition through e
// blocks the transitions of lower priority where it is enabled, so they
// are taken where its guard fails (each guard constraint counts negated
// too) or where the target invariant would fail after its resets (x_I -
// x_J ≺ b after x_I := v is the constraint -x_J ≺ b - v on the source; the
// reset value v is at most c.maxReset).
func (c *compiler) priorityBounds(p *Process, e *Edge, src *Location) {
	for _, cn := range e.ClockGuard {
		addBound(c.net, src.L, src.U, cn.negated())
	}
	for _, cn := range p.Locations[e.To].Invariant {
		m := boundConst(max(cn.hi, -cn.lo, 0) + c.maxReset)
		for _, x := range []int{cn.I, cn.J} {
			if x != 0 {
				src.L[x] = max(src.L[x], m)
				src.U[x] = max(src.U[x], m)
			}
		}
	}
}

// negated returns ¬cn as a constraint x_J - x_I ≺' -v, with the range of
// its constant (only the bounds analysis reads it).
func (cn ClockConstraint) negated() ClockConstraint {
	return ClockConstraint{I: cn.J, J: cn.I, Strict: !cn.Strict, Const: -cn.Const, lo: -cn.hi, hi: -cn.lo}
}

func (c *compiler) noteDiagonal(cn ClockConstraint) {
	if cn.I != 0 && cn.J != 0 {
		c.net.Diagonals = append(c.net.Diagonals, cn)
	}
}

// boundConst clamps a bound constant to the int32 range of the bound
// arrays.
func boundConst(v int64) int32 {
	if v > math.MaxInt32>>2 {
		return math.MaxInt32 >> 2
	}
	if v < int64(NoBound) {
		return NoBound
	}
	return int32(v)
}

// addBound records the constant of cn in the bound arrays: x_I - 0 ≺ c is
// an upper bound c on x_I; 0 - x_J ≺ c a lower bound -c on x_J.
func addBound(n *Network, L, U []int32, cn ClockConstraint) {
	switch {
	case cn.J == 0 && cn.I != 0:
		U[cn.I] = max(U[cn.I], boundConst(cn.hi))
	case cn.I == 0 && cn.J != 0:
		L[cn.J] = max(L[cn.J], boundConst(-cn.lo))
	case cn.I != 0 && cn.J != 0:
		m := n.DiagonalBound(cn)
		for _, x := range []int{cn.I, cn.J} {
			L[x] = max(L[x], m)
			U[x] = max(U[x], m)
		}
	}
}

// edgeResets returns the clocks the edge's update certainly assigns. The
// compiler records the top-level resets of each update (see updateResets);
// resets inside functions are not counted (sound: propagation continues).
func (c *compiler) edgeResets(proc, edge, nc int) []bool {
	r := make([]bool, nc)
	for _, x := range c.resetsOf[[2]int{proc, edge}] {
		if x > 0 && x < nc {
			r[x] = true
		}
	}
	return r
}

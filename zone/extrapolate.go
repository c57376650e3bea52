package zone

import (
	"fmt"

	"github.com/tcheck/tcheck/dbm"
	"github.com/tcheck/tcheck/model"
)

// ExtraKind selects the zone abstraction applied to every successor.
type ExtraKind int

const (
	// ExtraLUPlus is Extra_LU^+ (Behrmann, Bouyer, Larsen, Pelánek, STTT
	// 2006, Sect. 5): the coarsest of the four, the default for
	// reachability of locations, data and bounded clock constraints.
	ExtraLUPlus ExtraKind = iota
	// ExtraLU is Extra_LU (STTT 2006, Sect. 4).
	ExtraLU
	// ExtraMPlus is Extra_M^+ (STTT 2006, Sect. 3); its abstraction is
	// contained in the region closure, a time-abstract bisimulation, so it
	// preserves deadlocks.
	ExtraMPlus
	// ExtraM is classical maximal-constant extrapolation Extra_M.
	ExtraM
	// ExtraNone applies no abstraction (termination is not guaranteed).
	ExtraNone
)

var extraNames = [...]string{"lu+", "lu", "m+", "m", "none"}

func (k ExtraKind) String() string {
	if k >= 0 && int(k) < len(extraNames) {
		return extraNames[k]
	}
	return fmt.Sprintf("ExtraKind(%d)", int(k))
}

// ParseExtraKind parses an extrapolation name as printed by String.
func ParseExtraKind(s string) (ExtraKind, error) {
	for i, n := range extraNames {
		if n == s {
			return ExtraKind(i), nil
		}
	}
	return 0, fmt.Errorf("unknown extrapolation %q (want lu+, lu, m+, m or none)", s)
}

// Extrapolation is the abstraction applied to successors: the operator, the
// bound source (global bounds or per-location bounds, Behrmann, Bouyer,
// Fleury, Larsen, TACAS 2003) and extra bounds and diagonal constraints
// contributed by the query.
type Extrapolation struct {
	Kind  ExtraKind
	Local bool // per-location bounds (the maximum over the processes' locations)
	// ExtraL and ExtraU are bounds added to every location's L and U,
	// indexed by clock (model.NoBound for none); nil for none. The query's
	// clock constants go here, so that extrapolation cannot erase the very
	// states the query asks about.
	ExtraL, ExtraU []int32
	// Diagonals are diagonal constraints whose truth must be preserved (the
	// model's and the query's). When non-empty, LU/M extrapolation would be
	// unsound, so the zone is split along them and abstracted with Extra_M
	// (Bengtsson and Yi 2004, Sect. 4.4); see Describe.
	Diagonals []model.ClockConstraint
	// SplitDiagonals, under Extra_LU+ and without Diagonals, are
	// diagonal constraints of a query decided on the stored zones as an
	// over-approximation (queries' deadlock queries, Options.VisitStored):
	// zones are split along them and every part keeps its side of each
	// (dbm.DBM.ExtraLUPlusSplit), so that the clock differences they ask
	// about stay exact while the rest is abstracted as usual.
	SplitDiagonals []model.ClockConstraint
	// NoDelayUpper, with local bounds, raises each clock's L to its U in a
	// location vector where time cannot pass (a committed or urgent
	// location), so that Extra_LU(+) keeps the clock's upper bounds up to U
	// there. Where time passes, a stored zone's upper bounds are its
	// invariant's, which a deadlock check imposes again; where it cannot,
	// they are what the state's moves may need (a target invariant x <= T
	// after x = 0), and a zone that has lost them holds valuations that are
	// deadlocked in the abstraction only. For deadlock queries decided on
	// the stored zones as an over-approximation (queries'); any bounds keep
	// every reachable valuation in a stored zone.
	NoDelayUpper bool
}

// Describe names the abstraction actually used, for the output.
func (x *Extrapolation) Describe() string {
	scope := "global"
	if x.Local {
		scope = "local"
	}
	if x.Kind == ExtraNone {
		return "none"
	}
	if len(x.Diagonals) > 0 {
		return fmt.Sprintf("m with diagonal splitting (%d diagonal constraints; %s requested), %s bounds", len(x.Diagonals), x.Kind, scope)
	}
	if len(x.SplitDiagonals) > 0 && x.Kind == ExtraLUPlus {
		return fmt.Sprintf("%s split along %d diagonal constraints, %s bounds", x.Kind, len(x.SplitDiagonals), scope)
	}
	return fmt.Sprintf("%s, %s bounds", x.Kind, scope)
}

// extrapolator applies an Extrapolation; it owns scratch bound arrays.
type extrapolator struct {
	sys   *System
	cfg   Extrapolation
	l, u  []int32
	m     []int32
	diags []dbm.Constraint
	split []dbm.Constraint // SplitDiagonals, under Extra_LU+ only
	side  []bool           // scratch of apply: the side of each of split
	fed   dbm.Federation
	// still[p][l]: time cannot pass while process p is in location l
	// (NoDelayUpper)
	still [][]bool
	// relevant[c] lists the processes with a location that bounds clock c
	// (the others contribute nothing to c's local bound), each with its
	// locations' bounds on c, flat: L, U of location 0, then of 1, ...
	// (computeBounds runs for every successor).
	relevant [][]relevantProc
	// deadAlways lists the clocks that have no bound in any location
	// vector, and dead[p][l] the clocks whose bounds come from process p
	// alone and that have none while p is in location l: the clocks
	// freeUnbounded frees (query constants and diagonals keep a clock out
	// of both).
	deadAlways []int
	dead       [][][]int
}

type relevantProc struct {
	p  int32
	lu []int32
}

func newExtrapolator(sys *System, cfg Extrapolation) *extrapolator {
	x := &extrapolator{
		sys: sys,
		cfg: cfg,
		l:   make([]int32, sys.Dim),
		u:   make([]int32, sys.Dim),
		m:   make([]int32, sys.Dim),
	}
	for _, c := range cfg.Diagonals {
		b := dbm.LE(c.Const)
		if c.Strict {
			b = dbm.LT(c.Const)
		}
		x.diags = append(x.diags, dbm.Constraint{I: c.I, J: c.J, B: b})
	}
	if len(x.diags) == 0 && cfg.Kind == ExtraLUPlus {
		for _, c := range cfg.SplitDiagonals {
			b := dbm.LE(c.Const)
			if c.Strict {
				b = dbm.LT(c.Const)
			}
			x.split = append(x.split, dbm.Constraint{I: c.I, J: c.J, B: b})
		}
	}
	if cfg.NoDelayUpper {
		x.still = make([][]bool, len(sys.Net.Procs))
		for p, proc := range sys.Net.Procs {
			x.still[p] = make([]bool, len(proc.Locations))
			for l, loc := range proc.Locations {
				x.still[p][l] = loc.Committed || loc.Urgent
			}
		}
	}
	x.relevant = make([][]relevantProc, sys.Dim)
	for c := range x.relevant {
		for p, proc := range sys.Net.Procs {
			for _, loc := range proc.Locations {
				if loc.L[c] > model.NoBound || loc.U[c] > model.NoBound {
					lu := make([]int32, 0, 2*len(proc.Locations))
					for _, l := range proc.Locations {
						lu = append(lu, l.L[c], l.U[c])
					}
					x.relevant[c] = append(x.relevant[c], relevantProc{int32(p), lu})
					break
				}
			}
		}
	}
	if !cfg.Local {
		x.computeBounds(nil)
	}
	x.findDead()
	return x
}

// findDead fills deadAlways and dead (see freeUnbounded).
func (x *extrapolator) findDead() {
	net := x.sys.Net
	x.dead = make([][][]int, len(net.Procs))
	for p, proc := range net.Procs {
		x.dead[p] = make([][]int, len(proc.Locations))
	}
	if x.cfg.Kind == ExtraNone {
		return
	}
	kept := make([]bool, x.sys.Dim) // a query constant or a diagonal
	for c := range kept {
		kept[c] = x.cfg.ExtraL != nil && x.cfg.ExtraL[c] > model.NoBound || x.cfg.ExtraU != nil && x.cfg.ExtraU[c] > model.NoBound
	}
	for _, g := range x.cfg.Diagonals {
		kept[g.I], kept[g.J] = true, true
	}
	for _, g := range x.cfg.SplitDiagonals {
		kept[g.I], kept[g.J] = true, true
	}
	for c := 1; c < x.sys.Dim; c++ {
		switch {
		case kept[c]:
		case !x.cfg.Local:
			if net.GlobalL[c] <= model.NoBound && net.GlobalU[c] <= model.NoBound {
				x.deadAlways = append(x.deadAlways, c)
			}
		case len(x.relevant[c]) == 0:
			x.deadAlways = append(x.deadAlways, c)
		case len(x.relevant[c]) == 1:
			r := x.relevant[c][0]
			for l := range x.dead[r.p] {
				if r.lu[2*l] <= model.NoBound && r.lu[2*l+1] <= model.NoBound {
					x.dead[r.p][l] = append(x.dead[r.p][l], c)
				}
			}
		}
	}
}

func maxBound(a, b int32) int32 {
	if a > b {
		return a
	}
	return b
}

func toDBMBound(b int32) int32 {
	if b <= model.NoBound {
		return dbm.NoBound
	}
	return b
}

// computeBounds fills l, u, m for the location vector locs (nil: global).
func (x *extrapolator) computeBounds(locs []int32) {
	net := x.sys.Net
	still := false
	if x.still != nil && locs != nil {
		for p, l := range locs {
			if x.still[p][l] {
				still = true
				break
			}
		}
	}
	for c := range x.l {
		var l, u int32 = model.NoBound, model.NoBound
		if locs == nil {
			l, u = net.GlobalL[c], net.GlobalU[c]
		} else {
			for _, r := range x.relevant[c] {
				k := 2 * locs[r.p]
				l = maxBound(l, r.lu[k])
				u = maxBound(u, r.lu[k+1])
			}
		}
		if x.cfg.ExtraL != nil {
			l = maxBound(l, x.cfg.ExtraL[c])
		}
		if x.cfg.ExtraU != nil {
			u = maxBound(u, x.cfg.ExtraU[c])
		}
		if still {
			l = maxBound(l, u)
		}
		x.l[c], x.u[c] = toDBMBound(l), toDBMBound(u)
		x.m[c] = toDBMBound(maxBound(l, u))
	}
	// Bengtsson and Yi's splitting needs the diagonal constants in the
	// maximal constants of both clocks.
	for _, g := range x.cfg.Diagonals {
		c := g.Const
		if c < 0 {
			c = -c
		}
		x.m[g.I] = maxBound(x.m[g.I], c)
		x.m[g.J] = maxBound(x.m[g.J], c)
	}
	x.l[0], x.u[0], x.m[0] = 0, 0, 0
}

// prepare sets the bounds for the location vector locs (the aLU
// subsumption reads them too), as apply does first.
func (x *extrapolator) prepare(locs []int32) {
	if x.cfg.Kind != ExtraNone && x.cfg.Local {
		x.computeBounds(locs)
	}
}

// freeUnbounded frees in z (closed) clocks that have no bound, lower,
// upper or diagonal, in the location vector locs, which every Extra
// operator frees: those that no location bounds, and those that only
// one process's locations bound (a process's own clocks, the usual
// case), from tables (findDead), so that no bounds are computed. The
// abstraction of the result is that of z.
func (x *extrapolator) freeUnbounded(z dbm.DBM, locs []int32) {
	for _, c := range x.deadAlways {
		z.Free(c)
	}
	for p, l := range locs {
		for _, c := range x.dead[p][l] {
			z.Free(c)
		}
	}
}

// apply abstracts z (closed, non-empty) in place for the location vector
// locs. When diagonal splitting is in force it returns the parts as a
// federation (z is then unspecified) and split = true.
func (x *extrapolator) apply(z dbm.DBM, locs []int32) (parts []dbm.DBM, split bool) {
	x.prepare(locs)
	return x.applyPrepared(z)
}

// splits reports whether apply may return several parts (diagonals kept
// by splitting).
func (x *extrapolator) splits() bool { return len(x.diags) > 0 || len(x.split) > 0 }

// applyPrepared is apply after prepare.
func (x *extrapolator) applyPrepared(z dbm.DBM) (parts []dbm.DBM, split bool) {
	if x.cfg.Kind == ExtraNone {
		return nil, false
	}
	if len(x.diags) > 0 {
		x.fed.Zones = x.fed.Zones[:0]
		x.fed = z.ExtraMDiagonal(x.m, x.diags, x.fed)
		return x.fed.Zones, true
	}
	if len(x.split) > 0 {
		// most zones lie on one side of every constraint: no split, no
		// allocation
		x.side = x.side[:0]
		for _, g := range x.split {
			in := z.Implies(g.I, g.J, g.B)
			if !in && z.SatisfiesC(g) {
				x.fed.Zones = x.fed.Zones[:0]
				x.fed = z.ExtraLUPlusSplit(x.l, x.u, x.split, x.fed)
				return x.fed.Zones, true
			}
			x.side = append(x.side, in)
		}
		z.ExtraLUPlus(x.l, x.u)
		for k, g := range x.split {
			if !x.side[k] {
				g = g.Neg()
			}
			if !z.ConstrainC(g) {
				panic("zone: extrapolation lost the side of a diagonal constraint the zone lay on")
			}
		}
		return nil, false
	}
	switch x.cfg.Kind {
	case ExtraLUPlus:
		z.ExtraLUPlus(x.l, x.u)
	case ExtraLU:
		z.ExtraLU(x.l, x.u)
	case ExtraMPlus:
		z.ExtraMPlus(x.m)
	case ExtraM:
		z.ExtraM(x.m)
	}
	return nil, false
}

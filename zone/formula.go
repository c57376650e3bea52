package zone

import (
	"github.com/tcheck/tcheck/dbm"
	"github.com/tcheck/tcheck/model"
)

// Checker decides compiled state formulas (model.Formula) on symbolic
// states. A formula is a boolean combination of data conditions, clock
// constraints and the deadlock predicate; on a state (l, v, Z) it holds for
// the valuations of Z in the union of the zones that Zones enumerates: the
// formula is put in negation normal form on the fly, data conditions are
// evaluated on (l, v), and every disjunct of the resulting DNF over clock
// constraints is a zone (a constraint's negation is again a constraint).
// A Checker owns scratch space (including its own Stepper for deadlock)
// and is not safe for concurrent use.
type Checker struct {
	sys  *System
	st   *Stepper
	env  *model.Env
	pool []dbm.DBM
	used int

	// the state being checked
	locs, vars []int32
	zone       dbm.DBM
	dead       *dbm.Federation // deadlocked part of zone, computed lazily
	deadFed    dbm.Federation
	err        error
	// lits[d] is the goal stack of sat at recursion depth d (scratch: a
	// formula is decided on every successor of a search)
	lits [][]literal
}

// goals returns the empty goal stack of depth d.
func (c *Checker) goals(d int) []literal {
	for len(c.lits) <= d {
		c.lits = append(c.lits, make([]literal, 0, 16))
	}
	return c.lits[d][:0]
}

// NewChecker returns a formula checker for sys.
func NewChecker(sys *System) *Checker {
	st := NewStepper(sys)
	return &Checker{sys: sys, st: st, env: sys.Net.NewEnv()}
}

// SetInterrupt makes the checker's long evaluations poll stop (see
// Stepper.SetInterrupt).
func (c *Checker) SetInterrupt(stop func() bool) {
	c.env.Interrupt = stop
	c.st.SetInterrupt(stop)
}

type literal struct {
	f   *model.Formula
	pos bool
}

func (c *Checker) get() dbm.DBM {
	if c.used == len(c.pool) {
		c.pool = append(c.pool, dbm.New(c.sys.Dim))
	}
	d := c.pool[c.used]
	c.used++
	return d
}

// Sat reports whether some valuation of z satisfies f in (locs, vars).
func (c *Checker) Sat(f *model.Formula, locs, vars []int32, z dbm.DBM) (bool, error) {
	found := false
	err := c.Zones(f, locs, vars, z, func(dbm.DBM) bool {
		found = true
		return false
	})
	return found, err
}

// Zones calls fn with zones whose union is the set of valuations of z that
// satisfy f in (locs, vars); fn returns false to stop. The zones passed to
// fn are scratch. z must be closed and non-empty; it is not modified.
func (c *Checker) Zones(f *model.Formula, locs, vars []int32, z dbm.DBM, fn func(dbm.DBM) bool) error {
	c.locs, c.vars, c.zone = locs, vars, z
	c.dead = nil
	c.err = nil
	c.used = 0
	c.env.Vars, c.env.Locs = vars, locs
	start := c.get()
	start.CopyFrom(z)
	c.sat(start, append(c.goals(0), literal{f, true}), 0, fn)
	return c.err
}

// sat explores the conjunction goals over zone z (which it may modify) and
// returns false when fn asked to stop or an error occurred. goals is the
// stack of depth (c.lits[depth]); a branch goes on with a copy at depth+1.
func (c *Checker) sat(z dbm.DBM, goals []literal, depth int, fn func(dbm.DBM) bool) bool {
	defer func() { c.lits[depth] = goals[:0] }() // keep what it grew to
	for len(goals) > 0 {
		g := goals[len(goals)-1]
		goals = goals[:len(goals)-1]
		f := g.f
		switch f.Kind {
		case model.FTrue:
			if !g.pos {
				return true
			}
		case model.FFalse:
			if g.pos {
				return true
			}
		case model.FData:
			v := f.Data(c.env)
			if c.env.Err != nil {
				c.err = &ModelError{Err: c.env.Err}
				c.env.Err = nil
				return false
			}
			if v != g.pos {
				return true
			}
		case model.FClock:
			cc := f.Clock
			b := constraintBound(&cc, c.env)
			i, j := cc.I, cc.J
			if !g.pos {
				i, j, b = j, i, b.Neg()
			}
			if !z.Constrain(i, j, b) {
				return true
			}
		case model.FNot:
			goals = append(goals, literal{f.Args[0], !g.pos})
		case model.FAnd, model.FOr:
			conj := (f.Kind == model.FAnd) == g.pos
			if conj {
				for _, a := range f.Args {
					goals = append(goals, literal{a, g.pos})
				}
				continue
			}
			// a disjunction: branch
			mark := c.used
			for _, a := range f.Args {
				zz := c.get()
				zz.CopyFrom(z)
				sub := append(append(c.goals(depth+1), goals...), literal{a, g.pos})
				if !c.sat(zz, sub, depth+1, fn) {
					return false
				}
				c.used = mark
			}
			return true
		case model.FDeadlock:
			dead, err := c.deadlocked()
			if err != nil {
				c.err = err
				return false
			}
			var parts []dbm.DBM
			if g.pos {
				parts = dead.Zones
			} else {
				parts = c.complement(dead)
			}
			mark := c.used
			for _, p := range parts {
				zz := c.get()
				zz.CopyFrom(z)
				if !zz.Intersect(p) {
					c.used = mark
					continue
				}
				if !c.sat(zz, append(c.goals(depth+1), goals...), depth+1, fn) {
					return false
				}
				c.used = mark
			}
			return true
		}
	}
	return fn(z)
}

// deadlocked computes (once per state) the deadlocked part of the zone.
func (c *Checker) deadlocked() (*dbm.Federation, error) {
	if c.dead != nil {
		return c.dead, nil
	}
	fed, err := c.st.Deadlocked(c.locs, c.vars, c.zone, c.deadFed)
	if err != nil {
		return nil, err
	}
	c.deadFed = fed
	c.dead = &c.deadFed
	return c.dead, nil
}

// complement returns the zones of c.zone minus dead.
func (c *Checker) complement(dead *dbm.Federation) []dbm.DBM {
	rest := dbm.FederationOf(c.sys.Dim, c.zone.Clone())
	rest.SubtractFed(*dead)
	return rest.Zones
}

// Env returns the checker's evaluation context set to (locs, vars), for
// evaluating data expressions of queries.
func (c *Checker) Env(locs, vars []int32) *model.Env {
	c.env.Vars, c.env.Locs = vars, locs
	return c.env
}

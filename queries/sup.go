package queries

import (
	"github.com/tcheck/tcheck/dbm"
	"github.com/tcheck/tcheck/model"
	"github.com/tcheck/tcheck/model/syntax"
	"github.com/tcheck/tcheck/zone"
)

// maxSupBound caps the doubling of a clock's extrapolation bound.
const maxSupBound = 1 << 20

// supAcc accumulates the extreme value of one term.
type supAcc struct {
	term  model.Term
	sup   bool
	seen  bool
	bound dbm.Bound // clocks: sup as an upper bound (≤c / <c / <∞), inf as a lower bound of -x
	data  int64
	// realInf: a state was seen where the clock grows without bound for
	// real (see checkSup).
	realInf bool
	// parent and move lead to the best state; the path is recovered once
	// at the end (System.PathMoves), not at every improvement.
	parent *zone.Node
	move   zone.Move
}

// checkSup answers sup{φ}: e1, ... / inf{φ}: ... by exploring the zone
// graph and taking, over the reachable states satisfying φ, the extreme
// value of each expression. A clock that guards never compare from the
// relevant side would have its bound erased by extrapolation, so it gets the
// bound K (the largest constant of the model, at least 1) as an extra
// extrapolation bound; when the answer exceeds K, K is doubled and the
// exploration repeated (architecture.md, "Queries and traces"): an answer
// ≤ K is exact, because Extra_LU with L(t) = U(t) = K only adds valuations
// that agree with a real one on t or exceed K (STTT 2006, Lemma on LU
// simulation). Past maxSupBound the result is reported as "> K".
func checkSup(sys *zone.System, q *Query, opts Options) *Result {
	r := &Result{Query: q, Goal: q.Formula}
	isSup := q.Kind == syntax.QuerySup
	cond := q.Formula
	if cond == nil {
		cond = &model.Formula{Kind: model.FTrue, Src: "true"}
		r.Goal = cond
	}
	k := int32(1)
	for c := 1; c < sys.Dim; c++ {
		k = max(k, sys.Net.GlobalL[c], sys.Net.GlobalU[c])
	}
	condHasClocks := hasClock(cond)
	for {
		r.Rounds++
		accs := make([]*supAcc, len(q.Terms))
		for i, t := range q.Terms {
			accs[i] = &supAcc{term: t, sup: isSup}
		}
		xp, err := extrapolationFor(sys, []*model.Formula{cond}, opts, hasDeadlock(cond))
		if err != nil {
			r.Verdict, r.TraceErr = Error, err
			return r
		}
		for _, t := range q.Terms {
			if t.Clock > 0 {
				raise(xp.ExtraL, xp.ExtraU, t.Clock, k)
			}
		}
		checker := zone.NewChecker(sys)
		st := zone.NewStepper(sys)
		var checkErr error
		zopts := zone.Options{Order: opts.Order, Extrapolation: xp, Limits: opts.Limits}
		if opts.Progress != nil {
			zopts.Progress = func(s zone.Stats) { opts.Progress([]*Query{q}, s) }
		}
		var invBuf []dbm.Constraint
		res := zone.Search(sys, zopts, func(v *zone.Visit) bool {
			improved := make([]bool, len(accs))
			any := false
			err := checker.Zones(cond, v.Locs, v.Vars, v.Zone, func(z dbm.DBM) bool {
				for i, a := range accs {
					if a.update(z, v, checker) {
						improved[i] = true
						any = true
					}
				}
				return true
			})
			if err != nil {
				checkErr = err
				return true
			}
			if !any {
				return false
			}
			for i, a := range accs {
				if !improved[i] {
					continue
				}
				a.parent, a.move = v.Parent, nil
				if v.Move != nil {
					a.move = append(zone.Move(nil), v.Move...)
				}
				if a.term.Clock > 0 && a.sup && a.bound == dbm.LTInf && !condHasClocks {
					// The clock is unbounded here. It is for real when time
					// can pass forever: delay allowed and no invariant bounds
					// a clock from above (every valuation of the zone then
					// delays without limit, and so does the real valuation
					// that simulates it).
					delay, err := st.DelayAllowed(v.Locs, v.Vars)
					if err != nil {
						checkErr = err
						return true
					}
					inv, _, err := st.Invariant(v.Locs, v.Vars, invBuf[:0])
					invBuf = inv
					if err != nil {
						checkErr = err
						return true
					}
					bounded := false
					for _, c := range inv {
						if c.J == 0 && c.I != 0 {
							bounded = true
						}
					}
					if delay && !bounded {
						a.realInf = true
					}
				}
			}
			return false
		})
		r.Stats, r.Reason, r.Extrapolation = res.Stats, res.Reason, res.Extrapolation
		switch {
		case checkErr != nil:
			r.Verdict, r.TraceErr = Error, checkErr
			return r
		case res.Reason == zone.Failed:
			r.Verdict, r.Err = Error, res.Err
			return r
		case res.Reason != zone.Completed:
			r.Verdict = Unknown
			return r
		}
		// exact when no clock term's answer exceeds k
		redo := false
		for _, a := range accs {
			if a.term.Clock > 0 && a.seen && !a.realInf && a.sup && a.bound > dbm.LE(k) {
				redo = true
			}
		}
		if redo && k < maxSupBound {
			k *= 2
			continue
		}
		r.Verdict = Satisfied
		r.Values = nil
		for _, a := range accs {
			r.Values = append(r.Values, a.value(k))
		}
		if !opts.NoTrace {
			// the witness of the first term
			for i, a := range accs {
				if !a.seen {
					continue
				}
				moves, err := pathMoves(sys, a.parent, a.move)
				if err != nil {
					r.TraceErr = err
				} else {
					r.Trace, r.TraceErr = buildTraceTarget(sys, moves, cond, a.refiner(r.Values[i]))
				}
				break
			}
		}
		return r
	}
}

func hasClock(f *model.Formula) bool {
	if f == nil {
		return false
	}
	if f.Kind == model.FClock {
		return true
	}
	for _, a := range f.Args {
		if hasClock(a) {
			return true
		}
	}
	return false
}

// update folds the zone z (of the visited state v, satisfying the
// condition) into the accumulator and reports whether it improved.
func (a *supAcc) update(z dbm.DBM, v *zone.Visit, c *zone.Checker) bool {
	if a.term.Clock > 0 {
		var b dbm.Bound
		if a.sup {
			b = z.At(a.term.Clock, 0) // x ≤ c
		} else {
			b = z.At(0, a.term.Clock) // -x ≤ c: the infimum is -c
		}
		// In both cases a larger encoded bound is a weaker constraint: a
		// larger supremum, or a smaller (or attained) infimum.
		if !a.seen || b > a.bound {
			a.seen, a.bound = true, b
			return true
		}
		return false
	}
	env := c.Env(v.Locs, v.Vars)
	x := int64(a.term.Data(env))
	if env.Err != nil {
		env.Err = nil
		return false
	}
	if !a.seen || (a.sup && x > a.data) || (!a.sup && x < a.data) {
		a.seen, a.data = true, x
		return true
	}
	return false
}

func (a *supAcc) value(k int32) Value {
	v := Value{Term: a.term.Src}
	switch {
	case !a.seen:
		v.None = true
	case a.term.Clock == 0:
		v.Bound = a.data
	case a.sup && a.realInf:
		v.Inf = true
	case a.sup && a.bound > dbm.LE(k):
		v.Exceeds, v.Bound = true, int64(k)
	case a.sup:
		v.Bound, v.Strict = int64(a.bound.Const()), a.bound.Strict()
	default:
		// lower bound: -x ≺ c, so x ≻ -c
		v.Bound, v.Strict = -int64(a.bound.Const()), a.bound.Strict()
	}
	return v
}

// refiner narrows a witness zone to the extreme value of a clock term.
func (a *supAcc) refiner(v Value) func(dbm.DBM) bool {
	if a.term.Clock == 0 || v.None || v.Inf || v.Exceeds {
		return nil
	}
	x := a.term.Clock
	c := int32(v.Bound)
	return func(z dbm.DBM) bool {
		switch {
		case a.sup && !v.Strict:
			return z.Constrain(0, x, dbm.LE(-c)) // x ≥ c (and x ≤ c holds)
		case a.sup:
			return z.Constrain(0, x, dbm.LT(-(c - 1))) // c-1 < x < c
		case !v.Strict:
			return z.Constrain(x, 0, dbm.LE(c)) // x ≤ c
		default:
			return z.Constrain(x, 0, dbm.LT(c+1))
		}
	}
}

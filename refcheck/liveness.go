package refcheck

import (
	"fmt"

	"github.com/tcheck/tcheck/model"
	"github.com/tcheck/tcheck/model/syntax"
)

// The liveness queries (E[] f, A<> f, f --> g) over the region graph. A
// run is maximal, as in UPPAAL and tcheck (docs/queries.md), when it is
// infinite (time need not diverge), or ends in a state that can delay
// forever, or ends in a state with no move and no delay (a deadlock or a
// time-lock). Region equivalence is a time-abstract bisimulation (package
// documentation), so every valuation of a region has the same region
// paths ahead, and the maximal runs from a region are the paths of the
// region graph that are infinite or end in a region without successor:
// an infinite path is a cycle reached, since the graph is finite, and a
// region where time passes forever (every clock beyond its ceiling, no
// invariant, no urgency) is its own time successor, a cycle of one. The
// formulas test locations and data only, so each region decides them.
//
// E[] f holds when the initial region is in the greatest set Z of regions
// satisfying f in which every region has no successor or a successor in Z
// (Clarke, Emerson, Sistla, "Automatic verification of finite-state
// concurrent systems using temporal logic specifications", TOPLAS 8(2),
// 1986: EG as a greatest fixpoint, with the regions without successor
// counted as ending a path). It is computed by removing, from the regions
// satisfying f, the regions whose successors have all been removed, with
// a count of the successors left per region (not the strongly connected
// components tcheck's queries use).

// Live decides a liveness query of kind E[] f, A<> f or f --> g and
// reports whether it is satisfied; other kinds are Unsupported.
func Live(net *model.Network, kind syntax.QueryKind, f, g *model.Formula, opts Options) (bool, error) {
	switch kind {
	case syntax.QueryEG:
		return AlwaysOnSomePath(net, f, opts)
	case syntax.QueryAF:
		return EventuallyOnAllPaths(net, f, opts)
	case syntax.QueryLeadsTo:
		return LeadsTo(net, f, g, opts)
	}
	return false, &Unsupported{Msg: fmt.Sprintf("query kind %v", kind)}
}

// AlwaysOnSomePath reports whether some maximal run from the initial state
// keeps f in every state (E[] f). f may not test clocks or deadlock. With
// no initial state (its invariant false) there is no run, and E[] f is
// false.
func AlwaysOnSomePath(net *model.Network, f *model.Formula, opts Options) (bool, error) {
	res := false
	err := solve(net, []*model.Formula{f}, 0, true, opts, func(x *explorer) error {
		res = false
		in, err := x.holdsEach(f)
		if err != nil || len(in) == 0 {
			return err
		}
		res = x.keepsOnSomePath(in)[0]
		return nil
	})
	return res, err
}

// EventuallyOnAllPaths reports whether every maximal run from the initial
// state reaches a state satisfying f (A<> f, that is not E[] not f).
func EventuallyOnAllPaths(net *model.Network, f *model.Formula, opts Options) (bool, error) {
	r, err := AlwaysOnSomePath(net, not(f), opts)
	return !r, err
}

// LeadsTo reports whether from every reachable state satisfying f every
// maximal run reaches a state satisfying g (f --> g, that is A[] (f imply
// A<> g)); the state itself counts.
func LeadsTo(net *model.Network, f, g *model.Formula, opts Options) (bool, error) {
	res := true
	err := solve(net, []*model.Formula{f, g}, 0, true, opts, func(x *explorer) error {
		res = true
		fs, err := x.holdsEach(f)
		if err != nil {
			return err
		}
		notG, err := x.holdsEach(not(g))
		if err != nil {
			return err
		}
		bad := x.keepsOnSomePath(notG)
		for i := range fs {
			if fs[i] && bad[i] {
				res = false
			}
		}
		return nil
	})
	return res, err
}

// not returns the negation of f (Invariant and the liveness queries).
func not(f *model.Formula) *model.Formula {
	return &model.Formula{Kind: model.FNot, Args: []*model.Formula{f}, Src: "!(" + f.Src + ")"}
}

// holdsEach evaluates f on every state. A liveness formula tests locations
// and data only, so every region decides it.
func (x *explorer) holdsEach(f *model.Formula) ([]bool, error) {
	if f.Has(model.FClock) || f.Has(model.FDeadlock) {
		return nil, &Unsupported{Msg: fmt.Sprintf("clock constraints or deadlock in the liveness formula %s", f.Src)}
	}
	out := make([]bool, len(x.states))
	for i := range x.states {
		t, err := x.eval(f, int32(i))
		if err != nil {
			return nil, err
		}
		out[i] = t == tTrue
	}
	return out, nil
}

// keepsOnSomePath returns, for every state, whether some maximal path from
// it stays in the states with in set: the greatest fixpoint of "in, and
// without successor or with a successor in the set". Successors are the
// discrete moves, the time successor, and the state itself where time
// passes forever (stationary). Under Options.Within a path may end where
// it reaches the horizon, whatever moves are enabled there.
func (x *explorer) keepsOnSomePath(in []bool) []bool {
	n := len(x.states)
	succ := make([][]int32, n)
	for i := range n {
		for _, e := range x.succ[i] {
			succ[i] = append(succ[i], e.to)
		}
		if x.delayNext[i] == int32(i) {
			succ[i] = append(succ[i], int32(i))
		}
	}
	pred := make([][]int32, n)
	left := make([]int, n) // successors (edges) still in the set
	z := make([]bool, n)
	for i := range n {
		z[i] = in[i]
		for _, j := range succ[i] {
			pred[j] = append(pred[j], int32(i))
			if in[j] {
				left[i]++
			}
		}
	}
	var drop []int32
	for i := range n {
		if z[i] && len(succ[i]) > 0 && left[i] == 0 && !x.atHorizon(i) {
			z[i] = false
			drop = append(drop, int32(i))
		}
	}
	for len(drop) > 0 {
		j := drop[len(drop)-1]
		drop = drop[:len(drop)-1]
		for _, p := range pred[j] {
			left[p]--
			if z[p] && left[p] == 0 && !x.atHorizon(int(p)) {
				z[p] = false
				drop = append(drop, p)
			}
		}
	}
	return z
}

package model

import (
	"fmt"
	"strconv"
	"strings"
)

// What the symmetry reduction (package zone) needs to know of a model with
// scalar sets: how a permutation of the values of a set moves processes,
// variable slots and clocks, and which values it renames. Hendriks,
// Behrmann, Larsen, Niebert, Vaandrager, "Adding symmetry reduction to
// Uppaal" (FORMATS 2003), Sect. 3: a permutation π of a scalar set acts on
// a state by moving the process with free parameter value i to the one
// with π(i), the slot of an array indexed by the set at i to π(i) (for
// every such dimension), and by renaming every value of the set v to π(v);
// clocks move as slots do. The language rules (scalar.go) make this a
// symmetry of the transition relation.

// ScalarSet is a scalar set of the model.
type ScalarSet struct {
	Name string // the typedef's name, or scalar[n]
	Size int
}

// ScalarDim is a dimension of an array slot indexed by a scalar set: the
// slot's index in that dimension and how far apart (in slots) neighbouring
// indices are.
type ScalarDim struct {
	Set    int
	Index  int32
	Stride int32
}

// ScalarArg is the value of a free parameter of a scalar set.
type ScalarArg struct {
	Set   int
	Value int32
}

// slotDims lists, for each slot of a value of type t (row-major, as
// slotNames), its dimensions indexed by a scalar set.
func slotDims(t *typ) [][]ScalarDim {
	out := make([][]ScalarDim, 0, t.count())
	var walk func(t *typ, dims []ScalarDim)
	walk = func(t *typ, dims []ScalarDim) {
		switch t.kind {
		case kArray:
			stride := int32(t.elem.count())
			for i := 0; i < t.size; i++ {
				d := dims
				if t.index != 0 {
					d = append(append([]ScalarDim(nil), dims...), ScalarDim{Set: t.index, Index: int32(i), Stride: stride})
				}
				walk(t.elem, d)
			}
		case kStruct:
			for _, f := range t.fields {
				walk(f.t, dims)
			}
		default:
			out = append(out, dims)
		}
	}
	walk(t, nil)
	return out
}

// setFamily records p's family and scalar arguments: name is the name of
// the system line, types and vals its free parameters.
func (c *compiler) setFamily(p *Process, name string, types []*typ, vals []int64) {
	var key strings.Builder
	key.WriteString(name)
	for i, t := range types {
		if t.scalar != 0 {
			p.ScalarArgs = append(p.ScalarArgs, ScalarArg{Set: t.scalar, Value: int32(vals[i])})
			key.WriteString(",*")
		} else {
			key.WriteString("," + strconv.FormatInt(vals[i], 10))
		}
	}
	p.Family = key.String()
}

// SymmetryObstacle returns why permuting the values of the model's scalar
// sets may not be a symmetry although the language rules hold, or "" if
// nothing is known to break it. Broadcast receivers update in process order
// (UPPAAL's semantics), so two processes of a family receiving the same
// broadcast may see their updates applied in an order that a permutation
// reverses.
func (n *Network) SymmetryObstacle() string {
	if n.Priorities && len(n.Scalars) > 0 {
		// process priorities or the levels of the elements of a channel
		// array could tell the members of a scalar set apart; tcheck does
		// not check that they do not
		return "the model declares priorities (chan priority or system A < B), which the symmetry reduction does not support"
	}
	anyBroadcast := false
	for _, c := range n.Chans {
		anyBroadcast = anyBroadcast || c.Broadcast
	}
	for _, p := range n.Procs {
		if len(p.ScalarArgs) == 0 {
			continue
		}
		for _, e := range p.Edges {
			if e.Send || !e.HasSync() || e.Update == nil {
				continue
			}
			set := n.Scalars[p.ScalarArgs[0].Set-1].Name
			switch {
			case e.SyncExpr == nil && n.Chans[e.Sync].Broadcast:
				return fmt.Sprintf("%s receives a broadcast with an update (%s): receivers update in process order, which a permutation of %s changes", p.Name, e.UpdateSrc, set)
			case e.SyncExpr != nil && anyBroadcast:
				// the channel is chosen by an expression: it may be a
				// broadcast one (a binary one could not matter)
				return fmt.Sprintf("%s receives on a channel chosen by an expression (%s), which may be a broadcast channel, with an update (%s): broadcast receivers update in process order, which a permutation of %s changes", p.Name, e.SyncSrc, e.UpdateSrc, set)
			}
		}
	}
	return ""
}

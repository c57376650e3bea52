package zone

import (
	"fmt"
	"sync/atomic"

	"github.com/tcheck/tcheck/dbm"
)

// Node is a stored symbolic state: its packed discrete part, its
// (extrapolated) zone, and how it was reached.
type Node struct {
	key string
	// zone holds the bounds, width bytes each, little endian (see
	// zoneWidth).
	zone   []byte
	Parent *Node
	next   *Node // next node with the same key in the passed list
	// moveIdx is the index of the transition from Parent in the order
	// Stepper.Moves enumerates Parent's moves (-1 for the initial state):
	// four bytes instead of the move itself; System.PathMoves recovers it.
	moveIdx int32
	Depth   int32
	width   uint8
	// minimal: zone holds the minimal constraint set (see zoneCodec), not
	// the matrix.
	minimal bool
	// covered is set when a larger zone evicts the node; atomic because
	// a parallel search's workers read it (waiting lists skip covered
	// nodes) while another worker's insert may set it.
	covered atomic.Bool
}

// Covered reports whether a larger zone stored later evicted this node.
func (n *Node) Covered() bool { return n.covered.Load() }

// Path returns the nodes from the root to n.
func (n *Node) Path() []*Node {
	var path []*Node
	for x := n; x != nil; x = x.Parent {
		path = append(path, x)
	}
	for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
		path[i], path[j] = path[j], path[i]
	}
	return path
}

// LoadZone copies the node's zone into dst.
func (n *Node) LoadZone(dst dbm.DBM) {
	if n.minimal {
		decodeMinimal(n.zone, n.width, dst)
		return
	}
	m := dst.M
	z := n.zone
	switch n.width {
	case 1:
		z = z[:len(m)]
		for i, b := range z {
			m[i] = widen8(b)
		}
	case 2:
		for i := range m {
			m[i] = bound16(z, i)
		}
	default:
		for i := range m {
			m[i] = bound32(z, i)
		}
	}
}

// Decode unpacks the node's discrete part into locs and vars.
func (s *System) Decode(n *Node, locs, vars []int32) { s.decodeKey(n.key, locs, vars) }

// PathMoves returns the transitions from the initial state to n, recovered
// by enumerating each parent's moves in the deterministic order of
// Stepper.Moves.
func (s *System) PathMoves(n *Node) ([]Move, error) {
	path := n.Path()
	st := NewStepper(s)
	locs := make([]int32, s.NProcs)
	vars := make([]int32, s.NVars)
	var moves []Move
	for _, x := range path[1:] {
		s.Decode(x.Parent, locs, vars)
		var found Move
		k := int32(0)
		err := st.Moves(locs, vars, func(m Move) bool {
			if k == x.moveIdx {
				found = append(Move(nil), m...)
				return false
			}
			k++
			return true
		})
		if err != nil {
			return nil, err
		}
		if found == nil {
			return nil, fmt.Errorf("internal error: move %d of a stored state not found", x.moveIdx)
		}
		moves = append(moves, found)
	}
	return moves, nil
}

var errMoveNotFound = fmt.Errorf("internal error: a move of a stored state was not found")

package zone

import (
	"time"

	"github.com/tcheck/tcheck/dbm"
)

// Graph is the explicit abstract zone graph: symbolic states identified up
// to equality of their discrete part and their (extrapolated) zone, with
// every transition between them. Liveness properties (E[], A<>, -->) look
// for cycles and maximal states in it; zone inclusion, which the
// reachability search uses to prune, would hide cycles, so it is not used
// here. With an extrapolation the graph is finite, and a cycle in it is an
// infinite run of the model (the abstractions are simulations; see
// Herbreteau, Srivathsan, Walukiewicz, "Efficient emptiness check for timed
// Büchi automata", CAV 2010).
type Graph struct {
	sys   *System
	Nodes []GNode
}

// GNode is a state of a Graph.
type GNode struct {
	key     []byte
	zone    []byte
	width   uint8
	minimal bool
	// Succ lists the successors, in the order of the moves.
	Succ []int32
	// Parent and MoveIdx give the breadth-first tree (Parent -1 for the
	// initial state): the shortest way to reach the node.
	Parent  int32
	MoveIdx int32
	// Moves lists, parallel to Succ, the index of the move (in the order
	// of Stepper.Moves) that leads to each successor.
	Moves []int32
}

// Decode unpacks a node's discrete part and zone.
func (g *Graph) Decode(i int32, locs, vars []int32, z dbm.DBM) {
	n := &g.Nodes[i]
	g.sys.decodeKey(n.key, locs, vars)
	storedZone{b: n.zone, width: n.width, minimal: n.minimal}.load(z)
}

// BuildGraph explores the whole abstract zone graph of sys breadth first,
// under opts (Order is ignored). The initial states (one, or several when
// diagonal splitting cuts the initial zone) come first and have Parent -1.
// The graph is incomplete when the result's Reason is not Completed.
func BuildGraph(sys *System, opts Options) (*Graph, Result) {
	g := &Graph{sys: sys}
	// keys numbers the discrete parts (keyBytes holds each once, shared
	// by its nodes); first gives, for a discrete part's number and the
	// hash of a zone, the last node stored with both, and sameHash the
	// node stored before it with both (-1: none), so that find tests for
	// equality only the zones with the same hash: a canonical zone has
	// one matrix. A list of a discrete part's zones, each tested in turn,
	// made the graph quadratic in the zones per discrete part: 7,119
	// nodes over 24 discrete parts took 234 ms (difftest seed 571789's
	// sup cycle test), most of it in inclusion tests.
	keys := map[string]int32{}
	var keyBytes [][]byte
	type zoneRef struct {
		key  int32
		hash uint64
	}
	first := map[zoneRef]int32{}
	var sameHash []int32
	codec := newZoneCodec(sys.Dim, opts.FullZones)
	var bytes arena[byte]
	find := func(key []byte, z dbm.DBM) (int32, bool) {
		k, ok := keys[string(key)]
		if !ok {
			k = int32(len(keys))
			keys[string(key)] = k
			kb := bytes.alloc(len(key))
			copy(kb, key)
			keyBytes = append(keyBytes, kb)
		}
		ref := zoneRef{k, hashZone(z)}
		prev, had := first[ref]
		for id, ok := prev, had; ok; id, ok = sameHash[id], sameHash[id] >= 0 {
			n := &g.Nodes[id]
			stored := storedZone{b: n.zone, width: n.width, minimal: n.minimal}
			if stored.includes(z) && stored.maybeWithin(z.M, sys.Dim) {
				if !stored.minimal {
					return id, false
				}
				stored.load(codec.scratch)
				if boundsWithin(codec.scratch.M, z.M) {
					return id, false
				}
			}
		}
		id := int32(len(g.Nodes))
		b, w, min := codec.encode(z)
		zb := bytes.alloc(len(b))
		copy(zb, b)
		g.Nodes = append(g.Nodes, GNode{key: keyBytes[k], zone: zb, width: w, minimal: min, Parent: -1, MoveIdx: -1})
		if !had {
			prev = -1
		}
		sameHash = append(sameHash, prev)
		first[ref] = id
		return id, true
	}
	// The search itself: a Search whose visitor records the edges would
	// see covered states; this one keeps every state.
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	start := now()
	mem := newMemSampler()
	res := Result{Extrapolation: opts.Extrapolation.Describe()}
	finish := func(r StopReason) (*Graph, Result) {
		res.Reason = r
		res.Stored = int64(len(g.Nodes))
		res.Discrete = int64(len(keys))
		res.Elapsed = now().Sub(start)
		res.PeakMemory = mem.sample()
		return g, res
	}
	st := NewStepper(sys)
	xp := newExtrapolator(sys, opts.Extrapolation)
	locs := make([]int32, sys.NProcs)
	vars := make([]int32, sys.NVars)
	dlocs := make([]int32, sys.NProcs)
	dvars := make([]int32, sys.NVars)
	z := dbm.New(sys.Dim)
	src := dbm.New(sys.Dim)
	var key []byte
	var queue []int32

	// succ and succMoves collect the successors of the node expanded
	// (add's parent), which then get their slices of edges: one slab for
	// all the nodes' Succ and Moves, not two slices grown per node (on
	// Fischer N = 7, 655,075 nodes, growing them and the collector's
	// scans of them took much of the graph's time)
	var succ, succMoves []int32
	var edges arena[int32]
	add := func(parent, moveIdx int32, l, v []int32, zz dbm.DBM) {
		key = sys.appendKey(key[:0], l, v)
		parts, split := xp.apply(zz, l)
		if !split {
			parts = []dbm.DBM{zz}
		}
		for _, p := range parts {
			id, fresh := find(key, p)
			if fresh {
				g.Nodes[id].Parent, g.Nodes[id].MoveIdx = parent, moveIdx
				queue = append(queue, id)
			}
			if parent >= 0 {
				succ = append(succ, id)
				succMoves = append(succMoves, moveIdx)
			}
		}
	}
	ok, err := st.InitialFrom(opts.Initial, locs, vars, z)
	if err != nil {
		res.Err = err.(*ModelError)
		return finish(Failed)
	}
	if !ok {
		return finish(Completed)
	}
	add(-1, -1, locs, vars, z)
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		g.Decode(cur, locs, vars, src)
		res.Explored++
		if res.Explored&255 == 1 {
			if r, hit := opts.Limits.expired(now(), start); hit {
				return finish(r)
			}
			if m := mem.sample(); opts.Limits.MaxMemory > 0 && m >= opts.Limits.MaxMemory {
				return finish(LimitMemory)
			}
		}
		var k int32
		var merr error
		err := st.Moves(locs, vars, src, func(m Move) bool {
			idx := k
			k++
			ok, err := st.Post(locs, vars, src, m, dlocs, dvars, z)
			if err != nil {
				merr = err
				return false
			}
			if ok {
				res.Transitions++
				add(cur, idx, dlocs, dvars, z)
			}
			return true
		})
		if err == nil {
			err = merr
		}
		if len(succ) > 0 {
			n := &g.Nodes[cur]
			n.Succ, n.Moves = edges.alloc(len(succ)), edges.alloc(len(succ))
			copy(n.Succ, succ)
			copy(n.Moves, succMoves)
			succ, succMoves = succ[:0], succMoves[:0]
		}
		if err != nil {
			res.Err = err.(*ModelError)
			return finish(Failed)
		}
		if opts.Limits.MaxStates > 0 && int64(len(g.Nodes)) >= opts.Limits.MaxStates {
			return finish(LimitStates)
		}
	}
	return finish(Completed)
}

// PathMoves returns the moves along the breadth-first tree from an initial
// state to node i.
func (g *Graph) PathMoves(i int32) ([]Move, error) {
	var ids []int32
	for x := i; g.Nodes[x].Parent >= 0; x = g.Nodes[x].Parent {
		ids = append(ids, x)
	}
	moves := make([]Move, 0, len(ids))
	for k := len(ids) - 1; k >= 0; k-- {
		n := &g.Nodes[ids[k]]
		m, err := g.MoveTo(n.Parent, n.MoveIdx)
		if err != nil {
			return nil, err
		}
		moves = append(moves, m)
	}
	return moves, nil
}

// MoveTo returns the move with index idx (Stepper.Moves order) from node
// from.
func (g *Graph) MoveTo(from, idx int32) (Move, error) {
	locs := make([]int32, g.sys.NProcs)
	vars := make([]int32, g.sys.NVars)
	z := dbm.New(g.sys.Dim)
	g.Decode(from, locs, vars, z)
	var found Move
	k := int32(0)
	err := NewStepper(g.sys).Moves(locs, vars, z, func(m Move) bool {
		if k == idx {
			found = append(Move(nil), m...)
			return false
		}
		k++
		return true
	})
	if err == nil && found == nil {
		err = errMoveNotFound
	}
	return found, err
}

// hashZone hashes a zone's matrix (FNV-1a over its bounds): equal closed
// zones have equal matrices.
func hashZone(z dbm.DBM) uint64 {
	h := uint64(14695981039346656037)
	for _, b := range z.M {
		h = (h ^ uint64(uint32(b))) * 1099511628211
	}
	return h
}

package zone

import (
	"bytes"
	"hash/maphash"
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
	sys *System
	// nodes holds the nodes in chunks of graphChunk (Node); keys, each
	// discrete part's bytes, by number (GNode.key); zones, the nodes'
	// encoded zones (GNode.zone); edges, each expanded node's successors
	// followed by the indices of their moves (GNode.edges). A node holds
	// no Go pointer and nothing moves once stored: before, a node's four
	// slices made the collector scan 2.6 M pointers on Fischer N = 7's
	// 655,075 nodes, and one slice of all the nodes was copied, with
	// write barriers and without a preemption point, whenever it grew.
	nodes [][]GNode
	n     int32
	keys  [][]byte
	zones slab[byte]
	edges slab[int32]
	// ErrNode is, when the result's Reason is Failed, the node whose
	// expansion raised the model error (-1: the initial state), so that
	// a trace can lead to it.
	ErrNode int32
	// sym is set when the nodes are symmetry representatives
	// (Options.Symmetry): Run maps their paths back to runs of the model.
	sym *symTrace
}

// graphChunk is the number of nodes in a chunk of Graph.nodes.
const graphChunk = 1 << 14

// GNode is a state of a Graph.
type GNode struct {
	zone    uint64 // the zone's bytes in Graph.zones
	edges   uint64 // the node's successors and moves in Graph.edges
	zoneLen uint32
	key     int32 // the discrete part's number in Graph.keys
	nSucc   int32
	// Parent and MoveIdx give the breadth-first tree (Parent -1 for the
	// initial state): the shortest way to reach the node.
	Parent  int32
	MoveIdx int32
	width   uint8
	minimal bool
}

// Len returns the number of nodes; they are numbered from 0.
func (g *Graph) Len() int { return int(g.n) }

// Node returns node i.
func (g *Graph) Node(i int32) *GNode { return &g.nodes[i/graphChunk][i%graphChunk] }

// add appends n and returns its number.
func (g *Graph) add(n GNode) int32 {
	if int(g.n)/graphChunk == len(g.nodes) {
		g.nodes = append(g.nodes, make([]GNode, graphChunk))
	}
	id := g.n
	*g.Node(id) = n
	g.n++
	return id
}

// Succ lists node i's successors, in the order of the moves.
func (g *Graph) Succ(i int32) []int32 {
	n := g.Node(i)
	return g.edges.get(n.edges, uint32(n.nSucc))
}

// SuccMoves lists, parallel to Succ(i), the index of the move (in the
// order of Stepper.Moves) that leads from node i to each successor.
func (g *Graph) SuccMoves(i int32) []int32 {
	n := g.Node(i)
	return g.edges.get(n.edges+uint64(n.nSucc), uint32(n.nSucc))
}

// storedZone returns node i's zone as stored.
func (g *Graph) storedZone(i int32) storedZone {
	n := g.Node(i)
	return storedZone{b: g.zones.get(n.zone, n.zoneLen), width: n.width, minimal: n.minimal}
}

// Decode unpacks a node's discrete part and zone.
func (g *Graph) Decode(i int32, locs, vars []int32, z dbm.DBM) {
	g.DecodeKey(i, locs, vars)
	g.storedZone(i).load(z)
}

// DecodeKey unpacks a node's discrete part alone: what a formula without
// clock constraints reads.
func (g *Graph) DecodeKey(i int32, locs, vars []int32) {
	g.sys.decodeKey(g.keys[g.Node(i).key], locs, vars)
}

// slab holds runs of T in chunks of slabChunk (a longer run gets a chunk
// of its own), addressed by the chunk's number shifted left by 32 bits
// plus the offset in the chunk: a position holds no pointer, and the
// chunks never move.
type slab[T any] struct {
	chunks [][]T
}

const slabChunk = 1 << 18

// add copies the runs into the slab, one after the other, and returns
// the position of the first.
func (s *slab[T]) add(runs ...[]T) uint64 {
	n := 0
	for _, r := range runs {
		n += len(r)
	}
	k := len(s.chunks) - 1
	if k < 0 || cap(s.chunks[k])-len(s.chunks[k]) < n {
		s.chunks = append(s.chunks, make([]T, 0, max(slabChunk, n)))
		k++
	}
	c := s.chunks[k]
	pos := uint64(k)<<32 | uint64(len(c))
	for _, r := range runs {
		c = append(c, r...)
	}
	s.chunks[k] = c
	return pos
}

// get returns the n elements at pos (nil when n is 0: a node without
// successors has no position).
func (s *slab[T]) get(pos uint64, n uint32) []T {
	if n == 0 {
		return nil
	}
	off := uint32(pos)
	return s.chunks[pos>>32][off : off+n : off+n]
}

// BuildGraph explores the whole abstract zone graph of sys breadth first,
// under opts (Order is ignored). The initial states (one, or several when
// diagonal splitting cuts the initial zone) come first and have Parent -1.
// The graph is incomplete when the result's Reason is not Completed.
func BuildGraph(sys *System, opts Options) (*Graph, Result) {
	g := &Graph{sys: sys}
	// keys numbers the discrete parts (g.keys holds each one's bytes,
	// shared by its nodes); first gives, for a discrete part's number
	// and the hash of a zone's encoding, the last node stored with both,
	// and sameHash the node stored before it with both (-1: none), so
	// that find compares only the zones with the same hash. A list of a
	// discrete part's zones, each tested in turn, made the graph quadratic
	// in the zones per discrete part: 7,119 nodes over 24 discrete parts
	// took 234 ms (difftest seed 571789's sup cycle test), most of it in
	// inclusion tests.
	//
	// A zone is found by its encoding: the codec's bytes are a function
	// of the closed matrix (its minimal constraints, or the matrix itself,
	// and their width), and decoding them gives the zone back, so two
	// canonical zones are equal exactly when their encodings are, and
	// find compares bytes instead of decoding each candidate.
	keys := map[string]int32{}
	type zoneRef struct {
		key  int32
		hash uint64
	}
	first := map[zoneRef]int32{}
	var sameHash []int32
	codec := newZoneCodec(sys.Dim, opts.FullZones)
	seed := maphash.MakeSeed()
	find := func(key []byte, z dbm.DBM) (int32, bool) {
		k, ok := keys[string(key)]
		if !ok {
			k = int32(len(keys))
			keys[string(key)] = k
			g.keys = append(g.keys, []byte(string(key)))
		}
		b, w, min := codec.encode(z)
		ref := zoneRef{k, maphash.Bytes(seed, b)}
		prev, had := first[ref]
		for id, ok := prev, had; ok; id, ok = sameHash[id], sameHash[id] >= 0 {
			if n := g.Node(id); n.width == w && bytes.Equal(g.zones.get(n.zone, n.zoneLen), b) {
				return id, false
			}
		}
		id := g.add(GNode{zone: g.zones.add(b), zoneLen: uint32(len(b)), key: k, width: w, minimal: min, Parent: -1, MoveIdx: -1})
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
		res.Stored = int64(g.n)
		res.Discrete = int64(len(keys))
		res.Elapsed = now().Sub(start)
		res.PeakMemory = mem.sample()
		return g, res
	}
	st := NewStepper(sys)
	// long evaluations, and the successors of a state, poll the time
	// limit and cancellation (Stepper.SetInterrupt, pollSuccessor); the
	// build then ends at the limit, not with a model error
	st.SetInterrupt(func() bool { _, hit := opts.Limits.expired(now(), start); return hit })
	failed := func(err error, at int32) (*Graph, Result) {
		if Interrupted(err) {
			r, hit := opts.Limits.expired(now(), start)
			if !hit {
				r = LimitTime
			}
			return finish(r)
		}
		res.Err, g.ErrNode = err.(*ModelError), at
		return finish(Failed)
	}
	xp := newExtrapolator(sys, opts.Extrapolation)
	// Under symmetry reduction each node is the representative of its
	// state's orbit (symmetry.go), and the graph is the quotient of the
	// zone graph by the permutations of the scalar sets: a permutation
	// maps the successors of a state to those of its image, so the orbits
	// and their edges form a bisimulation quotient, and a formula that
	// names no member (the language's rule: members are reached through
	// quantifiers and parameters only) holds in a state exactly when it
	// holds in its representative. A cycle of the quotient is a path of
	// the zone graph from a state to a permutation of it, which Run
	// repeats until it closes (Emerson and Sistla, "Symmetry and model
	// checking", FMSD 1996, Sect. 3; Ip and Dill, FMSD 1996).
	sym := symmetryFor(sys, opts)
	if sym != nil {
		g.sym = &symTrace{extrap: opts.Extrapolation, start: opts.Initial}
	}
	if opts.Symmetry {
		// used, or why not, as Search says it
		res.Extrapolation += describeSymmetry(sys, opts)
	}
	locs := make([]int32, sys.NProcs)
	vars := make([]int32, sys.NVars)
	dlocs := make([]int32, sys.NProcs)
	dvars := make([]int32, sys.NVars)
	z := dbm.New(sys.Dim)
	src := dbm.New(sys.Dim)
	var key []byte
	var queue []int32

	// succ and succMoves collect the successors of the node expanded
	// (add's parent), which then go to g.edges, once its
	// expansion ends
	var succ, succMoves []int32
	add := func(parent, moveIdx int32, l, v []int32, zz dbm.DBM) {
		if sym == nil {
			key = sys.appendKey(key[:0], l, v)
		}
		parts, split := xp.apply(zz, l)
		if !split {
			parts = []dbm.DBM{zz}
		}
		for _, p := range parts {
			if sym != nil {
				_, _, p, key, _ = sym.canon(l, v, p)
			}
			id, fresh := find(key, p)
			if fresh {
				n := g.Node(id)
				n.Parent, n.MoveIdx = parent, moveIdx
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
		return failed(err, -1)
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
		if sym != nil && (res.Explored <= symCheckFirst || res.Explored%symCheckEvery == 0) {
			// the model's symmetry, as the reachability search checks it
			if err := checkSymmetry(st, xp, sym, locs, vars, src, res.Explored); err != nil {
				return failed(err, cur)
			}
		}
		var k int32
		var merr error
		err := st.Moves(locs, vars, src, func(m Move) bool {
			if merr = st.pollSuccessor(); merr != nil {
				return false
			}
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
			n := g.Node(cur)
			n.edges, n.nSucc = g.edges.add(succ, succMoves), int32(len(succ))
			succ, succMoves = succ[:0], succMoves[:0]
		}
		if err != nil {
			return failed(err, cur)
		}
		if opts.Limits.MaxStates > 0 && int64(g.n) >= opts.Limits.MaxStates {
			return finish(LimitStates)
		}
	}
	return finish(Completed)
}

// PathMoves returns the moves along the breadth-first tree from an initial
// state to node i.
func (g *Graph) PathMoves(i int32) ([]Move, error) {
	var ids []int32
	for x := i; g.Node(x).Parent >= 0; x = g.Node(x).Parent {
		ids = append(ids, x)
	}
	moves := make([]Move, 0, len(ids))
	for k := len(ids) - 1; k >= 0; k-- {
		n := g.Node(ids[k])
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
	return nthMove(NewStepper(g.sys), locs, vars, z, idx)
}

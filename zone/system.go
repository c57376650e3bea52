package zone

import (
	"encoding/binary"

	"github.com/tcheck/tcheck/dbm"
	"github.com/tcheck/tcheck/model"
)

// EdgeRef names one edge of one process. An EdgeRef with a negative Edge
// is a skip (see Skip): it names an edge that is not taken.
type EdgeRef struct {
	Proc int32
	Edge int32
}

// Move is one transition of the network: the edges taking part, in update
// order (the sender first, then receivers by process index), followed, for
// a broadcast, by the skips of the processes that stay out although they
// have a receiving edge whose data guard holds (in process and edge order),
// and, in a model with priorities, by constraints under which no move of
// higher priority is enabled (ConstraintRef). Taken is the move without
// its skips and constraints.
type Move []EdgeRef

// MaxReceiverGuard is model.MaxReceiverGuard: the skip encoding holds the
// index of one constraint of a receiver's clock guard.
const MaxReceiverGuard = model.MaxReceiverGuard

// SkipRef is the skip of process proc's receiving edge edge at constraint k
// of its clock guard. UPPAAL's rule for broadcasts (since version 4.1, where
// receivers may have clock guards): every process with a receiving edge
// enabled at the valuation receives, so a process stays out only where the
// clock guard of each of its data-enabled receiving edges fails. The
// negation of a guard c_0 ∧ … ∧ c_{m-1} is split into the disjoint
// c_0 ∧ … ∧ c_{k-1} ∧ ¬c_k for k < m; a skip names one of them, so that a
// move stays one convex zone (Post applies it as constraints).
func SkipRef(proc, edge, k int32) EdgeRef {
	return EdgeRef{Proc: proc, Edge: -1 - (edge*(MaxReceiverGuard+1) + k)}
}

// ConstraintRef is a clock constraint carried by a move (Proc < 0): in a
// model with priorities, a move holds, for each move of strictly higher
// priority, constraints under which that move is not enabled (see
// prioritised), and Post applies them to the source zone like a guard.
func ConstraintRef(c dbm.Constraint) EdgeRef {
	return EdgeRef{Proc: -1 - int32(c.I<<15|c.J), Edge: int32(c.B)}
}

// Constraint reports whether r is a constraint (ConstraintRef) and, if so,
// which.
func (r EdgeRef) Constraint() (dbm.Constraint, bool) {
	if r.Proc >= 0 {
		return dbm.Constraint{}, false
	}
	v := int(-1 - r.Proc)
	return dbm.Constraint{I: v >> 15, J: v & (1<<15 - 1), B: dbm.Bound(r.Edge)}, true
}

// Skip reports whether r is a skip and, if so, its edge and the constraint
// of its clock guard that fails.
func (r EdgeRef) Skip() (edge, k int32, ok bool) {
	if r.Edge >= 0 || r.Proc < 0 {
		return r.Edge, 0, false
	}
	v := -1 - r.Edge
	return v / (MaxReceiverGuard + 1), v % (MaxReceiverGuard + 1), true
}

// Taken returns the edges of m that are taken: m without its skips and
// constraints (which follow the edges taken).
func (m Move) Taken() Move {
	for i, r := range m {
		if r.Edge < 0 || r.Proc < 0 {
			return m[:i]
		}
	}
	return m
}

// System is a compiled network prepared for exploration: dimensions, the
// packing of discrete states, channel tables. It is read-only after New and
// may be shared by several searches.
type System struct {
	Net            *model.Network
	NProcs         int
	NVars          int
	Dim            int // number of clocks including the reference clock
	hasUrgentChans bool
	hasCommitted   bool
	hasUrgentLocs  bool
	// movesReadZone: Stepper.Moves leaves out moves empty in the zone
	// given (priorities, clock guards on broadcast receivers), so a stored
	// move index is found again only from the zone its state was expanded
	// with: the passed list keeps evicted states' zones, PathMoves reads
	// them.
	movesReadZone bool

	// packing of the discrete part: one bit field per location then per
	// variable, each as wide as its range needs (a bool takes one bit)
	bits   []uint8  // bits per field (0 when the field has a single value)
	offset []int32  // subtracted before packing (variable minimum, 0 for locations)
	pos    []uint32 // the field's first bit in the key
	keyLen int      // bytes
}

// NewSystem prepares net for exploration.
func NewSystem(net *model.Network) *System {
	s := &System{
		Net:    net,
		NProcs: len(net.Procs),
		NVars:  len(net.Vars),
		Dim:    len(net.Clocks),
	}
	for _, c := range net.Chans {
		if c.Urgent {
			s.hasUrgentChans = true
		}
	}
	s.movesReadZone = net.Priorities
	for _, p := range net.Procs {
		for _, e := range p.Edges {
			if e.BroadcastRecv && len(e.ClockGuard) > 0 {
				s.movesReadZone = true
			}
		}
		for _, l := range p.Locations {
			if l.Committed {
				s.hasCommitted = true
			}
			if l.Urgent {
				s.hasUrgentLocs = true
			}
		}
		s.bits = append(s.bits, bitsFor(int64(len(p.Locations)-1)))
		s.offset = append(s.offset, 0)
	}
	for _, v := range net.Vars {
		s.bits = append(s.bits, bitsFor(int64(v.Max)-int64(v.Min)))
		s.offset = append(s.offset, v.Min)
	}
	total := 0
	for _, b := range s.bits {
		s.pos = append(s.pos, uint32(total))
		total += int(b)
	}
	s.keyLen = (total + 7) / 8
	return s
}

// bitsFor returns the number of bits that hold the values 0..span.
func bitsFor(span int64) uint8 {
	b := uint8(0)
	for span > 0 {
		b++
		span >>= 1
	}
	return b
}

// InitialDiscrete returns the initial location and variable vectors.
func (s *System) InitialDiscrete() (locs, vars []int32) {
	locs = make([]int32, s.NProcs)
	for i, p := range s.Net.Procs {
		locs[i] = int32(p.Initial)
	}
	vars = make([]int32, s.NVars)
	for i, v := range s.Net.Vars {
		vars[i] = v.Init
	}
	return locs, vars
}

// appendKey packs the discrete part (locs, vars) onto buf as a bit string:
// the discrete part of a symbolic state is its key in the passed list, and
// packing it tightly matters for memory (a model with many booleans stores
// one bit for each).
func (s *System) appendKey(buf []byte, locs, vars []int32) []byte {
	var acc uint64
	n := uint(0)
	buf, acc, n = packFields(buf, acc, n, locs, s.bits, s.offset)
	buf, acc, n = packFields(buf, acc, n, vars, s.bits[len(locs):], s.offset[len(locs):])
	for ; n > 0; n -= min(n, 8) {
		buf = append(buf, byte(acc))
		acc >>= 8
	}
	return buf
}

// packFields appends the fields xs (widths bits, minimums off) to the bit
// string whose last n bits wait in acc. Fields are at most 32 bits wide
// and fewer than 32 bits wait in acc between fields, so acc never
// overflows; whole 32-bit words leave it little-endian, the same bytes as
// one byte at a time.
func packFields(buf []byte, acc uint64, n uint, xs []int32, bits []uint8, off []int32) ([]byte, uint64, uint) {
	bits, off = bits[:len(xs)], off[:len(xs)]
	for k, x := range xs {
		acc |= uint64(uint32(x-off[k])) << n
		if n += uint(bits[k]); n >= 32 {
			buf = binary.LittleEndian.AppendUint32(buf, uint32(acc))
			acc >>= 32
			n -= 32
		}
	}
	return buf, acc, n
}

// patchKey turns key, the packing of (locs, vars), into the packing of
// (nlocs, nvars) by rewriting the fields that differ: a successor differs
// from its source in a few fields of the many (the agreement model has
// about 150), and comparing costs less than packing.
func (s *System) patchKey(key []byte, locs, vars, nlocs, nvars []int32) {
	for k, x := range nlocs {
		if x != locs[k] {
			s.putField(key, k, x)
		}
	}
	vars = vars[:len(nvars)]
	for i, x := range nvars {
		if x != vars[i] {
			s.putField(key, len(nlocs)+i, x)
		}
	}
}

// putField writes field k of a packed key.
func (s *System) putField(key []byte, k int, x int32) {
	b, p := uint(s.bits[k]), uint(s.pos[k])
	v := uint64(uint32(x-s.offset[k])) << (p % 8)
	mask := uint64(1<<b-1) << (p % 8)
	for i := p / 8; mask != 0; i++ {
		key[i] = key[i]&^byte(mask) | byte(v)
		mask >>= 8
		v >>= 8
	}
}

// decodeKey unpacks key into locs and vars (of lengths NProcs and NVars).
func (s *System) decodeKey(key []byte, locs, vars []int32) {
	var acc uint64
	n := uint(0)
	p := 0
	get := func(b uint, off int32) int32 {
		if n < b {
			// refill while at most 32 bits wait: acc stays below 64 bits
			// and holds the widest field
			for n <= 32 && p < len(key) {
				acc |= uint64(key[p]) << n
				p++
				n += 8
			}
		}
		x := int32(uint32(acc&(1<<b-1))) + off
		acc >>= b
		n -= b
		return x
	}
	bits := s.bits[:len(locs)+len(vars)]
	off := s.offset[:len(bits)]
	for i := range locs {
		locs[i] = get(uint(bits[i]), off[i])
	}
	bits, off = bits[len(locs):], off[len(locs):]
	for i := range vars {
		vars[i] = get(uint(bits[i]), off[i])
	}
}

// constraintBound returns the DBM bound of a compiled clock constraint,
// evaluating a data-dependent constant in env.
func constraintBound(c *model.ClockConstraint, env *model.Env) dbm.Bound {
	v := c.Const
	if c.Value != nil {
		v = c.Value(env)
	}
	if c.Strict {
		return dbm.LT(v)
	}
	return dbm.LE(v)
}

package zone

import (
	"github.com/tcheck/tcheck/dbm"
	"github.com/tcheck/tcheck/model"
)

// EdgeRef names one edge of one process.
type EdgeRef struct {
	Proc int32
	Edge int32
}

// Move is one transition of the network: the edges taking part, in update
// order (the sender first, then receivers by process index).
type Move []EdgeRef

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

	// packing of the discrete part: one field per location then per variable
	width  []uint8 // bytes per field (1, 2 or 4)
	offset []int32 // subtracted before packing (variable minimum, 0 for locations)
	keyLen int
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
	for _, p := range net.Procs {
		for _, l := range p.Locations {
			if l.Committed {
				s.hasCommitted = true
			}
			if l.Urgent {
				s.hasUrgentLocs = true
			}
		}
		s.width = append(s.width, widthFor(int64(len(p.Locations)-1)))
		s.offset = append(s.offset, 0)
	}
	for _, v := range net.Vars {
		s.width = append(s.width, widthFor(int64(v.Max)-int64(v.Min)))
		s.offset = append(s.offset, v.Min)
	}
	for _, w := range s.width {
		s.keyLen += int(w)
	}
	return s
}

func widthFor(span int64) uint8 {
	switch {
	case span < 1<<8:
		return 1
	case span < 1<<16:
		return 2
	default:
		return 4
	}
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

// appendKey packs the discrete part (locs, vars) onto buf.
func (s *System) appendKey(buf []byte, locs, vars []int32) []byte {
	k := 0
	for _, x := range locs {
		buf = appendField(buf, s.width[k], uint32(x-s.offset[k]))
		k++
	}
	for _, x := range vars {
		buf = appendField(buf, s.width[k], uint32(x-s.offset[k]))
		k++
	}
	return buf
}

func appendField(buf []byte, w uint8, u uint32) []byte {
	switch w {
	case 1:
		return append(buf, byte(u))
	case 2:
		return append(buf, byte(u), byte(u>>8))
	default:
		return append(buf, byte(u), byte(u>>8), byte(u>>16), byte(u>>24))
	}
}

// decodeKey unpacks key into locs and vars (of lengths NProcs and NVars).
func (s *System) decodeKey(key string, locs, vars []int32) {
	p := 0
	k := 0
	read := func() int32 {
		var u uint32
		switch s.width[k] {
		case 1:
			u = uint32(key[p])
			p++
		case 2:
			u = uint32(key[p]) | uint32(key[p+1])<<8
			p += 2
		default:
			u = uint32(key[p]) | uint32(key[p+1])<<8 | uint32(key[p+2])<<16 | uint32(key[p+3])<<24
			p += 4
		}
		x := int32(u) + s.offset[k]
		k++
		return x
	}
	for i := range locs {
		locs[i] = read()
	}
	for i := range vars {
		vars[i] = read()
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

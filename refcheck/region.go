package refcheck

import "slices"

// A state is one []int32: the location vector, the variable vector, then
// for each clock 1..n its integer part k (k > ceiling means "beyond the
// ceiling"), then for each clock its fractional rank: 0 when the fractional
// part is zero (and for clocks beyond their ceiling, whose fractional part
// the region does not record), otherwise 1..m, equal ranks for equal
// fractional parts, larger ranks for larger ones, dense from 1.

// layout gives the offsets of a state's parts.
type layout struct {
	np, nv, nc int // processes, variables, clocks (without the reference clock)
}

func (l layout) size() int        { return l.np + l.nv + 2*l.nc }
func (l layout) kOff(c int) int   { return l.np + l.nv + c - 1 } // c in 1..nc
func (l layout) ordOff(c int) int { return l.np + l.nv + l.nc + c - 1 }

// beyond reports whether clock c is above its ceiling in st.
func (x *explorer) beyond(st []int32, c int) bool { return st[x.kOff(c)] > x.ceil[c] }

// normalise makes the fractional ranks of st dense (1..m) and clears the
// rank of the clocks beyond their ceiling.
func (x *explorer) normalise(st []int32) {
	var ranks []int32
	for c := 1; c <= x.nc; c++ {
		if x.beyond(st, c) {
			st[x.kOff(c)] = x.ceil[c] + 1
			st[x.ordOff(c)] = 0
			continue
		}
		if r := st[x.ordOff(c)]; r > 0 && !slices.Contains(ranks, r) {
			ranks = append(ranks, r)
		}
	}
	slices.Sort(ranks)
	for c := 1; c <= x.nc; c++ {
		if r := st[x.ordOff(c)]; r > 0 {
			st[x.ordOff(c)] = int32(slices.Index(ranks, r) + 1)
		}
	}
}

// reset sets clock c to the integer v (≥ 0) in st (st is normalised by the
// caller afterwards).
func (x *explorer) reset(st []int32, c int, v int32) {
	if v > x.ceil[c] {
		v = x.ceil[c] + 1
	}
	st[x.kOff(c)] = v
	st[x.ordOff(c)] = 0
}

// timeSucc returns the time successor of st's region (Alur and Dill,
// Definition 4.7), or stationary = true when every clock is beyond its
// ceiling (the region is its own time successor). With the tick clock,
// tick says the step makes it reach 1 (it is then set back to 0).
func (x *explorer) timeSucc(st []int32) (next []int32, stationary, tick bool) {
	next = slices.Clone(st)
	zero, maxRank := false, int32(0)
	for c := 1; c <= x.nc; c++ {
		if x.beyond(st, c) {
			continue
		}
		if st[x.ordOff(c)] == 0 {
			zero = true
		}
		maxRank = max(maxRank, st[x.ordOff(c)])
	}
	switch {
	case zero:
		// The clocks with a zero fractional part get the smallest nonzero
		// one; those at their ceiling go beyond it.
		for c := 1; c <= x.nc; c++ {
			if x.beyond(st, c) {
				continue
			}
			if st[x.ordOff(c)] == 0 {
				if st[x.kOff(c)] == x.ceil[c] {
					next[x.kOff(c)] = x.ceil[c] + 1
				} else {
					next[x.ordOff(c)] = 1
				}
			} else {
				next[x.ordOff(c)]++
			}
		}
	case maxRank > 0:
		// The clocks with the largest fractional part reach the next
		// integer (which is at most their ceiling: a clock with integer
		// part = ceiling and a nonzero fraction is beyond it).
		for c := 1; c <= x.nc; c++ {
			if !x.beyond(st, c) && st[x.ordOff(c)] == maxRank {
				next[x.kOff(c)]++
				next[x.ordOff(c)] = 0
			}
		}
	default:
		return nil, true, false
	}
	if x.tick > 0 && next[x.kOff(x.tick)] == 1 {
		next[x.kOff(x.tick)] = 0 // its fractional part is zero
		tick = true
	}
	x.normalise(next)
	return next, false, tick
}

// ival is an interval of reals with integer ends.
type ival struct {
	lo, hi           int64
	loOpen, hiOpen   bool
	loInf, hiInf     bool // -∞ / +∞
	beyondI, beyondJ bool // which clocks made it unbounded (for raising ceilings)
}

// clockIval is the interval of values of clock c (0 = the reference clock)
// over st's region.
func (x *explorer) clockIval(st []int32, c int) ival {
	if c == 0 {
		return ival{}
	}
	k := int64(st[x.kOff(c)])
	switch {
	case x.beyond(st, c):
		return ival{lo: int64(x.ceil[c]), loOpen: true, hiInf: true}
	case st[x.ordOff(c)] == 0:
		return ival{lo: k, hi: k}
	}
	return ival{lo: k, hi: k + 1, loOpen: true, hiOpen: true}
}

// diffIval is the interval of x_i - x_j over st's region. When both clocks
// are below their ceilings it is exact (the region fixes the integer parts
// and the order of the fractional parts); otherwise it is an over-
// approximation, which can only make a constraint undetermined.
func (x *explorer) diffIval(st []int32, i, j int) ival {
	switch {
	case j == 0:
		return x.clockIval(st, i)
	case i == 0:
		a := x.clockIval(st, j)
		return ival{lo: -a.hi, hi: -a.lo, loOpen: a.hiOpen, hiOpen: a.loOpen, loInf: a.hiInf, hiInf: a.loInf}
	}
	bi, bj := x.beyond(st, i), x.beyond(st, j)
	if !bi && !bj {
		d := int64(st[x.kOff(i)]) - int64(st[x.kOff(j)])
		oi, oj := st[x.ordOff(i)], st[x.ordOff(j)]
		switch {
		case oi == oj:
			return ival{lo: d, hi: d}
		case oi > oj:
			return ival{lo: d, hi: d + 1, loOpen: true, hiOpen: true}
		}
		return ival{lo: d - 1, hi: d, loOpen: true, hiOpen: true}
	}
	a, b := x.clockIval(st, i), x.clockIval(st, j)
	// a - b: lo = a.lo - b.hi, hi = a.hi - b.lo
	r := ival{beyondI: bi, beyondJ: bj}
	r.loInf = a.loInf || b.hiInf
	r.lo, r.loOpen = a.lo-b.hi, a.loOpen || b.hiOpen
	r.hiInf = a.hiInf || b.loInf
	r.hi, r.hiOpen = a.hi-b.lo, a.hiOpen || b.loOpen
	return r
}

// tri is a truth value of a region: every valuation satisfies it, none
// does, or the region does not determine it.
type tri int8

const (
	tFalse tri = iota
	tTrue
	tUnknown
)

func (t tri) not() tri {
	switch t {
	case tFalse:
		return tTrue
	case tTrue:
		return tFalse
	}
	return tUnknown
}

// le decides v ≺ c (< when strict, ≤ otherwise) for every v in the interval.
func (v ival) le(c int64, strict bool) tri {
	if !v.hiInf && (v.hi < c || (v.hi == c && (v.hiOpen || !strict))) {
		return tTrue
	}
	if !v.loInf && (v.lo > c || (v.lo == c && (v.loOpen || strict))) {
		return tFalse
	}
	return tUnknown
}

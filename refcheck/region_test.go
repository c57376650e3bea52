package refcheck

import (
	"math/big"
	"slices"
	"testing"
)

// regionOf classifies a concrete valuation (v[c] for clocks 1..nc) into
// the state layout of x (no processes, no variables).
func regionOf(x *explorer, v []*big.Rat) []int32 {
	st := make([]int32, x.size())
	var fracs []*big.Rat
	frac := make([]*big.Rat, x.nc+1)
	for c := 1; c <= x.nc; c++ {
		if v[c].Cmp(big.NewRat(int64(x.ceil[c]), 1)) > 0 {
			st[x.kOff(c)] = x.ceil[c] + 1
			continue
		}
		k := new(big.Int).Quo(v[c].Num(), v[c].Denom()) // v ≥ 0: floor
		st[x.kOff(c)] = int32(k.Int64())
		frac[c] = new(big.Rat).Sub(v[c], new(big.Rat).SetInt(k))
		if frac[c].Sign() > 0 && !slices.ContainsFunc(fracs, func(f *big.Rat) bool { return f.Cmp(frac[c]) == 0 }) {
			fracs = append(fracs, frac[c])
		}
	}
	slices.SortFunc(fracs, func(a, b *big.Rat) int { return a.Cmp(b) })
	for c := 1; c <= x.nc; c++ {
		if frac[c] != nil && frac[c].Sign() > 0 {
			st[x.ordOff(c)] = int32(slices.IndexFunc(fracs, func(f *big.Rat) bool { return f.Cmp(frac[c]) == 0 }) + 1)
		}
	}
	return st
}

// pointOf returns a valuation of st's region: fractional rank r of m
// becomes r/(m+1), a clock beyond its ceiling C gets C + 1/2.
func pointOf(x *explorer, st []int32) []*big.Rat {
	m := int64(0)
	for c := 1; c <= x.nc; c++ {
		m = max(m, int64(st[x.ordOff(c)]))
	}
	v := make([]*big.Rat, x.nc+1)
	for c := 1; c <= x.nc; c++ {
		if x.beyond(st, c) {
			v[c] = big.NewRat(2*int64(x.ceil[c])+1, 2)
			continue
		}
		v[c] = new(big.Rat).Add(big.NewRat(int64(st[x.kOff(c)]), 1), big.NewRat(int64(st[x.ordOff(c)]), m+1))
	}
	return v
}

// TestTimeSuccessorMatchesConcreteDelays checks the region operations
// against concrete valuations over every region of three clocks with
// ceilings 0, 1 and 2 reachable by delays and resets: a point of the
// region classifies back to it, and the first region a delay from that
// point enters is timeSucc's (Alur and Dill, Definition 4.7).
func TestTimeSuccessorMatchesConcreteDelays(t *testing.T) {
	x := &explorer{layout: layout{nc: 3}, ceil: []int32{0, 0, 1, 2}}
	seen := map[string]bool{}
	queue := [][]int32{make([]int32, x.size())}
	key := func(st []int32) string {
		b := make([]byte, len(st))
		for i, v := range st {
			b[i] = byte(v)
		}
		return string(b)
	}
	seen[key(queue[0])] = true
	for len(queue) > 0 {
		st := queue[0]
		queue = queue[1:]
		p := pointOf(x, st)
		if got := regionOf(x, p); !slices.Equal(got, st) {
			t.Fatalf("point %v of region %v classifies as %v", p, st, got)
		}
		next, stationary, _ := x.timeSucc(st)
		// the smallest delay that brings a clock below its ceiling to an
		// integer; with a zero fractional part somewhere, half of it
		var dmin *big.Rat
		zero := false
		for c := 1; c <= x.nc; c++ {
			if x.beyond(st, c) {
				continue
			}
			k := big.NewRat(int64(st[x.kOff(c)])+1, 1)
			d := new(big.Rat).Sub(k, p[c])
			if st[x.ordOff(c)] == 0 {
				zero = true
			}
			if dmin == nil || d.Cmp(dmin) < 0 {
				dmin = d
			}
		}
		if dmin == nil {
			if !stationary {
				t.Fatalf("region %v: every clock beyond, but not stationary", st)
			}
			continue
		}
		if zero {
			dmin.Quo(dmin, big.NewRat(2, 1))
		}
		q := make([]*big.Rat, len(p))
		for c := 1; c <= x.nc; c++ {
			q[c] = new(big.Rat).Add(p[c], dmin)
		}
		if want := regionOf(x, q); stationary || !slices.Equal(next, want) {
			t.Fatalf("region %v: time successor %v (stationary %v), a delay of %v gives %v", st, next, stationary, dmin, want)
		}
		succs := [][]int32{next}
		for c := 1; c <= x.nc; c++ {
			for _, val := range []int32{0, 1, 3} {
				r := slices.Clone(st)
				x.reset(r, c, val)
				x.normalise(r)
				succs = append(succs, r)
			}
		}
		for _, s := range succs {
			if !seen[key(s)] {
				seen[key(s)] = true
				queue = append(queue, s)
			}
		}
	}
	// every region of a grid of valuations was visited
	grid := map[string]bool{}
	for a := int64(0); a < 24; a++ {
		for b := int64(0); b < 24; b++ {
			for c := int64(0); c < 24; c++ {
				v := []*big.Rat{nil, big.NewRat(a, 8), big.NewRat(b, 8), big.NewRat(c, 8)}
				st := regionOf(x, v)
				grid[key(st)] = true
				if !seen[key(st)] {
					t.Fatalf("the region %v of %v was not visited", st, v)
				}
			}
		}
	}
	t.Logf("%d regions visited, %d on the grid", len(seen), len(grid))
}

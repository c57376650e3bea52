package dbm

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
)

// MinConstraints appends to dst a minimal set of constraints whose
// conjunction with the implicit x ≥ 0 of every clock is the zone d, and
// returns the extended slice.
//
// Clocks whose differences are fixed (c_ij + c_ji = ≤0) form equivalence
// classes; each class is represented by its smallest clock, and every other
// member contributes the two constraints fixing its difference to the
// representative. Between representatives an edge c_IJ is kept unless some
// third representative K has c_IK + c_KJ ≤ c_IJ, or, for a lower bound
// c_0J, the implicit x_k ≥ 0 of another member k of J's class implies it.
// Since no zero cycle is left between representatives, the kept edges are
// a minimal equivalent set. Larsen, Larsson, Pettersson, Yi, "Efficient verification of
// real-time systems: compact data structure and state-space reduction",
// RTSS 1997.
//
// Precondition: d is closed and non-empty (checked in debug builds).
// Postcondition: constraining the zone of all non-negative valuations by the
// result gives d (tested).
func (d DBM) MinConstraints(dst []Constraint) []Constraint {
	if debug {
		d.check("MinConstraints")
	}
	n := d.Dim
	m := d.M
	// scratch on the stack for the usual dimensions: the passed list calls
	// this for every state it stores
	var repBuf, repsBuf, viaBuf [64]int
	var rep, reps, via []int
	if n <= len(repBuf) {
		rep, reps, via = repBuf[:n], repsBuf[:0], viaBuf[:0]
	} else {
		rep, reps, via = make([]int, n), make([]int, 0, n), make([]int, 0, n)
	}
	for i := range rep {
		rep[i] = -1
	}
	for i := 0; i < n; i++ {
		if rep[i] >= 0 {
			continue
		}
		rep[i] = i
		reps = append(reps, i)
		for j := i + 1; j < n; j++ {
			if rep[j] >= 0 {
				continue
			}
			cij, cji := m[i*n+j], m[j*n+i]
			if cij != LTInf && cji != LTInf && add64(cij, cji) == int64(LEZero) {
				rep[j] = i
			}
		}
	}
	for j := 0; j < n; j++ {
		if r := rep[j]; r != j {
			if r != 0 || m[j] != LEZero { // x_j ≥ 0 is implicit
				dst = append(dst, Constraint{I: r, J: j, B: m[r*n+j]})
			}
			dst = append(dst, Constraint{I: j, J: r, B: m[j*n+r]})
		}
	}
	// A representative whose row is < ∞ off the diagonal (a clock the
	// extrapolation freed) makes no edge redundant and has none of its
	// own: via holds the others, the only candidates for K.
	for _, k := range reps {
		if !unboundedRow(m[k*n:k*n+n], k) {
			via = append(via, k)
		}
	}
	for _, i := range via {
		for _, j := range reps {
			if i == j {
				continue
			}
			c := m[i*n+j]
			if c == LTInf || (i == 0 && c == LEZero) {
				continue // no constraint, or the implicit x_j ≥ 0
			}
			redundant := false
			if i == 0 {
				// The implicit x_k ≥ 0 of another member k of j's class
				// may imply x_j's lower bound: c_0j ≥ ≤0 + c_kj.
				for k := j + 1; k < n && !redundant; k++ {
					if rep[k] == j && add64(LEZero, m[k*n+j]) <= int64(c) {
						redundant = true
					}
				}
			}
			for _, k := range via {
				if redundant {
					break
				}
				if k == i || k == j {
					continue
				}
				cik, ckj := m[i*n+k], m[k*n+j]
				if cik != LTInf && ckj != LTInf && add64(cik, ckj) <= int64(c) {
					redundant = true
					break
				}
			}
			if !redundant {
				dst = append(dst, Constraint{I: i, J: j, B: c})
			}
		}
	}
	return dst
}

// String renders d as a readable conjunction of its non-redundant
// constraints (see [DBM.MinConstraints]) with clocks named x1, x2, ...,
// for example "x1>=1 && x1<=3 && x1-x2<1". The zone of all non-negative
// valuations is "true" and an empty DBM is "false".
//
// Precondition: d is closed or marked empty (checked in debug builds).
// Postcondition: d is unchanged.
func (d DBM) String() string { return d.Format(nil) }

// Format is [DBM.String] with names[i] as the name of clock i (names[0] is
// unused; missing or empty names fall back to "x<i>").
//
// Precondition: as for String.
// Postcondition: d is unchanged.
func (d DBM) Format(names []string) string {
	if len(d.M) == 0 || d.IsEmpty() {
		return "false"
	}
	cs := d.MinConstraints(nil)
	if len(cs) == 0 {
		return "true"
	}
	type item struct {
		hi, lo, dir int // order: by larger clock, then smaller clock, then lower/upper
		text        string
	}
	items := make([]item, 0, len(cs))
	seen := make(map[[2]int]bool) // equality pairs already printed
	for _, c := range cs {
		i, j := c.I, c.J
		lo, hi := min(i, j), max(i, j)
		rev := c.B != LTInf && d.M[j*d.Dim+i] != LTInf && add64(c.B, d.M[j*d.Dim+i]) == int64(LEZero)
		if rev {
			// x_i − x_j is fixed: print one equality for the pair.
			key := [2]int{lo, hi}
			if seen[key] {
				continue
			}
			seen[key] = true
			v := d.M[lo*d.Dim+hi].Const() // x_lo − x_hi == v
			var t string
			if lo == 0 {
				t = clockName(names, hi) + "==" + strconv.Itoa(-int(v))
			} else if v == 0 {
				t = clockName(names, lo) + "==" + clockName(names, hi)
			} else {
				t = clockName(names, lo) + "-" + clockName(names, hi) + "==" + strconv.Itoa(int(v))
			}
			items = append(items, item{hi, lo, 0, t})
			continue
		}
		var t string
		dir := 0
		switch {
		case j == 0:
			t = clockName(names, i) + c.B.String()
			dir = 1
		case i == 0:
			t = c.Format(names)
		case i < j:
			t = c.Format(names)
		default:
			// x_i − x_j ≺ c with i > j: print as x_j − x_i ≻ −c.
			op := ">="
			if c.B.Strict() {
				op = ">"
			}
			t = clockName(names, j) + "-" + clockName(names, i) + op + strconv.Itoa(-int(c.B.Const()))
			dir = 1
		}
		items = append(items, item{hi, lo, dir, t})
	}
	slices.SortStableFunc(items, func(a, b item) int {
		return cmp.Or(cmp.Compare(a.hi, b.hi), cmp.Compare(a.lo, b.lo), cmp.Compare(a.dir, b.dir))
	})
	var sb strings.Builder
	for k, it := range items {
		if k > 0 {
			sb.WriteString(" && ")
		}
		sb.WriteString(it.text)
	}
	return sb.String()
}

// Matrix renders the matrix of d as an aligned table, row i and column j
// holding the bound on x_i − x_j, for example
//
//	      0     x1    x2
//	0     <=0   <=-1  <=0
//	x1    <=3   <=0   <=3
//	x2    <inf  <inf  <=0
//
// Precondition: none (any matrix, closed or not; invalid entries print as
// "?<raw>").
// Postcondition: d is unchanged.
func (d DBM) Matrix() string {
	n := d.Dim
	if len(d.M) != n*n || n < 1 {
		return "<malformed DBM>\n"
	}
	cells := make([][]string, n+1)
	cells[0] = make([]string, n+1)
	for j := 0; j < n; j++ {
		cells[0][j+1] = rowName(j)
	}
	width := 1
	for i := 0; i < n; i++ {
		row := make([]string, n+1)
		row[0] = rowName(i)
		for j := 0; j < n; j++ {
			b := d.M[i*n+j]
			if b.valid() {
				row[j+1] = b.String()
			} else {
				row[j+1] = "?" + strconv.Itoa(int(b))
			}
		}
		cells[i+1] = row
	}
	for _, row := range cells {
		for _, c := range row {
			width = max(width, len(c))
		}
	}
	var sb strings.Builder
	for _, row := range cells {
		line := ""
		for k, c := range row {
			if k < len(row)-1 {
				line += c + strings.Repeat(" ", width+2-len(c))
			} else {
				line += c
			}
		}
		sb.WriteString(strings.TrimRight(line, " "))
		sb.WriteByte('\n')
	}
	return sb.String()
}

func rowName(i int) string {
	if i == 0 {
		return "0"
	}
	return "x" + strconv.Itoa(i)
}

package dbm

// Change is an entry of a DBM as it was before an operation changed it:
// ConstrainLog records them, Undo puts them back. A search that tries
// constraint after constraint on one zone, backtracking (a broadcast's
// choices of receivers), keeps one matrix and the entries its choices
// changed instead of a copy per choice.
type Change struct {
	At  int32 // index into M
	Old Bound
}

// ConstrainLog is Constrain that appends to log every entry it changes,
// with its value before the change, and leaves d unchanged when the
// result is empty (Constrain marks it empty instead): Undo(log, mark)
// with mark = len(log) before the call restores d. It is Constrain's
// closure written out again, so that Constrain, on every successor's
// path, does not test for a log in its inner loop.
//
// Precondition: d is closed and non-empty (checked in debug builds);
// 0 ≤ i, j < d.Dim (checked by the slice index only).
// Postcondition: returns false iff d ∧ (x_i − x_j ≺ b) is empty, then d and
// log are as they were; otherwise d is that intersection, closed (checked
// in debug builds), and log holds the old values of the entries changed.
func (d DBM) ConstrainLog(i, j int, b Bound, log []Change) ([]Change, bool) {
	n := d.Dim
	m := d.M[:n*n]
	if debug {
		d.check("ConstrainLog (before)")
	}
	if b >= m[i*n+j] {
		return log, true
	}
	if cji := m[j*n+i]; cji != LTInf && add64(b, cji) < int64(LEZero) {
		return log, false
	}
	log = append(log, Change{int32(i*n + j), m[i*n+j]})
	m[i*n+j] = b
	rowJ := m[j*n : j*n+n]
	for k := 0; k < n; k++ {
		cki := m[k*n+i]
		if cki == LTInf {
			continue
		}
		ckib := clamp(add64(cki, b))
		c := int64(ckib)
		rowK := m[k*n : k*n+n]
		rowK = rowK[:len(rowJ)]
		for l, cjl := range rowJ {
			if cjl == LTInf {
				continue
			}
			s := c + int64(cjl) - int64((ckib|cjl)&1)
			if s < int64(rowK[l]) {
				log = append(log, Change{int32(k*n + l), rowK[l]})
				rowK[l] = clamp(s)
			}
		}
	}
	if debug {
		d.check("ConstrainLog")
	}
	return log, true
}

// Undo puts back the entries log[mark:] recorded (ConstrainLog), latest
// first, and returns log[:mark].
//
// Precondition: log[mark:] was recorded on d since d held the matrix to be
// restored, and nothing else changed d since.
// Postcondition: d holds the entries it held when len(log) was mark.
func (d DBM) Undo(log []Change, mark int) []Change {
	for k := len(log) - 1; k >= mark; k-- {
		d.M[log[k].At] = log[k].Old
	}
	return log[:mark]
}

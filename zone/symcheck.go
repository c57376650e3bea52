package zone

import (
	"fmt"
	"slices"
	"unsafe"

	"github.com/tcheck/tcheck/dbm"
	"github.com/tcheck/tcheck/model"
)

// The language rules on scalar values (model/scalar.go) do not make a
// model symmetric on their own: a loop over a scalar set whose effect
// depends on the order of the values (a function returning the first i
// with some property) breaks the symmetry without breaking a rule, and the
// reduction would then give wrong answers. So the search checks, on one
// expanded state in symCheckEvery, that the state and a permutation of it
// (a transposition of two members of a set) have the same successors up to
// symmetry: the same multiset of canonical successors (the condition for
// the orbits to form a quotient of the zone graph). The first
// symCheckFirst states are all checked, so that small models are checked
// throughout. A symmetric model
// always passes; a state where the check fails ends the search with a
// model error naming the set, with a trace to the state. Where the
// canonical forms are not exact (too many ties) the state is not checked.

// symCheckEvery is how often the search checks the symmetry of an
// expanded state after the first symCheckFirst (variables for the tests).
var (
	symCheckEvery int64 = 64
	symCheckFirst int64 = 256
)

// checkSymmetry checks the state e just expanded (e.locs, e.vars, e.src);
// n is its number among the expanded states, which picks the
// transposition.
func (e *expander) checkSymmetry(n int64) error {
	return checkSymmetry(e.st, e.xp, e.sym, e.locs, e.vars, e.src, n)
}

// checkSymmetry checks that the state (locs, vars, z) and its image by a
// transposition, picked by n, have the same successors up to symmetry
// (under st and the abstraction xp).
func checkSymmetry(st *Stepper, xp *extrapolator, sym *symmetry, locs, vars []int32, src dbm.DBM, n int64) error {
	k := -1
	for i, size := range sym.sizes {
		if size >= 2 {
			k = i
			break
		}
	}
	if k < 0 {
		return nil
	}
	a, ok, err := canonSuccessors(st, xp, sym, locs, vars, src)
	if err != nil || !ok {
		return err
	}
	size := int64(sym.sizes[k])
	i := n % size
	j := (i + 1 + (n/size)%(size-1)) % size
	pi := identityPerm(sym.sizes)
	pi[k][i], pi[k][j] = int32(j), int32(i)
	pl := make([]int32, len(locs))
	pv := make([]int32, len(vars))
	z := dbm.New(src.Dim)
	ci := make([]int32, src.Dim)
	sym.apply(pi, locs, vars, src, pl, pv, z, ci)
	b, ok, err := canonSuccessors(st, xp, sym, pl, pv, z)
	if err != nil || !ok {
		return err
	}
	if !slices.Equal(a, b) {
		set := sym.sys.Net.Scalars[k].Name
		return &ModelError{Err: &model.RuntimeError{Msg: fmt.Sprintf(
			"the model is not symmetric in the scalar set %s: this state has %d successors up to symmetry, and the same state with two members of %s swapped has %d others (a loop over %s whose effect depends on the order of its values?); check it with --symmetry off",
			set, len(a), set, len(b), set)}}
	}
	return nil
}

// canonSuccessors returns the canonical extrapolated successors of (locs,
// vars, z) as sorted strings (key and zone), and false if a canonical form
// was not exact.
func canonSuccessors(st *Stepper, xp *extrapolator, sym *symmetry, locs, vars []int32, z dbm.DBM) ([]string, bool, error) {
	var out []string
	exact := true
	dl := make([]int32, len(locs))
	dv := make([]int32, len(vars))
	dz := dbm.New(z.Dim)
	var perr error
	err := st.Moves(locs, vars, z, func(m Move) bool {
		if perr = st.pollSuccessor(); perr != nil {
			return false
		}
		ok, err := st.Post(locs, vars, z, m, dl, dv, dz)
		if err != nil {
			perr = err
			return false
		}
		if !ok {
			return true
		}
		parts, split := xp.apply(dz, dl)
		if !split {
			parts = []dbm.DBM{dz}
		}
		for _, p := range parts {
			_, _, cz, key, _ := sym.canon(dl, dv, p)
			if !sym.exact {
				exact = false
				return false
			}
			zb := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(cz.M))), len(cz.M)*4)
			out = append(out, string(key)+"|"+string(zb))
		}
		return true
	})
	if err == nil {
		err = perr
	}
	if err != nil {
		return nil, false, err
	}
	slices.Sort(out)
	return out, exact, nil
}

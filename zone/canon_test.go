package zone

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tcheck/tcheck/dbm"
	"github.com/tcheck/tcheck/model"
)

// TestCanonIsConstantOnOrbits proves what makes the reduction exact where
// canon says it is (Hendriks et al., FORMATS 2003, Sect. 4: one canonical
// representative per orbit): on reachable states of models with scalar
// sets, a state and its images under random permutations of the sets get
// the same representative, locations, variables, zone and key alike.
func TestCanonIsConstantOnOrbits(t *testing.T) {
	for _, tc := range []struct {
		name, path string
		set        map[string]int64
	}{
		{"fischer N=4", "../queries/testdata/semantics/scalar-fischer.yaml", map[string]int64{"N": 4}},
		{"pools", "../queries/testdata/semantics/scalar-pools.yaml", nil},
		{"select-chan", "../queries/testdata/semantics/scalar-select-chan.yaml", nil},
		{"agreement-scalar n=3 f=1 (1,1,1)", "../agreement/agreement-scalar.yaml", map[string]int64{"n": 3, "f": 1, "c1": 1, "c2": 1, "d": 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, net, err := model.Load(tc.path, tc.set)
			if err != nil {
				t.Fatal(err)
			}
			sys := NewSystem(net)
			sym, why := newSymmetry(sys)
			if sym == nil {
				t.Fatal(why)
			}
			type state struct {
				locs, vars []int32
				z          dbm.DBM
			}
			var states []state
			Search(sys, Options{Extrapolation: Extrapolation{Local: true}}, func(v *Visit) bool {
				states = append(states, state{slices.Clone(v.Locs), slices.Clone(v.Vars), v.Zone.Clone()})
				return len(states) >= 3000
			})
			rng := rand.New(rand.NewPCG(7, uint64(len(tc.name))))
			img := state{make([]int32, sys.NProcs), make([]int32, sys.NVars), dbm.New(sys.Dim)}
			ci := make([]int32, sys.Dim)
			checked := 0
			for n, st := range states {
				cl, cv, cz, key, _ := sym.canon(st.locs, st.vars, st.z)
				if !sym.exact {
					continue
				}
				checked++
				want := state{slices.Clone(cl), slices.Clone(cv), cz.Clone()}
				wantKey := string(key)
				for range 4 {
					pi := make(perm, len(sym.sizes))
					for k, size := range sym.sizes {
						for _, v := range rng.Perm(size) {
							pi[k] = append(pi[k], int32(v))
						}
					}
					sym.apply(pi, st.locs, st.vars, st.z, img.locs, img.vars, img.z, ci)
					gl, gv, gz, gkey, _ := sym.canon(img.locs, img.vars, img.z)
					if !sym.exact {
						t.Fatalf("state %d: canon is exact on the state and not on its image under %v", n, pi)
					}
					if !slices.Equal(gl, want.locs) || !slices.Equal(gv, want.vars) || !gz.Equal(want.z) || string(gkey) != wantKey {
						t.Fatalf("state %d: its image under %v has another representative:\nlocs %v vars %v\nagainst locs %v vars %v", n, pi, gl, gv, want.locs, want.vars)
					}
				}
			}
			t.Logf("%d states, %d with an exact representative", len(states), checked)
			if checked < len(states)/2 {
				t.Fatalf("canon was exact on %d of %d states: the test checks too little", checked, len(states))
			}
		})
	}
}

// TestZoneFixedByAgreesWithPermutedZone proves the shortcut of
// interchangeable: zoneFixedBy, which compares only the rows and columns
// of the clocks a permutation moves, says that a zone is its own image
// exactly when permuting the whole matrix (permuteZone) gives it back. On
// reachable zones of scalar-fischer (N = 5) under every transposition of
// two members, fixed and not, and on random permutations of the clocks.
func TestZoneFixedByAgreesWithPermutedZone(t *testing.T) {
	_, net, err := model.Load("../queries/testdata/semantics/scalar-fischer.yaml", map[string]int64{"N": 5})
	if err != nil {
		t.Fatal(err)
	}
	sys := NewSystem(net)
	sym, why := newSymmetry(sys)
	if sym == nil {
		t.Fatal(why)
	}
	var zones []dbm.DBM
	var discrete [][2][]int32
	Search(sys, Options{Extrapolation: Extrapolation{Local: true}}, func(v *Visit) bool {
		zones = append(zones, v.Zone.Clone())
		discrete = append(discrete, [2][]int32{slices.Clone(v.Locs), slices.Clone(v.Vars)})
		return len(zones) >= 2000
	})
	out := dbm.New(sys.Dim)
	ci := make([]int32, sys.Dim)
	tl, tv := make([]int32, sys.NProcs), make([]int32, sys.NVars)
	naive := func(z dbm.DBM, ci []int32) bool {
		permuteZone(z, ci, out)
		return slices.Equal(out.M, z.M)
	}
	fixed, moved := 0, 0
	check := func(z dbm.DBM, ci []int32) {
		t.Helper()
		want := naive(z, ci)
		if got := zoneFixedBy(z, ci); got != want {
			t.Fatalf("zoneFixedBy(%v) = %v, the permuted matrix says %v:\n%v", ci, got, want, z)
		}
		if want {
			fixed++
		} else {
			moved++
		}
	}
	size := sym.sizes[0]
	for n, z := range zones {
		for a := range size {
			for b := a + 1; b < size; b++ {
				pi := identityPerm(sym.sizes)
				pi[0][a], pi[0][b] = int32(b), int32(a)
				sym.applyDiscrete(pi, discrete[n][0], discrete[n][1], tl, tv, ci)
				check(z, ci)
			}
		}
	}
	rng := rand.New(rand.NewPCG(11, 5))
	for _, z := range zones[:200] {
		p := rng.Perm(sys.Dim - 1)
		ci[0] = 0
		for c, v := range p {
			ci[c+1] = int32(v + 1)
		}
		check(z, ci)
	}
	t.Logf("%d fixed, %d moved", fixed, moved)
	if fixed == 0 || moved == 0 {
		t.Fatalf("%d fixed and %d moved: the test does not tell the two apart", fixed, moved)
	}
}

// TestFactorialSaturates: n! is exact up to 20 and math.MaxInt from 21
// on, where it would wrap around (queries/testdata/symmetry/
// large-scalar-set.yaml panicked on the wrapped product).
func TestFactorialSaturates(t *testing.T) {
	for _, tc := range []struct{ n, want int }{
		{0, 1}, {1, 1}, {4, 24}, {7, 5040}, {20, 2432902008176640000}, {21, math.MaxInt}, {40, math.MaxInt}, {100, math.MaxInt},
	} {
		if got := factorial(tc.n); got != tc.want {
			t.Errorf("factorial(%d) = %d, want %d", tc.n, got, tc.want)
		}
	}
}

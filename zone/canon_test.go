package zone

import (
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

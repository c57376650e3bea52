package zone

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tcheck/tcheck/dbm"
	"github.com/tcheck/tcheck/model"
)

// symTestModel is a model with scalar sets for the tests of the symmetry's
// operations (canon, fixedBySwap): processes with one scalar argument and
// with two, arrays indexed by members, variables holding members, local
// clocks.
type symTestModel struct {
	name, path string
	set        map[string]int64
}

var symTestModels = []symTestModel{
	{"fischer N=5", "../queries/testdata/semantics/scalar-fischer.yaml", map[string]int64{"N": 5}},
	{"pools", "../queries/testdata/semantics/scalar-pools.yaml", nil},
	{"select-chan", "../queries/testdata/semantics/scalar-select-chan.yaml", nil},
	{"agreement-scalar n=3 f=1 (1,1,1)", "../agreement/agreement-scalar.yaml", map[string]int64{"n": 3, "f": 1, "c1": 1, "c2": 1, "d": 1}},
	{"pair family N=4", "../difftest/testdata/symmetry/pair-family-clocks.yaml", map[string]int64{"N": 4}},
	{"agreement-scalar n=4 f=1 (1,1,0)", "../agreement/agreement-scalar.yaml", map[string]int64{"n": 4, "f": 1, "c1": 1, "c2": 1, "d": 0}},
}

// testSymState is a reachable state of a symTestModel.
type testSymState struct {
	locs, vars []int32
	z          dbm.DBM
}

// reachableSymStates loads m and returns its system, symmetry and its
// first limit reachable states (breadth first, unreduced).
func reachableSymStates(t *testing.T, m symTestModel, limit int) (*System, *symmetry, []testSymState) {
	t.Helper()
	_, net, err := model.Load(m.path, m.set)
	if err != nil {
		t.Fatal(err)
	}
	sys := NewSystem(net)
	sym, why := newSymmetry(sys)
	if sym == nil {
		t.Fatal(why)
	}
	var states []testSymState
	Search(sys, Options{Extrapolation: Extrapolation{Local: true}}, func(v *Visit) bool {
		states = append(states, testSymState{slices.Clone(v.Locs), slices.Clone(v.Vars), v.Zone.Clone()})
		return len(states) >= limit
	})
	return sys, sym, states
}

// TestCanonIsConstantOnOrbits proves what makes the reduction exact where
// canon says it is (Hendriks et al., FORMATS 2003, Sect. 4: one canonical
// representative per orbit): on reachable states of models with scalar
// sets, a state and its images under random permutations of the sets get
// the same representative, locations, variables, zone and key alike.
func TestCanonIsConstantOnOrbits(t *testing.T) {
	for _, tc := range symTestModels {
		t.Run(tc.name, func(t *testing.T) {
			sys, sym, states := reachableSymStates(t, tc, 3000)
			rng := rand.New(rand.NewPCG(7, uint64(len(tc.name))))
			img := testSymState{make([]int32, sys.NProcs), make([]int32, sys.NVars), dbm.New(sys.Dim)}
			ci := make([]int32, sys.Dim)
			checked := 0
			for n, st := range states {
				cl, cv, cz, key, _ := sym.canon(st.locs, st.vars, st.z)
				if !sym.exact {
					continue
				}
				checked++
				want := testSymState{slices.Clone(cl), slices.Clone(cv), cz.Clone()}
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

// TestCanonDiscretePartIgnoresTheZone proves what keeps the reduction from
// storing one orbit of discrete parts under several (docs/difftest.md,
// finding 4): reachable states with equal discrete parts get
// representatives with equal discrete parts, whatever their zones, where
// canon is exact. On the pair family of difftest's pair-family-clocks.yaml
// the members' discrete features tie and their clocks differ, and the
// clocks chose the discrete part of the representative before the
// thirty-sixth stop (512 discrete parts of representatives where the
// orbits are 104).
func TestCanonDiscretePartIgnoresTheZone(t *testing.T) {
	models := append([]symTestModel{{"pair family", "../difftest/testdata/symmetry/pair-family-clocks.yaml", nil}}, symTestModels...)
	for _, tc := range models {
		t.Run(tc.name, func(t *testing.T) {
			_, sym, states := reachableSymStates(t, tc, 3000)
			first := map[string]string{} // a discrete part → its representative's
			pairs, zones := 0, 0
			for _, st := range states {
				cl, cv, _, _, _ := sym.canon(st.locs, st.vars, st.z)
				if !sym.exact {
					continue
				}
				d, rep := fmt.Sprint(st.locs, st.vars), fmt.Sprint(cl, cv)
				if w, ok := first[d]; ok {
					pairs++
					if w != rep {
						t.Fatalf("two states of discrete part %s have representatives of discrete parts %s and %s", d, w, rep)
					}
					continue
				}
				first[d] = rep
				zones++
			}
			t.Logf("%d states, %d discrete parts, %d states compared with the first of theirs", len(states), zones, pairs)
			if pairs < len(states)/4 {
				t.Fatalf("%d states compared: the test checks too little", pairs)
			}
		})
	}
}

// TestCrossSplitCutsTheOrderings proves what crossSplit is for: canon
// tries fewer orderings of tied members when it first orders them by what
// each indexes with others, and stays exact as often
// (TestCanonIsConstantOnOrbits checks its representatives). On the
// agreement model the global arrays indexed twice by the process
// identities (halted, bmask, buff, pend) do it (tier 0); on the pair
// family, the locations of P1(i, j) (tier 1).
func TestCrossSplitCutsTheOrderings(t *testing.T) {
	for _, tc := range []struct {
		m    symTestModel
		tier int
	}{
		{symTestModels[len(symTestModels)-1], 0}, // agreement-scalar n = 4
		{symTestModels[len(symTestModels)-2], 1}, // pair family N = 4
	} {
		t.Run(tc.m.name, func(t *testing.T) {
			_, sym, states := reachableSymStates(t, tc.m, 3000)
			count := func() (orderings, exact int) {
				sym.orderings = 0
				for _, st := range states {
					sym.canon(st.locs, st.vars, st.z)
					if sym.exact {
						exact++
					}
				}
				return sym.orderings, exact
			}
			with, exactWith := count()
			terms := sym.crossTerms[tc.tier]
			sym.crossTerms[tc.tier] = make([][][]crossTerm, len(terms))
			for k := range terms {
				sym.crossTerms[tc.tier][k] = make([][]crossTerm, len(terms[k]))
			}
			without, exactWithout := count()
			sym.crossTerms[tc.tier] = terms
			t.Logf("%d states: %d orderings tried with the split, %d without tier %d; exact %d and %d", len(states), with, without, tc.tier, exactWith, exactWithout)
			if with >= without || exactWith < exactWithout {
				t.Errorf("%d orderings (%d exact) with the split, %d (%d exact) without tier %d", with, exactWith, without, exactWithout, tc.tier)
			}
		})
	}
}

// TestFixedBySwapAgreesWithApply proves the shortcut of interchangeable
// and keepsDiscrete: fixedBySwap, which looks only at what a
// transposition of two members moves, says that a state (or its discrete
// part) is its own image exactly when applying the transposition to the
// whole state (apply) gives it back. On reachable states of the scalar
// models (processes with one scalar argument and with two, arrays indexed
// by members, variables holding members, local clocks), under every
// transposition of every set, fixed and not; and zoneFixedBy against
// permuteZone under random permutations of the clocks.
func TestFixedBySwapAgreesWithApply(t *testing.T) {
	for _, tc := range symTestModels {
		t.Run(tc.name, func(t *testing.T) {
			sys, sym, states := reachableSymStates(t, tc, 2000)
			img := testSymState{make([]int32, sys.NProcs), make([]int32, sys.NVars), dbm.New(sys.Dim)}
			ci := make([]int32, sys.Dim)
			counts := map[string]int{}
			for n, st := range states {
				for k, size := range sym.sizes {
					for a := range int32(size) {
						for b := a + 1; b < int32(size); b++ {
							pi := identityPerm(sym.sizes)
							pi[k][a], pi[k][b] = b, a
							sym.apply(pi, st.locs, st.vars, st.z, img.locs, img.vars, img.z, ci)
							discrete := slices.Equal(img.locs, st.locs) && slices.Equal(img.vars, st.vars)
							whole := discrete && img.z.Equal(st.z)
							if got := sym.fixedBySwap(k, a, b, st.locs, st.vars, st.z, true); got != whole {
								t.Fatalf("state %d, set %d, (%d %d): fixedBySwap = %v, apply says %v", n, k, a, b, got, whole)
							}
							if got := sym.fixedBySwap(k, a, b, st.locs, st.vars, st.z, false); got != discrete {
								t.Fatalf("state %d, set %d, (%d %d): fixedBySwap without the zone = %v, apply says %v", n, k, a, b, got, discrete)
							}
							if got := zoneFixedBy(st.z, ci); got != img.z.Equal(st.z) {
								t.Fatalf("state %d, set %d, (%d %d): zoneFixedBy = %v, permuteZone says %v", n, k, a, b, got, !got)
							}
							switch {
							case whole:
								counts["fixed"]++
							case discrete:
								counts["zone moved"]++
							default:
								counts["discrete moved"]++
							}
						}
					}
				}
			}
			out := dbm.New(sys.Dim)
			rng := rand.New(rand.NewPCG(11, uint64(len(tc.name))))
			for _, st := range states[:min(200, len(states))] {
				ci[0] = 0
				for c, v := range rng.Perm(sys.Dim - 1) {
					ci[c+1] = int32(v + 1)
				}
				permuteZone(st.z, ci, out)
				if got, want := zoneFixedBy(st.z, ci), out.Equal(st.z); got != want {
					t.Fatalf("zoneFixedBy(%v) = %v, permuteZone says %v", ci, got, want)
				}
			}
			t.Logf("%d states: %v", len(states), counts)
			if counts["fixed"] == 0 || counts["discrete moved"] == 0 {
				t.Fatalf("the transpositions tried were %v: the test does not tell fixed from moved", counts)
			}
		})
	}
}

// zoneFixedBy reports whether moving each clock c of z to ci[c]
// (permuteZone) leaves z as it is, by zoneFixedByMoved on each moved clock
// alone: the general form, with which the tests check zoneFixedByMoved on
// any permutation of the clocks.
func zoneFixedBy(z dbm.DBM, ci []int32) bool {
	for a := 1; a < z.Dim; a++ {
		if int(ci[a]) != a && !zoneFixedByMoved(z, ci, []int32{int32(a)}) {
			return false
		}
	}
	return true
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

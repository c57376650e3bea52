package zone

import (
	"cmp"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strings"

	"github.com/tcheck/tcheck/dbm"
	"github.com/tcheck/tcheck/model"
)

// Symmetry reduction over scalar sets (Hendriks, Behrmann, Larsen, Niebert,
// Vaandrager, "Adding symmetry reduction to Uppaal", FORMATS 2003). A
// permutation π of the values of each scalar set acts on a state by moving
// processes, variable slots and clocks and by renaming scalar values
// (model/symmetry.go); the language rules make it commute with the
// successor relation, so the search may store any state of the orbit
// {π(s)} in place of s. It stores a canonical one, computed as follows
// (Sect. 4 of the paper: a cheaper form than the minimum over all
// permutations, and as good wherever it applies):
//
//  1. each member i of a set gets a signature that no permutation changes
//     relative to i: the location and the non-scalar local variables of
//     the process whose only scalar argument is i, the sorted signatures
//     of the processes of a family with several scalar parameters whose
//     parameter of this set is i (a pool of automata per process), the
//     slots of global arrays indexed by i alone, whether a scalar value
//     there equals i, and for the clocks that belong to i their bounds
//     against 0 and a hash of the multisets of their differences with the
//     other clocks;
//  2. the members are sorted by signature (the discrete features first),
//     which fixes π up to the members with equal signatures; a run of
//     members whose discrete features are equal and whose clocks are not,
//     and whose order changes the discrete part (through what no member
//     has alone: a family with two parameters of the set, an array
//     indexed twice by it), is a tie too, so that the discrete part of the
//     representative does not depend on the zone;
//  3. the members of a tie are first ordered by hashes of what each
//     indexes with other members (crossSplit: their rows and columns of
//     the global arrays indexed twice by the set, then of the locations and
//     local variables of the processes with two scalar parameters), which
//     no permutation changes either, and only the runs of equal hashes
//     stay ties (the hashes are computed for the members of ties only);
//  4. if the orderings of those ties are few (symTieLimit), every one is
//     tried and the state with the least (locations, variables, zone
//     matrix), each compared lexicographically, is taken: then two states
//     of one orbit get the same representative. An ordering whose discrete
//     part is already greater than the least so far is dropped before its
//     zone is permuted, and only the least is packed into a key.
//     Otherwise the ties keep their order: the representative is a state
//     of the orbit but may differ between orbit members, which stores more
//     states, never fewer.
//
// Any representative of the orbit is sound for reachability, inclusion and
// deadlock; the stored zone is permuted with the processes, and the aLU
// bounds of the representative are the permuted bounds. Traces are found on
// representatives and mapped back to a run of the unreduced model by
// concretePath.

// symTieLimit bounds the orderings of tied members tried per state.
const symTieLimit = 24

// perm is a permutation of each scalar set: perm[k][v] is the image of
// value v of set k+1.
type perm [][]int32

func identityPerm(sizes []int) perm {
	p := make(perm, len(sizes))
	for k, n := range sizes {
		p[k] = make([]int32, n)
		for v := range p[k] {
			p[k][v] = int32(v)
		}
	}
	return p
}

// then returns q∘p (first p, then q).
func (p perm) then(q perm) perm {
	r := make(perm, len(p))
	for k := range p {
		r[k] = make([]int32, len(p[k]))
		for v, w := range p[k] {
			r[k][v] = q[k][w]
		}
	}
	return r
}

func (p perm) inverse() perm {
	r := make(perm, len(p))
	for k := range p {
		r[k] = make([]int32, len(p[k]))
		for v, w := range p[k] {
			r[k][w] = int32(v)
		}
	}
	return r
}

// symSlot is a variable slot or a clock as a permutation moves it.
type symSlot struct {
	proc   int32 // owning process, -1 for a global
	rel    int32 // offset in the owner's block, or the index of a global
	dims   []model.ScalarDim
	scalar int // the set of its values (variables only)
}

// feature is one entry of a member's signature.
type feature struct {
	kind int8 // fLoc, fVar, fSelf, fClock
	idx  int32
}

const (
	fLoc   = iota // the location of process idx
	fVar          // the value of variable idx
	fSelf         // whether the scalar variable idx holds the member
	fClock        // the bounds and sorted differences of clock idx
	fGroup        // the sorted signatures of the processes of group idx
)

// crossTerm is a value that a member indexes with others (crossSplit):
// the variable slot at, or the location of process ^at where at < 0; code
// mixes the class of what holds it and the member's role there, the same
// for its image under any permutation.
type crossTerm struct {
	at   int32
	code uint64
}

// mix64 spreads x over 64 bits (the finaliser of SplitMix64).
func mix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// symmetry is the action of the permutations of a system's scalar sets.
type symmetry struct {
	sys   *System
	sizes []int

	procFam  []int32 // family of each process, -1 for none
	famProcs [][]int32
	famRadix [][]int32 // per family, the multiplier of each scalar argument
	procArgs [][]model.ScalarArg
	varBase  []int32 // each process's first local variable slot
	clkBase  []int32 // each process's first local clock
	vars     []symSlot
	clocks   []symSlot // index 0 is the reference clock (never moves)
	// scalarVars are the variables that hold scalar values, which a
	// permutation maps as well as moves
	scalarVars []int32

	feats [][][]feature // [set][member]
	// discreteLen[k] is the length of the discrete prefix of set k's
	// signatures: one value per feature of rank 0, the same for every
	// member
	discreteLen []int
	diffAt      [][]int // [set][position]: canon's scratch
	// groups are the processes of a family with several scalar
	// parameters that share one member (fGroup); procFeats their
	// features.
	groups    [][]int32
	procFeats [][]feature
	// crossTerms[tier][k][i] are the values that member i of set k indexes
	// with other members (crossSplit): tier 0 the slots of global arrays,
	// tier 1 the locations and local variables of processes; crossH[k] is
	// crossSplit's scratch
	crossTerms [2][][][]crossTerm // [tier][set][member]
	crossH     [][]uint64

	// scratch
	locs, vars2  []int32
	bestLocs     []int32
	bestVars     []int32
	z, best      dbm.DBM
	key, bestKey []byte
	ci, bestCi   []int32
	sig          [][][]int32 // [set][member]
	order        [][]int32   // [set] members by signature
	pi           perm
	bestPi       perm
	gsig         [][]int32
	// rowHash[x] and colHash[x] are the hashes of clock x's row and
	// column in the zone being canonicalised (clockHashes)
	rowHash, colHash []uint64
	tieBase          []int32 // the tied members in sorted order, group after group
	parts, parts2    []int   // crossSplit's result and scratch
	orderings        int     // the orderings canon tried, in all (tests)
	scratch          []int32
	// exact is set by canon when every tie was tried: the representative
	// is then the same for every state of the orbit.
	exact bool
	pimg  []int32 // process images of the permutation apply applies
	// tables holds the images of each permutation apply has used, by
	// rank (empty when there are more than symTableLimit)
	tables []*permImages
	alts   []dbm.DBM // stabilizerZones' results
	// stabilizerZones' scratch
	stabPi perm
	images []int32
	// stabilizerZones' scratch for apply
	tl, tv, tci []int32
	// fixedBySwap's tables (buildTouch) and scratch: swap is the identity
	// but for the transposition being tried, swapProcs and swapCi the
	// identity but for its images
	touch             [][]swapTouch // [set][member]
	setVars           [][]int32     // [set]: the variables of its values
	swap              perm
	swapProcs, swapCi []int32
}

// newSymmetry returns the symmetry of sys, or nil and the reason why there
// is none to use.
func newSymmetry(sys *System) (*symmetry, string) {
	net := sys.Net
	if len(net.Scalars) == 0 {
		return nil, "no scalar sets"
	}
	if why := net.SymmetryObstacle(); why != "" {
		return nil, why
	}
	s := &symmetry{sys: sys}
	for _, set := range net.Scalars {
		s.sizes = append(s.sizes, set.Size)
	}
	// families
	fams := map[string]int32{}
	s.procFam = make([]int32, len(net.Procs))
	s.procArgs = make([][]model.ScalarArg, len(net.Procs))
	for i, p := range net.Procs {
		s.procFam[i] = -1
		if len(p.ScalarArgs) == 0 {
			continue
		}
		f, ok := fams[p.Family]
		if !ok {
			f = int32(len(s.famProcs))
			fams[p.Family] = f
			radix := make([]int32, len(p.ScalarArgs))
			n := int32(1)
			for k := len(p.ScalarArgs) - 1; k >= 0; k-- {
				radix[k] = n
				n *= int32(s.sizes[p.ScalarArgs[k].Set-1])
			}
			s.famRadix = append(s.famRadix, radix)
			s.famProcs = append(s.famProcs, slices.Repeat([]int32{-1}, int(n)))
		}
		s.procFam[i] = f
		s.procArgs[i] = p.ScalarArgs
		at := int32(0)
		for k, a := range p.ScalarArgs {
			at += a.Value * s.famRadix[f][k]
		}
		s.famProcs[f][at] = int32(i)
	}
	for f, ps := range s.famProcs {
		for _, p := range ps {
			if p < 0 {
				return nil, fmt.Sprintf("the processes of %s do not cover every value of its scalar parameters", net.Procs[s.famProcs[f][0]].Template)
			}
		}
	}
	var why string
	if s.vars, s.varBase, why = symSlots(net, len(net.Vars), func(i int) (int, []model.ScalarDim, int) {
		v := &net.Vars[i]
		return v.Proc, v.Dims, v.Scalar
	}); why != "" {
		return nil, why
	}
	if s.clocks, s.clkBase, why = symSlots(net, len(net.Clocks), func(i int) (int, []model.ScalarDim, int) {
		if i == 0 {
			return -1, nil, 0
		}
		c := &net.Clocks[i]
		return c.Proc, c.Dims, 0
	}); why != "" {
		return nil, why
	}
	// the local blocks of a family have one size
	for _, ps := range s.famProcs {
		for _, p := range ps[1:] {
			if blockLen(s.vars, p) != blockLen(s.vars, ps[0]) || blockLen(s.clocks, p) != blockLen(s.clocks, ps[0]) {
				return nil, fmt.Sprintf("%s and %s have different local variables", net.Procs[ps[0]].Name, net.Procs[p].Name)
			}
		}
	}
	s.buildFeatures()
	dim := sys.Dim
	s.locs, s.bestLocs = make([]int32, sys.NProcs), make([]int32, sys.NProcs)
	s.vars2, s.bestVars = make([]int32, sys.NVars), make([]int32, sys.NVars)
	s.z, s.best = dbm.New(dim), dbm.New(dim)
	s.ci, s.bestCi = make([]int32, dim), make([]int32, dim)
	s.pi, s.bestPi = identityPerm(s.sizes), identityPerm(s.sizes)
	s.scratch = make([]int32, 0, slices.Max(s.sizes))
	s.images = make([]int32, slices.Max(s.sizes))
	s.sig = make([][][]int32, len(s.sizes))
	s.order = make([][]int32, len(s.sizes))
	for k, n := range s.sizes {
		s.sig[k] = make([][]int32, n)
		s.order[k] = make([]int32, n)
	}
	for v := range s.vars {
		if s.vars[v].scalar != 0 {
			s.scalarVars = append(s.scalarVars, int32(v))
		}
	}
	return s, ""
}

// symSlots describes n slots (variables or clocks) for the permutations,
// with each process's first local slot; it refuses a layout in which a
// process's local slots are not one block.
func symSlots(net *model.Network, n int, info func(int) (int, []model.ScalarDim, int)) ([]symSlot, []int32, string) {
	out := make([]symSlot, n)
	base := slices.Repeat([]int32{-1}, len(net.Procs))
	count := make([]int32, len(net.Procs))
	for i := range out {
		proc, dims, scalar := info(i)
		out[i] = symSlot{proc: int32(proc), rel: int32(i), dims: dims, scalar: scalar}
		if proc >= 0 {
			if base[proc] < 0 {
				base[proc] = int32(i)
			}
			if int32(i) != base[proc]+count[proc] {
				return nil, nil, fmt.Sprintf("the local slots of %s are not contiguous", net.Procs[proc].Name)
			}
			count[proc]++
			out[i].rel = int32(i) - base[proc]
		}
	}
	return out, base, ""
}

func blockLen(slots []symSlot, p int32) int {
	n := 0
	for i := range slots {
		if slots[i].proc == p {
			n++
		}
	}
	return n
}

// buildFeatures lists each member's signature features (see the comment
// at the top): the same kinds in the same order for every member of a set.
func (s *symmetry) buildFeatures() {
	s.feats = make([][][]feature, len(s.sizes))
	for k, n := range s.sizes {
		s.feats[k] = make([][]feature, n)
	}
	for _, ps := range s.famProcs {
		for _, p := range ps {
			args := s.procArgs[p]
			if len(args) == 1 {
				k, i := args[0].Set-1, args[0].Value
				s.feats[k][i] = append(s.feats[k][i], s.localFeatures(p, k)...)
			}
		}
		// A family with several scalar parameters (Broadcast(id, k) with
		// id and k of two sets): member i of a set that one parameter
		// ranges over gets the multiset of the signatures of its
		// processes (sorted, so that the other sets' permutations do not
		// change it).
		args := s.procArgs[ps[0]]
		if len(args) < 2 {
			continue
		}
		for a, arg := range args {
			k := arg.Set - 1
			if countSet(args, arg.Set) > 1 {
				continue // two parameters of one set: left to the ties
			}
			groups := make([][]int32, s.sizes[k])
			for _, p := range ps {
				v := s.procArgs[p][a].Value
				groups[v] = append(groups[v], p)
			}
			for i, g := range groups {
				s.feats[k][i] = append(s.feats[k][i], feature{fGroup, int32(len(s.groups))})
				s.groups = append(s.groups, g)
			}
		}
	}
	s.procFeats = make([][]feature, len(s.procFam))
	for _, g := range s.groups {
		for _, p := range g {
			if s.procFeats[p] == nil {
				s.procFeats[p] = s.localFeatures(p, -1)
			}
		}
	}
	for v := range s.vars {
		sl := &s.vars[v]
		if sl.proc >= 0 || len(sl.dims) != 1 {
			continue
		}
		k, i := sl.dims[0].Set-1, sl.dims[0].Index
		switch sl.scalar {
		case 0:
			s.feats[k][i] = append(s.feats[k][i], feature{fVar, int32(v)})
		case k + 1:
			s.feats[k][i] = append(s.feats[k][i], feature{fSelf, int32(v)})
		}
	}
	// crossSplit's terms: what two or more members index at once, which
	// gives no member a feature of its own: the slots of global arrays
	// indexed twice by members (halted[i][j]), the locations of the
	// processes of a family with two scalar parameters (P(i, j)), and
	// their local variables and the local arrays indexed by members
	// (P(i).seen[j]). Each term is a value and a code: the class of what
	// holds it (a slot with every scalar index at 0, a family's local
	// offset, a family) and the role the member has there (which index,
	// which parameter), which no permutation changes.
	s.crossH = make([][]uint64, len(s.sizes))
	for tier := range s.crossTerms {
		s.crossTerms[tier] = make([][][]crossTerm, len(s.sizes))
		for k, n := range s.sizes {
			s.crossTerms[tier][k] = make([][]crossTerm, n)
		}
	}
	for k, n := range s.sizes {
		s.crossH[k] = make([]uint64, n)
	}
	addTerms := func(tier int, at int32, class uint64, args []model.ScalarArg, dims []model.ScalarDim) {
		if len(args)+len(dims) < 2 {
			return
		}
		ts := s.crossTerms[tier]
		for b, a := range args {
			ts[a.Set-1][a.Value] = append(ts[a.Set-1][a.Value], crossTerm{at, mix64(class<<8|uint64(64+b)) | 1})
		}
		for a, d := range dims {
			ts[d.Set-1][d.Index] = append(ts[d.Set-1][d.Index], crossTerm{at, mix64(class<<8|uint64(a)) | 1})
		}
	}
	for p, args := range s.procArgs {
		if f := s.procFam[p]; f >= 0 {
			addTerms(1, ^int32(p), uint64(f)<<1|1<<40, args, nil)
		}
	}
	for v := range s.vars {
		sl := &s.vars[v]
		if sl.scalar != 0 {
			continue
		}
		rel := int64(sl.rel)
		for _, d := range sl.dims {
			rel -= int64(d.Index) * int64(d.Stride)
		}
		if sl.proc < 0 {
			addTerms(0, int32(v), uint64(rel)<<1, nil, sl.dims)
		} else if f := s.procFam[sl.proc]; f >= 0 {
			addTerms(1, int32(v), uint64(rel)<<1|uint64(f)<<24|1<<41, s.procArgs[sl.proc], sl.dims)
		}
	}
	// a global scalar variable (the holder of a lock) tells its member
	// apart from the others
	for v := range s.vars {
		if sl := &s.vars[v]; sl.proc < 0 && len(sl.dims) == 0 && sl.scalar != 0 {
			k := sl.scalar - 1
			for i := range s.feats[k] {
				s.feats[k][i] = append(s.feats[k][i], feature{fSelf, int32(v)})
			}
		}
	}
	for c := 1; c < len(s.clocks); c++ {
		if sl := &s.clocks[c]; sl.proc < 0 && len(sl.dims) == 1 {
			k, i := sl.dims[0].Set-1, sl.dims[0].Index
			s.feats[k][i] = append(s.feats[k][i], feature{fClock, int32(c)})
		}
	}
	// The discrete features first, the clocks' last: members are sorted
	// by their discrete part before their zones, so that the discrete part
	// of the representative depends on the zone as little as possible
	// (zones of one discrete part can then cover each other; difftest's
	// signature-order.yaml).
	s.discreteLen = make([]int, len(s.feats))
	s.diffAt = make([][]int, len(s.feats))
	for k := range s.feats {
		for i := range s.feats[k] {
			slices.SortStableFunc(s.feats[k][i], func(a, b feature) int {
				return cmp.Compare(featureRank(a.kind), featureRank(b.kind))
			})
		}
		for _, f := range s.feats[k][0] {
			if featureRank(f.kind) == 0 {
				s.discreteLen[k]++
			}
		}
		s.diffAt[k] = make([]int, len(s.feats[k]))
	}
}

// featureRank orders features: discrete ones, then groups (which mix
// both), then clocks.
func featureRank(k int8) int {
	switch k {
	case fClock:
		return 2
	case fGroup:
		return 1
	}
	return 0
}

// localFeatures lists the signature features of process p: its location,
// its local variables (whether one of set k holds the member, for k ≥ 0),
// its local clocks.
func (s *symmetry) localFeatures(p int32, k int) []feature {
	f := []feature{{fLoc, p}}
	for v := range s.vars {
		sl := &s.vars[v]
		if sl.proc != p || len(sl.dims) > 0 {
			continue
		}
		switch {
		case sl.scalar == 0:
			f = append(f, feature{fVar, int32(v)})
		case k >= 0 && sl.scalar == k+1:
			f = append(f, feature{fSelf, int32(v)})
		}
	}
	for c := 1; c < len(s.clocks); c++ {
		if sl := &s.clocks[c]; sl.proc == p && len(sl.dims) == 0 {
			f = append(f, feature{fClock, int32(c)})
		}
	}
	return f
}

func countSet(args []model.ScalarArg, set int) int {
	n := 0
	for _, a := range args {
		if a.Set == set {
			n++
		}
	}
	return n
}

// procImage returns the process p moves to under pi.
func (s *symmetry) procImage(pi perm, p int) int {
	f := s.procFam[p]
	if f < 0 {
		return p
	}
	at := int32(0)
	for k, a := range s.procArgs[p] {
		at += pi[a.Set-1][a.Value] * s.famRadix[f][k]
	}
	return int(s.famProcs[f][at])
}

// symTableLimit bounds the number of permutations (the product of the
// sets' factorials) for which apply keeps the images of every process,
// variable slot and clock, built the first time a permutation is used:
// then apply moves each slot with one lookup instead of recomputing its
// index from its scalar dimensions (the agreement model's arrays indexed
// by two and three identities made that the largest cost of canon).
const symTableLimit = 5040

// permImages are the images of the processes, variable slots and clocks
// under one permutation.
type permImages struct {
	procs, vars, clocks []int32
}

// images returns the tabled images of pi, or nil when the permutations
// are too many to table.
func (s *symmetry) imagesOf(pi perm) *permImages {
	if s.tables == nil {
		total := 1
		for _, n := range s.sizes {
			if f := factorial(n); f > symTableLimit/total {
				total = -1
				break
			} else {
				total *= f
			}
		}
		if total < 0 {
			s.tables = []*permImages{}
		} else {
			s.tables = make([]*permImages, total)
		}
	}
	if len(s.tables) == 0 {
		return nil
	}
	r := 0
	for k, n := range s.sizes {
		r = r*factorial(n) + permRank(pi[k])
	}
	t := s.tables[r]
	if t == nil {
		t = &permImages{
			procs:  make([]int32, len(s.procFam)),
			vars:   make([]int32, len(s.vars)),
			clocks: make([]int32, len(s.clocks)),
		}
		for p := range t.procs {
			t.procs[p] = int32(s.procImage(pi, p))
		}
		for v := range s.vars {
			t.vars[v] = s.slotImage(pi, &s.vars[v], s.varBase, t.procs)
		}
		for c := 1; c < len(s.clocks); c++ {
			t.clocks[c] = s.slotImage(pi, &s.clocks[c], s.clkBase, t.procs)
		}
		s.tables[r] = t
	}
	return t
}

// permRank returns the rank of the permutation p of 0..len(p)-1 in
// lexicographic order (its Lehmer code read as a factorial-base number).
// Tabled permutations have at most 7 members per set (symTableLimit), so
// the values taken so far fit in a bit set.
func permRank(p []int32) int {
	var used uint64
	r := 0
	for i, v := range p {
		less := bits.OnesCount64(^used & (1<<uint(v) - 1))
		used |= 1 << uint(v)
		r += less * factorial(len(p)-1-i)
	}
	return r
}

// slotImage returns the index that slot sl moves to under pi, given the
// process images procs and the first local slot of each process.
func (s *symmetry) slotImage(pi perm, sl *symSlot, base, procs []int32) int32 {
	i := sl.rel
	for _, d := range sl.dims {
		i += (pi[d.Set-1][d.Index] - d.Index) * d.Stride
	}
	if sl.proc >= 0 {
		i += base[procs[sl.proc]]
	}
	return i
}

// apply writes pi(locs, vars, z) into outLocs, outVars, outZ; ci receives
// the clock images.
func (s *symmetry) apply(pi perm, locs, vars []int32, z dbm.DBM, outLocs, outVars []int32, outZ dbm.DBM, ci []int32) {
	if s.applyDiscrete(pi, locs, vars, outLocs, outVars, ci) {
		copy(outZ.M, z.M)
		return
	}
	permuteZone(z, ci, outZ)
}

// applyDiscrete is apply without the zone: it writes the permuted
// locations and variables and the clocks' images ci, and reports whether
// pi is the identity (then the zone is its own image). The identity is
// the common case in canon, where a successor's members are often already
// in the order of their signatures; it is a copy.
func (s *symmetry) applyDiscrete(pi perm, locs, vars []int32, outLocs, outVars []int32, ci []int32) bool {
	if isIdentity(pi) {
		copy(outLocs, locs)
		copy(outVars, vars)
		for c := range ci {
			ci[c] = int32(c)
		}
		return true
	}
	if t := s.imagesOf(pi); t != nil {
		for p, l := range locs {
			outLocs[t.procs[p]] = l
		}
		tv := t.vars[:len(vars)]
		for v, x := range vars {
			outVars[tv[v]] = x
		}
		for _, v := range s.scalarVars {
			outVars[tv[v]] = pi[s.vars[v].scalar-1][vars[v]]
		}
		copy(ci, t.clocks)
	} else {
		if len(s.pimg) != len(locs) {
			s.pimg = make([]int32, len(locs))
		}
		for p, l := range locs {
			q := s.procImage(pi, p)
			s.pimg[p] = int32(q)
			outLocs[q] = l
		}
		for v, x := range vars {
			sl := &s.vars[v]
			if sl.scalar != 0 {
				x = pi[sl.scalar-1][x]
			}
			outVars[s.slotImage(pi, sl, s.varBase, s.pimg)] = x
		}
		for c := 1; c < len(s.clocks); c++ {
			ci[c] = s.slotImage(pi, &s.clocks[c], s.clkBase, s.pimg)
		}
	}
	ci[0] = 0
	return false
}

// crossSplit orders the members ms of set k, whose order canon is to try
// in every way, by hashes of what each indexes with others (crossTerms:
// each value mixed with the class of what holds it and the member's role
// there), and returns the lengths of the runs of equal hashes (in s.parts,
// scratch). The hashes are the same for a member and its image under any
// permutation, so the order between the runs is an order of the orbit and
// only the runs need every order: at n = 4 on the agreement model, the
// members' rows and columns of halted, bmask, buff and pend tell apart
// most members that tie on the other features. The global arrays come
// first (tier 0); the locations and local variables of processes (tier 1)
// only split the runs left, so that a model whose global arrays do the
// work does not pay for its processes' (P(i, j) of difftest's
// pair-family-clocks.yaml has no such array). Ties keep the order they
// had. Without terms: one run.
func (s *symmetry) crossSplit(k int, ms []int32, locs, vars []int32) []int {
	s.parts = append(s.parts[:0], len(ms))
	for tier := range s.crossTerms {
		terms := s.crossTerms[tier][k]
		if len(terms[ms[0]]) == 0 {
			continue
		}
		h := s.crossH[k]
		parts := s.parts2[:0]
		r := 0
		for _, n := range s.parts {
			part := ms[r : r+n]
			r += n
			if n == 1 {
				parts = append(parts, 1)
				continue
			}
			for _, m := range part {
				x := uint64(0)
				for _, t := range terms[m] {
					v := int64(0)
					if t.at >= 0 {
						v = int64(vars[t.at])
					} else {
						v = int64(locs[^t.at])
					}
					x += t.code * uint64(2*v+1)
				}
				h[m] = x
			}
			slices.SortStableFunc(part, func(a, b int32) int { return cmp.Compare(h[a], h[b]) })
			for i := 0; i < len(part); {
				e := i + 1
				for e < len(part) && h[part[e]] == h[part[i]] {
					e++
				}
				parts = append(parts, e-i)
				i = e
			}
		}
		s.parts, s.parts2 = parts, s.parts
	}
	return s.parts
}

// mulSat is a·b, saturated at math.MaxInt (as factorial).
func mulSat(a, b int) int {
	if a != 0 && b > math.MaxInt/a {
		return math.MaxInt
	}
	return a * b
}

// commonPrefix returns the first index where a and b differ, sigEqual
// when they are equal.
func commonPrefix(a, b []int32) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return i
		}
	}
	if len(a) != len(b) {
		return n
	}
	return sigEqual
}

// sigEqual is commonPrefix's answer for equal signatures.
const sigEqual = math.MaxInt

// isIdentity reports whether pi maps every member of every set to itself.
func isIdentity(pi perm) bool {
	for _, p := range pi {
		for v, w := range p {
			if int32(v) != w {
				return false
			}
		}
	}
	return true
}

// signature computes member i's signature of set k into s.sig[k][i].
func (s *symmetry) signature(k, i int, locs, vars []int32, z dbm.DBM) {
	sig := s.sig[k][i][:0]
	for _, f := range s.feats[k][i] {
		if f.kind != fGroup {
			sig = s.appendFeature(sig, f, i, locs, vars, z)
			continue
		}
		g := s.groups[f.idx]
		for len(s.gsig) < len(g) {
			s.gsig = append(s.gsig, nil)
		}
		local := s.gsig[:len(g)]
		for j, p := range g {
			local[j] = local[j][:0]
			for _, pf := range s.procFeats[p] {
				local[j] = s.appendFeature(local[j], pf, -1, locs, vars, z)
			}
		}
		slices.SortFunc(local, slices.Compare)
		for _, l := range local {
			sig = append(sig, int32(len(l)))
			sig = append(sig, l...)
		}
	}
	s.sig[k][i] = sig
}

// appendFeature appends the value of feature f for member i.
func (s *symmetry) appendFeature(sig []int32, f feature, i int, locs, vars []int32, z dbm.DBM) []int32 {
	n := z.Dim
	switch f.kind {
	case fLoc:
		sig = append(sig, locs[f.idx])
	case fVar:
		sig = append(sig, vars[f.idx])
	case fSelf:
		if vars[f.idx] == int32(i) {
			sig = append(sig, 1)
		} else {
			sig = append(sig, 0)
		}
	case fClock:
		// The bounds against 0, then the hashes of the clock's row and
		// column (clockHashes).
		x := int(f.idx)
		row, col := s.rowHash[x], s.colHash[x]
		sig = append(sig, int32(z.M[x*n]), int32(z.M[x]), int32(row), int32(row>>32), int32(col), int32(col>>32))
	}
	return sig
}

// clockHashes sets rowHash and colHash to a hash of the multiset of each
// clock's differences with the other clocks, in its row and in its
// column: a sum of mixed values, so that no permutation of the other
// clocks changes it and no sort is needed. Members whose hashes collide
// only tie, and ties are ordered as canon orders them. One pass over the
// matrix mixes each bound once for its row and its column; the bounds
// < ∞ are left out of the sums (a row of n - 2 entries with k of them
// finite is told apart by the sum of those k), which skips the
// unconstrained clocks of idle processes.
func (s *symmetry) clockHashes(z dbm.DBM) {
	n := z.Dim
	if len(s.rowHash) != n {
		s.rowHash, s.colHash = make([]uint64, n), make([]uint64, n)
	}
	clear(s.rowHash)
	clear(s.colHash)
	for x := 1; x < n; x++ {
		row := z.M[x*n : x*n+n]
		h := uint64(0)
		for y := 1; y < n; y++ {
			if b := row[y]; y != x && b != dbm.LTInf {
				m := mixBound(b)
				h += m
				s.colHash[y] += m
			}
		}
		s.rowHash[x] = h
	}
}

// mixBound spreads an encoded bound over 64 bits (the finaliser of
// SplitMix64), so that sums of mixed bounds tell multisets apart.
func mixBound(b dbm.Bound) uint64 {
	x := uint64(uint32(b)) + 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// canon computes the representative of (locs, vars, z): it returns the
// representative's location and variable vectors, zone and key (scratch,
// valid until the next call) and the clock images of the permutation
// used.
func (s *symmetry) canon(locs, vars []int32, z dbm.DBM) (cl, cv []int32, cz dbm.DBM, key []byte, ci []int32) {
	// 1. signatures, 2. members sorted by them
	type group struct{ set, from, n, base int }
	var groups [8]group
	ties := groups[:0]
	s.tieBase = s.tieBase[:0]
	s.exact = true
	combos := 1
	// tie makes the members at ord[r:e] of set k ties, to be tried in
	// every order, if their orderings fit within symTieLimit: the parts
	// of equal cross hash (crossSplit, which orders them), each in every
	// order; else it leaves ord as it was and returns false
	tie := func(k, r, e int) bool {
		ord := s.order[k]
		parts := s.crossSplit(k, ord[r:e], locs, vars)
		f := 1
		for _, n := range parts {
			f = mulSat(f, factorial(n))
		}
		if f > symTieLimit/combos {
			if len(parts) > 1 {
				sig := s.sig[k]
				slices.SortFunc(ord[r:e], func(a, b int32) int {
					if c := slices.Compare(sig[a], sig[b]); c != 0 {
						return c
					}
					return cmp.Compare(a, b)
				})
			}
			return false
		}
		combos *= f
		for _, n := range parts {
			if n > 1 {
				ties = append(ties, group{k, r, n, len(s.tieBase)})
				s.tieBase = append(s.tieBase, ord[r:r+n]...)
			}
			r += n
		}
		return true
	}
	s.clockHashes(z)
	for k := range s.sizes {
		for i := range s.sizes[k] {
			s.signature(k, i, locs, vars, z)
		}
		ord := s.order[k]
		for i := range ord {
			ord[i] = int32(i)
		}
		sig := s.sig[k]
		slices.SortStableFunc(ord, func(a, b int32) int { return slices.Compare(sig[a], sig[b]) })
		// where each member's signature first differs from the one
		// before it: within the discrete prefix (a new run of equal
		// discrete features), after it, or nowhere (sigEqual)
		dl := s.discreteLen[k]
		diff := s.diffAt[k]
		for e := 1; e < len(ord); e++ {
			diff[e] = commonPrefix(sig[ord[e-1]], sig[ord[e]])
		}
		for d := 0; d < len(ord); {
			// a run of members with equal discrete features but
			// different signatures (their clocks differ) whose order
			// changes the discrete part (a family with two parameters of
			// the set, an array indexed twice by it: features no member
			// has alone) is tried in every order, as a tie: else the
			// clocks would choose the representative's discrete part,
			// and zones of one discrete part would be stored under
			// several (difftest's pair-family-clocks.yaml)
			de, clocksDiffer := d+1, false
			for de < len(ord) && diff[de] >= dl {
				clocksDiffer = clocksDiffer || diff[de] != sigEqual
				de++
			}
			if clocksDiffer && !s.keepsDiscrete(k, ord[d:de], locs, vars) && tie(k, d, de) {
				d = de
				continue
			}
			for r := d; r < de; {
				e := r + 1
				for e < de && diff[e] == sigEqual {
					e++
				}
				if e-r > 1 && !s.interchangeable(k, ord[r:e], locs, vars, z) && !tie(k, r, e) {
					s.exact = false
				}
				r = e
			}
			d = de
		}
	}
	// 3. every ordering of the ties kept, the least state
	s.orderings += combos
	first := true
	for c := 0; c < combos; c++ {
		x := c
		for _, g := range ties {
			f := factorial(g.n)
			nthPermutation(s.order[g.set][g.from:g.from+g.n], s.tieBase[g.base:g.base+g.n], x%f, s.scratch[:0])
			x /= f
		}
		for k, ord := range s.order {
			for r, m := range ord {
				s.pi[k][m] = int32(r)
			}
		}
		// the discrete part first: the zone is permuted only for an
		// ordering whose discrete part is not greater than the best's
		id := s.applyDiscrete(s.pi, locs, vars, s.locs, s.vars2, s.ci)
		d := -1 // the first ordering is the least so far
		if !first {
			if d = slices.Compare(s.locs, s.bestLocs); d == 0 {
				d = slices.Compare(s.vars2, s.bestVars)
			}
			if d > 0 {
				continue
			}
		}
		if id {
			copy(s.z.M, z.M)
		} else {
			permuteZone(z, s.ci, s.z)
		}
		if d == 0 && slices.Compare(s.z.M, s.best.M) >= 0 {
			continue
		}
		first = false
		s.locs, s.bestLocs = s.bestLocs, s.locs
		s.vars2, s.bestVars = s.bestVars, s.vars2
		s.z, s.best = s.best, s.z
		s.ci, s.bestCi = s.bestCi, s.ci
		for k := range s.pi {
			copy(s.bestPi[k], s.pi[k])
		}
	}
	// the key of the least only
	s.bestKey = s.sys.appendKey(s.bestKey[:0], s.bestLocs, s.bestVars)
	return s.bestLocs, s.bestVars, s.best, s.bestKey, s.bestCi
}

// interchangeable reports whether the tied members ms of set k may be
// ordered in any way with the same result: whether every transposition of
// ms[0] with another member leaves the state unchanged (those
// transpositions generate every permutation of ms). Idle processes whose
// clocks are unconstrained are the common case: trying their m!
// orderings would be wasted, and with this the representative stays exact
// however many there are.
func (s *symmetry) interchangeable(k int, ms []int32, locs, vars []int32, z dbm.DBM) bool {
	a := ms[0]
	for _, b := range ms[1:] {
		if !s.fixedBySwap(k, a, b, locs, vars, z, true) {
			return false
		}
	}
	return true
}

// swapTouch lists what a transposition of member i of a set moves: the
// processes with i among their scalar arguments, and the variable slots
// and clocks indexed by i or local to one of those processes.
type swapTouch struct {
	procs, vars, clocks []int32
}

// buildTouch fills s.touch (once): for each set and member, what a
// transposition of that member moves (swapTouch), and for each set the
// variables that hold its values (whose values a transposition renames,
// moved or not).
func (s *symmetry) buildTouch() {
	s.touch = make([][]swapTouch, len(s.sizes))
	s.setVars = make([][]int32, len(s.sizes))
	for k, n := range s.sizes {
		s.touch[k] = make([]swapTouch, n)
	}
	for p, args := range s.procArgs {
		for _, a := range args {
			s.touch[a.Set-1][a.Value].procs = append(s.touch[a.Set-1][a.Value].procs, int32(p))
		}
	}
	// one pass over the slots: each goes to the lists of the members it
	// is indexed by and of those its process has as arguments (a slot
	// indexed twice by one member is listed once: slots come in order)
	add := func(lists func(t *swapTouch) *[]int32, k int, i, slot int32) {
		l := lists(&s.touch[k][i])
		if n := len(*l); n == 0 || (*l)[n-1] != slot {
			*l = append(*l, slot)
		}
	}
	for _, kind := range []struct {
		slots []symSlot
		from  int
		lists func(t *swapTouch) *[]int32
	}{
		{s.vars, 0, func(t *swapTouch) *[]int32 { return &t.vars }},
		{s.clocks, 1, func(t *swapTouch) *[]int32 { return &t.clocks }},
	} {
		for x := kind.from; x < len(kind.slots); x++ {
			sl := &kind.slots[x]
			for _, d := range sl.dims {
				add(kind.lists, d.Set-1, d.Index, int32(x))
			}
			if sl.proc >= 0 {
				for _, a := range s.procArgs[sl.proc] {
					add(kind.lists, a.Set-1, a.Value, int32(x))
				}
			}
		}
	}
	for _, v := range s.scalarVars {
		k := s.vars[v].scalar - 1
		s.setVars[k] = append(s.setVars[k], v)
	}
	s.swapProcs = make([]int32, len(s.procFam))
	for p := range s.swapProcs {
		s.swapProcs[p] = int32(p)
	}
	s.swapCi = make([]int32, len(s.clocks))
	for c := range s.swapCi {
		s.swapCi[c] = int32(c)
	}
	s.swap = identityPerm(s.sizes)
}

// fixedBySwap reports whether the transposition of members a and b of
// set k leaves the state (locs, vars, z) as it is (its discrete part
// only, without withZone). It looks only at what the transposition moves
// (swapTouch) and at the variables holding values of set k: applying it
// to the whole state (apply) and comparing costs O(processes + slots +
// dim²) per transposition, and interchangeable tries one per tied member,
// which made canon cubic in the size of a set of idle members (Fischer's
// protocol with 48 members: half of the search in interchangeable).
func (s *symmetry) fixedBySwap(k int, a, b int32, locs, vars []int32, z dbm.DBM, withZone bool) bool {
	if s.touch == nil {
		s.buildTouch()
	}
	pi := s.swap
	pi[k][a], pi[k][b] = b, a
	ta, tb := &s.touch[k][a], &s.touch[k][b]
	// the images of the moved processes, for the local slots below (a
	// slot of a's list may belong to one of b's processes: seen[a] of
	// P(b)); pi and swapProcs are the identity again on return
	for _, t := range [2]*swapTouch{ta, tb} {
		for _, p := range t.procs {
			s.swapProcs[p] = int32(s.procImage(pi, int(p)))
		}
	}
	defer func() {
		pi[k][a], pi[k][b] = a, b
		for _, t := range [2]*swapTouch{ta, tb} {
			for _, p := range t.procs {
				s.swapProcs[p] = p
			}
		}
	}()
	// The transposition is an involution that maps what a's list holds
	// onto b's list: the condition on an item of b's list (its image holds
	// its location, value or bounds) is that on its image in a's, read the
	// other way, so a's list alone is checked.
	for _, p := range ta.procs {
		if locs[s.swapProcs[p]] != locs[p] {
			return false
		}
	}
	// variables: the image of slot v holds v's value, renamed if it is of
	// set k; a variable of set k that does not move must not hold a or b
	value := func(v int32) int32 {
		x := vars[v]
		if sc := s.vars[v].scalar; sc != 0 {
			x = pi[sc-1][x]
		}
		return x
	}
	for _, v := range ta.vars {
		if vars[s.slotImage(pi, &s.vars[v], s.varBase, s.swapProcs)] != value(v) {
			return false
		}
	}
	for _, v := range s.setVars[k] {
		if vars[s.slotImage(pi, &s.vars[v], s.varBase, s.swapProcs)] != value(v) {
			return false
		}
	}
	if !withZone {
		return true
	}
	ci := s.swapCi
	for _, t := range [2]*swapTouch{ta, tb} {
		for _, c := range t.clocks {
			ci[c] = s.slotImage(pi, &s.clocks[c], s.clkBase, s.swapProcs)
		}
	}
	fixed := zoneFixedByMoved(z, ci, ta.clocks)
	for _, t := range [2]*swapTouch{ta, tb} {
		for _, c := range t.clocks {
			ci[c] = c
		}
	}
	return fixed
}

// zoneFixedByMoved reports whether moving each clock c of z to ci[c]
// (permuteZone) leaves z as it is, comparing only the rows and columns of
// the clocks in moved: every clock that ci moves must be in it or be the
// image of one in it under ci, an involution (fixedBySwap).
func zoneFixedByMoved(z dbm.DBM, ci []int32, moved []int32) bool {
	n := z.Dim
	for _, a := range moved {
		ca := int(ci[a])
		if ca == int(a) {
			continue
		}
		// row a: out[ci a][ci b] = z[a][b] must be z[ci a][ci b]
		ra, rc := z.M[int(a)*n:int(a)*n+n], z.M[ca*n:ca*n+n]
		for b, x := range ra {
			if rc[ci[b]] != x {
				return false
			}
		}
		// column a, in the rows of the clocks that stay (the moved rows
		// are compared whole above): out[c][ci a] = z[c][a]
		for c := 0; c < n; c++ {
			if int(ci[c]) == c && z.M[c*n+ca] != z.M[c*n+int(a)] {
				return false
			}
		}
	}
	return true
}

// stabilizerZones returns the zone z of a representative (locs, vars, z)
// permuted by every permutation other than the identity that keeps its
// discrete part (among members whose discrete features are equal, as far
// as they may be enumerated within symTieLimit): zones that the
// representative's choice of ordering keeps apart although the orbit of
// one is covered by the other (difftest's signature-order.yaml). The
// zones are scratch, valid until the next call.
func (s *symmetry) stabilizerZones(locs, vars []int32, z dbm.DBM) []dbm.DBM {
	if s.tl == nil {
		s.tl, s.tv, s.tci = make([]int32, len(locs)), make([]int32, len(vars)), make([]int32, z.Dim)
	}
	type group struct{ set, n, base int }
	var groups [8]group
	gs := groups[:0]
	s.tieBase = s.tieBase[:0]
	combos := 1
	for k := range s.sizes {
		// members with equal discrete features, each transposition of
		// which keeps the discrete part
		sig := s.sig[k]
		for i := range s.sizes[k] {
			sig[i] = s.discreteSignature(k, i, locs, vars, sig[i][:0])
		}
		ord := s.order[k]
		for i := range ord {
			ord[i] = int32(i)
		}
		slices.SortStableFunc(ord, func(a, b int32) int { return slices.Compare(sig[a], sig[b]) })
		for r := 0; r < len(ord); {
			e := r + 1
			for e < len(ord) && slices.Equal(sig[ord[e]], sig[ord[r]]) {
				e++
			}
			m := e - r
			if m > 1 && factorial(m) <= symTieLimit/combos && s.keepsDiscrete(k, ord[r:e], locs, vars) {
				combos *= factorial(m)
				gs = append(gs, group{k, m, len(s.tieBase)})
				s.tieBase = append(s.tieBase, ord[r:e]...)
			}
			r = e
		}
	}
	if combos == 1 {
		return nil
	}
	for len(s.alts) < combos-1 {
		s.alts = append(s.alts, dbm.New(z.Dim))
	}
	if s.stabPi == nil {
		s.stabPi = identityPerm(s.sizes)
	}
	pi := s.stabPi
	for c := 1; c < combos; c++ {
		x := c
		for k := range pi {
			for v := range pi[k] {
				pi[k][v] = int32(v)
			}
		}
		for _, g := range gs {
			f := factorial(g.n)
			members := s.tieBase[g.base : g.base+g.n]
			images := s.images[:g.n]
			nthPermutation(images, members, x%f, s.scratch[:0])
			for j, m := range members {
				pi[g.set][m] = images[j]
			}
			x /= f
		}
		s.apply(pi, locs, vars, z, s.tl, s.tv, s.alts[c-1], s.tci)
	}
	return s.alts[:combos-1]
}

// discreteSignature appends member i's discrete features of set k.
func (s *symmetry) discreteSignature(k, i int, locs, vars []int32, sig []int32) []int32 {
	for _, f := range s.feats[k][i] {
		if featureRank(f.kind) == 0 {
			sig = s.appendFeature(sig, f, i, locs, vars, dbm.DBM{})
		}
	}
	return sig
}

// keepsDiscrete reports whether every transposition of ms[0] with another
// member of ms (of set k) keeps the discrete part (locs, vars).
func (s *symmetry) keepsDiscrete(k int, ms []int32, locs, vars []int32) bool {
	for _, b := range ms[1:] {
		if !s.fixedBySwap(k, ms[0], b, locs, vars, dbm.DBM{}, false) {
			return false
		}
	}
	return true
}

// canonPerm returns a copy of the permutation the last canon used.
func (s *symmetry) canonPerm() perm {
	p := make(perm, len(s.bestPi))
	for k := range p {
		p[k] = slices.Clone(s.bestPi[k])
	}
	return p
}

// nthPermutation writes the x-th permutation (in lexicographic order of
// positions, 0 ≤ x < len(base)!) of base into dst; scratch is reused.
func nthPermutation(dst, base []int32, x int, scratch []int32) {
	left := append(scratch, base...)
	for j := range dst {
		f := factorial(len(left) - 1)
		i := x / f
		x %= f
		dst[j] = left[i]
		left = append(left[:i], left[i+1:]...)
	}
}

// factorial returns n!, or math.MaxInt where n! does not fit in an int
// (from n = 21 on 64 bits). The limits it is compared with are far below
// that; the product it saturates would otherwise wrap around to a small or
// negative number and pass them (a scalar set of 40 idle members made the
// stabiliser's enumeration index out of range).
func factorial(n int) int {
	f := 1
	for i := 2; i <= n; i++ {
		if f > math.MaxInt/i {
			return math.MaxInt
		}
		f *= i
	}
	return f
}

// symmetryFor returns the symmetry an exploration under opts uses (nil:
// none). With stopwatches there is none: the symmetry of the model is
// established without the clock rates; nor under the convex hull.
func symmetryFor(sys *System, opts Options) *symmetry {
	if !opts.Symmetry || opts.Hull || sys.Net.Stopwatches {
		return nil
	}
	sym, _ := newSymmetry(sys)
	return sym
}

// Reduces reports whether a search of sys under opts stores symmetry
// representatives: its states, and the moves and model errors met in
// them, are then those of a permutation of the model's.
func Reduces(sys *System, opts Options) bool { return symmetryFor(sys, opts) != nil }

// describeSymmetry is the part of Result.Extrapolation about symmetry,
// under Options.Symmetry.
func describeSymmetry(sys *System, opts Options) string {
	if len(sys.Net.Scalars) == 0 {
		return ""
	}
	if sys.Net.Stopwatches {
		return ", no symmetry reduction (stopwatches)"
	}
	if opts.Hull {
		return ", no symmetry reduction (convex hull)"
	}
	s, why := newSymmetry(sys)
	if s == nil {
		return ", no symmetry reduction (" + why + ")"
	}
	names := make([]string, len(sys.Net.Scalars))
	for i, set := range sys.Net.Scalars {
		names[i] = set.Name
	}
	return ", symmetry reduction over " + strings.Join(names, ", ")
}

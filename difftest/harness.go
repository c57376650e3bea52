package difftest

import (
	"errors"
	"fmt"
	"hash/fnv"
	"math/big"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/tcheck/tcheck/model"
	"github.com/tcheck/tcheck/model/syntax"
	"github.com/tcheck/tcheck/model/uppaal"
	"github.com/tcheck/tcheck/queries"
	"github.com/tcheck/tcheck/refcheck"
	"github.com/tcheck/tcheck/simulate"
	"github.com/tcheck/tcheck/zone"
)

// SupValue is a reference supremum: None (no state satisfies the
// condition), Inf, Bound (Strict: not attained), or AtLeast: the supremum
// exceeds Bound (maybe +∞), when the reference gave up at its ceiling.
type SupValue = refcheck.SupValue

// ErrKind classifies an error of the reference.
type ErrKind int

const (
	ErrNone        ErrKind = iota
	ErrUnsupported         // the model is outside what the reference handles
	ErrLimit               // the reference's state limit
	ErrModel               // a reachable move raised a run-time model error
	ErrOther               // anything else: a failure of the reference
)

// Reference is an independent checker: E<> f (Reachable), A[] f
// (Invariant), sup{cond}: e and inf{cond}: e over a clock or a data
// expression (Extreme), the liveness queries (Live), from the initial
// state or a given one (From). Package refcheck provides the real one
// (RegionReference); tests substitute wrong ones to show the harness
// fails.
type Reference interface {
	Reachable(net *model.Network, f *model.Formula) (bool, error)
	Invariant(net *model.Network, f *model.Formula) (bool, error)
	// Extreme gives the supremum (sup) or infimum of term over the
	// reachable states satisfying cond.
	Extreme(net *model.Network, cond *model.Formula, term model.Term, sup bool) (SupValue, error)
	// Live decides a liveness query, E[] f, A<> f or f --> g (kind),
	// and reports whether it is satisfied.
	Live(net *model.Network, kind syntax.QueryKind, f, g *model.Formula) (bool, error)
	Kind(err error) ErrKind
	// From is the reference exploring from st instead of the initial
	// state, and only the runs that last at most within time units where
	// within > 0.
	From(st *queries.State, within int32) Reference
}

// Config is one way of running tcheck whose verdicts must not differ from
// any other: the options, and Via "xml" or "xta" for a round trip of the
// model through UPPAAL's formats before checking.
type Config struct {
	Name string
	Opts queries.Options
	Via  string
	// Together checks the sup queries (but those marked slow) in the
	// exploration the E<> and A[] queries share, as the rows of a sweep
	// are checked: one exploration of the whole graph, in which the
	// E<>/A[] goals skip the successors the passed list covers
	// (zone.Options.MarkCovered). Otherwise each sup query runs alone.
	Together bool
}

// Configs are the configurations compared; the first is the baseline.
var Configs = []Config{
	{Name: "lu+"},
	{Name: "lu", Opts: queries.Options{Extrapolation: zone.ExtraLU}},
	{Name: "m+", Opts: queries.Options{Extrapolation: zone.ExtraMPlus}},
	{Name: "m", Opts: queries.Options{Extrapolation: zone.ExtraM}},
	{Name: "none", Opts: queries.Options{Extrapolation: zone.ExtraNone}},
	{Name: "dfs", Opts: queries.Options{Order: zone.DFS}},
	{Name: "full-zones", Opts: queries.Options{FullZones: true}},
	{Name: "global-bounds", Opts: queries.Options{GlobalBounds: true}},
	{Name: "hull", Opts: queries.Options{Hull: true}},
	{Name: "dfs+hull+global-bounds+m", Opts: queries.Options{Order: zone.DFS, Hull: true, GlobalBounds: true, Extrapolation: zone.ExtraM}},
	{Name: "alu", Opts: queries.Options{Subsumption: zone.ALU}},
	{Name: "alu+global-bounds+lu+dfs", Opts: queries.Options{Subsumption: zone.ALU, GlobalBounds: true, Extrapolation: zone.ExtraLU, Order: zone.DFS}},
	{Name: "workers=3", Opts: queries.Options{Workers: 3}},
	{Name: "workers=4+dfs+alu", Opts: queries.Options{Workers: 4, Order: zone.DFS, Subsumption: zone.ALU}},
	{Name: "workers=2+hull+m+", Opts: queries.Options{Workers: 2, Hull: true, Extrapolation: zone.ExtraMPlus}},
	{Name: "ranked", Opts: queries.Options{Order: zone.Ranked}},
	{Name: "workers=2+ranked+alu", Opts: queries.Options{Workers: 2, Order: zone.Ranked, Subsumption: zone.ALU}},
	// the progress order by the model's measure (BFS where it has none)
	{Name: "progress", Opts: queries.Options{Order: zone.Progress}},
	{Name: "workers=2+progress+alu", Opts: queries.Options{Workers: 2, Order: zone.Progress, Subsumption: zone.ALU}},
	// the progress order by the automata's topological location numbers
	// (no declaration)
	{Name: "topological", Opts: queries.Options{Order: zone.Topological}},
	{Name: "workers=2+topological+alu", Opts: queries.Options{Workers: 2, Order: zone.Topological, Subsumption: zone.ALU}},
	{Name: "deadlock-constants-first", Opts: queries.Options{DeadlockConstantsFirst: true}},
	{Name: "xml", Via: "xml"},
	{Name: "xta", Via: "xta"},
	{Name: "together", Together: true},
	{Name: "together+workers=2+dfs", Together: true, Opts: queries.Options{Workers: 2, Order: zone.DFS}},
}

// MaxStates bounds every exploration of tcheck (NoneMaxStates that of
// Extra_None, which need not terminate), RefMaxStates the reference's.
const (
	MaxStates     = 10000
	NoneMaxStates = 2000
	RefMaxStates  = 100000
	// Timeout ends a tcheck check (all explorations of one configuration)
	// that runs away: verdict unknown, a failure except under Extra_None.
	Timeout = 3 * time.Second
	// TraceRetryTimeout is the deadline of a query checked again because
	// its trace was cut short by the first deadline (run.check).
	TraceRetryTimeout = 30 * time.Second
)

// SupCeiling is the reference's ceiling for sup values.
const SupCeiling = 64

// Stats counts what a run compared.
type Stats struct {
	Models   int
	Queries  int
	ByKind   map[string]int // queries by kind: E<>, A[], deadlock, sup
	Compared int            // (query, configuration) results compared
	// Reference answers: decided, unsupported, over its limit, model error.
	RefDecided, RefUnsupported, RefLimit, RefModelError int
	// NoneUnknown counts results of Extra_None that hit the state limit
	// (no extrapolation need not terminate): not compared.
	NoneUnknown int
	// SkippedSlow counts (query, configuration) pairs not checked: sup
	// queries with an infinite value outside the baseline (Harness.SlowSupAll).
	SkippedSlow int
	// Imprecise counts sup results ">K" or unknown where the supremum is
	// infinite or beyond the reference's ceiling (sound, not exact).
	Imprecise int
	Traces    int // traces checked for replay
	Errors    int // tcheck results with verdict error (accepted)
	// Undecided counts sup queries that neither the reference nor tcheck
	// (within SlowSupDeadline) could answer.
	Undecided int
	// Under Harness.Symmetry: SymPairs counts the (query, configuration)
	// results compared directly with and without the reduction (both
	// decided, neither an error); StoredOff and StoredOn sum the states the
	// baseline stored without and with it, over the queries whose
	// explorations both completed; SymLarger counts those queries where
	// the reduction stored more states, SymMoreDiscrete those where it
	// stored more distinct discrete parts (docs/difftest.md, finding 4).
	SymPairs            int
	StoredOff, StoredOn int64
	SymLarger           int
	SymMoreDiscrete     int
	// LiveAtLimit counts liveness results unknown at tcheck's state limit:
	// the explicit zone graph keeps every zone, with no inclusion, so it
	// may exceed MaxStates where the reachable zones do not (seed 661490:
	// 17,641 nodes, both queries as the reference says without the
	// limit). Not compared; where the baseline is the expectation (the
	// reference cannot answer), its own unknown at the limit leaves the
	// query without one.
	LiveAtLimit int
	// AtLimit counts results under Harness.Symmetry that hit tcheck's state
	// or time limit (MaxStates, Timeout): not compared, unless the search
	// with the reduction hit it where the one without completed.
	AtLimit int
	// TraceRetries counts queries checked again with TraceRetryTimeout
	// because the deadline cut their trace short.
	TraceRetries int
	// Under Harness.Simulate: the simulator's runs, the goals they found
	// (each compared), and the runs that met a model error.
	SimRuns, SimFound, SimErrors int
	// FromStates counts the models checked from a random state
	// (Harness.From).
	FromStates int
	// Under Harness.Budget: OverBudget counts the results cut short by
	// the budget (unknown at its deadline: not compared), SkippedBudget
	// the configurations not run once it was spent.
	OverBudget, SkippedBudget int
}

func (s *Stats) Add(o Stats) {
	s.Models += o.Models
	s.Queries += o.Queries
	s.Compared += o.Compared
	s.RefDecided += o.RefDecided
	s.RefUnsupported += o.RefUnsupported
	s.RefLimit += o.RefLimit
	s.RefModelError += o.RefModelError
	s.NoneUnknown += o.NoneUnknown
	s.Traces += o.Traces
	s.SkippedSlow += o.SkippedSlow
	s.Imprecise += o.Imprecise
	s.Undecided += o.Undecided
	s.Errors += o.Errors
	s.SymPairs += o.SymPairs
	s.StoredOff += o.StoredOff
	s.StoredOn += o.StoredOn
	s.SymLarger += o.SymLarger
	s.SymMoreDiscrete += o.SymMoreDiscrete
	s.AtLimit += o.AtLimit
	s.OverBudget += o.OverBudget
	s.SkippedBudget += o.SkippedBudget
	s.LiveAtLimit += o.LiveAtLimit
	s.TraceRetries += o.TraceRetries
	s.SimRuns += o.SimRuns
	s.SimFound += o.SimFound
	s.SimErrors += o.SimErrors
	s.FromStates += o.FromStates
	for k, v := range o.ByKind {
		if s.ByKind == nil {
			s.ByKind = map[string]int{}
		}
		s.ByKind[k] += v
	}
}

// Disagreement is one failed comparison.
type Disagreement struct {
	Query  string // name and formula
	Config string // "" for the model as a whole
	Msg    string
}

func (d Disagreement) String() string {
	if d.Config == "" {
		return fmt.Sprintf("%s: %s", d.Query, d.Msg)
	}
	return fmt.Sprintf("%s [%s]: %s", d.Query, d.Config, d.Msg)
}

// Outcome is the result of comparing one model.
type Outcome struct {
	Stats         Stats
	Disagreements []Disagreement
	// Slowest is the longest check of one configuration (all its queries,
	// wall time; Extra_None's left out) and SlowestConfig its name: a
	// model that is slow for no reason of its size points to a bug the
	// verdicts do not show (finding 6 took 6 s for two states;
	// -difftest.stats lists the slowest models).
	Slowest       time.Duration
	SlowestConfig string
	// Notes are the results counted but not failed that a campaign looks
	// into: imprecise sups, and queries whose search stored more states
	// or discrete parts with the symmetry reduction than without
	// (-difftest.stats prints them by seed).
	Notes []Disagreement
}

// expectation is what a tcheck result may be, for one query.
type expectation struct {
	decided             bool       // false: nothing to compare with
	posOK, negOK, errOK bool       // positive: a trace (positive) is due
	sups                []SupValue // of a sup or inf query: one value per term
	from                string     // "reference" or "baseline"
	ref                 string     // what the reference said, for messages
}

var trueFormula = &model.Formula{Kind: model.FTrue, Src: "true"}

type run struct {
	refGaveUp bool // the reference answered unsupported or its limit once
	// symmetric: Harness.Symmetry, whose models (the unreduced ones) may
	// exceed tcheck's limits
	symmetric bool
	text      []byte
	ref       Reference
	out       *Outcome
	net       *model.Network
	qs        []*queries.Query
	// end is the end of Harness.Budget (zero: none)
	end time.Time
}

// deadline is the deadline of a check allowed d: d from now, or the
// budget's end if that comes first.
func (r *run) deadline(d time.Duration) time.Time {
	t := time.Now().Add(d)
	if !r.end.IsZero() && r.end.Before(t) {
		return r.end
	}
	return t
}

// spent reports whether Harness.Budget was given and is spent.
func (r *run) spent() bool { return !r.end.IsZero() && !time.Now().Before(r.end) }

// overBudget reports whether res is unknown for want of time once the
// budget was spent (counted, not compared).
func (r *run) overBudget(res *queries.Result) bool {
	if res.Verdict != queries.Unknown || res.Reason != zone.LimitTime || !r.spent() {
		return false
	}
	r.out.Stats.OverBudget++
	return true
}

// note records a result that is counted, not failed (Outcome.Notes).
func (r *run) note(q *queries.Query, cfg, format string, a ...any) {
	r.out.Notes = append(r.out.Notes, Disagreement{fmt.Sprintf("%s (%s)", q.Name, q.Src), cfg, fmt.Sprintf(format, a...)})
}

func (r *run) fail(q *queries.Query, cfg, format string, a ...any) {
	name := "model"
	if q != nil {
		name = fmt.Sprintf("%s (%s)", q.Name, q.Src)
	}
	r.out.Disagreements = append(r.out.Disagreements, Disagreement{name, cfg, fmt.Sprintf(format, a...)})
}

// Harness compares tcheck under Configs (the first is the baseline) with
// Ref (nil: tcheck against itself only).
type Harness struct {
	Ref     Reference
	Configs []Config
	// SlowSupAll checks sup queries whose supremum is infinite (or beyond
	// the reference's ceiling) under every configuration; by default only
	// the baseline checks them. Each runs with a deadline of
	// SlowSupDeadline: where tcheck does not see that the clock grows
	// forever, it doubles the clock's bound up to 2^20 (docs/queries.md),
	// which can take seconds (docs/difftest.md, finding 2). Since the
	// second cycle test (queries/unbounded.go) that is rare enough to run
	// them under depth first and the hull too (3,000 models in 47 s).
	SlowSupAll bool
	// Symmetry runs every configuration twice, without and with the
	// symmetry reduction over the model's scalar sets
	// (queries.Options.Symmetry, the configuration's name suffixed
	// "+sym"): both are compared with the reference (or the baseline
	// without the reduction), and with each other (comparePair).
	Symmetry bool
	// Simulate also runs the simulator (package simulate) on the model's
	// E<> and A[] queries, a few short seeded runs (simulateRuns): a goal
	// its replayed runs reach must be reachable by the expectation (the
	// reference's, else the baseline's), a run may not end for want of a
	// move the replay finds, and a model error a run meets must be one
	// the reference meets too.
	Simulate bool
	// From also checks the queries from a random state of the model that
	// CheckState accepts (tcheck's --from, queries.Options.From), under
	// the baseline and fromConfigs, then from it within a random horizon
	// (--within) under the baseline and withinConfigs, against the
	// reference from the same state (Reference.From), or else the
	// baseline from it.
	From bool
	// Budget bounds the wall time of Compare's checks (zero: no bound).
	// Every deadline of a check ends with it, a result unknown at its end
	// is counted, not compared (Stats.OverBudget), and the configurations
	// left when it is spent are not run (Stats.SkippedBudget), nor the
	// simulator and the check from a state. The baseline's explorations
	// may be cut too. For FuzzDifferentialSymmetric: Go's fuzzing ends an
	// input that runs past 10 s, and looks for wrong answers, which the
	// budget does not hide; the seeded random tests, without it, also
	// fail a search that runs away (finding 7), where symmetric ones
	// count it (run.atLimit).
	Budget time.Duration
}

// fromConfigs are the configurations besides the baseline that
// Harness.From runs from the random state, withinConfigs those it runs
// from it with a horizon.
var (
	fromConfigs   = []string{"dfs", "none", "hull", "alu", "workers=3", "workers=2+hull+m+"}
	withinConfigs = []string{"dfs", "hull", "workers=3"}
)

// simulateRuns and simulateSteps bound Harness.Simulate's runs per model.
const (
	simulateRuns  = 20
	simulateSteps = 30
)

// SlowSupDeadline bounds tcheck's time on a sup query whose value is
// infinite; NoneDeadline an exploration under Extra_None (which need not
// terminate, even with one stored state whose zone keeps growing).
const (
	SlowSupDeadline = 300 * time.Millisecond
	NoneDeadline    = 300 * time.Millisecond
)

// Compare checks the model text under every configuration and against
// ref (nil: tcheck against itself only).
func Compare(text []byte, ref Reference) *Outcome {
	return (&Harness{Ref: ref, Configs: Configs, SlowSupAll: true}).Compare(text)
}

// Compare checks one model.
func (h *Harness) Compare(text []byte) *Outcome {
	configs := h.Configs
	if len(configs) == 0 {
		configs = Configs
	}
	out := &Outcome{}
	r := &run{text: text, ref: h.Ref, out: out, symmetric: h.Symmetry}
	if h.Budget > 0 {
		r.end = time.Now().Add(h.Budget)
	}
	f, err := model.Parse("gen.yaml", text)
	if err != nil {
		r.fail(nil, "", "generated model does not parse: %v", err)
		return out
	}
	r.net, err = f.Compile(nil)
	if err != nil {
		r.fail(nil, "", "generated model does not compile: %v", err)
		return out
	}
	r.qs, err = queries.FromFile(r.net, f, nil)
	if err == nil {
		err = queries.FirstErr(r.qs)
	}
	if err != nil {
		r.fail(nil, "", "generated queries do not compile: %v", err)
		return out
	}
	out.Stats.Models = 1
	out.Stats.Queries = len(r.qs)
	out.Stats.ByKind = map[string]int{}
	for _, q := range r.qs {
		out.Stats.ByKind[kindName(q)]++
	}
	exps := make([]expectation, len(r.qs))
	slow := make([]bool, len(r.qs))
	for qi, q := range r.qs {
		exps[qi] = r.refExpect(q)
		slow[qi] = slowExtreme(q, exps[qi])
	}
	compareAll := func(c Config, res []*queries.Result) {
		for qi, q := range r.qs {
			if res[qi] == nil {
				out.Stats.SkippedSlow++
				continue
			}
			if exps[qi].decided {
				r.compare(q, c, exps[qi], res[qi], slow[qi])
			}
		}
	}
	check := func(c Config, withSlow bool) []*queries.Result {
		start := time.Now()
		res := r.check(f, c, slow, withSlow)
		// (Extra_None runs to its deadline where it does not terminate)
		if d := time.Since(start); d > out.Slowest && c.Opts.Extrapolation != zone.ExtraNone {
			out.Slowest, out.SlowestConfig = d, c.Name
		}
		return res
	}
	var base []*queries.Result
	for ci, c := range configs {
		if ci > 0 && r.spent() {
			out.Stats.SkippedBudget += len(configs) - ci
			return out
		}
		withSlow := ci == 0 || h.SlowSupAll
		res := check(c, withSlow)
		if ci == 0 {
			base = res
			if base == nil {
				return out
			}
			for qi, q := range r.qs {
				if !exps[qi].decided && exps[qi].from == "" {
					exps[qi] = r.baseExpect(q, base[qi])
				}
			}
		}
		if res == nil {
			continue
		}
		compareAll(c, res)
		if h.Symmetry {
			cs := c
			cs.Name += "+sym"
			cs.Opts.Symmetry = true
			if on := check(cs, withSlow); on != nil {
				compareAll(cs, on)
				r.comparePair(cs, res, on, ci == 0)
			}
		}
	}
	if r.spent() {
		return out
	}
	if h.Simulate {
		r.simulate(exps)
	}
	if h.From {
		r.from(f)
	}
	return out
}

// from checks the queries from a random state (Harness.From), then from
// it again within a random horizon of 1 to 6 time units (but the deadlock
// queries, which tcheck does not decide under a horizon).
func (r *run) from(f *model.File) {
	h := fnv.New64a()
	h.Write(r.text)
	rng := rand.New(rand.NewPCG(h.Sum64(), 0x66726f6d))
	st := randomState(r.net, rng)
	if st == nil {
		return
	}
	r.out.Stats.FromStates++
	r.fromWithin(f, st, 0, fromConfigs)
	r.fromWithin(f, st, int32(1+rng.IntN(6)), withinConfigs)
}

// fromWithin checks the queries from st within the horizon within (0:
// none) under the baseline and the configurations named.
func (r *run) fromWithin(f *model.File, st *queries.State, within int32, names []string) {
	fr := *r
	fr.ref = r.ref.From(st, within)
	exps := make([]expectation, len(r.qs))
	slow := make([]bool, len(r.qs))
	// tcheck does not decide deadlock under a horizon
	skip := func(q *queries.Query) bool {
		return within > 0 && q.Formula != nil && q.Formula.Has(model.FDeadlock)
	}
	for qi, q := range r.qs {
		if !skip(q) {
			exps[qi] = fr.refExpect(q)
			slow[qi] = slowExtreme(q, exps[qi])
		}
	}
	configs := []Config{Configs[0]}
	for _, c := range Configs {
		if slices.Contains(names, c.Name) {
			configs = append(configs, c)
		}
	}
	for ci, c := range configs {
		c.Opts.From, c.Opts.Within = st, within
		c.Name += "+from"
		if within > 0 {
			c.Name += fmt.Sprintf("+within=%d", within)
		}
		res := fr.check(f, c, slow, true)
		if res == nil {
			return
		}
		for qi, q := range r.qs {
			if skip(q) {
				continue
			}
			if ci == 0 && !exps[qi].decided && exps[qi].from == "" {
				exps[qi] = fr.baseExpect(q, res[qi])
			}
			if exps[qi].decided && res[qi] != nil {
				fr.compare(q, c, exps[qi], res[qi], slow[qi])
			}
		}
	}
}

// randomState draws a state of net that CheckState accepts: a location
// per process, each variable within its range, each clock an integer up
// to 6 or, one time in three, a quarter, third or half more (a state
// whose region is not a point); nil after 20 states that it refuses
// (an invariant they violate).
func randomState(net *model.Network, rng *rand.Rand) *queries.State {
	for range 20 {
		st := &queries.State{Locs: make([]int32, len(net.Procs)), Vars: make([]int32, len(net.Vars)), Clocks: make([]*big.Rat, len(net.Clocks))}
		for p, proc := range net.Procs {
			st.Locs[p] = int32(rng.IntN(len(proc.Locations)))
		}
		for i, v := range net.Vars {
			lo, hi := max(v.Min, -3), min(v.Max, v.Min+6)
			if lo > hi {
				lo = v.Min
			}
			st.Vars[i] = lo + int32(rng.IntN(int(hi-lo)+1))
		}
		st.Clocks[0] = new(big.Rat)
		for c := 1; c < len(st.Clocks); c++ {
			st.Clocks[c] = big.NewRat(int64(rng.IntN(7)), 1)
			if rng.IntN(3) == 0 {
				d := int64(2 + rng.IntN(3))
				st.Clocks[c].Add(st.Clocks[c], big.NewRat(1+int64(rng.IntN(int(d-1))), d))
			}
		}
		if queries.CheckState(net, st) == nil {
			return st
		}
	}
	return nil
}

// simulate runs the simulator on the monitorable queries (Harness.Simulate)
// and compares what its runs find with the expectations exps.
func (r *run) simulate(exps []expectation) {
	var mons []*queries.Query
	var idx []int
	for qi, q := range r.qs {
		if simulate.Monitorable(q) == "" {
			mons, idx = append(mons, q), append(idx, qi)
		}
	}
	if len(mons) == 0 || r.net.Stopwatches {
		return
	}
	h := fnv.New64a()
	h.Write(r.text)
	res, err := simulate.Run(r.net, simulate.Options{Seed: h.Sum64(), Runs: simulateRuns, Steps: simulateSteps, PCTDepth: 1, Monitors: mons})
	if errors.Is(err, simulate.ErrTooFine) {
		return
	}
	if err != nil {
		r.fail(nil, "simulate", "the simulator failed: %v", err)
		return
	}
	st := &r.out.Stats
	st.SimRuns += res.Runs
	if res.ReplayErr != nil {
		r.fail(nil, "simulate", "a reported run does not replay: %v", res.ReplayErr)
	}
	for k, m := range res.Monitors {
		if m.Found == nil {
			continue
		}
		st.SimFound++
		if e := exps[idx[k]]; e.decided && !e.posOK {
			r.fail(m.Query, "simulate", "a replayed run of the simulator %s it (run %d, %d steps), but the %s says %s", map[bool]string{true: "violates", false: "satisfies"}[m.Query.Kind == syntax.QueryAG], m.Found.Run, len(m.Found.Trace.Moves)-1, e.from, e.ref)
		}
	}
	if res.Error != nil {
		st.SimErrors++
		for qi, e := range exps {
			if e.decided && e.from == "reference" && !e.errOK {
				r.fail(r.qs[qi], "simulate", "a run of the simulator meets the model error %v, but the reference explored the model without one (%s)", res.Error.Err, e.ref)
				break
			}
		}
	}
}

// atLimit counts res if it is unknown at tcheck's state or time limit
// under Harness.Symmetry.
func (r *run) atLimit(res *queries.Result) bool {
	if !r.symmetric || res.Verdict != queries.Unknown || res.Reason != zone.LimitStates && res.Reason != zone.LimitTime {
		return false
	}
	r.out.Stats.AtLimit++
	return true
}

// symActive is the part of Result.Extrapolation that says the symmetry
// reduction was used (zone.describeSymmetry).
const symActive = "symmetry reduction over"

// comparePair compares the results of configuration c (with the symmetry
// reduction) with those of the same configuration without it: the same
// verdicts and the same sup values where both are decided without a model
// error (which one meets first depends on the search order), and the
// reduction in use wherever the model allows it (scalar sets, no
// model.Network.SymmetryObstacle, no convex hull), the liveness queries'
// graph included. On the baseline (base) it sums the states stored with
// and without the reduction.
func (r *run) comparePair(c Config, off, on []*queries.Result, base bool) {
	st := &r.out.Stats
	allowed := len(r.net.Scalars) > 0 && r.net.SymmetryObstacle() == "" && !c.Opts.Hull
	for qi, q := range r.qs {
		a, b := off[qi], on[qi]
		if a == nil || b == nil {
			continue
		}
		if allowed && !strings.Contains(b.Extrapolation, symActive) {
			r.fail(q, c.Name, "the symmetry reduction is not used (%s)", b.Extrapolation)
		}
		if b.Verdict == queries.Unknown && b.Reason == zone.LimitStates && a.Reason == zone.Completed {
			r.fail(q, c.Name, "the search with the symmetry reduction stopped at %d states, the one without completed with %d", b.Stats.Stored, a.Stats.Stored)
			continue
		}
		if a.Verdict == queries.Unknown || b.Verdict == queries.Unknown || a.Verdict == queries.Error || b.Verdict == queries.Error {
			continue
		}
		st.SymPairs++
		if msg := symMismatch(a, b); msg != "" {
			r.fail(q, c.Name, "%s", msg)
		}
		if base && a.Reason == zone.Completed && b.Reason == zone.Completed {
			st.StoredOff += a.Stats.Stored
			st.StoredOn += b.Stats.Stored
			if b.Stats.Stored > a.Stats.Stored {
				st.SymLarger++
				r.note(q, c.Name, "the reduction stored %d states, the unreduced search %d", b.Stats.Stored, a.Stats.Stored)
			}
			if b.Stats.Discrete > a.Stats.Discrete {
				st.SymMoreDiscrete++
				r.note(q, c.Name, "the reduction stored %d discrete parts, the unreduced search %d", b.Stats.Discrete, a.Stats.Discrete)
			}
		}
	}
}

// symMismatch compares a result with the symmetry reduction (on) with the
// same configuration's without it (off), both decided ("" when they
// agree).
func symMismatch(off, on *queries.Result) string {
	if on.Verdict != off.Verdict {
		return fmt.Sprintf("verdict %s with the symmetry reduction, %s without", on.Verdict, off.Verdict)
	}
	if len(on.Values) != len(off.Values) {
		return fmt.Sprintf("values %s with the symmetry reduction, %s without", values(on), values(off))
	}
	for i := range on.Values {
		if on.Values[i] != off.Values[i] {
			return fmt.Sprintf("values %s with the symmetry reduction, %s without", values(on), values(off))
		}
	}
	return ""
}

func kindName(q *queries.Query) string {
	switch q.Kind {
	case syntax.QueryEF:
		if q.Formula.Has(model.FDeadlock) {
			return "E<> deadlock"
		}
		return "E<>"
	case syntax.QueryAG:
		if q.Formula.Has(model.FDeadlock) {
			return "A[] deadlock"
		}
		return "A[]"
	case syntax.QuerySup, syntax.QueryInf:
		kw := map[bool]string{true: "sup", false: "inf"}[q.Kind == syntax.QuerySup]
		if len(q.Terms) > 0 && q.Terms[0].Clock == 0 {
			return kw + " data"
		}
		return kw
	}
	return q.Kind.String()
}

// slowExtreme reports whether q is a sup or inf query whose value e says
// is infinite or beyond the reference's ceiling, or which the reference
// could not answer: likely to make tcheck double K up to 2^20.
func slowExtreme(q *queries.Query, e expectation) bool {
	return extreme(q) && (beyondCeiling(e.sups) || !e.decided && e.from == "")
}

// extreme reports whether q is a sup or inf query.
func extreme(q *queries.Query) bool {
	return q.Kind == syntax.QuerySup || q.Kind == syntax.QueryInf
}

// check runs tcheck with configuration c; nil when the configuration
// could not run (a round trip failed: reported). The queries marked slow
// run apart with a deadline (SlowSupDeadline) when withSlow, else not at
// all (their results are nil).
func (r *run) check(f *model.File, c Config, slow []bool, withSlow bool) []*queries.Result {
	net, qs := r.net, r.qs
	if c.Via != "" {
		g, err := roundTrip(f, c.Via)
		if err == nil {
			net, err = g.Compile(nil)
		}
		if err == nil {
			qs, err = queries.FromFile(net, g, nil)
			if err == nil {
				err = queries.FirstErr(qs)
			}
		}
		if err == nil && len(qs) != len(r.qs) {
			err = fmt.Errorf("%d queries read back, want %d", len(qs), len(r.qs))
		}
		if err != nil {
			r.fail(nil, c.Name, "round trip: %v", err)
			return nil
		}
	}
	opts := c.Opts
	opts.Limits.MaxStates = MaxStates
	opts.Limits.Deadline = r.deadline(Timeout)
	if opts.Extrapolation == zone.ExtraNone {
		opts.Limits.MaxStates = NoneMaxStates
		opts.Limits.Deadline = r.deadline(NoneDeadline)
	}
	sys := zone.NewSystem(net)
	out := make([]*queries.Result, len(qs))
	// E<> and A[] share explorations; each sup query runs on its own,
	// with its own deadline, so that a slow one cannot starve the others
	// (but with them under c.Together)
	together := func(i int) bool { return c.Together && !slow[i] }
	var sel []*queries.Query
	var idx []int
	for i, q := range qs {
		if !extreme(q) || together(i) {
			sel = append(sel, q)
			idx = append(idx, i)
		}
	}
	if len(sel) > 0 {
		for i, res := range queries.Check(sys, sel, opts) {
			out[idx[i]] = res
		}
	}
	for i, q := range qs {
		if !extreme(q) || together(i) || slow[i] && !withSlow {
			continue
		}
		o := opts
		if slow[i] {
			o.Limits.Deadline = r.deadline(SlowSupDeadline)
		} else if o.Extrapolation != zone.ExtraNone {
			o.Limits.Deadline = r.deadline(Timeout)
		}
		out[i] = queries.Check(sys, []*queries.Query{q}, o)[0]
	}
	// A trace cut short by the deadline (queries.ErrTraceTime: the
	// verdict unknown, or a model error without its trace) is no wrong
	// answer, and a loaded machine reaches the deadlines, which bound
	// runaway searches, while it builds one (NoneDeadline is 300 ms, and
	// the race detector runs ten times slower): such a query is checked
	// again alone with TraceRetryTimeout, and judged on that result.
	for i, res := range out {
		if res == nil || !errors.Is(res.TraceErr, queries.ErrTraceTime) {
			continue
		}
		r.out.Stats.TraceRetries++
		o := opts
		o.Limits.Deadline = r.deadline(TraceRetryTimeout)
		out[i] = queries.Check(sys, []*queries.Query{qs[i]}, o)[0]
	}
	return out
}

// roundTrip writes f as UPPAAL XML or XTA (with its .q file) and reads it
// back, as `tcheck convert` does.
func roundTrip(f *model.File, via string) (*model.File, error) {
	switch via {
	case "xml":
		b, _ := uppaal.FormatXML(f)
		g, err := uppaal.ParseXML("gen.xml", b)
		if err != nil {
			return nil, fmt.Errorf("reading the written XML: %v\n%s", err, b)
		}
		return g, nil
	case "xta":
		b, _ := uppaal.FormatXTA(f)
		u, _ := uppaal.ForUPPAAL(f)
		qb := uppaal.FormatQueries(u.Queries)
		g, err := uppaal.ParseXTA("gen.xta", b)
		if err != nil {
			return nil, fmt.Errorf("reading the written XTA: %v\n%s", err, b)
		}
		if err := uppaal.SetQueries(g, "gen.q", qb); err != nil {
			return nil, fmt.Errorf("reading the written .q file: %v\n%s", err, qb)
		}
		return g, nil
	}
	return nil, fmt.Errorf("unknown format %q", via)
}

// refExpect derives what each configuration may answer for query q from
// the reference (expectation.decided false when it cannot answer).
//
// The rule for run-time model errors (an assignment out of range): tcheck
// stops at the first error it meets, and whether it meets the goal first
// depends on the search order. So:
//   - a negative verdict (E<> violated, A[] satisfied, a sup value) claims
//     a full exploration without error: it must match the reference, and
//     the reference must not meet an error when it explores everything;
//   - verdict error is right exactly when a model error is reachable
//     (the reference meets one);
//   - a positive verdict (E<> satisfied, A[] violated) must match the
//     reference's, or, when the reference reports a model error (its
//     explorations are full, so it then says nothing about the goal), it
//     must come with a replayed trace: a concrete run, checked by
//     queries.Replay, is a proof of reachability;
//   - every positive verdict must come with a replayed trace, and every
//     verdict error with a model error and a replayed trace to it.
//
// When the reference cannot answer (unsupported, its state limit), the
// baseline configuration's answer takes its place (baseExpect): a
// positive verdict or error there allows a positive verdict or error
// elsewhere, a negative one requires the same.
func (r *run) refExpect(q *queries.Query) expectation {
	st := &r.out.Stats
	var e expectation
	if r.ref != nil && r.refGaveUp {
		// the reference found the model outside what it handles (or too
		// large) on an earlier query: it would again, after as long
		st.RefUnsupported++
		return e
	}
	if r.ref != nil {
		var err error
		switch q.Kind {
		case syntax.QueryEF, syntax.QueryAG:
			var ok bool
			if q.Kind == syntax.QueryEF {
				ok, err = r.ref.Reachable(r.net, q.Formula)
			} else {
				ok, err = r.ref.Invariant(r.net, q.Formula)
				ok = !ok
			}
			if err == nil {
				// the reference's explorations are full: it met no model error
				e = expectation{decided: true, from: "reference", posOK: ok, negOK: !ok}
				e.ref = map[bool]string{true: "goal reachable", false: "goal unreachable"}[ok]
			}
		case syntax.QueryEG, syntax.QueryAF, syntax.QueryLeadsTo:
			var ok bool
			if ok, err = r.ref.Live(r.net, q.Kind, q.Formula, q.Formula2); err == nil {
				// a witness (E[]) or a counterexample (A<>, -->) is due
				pos := ok == (q.Kind == syntax.QueryEG)
				e = expectation{decided: true, from: "reference", posOK: pos, negOK: !pos}
				e.ref = map[bool]string{true: "satisfied", false: "violated"}[ok]
			}
		case syntax.QuerySup, syntax.QueryInf:
			cond := q.Formula
			if cond == nil {
				cond = trueFormula
			}
			var vs []SupValue
			for _, term := range q.Terms {
				var v SupValue
				if v, err = r.ref.Extreme(r.net, cond, term, q.Kind == syntax.QuerySup); err != nil {
					break
				}
				vs = append(vs, v)
			}
			if err == nil {
				e = expectation{decided: true, from: "reference", sups: vs, ref: supValues(vs)}
			}
		default:
			err = errors.New("unsupported")
		}
		if err != nil {
			switch r.ref.Kind(err) {
			case ErrUnsupported:
				st.RefUnsupported++
				r.refGaveUp = true
			case ErrLimit:
				st.RefLimit++
				r.refGaveUp = true
			case ErrModel:
				st.RefModelError++
				e = expectation{decided: true, from: "reference", errOK: true, posOK: !extreme(q), ref: "model error: " + err.Error()}
			default:
				r.fail(q, "reference", "the reference failed: %v", err)
				return expectation{from: "none"}
			}
		} else {
			st.RefDecided++
		}
	}
	return e
}

// baseExpect is the expectation when the reference gives none: the
// configurations must agree with the baseline b.
func (r *run) baseExpect(q *queries.Query, b *queries.Result) expectation {
	e := expectation{decided: true, from: "baseline"}
	switch b.Verdict {
	case queries.Unknown:
		if r.overBudget(b) {
			return expectation{}
		}
		if extreme(q) {
			// neither the reference nor tcheck within its deadline
			r.out.Stats.Undecided++
			return expectation{}
		}
		if liveness(q) && b.Reason == zone.LimitStates {
			// as in compare: the explicit zone graph may pass the state
			// limit where the reachable zones do not (seed 736425, whose
			// model the reference does not handle: 10,942 nodes)
			r.out.Stats.LiveAtLimit++
			return expectation{}
		}
		if r.atLimit(b) {
			return expectation{}
		}
		r.fail(q, "baseline", "verdict unknown (%v, %d states stored)", b.Reason, b.Stats.Stored)
		return expectation{}
	case queries.Error:
		e.errOK, e.posOK = true, !extreme(q)
		e.ref = "error"
	default:
		if extreme(q) {
			for _, v := range b.Values {
				e.sups = append(e.sups, fromValue(v))
			}
			e.ref = supValues(e.sups)
			break
		}
		pos := positive(q, b)
		e.posOK, e.negOK, e.errOK = pos, !pos, pos
		e.ref = b.Verdict.String()
	}
	return e
}

// liveness reports whether q is E[], A<> or -->.
func liveness(q *queries.Query) bool {
	return q.Kind == syntax.QueryEG || q.Kind == syntax.QueryAF || q.Kind == syntax.QueryLeadsTo
}

// positive reports whether r is the answer that comes with a trace: E<>
// and E[] satisfied (a witness), A[], A<> and --> violated (a
// counterexample).
func positive(q *queries.Query, r *queries.Result) bool {
	switch q.Kind {
	case syntax.QueryEF, syntax.QueryEG:
		return r.Verdict == queries.Satisfied
	}
	return r.Verdict == queries.Violated
}

func fromValue(v queries.Value) SupValue {
	return SupValue{None: v.None, Inf: v.Inf, Bound: v.Bound, Strict: v.Strict, AtLeast: v.Exceeds, Infimum: v.Infimum}
}

// compare checks one result of configuration c against e; slow: the query
// ran with SlowSupDeadline (a sup whose value is infinite).
func (r *run) compare(q *queries.Query, c Config, e expectation, res *queries.Result, slow bool) {
	st := &r.out.Stats
	st.Compared++
	hull := c.Opts.Hull
	want := func() string { return fmt.Sprintf("%s says %s", e.from, e.ref) }
	switch res.Verdict {
	case queries.Unknown:
		if r.overBudget(res) {
			return
		}
		if c.Opts.Extrapolation == zone.ExtraNone {
			st.NoneUnknown++
			return
		}
		if beyondCeiling(e.sups) {
			st.Imprecise++
			r.note(q, c.Name, "%s imprecise: unknown (%v after %v); %s", q.Kind, res.Reason, res.Stats.Elapsed.Round(time.Millisecond), want())
			return
		}
		if liveness(q) && res.Reason == zone.LimitStates {
			st.LiveAtLimit++
			return
		}
		if extreme(q) && res.Reason == zone.LimitTime && slow {
			// a sup run apart with a short deadline (Harness.SlowSupAll);
			// one that ran out of the whole Timeout is slow for no reason
			// the harness knows, and fails (finding 7)
			st.Undecided++
			return
		}
		if r.atLimit(res) {
			return
		}
		r.fail(q, c.Name, "verdict unknown (%v, %d states stored); %s", res.Reason, res.Stats.Stored, want())
		return
	case queries.Error:
		st.Errors++
		if !e.errOK {
			r.fail(q, c.Name, "verdict error (%v; %v); %s", res.Err, res.TraceErr, want())
			return
		}
		if res.Err == nil {
			r.fail(q, c.Name, "verdict error without a model error: %v", res.TraceErr)
			return
		}
		st.Traces++
		if res.Trace == nil || res.TraceErr != nil {
			r.fail(q, c.Name, "the trace to the model error %v does not replay: %v", res.Err, res.TraceErr)
		}
		return
	}
	if extreme(q) {
		if e.sups == nil {
			r.fail(q, c.Name, "values %s; %s", values(res), want())
			return
		}
		if len(res.Values) != len(e.sups) {
			r.fail(q, c.Name, "%d values, %d expected", len(res.Values), len(e.sups))
			return
		}
		for i, v := range res.Values {
			w := e.sups[i]
			if v.Exceeds && !v.Approx && (w.Inf || w.AtLeast) {
				// ">K" with K = 2^20: sound (docs/queries.md), not exact
				st.Imprecise++
				r.note(q, c.Name, "%s imprecise: %s; %s", q.Kind, v, want())
				continue
			}
			if msg := supMismatch(w, v, hull || v.Approx); msg != "" {
				r.fail(q, c.Name, "%s %s: %s; %s", kindName(q), values(res), msg, want())
				return
			}
		}
		// the witness is the first term's (docs/queries.md)
		if v := res.Values[0]; !v.Approx && !v.None && !v.Inf && !v.Exceeds {
			st.Traces++
			if res.Trace == nil || res.TraceErr != nil {
				r.fail(q, c.Name, "%s %s: no replayed witness: %v", kindName(q), v, res.TraceErr)
			}
		}
		return
	}
	pos := positive(q, res)
	if pos && !e.posOK || !pos && !e.negOK {
		r.fail(q, c.Name, "verdict %s; %s", res.Verdict, want())
		return
	}
	if pos {
		st.Traces++
		if res.Trace == nil || res.TraceErr != nil {
			r.fail(q, c.Name, "verdict %s without a replayed trace: %v", res.Verdict, res.TraceErr)
		}
	}
}

// beyondCeiling reports whether one of a query's expected values is
// infinite or beyond the reference's ceiling.
func beyondCeiling(vs []SupValue) bool {
	for _, v := range vs {
		if v.Inf || v.AtLeast {
			return true
		}
	}
	return false
}

func supValues(vs []SupValue) string {
	var s []string
	for _, v := range vs {
		s = append(s, v.String())
	}
	return strings.Join(s, ", ")
}

func values(res *queries.Result) string {
	var vs []string
	for _, v := range res.Values {
		vs = append(vs, v.String())
	}
	return strings.Join(vs, ", ")
}

// supMismatch compares tcheck's value v with the expected w ("" when they
// agree). Under the convex hull v only bounds the supremum from above, as
// it does from a state whose clock values are not all integers (v.Approx:
// the bound is its region's extreme).
func supMismatch(w SupValue, v queries.Value, hull bool) string {
	if w.Infimum != v.Infimum {
		return "a supremum against an infimum"
	}
	if w.Infimum {
		return infMismatch(w, v, hull)
	}
	if hull {
		if w.None {
			return "" // the hull may reach states satisfying the condition that runs do not
		}
		switch {
		case v.None:
			return "none under the hull"
		case v.Inf || v.Exceeds:
			return ""
		case w.Inf:
			return "the hull's bound is finite, the supremum infinite"
		case w.AtLeast && v.Bound <= w.Bound, !w.AtLeast && v.Bound < w.Bound:
			return "the hull's bound is below the supremum"
		}
		return ""
	}
	switch {
	case w.None || v.None:
		if w.None != v.None {
			return "none differs"
		}
	case w.AtLeast:
		if !(v.Inf || v.Exceeds || v.Bound > w.Bound) {
			return "not above the reference's ceiling"
		}
	case w.Inf || v.Inf:
		if w.Inf != v.Inf {
			return "infinity differs"
		}
	case v.Exceeds:
		return "exceeds"
	case w.Bound != v.Bound || w.Strict != v.Strict:
		return "value differs"
	}
	return ""
}

// infMismatch is supMismatch for an infimum. Under the convex hull v only
// bounds the infimum from below; where the reference's value is beyond
// its ceiling C (every value there above C), tcheck's must be too.
func infMismatch(w SupValue, v queries.Value, hull bool) string {
	switch {
	case w.None || v.None:
		if w.None != v.None && !(hull && w.None) {
			return "none differs"
		}
	case hull:
		if !w.AtLeast && v.Bound > w.Bound {
			return "the hull's bound is above the infimum"
		}
	case w.AtLeast:
		if !(v.Exceeds || v.Bound > w.Bound || v.Bound == w.Bound && v.Strict) {
			return "not above the reference's ceiling"
		}
	case v.Exceeds:
		return "exceeds"
	case w.Bound != v.Bound || w.Strict != v.Strict:
		return "value differs"
	}
	return ""
}

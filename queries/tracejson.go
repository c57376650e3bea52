package queries

import (
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/tcheck/tcheck/model"
	"github.com/tcheck/tcheck/zone"
)

// JSONEdgeRef identifies one edge of a move: the process index and the
// index of the edge among the process's compiled edges (selects expanded).
type JSONEdgeRef struct {
	Proc int32 `json:"proc"`
	Edge int32 `json:"edge"`
}

// JSONRunStep is a JSONStep that also names the edges of its move by
// index, so that the run can be rebuilt without matching labels.
type JSONRunStep struct {
	JSONStep
	Move []JSONEdgeRef `json:"move,omitempty"`
}

// JSONRun is a trace in JSON that can be read back (RunTrace): JSONTrace
// with edge identities. A JSONTrace written by verify --json unmarshals
// into it too (without the identities, the edges are matched by label).
type JSONRun struct {
	Kind        string            `json:"kind"`
	Steps       []JSONRunStep     `json:"steps"`
	FinalDelay  string            `json:"final_delay"`
	FinalClocks map[string]string `json:"final_clocks"`
	Cycle       int               `json:"cycle,omitempty"`
	End         string            `json:"end,omitempty"`
	// Start is "given" when step 0 is a given state (verify --from), not
	// the initial state.
	Start string `json:"start,omitempty"`
}

// startField is the JSON start field of t.
func startField(t *Trace) string {
	if t.Start != nil {
		return "given"
	}
	return ""
}

// RunJSON converts t for the JSON output, with edge identities.
func RunJSON(net *model.Network, t *Trace, kind string) *JSONRun {
	j := &JSONRun{Kind: kind, FinalDelay: Rat(t.FinalDelay, t.Den), FinalClocks: clockMap(net, t.Final, t.Den), Cycle: t.Cycle, End: t.End, Start: startField(t)}
	for i := range t.Moves {
		s := JSONRunStep{JSONStep: JSONStep{Delay: Rat(t.Delays[i], t.Den), Edges: []EdgeLabel{}, Clocks: clockMap(net, t.Clocks[i], t.Den), Variables: map[string]int32{}}}
		for _, ref := range t.Moves[i].Taken() {
			s.Edges = append(s.Edges, Label(net, ref))
			s.Move = append(s.Move, JSONEdgeRef{Proc: ref.Proc, Edge: ref.Edge})
		}
		for p, l := range t.Locs[i] {
			s.Locations = append(s.Locations, net.Procs[p].Name+"."+net.Procs[p].Locations[l].Name)
		}
		for k, v := range t.Vars[i] {
			s.Variables[net.Vars[k].Name] = v
		}
		j.Steps = append(j.Steps, s)
	}
	return j
}

// maxTraceDen bounds the common denominator of a trace read back.
const maxTraceDen = 1 << 40

// RunTrace rebuilds the concrete run of j over net: locations, variables,
// clock values and delays as exact rationals over a common denominator,
// and the moves from their identities or, where the JSON has none (as
// verify --json writes it), from the edge labels (process, source, target,
// select values, guard, sync and update as written), trying every edge that
// matches a label and keeping the combination whose successor is the next
// state of the trace. It checks the form only; Replay checks the run.
// A run whose start is "given" starts from its step 0 (Trace.Start), which
// the caller may replace by the state it expects.
func (j *JSONRun) RunTrace(net *model.Network) (*Trace, error) {
	if len(j.Steps) == 0 {
		return nil, fmt.Errorf("the trace has no steps")
	}
	if j.Start != "" && j.Start != "given" {
		return nil, fmt.Errorf("start %q: want \"given\" or nothing", j.Start)
	}
	// the common denominator
	den := big.NewInt(1)
	parse := func(what, s string) (*big.Rat, error) {
		r, err := readRat(s, true)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", what, err)
		}
		if r.Sign() < 0 {
			return nil, fmt.Errorf("%s: %q is negative", what, s)
		}
		g := new(big.Int).GCD(nil, nil, den, r.Denom())
		den.Mul(den, new(big.Int).Quo(r.Denom(), g))
		if den.Cmp(big.NewInt(maxTraceDen)) > 0 {
			return nil, fmt.Errorf("%s: the trace's common denominator exceeds 2^40", what)
		}
		return r, nil
	}
	dim := len(net.Clocks)
	clocksOf := func(what string, m map[string]string) ([]*big.Rat, error) {
		out := make([]*big.Rat, dim)
		out[0] = new(big.Rat)
		if len(m) != dim-1 {
			return nil, fmt.Errorf("%s: %d clock values for %d clocks", what, len(m), dim-1)
		}
		for x := 1; x < dim; x++ {
			s, ok := m[net.Clocks[x].Name]
			if !ok {
				return nil, fmt.Errorf("%s: no value for clock %s", what, net.Clocks[x].Name)
			}
			r, err := parse(what+": clock "+net.Clocks[x].Name, s)
			if err != nil {
				return nil, err
			}
			out[x] = r
		}
		return out, nil
	}
	n := len(j.Steps)
	delays := make([]*big.Rat, n)
	clocks := make([][]*big.Rat, n)
	t := &Trace{Cycle: j.Cycle, End: j.End}
	for i := range j.Steps {
		s := &j.Steps[i]
		what := fmt.Sprintf("step %d", i)
		var err error
		if delays[i], err = parse(what+": delay", s.Delay); err != nil {
			return nil, err
		}
		if clocks[i], err = clocksOf(what, s.Clocks); err != nil {
			return nil, err
		}
		locs, err := locationsOf(net, s.Locations)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", what, err)
		}
		vars := make([]int32, len(net.Vars))
		if len(s.Variables) != len(net.Vars) {
			return nil, fmt.Errorf("%s: %d variable values for %d variables", what, len(s.Variables), len(net.Vars))
		}
		for k, v := range net.Vars {
			x, ok := s.Variables[v.Name]
			if !ok {
				return nil, fmt.Errorf("%s: no value for variable %s", what, v.Name)
			}
			vars[k] = x
		}
		t.Locs = append(t.Locs, locs)
		t.Vars = append(t.Vars, vars)
		if i == 0 && (len(s.Edges) > 0 || len(s.Move) > 0) {
			return nil, fmt.Errorf("step 0 has a move")
		}
		if i > 0 && len(s.Edges) == 0 && len(s.Move) == 0 {
			return nil, fmt.Errorf("%s has no move", what)
		}
	}
	finalDelay, err := parse("final delay", j.FinalDelay)
	if err != nil {
		return nil, err
	}
	final, err := clocksOf("final clocks", j.FinalClocks)
	if err != nil {
		return nil, err
	}
	if !den.IsInt64() {
		return nil, fmt.Errorf("the trace's common denominator is too large")
	}
	t.Den = den.Int64()
	scaled := func(r *big.Rat) (int64, error) {
		v := new(big.Int).Mul(r.Num(), new(big.Int).Quo(den, r.Denom()))
		if !v.IsInt64() || v.Int64() > 1<<62 {
			return 0, fmt.Errorf("value %s is too large", r.RatString())
		}
		return v.Int64(), nil
	}
	scaleAll := func(rs []*big.Rat) ([]int64, error) {
		out := make([]int64, len(rs))
		for k, r := range rs {
			v, err := scaled(r)
			if err != nil {
				return nil, err
			}
			out[k] = v
		}
		return out, nil
	}
	for i := 0; i < n; i++ {
		d, err := scaled(delays[i])
		if err != nil {
			return nil, err
		}
		c, err := scaleAll(clocks[i])
		if err != nil {
			return nil, err
		}
		t.Delays = append(t.Delays, d)
		t.Clocks = append(t.Clocks, c)
	}
	if t.FinalDelay, err = scaled(finalDelay); err != nil {
		return nil, err
	}
	if t.Final, err = scaleAll(final); err != nil {
		return nil, err
	}
	if j.Start == "given" {
		t.Start = &State{Locs: t.Locs[0], Vars: t.Vars[0], Clocks: clocks[0]}
	}
	// the moves
	t.Moves = make([]zone.Move, n)
	r := &replayer{net: net, env: net.NewEnv(), den: t.Den}
	for i := 1; i < n; i++ {
		s := &j.Steps[i]
		if len(s.Move) > 0 {
			if len(s.Edges) > 0 && len(s.Edges) != len(s.Move) {
				return nil, fmt.Errorf("step %d: %d edges but %d edge identities", i, len(s.Edges), len(s.Move))
			}
			m := make(zone.Move, len(s.Move))
			for k, ref := range s.Move {
				if ref.Proc < 0 || int(ref.Proc) >= len(net.Procs) || ref.Edge < 0 || int(ref.Edge) >= len(net.Procs[ref.Proc].Edges) {
					return nil, fmt.Errorf("step %d: no edge %d of process %d", i, ref.Edge, ref.Proc)
				}
				if len(s.Edges) > 0 && Label(net, zone.EdgeRef{Proc: ref.Proc, Edge: ref.Edge}) != s.Edges[k] {
					return nil, fmt.Errorf("step %d: edge %d of process %d is not %s", i, ref.Edge, ref.Proc, s.Edges[k])
				}
				m[k] = zone.EdgeRef{Proc: ref.Proc, Edge: ref.Edge}
			}
			t.Moves[i] = m
			continue
		}
		m, err := r.matchMove(t, i, s.Edges)
		if err != nil {
			return nil, fmt.Errorf("step %d: %w", i, err)
		}
		t.Moves[i] = m
	}
	return t, nil
}

// locationsOf reads a location vector written as Process.Location names.
func locationsOf(net *model.Network, names []string) ([]int32, error) {
	if len(names) != len(net.Procs) {
		return nil, fmt.Errorf("%d locations for %d processes", len(names), len(net.Procs))
	}
	locs := make([]int32, len(net.Procs))
	for p, proc := range net.Procs {
		name, ok := strings.CutPrefix(names[p], proc.Name+".")
		if !ok {
			return nil, fmt.Errorf("location %q is not one of %s", names[p], proc.Name)
		}
		found := false
		for l := range proc.Locations {
			if proc.Locations[l].Name == name {
				locs[p], found = int32(l), true
				break
			}
		}
		if !found {
			return nil, fmt.Errorf("%s has no location %s", proc.Name, name)
		}
	}
	return locs, nil
}

// maxMatches bounds the combinations of edges tried for one move.
const maxMatches = 1 << 12

// matchMove finds the move of step i from its edge labels: the edges whose
// label is the one written, combined so that the move taken from state i-1
// after the step's delay gives state i.
func (r *replayer) matchMove(t *Trace, i int, labels []EdgeLabel) (zone.Move, error) {
	net := r.net
	cands := make([][]zone.EdgeRef, len(labels))
	total := 1
	for k, l := range labels {
		for p, proc := range net.Procs {
			if proc.Name != l.Process {
				continue
			}
			for e := range proc.Edges {
				ref := zone.EdgeRef{Proc: int32(p), Edge: int32(e)}
				if Label(net, ref) == l {
					cands[k] = append(cands[k], ref)
				}
			}
		}
		if len(cands[k]) == 0 {
			return nil, fmt.Errorf("no edge %s", l)
		}
		total *= len(cands[k])
		if total > maxMatches {
			return nil, fmt.Errorf("too many edges match the labels of the move")
		}
	}
	m := make(zone.Move, len(labels))
	if total == 1 {
		for k := range cands {
			m[k] = cands[k][0]
		}
		return m, nil
	}
	pick := make([]int, len(labels))
	for {
		for k := range cands {
			m[k] = cands[k][pick[k]]
		}
		clocks := slices.Clone(t.Clocks[i-1])
		if err := r.delay(slices.Clone(t.Locs[i-1]), slices.Clone(t.Vars[i-1]), clocks, t.Delays[i]); err == nil {
			nl, nv, nc, err := r.move(t.Locs[i-1], t.Vars[i-1], clocks, m)
			if err == nil && slices.Equal(nl, t.Locs[i]) && slices.Equal(nv, t.Vars[i]) && slices.Equal(nc, t.Clocks[i]) {
				return m, nil
			}
		}
		k := len(pick) - 1
		for ; k >= 0; k-- {
			pick[k]++
			if pick[k] < len(cands[k]) {
				break
			}
			pick[k] = 0
		}
		if k < 0 {
			// none replays: keep the first, Replay says why
			for k := range cands {
				m[k] = cands[k][0]
			}
			return m, nil
		}
	}
}

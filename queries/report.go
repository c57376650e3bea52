package queries

import (
	"fmt"
	"io"
	"math/big"
	"strings"
	"time"

	"github.com/tcheck/tcheck/model"
	"github.com/tcheck/tcheck/zone"
)

// Rat formats the rational num/den in lowest terms ("3", "3/2").
func Rat(num, den int64) string {
	if den == 1 {
		return fmt.Sprint(num)
	}
	r := big.NewRat(num, den)
	return r.RatString()
}

// EdgeLabel describes one edge of a move for printing.
type EdgeLabel struct {
	Process string `json:"process"`
	From    string `json:"from"`
	To      string `json:"to"`
	Select  string `json:"select,omitempty"`
	Guard   string `json:"guard,omitempty"`
	Sync    string `json:"sync,omitempty"`
	Update  string `json:"update,omitempty"`
}

// Label returns the label of edge ref.
func Label(net *model.Network, ref zone.EdgeRef) EdgeLabel {
	p := net.Procs[ref.Proc]
	e := &p.Edges[ref.Edge]
	l := EdgeLabel{
		Process: p.Name,
		From:    p.Locations[e.From].Name,
		To:      p.Locations[e.To].Name,
		Guard:   e.GuardSrc,
		Sync:    e.SyncSrc,
		Update:  e.UpdateSrc,
	}
	var sel []string
	for _, s := range e.Select {
		sel = append(sel, fmt.Sprintf("%s=%d", s.Name, s.Value))
	}
	l.Select = strings.Join(sel, ", ")
	return l
}

func (l EdgeLabel) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s -> %s", l.Process, l.From, l.To)
	var parts []string
	if l.Select != "" {
		parts = append(parts, "select "+l.Select)
	}
	if l.Guard != "" {
		parts = append(parts, "guard "+l.Guard)
	}
	if l.Sync != "" {
		parts = append(parts, "sync "+l.Sync)
	}
	if l.Update != "" {
		parts = append(parts, "update "+l.Update)
	}
	if len(parts) > 0 {
		b.WriteString("  [" + strings.Join(parts, "; ") + "]")
	}
	return b.String()
}

// locations formats a location vector.
func locations(net *model.Network, locs []int32) string {
	parts := make([]string, len(locs))
	for p, l := range locs {
		parts[p] = net.Procs[p].Name + "." + net.Procs[p].Locations[l].Name
	}
	return strings.Join(parts, " ")
}

func clockValues(net *model.Network, clocks []int64, den int64) string {
	var parts []string
	for x := 1; x < len(net.Clocks); x++ {
		parts = append(parts, net.Clocks[x].Name+"="+Rat(clocks[x], den))
	}
	return strings.Join(parts, " ")
}

// varValues formats the variables, only those differing from prev when prev
// is not nil.
func varValues(net *model.Network, vars, prev []int32) string {
	var parts []string
	for i, v := range vars {
		if prev != nil && prev[i] == v {
			continue
		}
		parts = append(parts, fmt.Sprintf("%s=%d", net.Vars[i].Name, v))
	}
	return strings.Join(parts, " ")
}

// WriteTrace prints t for people: each state with its locations, clock
// values and (changed) variables, and between states the delay and the
// edges of the move.
func WriteTrace(w io.Writer, net *model.Network, t *Trace, indent string) {
	for i := range t.Moves {
		if t.Cycle > 0 && i == len(t.Moves)-t.Cycle {
			if t.Cycle == 1 {
				fmt.Fprintf(w, "%s-- from here the last transition forms a cycle of the zone graph: the run can repeat it forever\n", indent)
			} else {
				fmt.Fprintf(w, "%s-- from here the last %d transitions form a cycle of the zone graph: the run can repeat them forever\n", indent, t.Cycle)
			}
		}
		if i > 0 {
			if t.Delays[i] != 0 {
				fmt.Fprintf(w, "%sdelay %s\n", indent, Rat(t.Delays[i], t.Den))
			}
			for _, ref := range t.Moves[i].Taken() {
				fmt.Fprintf(w, "%s-> %s\n", indent, Label(net, ref))
			}
		}
		if i == 0 && t.Start != nil {
			fmt.Fprintf(w, "%s-- the run starts from the given state\n", indent)
		}
		fmt.Fprintf(w, "%s[%d] %s\n", indent, i, locations(net, t.Locs[i]))
		if len(net.Clocks) > 1 {
			fmt.Fprintf(w, "%s    clocks: %s\n", indent, clockValues(net, t.Clocks[i], t.Den))
		}
		var prev []int32
		label := "vars"
		if i > 0 {
			prev = t.Vars[i-1]
			label = "changed"
		}
		if s := varValues(net, t.Vars[i], prev); s != "" {
			fmt.Fprintf(w, "%s    %s: %s\n", indent, label, s)
		}
	}
	if t.FinalDelay != 0 {
		fmt.Fprintf(w, "%sdelay %s\n", indent, Rat(t.FinalDelay, t.Den))
		if len(net.Clocks) > 1 {
			fmt.Fprintf(w, "%s    clocks: %s\n", indent, clockValues(net, t.Final, t.Den))
		}
	}
	if t.End != "" {
		fmt.Fprintf(w, "%s-- %s\n", indent, t.End)
	}
}

// StatsLine formats the deterministic counters of a search.
func StatsLine(s zone.Stats) string {
	return fmt.Sprintf("explored %d, stored %d (%d discrete), covered %d, transitions %d", s.Explored, s.Stored, s.Discrete, s.Covered, s.Transitions)
}

// ResourceLine formats the volatile part of the statistics.
func ResourceLine(s zone.Stats) string {
	return fmt.Sprintf("time %s, peak memory %s", s.Elapsed.Round(time.Millisecond), Bytes(s.PeakMemory))
}

// Bytes formats a byte count.
func Bytes(b uint64) string {
	switch {
	case b >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(b)/(1<<30))
	case b >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20))
	case b >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(b)/(1<<10))
	}
	return fmt.Sprintf("%d B", b)
}

// WriteResult prints one query result for people.
func WriteResult(w io.Writer, net *model.Network, r *Result, withTrace, withStats bool) {
	q := r.Query
	name := q.Name
	if name == "" {
		name = "(formula)"
	}
	fmt.Fprintf(w, "%s: %s\n", name, q.Src)
	verdict := r.Verdict.String()
	if len(r.Values) > 0 {
		var vs []string
		for _, v := range r.Values {
			vs = append(vs, v.Term+" = "+v.String())
		}
		verdict = strings.Join(vs, ", ")
	}
	line := "  " + verdict
	if q.Unjudged != "" {
		line += fmt.Sprintf("  (not judged: expect %s is for the model's own parameters)", q.Unjudged)
	}
	if q.Expect.Given {
		want := q.Expect.Raw
		if len(q.Expect.Values) > 0 {
			var ws []string
			for _, ve := range q.Expect.Values {
				ws = append(ws, ve.String())
			}
			want = strings.Join(ws, ", ")
		}
		if r.Matches() {
			if len(q.Expect.Values) > 0 {
				line += fmt.Sprintf("  (as expected: %s)", want)
			} else {
				line += "  (as expected)"
			}
		} else {
			line += fmt.Sprintf("  (EXPECTED %s)", want)
		}
	} else if q.Expect.MaxStates > 0 && !r.Matches() {
		line += fmt.Sprintf("  (EXPECTED at most %d stored states)", q.Expect.MaxStates)
	}
	if r.Reason != zone.Completed && r.Reason != zone.Stopped && r.Verdict == Unknown {
		line += "  [" + r.Reason.String() + "]"
	}
	if len(q.Constants) > 0 {
		var cs []string
		for _, c := range q.Constants {
			cs = append(cs, fmt.Sprintf("%s = %d", c.Name, c.Value))
		}
		line += "  where " + strings.Join(cs, ", ")
	}
	fmt.Fprintln(w, line)
	if r.OverApprox != "" && !withStats {
		fmt.Fprintf(w, "  over-approximation (%s): what it reaches stands only with a replayed run\n", r.OverApprox)
	}
	if r.Err != nil {
		fmt.Fprintf(w, "  model error: %v\n", r.Err)
	}
	if r.Verdict == Error && r.Err == nil && r.TraceErr != nil {
		fmt.Fprintf(w, "  error: %v\n", r.TraceErr)
	}
	if q.Comment != "" && withStats {
		fmt.Fprintf(w, "  comment: %s\n", q.Comment)
	}
	if withStats {
		fmt.Fprintf(w, "  states: %s\n", StatsLine(r.Stats))
		fmt.Fprintf(w, "  extrapolation: %s", r.Extrapolation)
		if r.Rounds > 1 {
			fmt.Fprintf(w, " (%d explorations)", r.Rounds)
		}
		fmt.Fprintln(w)
		fmt.Fprintf(w, "  %s\n", ResourceLine(r.Stats))
	}
	if r.Trace != nil {
		kind := "witness"
		if r.Verdict == Violated {
			kind = "counterexample"
		}
		if r.Verdict == Error {
			kind = "trace to the error"
		}
		if withTrace {
			fmt.Fprintf(w, "  %s (%s, concrete, replayed):\n", kind, Transitions(len(r.Trace.Moves)-1))
			WriteTrace(w, net, r.Trace, "    ")
			if r.Err != nil && r.Err.Move != nil {
				fmt.Fprintf(w, "    then the move that fails:\n")
				for _, ref := range r.Err.Move {
					fmt.Fprintf(w, "    -> %s\n", Label(net, ref))
				}
			}
		} else {
			fmt.Fprintf(w, "  %s: %s (--trace prints it)\n", kind, Transitions(len(r.Trace.Moves)-1))
		}
	} else if r.TraceErr != nil && (r.Verdict != Error || r.Err != nil) {
		// a model error whose trace could not be built is not confirmed
		// by a run: say why (difftest finding 14 reported one that no run
		// reaches, and only the missing trace showed it)
		fmt.Fprintf(w, "  no trace: %v\n", r.TraceErr)
	}
}

// JSONStats is the statistics part of the JSON output.
type JSONStats struct {
	Explored    int64   `json:"explored"`
	Stored      int64   `json:"stored"`
	Covered     int64   `json:"covered"`
	Transitions int64   `json:"transitions"`
	Seconds     float64 `json:"time_seconds"`
	PeakMemory  uint64  `json:"peak_memory_bytes"`
}

// JSONStep is one step of a trace in the JSON output.
type JSONStep struct {
	Delay     string            `json:"delay"`
	Edges     []EdgeLabel       `json:"edges"`
	Locations []string          `json:"locations"`
	Clocks    map[string]string `json:"clocks"`
	Variables map[string]int32  `json:"variables"`
}

// JSONTrace is a trace in the JSON output.
type JSONTrace struct {
	Kind        string            `json:"kind"`
	Steps       []JSONStep        `json:"steps"`
	FinalDelay  string            `json:"final_delay"`
	FinalClocks map[string]string `json:"final_clocks"`
	// Cycle: the last Cycle steps return to the symbolic state they left
	// and can repeat forever (E[], A<>, --> witnesses).
	Cycle int `json:"cycle,omitempty"`
	// End says why a liveness witness without a cycle ends.
	End string `json:"end,omitempty"`
	// Start is "given" when the run starts from a given state (verify
	// --from: step 0 is that state) instead of the initial state.
	Start string `json:"start,omitempty"`
}

// JSONValue is a sup/inf value in the JSON output.
type JSONValue struct {
	Expr  string `json:"expr"`
	Value string `json:"value"`
}

// JSONResult is one query result in the JSON output.
type JSONResult struct {
	Query         string           `json:"query"`
	Formula       string           `json:"formula"`
	Verdict       Verdict          `json:"verdict"`
	Values        []JSONValue      `json:"values,omitempty"`
	Expected      string           `json:"expected,omitempty"`
	AsExpected    bool             `json:"as_expected"`
	Constants     map[string]int64 `json:"constants,omitempty"`
	StopReason    string           `json:"stop_reason"`
	Extrapolation string           `json:"extrapolation"`
	OverApprox    string           `json:"over_approximation,omitempty"`
	Explorations  int              `json:"explorations"`
	Stats         JSONStats        `json:"stats"`
	Trace         *JSONTrace       `json:"trace,omitempty"`
	Error         string           `json:"error,omitempty"`
}

// JSON converts a result for the JSON output.
func JSON(net *model.Network, r *Result, withTrace bool) JSONResult {
	j := JSONResult{
		Query:         r.Query.Name,
		Formula:       r.Query.Src,
		Verdict:       r.Verdict,
		Expected:      r.Query.Expect.Raw,
		AsExpected:    r.Matches(),
		StopReason:    r.Reason.String(),
		Extrapolation: r.Extrapolation,
		OverApprox:    r.OverApprox,
		Explorations:  r.Rounds,
		Stats: JSONStats{
			Explored: r.Stats.Explored, Stored: r.Stats.Stored, Covered: r.Stats.Covered,
			Transitions: r.Stats.Transitions, Seconds: r.Stats.Elapsed.Seconds(), PeakMemory: r.Stats.PeakMemory,
		},
	}
	for _, v := range r.Values {
		j.Values = append(j.Values, JSONValue{Expr: v.Term, Value: v.String()})
	}
	if len(r.Query.Constants) > 0 {
		j.Constants = map[string]int64{}
		for _, c := range r.Query.Constants {
			j.Constants[c.Name] = c.Value
		}
	}
	switch {
	case r.Err != nil && r.TraceErr != nil:
		j.Error = fmt.Sprintf("%v (no trace: %v)", r.Err, r.TraceErr)
	case r.Err != nil:
		j.Error = r.Err.Error()
	case r.TraceErr != nil:
		j.Error = r.TraceErr.Error()
	}
	if r.Trace != nil && withTrace {
		t := r.Trace
		jt := &JSONTrace{Kind: "witness", FinalDelay: Rat(t.FinalDelay, t.Den), FinalClocks: clockMap(net, t.Final, t.Den), Cycle: t.Cycle, End: t.End, Start: startField(t)}
		if r.Verdict == Violated {
			jt.Kind = "counterexample"
		} else if r.Verdict == Error {
			jt.Kind = "error"
		}
		for i := range t.Moves {
			s := JSONStep{Delay: Rat(t.Delays[i], t.Den), Edges: []EdgeLabel{}, Clocks: clockMap(net, t.Clocks[i], t.Den), Variables: map[string]int32{}}
			for _, ref := range t.Moves[i].Taken() {
				s.Edges = append(s.Edges, Label(net, ref))
			}
			for p, l := range t.Locs[i] {
				s.Locations = append(s.Locations, net.Procs[p].Name+"."+net.Procs[p].Locations[l].Name)
			}
			for k, v := range t.Vars[i] {
				s.Variables[net.Vars[k].Name] = v
			}
			jt.Steps = append(jt.Steps, s)
		}
		j.Trace = jt
	}
	return j
}

func clockMap(net *model.Network, clocks []int64, den int64) map[string]string {
	m := map[string]string{}
	for x := 1; x < len(net.Clocks); x++ {
		m[net.Clocks[x].Name] = Rat(clocks[x], den)
	}
	return m
}

// Breadth first explores far more states than it keeps where a
// discrete state's larger zones come after its smaller ones have been
// expanded (FDDI: 320,068 explored for 989 kept at N = 15); then
// OrderHint suggests the orders that repair or avoid such mistakes. The
// thresholds leave out the usual waste (Fischer N = 10 explores 1.7
// times what it keeps, the agreement model 1.2 times).
const (
	orderHintMinExplored = 10000
	orderHintRatio       = 4
	// OrderHintAfter is how long an exploration runs before
	// RunningOrderHint speaks up: a search that ends sooner gets
	// OrderHint's note at its end, and one that may never end (FDDI N = 20
	// under breadth first) gets this one while it runs.
	OrderHintAfter = 5 * time.Second
)

// OrderAdvice ends every order hint (OrderHint, RunningOrderHint and the
// sweep's): what to try instead.
const OrderAdvice = "may explore far fewer, with the same verdicts (docs/queries.md, \"Search order\")"

// WastesMore reports whether a search that explored explored states for
// stored kept wasted more than one that explored explored0 for stored0
// (the larger ratio of explored to stored), so that a hint names the
// worst of several.
func WastesMore(explored, stored, explored0, stored0 int64) bool {
	return explored*max(stored0, 1) > explored0*max(stored, 1)
}

// Wastes reports whether a search that explored explored states and
// stores stored explored at least orderHintRatio times what it stores,
// from orderHintMinExplored states explored: OrderHint's test, which
// sweeps apply to their points.
func Wastes(explored, stored int64) bool {
	return explored >= orderHintMinExplored && explored >= orderHintRatio*max(stored, 1)
}

// RunningOrderHint is OrderHint for an exploration still running (the
// statistics of a progress report): a note when it has run at least
// OrderHintAfter under breadth first (order) and wastes as OrderHint
// says, and "" otherwise.
func RunningOrderHint(order zone.Order, s zone.Stats) string {
	if order != zone.BFS || s.Elapsed < OrderHintAfter || !Wastes(s.Explored, s.Stored) {
		return ""
	}
	return fmt.Sprintf("hint: breadth first has explored %d states and keeps %d after %s (zones found later replace expanded ones); --order topological, ranked or dfs %s",
		s.Explored, s.Stored, s.Elapsed.Round(time.Second), OrderAdvice)
}

// OrderHint returns a note for the user when a breadth-first search
// (order) explored at least orderHintRatio times the states it stored
// for one of results, and "" otherwise: --order topological or ranked
// (Herbreteau and Tran, FORMATS 2015) or dfs may explore far fewer, with the same
// verdicts (docs/queries.md, "Search order").
func OrderHint(results []*Result, order zone.Order) string {
	if order != zone.BFS {
		return ""
	}
	var worst *Result
	var worstExplored int64
	for _, r := range results {
		s := r.Stats
		e := PerExploration(s.Explored, r.Rounds)
		if Wastes(e, s.Stored) &&
			(worst == nil || WastesMore(e, s.Stored, worstExplored, worst.Stats.Stored)) {
			worst, worstExplored = r, e
		}
	}
	if worst == nil {
		return ""
	}
	name := worst.Query.Name
	if name == "" {
		name = worst.Query.Src
	}
	return fmt.Sprintf("hint: %s: breadth first explored %s for %d stored (zones found later replaced expanded ones); --order topological, ranked or dfs %s",
		name, ExploredStates(worst.Stats.Explored, worst.Rounds), worst.Stats.Stored, OrderAdvice)
}

// PerExploration is the number of states explored per exploration of a
// check that explored explored states in explorations explorations (a
// sup that doubles its bound explores again each time, and its statistics
// add the explorations up while the states stored are the last one's): the
// figure the order hints judge, so that doubling alone does not look like
// breadth first's waste.
func PerExploration(explored int64, explorations int) int64 {
	return explored / int64(max(explorations, 1))
}

// ExploredStates says how many states a check explored, per exploration
// where it made more than one.
func ExploredStates(explored int64, explorations int) string {
	if explorations > 1 {
		return fmt.Sprintf("%d states per exploration (%d explorations)", PerExploration(explored, explorations), explorations)
	}
	return fmt.Sprintf("%d states", explored)
}

// Transitions says "1 transition" or "N transitions".
func Transitions(n int) string {
	if n == 1 {
		return "1 transition"
	}
	return fmt.Sprintf("%d transitions", n)
}

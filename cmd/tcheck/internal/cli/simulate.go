package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/tcheck/tcheck/model"
	"github.com/tcheck/tcheck/model/syntax"
	"github.com/tcheck/tcheck/queries"
	"github.com/tcheck/tcheck/queries/msc"
	"github.com/tcheck/tcheck/simulate"
)

func init() { register(newSimulateCmd) }

type simFlags struct {
	qs        []string
	sets      []string
	seed      uint64
	runs      int
	steps     int
	timeBound int64
	until     string
	strategy  string
	pctDepth  int
	shard     string
	asJSON    bool
	stats     bool
	maxInput  string
	traceFmt  string
	timeout   time.Duration
}

func newSimulateCmd(stdout, stderr io.Writer) *cobra.Command {
	var f simFlags
	cmd := &cobra.Command{
		Use:   "simulate MODEL [-q NAME|FORMULA]...",
		Short: "Hunt for bugs with seeded random runs (random or PCT scheduling)",
		Long: `Run seeded random executions of a model under its concrete semantics and monitor
its E<> and A[] queries (all of them, or those given with -q) along every run: an A[]
query violated on a run ends the hunt with that run's trace, replayed; an E<> query
reached is reported with its witness run. --until FORMULA stops at the first state
where FORMULA holds and reports the run. The same seed gives the same runs, byte for
byte. --strategy pct schedules by random process priorities with --pct-depth - 1
priority change points (Burckhardt et al., ASPLOS 2010). See docs/simulate.md.

Exit codes: 0 nothing found against the expectations, 1 a property violated (or an
expectation missed), 2 a usage or model error (a run that hits a model error).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runSimulate(stdout, stderr, args[0], &f)
		},
	}
	fl := cmd.Flags()
	fl.StringArrayVarP(&f.qs, "query", "q", nil, "a query name from the model, or a formula (repeatable); E<> and A[] queries are monitored")
	fl.StringArrayVar(&f.sets, "set", nil, "override a model parameter: --set name=value (repeatable)")
	fl.Uint64Var(&f.seed, "seed", 1, "seed of the random generator")
	fl.IntVar(&f.runs, "runs", 100, "number of runs")
	fl.IntVar(&f.steps, "steps", 1000, "transitions per run at most")
	fl.Int64Var(&f.timeBound, "time-bound", 0, "time units per run at most (0: no bound)")
	fl.StringVar(&f.until, "until", "", "stop at the first state where this state formula holds, and report the run")
	fl.StringVar(&f.strategy, "strategy", "random", "scheduling: random, pct, or swarm (each run draws random or pct of depth 1-4)")
	fl.IntVar(&f.pctDepth, "pct-depth", 3, "PCT's depth d: d-1 priority change points per run")
	fl.StringVar(&f.shard, "shard", "", "run shard i of n (i/n, 1 ≤ i ≤ n): runs (i-1)·runs .. i·runs-1 of the seed")
	fl.BoolVar(&f.asJSON, "json", false, "print the result as one JSON document, with traces that tcheck replay reads")
	fl.BoolVar(&f.stats, "stats", false, "print the wall time and transitions per second on stderr")
	fl.DurationVar(&f.timeout, "timeout", 0, "start no run after this long, e.g. 10m (0: no limit): a time budget for --runs (each run is whole and the same for its seed)")
	fl.StringVar(&f.maxInput, "max-input", "", "refuse model files larger than this, e.g. 64MiB (default 8MiB)")
	fl.StringVar(&f.traceFmt, "trace-format", "", "print the runs: text (the default), json (as --json), svg or html (a message sequence chart of every reported run, as the only output)")
	cmd.AddCommand(newSimulateMergeCmd(stdout, stderr))
	return cmd
}

// parseShard reads i/n.
func parseShard(s string) (i, n int, err error) {
	a, b, ok := strings.Cut(s, "/")
	if ok {
		i, err = strconv.Atoi(strings.TrimSpace(a))
		if err == nil {
			n, err = strconv.Atoi(strings.TrimSpace(b))
		}
	}
	if !ok || err != nil || n < 1 || i < 1 || i > n {
		return 0, 0, fmt.Errorf("--shard %q: want i/n with 1 <= i <= n", s)
	}
	return i, n, nil
}

func runSimulate(stdout, stderr io.Writer, arg string, f *simFlags) error {
	if err := checkTraceFormat(f.traceFmt, f.asJSON); err != nil {
		return usageErr(err)
	}
	if f.traceFmt == "json" {
		f.asJSON = true
	}
	strategy, err := simulate.ParseStrategy(f.strategy)
	if err != nil {
		return usageErr(fmt.Errorf("--strategy: %v", err))
	}
	opts := simulate.Options{Seed: f.seed, Runs: f.runs, Steps: f.steps, TimeBound: f.timeBound, Strategy: strategy, PCTDepth: f.pctDepth}
	if f.shard != "" {
		i, _, err := parseShard(f.shard)
		if err != nil {
			return usageErr(err)
		}
		opts.FirstRun = (i - 1) * f.runs
	}
	if err := opts.Validate(); err != nil {
		return usageErr(err)
	}
	if f.timeout < 0 {
		return usageErr(fmt.Errorf("--timeout: %v is negative (0 means no limit)", f.timeout))
	}
	sf := searchFlags{sets: f.sets, maxInput: f.maxInput, order: "bfs", extrapolate: "lu+"}
	if _, err := sf.options(); err != nil {
		return usageErr(err)
	}
	ov, err := parseSets(f.sets)
	if err != nil {
		return usageErr(err)
	}
	m, err := loadModel(arg, ov)
	if err != nil {
		return usageErr(err)
	}
	var qlist []*queries.Query
	var skipped []*queries.Query
	if len(f.qs) > 0 || len(m.file.Queries) > 0 {
		all, err := selectQueries(m, f.qs)
		if err != nil {
			return usageErr(err)
		}
		for _, q := range all {
			why := simulate.Monitorable(q)
			switch {
			case why == "":
				qlist = append(qlist, q)
			case len(f.qs) > 0:
				return usageErr(fmt.Errorf("query %s: %s", queryName(q), why))
			default:
				skipped = append(skipped, q)
			}
		}
	}
	if len(ov) > 0 {
		// expectations written for the file's parameters do not apply at
		// others (docs/queries.md, Expectations), as in verify
		for _, q := range qlist {
			q.AtOtherParameters()
		}
	}
	opts.Monitors = qlist
	if f.until != "" {
		u, err := compileStateFormula(m.net, f.until, "--until")
		if err != nil {
			return usageErr(err)
		}
		opts.Until = u
	}
	start := time.Now()
	if f.timeout > 0 {
		opts.Deadline = start.Add(f.timeout)
	}
	res, err := simulate.Run(m.net, opts)
	if err != nil {
		return usageErr(err)
	}
	if f.stats {
		el := time.Since(start)
		fmt.Fprintf(stderr, "simulate: %d runs, %d transitions in %s, %.0f transitions/s\n", res.Runs, res.Steps, el.Round(time.Millisecond), float64(res.Steps)/el.Seconds())
	}
	code := simCode(res)
	if isPicture(f.traceFmt) {
		if err := writePicture(stdout, f.traceFmt, simDocument(m, f, opts, res, skipped)); err != nil {
			return err
		}
	} else if f.asJSON {
		if err := writeSimJSON(stdout, arg, m, f, opts, res, skipped, code); err != nil {
			return err
		}
	} else {
		writeSimText(stdout, m, f, opts, res, skipped)
	}
	if code != ExitOK {
		return &exitError{code: code, err: errors.New("")}
	}
	return nil
}

// compileStateFormula compiles a state formula given on the command line.
func compileStateFormula(net *model.Network, s, what string) (*model.Formula, error) {
	text := model.NewText(s, model.Pos{File: what, Line: 1, Col: 1})
	x, err := syntax.ParseExpr(s)
	if err != nil {
		return nil, fmt.Errorf("%s %q: %v", what, s, err)
	}
	return net.CompileFormula(x, text)
}

func queryName(q *queries.Query) string {
	if q.Name != "" {
		return q.Name
	}
	return q.Src
}

// simCode is the exit code: 2 for a model error (or a replay that
// disagrees), 1 when a monitor's verdict misses its expectation or an A[]
// without expectation is violated, else 0.
func simCode(res *simulate.Result) int {
	if res.Error != nil || res.ReplayErr != nil {
		return ExitUsage
	}
	code := ExitOK
	for _, m := range res.Monitors {
		if !m.Matches() || (!m.Query.Expect.Given && m.Verdict() == queries.Violated) {
			code = ExitViolated
		}
	}
	return code
}

func simHeader(m *loadedModel, f *simFlags, o simulate.Options) (string, string) {
	head := modelHeader(m)
	sim := fmt.Sprintf("simulate: strategy %s", o.Strategy)
	if o.Strategy == simulate.PCT {
		sim += fmt.Sprintf(" (depth %d)", o.PCTDepth)
	}
	sim += fmt.Sprintf(", seed %d, runs %d", o.Seed, o.Runs)
	if o.FirstRun > 0 {
		sim += fmt.Sprintf(" (%d..%d, shard %s)", o.FirstRun, o.FirstRun+o.Runs-1, f.shard)
	}
	sim += fmt.Sprintf(" of at most %d transitions", o.Steps)
	if o.TimeBound > 0 {
		sim += fmt.Sprintf(" and %d time units", o.TimeBound)
	}
	return head, sim
}

func writeSimText(w io.Writer, m *loadedModel, f *simFlags, o simulate.Options, res *simulate.Result, skipped []*queries.Query) {
	head, sim := simHeader(m, f, o)
	fmt.Fprintln(w, head)
	fmt.Fprintln(w, sim)
	net := m.net
	for _, mon := range res.Monitors {
		q := mon.Query
		name := q.Name
		if name == "" {
			name = "(formula)"
		}
		fmt.Fprintf(w, "%s: %s\n", name, q.Src)
		v := mon.Verdict()
		line := "  "
		if mon.Found != nil {
			line += fmt.Sprintf("%s in run %d after %s", v, mon.Found.Run, queries.Transitions(len(mon.Found.Trace.Moves)-1))
		} else if q.Kind == syntax.QueryAG {
			line += fmt.Sprintf("unknown: not violated in %d runs", res.Runs)
		} else {
			line += fmt.Sprintf("unknown: not reached in %d runs", res.Runs)
		}
		if q.Unjudged != "" {
			line += fmt.Sprintf("  (not judged: expect %s is for the model's own parameters)", q.Unjudged)
		} else if q.Expect.Given {
			if v == queries.Unknown {
				line += fmt.Sprintf("  (expected %s)", q.Expect.Raw)
			} else if mon.Matches() {
				line += "  (as expected)"
			} else {
				line += fmt.Sprintf("  (EXPECTED %s)", q.Expect.Raw)
			}
		}
		fmt.Fprintln(w, line)
		if mon.Found != nil {
			kind := "witness"
			if v == queries.Violated {
				kind = "counterexample"
			}
			fmt.Fprintf(w, "  %s (%s, concrete, replayed):\n", kind, queries.Transitions(len(mon.Found.Trace.Moves)-1))
			queries.WriteTrace(w, net, mon.Found.Trace, "    ")
		}
	}
	for _, q := range skipped {
		fmt.Fprintf(w, "%s: %s\n  skipped: %s\n", queryName(q), q.Src, simulate.Monitorable(q))
	}
	if o.Until != nil {
		fmt.Fprintf(w, "until %s\n", o.Until.Src)
		if res.Until != nil {
			fmt.Fprintf(w, "  reached in run %d after %s (concrete, replayed):\n", res.Until.Run, queries.Transitions(len(res.Until.Trace.Moves)-1))
			queries.WriteTrace(w, net, res.Until.Trace, "    ")
		} else {
			fmt.Fprintf(w, "  not reached in %d runs\n", res.Runs)
		}
	}
	if e := res.Error; e != nil {
		fmt.Fprintf(w, "model error in run %d: %v\n", e.Run, e.Err)
		fmt.Fprintf(w, "  trace to the error (%s, concrete, replayed):\n", queries.Transitions(len(e.Trace.Moves)-1))
		queries.WriteTrace(w, net, e.Trace, "    ")
		if e.FailMove != nil {
			fmt.Fprintf(w, "    then the move that fails:\n")
			for _, ref := range e.FailMove {
				fmt.Fprintf(w, "    -> %s\n", queries.Label(net, ref))
			}
		}
	}
	if res.ReplayErr != nil {
		fmt.Fprintf(w, "error: %v\n", res.ReplayErr)
	}
	fmt.Fprintf(w, "tried %d runs, %d transitions%s\n", res.Runs, res.Steps, timedOut(res, f))
}

// timedOut is what the summary says of a hunt that --timeout stopped.
func timedOut(res *simulate.Result, f *simFlags) string {
	if !res.TimedOut {
		return ""
	}
	return fmt.Sprintf(" (stopped by --timeout %v)", f.timeout)
}

// simDocument gathers the runs a hunt reports as charts: one section per
// monitored query, the --until formula and a model error.
func simDocument(m *loadedModel, f *simFlags, o simulate.Options, res *simulate.Result, skipped []*queries.Query) *msc.Document {
	head, sim := simHeader(m, f, o)
	d := &msc.Document{Title: head}
	net := m.net
	for _, mon := range res.Monitors {
		q := mon.Query
		s := msc.Section{Title: queryName(q) + ": " + q.Src}
		v := mon.Verdict()
		switch {
		case mon.Found != nil:
			kind := "witness"
			if v == queries.Violated {
				kind = "counterexample"
			}
			s.Notes = append(s.Notes, fmt.Sprintf("%s: %s in run %d (%s, concrete, replayed)", v, kind, mon.Found.Run, queries.Transitions(len(mon.Found.Trace.Moves)-1)))
			s.Chart = msc.FromTrace(net, mon.Found.Trace)
		case q.Kind == syntax.QueryAG:
			s.Notes = append(s.Notes, fmt.Sprintf("unknown: not violated in %d runs", res.Runs))
		default:
			s.Notes = append(s.Notes, fmt.Sprintf("unknown: not reached in %d runs", res.Runs))
		}
		if q.Expect.Given && q.Unjudged == "" && v != queries.Unknown {
			if mon.Matches() {
				s.Notes = append(s.Notes, "as expected")
			} else {
				s.Notes = append(s.Notes, "EXPECTED "+q.Expect.Raw)
			}
		}
		d.Sections = append(d.Sections, s)
	}
	for _, q := range skipped {
		d.Sections = append(d.Sections, msc.Section{Title: queryName(q) + ": " + q.Src, Notes: []string{"skipped: " + simulate.Monitorable(q)}})
	}
	if o.Until != nil {
		s := msc.Section{Title: "until " + o.Until.Src}
		if res.Until != nil {
			s.Notes = append(s.Notes, fmt.Sprintf("reached in run %d (%d transitions, concrete, replayed)", res.Until.Run, len(res.Until.Trace.Moves)-1))
			s.Chart = msc.FromTrace(net, res.Until.Trace)
		} else {
			s.Notes = append(s.Notes, fmt.Sprintf("not reached in %d runs", res.Runs))
		}
		d.Sections = append(d.Sections, s)
	}
	if e := res.Error; e != nil {
		s := msc.Section{Title: fmt.Sprintf("model error in run %d", e.Run), Notes: []string{e.Err.Error(), fmt.Sprintf("trace to the error (%d transitions, concrete, replayed)", len(e.Trace.Moves)-1)}}
		s.Chart = msc.FromTrace(net, e.Trace)
		for _, ref := range e.FailMove {
			s.Chart.Fail = append(s.Chart.Fail, queries.Label(net, ref))
		}
		d.Sections = append(d.Sections, s)
	}
	last := msc.Section{Title: sim, Notes: []string{fmt.Sprintf("tried %d runs, %d transitions%s", res.Runs, res.Steps, timedOut(res, f))}}
	if res.ReplayErr != nil {
		last.Notes = append(last.Notes, "error: "+res.ReplayErr.Error())
	}
	d.Sections = append(d.Sections, last)
	return d
}

type simJSONModel struct {
	jsonModel
	// Source is the MODEL argument as given (a file or a bundled model's
	// name), which tcheck replay loads.
	Source string `json:"source"`
}

type simJSONOptions struct {
	Strategy  string `json:"strategy"`
	PCTDepth  int    `json:"pct_depth,omitempty"`
	Seed      uint64 `json:"seed"`
	Runs      int    `json:"runs"`
	FirstRun  int    `json:"first_run"`
	Steps     int    `json:"steps"`
	TimeBound int64  `json:"time_bound,omitempty"`
	Until     string `json:"until,omitempty"`
}

type simJSONResult struct {
	Query      string           `json:"query"`
	Formula    string           `json:"formula"`
	Verdict    queries.Verdict  `json:"verdict"`
	Expected   string           `json:"expected,omitempty"`
	AsExpected bool             `json:"as_expected"`
	Unjudged   string           `json:"unjudged,omitempty"`
	Skipped    string           `json:"skipped,omitempty"`
	Run        *int             `json:"run,omitempty"`
	Trace      *queries.JSONRun `json:"trace,omitempty"`
}

type simJSONUntil struct {
	Formula string           `json:"formula"`
	Reached bool             `json:"reached"`
	Run     *int             `json:"run,omitempty"`
	Trace   *queries.JSONRun `json:"trace,omitempty"`
}

type simJSONError struct {
	Message  string              `json:"message"`
	Run      int                 `json:"run"`
	FailMove []queries.EdgeLabel `json:"failing_move,omitempty"`
	Trace    *queries.JSONRun    `json:"trace"`
}

type simJSONDoc struct {
	Tool        string          `json:"tool"`
	Version     string          `json:"version"`
	Model       simJSONModel    `json:"model"`
	Simulation  simJSONOptions  `json:"simulation"`
	RunsTried   int             `json:"runs_tried"`
	TimedOut    bool            `json:"timed_out,omitempty"`
	StepsTried  int64           `json:"transitions_tried"`
	Results     []simJSONResult `json:"results"`
	Until       *simJSONUntil   `json:"until,omitempty"`
	Error       *simJSONError   `json:"error,omitempty"`
	ReplayError string          `json:"replay_error,omitempty"`
	ExitCode    int             `json:"exit_code"`
}

func writeSimJSON(w io.Writer, arg string, m *loadedModel, f *simFlags, o simulate.Options, res *simulate.Result, skipped []*queries.Query, code int) error {
	net := m.net
	doc := simJSONDoc{Tool: "tcheck", Version: Version, ExitCode: code, RunsTried: res.Runs, TimedOut: res.TimedOut, StepsTried: res.Steps, Results: []simJSONResult{}}
	doc.Model = simJSONModel{jsonModel: jsonModel{Name: net.Name, File: m.file.Path}, Source: arg}
	for _, p := range net.Params {
		doc.Model.Parameters = append(doc.Model.Parameters, jsonParam{p.Name, p.Value})
	}
	doc.Simulation = simJSONOptions{Strategy: o.Strategy.String(), Seed: o.Seed, Runs: o.Runs, FirstRun: o.FirstRun, Steps: o.Steps, TimeBound: o.TimeBound, Until: f.until}
	if o.Strategy == simulate.PCT {
		doc.Simulation.PCTDepth = o.PCTDepth
	}
	for _, mon := range res.Monitors {
		q := mon.Query
		r := simJSONResult{Query: q.Name, Formula: q.Src, Verdict: mon.Verdict(), Expected: q.Expect.Raw, AsExpected: mon.Matches(), Unjudged: q.Unjudged}
		if mon.Found != nil {
			run := mon.Found.Run
			r.Run = &run
			kind := "witness"
			if r.Verdict == queries.Violated {
				kind = "counterexample"
			}
			r.Trace = queries.RunJSON(net, mon.Found.Trace, kind)
		}
		doc.Results = append(doc.Results, r)
	}
	for _, q := range skipped {
		doc.Results = append(doc.Results, simJSONResult{Query: q.Name, Formula: q.Src, Verdict: queries.Unknown, Expected: q.Expect.Raw, AsExpected: true, Skipped: simulate.Monitorable(q)})
	}
	if o.Until != nil {
		u := &simJSONUntil{Formula: f.until}
		if res.Until != nil {
			run := res.Until.Run
			u.Reached, u.Run, u.Trace = true, &run, queries.RunJSON(net, res.Until.Trace, "witness")
		}
		doc.Until = u
	}
	if e := res.Error; e != nil {
		je := &simJSONError{Message: e.Err.Error(), Run: e.Run, Trace: queries.RunJSON(net, e.Trace, "error")}
		for _, ref := range e.FailMove {
			je.FailMove = append(je.FailMove, queries.Label(net, ref))
		}
		doc.Error = je
	}
	if res.ReplayErr != nil {
		doc.ReplayError = res.ReplayErr.Error()
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/tcheck/tcheck/model"
	"github.com/tcheck/tcheck/model/uppaal"
	"github.com/tcheck/tcheck/queries"
	"github.com/tcheck/tcheck/queries/msc"
	"github.com/tcheck/tcheck/queries/sweep"
	"github.com/tcheck/tcheck/zone"
)

// searchFlags are the exploration flags shared by verify, sweep and test.
type searchFlags struct {
	order        string
	extrapolate  string
	globalBounds bool
	maxStates    int64
	timeout      time.Duration
	maxMemory    string
	sets         []string
	fullZones    bool
	hull         bool
	maxInput     string
	subsumption  string
	symmetry     string
	workers      int
	cmd          *cobra.Command // to tell a --workers given from its default
}

func (f *searchFlags) register(cmd *cobra.Command) {
	f.cmd = cmd
	fl := cmd.Flags()
	fl.StringVar(&f.order, "order", "bfs", "search order: bfs (shortest traces), dfs, or ranked (bfs that explores first the successors of a zone that evicted smaller ones, FORMATS 2015: fewer states explored where bfs stores small zones first; traces need not be shortest), or progress (bfs by increasing value of the model's progress measure, its progress: expression, the sweep-line method's order: fewer states explored where a longer path brings a larger zone; traces need not be shortest), or topological (bfs by increasing sum of the processes' location numbers in a topological order of each automaton: progress without declaring a measure, a waiting strategy after FORMATS 2015; traces need not be shortest)")
	fl.StringVar(&f.extrapolate, "extrapolation", "lu+", "zone abstraction: lu+, lu, m+, m or none")
	fl.BoolVar(&f.globalBounds, "global-bounds", false, "use global instead of per-location clock bounds")
	fl.Int64Var(&f.maxStates, "max-states", 0, "stop with verdict unknown after storing this many states (0: no limit)")
	fl.DurationVar(&f.timeout, "timeout", 0, "stop checking after this long (verify: from its start, loading the model and all queries with their searches and traces; in a sweep, each point), the undecided ones unknown, e.g. 30s, 5m (0: no limit)")
	fl.StringVar(&f.maxMemory, "max-memory", "", "stop with verdict unknown above this heap size, e.g. 2GiB, 500MB")
	fl.StringArrayVar(&f.sets, "set", nil, "override a model parameter: --set name=value (repeatable)")
	fl.BoolVar(&f.fullZones, "full-zones", false, "store zones as matrices instead of minimal constraint sets (more memory, less time)")
	fl.StringVar(&f.subsumption, "subsumption", "alu", "how a stored zone covers a new one: alu (aLU subsumption, LICS 2012: used for E<> and A[] under lu/lu+ without diagonal constraints or --hull; inclusion elsewhere, as for deadlock and sup/inf) or inclusion")
	fl.StringVar(&f.maxInput, "max-input", "", "refuse model, query and sweep files larger than this, e.g. 64MiB (default 8MiB)")
	fl.StringVar(&f.symmetry, "symmetry", "on", "symmetry reduction over the model's scalar sets (FORMATS 2003): on (one state per orbit of the permutations in E<>, A[], deadlock, sup/inf and the liveness queries' graph; traces are mapped back to runs of the model) or off")
	fl.IntVar(&f.workers, "workers", runtime.GOMAXPROCS(0), "goroutines exploring each zone graph (default: the CPUs; in sweep and test, the CPUs left to each of the -j jobs). With more than 1, stored-state counts vary a little from run to run and traces need not be shortest: use --workers 1 for shortest (bfs) traces and reproducible counts")
	fl.BoolVar(&f.hull, "hull", false, "convex-hull over-approximation (UPPAAL's -A): A[] satisfied and E<> violated are decided by it, reached goals are re-checked exactly, sup/inf values become bounds (exact where the hull's exceeds 32 times the clock's bound)")
}

func (f *searchFlags) options() (queries.Options, error) {
	var o queries.Options
	order, err := zone.ParseOrder(f.order)
	if err != nil {
		return o, fmt.Errorf("--order: want bfs, dfs, ranked, progress or topological, not %q", f.order)
	}
	o.Order = order
	k, err := zone.ParseExtraKind(f.extrapolate)
	if err != nil {
		return o, fmt.Errorf("--extrapolation: %v", err)
	}
	o.Extrapolation = k
	o.GlobalBounds = f.globalBounds
	if f.subsumption != "" {
		sub, err := zone.ParseSubsumption(f.subsumption)
		if err != nil {
			return o, fmt.Errorf("--subsumption: %v", err)
		}
		o.Subsumption = sub
	}
	o.FullZones = f.fullZones
	o.Hull = f.hull
	switch f.symmetry {
	case "on":
		o.Symmetry = true
	case "off", "":
	default:
		return o, fmt.Errorf("--symmetry: want on or off, not %q", f.symmetry)
	}
	if f.workersSet() {
		if f.workers < 1 {
			return o, fmt.Errorf("--workers: %d is not a number of workers (at least 1)", f.workers)
		}
		o.Workers = f.workers
	}
	if f.maxStates < 0 {
		return o, fmt.Errorf("--max-states: %d is negative (0 means no limit)", f.maxStates)
	}
	if f.timeout < 0 {
		return o, fmt.Errorf("--timeout: %v is negative (0 means no limit)", f.timeout)
	}
	o.Limits.MaxStates = f.maxStates
	o.Limits.Timeout = f.timeout
	if f.maxMemory != "" {
		m, err := sweep.ParseBytes(f.maxMemory)
		if err != nil {
			return o, fmt.Errorf("--max-memory: %v", err)
		}
		o.Limits.MaxMemory = m
	}
	return o, setMaxInput(f.maxInput)
}

// maxInputUsage is --max-input's help: every command that reads model
// files has the flag, since the error that refuses a larger file names it.
const maxInputUsage = "refuse input files larger than this, e.g. 64MiB (default 8MiB)"

// setMaxInput sets model.MaxSourceBytes from --max-input (its default
// where s is empty).
func setMaxInput(s string) error {
	model.MaxSourceBytes.Store(model.DefaultMaxSourceBytes)
	if s == "" {
		return nil
	}
	m, err := sweep.ParseBytes(s)
	if err != nil {
		return fmt.Errorf("--max-input: %v", err)
	}
	model.MaxSourceBytes.Store(int64(m))
	return nil
}

// workersSet reports whether --workers was given; options leaves
// Options.Workers 0 otherwise, for the command to choose.
func (f *searchFlags) workersSet() bool {
	return f.cmd != nil && f.cmd.Flags().Changed("workers")
}

func (f *searchFlags) overrides() (map[string]int64, error) {
	return parseSets(f.sets)
}

func parseSets(sets []string) (map[string]int64, error) {
	m := map[string]int64{}
	for _, s := range sets {
		name, val, ok := strings.Cut(s, "=")
		name = strings.TrimSpace(name)
		if !ok || name == "" {
			return nil, fmt.Errorf("--set %q: want name=value", s)
		}
		v, err := strconv.ParseInt(strings.TrimSpace(val), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("--set %q: %q is not an integer", s, val)
		}
		m[name] = v
	}
	return m, nil
}

// loadedModel is a model file with its compiled network.
type loadedModel struct {
	file *model.File
	net  *model.Network
}

// loadModel reads a model file (or a bundled model by name) and compiles it
// with the parameter overrides.
func loadModel(path string, overrides map[string]int64) (*loadedModel, error) {
	return loadModelWith(path, overrides, model.CompileOptions{})
}

// loadModelWith is loadModel with the compilation bounded by o.
func loadModelWith(path string, overrides map[string]int64, o model.CompileOptions) (*loadedModel, error) {
	src, name, err := readModelSource(path)
	if err != nil {
		return nil, err
	}
	f, err := uppaal.ParseFile(name, src)
	if err != nil {
		return nil, err
	}
	net, err := f.CompileWith(overrides, o)
	if err != nil {
		return nil, err
	}
	return &loadedModel{file: f, net: net}, nil
}

// readModelSource reads a model file; bundledModel is consulted when no
// such file exists (or the name is a directory, as `agreement` is in a
// checkout of tcheck itself).
func readModelSource(path string) ([]byte, string, error) {
	src, err := model.ReadSource(path)
	if err == nil {
		return src, path, nil
	}
	if st, serr := os.Stat(path); errors.Is(err, os.ErrNotExist) || (serr == nil && st.IsDir()) {
		if b, name, ok := bundledModel(path); ok {
			return b, name, nil
		}
		if errors.Is(err, os.ErrNotExist) && !strings.ContainsAny(path, "/\\") {
			if best := closest(path, bundledNames()); best != "" {
				return nil, "", fmt.Errorf("%w (did you mean the bundled model %s?)", err, best)
			}
		}
	}
	return nil, "", err
}

// bundledNames lists the bundled models' names; replaced when the bundled
// models are registered.
var bundledNames = func() []string { return nil }

// bundledModel resolves a bundled model name; replaced when the bundled
// models are registered.
var bundledModel = func(name string) ([]byte, string, bool) { return nil, "", false }

// selectQueries compiles the -q arguments: names of queries in the model
// file, or formulas. With none, every query of the file.
func selectQueries(m *loadedModel, qs []string) ([]*queries.Query, error) {
	if len(qs) == 0 {
		if len(m.file.Queries) == 0 {
			return nil, fmt.Errorf("%s has no queries; give one with -q", m.file.Path)
		}
		return queries.FromFile(m.net, m.file, nil)
	}
	var out []*queries.Query
	for i, s := range qs {
		if fq := m.file.Query(s); fq != nil {
			q, err := queries.FromFile(m.net, m.file, []string{s})
			if err != nil {
				return nil, err
			}
			out = append(out, q...)
			continue
		}
		if isWord(s) {
			// a bare word is a query name, not a formula
			return nil, noSuchQuery(m.file, s)
		}
		text := model.NewText(s, model.Pos{File: fmt.Sprintf("-q[%d]", i+1), Line: 1, Col: 1})
		q, err := queries.Compile(m.net, text)
		if err != nil {
			// reported as this query's error; the others are checked
			q = &queries.Query{Src: s, Pos: text.Pos, Err: err}
		}
		out = append(out, q)
	}
	return out, nil
}

// isWord reports whether s is a bare identifier (a query name, never a
// formula: a formula starts with a quantifier such as E<> or sup).
func isWord(s string) bool {
	s = strings.TrimSpace(s)
	if s == "" {
		return false
	}
	for i, r := range s {
		if r == '_' || r == '-' && i > 0 || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9' {
			continue
		}
		return false
	}
	return true
}

// noSuchQuery says that the model has no query named name, listing those
// it has and the closest one.
func noSuchQuery(f *model.File, name string) error {
	var names []string
	for _, q := range f.Queries {
		names = append(names, q.Name)
	}
	if len(names) == 0 {
		return fmt.Errorf("no query named %s: %s has no queries (give a formula such as 'E<> P.done')", name, f.Path)
	}
	msg := fmt.Sprintf("no query named %s; %s has: %s", name, f.Path, strings.Join(names, ", "))
	if best := closest(name, names); best != "" {
		msg += fmt.Sprintf(" (did you mean %s?)", best)
	}
	return errors.New(msg)
}

// closest returns the candidate nearest to s in edit distance, if it is
// near enough to be a likely typo (at most a third of its length).
func closest(s string, candidates []string) string {
	best, bestD := "", len(s)/3+1
	for _, c := range candidates {
		if d := editDistance(strings.ToLower(s), strings.ToLower(c)); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

func init() { register(newVerifyCmd) }

func newVerifyCmd(stdout, stderr io.Writer) *cobra.Command {
	var (
		sf        searchFlags
		qs        []string
		trace     bool
		asJSON    bool
		stats     bool
		noProgess bool
		cpuProf   string
		memProf   string
		qfile     string
		traceFmt  string
		from      string
		within    int64
	)
	cmd := &cobra.Command{
		Use:   "verify MODEL [-q NAME|FORMULA]...",
		Short: "Check queries on a model",
		Long: `Check the queries of a model (all of them, or those named with -q; -q also takes a
formula such as 'E<> P.done'). MODEL is a model file (.yaml, UPPAAL .xml or .xta with the
.q file next to it) or the name of a bundled model (tcheck models list).

Exit codes: 0 every query as expected (or satisfied when no expectation is given),
1 a property violated or an expectation missed, 2 a usage or model error.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			// With --json, an error that stops everything is a JSON
			// document too, so that a machine reading stdout learns why.
			errorExit := func(code int, err error) error {
				if asJSON {
					doc := jsonDoc{Tool: "tcheck", Version: Version, Model: jsonModel{File: args[0]}, Results: []queries.JSONResult{}, ExitCode: code, Error: err.Error()}
					enc := json.NewEncoder(stdout)
					enc.SetIndent("", "  ")
					if werr := enc.Encode(doc); werr != nil {
						return werr
					}
				}
				return &exitError{code: code, err: err}
			}
			usageErr := func(err error) error { return errorExit(ExitUsage, err) }
			if err := checkTraceFormat(traceFmt, asJSON); err != nil {
				return usageErr(err)
			}
			switch traceFmt {
			case "text":
				trace = true
			case "json":
				asJSON = true
			}
			opts, err := sf.options()
			if err != nil {
				return usageErr(err)
			}
			if opts.Workers == 0 {
				opts.Workers = runtime.GOMAXPROCS(0)
			}
			ov, err := sf.overrides()
			if err != nil {
				return usageErr(err)
			}
			applyMemoryLimit(opts.Limits.MaxMemory)
			// --timeout counts from here: loading the model and compiling
			// its queries take from the searches' time
			limits := prepareLimits{maxMemory: opts.Limits.MaxMemory, timeout: opts.Limits.Timeout}
			if opts.Limits.Timeout > 0 {
				limits.deadline = time.Now().Add(opts.Limits.Timeout)
				opts.Limits.Deadline = limits.deadline
			}
			// Ctrl-C (or SIGTERM) stops the loading or the running
			// exploration: the queries answered so far are printed, the
			// others are unknown (interrupted), and the exit code is 130.
			// A second one terminates the process at once (the signals'
			// default action), should the first not be acted on soon.
			cancel := make(chan struct{})
			opts.Limits.Cancel = cancel
			limits.cancel = cancel
			sigs, stopSignals := verifySignals()
			defer stopSignals()
			var interrupted atomic.Bool
			go func() {
				if _, ok := <-sigs; ok {
					interrupted.Store(true)
					close(cancel)
					stopSignals()
				}
			}()
			type prepared struct {
				m     *loadedModel
				qlist []*queries.Query
				from  *queries.State
			}
			p, err := prepareWithin(limits, func(interrupt func() bool) (prepared, error) {
				var p prepared
				m, err := loadModelWith(args[0], ov, model.CompileOptions{Interrupt: interrupt})
				if err != nil {
					return p, err
				}
				if qfile != "" {
					src, err := model.ReadSource(qfile)
					if err != nil {
						return p, err
					}
					if err := uppaal.SetQueries(m.file, qfile, src); err != nil {
						return p, err
					}
				}
				p.m = m
				if p.qlist, err = selectQueries(m, qs); err != nil {
					return p, err
				}
				if from != "" {
					p.from, err = readFrom(m.net, from)
				}
				return p, err
			})
			if errors.Is(err, errPrepareInterrupted) {
				return errorExit(ExitInterrupted, err)
			}
			if err != nil {
				return usageErr(err)
			}
			m, qlist := p.m, p.qlist
			m.net.SetCompileInterrupt(nil)
			afterPrepare()
			if p.from != nil {
				opts.From = p.from
			}
			if cmd.Flags().Changed("within") {
				if within < 1 || within > maxWithin {
					return usageErr(fmt.Errorf("--within: %d is not a horizon (a whole number of time units from 1 to %d)", within, maxWithin))
				}
				opts.Within = int32(within)
			}
			if opts.From != nil || opts.Within > 0 {
				// the model's expectations are about its initial state
				// and unbounded runs: from another state or up to a
				// horizon, a violated property is reported as such
				// (exit 1), whatever the model expects
				for _, q := range qlist {
					q.Expect = queries.Expectation{}
				}
			}
			if changesParameters(m.file, ov) {
				// expectations written for the file's parameters do not
				// apply at others (docs/queries.md, Expectations)
				for _, q := range qlist {
					q.AtOtherParameters()
				}
			}
			if opts.Order == zone.Progress && m.net.Progress == nil {
				return usageErr(fmt.Errorf("--order progress: the model declares no progress measure (its progress: expression, docs/model-format.md)"))
			}
			// the running hint is for breadth first in text output, like
			// the hint at the end
			prog := newVerifyProgress(stderr, !noProgess, opts.Order == zone.BFS && !asJSON && !isPicture(traceFmt))
			if prog.active() {
				opts.Progress = prog.update
			}
			if cpuProf != "" {
				f, err := os.Create(cpuProf)
				if err != nil {
					return usageErr(err)
				}
				defer f.Close()
				if err := pprof.StartCPUProfile(f); err != nil {
					return usageErr(err)
				}
				defer pprof.StopCPUProfile()
			}
			if memProf != "" {
				f, err := os.Create(memProf)
				if err != nil {
					return usageErr(err)
				}
				defer f.Close()
				// the heap as the last collection during the checks saw
				// it (no collection is forced here: after the checks the
				// passed lists are garbage), with every allocation sampled
				// from here on
				runtime.MemProfileRate = 4096
				defer pprof.Lookup("heap").WriteTo(f, 0)
			}
			sys := zone.NewSystem(m.net)
			results := queries.Check(sys, qlist, opts)
			prog.clear()
			code := verdictCode(results)
			if interrupted.Load() {
				code = ExitInterrupted
			}
			if isPicture(traceFmt) {
				d := &msc.Document{Title: modelHeader(m)}
				for _, r := range results {
					d.Sections = append(d.Sections, msc.ResultSection(m.net, r))
				}
				if err := writePicture(stdout, traceFmt, d); err != nil {
					return err
				}
			} else if asJSON {
				doc := jsonDoc{Tool: "tcheck", Version: Version, Model: jsonModel{Name: m.net.Name, File: m.file.Path, Source: args[0]}, ExitCode: code, From: from, Within: int64(opts.Within)}
				for _, p := range m.net.Params {
					doc.Model.Parameters = append(doc.Model.Parameters, jsonParam{p.Name, p.Value})
				}
				for _, r := range results {
					doc.Results = append(doc.Results, queries.JSON(m.net, r, true))
				}
				enc := json.NewEncoder(stdout)
				enc.SetIndent("", "  ")
				if err := enc.Encode(doc); err != nil {
					return err
				}
			} else {
				fmt.Fprintln(stdout, modelHeader(m))
				if line := startLine(from, opts.Within); line != "" {
					fmt.Fprintln(stdout, line)
				}
				for _, r := range results {
					queries.WriteResult(stdout, m.net, r, trace, stats)
				}
				if hint := queries.OrderHint(results, opts.Order); hint != "" && !prog.hinted {
					fmt.Fprintln(stderr, hint)
				}
			}
			if code == ExitInterrupted {
				done := 0
				for _, r := range results {
					if r.Reason != zone.Canceled {
						done++
					}
				}
				return &exitError{code: code, err: fmt.Errorf("interrupted: %d of %d queries answered", done, len(results))}
			}
			if code != ExitOK {
				return &exitError{code: code, err: errors.New("")}
			}
			return nil
		},
	}
	sf.register(cmd)
	fl := cmd.Flags()
	fl.StringArrayVarP(&qs, "query", "q", nil, "a query name from the model, or a formula (repeatable)")
	fl.BoolVar(&trace, "trace", false, "print the witness or counterexample traces")
	fl.BoolVar(&asJSON, "json", false, "print the results as one JSON document (schema: docs/verify.schema.json)")
	fl.BoolVar(&stats, "stats", false, "print exploration statistics")
	fl.BoolVar(&noProgess, "no-progress", false, "do not print progress on stderr")
	fl.StringVar(&cpuProf, "cpuprofile", "", "write a CPU profile (go tool pprof) to this file")
	fl.StringVar(&memProf, "memprofile", "", "write a heap profile (go tool pprof) of the live heap at the last collection during the checks to this file")
	fl.StringVar(&qfile, "queries", "", "take the queries from this UPPAAL .q file instead of the model's")
	fl.StringVar(&traceFmt, "trace-format", "", "print the traces: text (as --trace), json (as --json), svg or html (a message sequence chart of every trace, as the only output)")
	fl.StringVar(&from, "from", "", "check from this state instead of the initial one: a JSON state document (docs/state.schema.json) or a step of a JSON trace, TRACE.json#N (TRACE.json#QUERY:N when it holds several)")
	fl.Int64Var(&within, "within", 0, "explore only the runs of at most this many time units from the start: the verdicts speak about that horizon")
	return cmd
}

// modelHeader is the first line of the text output: the model, its file
// and its parameters.
func modelHeader(m *loadedModel) string {
	head := fmt.Sprintf("model %s (%s)", m.net.Name, m.file.Path)
	if len(m.net.Params) > 0 {
		var ps []string
		for _, p := range m.net.Params {
			ps = append(ps, fmt.Sprintf("%s=%d", p.Name, p.Value))
		}
		head += ", " + strings.Join(ps, " ")
	}
	return head
}

// maxWithin is the largest --within: a clock constant.
const maxWithin = 1 << 28

// readFrom reads the state of --from: a state document, or FILE#N (or
// FILE#QUERY:N), step N of a trace in a JSON document.
func readFrom(net *model.Network, arg string) (*queries.State, error) {
	path, sel := arg, ""
	if i := strings.LastIndexByte(arg, '#'); i >= 0 {
		if _, err := os.Stat(arg); err != nil {
			path, sel = arg[:i], arg[i+1:]
		}
	}
	src, err := model.ReadSource(path)
	if err != nil {
		return nil, fmt.Errorf("--from: %w", err)
	}
	if sel != "" {
		return queries.ReadTraceState(net, path, src, sel)
	}
	return queries.ReadState(net, path, src)
}

// startLine says where the exploration starts and how far it looks, for
// the text output ("" for the initial state without a horizon).
func startLine(from string, within int32) string {
	var parts []string
	if from != "" {
		parts = append(parts, "from the state "+from)
	}
	if within > 0 {
		parts = append(parts, fmt.Sprintf("within %d time units: the verdicts speak about runs of at most %d time units", within, within))
	}
	if len(parts) == 0 {
		return ""
	}
	return strings.Join(parts, ", ")
}

// changesParameters reports whether the --set values differ from the
// model file's own (a --set that repeats a file's value changes nothing).
func changesParameters(f *model.File, ov map[string]int64) bool {
	for _, p := range f.Params {
		if v, ok := ov[p.Name]; ok && v != p.Value {
			return true
		}
	}
	return false
}

// verifySignals delivers SIGINT and SIGTERM to verify; tests replace it.
var verifySignals = func() (<-chan os.Signal, func()) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	return ch, func() { signal.Stop(ch) }
}

// verdictCode maps results to the exit code: 2 when the model raised a
// runtime error, 1 when a result misses its expectation (or, without one, is
// not satisfied), else 0.
func verdictCode(results []*queries.Result) int {
	code := ExitOK
	for _, r := range results {
		if r.Verdict == queries.Error {
			return ExitUsage
		}
		if !r.Matches() || (!r.Query.Expect.Given && r.Query.Unjudged == "" && r.Verdict == queries.Violated) {
			code = ExitViolated
		}
	}
	return code
}

type jsonParam struct {
	Name  string `json:"name"`
	Value int64  `json:"value"`
}

type jsonModel struct {
	Name string `json:"name"`
	File string `json:"file"`
	// Source is the MODEL argument as given (a path or a bundled model's
	// name), so that tcheck replay finds the model again.
	Source     string      `json:"source,omitempty"`
	Parameters []jsonParam `json:"parameters"`
}

type jsonDoc struct {
	Tool    string    `json:"tool"`
	Version string    `json:"version"`
	Model   jsonModel `json:"model"`
	// From and Within are verify --from and --within: the verdicts speak
	// about the runs from that state, up to that horizon.
	From     string               `json:"from,omitempty"`
	Within   int64                `json:"within,omitempty"`
	Results  []queries.JSONResult `json:"results"`
	ExitCode int                  `json:"exit_code"`
	Error    string               `json:"error,omitempty"`
}

func usageErr(err error) error { return &exitError{code: ExitUsage, err: err} }

// prepareLimits are the limits that bound loading a model and compiling
// its queries: --max-memory, the --timeout counted from the command's
// start (zero: none) and Ctrl-C (nil: never).
type prepareLimits struct {
	maxMemory uint64
	deadline  time.Time
	timeout   time.Duration // as given, for the message
	cancel    <-chan struct{}
}

// errPrepareInterrupted is prepareWithin's error when cancel was closed.
var errPrepareInterrupted = errors.New("interrupted while loading the model")

// prepareHeap measures the heap for prepareWithin; tests replace it.
var prepareHeap = zone.HeapBytes

// afterPrepare is called once verify has loaded the model and compiled
// its queries; tests replace it, to interrupt the exploration.
var afterPrepare = func() {}

// prepareWithin runs prepare (loading a model, compiling its queries) and
// watches the heap, the clock and cancel meanwhile: past a limit it gives
// up with an error, so that --max-memory, --timeout and Ctrl-C cover
// loading and compiling as well as exploring (a compilation whose time or
// memory grows faster than its input, bounded only by the compiler's own
// caps, once ran past both for minutes: docs/results.md). prepare is
// given an interrupt for its compilations (model.CompileOptions), which
// fires once prepareWithin has given up, so that the abandoned
// preparation stops at its compiler's next poll (reading the input is not
// polled: --max-input bounds it).
func prepareWithin[T any](l prepareLimits, prepare func(interrupt func() bool) (T, error)) (T, error) {
	var zero T
	if l.maxMemory == 0 && l.deadline.IsZero() && l.cancel == nil {
		return prepare(nil)
	}
	type result struct {
		v   T
		err error
	}
	var abandoned atomic.Bool
	done := make(chan result, 1)
	go func() {
		v, err := prepare(abandoned.Load)
		done <- result{v, err}
	}()
	// once given up, or done: a network prepared keeps the interrupt for
	// the queries compiled against it later, until its caller lifts it
	// (SetCompileInterrupt)
	defer abandoned.Store(true)
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	var expire <-chan time.Time
	if !l.deadline.IsZero() {
		t := time.NewTimer(time.Until(l.deadline))
		defer t.Stop()
		expire = t.C
	}
	for {
		select {
		case r := <-done:
			return r.v, r.err
		case <-l.cancel:
			return zero, errPrepareInterrupted
		case <-expire:
			return zero, fmt.Errorf("time limit %v reached while loading the model and compiling its queries", l.timeout)
		case <-tick.C:
			if l.maxMemory > 0 && prepareHeap() > l.maxMemory {
				return zero, fmt.Errorf("memory limit %s reached while loading the model and compiling its queries", model.FormatBytes(int64(l.maxMemory)))
			}
		}
	}
}

// applyMemoryLimit makes the garbage collector work harder as the heap
// approaches limit (0: none), so that a --max-memory limit is reached by
// live states, not by garbage the collector has not yet freed.
func applyMemoryLimit(limit uint64) {
	if limit > 0 {
		debug.SetMemoryLimit(int64(limit))
	}
}

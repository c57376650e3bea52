package cli

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"github.com/tcheck/tcheck/model"
	"github.com/tcheck/tcheck/model/uppaal"
	"github.com/tcheck/tcheck/queries/sweep"
	sweepplot "github.com/tcheck/tcheck/queries/sweep/plot"
)

// ExitInterrupted is the exit code of a sweep stopped by Ctrl-C (SIGINT) or
// SIGTERM: 128 + SIGINT, as shells report it. The finished points are in
// the result files.
const ExitInterrupted = 130

func init() { register(newSweepCmd) }

// plotFlags are the --plot options shared by sweep and sweep merge.
type plotFlags struct {
	file, x, y, overlay, where, title string
	series                            []string
}

func (p *plotFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&p.file, "plot", "", "draw a plot into this file (.svg, .png or .pdf)")
	fl.StringVar(&p.x, "plot-x", "", "the parameter on the x axis (default: the last swept parameter that varies)")
	fl.StringVar(&p.y, "plot-y", "", "what to plot: worst-time (the first sup query), states, time, memory or a query name (default: worst-time if there is a sup query, else states)")
	fl.StringSliceVar(&p.series, "plot-series", nil, "parameters whose values make separate lines (default: the other parameters that vary)")
	fl.StringVar(&p.overlay, "plot-overlay", "", "an expression over the model's parameters and constants drawn dashed for comparison, e.g. T or U")
	fl.StringVar(&p.where, "plot-where", "", "plot only the points where this condition on the parameters holds")
	fl.StringVar(&p.title, "plot-title", "", "the plot's title (default: model and query)")
}

// outFlags are the output options shared by sweep and sweep merge.
type outFlags struct {
	format, out string
	stable      bool
}

func (o *outFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&o.format, "format", "table", "output format: table, csv, json or jsonl")
	fl.StringVarP(&o.out, "out", "o", "", "write the results to this file instead of standard output (jsonl files are written as points finish)")
	fl.BoolVar(&o.stable, "stable", false, "omit time and memory, so that the output is the same from run to run")
}

// check validates --format; when it is not given and --out names a file,
// the file's extension chooses the format (.jsonl, .json, .csv; anything
// else is the table), as export does, so that `-o results.jsonl` writes
// what `sweep merge` and `--resume` read.
func (o *outFlags) check(cmd *cobra.Command) error {
	if !cmd.Flags().Changed("format") && o.out != "" {
		switch strings.ToLower(filepath.Ext(o.out)) {
		case ".jsonl":
			o.format = "jsonl"
		case ".json":
			o.format = "json"
		case ".csv":
			o.format = "csv"
		default:
			o.format = "table"
		}
	}
	for _, f := range sweep.Formats {
		if f == o.format {
			return nil
		}
	}
	return fmt.Errorf("--format %q: want %s", o.format, strings.Join(sweep.Formats, ", "))
}

func newSweepCmd(stdout, stderr io.Writer) *cobra.Command {
	var (
		sf         searchFlags
		of         outFlags
		pf         plotFlags
		qs         []string
		grid       []string
		where      string
		jobs       int
		resume     string
		costs      string
		shard      string
		noProgress bool
	)
	cmd := &cobra.Command{
		Use:   "sweep MODEL|FILE.sweep.yaml [-q QUERY]... [--grid NAME=VALUES]...",
		Short: "Check queries over a grid of parameter values",
		Long: `Check a model's queries at every point of a grid of parameter values, each point in its
own exploration with its own limits, in parallel. MODEL is a model file or the name of a
bundled model; FILE.sweep.yaml is a sweep file (model, queries, grid, where, expectations,
options). Reference: docs/sweep.md.

  tcheck sweep timeout --grid c1=1 --grid c2=1..2 --grid d=0..5 \
      -q A2 -q 'detection=sup{Process.halted && !has_halted && !Observer.halted}: Process.x' \
      --plot delay.svg --plot-overlay T

Exit codes: 0 every point as expected (no model errors), 1 an expectation of the sweep
missed, 2 a usage or model error, 130 interrupted (the finished points are kept in the
--out jsonl or --resume file).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := of.check(cmd); err != nil {
				return usageErr(err)
			}
			if samePath(of.out, resume) && of.format != "jsonl" {
				return usageErr(fmt.Errorf("--out %s is the --resume file: use --format jsonl, or another --out", of.out))
			}
			spec, err := sweepSpec(cmd, args[0], &sf, qs, grid, where)
			if err != nil {
				return usageErr(err)
			}
			all, err := spec.Points()
			if err != nil {
				return usageErr(err)
			}
			sh, err := parseShardFlag(shard)
			if err != nil {
				return usageErr(err)
			}
			var points []sweep.Point
			for _, p := range all {
				if sh.Contains(p.Index) {
					points = append(points, p)
				}
			}
			if costs != "" {
				c, err := sweep.ReadCosts(costs)
				if err != nil {
					return usageErr(fmt.Errorf("--costs %v", err))
				}
				var known int
				points, known = c.Order(points)
				fmt.Fprintf(stderr, "costs: %d of %d points have a cost (%s) in %s: starting the others first, then the costliest\n", known, len(points), c.Unit, costs)
			}
			h := sweep.Header{Tool: "tcheck", Version: Version, Sweep: spec.JSON(len(all))}
			if !sh.IsZero() {
				h.Shard = &sweep.ShardRef{Index: sh.Index, Count: sh.Count}
			}
			applyMemoryLimit(spec.Options.Limits.MaxMemory)
			if jobs == 0 && spec.Options.Workers > 0 {
				// --workers without -j: the cores left to that many
				jobs = max(1, runtime.NumCPU()/spec.Options.Workers)
			}
			r := &sweepRun{spec: spec, header: h, points: points, jobs: jobs, stdout: stdout, stderr: stderr, of: of}
			if !noProgress && isTerminal(stderr) {
				r.progress = true
			}
			return r.run(cmd.Context(), resume, &pf)
		},
	}
	sf.register(cmd)
	of.register(cmd)
	pf.register(cmd)
	fl := cmd.Flags()
	fl.StringArrayVarP(&qs, "query", "q", nil, "a query of the model by name, name=formula, or a formula (repeatable; default: all of the model's)")
	fl.StringArrayVar(&grid, "grid", nil, "a swept parameter: name=values, values like 1,9 or 0..5 or 0..50/10 (repeatable; the first varies slowest)")
	fl.StringVar(&where, "where", "", "keep only the points where this condition on the parameters holds, e.g. 'c1 <= c2'")
	fl.IntVarP(&jobs, "jobs", "j", 0, "points checked at the same time (default: the number of CPUs, divided by --workers when given)")
	fl.StringVar(&resume, "resume", "", "a jsonl results file: skip the points it holds and append the new ones to it (created if missing)")
	fl.StringVar(&costs, "costs", "", "an earlier run's result file (jsonl or json): start the points it took longest on first, so that no long point runs alone at the end (the points it lacks start before them); results are the same")
	fl.StringVar(&shard, "shard", "", "run one slice of the grid: i/n (0 <= i < n), auto (index from JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID, count from TCHECK_SHARDS or SLURM_ARRAY_TASK_COUNT) or auto/n")
	fl.BoolVar(&noProgress, "no-progress", false, "do not show the progress bar (shown only on terminals)")
	cmd.AddCommand(newSweepMergeCmd(stdout, stderr))
	return cmd
}

// sweepSpec builds the sweep from a sweep file or from the flags.
func sweepSpec(cmd *cobra.Command, arg string, sf *searchFlags, qs, grid []string, where string) (*sweep.Spec, error) {
	opts, err := sf.options()
	if err != nil {
		return nil, err
	}
	if sweep.IsSweepFile(arg) {
		for _, f := range []string{"query", "grid", "set"} {
			if cmd.Flags().Changed(f) {
				return nil, fmt.Errorf("--%s: give it in the sweep file %s", f, arg)
			}
		}
		src, err := model.ReadSource(arg)
		if err != nil {
			return nil, err
		}
		spec, err := sweep.ParseFile(arg, src, resolveSweepModel)
		if err != nil {
			return nil, err
		}
		// --where narrows the file's points.
		if err := spec.Narrow(where); err != nil {
			return nil, err
		}
		// Flags given explicitly override the file's options.
		o := &spec.Options
		fl := cmd.Flags()
		if fl.Changed("order") {
			o.Order = opts.Order
		}
		if fl.Changed("extrapolation") {
			o.Extrapolation = opts.Extrapolation
		}
		if fl.Changed("global-bounds") {
			o.GlobalBounds = opts.GlobalBounds
		}
		if fl.Changed("full-zones") {
			o.FullZones = opts.FullZones
		}
		if fl.Changed("hull") {
			o.Hull = opts.Hull
		}
		if fl.Changed("max-states") {
			o.Limits.MaxStates = opts.Limits.MaxStates
		}
		if fl.Changed("timeout") {
			o.Limits.Timeout = opts.Limits.Timeout
		}
		if fl.Changed("max-memory") {
			o.Limits.MaxMemory = opts.Limits.MaxMemory
		}
		o.Subsumption = opts.Subsumption // the flag's default included: sweep files have no key for it
		o.NoSymmetry = !opts.Symmetry    // likewise
		o.Workers = opts.Workers
		return spec, nil
	}
	ms, err := resolveSweepModel(arg, "")
	if err != nil {
		return nil, err
	}
	var g sweep.Block
	for _, s := range grid {
		a, err := sweep.ParseAxis(s)
		if err != nil {
			return nil, err
		}
		g = append(g, a)
	}
	if len(g) == 0 {
		return nil, fmt.Errorf("no grid: give parameters to sweep with --grid name=values (or a sweep file)")
	}
	ov, err := sf.overrides()
	if err != nil {
		return nil, err
	}
	// --set in name order (the flags' order is not kept by parseSets).
	var set []sweep.Param
	for name, v := range ov {
		set = append(set, sweep.Param{Name: name, Value: v})
	}
	sort.Slice(set, func(i, j int) bool { return set[i].Name < set[j].Name })
	return sweep.New(sweep.Args{
		Model: ms, Queries: qs, Grid: sweep.Grid{g}, Where: where, Set: set,
		Options: sweep.Options{Order: opts.Order, Extrapolation: opts.Extrapolation, GlobalBounds: opts.GlobalBounds, FullZones: opts.FullZones, Hull: opts.Hull, Subsumption: opts.Subsumption, Limits: opts.Limits, Workers: opts.Workers, NoSymmetry: !opts.Symmetry},
	})
}

// parseModelFile parses the models of sweeps, sweep merges and tcheck
// test: the parser verify's loadModel uses (tcheck YAML, UPPAAL XML, XTA).
var parseModelFile = uppaal.ParseFile

// resolveSweepModel finds a model referenced by a sweep: a file relative
// to the sweep file's directory dir, a file relative to the working
// directory, or a bundled model's name (as verify resolves MODEL).
func resolveSweepModel(ref, dir string) (sweep.ModelSource, error) {
	var cands []string
	if dir != "" && !filepath.IsAbs(ref) {
		cands = append(cands, filepath.Join(dir, ref))
	}
	cands = append(cands, ref)
	for _, p := range cands {
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			src, name, err := readModelSource(p)
			if err != nil {
				return sweep.ModelSource{}, err
			}
			return sweep.ModelSource{Ref: ref, Name: name, Src: src, Parse: parseModelFile}, nil
		}
	}
	if src, name, ok := bundledModel(ref); ok {
		return sweep.ModelSource{Ref: ref, Name: name, Src: src, Parse: parseModelFile}, nil
	}
	_, _, err := readModelSource(ref)
	if err == nil {
		err = fmt.Errorf("%s is not a model file", ref)
	}
	return sweep.ModelSource{}, err
}

func parseShardFlag(s string) (sweep.Shard, error) {
	switch {
	case s == "":
		return sweep.Shard{}, nil
	case s == "auto":
		return sweep.ShardFromEnv(os.Getenv, 0)
	case strings.HasPrefix(s, "auto/"):
		var n int
		if _, err := fmt.Sscanf(strings.TrimPrefix(s, "auto/"), "%d", &n); err != nil || n < 1 {
			return sweep.Shard{}, fmt.Errorf("--shard %q: want auto/N with N >= 1", s)
		}
		return sweep.ShardFromEnv(os.Getenv, n)
	}
	return sweep.ParseShard(s)
}

// sweepRun is one execution of tcheck sweep.
type sweepRun struct {
	spec     *sweep.Spec
	header   sweep.Header
	points   []sweep.Point // this run's points (the shard's)
	jobs     int
	stdout   io.Writer
	stderr   io.Writer
	of       outFlags
	progress bool
	// interrupt, when set, replaces the signal handling (tests).
	interrupt <-chan os.Signal
}

func (r *sweepRun) run(parent context.Context, resume string, pf *plotFlags) error {
	if parent == nil {
		parent = context.Background()
	}
	total := len(r.points)
	files := sweep.Files{Resume: resume, Write: sweep.WriteOptions{Stable: r.of.stable}}
	if r.of.format == "jsonl" {
		files.Out = r.of.out
	}
	sess, err := sweep.OpenSession(r.spec, r.header, r.points, files)
	if err != nil {
		if fe := (*sweep.FileError)(nil); errors.As(err, &fe) {
			err = fmt.Errorf("--resume %v", err)
		}
		return usageErr(err)
	}
	defer sess.Close()
	if len(sess.Done) > 0 {
		fmt.Fprintf(r.stderr, "resuming: %d of %d points already done in %s\n", len(sess.Done), total, resume)
	}

	// Signals: the first stops starting points and waits for the running
	// ones, the second abandons them.
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	stop := make(chan struct{})
	sigs := r.interrupt
	if sigs == nil {
		ch := make(chan os.Signal, 2)
		signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
		defer signal.Stop(ch)
		sigs = ch
	}
	var (
		mu          sync.Mutex
		running     int
		interrupted bool
	)
	bar := r.newBar(len(sess.Todo))
	quit := make(chan struct{})
	defer close(quit)
	go func() {
		n := 0
		for {
			select {
			case <-sigs:
				n++
				mu.Lock()
				interrupted = true
				rn := running
				mu.Unlock()
				if n == 1 {
					close(stop)
					r.clearBar(bar)
					fmt.Fprintf(r.stderr, "\ninterrupted: waiting for %d running points (interrupt again to stop at once)\n", rn)
				} else {
					cancel()
					return
				}
			case <-quit:
				return
			}
		}
	}()
	if bar != nil {
		go func() {
			t := time.NewTicker(time.Second)
			defer t.Stop()
			for {
				select {
				case <-t.C:
					bar.Add(0)
				case <-quit:
					return
				}
			}
		}()
	}
	opts := sweep.RunOptions{
		Jobs: r.jobs,
		Stop: stop,
		OnStart: func(p sweep.Point) {
			mu.Lock()
			running++
			rn := running
			mu.Unlock()
			if bar != nil {
				bar.Describe(fmt.Sprintf("sweep: %d running", rn))
			}
		},
		OnDone: func(p *sweep.PointResult) {
			mu.Lock()
			running--
			rn := running
			mu.Unlock()
			if bar != nil {
				bar.Describe(fmt.Sprintf("sweep: %d running", rn))
				bar.Add(1)
			}
		},
	}
	all, err := sess.Run(ctx, opts)
	r.clearBar(bar)
	mu.Lock()
	wasInterrupted := interrupted
	mu.Unlock()
	if err != nil {
		return err
	}
	if err := r.output(all, total); err != nil {
		return err
	}
	if pf.file != "" && len(all) > 0 {
		if err := drawPlot(pf, &r.header.Sweep, r.spec.ModelFile, all); err != nil {
			return usageErr(err)
		}
	}
	if wasInterrupted {
		msg := fmt.Sprintf("interrupted: %d of %d points done", len(all), total)
		if fs := sess.Files(); len(fs) > 0 {
			msg += fmt.Sprintf("; resume with --resume %s", fs[len(fs)-1])
		}
		return &exitError{code: ExitInterrupted, err: errors.New(msg)}
	}
	return sweepExit(all)
}

// output writes the results in the chosen format to --out or stdout
// (a jsonl --out file is a result file of the run, already written).
func (r *sweepRun) output(all []*sweep.PointResult, total int) error {
	wo := sweep.WriteOptions{Stable: r.of.stable}
	switch {
	case r.of.out == "":
		if err := sweep.Write(r.stdout, r.of.format, r.header, all, total, wo); err != nil {
			return err
		}
	case r.of.format == "jsonl":
		// Written as a result file of the run.
	default:
		if err := sweep.WriteFile(r.of.out, r.of.format, r.header, all, total, wo); err != nil {
			return err
		}
	}
	if r.of.format != "table" || r.of.out != "" {
		fmt.Fprintln(r.stderr, sweep.Summarise(all, total))
	}
	if hint := sweep.OrderHint(all, r.header.Sweep.Options.Order); hint != "" {
		fmt.Fprintln(r.stderr, hint)
	}
	return nil
}

// sweepExit maps point statuses to the exit code.
func sweepExit(all []*sweep.PointResult) error {
	code := ExitOK
	for _, p := range all {
		switch p.Status() {
		case "error":
			return &exitError{code: ExitUsage, err: errors.New("model errors at some points (see the note column)")}
		case "missed":
			code = ExitViolated
		}
	}
	if code != ExitOK {
		return &exitError{code: code, err: errors.New("")}
	}
	return nil
}

// samePath reports whether a and b name the same file (both non-empty).
func samePath(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	aa, err1 := filepath.Abs(a)
	bb, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && aa == bb
}

func (r *sweepRun) newBar(n int) *progressbar.ProgressBar {
	if !r.progress {
		return nil
	}
	return newBar(r.stderr, n, "points", "sweep: 0 running")
}

func (r *sweepRun) clearBar(bar *progressbar.ProgressBar) {
	if bar != nil {
		bar.Clear()
	}
}

// drawPlot draws the --plot file; model compiles the overlay.
func drawPlot(pf *plotFlags, s *sweep.SpecJSON, m *model.File, all []*sweep.PointResult) error {
	var overlay sweep.OverlayFunc
	if pf.overlay != "" {
		var err error
		if overlay, err = sweep.ModelOverlay(m, s.Set, pf.overlay); err != nil {
			return fmt.Errorf("--plot-overlay %v", err)
		}
	}
	d, err := sweep.Plot(s, all, sweep.PlotOptions{X: pf.x, Y: pf.y, Series: pf.series, Where: pf.where, Overlay: pf.overlay}, overlay)
	if err != nil {
		return err
	}
	title := pf.title
	if title == "" {
		title = fmt.Sprintf("%s: %s", s.ModelName, d.YLabel)
	}
	return sweepplot.Save(pf.file, d, title)
}

func newSweepMergeCmd(stdout, stderr io.Writer) *cobra.Command {
	var (
		of      outFlags
		pf      plotFlags
		partial bool
	)
	cmd := &cobra.Command{
		Use:   "merge FILE...",
		Short: "Join the result files of sweep shards into one result",
		Long: `Join result files (--format jsonl or json) of the shards of one sweep into the result a
single run of the whole sweep prints: the same points in the same order, in any format.
The files must come from the same sweep (same model, queries, grid and options); every
point must be present, in one file only, unless --partial allows points to be missing.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := of.check(cmd); err != nil {
				return usageErr(err)
			}
			h, all, err := sweep.MergeFiles(args, sweep.MergeOptions{Partial: partial})
			if me := (*sweep.MissingError)(nil); errors.As(err, &me) {
				err = fmt.Errorf("%v; give every shard's file, or --partial", me)
			}
			if err != nil {
				return usageErr(err)
			}
			r := &sweepRun{header: h, stdout: stdout, stderr: stderr, of: of}
			if of.format == "jsonl" && of.out != "" {
				if err := sweep.WriteFile(of.out, "jsonl", h, all, h.Sweep.Points, sweep.WriteOptions{Stable: of.stable}); err != nil {
					return err
				}
			}
			if err := r.output(all, h.Sweep.Points); err != nil {
				return err
			}
			if pf.file != "" {
				var m *model.File
				if pf.overlay != "" {
					if m, err = mergedModel(&h.Sweep); err != nil {
						return usageErr(err)
					}
				}
				if err := drawPlot(&pf, &h.Sweep, m, all); err != nil {
					return usageErr(err)
				}
			}
			return sweepExit(all)
		},
	}
	of.register(cmd)
	pf.register(cmd)
	cmd.Flags().BoolVar(&partial, "partial", false, "allow points to be missing (the summary says how many)")
	return cmd
}

// mergedModel finds the model of merged results, for plot overlays: the
// reference as written, relative to the sweep file or the working
// directory, or a bundled model; its digest must match the results'.
func mergedModel(s *sweep.SpecJSON) (*model.File, error) {
	dir := ""
	if s.File != "" {
		dir = filepath.Dir(s.File)
	}
	ms, err := resolveSweepModel(s.Model, dir)
	if err != nil {
		return nil, fmt.Errorf("--plot-overlay needs the model %s: %v", s.Model, err)
	}
	sum := sha256.Sum256(ms.Src)
	if hex.EncodeToString(sum[:]) != s.ModelSHA256 {
		return nil, fmt.Errorf("--plot-overlay: model %s has changed since the sweep ran", s.Model)
	}
	return parseModelFile(ms.Name, ms.Src)
}

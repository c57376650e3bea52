package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"regexp"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/tcheck/tcheck/queries/regress"
	"github.com/tcheck/tcheck/queries/sweep"
)

func init() { register(newTestCmd) }

func newTestCmd(stdout, stderr io.Writer) *cobra.Command {
	var (
		sf      searchFlags
		runRE   string
		junit   string
		asJSON  bool
		update  bool
		verbose bool
		jobs    int
	)
	cmd := &cobra.Command{
		Use:   "test [PATH]...",
		Short: "Check the expectations of model and sweep files, like go test",
		Long: `Find model files (*.yaml with queries) and sweep files (*.sweep.yaml) under the paths
(directories are searched recursively; default: the current directory), check every query
that has an expect: value (satisfied, violated, sup/inf values, max-states), and report
like go test: one line per file, details (expected, got, the trace) for failures only, and
a closing line "N passed, N failed". Reference: docs/sweep.md.

Flags can be written as in go test (-run, -v, -json, -update) or with two dashes.

Exit codes: 0 every expectation met, 1 some missed, 2 a model error (a file that does not
load, or a model runtime error).`,
		// Flags are parsed in RunE so that go test's single-dash spellings
		// (-run REGEX) work.
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := cmd.Flags().Parse(goTestFlags(cmd, args)); err != nil {
				return usageErr(err)
			}
			if help, _ := cmd.Flags().GetBool("help"); help {
				return cmd.Help()
			}
			args = cmd.Flags().Args()
			opts, err := sf.options()
			if err != nil {
				return usageErr(err)
			}
			applyMemoryLimit(opts.Limits.MaxMemory)
			o := regress.Options{
				Check:   sweep.Options{Order: opts.Order, Extrapolation: opts.Extrapolation, GlobalBounds: opts.GlobalBounds, FullZones: opts.FullZones, Hull: opts.Hull, Subsumption: opts.Subsumption, Limits: opts.Limits, Workers: opts.Workers, NoSymmetry: !opts.Symmetry},
				Jobs:    jobs,
				Resolve: resolveSweepModel,
				Parse:   parseModelFile,
				Expand:  expandMutant,
			}
			if o.Jobs <= 0 {
				// the CPUs, or the CPUs left to each --workers
				o.Jobs = max(1, runtime.NumCPU()/max(opts.Workers, 1))
			}
			if runRE != "" {
				if o.Run, err = regexp.Compile(runRE); err != nil {
					return usageErr(fmt.Errorf("-run: %v", err))
				}
			}
			if len(args) == 0 {
				args = []string{"."}
			}
			files, err := regress.Discover(args)
			if err != nil {
				return usageErr(err)
			}
			ctx, stop := testSignals(cmdContext(cmd))
			defer stop()
			// after the first Ctrl-C (or SIGTERM), which cancels ctx, a
			// second terminates the process at once (the default action)
			go func() { <-ctx.Done(); stop() }()
			start := time.Now()
			ro := regress.ReportOptions{Verbose: verbose}
			results := regress.Check(ctx, files, o, func(r *regress.FileResult) {
				if update {
					n, skipped, err := regress.Update(r)
					if err != nil {
						fmt.Fprintf(stderr, "tcheck: --update %s: %v\n", r.Path, err)
					}
					for _, s := range skipped {
						fmt.Fprintf(stderr, "tcheck: --update %s: %s\n", r.Path, s)
					}
					r.Updated = n
				}
				if !asJSON {
					regress.WriteFile(stdout, r, ro)
				}
			})
			t := regress.Total(results)
			code := ExitOK
			switch {
			case t.Interrupted > 0:
				code = ExitInterrupted
			case t.Errors > 0:
				code = ExitUsage
			case t.Failed > 0:
				code = ExitViolated
			}
			if update {
				// Updated files now meet their expectations where an answer
				// could be written; report what the files say now.
				code = ExitOK
				for _, r := range results {
					for _, c := range r.Cases {
						if c.Status == regress.Error {
							code = ExitUsage
						}
					}
				}
			}
			if junit != "" {
				if err := sweep.WriteFileAtomic(junit, func(w io.Writer) error {
					host, _ := os.Hostname()
					return regress.WriteJUnit(w, results, regress.JUnitOptions{Hostname: host, Timestamp: start})
				}); err != nil {
					return usageErr(err)
				}
			}
			if asJSON {
				if err := regress.EncodeJSON(stdout, regress.JSON(results, Version, code)); err != nil {
					return err
				}
			} else {
				if len(files) == 0 {
					fmt.Fprintln(stdout, "no model or sweep files found")
				}
				regress.WriteSummary(stdout, t)
			}
			if code != ExitOK {
				return &exitError{code: code, err: errors.New("")}
			}
			return nil
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&sf.order, "order", "bfs", "search order: bfs, dfs, ranked, progress or topological")
	fl.StringVar(&sf.extrapolate, "extrapolation", "lu+", "zone abstraction: lu+, lu, m+, m or none")
	fl.BoolVar(&sf.globalBounds, "global-bounds", false, "use global instead of per-location clock bounds")
	fl.Int64Var(&sf.maxStates, "max-states", 0, "a query whose exploration stores more states fails as unknown (0: no limit)")
	fl.DurationVar(&sf.timeout, "timeout", 0, "the queries of a model (of a sweep point) still undecided after this long fail as unknown, e.g. 30s (0: no limit)")
	fl.StringVar(&sf.maxMemory, "max-memory", "", "stop a model's compilation or exploration above this heap size (the process's, shared by the -j files), e.g. 2GiB")
	fl.BoolVar(&sf.fullZones, "full-zones", false, "store zones as matrices instead of minimal constraint sets (more memory, less time)")
	fl.StringVar(&sf.subsumption, "subsumption", "alu", "how a stored zone covers a new one: alu (aLU subsumption where sound: E<> and A[] under lu/lu+) or inclusion")
	fl.BoolVar(&sf.hull, "hull", false, "convex-hull over-approximation, as in verify: A[] satisfied and E<> violated are decided by it, reached goals are re-checked exactly, sup/inf values become bounds (exact where the hull's exceeds 32 times the clock's bound)")
	fl.StringVar(&sf.symmetry, "symmetry", "on", "symmetry reduction over the models' scalar sets, as in verify: on or off")
	fl.StringVar(&sf.maxInput, "max-input", "", "refuse model and sweep files larger than this, e.g. 64MiB (default 8MiB)")
	fl.IntVar(&sf.workers, "workers", 1, "goroutines exploring each zone graph (default: the CPUs left to each of the -j files, 1 with the default -j)")
	sf.cmd = cmd
	fl.StringVar(&runRE, "run", "", "check only the queries whose name matches this regular expression")
	fl.StringVar(&junit, "junit", "", "also write a JUnit XML report to this file")
	fl.BoolVar(&asJSON, "json", false, "print the report as JSON")
	fl.BoolVar(&update, "update", false, "rewrite the expect: values of failing queries in model files from the current answers")
	fl.BoolVarP(&verbose, "verbose", "v", false, "list every query, not only failures")
	fl.IntVarP(&jobs, "jobs", "j", 0, "files (and sweep points) checked at the same time (default: the number of CPUs, divided by --workers when given)")
	return cmd
}

// goTestFlags rewrites single-dash long flags (-run, -json=true) to the
// double-dash form pflag parses, up to a "--".
func goTestFlags(cmd *cobra.Command, args []string) []string {
	out := make([]string, 0, len(args))
	for i, a := range args {
		if a == "--" {
			return append(out, args[i:]...)
		}
		if len(a) > 2 && a[0] == '-' && a[1] != '-' {
			name, _, _ := strings.Cut(a[1:], "=")
			if cmd.Flags().Lookup(name) != nil {
				a = "-" + a
			}
		}
		out = append(out, a)
	}
	return out
}

// cmdContext is the command's context, or Background when it has none.
// testSignals returns the context that Ctrl-C (or SIGTERM) cancels for
// tcheck test; tests replace it.
var testSignals = func(parent context.Context) (context.Context, context.CancelFunc) {
	return signal.NotifyContext(parent, os.Interrupt, syscall.SIGTERM)
}

func cmdContext(cmd *cobra.Command) context.Context {
	if ctx := cmd.Context(); ctx != nil {
		return ctx
	}
	return context.Background()
}

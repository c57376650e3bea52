package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"

	"github.com/spf13/cobra"

	"github.com/tcheck/tcheck/model"
	"github.com/tcheck/tcheck/queries"
)

// newSimulateMergeCmd is `tcheck simulate merge`: the JSON documents of the
// shards of one hunt (--shard i/n --json) joined into the document one hunt
// over all their runs would report (Holzmann's swarm verification: many
// independent searches, one verdict).
func newSimulateMergeCmd(stdout, stderr io.Writer) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "merge FILE...",
		Short: "Join the JSON results of the shards of one simulation hunt",
		Long: `Join the --json documents of the shards of one hunt (tcheck simulate --shard i/n --json)
into one result: the runs and transitions tried add up; for each query the run with the
smallest number that decided it (a violated A[], a reached E<>) gives the verdict and the
trace, as in a hunt over all the shards' runs; likewise --until and model errors. The
documents must come from one hunt: the same model, parameters, seed, strategy and limits,
with disjoint runs. See docs/simulate.md.

Exit codes: as tcheck simulate for the merged result (0, 1, 2); 2 also for files that do
not read or do not belong together.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var docs []simJSONDoc
			for _, path := range args {
				src, err := model.ReadSource(path)
				if err != nil {
					return usageErr(err)
				}
				var d simJSONDoc
				if err := json.Unmarshal(src, &d); err != nil || d.Tool != "tcheck" {
					return usageErr(fmt.Errorf("%s: not the JSON document of tcheck simulate --json", path))
				}
				docs = append(docs, d)
			}
			m, err := mergeSimDocs(docs, args)
			if err != nil {
				return usageErr(err)
			}
			if asJSON {
				enc := json.NewEncoder(stdout)
				enc.SetIndent("", "  ")
				if err := enc.Encode(m); err != nil {
					return err
				}
			} else {
				writeSimMergeText(stdout, m, len(docs))
			}
			if m.ExitCode != 0 {
				return &exitError{code: m.ExitCode}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the merged document (which tcheck replay reads the traces of)")
	return cmd
}

// mergeSimDocs joins the documents of the shards of one hunt; names are
// the files, for messages.
func mergeSimDocs(docs []simJSONDoc, names []string) (simJSONDoc, error) {
	m := docs[0]
	m.Results = slices.Clone(docs[0].Results)
	key := func(d simJSONDoc) string {
		o := d.Simulation
		o.FirstRun, o.Runs = 0, 0
		b, _ := json.Marshal(struct {
			Name   string
			Params []jsonParam
			Source string
			Sim    simJSONOptions
		}{d.Model.Name, d.Model.Parameters, d.Model.Source, o})
		return string(b)
	}
	type span struct{ lo, hi int }
	spans := []span{{m.Simulation.FirstRun, m.Simulation.FirstRun + m.Simulation.Runs}}
	for i, d := range docs[1:] {
		if key(d) != key(docs[0]) {
			return m, fmt.Errorf("%s and %s are not shards of one hunt (the model, its parameters, the seed, the strategy or the limits differ)", names[0], names[i+1])
		}
		s := span{d.Simulation.FirstRun, d.Simulation.FirstRun + d.Simulation.Runs}
		for k, t := range spans {
			if s.lo < t.hi && t.lo < s.hi {
				return m, fmt.Errorf("%s and %s ran the same runs (%d..%d and %d..%d): give each shard once", names[k], names[i+1], t.lo, t.hi-1, s.lo, s.hi-1)
			}
		}
		spans = append(spans, s)
		if len(d.Results) != len(m.Results) {
			return m, fmt.Errorf("%s and %s monitor different queries", names[0], names[i+1])
		}
		for j, r := range d.Results {
			cur := &m.Results[j]
			if r.Query != cur.Query || r.Formula != cur.Formula {
				return m, fmt.Errorf("%s and %s monitor different queries (%s, %s)", names[0], names[i+1], cur.Formula, r.Formula)
			}
			if r.Run != nil && (cur.Run == nil || *r.Run < *cur.Run) {
				*cur = r
			} else if r.Run == nil && cur.Run == nil {
				cur.AsExpected = cur.AsExpected && r.AsExpected
			}
		}
		m.RunsTried += d.RunsTried
		m.TimedOut = m.TimedOut || d.TimedOut
		m.StepsTried += d.StepsTried
		m.Simulation.FirstRun = min(m.Simulation.FirstRun, d.Simulation.FirstRun)
		m.Simulation.Runs += d.Simulation.Runs
		if u := d.Until; u != nil && u.Reached && (m.Until == nil || !m.Until.Reached || *u.Run < *m.Until.Run) {
			m.Until = u
		}
		if e := d.Error; e != nil && (m.Error == nil || e.Run < m.Error.Run) {
			m.Error = e
		}
		if d.ReplayError != "" {
			if m.ReplayError != "" {
				m.ReplayError += "; "
			}
			m.ReplayError += d.ReplayError
		}
	}
	// the exit code of the merged hunt, as simCode gives it: a model error
	// or a replay error (2) before a missed expectation or a violation
	// that no expectation judges (1)
	m.ExitCode = 0
	for _, r := range m.Results {
		if !r.AsExpected || r.Verdict == queries.Violated && (r.Expected == "" || r.Unjudged != "") {
			m.ExitCode = 1
		}
	}
	if m.Error != nil || m.ReplayError != "" {
		m.ExitCode = 2
	}
	return m, nil
}

// writeSimMergeText prints the merged result in the words of tcheck
// simulate.
func writeSimMergeText(w io.Writer, m simJSONDoc, shards int) {
	fmt.Fprintf(w, "model %s (%s)\n", m.Model.Name, m.Model.Source)
	o := m.Simulation
	fmt.Fprintf(w, "simulation: %s, seed %d, runs %d..%d from %d shards\n", o.Strategy, o.Seed, o.FirstRun, o.FirstRun+o.Runs-1, shards)
	for _, r := range m.Results {
		name := r.Query
		if name == "" {
			name = "(formula)"
		}
		fmt.Fprintf(w, "%s: %s\n  ", name, r.Formula)
		switch {
		case r.Skipped != "":
			fmt.Fprintf(w, "skipped: %s", r.Skipped)
		case r.Run != nil:
			fmt.Fprintf(w, "%s in run %d", r.Verdict, *r.Run)
			if r.Trace != nil {
				fmt.Fprintf(w, " after %s", queries.Transitions(len(r.Trace.Steps)-1))
			}
		default:
			fmt.Fprintf(w, "%s: not decided in %d runs", queries.Unknown, m.RunsTried)
		}
		switch {
		case r.Unjudged != "":
			fmt.Fprintf(w, "  (not judged: expect %s is for the model's own parameters)", r.Unjudged)
		case r.Expected != "" && r.Run != nil && r.AsExpected:
			fmt.Fprint(w, "  (as expected)")
		case r.Expected != "" && !r.AsExpected:
			fmt.Fprintf(w, "  (EXPECTED %s)", r.Expected)
		}
		fmt.Fprintln(w)
	}
	if u := m.Until; u != nil {
		if u.Reached {
			fmt.Fprintf(w, "until %s\n  reached in run %d\n", u.Formula, *u.Run)
		} else {
			fmt.Fprintf(w, "until %s\n  not reached in %d runs\n", u.Formula, m.RunsTried)
		}
	}
	if e := m.Error; e != nil {
		fmt.Fprintf(w, "model error in run %d: %s\n", e.Run, e.Message)
	}
	if m.ReplayError != "" {
		fmt.Fprintf(w, "error: %s\n", m.ReplayError)
	}
	stopped := ""
	if m.TimedOut {
		// the runs a shard did not start are a gap: the merged hunt is
		// not that of the shards' runs together
		stopped = " (a shard stopped by --timeout before its last run)"
	}
	fmt.Fprintf(w, "tried %d runs, %d transitions%s\n", m.RunsTried, m.StepsTried, stopped)
	if m.ExitCode == 1 || m.ExitCode == 2 {
		fmt.Fprintln(w, "(--json gives the merged document with the traces, for tcheck replay)")
	}
}

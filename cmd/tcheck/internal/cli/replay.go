package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tcheck/tcheck/model"
	"github.com/tcheck/tcheck/model/syntax"
	"github.com/tcheck/tcheck/queries"
	"github.com/tcheck/tcheck/queries/msc"
)

func init() { register(newReplayCmd) }

// replayDoc is what tcheck replay reads: the JSON of simulate --json or of
// verify --trace --json, or a bare trace.
type replayDoc struct {
	Model struct {
		Name       string      `json:"name"`
		File       string      `json:"file"`
		Source     string      `json:"source"`
		Parameters []jsonParam `json:"parameters"`
	} `json:"model"`
	Results []struct {
		Query   string           `json:"query"`
		Formula string           `json:"formula"`
		Trace   *queries.JSONRun `json:"trace"`
	} `json:"results"`
	Until *struct {
		Formula string           `json:"formula"`
		Trace   *queries.JSONRun `json:"trace"`
	} `json:"until"`
	Error *struct {
		Trace *queries.JSONRun `json:"trace"`
	} `json:"error"`
	// replay --trace-format json's own document
	Traces []replayJSONTrace `json:"traces"`
	// a bare trace
	Steps []json.RawMessage `json:"steps"`
}

// replayItem is one trace of the document with the goal its last state
// must satisfy.
type replayItem struct {
	what  string
	run   *queries.JSONRun
	query string // query name, or formula
	src   string // formula of the query
	until string
}

func newReplayCmd(stdout, stderr io.Writer) *cobra.Command {
	var (
		modelPath string
		sets      []string
		traceFmt  string
		from      string
		maxInput  string
	)
	cmd := &cobra.Command{
		Use:   "replay TRACE.json",
		Short: "Re-check the traces of a JSON result against the concrete semantics",
		Long: `Read the traces of a JSON document written by tcheck simulate --json or tcheck verify
--trace --json (or a bare trace object), rebuild each concrete run over the model and replay
it with the concrete semantics (queries.Replay, the replay that gates verify's verdicts):
every delay and every move must be allowed, every state must be the one written, and the last
state must satisfy the property the trace witnesses (¬φ for an A[] φ counterexample, φ for an
E<> φ witness or the --until formula). The model is the one the document names, or --model.
A trace of verify --from starts from its given state (its "start" is "given") instead of the
initial state; --from STATE makes replay check that this start is STATE.

Exit codes: 0 every trace replays, 1 a trace does not, 2 unreadable input.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkTraceFormat(traceFmt, false); err != nil {
				return usageErr(err)
			}
			if err := setMaxInput(maxInput); err != nil {
				return usageErr(err)
			}
			src, err := model.ReadSource(args[0])
			if err != nil {
				return usageErr(err)
			}
			var doc replayDoc
			dec := json.NewDecoder(bytes.NewReader(src))
			if err := dec.Decode(&doc); err != nil {
				return usageErr(fmt.Errorf("%s: %v", args[0], err))
			}
			ov, err := parseSets(sets)
			if err != nil {
				return usageErr(err)
			}
			for _, p := range doc.Model.Parameters {
				if _, given := ov[p.Name]; !given {
					ov[p.Name] = p.Value
				}
			}
			m, err := loadReplayModel(args[0], modelPath, doc.Model.Source, doc.Model.File, ov)
			if err != nil {
				return usageErr(err)
			}
			var start *queries.State
			if from != "" {
				if start, err = readFrom(m.net, from); err != nil {
					return usageErr(err)
				}
			}
			var items []replayItem
			if len(doc.Steps) > 0 {
				var run queries.JSONRun
				if err := json.Unmarshal(src, &run); err != nil {
					return usageErr(fmt.Errorf("%s: %v", args[0], err))
				}
				items = append(items, replayItem{what: "trace", run: &run})
			}
			for _, r := range doc.Results {
				if r.Trace != nil {
					name := r.Query
					if name == "" {
						name = r.Formula
					}
					items = append(items, replayItem{what: name, run: r.Trace, query: r.Query, src: r.Formula})
				}
			}
			for _, r := range doc.Traces {
				if r.Trace != nil {
					items = append(items, replayItem{what: r.Name, run: r.Trace, query: r.Query, src: r.Formula, until: r.Until})
				}
			}
			if doc.Until != nil && doc.Until.Trace != nil {
				items = append(items, replayItem{what: "until " + doc.Until.Formula, run: doc.Until.Trace, until: doc.Until.Formula})
			}
			if doc.Error != nil && doc.Error.Trace != nil {
				items = append(items, replayItem{what: "model error", run: doc.Error.Trace})
			}
			if len(items) == 0 {
				return usageErr(fmt.Errorf("%s holds no trace (verify needs --trace --json)", args[0]))
			}
			failed := false
			var outs []replayOut
			for _, it := range items {
				goal, err := replayGoal(m, it)
				if err != nil {
					return usageErr(fmt.Errorf("%s: %v", it.what, err))
				}
				prefix := ""
				if len(items) > 1 || it.what != "trace" {
					prefix = it.what + ": "
				}
				t, err := it.run.RunTrace(m.net)
				if err == nil && start != nil {
					if t.Start == nil {
						err = fmt.Errorf("the trace starts from the initial state, not from %s", from)
					} else {
						t.Start = start
					}
				}
				if err == nil {
					err = queries.Replay(m.net, t, goal)
				}
				outs = append(outs, replayOut{it: it, prefix: prefix, trace: t, err: err})
				failed = failed || err != nil
			}
			if err := writeReplay(stdout, traceFmt, args[0], m, outs); err != nil {
				return err
			}
			if failed {
				return &exitError{code: ExitViolated, err: errors.New("")}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&modelPath, "model", "", "the model file (default: the one the JSON names)")
	cmd.Flags().StringArrayVar(&sets, "set", nil, "override a model parameter: --set name=value (repeatable; default: the JSON's parameters)")
	cmd.Flags().StringVar(&traceFmt, "trace-format", "", "also print the replayed traces: text, json (one JSON document of the traces with edge identities), svg or html (a message sequence chart of every trace, as the only output)")
	cmd.Flags().StringVar(&maxInput, "max-input", "", maxInputUsage)
	cmd.Flags().StringVar(&from, "from", "", "the state the traces must start from (as verify --from: a state document or TRACE.json#N)")
	return cmd
}

// replayOut is the outcome of replaying one trace: the rebuilt trace (nil
// when it could not be rebuilt) and the replay's error.
type replayOut struct {
	it     replayItem
	prefix string
	trace  *queries.Trace
	err    error
}

type replayJSONTrace struct {
	Name string `json:"name"`
	// the goal of the trace's last state, as in the document read
	Query    string           `json:"query,omitempty"`
	Formula  string           `json:"formula,omitempty"`
	Until    string           `json:"until,omitempty"`
	Replayed bool             `json:"replayed"`
	Error    string           `json:"error,omitempty"`
	Trace    *queries.JSONRun `json:"trace,omitempty"`
}

type replayJSONDoc struct {
	Tool    string            `json:"tool"`
	Version string            `json:"version"`
	Model   jsonModel         `json:"model"`
	Traces  []replayJSONTrace `json:"traces"`
}

// writeReplay prints the outcomes: a line each, with the trace in text
// after it (text), or one JSON document, or the charts of the traces.
func writeReplay(w io.Writer, format, arg string, m *loadedModel, outs []replayOut) error {
	switch {
	case format == "json":
		doc := replayJSONDoc{Tool: "tcheck", Version: Version, Model: jsonModel{Name: m.net.Name, File: m.file.Path}, Traces: []replayJSONTrace{}}
		for _, p := range m.net.Params {
			doc.Model.Parameters = append(doc.Model.Parameters, jsonParam{p.Name, p.Value})
		}
		for _, o := range outs {
			jt := replayJSONTrace{Name: o.it.what, Query: o.it.query, Formula: o.it.src, Until: o.it.until, Replayed: o.err == nil}
			if o.err != nil {
				jt.Error = o.err.Error()
			}
			if o.trace != nil {
				jt.Trace = queries.RunJSON(m.net, o.trace, o.it.run.Kind)
			}
			doc.Traces = append(doc.Traces, jt)
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(doc)
	case isPicture(format):
		d := &msc.Document{Title: modelHeader(m) + ": traces of " + arg}
		for _, o := range outs {
			s := msc.Section{Title: o.it.what}
			if o.it.src != "" && o.it.src != o.it.what {
				s.Title += ": " + o.it.src
			}
			if o.err != nil {
				s.Notes = append(s.Notes, "replay failed: "+o.err.Error())
			} else {
				s.Notes = append(s.Notes, fmt.Sprintf("%s: %d transitions, replayed", o.it.run.Kind, len(o.trace.Moves)-1))
				s.Chart = msc.FromTrace(m.net, o.trace)
			}
			d.Sections = append(d.Sections, s)
		}
		return writePicture(w, format, d)
	}
	for _, o := range outs {
		if o.err != nil {
			fmt.Fprintf(w, "%sreplay failed: %v\n", o.prefix, o.err)
			continue
		}
		fmt.Fprintf(w, "%sreplayed: %d transitions (%s)\n", o.prefix, len(o.trace.Moves)-1, o.it.run.Kind)
		if format == "text" {
			queries.WriteTrace(w, m.net, o.trace, "    ")
		}
	}
	return nil
}

// loadReplayModel loads --model, else the model the document names: its
// source argument or file, as given or next to the trace file, or a bundled
// model of that name.
func loadReplayModel(tracePath, modelPath, source, file string, ov map[string]int64) (*loadedModel, error) {
	if modelPath != "" {
		return loadModel(modelPath, ov)
	}
	var tries []string
	for _, p := range []string{source, file} {
		if p == "" {
			continue
		}
		tries = append(tries, p)
		if !filepath.IsAbs(p) {
			tries = append(tries, filepath.Join(filepath.Dir(tracePath), p))
		}
		tries = append(tries, strings.TrimSuffix(p, ".yaml"))
	}
	if len(tries) == 0 {
		return nil, fmt.Errorf("%s names no model file: give one with --model", tracePath)
	}
	var firstErr error
	for _, p := range tries {
		if _, err := os.Stat(p); err != nil {
			if _, _, ok := bundledModel(p); !ok {
				continue
			}
		}
		m, err := loadModel(p, ov)
		if err == nil {
			return m, nil
		}
		if firstErr == nil {
			firstErr = err
		}
	}
	if firstErr != nil {
		return nil, firstErr
	}
	return nil, fmt.Errorf("model %s not found: give it with --model", tries[0])
}

// replayGoal returns the formula the last state of the item's trace must
// satisfy: ¬φ for an A[] φ counterexample, φ for an E<> φ witness, the
// until formula; nil for other traces.
func replayGoal(m *loadedModel, it replayItem) (*model.Formula, error) {
	if it.until != "" {
		return compileStateFormula(m.net, it.until, "until")
	}
	if it.src == "" {
		return nil, nil
	}
	var q *queries.Query
	if it.query != "" && m.file.Query(it.query) != nil {
		qs, err := queries.FromFile(m.net, m.file, []string{it.query})
		if err != nil {
			return nil, err
		}
		q = qs[0]
	} else {
		var err error
		if q, err = queries.Compile(m.net, model.NewText(it.src, model.Pos{File: "formula", Line: 1, Col: 1})); err != nil {
			return nil, err
		}
	}
	if q.Err != nil {
		return nil, q.Err
	}
	switch {
	case q.Kind == syntax.QueryAG && it.run.Kind == "counterexample":
		return &model.Formula{Kind: model.FNot, Args: []*model.Formula{q.Formula}, Src: "!(" + q.Formula.Src + ")"}, nil
	case q.Kind == syntax.QueryEF && it.run.Kind == "witness":
		return q.Formula, nil
	}
	return nil, nil
}

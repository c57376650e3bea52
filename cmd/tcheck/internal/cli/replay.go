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
		from      string
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
				if err != nil {
					fmt.Fprintf(stdout, "%sreplay failed: %v\n", prefix, err)
					failed = true
					continue
				}
				fmt.Fprintf(stdout, "%sreplayed: %d transitions (%s)\n", prefix, len(t.Moves)-1, it.run.Kind)
			}
			if failed {
				return &exitError{code: ExitViolated, err: errors.New("")}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&modelPath, "model", "", "the model file (default: the one the JSON names)")
	cmd.Flags().StringArrayVar(&sets, "set", nil, "override a model parameter: --set name=value (repeatable; default: the JSON's parameters)")
	cmd.Flags().StringVar(&from, "from", "", "the state the traces must start from (as verify --from: a state document or TRACE.json#N)")
	return cmd
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

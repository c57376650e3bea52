package queries

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tcheck/tcheck/model"
	"github.com/tcheck/tcheck/zone"
)

// TestSearchOrdersKeepVerdicts checks the Ranked search order (Herbreteau
// and Tran, FORMATS 2015; zone.Ranked) and the Progress order (by the
// model's progress measure, the sweep-line method's order; zone.Progress)
// and the Topological order (by the automata's topological location
// numbers; zone.Topological) against breadth-first search on every model under testdata/ with
// queries and on the agreement models' cheapest row (both declare a
// progress measure), with one worker and with three: the verdicts, the
// sup/inf values and the discrete states stored are the same (the order
// changes which zones are stored along the way, not what is reachable),
// and every trace replays (Check turns one that does not into an error).
func TestSearchOrdersKeepVerdicts(t *testing.T) {
	var paths []string
	for _, pat := range []string{"testdata/semantics/*.yaml", "../testdata/*.yaml", "../testdata/uppaal/*.yaml", "../zone/testdata/search-order-mistake.yaml"} {
		files, err := filepath.Glob(pat)
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no models: %v", pat, err)
		}
		paths = append(paths, files...)
	}
	paths = append(paths, "../agreement/agreement.yaml", "../agreement/agreement-scalar.yaml")
	for _, path := range paths {
		t.Run(filepath.Base(path), func(t *testing.T) {
			f, net := loadModel(t, path, nil)
			qs, err := FromFile(net, f, nil)
			if err != nil {
				t.Fatal(err)
			}
			base := checkAll(t, net, qs, Options{Workers: 1})
			if testing.Short() {
				for _, b := range base {
					if b.Stats.Stored > 3000 {
						t.Skip("large instance")
					}
				}
			}
			for _, opts := range []Options{{Order: zone.Ranked, Workers: 1}, {Order: zone.Ranked, Workers: 3}, {Order: zone.Progress, Workers: 1}, {Order: zone.Progress, Workers: 3}, {Order: zone.Topological, Workers: 1}, {Order: zone.Topological, Workers: 3}} {
				name := "workers=" + strconv.Itoa(opts.Workers)
				sameAnswers(t, name, opts.Order.String(), "bfs", checkAll(t, net, qs, opts), base)
			}
		})
	}
}

// TestProgressMeasureRuntimeError: a progress measure that fails on a
// state (here a division by zero once a = 0, at the operator) makes the check an error at
// the measure's position, not a silent order; breadth first never
// evaluates it.
func TestProgressMeasureRuntimeError(t *testing.T) {
	src := `name: m
declarations: |
  int a = 1;
templates:
  - name: P
    locations:
      - {name: l, initial: true}
      - {name: k}
    edges:
      - {from: l, to: k, update: a = 0}
system: system P;
progress: 10 / a
`
	f, err := model.Parse("m.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	net, err := f.Compile(nil)
	if err != nil {
		t.Fatal(err)
	}
	q, err := Compile(net, model.NewText("E<> P.k", model.Pos{File: "query", Line: 1, Col: 1}))
	if err != nil {
		t.Fatal(err)
	}
	qs := []*Query{q}
	for _, opts := range []Options{{Order: zone.Progress, Workers: 1}, {Order: zone.Progress, Workers: 2}} {
		r := checkAll(t, net, qs, opts)[0]
		if r.Verdict != Error || r.Err == nil || !strings.HasPrefix(r.Err.Error(), "m.yaml:12:14:") {
			t.Errorf("workers=%d: %v, error %v; want an error at m.yaml:12:14", opts.Workers, r.Verdict, r.Err)
		}
	}
	if r := checkAll(t, net, qs, Options{Workers: 1})[0]; r.Verdict != Satisfied {
		t.Errorf("bfs: %v (%v), want satisfied", r.Verdict, r.Err)
	}
}

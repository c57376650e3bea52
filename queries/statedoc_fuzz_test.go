package queries

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/tcheck/tcheck/model"
	"github.com/tcheck/tcheck/zone"
)

// FuzzReadStateAndTrace feeds arbitrary documents to what reads a user's
// JSON: the state documents of verify --from (ReadState), a step of a
// trace (ReadTraceState, verify --from FILE@STEP) and the traces that
// tcheck replay rebuilds (JSONRun.RunTrace) and replays (Replay), over
// Fischer's protocol (N = 2) and a model with arrays, nested values and
// process-local clocks. Nothing may panic or hang; a state document's
// errors are positioned ("s.json:LINE:COL: ..."). The seed corpus is the
// documents of the state reader's tests and the JSON of a witness.
//
//	go test -run XXX -fuzz FuzzReadStateAndTrace -fuzztime 1m ./queries/
func FuzzReadStateAndTrace(f *testing.F) {
	var nets []*model.Network
	for _, m := range []struct {
		path string
		set  map[string]int64
	}{{"../testdata/fischer.yaml", map[string]int64{"N": 2}}, {"testdata/statedoc/arrays.yaml", nil}} {
		_, net, err := model.Load(m.path, m.set)
		if err != nil {
			f.Fatal(err)
		}
		nets = append(nets, net)
	}
	for _, doc := range []string{
		`{"locations": {"P(1)": "req", "P(2)": "A"}, "variables": {"id": 0}, "clocks": {"P(1).x": 1, "P(2).x": 0}}`,
		`{"locations": ["P(1).req", "P(2).A"], "variables": {"id": 1.5}, "clocks": {"P(1)": {"x": "1/3"}, "P(2).x": 0}}`,
		"{\"locations\": {\n  \"P(1)\" \"req\"}}",
		`{"locations": {"P": "a"}, "variables": {"m": [[1, 2], [3, 4]], "b": true, "P": {"k": -2}}, "clocks": {"x": "1/3", "P": {"y": 2.75}}}`,
		`{"location": {}}`,
		`[1, {"a": null}, "\u00e9\n", -0.5e3, true]`,
	} {
		f.Add([]byte(doc), "0")
	}
	// the JSON of a witness, as verify --trace --json writes it (with
	// the edges' identities, as simulate writes them)
	q, err := Compile(nets[0], model.Text{S: "E<> P(1).cs && P(2).wait"})
	if err != nil {
		f.Fatal(err)
	}
	r := Check(zone.NewSystem(nets[0]), []*Query{q}, Options{})[0]
	if r.Trace == nil {
		f.Fatalf("no witness: %v", r.Verdict)
	}
	run := RunJSON(nets[0], r.Trace, "witness")
	b, err := json.Marshal(run)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b, "1")
	results, err := json.Marshal(map[string]any{"results": []any{map[string]any{"query": "q", "trace": run}}})
	if err != nil {
		f.Fatal(err)
	}
	f.Add(results, "q:2")

	f.Fuzz(func(t *testing.T, src []byte, sel string) {
		if len(src) > 1<<14 {
			return
		}
		for _, net := range nets {
			if _, err := ReadState(net, "s.json", src); err != nil && !strings.HasPrefix(err.Error(), "s.json:") {
				t.Fatalf("an error without its position: %v", err)
			}
			_, _ = ReadTraceState(net, "s.json", src, sel)
			var run JSONRun
			if json.Unmarshal(src, &run) != nil {
				continue
			}
			if tr, err := run.RunTrace(net); err == nil {
				_ = Replay(net, tr, nil)
			}
		}
	})
}

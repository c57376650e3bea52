package queries

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/tcheck/tcheck/zone"
)

// TestRunTraceRoundTrip writes the counterexample of Fischer's race as
// verify --json does (labels only) and as simulate --json does (with edge
// identities), reads both back with RunTrace and replays them; corrupted
// copies are refused, by RunTrace or by Replay.
func TestRunTraceRoundTrip(t *testing.T) {
	f, net := loadModel(t, "../testdata/fischer.yaml", map[string]int64{"w": 9})
	qs, err := FromFile(net, f, []string{"mutex"})
	if err != nil {
		t.Fatal(err)
	}
	r := Check(zone.NewSystem(net), qs, Options{})[0]
	if r.Verdict != Violated || r.Trace == nil {
		t.Fatalf("mutex %v, want violated with a trace", r.Verdict)
	}
	verifyJSON, err := json.Marshal(JSON(net, r, true).Trace)
	if err != nil {
		t.Fatal(err)
	}
	simJSON, err := json.Marshal(RunJSON(net, r.Trace, "counterexample"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		src     string
		old     string
		new     string
		wantErr string // "" : replays
	}{
		{name: "verify", src: string(verifyJSON)},
		{name: "simulate", src: string(simJSON)},
		{name: "clock value", src: string(simJSON), old: `"P(1).x":"0"`, new: `"P(1).x":"1/3"`, wantErr: "differs"},
		{name: "variable", src: string(verifyJSON), old: `"id":1`, new: `"id":2`, wantErr: "step"},
		{name: "location", src: string(verifyJSON), old: `"P(1).req"`, new: `"P(1).nowhere"`, wantErr: "no location nowhere"},
		{name: "delay", src: string(simJSON), old: `"delay":"0"`, new: `"delay":"x"`, wantErr: "not a number"},
		{name: "edge identity", src: string(simJSON), old: `"edge":0`, new: `"edge":1`, wantErr: "is not"},
		{name: "missing clock", src: string(simJSON), old: `"P(2).x":"0",`, new: ``, wantErr: "clock values"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := tc.src
			if tc.old != "" {
				if !strings.Contains(src, tc.old) {
					t.Fatalf("%s not in %s", tc.old, src)
				}
				src = strings.Replace(src, tc.old, tc.new, 1)
			}
			var run JSONRun
			if err := json.Unmarshal([]byte(src), &run); err != nil {
				t.Fatal(err)
			}
			tr, err := run.RunTrace(net)
			if err == nil {
				err = Replay(net, tr, r.Goal)
			}
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("does not replay: %v", err)
			case tc.wantErr != "" && err == nil:
				t.Fatalf("corrupted trace replays")
			case tc.wantErr != "" && !strings.Contains(err.Error(), tc.wantErr):
				t.Fatalf("error %q, want one with %q", err, tc.wantErr)
			}
			if err == nil && len(tr.Moves) != len(r.Trace.Moves) {
				t.Fatalf("%d moves, want %d", len(tr.Moves)-1, len(r.Trace.Moves)-1)
			}
		})
	}
}

// TestMatchMoveAmbiguousLabels: edges with the same label are matched
// against the state they lead to.
func TestMatchMoveAmbiguousLabels(t *testing.T) {
	f, net := loadModel(t, "testdata/tracejson/twins.yaml", nil)
	qs, err := FromFile(net, f, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := Check(zone.NewSystem(net), qs, Options{})[0]
	if r.Trace == nil {
		t.Fatalf("no witness: %v", r.TraceErr)
	}
	b, err := json.Marshal(JSON(net, r, true).Trace)
	if err != nil {
		t.Fatal(err)
	}
	var run JSONRun
	if err := json.Unmarshal(b, &run); err != nil {
		t.Fatal(err)
	}
	tr, err := run.RunTrace(net)
	if err != nil {
		t.Fatal(err)
	}
	if err := Replay(net, tr, r.Goal); err != nil {
		t.Fatal(err)
	}
}

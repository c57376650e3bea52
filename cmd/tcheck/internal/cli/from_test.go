package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

const fischerModel = repoRoot + "/testdata/fischer.yaml"

// TestVerifyFromOnlineExample runs the online use of docs/queries.md
// (snapshot, check, act): from the logged state of
// testdata/states/fischer-wait.json mutual exclusion holds for 20 time
// units (exit 0); from fischer-late.json it is violated within them (exit
// 1), with a counterexample that starts at the logged state, lasts at
// most 20, and replays with tcheck replay from that state only.
func TestVerifyFromOnlineExample(t *testing.T) {
	wait := repoRoot + "/testdata/states/fischer-wait.json"
	late := repoRoot + "/testdata/states/fischer-late.json"
	code, out, errOut := run("verify", fischerModel, "--from", wait, "--within", "20", "-q", "mutex", "--no-progress")
	if code != 0 {
		t.Fatalf("from fischer-wait.json: exit %d\n%s%s", code, out, errOut)
	}
	if !strings.Contains(out, "within 20 time units: the verdicts speak about runs of at most 20 time units") {
		t.Errorf("the output does not say that the verdicts are bounded:\n%s", out)
	}
	code, out, errOut = run("verify", fischerModel, "--from", late, "--within", "20", "-q", "mutex", "--trace", "--no-progress", "--workers", "1")
	if code != 1 {
		t.Fatalf("from fischer-late.json: exit %d\n%s%s", code, out, errOut)
	}
	golden(t, "verify-from-late.txt", strings.ReplaceAll(out, repoRoot, "ROOT"))
	// the same as JSON, which the schema describes, and which replays
	// from the logged state and from no other
	code, out, _ = run("verify", fischerModel, "--from", late, "--within", "20", "-q", "mutex", "--trace", "--json", "--no-progress", "--workers", "1")
	if code != 1 {
		t.Fatalf("--json: exit %d", code)
	}
	c := jsonschema.NewCompiler()
	sch, err := c.Compile(repoRoot + "/docs/verify.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(any(doc)); err != nil {
		t.Fatalf("does not match the schema: %v", err)
	}
	if doc["within"] != float64(20) || doc["from"] != late {
		t.Errorf("the JSON says from %v within %v", doc["from"], doc["within"])
	}
	tr := filepath.Join(t.TempDir(), "late.json")
	if err := os.WriteFile(tr, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		args []string
		code int
	}{
		{"from its own start", nil, 0},
		{"checked against the logged state", []string{"--from", late}, 0},
		{"checked against another state", []string{"--from", wait}, 1},
	} {
		code, out, errOut := run(append([]string{"replay", tr}, c.args...)...)
		if code != c.code {
			t.Errorf("replay %s: exit %d, want %d\n%s%s", c.name, code, c.code, out, errOut)
		}
	}
	// the witness's own state [1], read back from the JSON trace
	code, out, errOut = run("verify", fischerModel, "--from", tr+"#mutex:1", "-q", "E<> P(1).cs && P(2).cs", "--within", "14", "--no-progress")
	if code != 0 {
		t.Errorf("from %s#mutex:1: exit %d\n%s%s", tr, code, out, errOut)
	}
}

// TestVerifyFromBadInput: a --from state that is not a state of the
// model, a trace step that does not exist, a horizon that is not one are
// usage errors (exit 2) with the position of the offending value.
func TestVerifyFromBadInput(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "t.json")
	// one worker: the shortest trace, whose steps the message below counts
	// (two workers may find a longer one)
	if code, out, _ := run("verify", fischerModel, "-q", "E<> P(1).cs", "--trace", "--json", "--no-progress", "--workers", "1"); code != 0 {
		t.Fatalf("exit %d", code)
	} else if err := os.WriteFile(trace, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	doc := filepath.Join(dir, "s.json")
	if err := os.WriteFile(doc, []byte("{\"locations\": {\"P(1)\": \"A\", \"P(2)\": \"A\", \"P(3)\": \"A\", \"P(4)\": \"A\"},\n \"variables\": {\"id\": 5},\n \"clocks\": {\"P(1).x\": 0, \"P(2).x\": 0, \"P(3).x\": 0, \"P(4).x\": 0}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		args []string
		msg  string
	}{
		{"clock values violate an invariant", []string{"--from", repoRoot + "/testdata/states/fischer-bad.json"}, "ROOT/testdata/states/fischer-bad.json:5:40: the clock values violate the invariant of P(2).req (x <= k)"},
		{"a variable out of range", []string{"--from", doc}, "DIR/s.json:2:22: id = 5 is out of its range [0, 4]"},
		{"a trace step that does not exist", []string{"--from", trace + "#9"}, "DIR/t.json#9: the trace has no step 9 (its steps are 0 to 3)"},
		{"a query without a trace", []string{"--from", trace + "#mutex:1"}, "DIR/t.json#mutex:1: no trace of mutex; the document has traces of: E<> P(1).cs"},
		{"no such file", []string{"--from", dir + "/none.json"}, "--from: open DIR/none.json: no such file or directory"},
		{"a horizon of 0", []string{"--within", "0"}, "--within: 0 is not a horizon (a whole number of time units from 1 to 268435456)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := run(append([]string{"verify", fischerModel, "--no-progress"}, c.args...)...)
			if code != 2 {
				t.Fatalf("exit %d, want 2\n%s%s", code, out, errOut)
			}
			got := strings.TrimSpace(strings.NewReplacer(repoRoot, "ROOT", dir, "DIR").Replace(errOut))
			if got != "tcheck: "+c.msg {
				t.Errorf("got  %s\nwant tcheck: %s", got, c.msg)
			}
		})
	}
}

// TestStateDocumentsMatchTheSchema: the state documents of testdata/states
// validate against docs/state.schema.json, and the schema refuses what is
// not a state document.
func TestStateDocumentsMatchTheSchema(t *testing.T) {
	c := jsonschema.NewCompiler()
	sch, err := c.Compile(repoRoot + "/docs/state.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(repoRoot + "/testdata/states/*.json")
	if len(files) < 3 {
		t.Fatalf("%d state documents", len(files))
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var doc any
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatal(err)
		}
		if err := sch.Validate(doc); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	for _, bad := range []string{`{"location": {}}`, `{"clocks": {"x": -1}}`, `{"variables": {"n": "3"}}`} {
		var doc any
		if err := json.Unmarshal([]byte(bad), &doc); err != nil {
			t.Fatal(err)
		}
		if sch.Validate(doc) == nil {
			t.Errorf("the schema accepts %s", bad)
		}
	}
}

package cli

import (
	"encoding/json"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// race is verify's Fischer race: two processes in cs (w < k).
var race = []string{"verify", fischerPath, "--set", "w=9", "-q", "A[] !(P(1).cs && P(2).cs)", "--workers", "1", "--no-progress"}

// simRace is simulate's: the race found in run 4 of seed 3.
var simRace = []string{"simulate", fischerPath, "--set", "w=9", "-q", "mutex", "--seed", "3", "--steps", "30"}

// xmlOK reports whether s is well-formed XML.
func xmlOK(t *testing.T, s string) {
	t.Helper()
	dec := xml.NewDecoder(strings.NewReader(s))
	for {
		_, err := dec.Token()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Fatalf("not well-formed: %v\n%s", err, s)
		}
	}
}

// TestTraceFormatBadInput: an unknown --trace-format, or a picture with
// --json, is a usage error (exit 2) in every command.
func TestTraceFormatBadInput(t *testing.T) {
	dir := t.TempDir()
	_, sim, _ := run(append(simRace, "--json")...)
	simFile := filepath.Join(dir, "sim.json")
	if err := os.WriteFile(simFile, []byte(sim), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{append(append([]string(nil), race...), "--trace-format", "png"), `--trace-format: want text, json, svg or html, not "png"`},
		{append(append([]string(nil), race...), "--trace-format", "SVG"), `not "SVG"`},
		{append(append([]string(nil), race...), "--trace-format", "svg", "--json"), "choose one output"},
		{append(append([]string(nil), race...), "--trace-format", "text", "--json"), "choose one output"},
		{append(append([]string(nil), simRace...), "--trace-format", "dot"), `not "dot"`},
		{append(append([]string(nil), simRace...), "--trace-format", "html", "--json"), "choose one output"},
		{[]string{"replay", simFile, "--trace-format", "pdf"}, `not "pdf"`},
		{[]string{"replay", simFile, "--trace-format", ""}, ""},
	} {
		code, out, errOut := run(tc.args...)
		if tc.want == "" {
			if code != 0 {
				t.Errorf("%q: exit %d\n%s%s", tc.args, code, out, errOut)
			}
			continue
		}
		if code != ExitUsage || !strings.Contains(out+errOut, tc.want) {
			t.Errorf("%q: exit %d, want 2 and %q\n%s%s", tc.args, code, tc.want, out, errOut)
		}
	}
}

// TestTraceFormatVerify: text is --trace, json is --json, svg and html
// draw the counterexample (golden files), with verify's exit code.
func TestTraceFormatVerify(t *testing.T) {
	codeT, withTrace, _ := run(append(race, "--trace")...)
	code, text, _ := run(append(race, "--trace-format", "text")...)
	if code != 1 || codeT != 1 || text != withTrace {
		t.Errorf("--trace-format text (exit %d) differs from --trace (exit %d):\n%s\n%s", code, codeT, text, withTrace)
	}
	traceOf := func(s string) string {
		var doc struct {
			Results []struct {
				Trace json.RawMessage `json:"trace"`
			} `json:"results"`
		}
		if err := json.Unmarshal([]byte(s), &doc); err != nil || len(doc.Results) != 1 {
			t.Fatalf("%v:\n%s", err, s)
		}
		return string(doc.Results[0].Trace)
	}
	_, j1, _ := run(append(race, "--json")...)
	code, j2, _ := run(append(race, "--trace-format", "json")...)
	if code != 1 || traceOf(j1) != traceOf(j2) || !strings.Contains(j2, `"P(2).cs"`) {
		t.Errorf("--trace-format json (exit %d) differs from --json:\n%s", code, j2)
	}
	for _, f := range []string{"svg", "html"} {
		code, out, errOut := run(append(race, "--trace-format", f)...)
		if code != 1 {
			t.Errorf("%s: exit %d, want 1 (violated)\n%s", f, code, errOut)
		}
		xmlOK(t, out)
		for _, want := range []string{"model fischer", "violated", "counterexample: 6 transitions", ">P(4)</text>", ">cs</text>", ">t=20</text>"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s: no %q", f, want)
			}
		}
		golden(t, "verify-fischer-race."+f, out)
	}
}

// TestTraceFormatSimulate draws the run a hunt reports, byte for byte the
// same for a seed.
func TestTraceFormatSimulate(t *testing.T) {
	codeText, _, _ := run(simRace...)
	code, out, errOut := run(append(simRace, "--trace-format", "html")...)
	if code != codeText {
		t.Errorf("exit %d, want %d as in text\n%s", code, codeText, errOut)
	}
	xmlOK(t, out)
	for _, want := range []string{"run 4", "counterexample", `data-detail="msc0-d6"`, "tried 5 runs"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	_, again, _ := run(append(simRace, "--trace-format", "html")...)
	if again != out {
		t.Errorf("two runs with one seed draw different pages")
	}
	golden(t, "simulate-fischer-race.svg", func() string {
		_, s, _ := run(append(simRace, "--trace-format", "svg")...)
		return s
	}())
}

// TestTraceFormatReplay prints, converts and draws the traces replay reads:
// a simulate --json document and a verify --trace --json one.
func TestTraceFormatReplay(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	_, sim, _ := run(append(simRace, "--json")...)
	_, ver, _ := run(append(race, "--json")...)
	simFile, verFile := write("sim.json", sim), write("ver.json", ver)

	code, out, _ := run("replay", simFile, "--trace-format", "text")
	if code != 0 || !strings.Contains(out, "mutex: replayed: 6 transitions (counterexample)\n    [0] P(1).A") || !strings.Contains(out, "[6] P(1).A P(2).cs P(3).A P(4).cs") {
		t.Errorf("text: exit %d\n%s", code, out)
	}
	code, out, _ = run("replay", verFile, "--trace-format", "json")
	var doc replayJSONDoc
	if err := json.Unmarshal([]byte(out), &doc); err != nil || code != 0 {
		t.Fatalf("json: exit %d, %v\n%s", code, err, out)
	}
	if len(doc.Traces) != 1 || !doc.Traces[0].Replayed || doc.Traces[0].Trace == nil || len(doc.Traces[0].Trace.Steps) != 7 || len(doc.Traces[0].Trace.Steps[6].Move) != 1 {
		t.Errorf("json: want one replayed trace of 6 moves with edge identities:\n%s", out)
	}
	// the converted trace replays in turn
	code, out2, _ := run("replay", write("conv.json", out), "--model", fischerPath, "--set", "w=9")
	if code != 0 || !strings.Contains(out2, "replayed: 6 transitions") {
		t.Errorf("the JSON replay prints does not replay: exit %d\n%s", code, out2)
	}
	for _, f := range []string{"svg", "html"} {
		code, out, _ := run("replay", verFile, "--trace-format", f)
		xmlOK(t, out)
		if code != 0 || !strings.Contains(out, "counterexample: 6 transitions, replayed") || !strings.Contains(out, ">P(2)</text>") {
			t.Errorf("%s: exit %d\n%s", f, code, out)
		}
	}
	// a trace that does not replay is said so, and not drawn
	bad := write("bad.json", strings.Replace(sim, `"P(4).cs"`, `"P(4).wait"`, 1))
	code, out, _ = run("replay", bad, "--trace-format", "svg")
	if code != 1 || !strings.Contains(out, "replay failed") || strings.Contains(out, "<circle") {
		t.Errorf("a corrupted trace: exit %d\n%s", code, out)
	}
}

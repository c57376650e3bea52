package cli

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const fischerPath = "../../../../testdata/fischer.yaml"

func TestSimulateExitCodes(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string // in stdout or stderr
	}{
		{"race found", []string{fischerPath, "--set", "w=9", "-q", "mutex", "--seed", "3", "--steps", "30"}, 1, "violated in run 4 after 6 transitions"},
		{"race found by pct", []string{fischerPath, "--set", "w=9", "-q", "mutex", "--seed", "3", "--steps", "12", "--strategy", "pct", "--runs", "500"}, 1, "violated in run"},
		{"race found by swarm", []string{fischerPath, "--set", "w=9", "-q", "mutex", "--seed", "3", "--steps", "30", "--strategy", "swarm", "--runs", "500"}, 1, "violated in run"},
		{"nothing found", []string{fischerPath, "-q", "mutex", "--runs", "5", "--steps", "100"}, 0, "unknown: not violated in 5 runs"},
		{"witness", []string{fischerPath, "-q", "E<> P(2).cs", "--runs", "5"}, 0, "satisfied in run 0"},
		{"until", []string{fischerPath, "-q", "mutex", "--until", "P(3).cs && P(3).x > 3", "--runs", "50"}, 0, "reached in run"},
		{"until not reached", []string{fischerPath, "--until", "P(3).cs && P(4).cs", "--runs", "3", "--steps", "50", "-q", "mutex"}, 0, "not reached in 3 runs"},
		{"model error", []string{"testdata/simulate/overflow.yaml"}, 2, "model error in run 0"},
		{"time bound", []string{fischerPath, "-q", "mutex", "--runs", "2", "--time-bound", "30"}, 0, "30 time units"},
		{"shard", []string{fischerPath, "-q", "mutex", "--runs", "2", "--shard", "2/4"}, 0, "runs 2 (2..3, shard 2/4)"},
		{"skipped query", []string{"testdata/simulate/sup.yaml", "--runs", "2"}, 0, "skipped: sup queries are not monitored"},
		{"unknown strategy", []string{fischerPath, "--strategy", "dfs"}, 2, "unknown strategy"},
		{"no runs", []string{fischerPath, "--runs", "0"}, 2, "--runs must be at least 1"},
		{"negative steps", []string{fischerPath, "--steps", "-3"}, 2, "--steps must be at least 1"},
		{"negative time bound", []string{fischerPath, "--time-bound", "-1"}, 2, "--time-bound must not be negative"},
		{"pct depth 0", []string{fischerPath, "--strategy", "pct", "--pct-depth", "0"}, 2, "--pct-depth"},
		{"bad shard", []string{fischerPath, "--shard", "3/2"}, 2, "--shard"},
		{"liveness query", []string{fischerPath, "-q", "A<> P(1).cs"}, 2, "A<> queries are not monitored"},
		{"bad until", []string{fischerPath, "--until", "P(1).nowhere"}, 2, "--until"},
		{"no such query", []string{fischerPath, "-q", "mutx"}, 2, "did you mean mutex"},
		{"no model", []string{"nosuch.yaml"}, 2, "nosuch.yaml"},
		{"time budget", []string{fischerPath, "-q", "mutex", "--runs", "1000000000", "--timeout", "300ms"}, 0, "(stopped by --timeout 300ms)"},
		{"time budget unused", []string{fischerPath, "-q", "mutex", "--runs", "3", "--timeout", "1h"}, 0, "tried 3 runs, 3000 transitions\n"},
		{"negative timeout", []string{fischerPath, "--timeout", "-1s"}, 2, "--timeout: -1s is negative"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := run(append([]string{"simulate"}, tc.args...)...)
			if code != tc.code {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.code, out, errOut)
			}
			if !strings.Contains(out+errOut, tc.want) {
				t.Errorf("output lacks %q:\n%s%s", tc.want, out, errOut)
			}
		})
	}
}

// TestSimulateSameSeed: the same seed gives the same output byte for byte,
// in text and in JSON; another seed gives other runs.
func TestSimulateSameSeed(t *testing.T) {
	for _, format := range [][]string{nil, {"--json"}} {
		args := append([]string{"simulate", "agreement-m1", "--seed", "11", "--runs", "300"}, format...)
		_, a, _ := run(args...)
		_, b, _ := run(args...)
		if a != b || a == "" {
			t.Fatalf("%v: two outputs differ", args)
		}
		args[3] = "12"
		if _, c, _ := run(args...); c == a {
			t.Errorf("%v: seeds 11 and 12 give the same output", args)
		}
	}
}

func TestSimulateGolden(t *testing.T) {
	code, out, _ := run("simulate", fischerPath, "--set", "w=9", "-q", "mutex", "--seed", "3", "--steps", "30")
	if code != 1 {
		t.Fatalf("exit %d", code)
	}
	golden(t, "simulate-fischer.txt", out)
}

// TestReplay replays what simulate --json and verify --trace --json write,
// and refuses corrupted or unreadable files.
func TestReplay(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	_, sim, _ := run("simulate", fischerPath, "--set", "w=9", "-q", "mutex", "-q", "E<> P(1).cs", "--seed", "3", "--steps", "30", "--json")
	_, ver, _ := run("verify", fischerPath, "--set", "w=9", "--trace", "--json", "--no-progress", "--workers", "1")
	_, simErr, _ := run("simulate", "testdata/simulate/overflow.yaml", "--json")
	_, until, _ := run("simulate", fischerPath, "-q", "mutex", "--until", "P(3).cs && P(3).x > 3", "--runs", "50", "--json")
	_, agr, _ := run("verify", "agreement-m3", "-q", "validity", "--trace", "--json", "--no-progress", "--workers", "1")
	if !strings.Contains(sim, `"move"`) || !strings.Contains(sim, `"source"`) {
		t.Fatalf("simulate --json lacks edge identities or the model source:\n%s", sim)
	}
	for _, tc := range []struct {
		name  string
		file  string
		extra []string
		code  int
		want  string
	}{
		{"simulate", write("sim.json", sim), nil, 0, "mutex: replayed: 6 transitions (counterexample)"},
		{"verify", write("ver.json", ver), nil, 0, "mutex: replayed: 6 transitions (counterexample)"},
		{"bundled model", write("agr.json", agr), nil, 0, "validity: replayed: 5 transitions"},
		{"model error", write("err.json", simErr), nil, 0, "model error: replayed: 3 transitions (error)"},
		{"until", write("until.json", until), nil, 0, "until P(3).cs && P(3).x > 3: replayed:"},
		{"with --model", write("sim2.json", strings.ReplaceAll(sim, `../../../../testdata/fischer.yaml`, `gone.yaml`)), []string{"--model", fischerPath}, 0, "replayed: 6 transitions"},
		{"corrupted clock", write("bad1.json", strings.Replace(sim, `"P(2).x": "109/12"`, `"P(2).x": "110/12"`, 1)), nil, 1, "replay failed"},
		{"corrupted location", write("bad2.json", strings.Replace(sim, `"P(4).cs"`, `"P(4).wait"`, 1)), nil, 1, "replay failed"},
		{"other parameters", write("bad3.json", ver), []string{"--set", "w=10"}, 1, "replay failed"},
		{"not json", write("bad4.json", "{ not json"), nil, 2, "bad4.json"},
		{"no trace", write("bad5.json", `{"model": {"file": "x.yaml"}, "results": []}`), []string{"--model", fischerPath}, 2, "holds no trace"},
		{"no model", write("bad6.json", strings.ReplaceAll(sim, `../../../../testdata/fischer.yaml`, `gone.yaml`)), nil, 2, "not found"},
		{"missing file", filepath.Join(dir, "nosuch.json"), nil, 2, "nosuch.json"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := run(append([]string{"replay", tc.file}, tc.extra...)...)
			if code != tc.code {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.code, out, errOut)
			}
			if !strings.Contains(out+errOut, tc.want) {
				t.Errorf("output lacks %q:\n%s%s", tc.want, out, errOut)
			}
		})
	}
}

// TestSimulateMergeShards proves that the shards of a hunt (--shard i/n
// --json), merged, report what one hunt over all their runs reports (issue
// 15, part 3): the first violating run and its trace, which replays, the
// runs and transitions tried; and that files which do not belong together
// (a shard given twice, another seed) are refused.
func TestSimulateMergeShards(t *testing.T) {
	dir := t.TempDir()
	base := []string{"simulate", "../../../../testdata/fischer.yaml", "--set", "w=9", "-q", "mutex", "--seed", "3", "--steps", "30"}
	var files []string
	for i := 1; i <= 3; i++ {
		_, out, errOut := run(append(base, "--runs", "2", "--shard", strconv.Itoa(i)+"/3", "--json")...)
		f := filepath.Join(dir, "shard"+strconv.Itoa(i)+".json")
		if err := os.WriteFile(f, []byte(out), 0o644); err != nil || out == "" {
			t.Fatalf("shard %d: %v %s", i, err, errOut)
		}
		files = append(files, f)
	}
	code, whole, _ := run(append(base, "--runs", "6")...)
	mcode, merged, errOut := run(append([]string{"simulate", "merge"}, files...)...)
	if mcode != code || code != 1 {
		t.Fatalf("merged exit %d, the whole hunt %d (want 1): %s", mcode, code, errOut)
	}
	for _, want := range []string{"violated in run 4 after 6 transitions", "tried 5 runs, 126 transitions"} {
		if !strings.Contains(whole, want) || !strings.Contains(merged, want) {
			t.Fatalf("want %q in both:\nwhole:\n%s\nmerged:\n%s", want, whole, merged)
		}
	}
	_, doc, _ := run(append([]string{"simulate", "merge", "--json"}, files...)...)
	mergedJSON := filepath.Join(dir, "merged.json")
	os.WriteFile(mergedJSON, []byte(doc), 0o644)
	if code, out, errOut := run("replay", mergedJSON); code != 0 || !strings.Contains(out, "replayed: 6 transitions") {
		t.Fatalf("replay of the merged document: exit %d\n%s%s", code, out, errOut)
	}
	if code, _, errOut := run("simulate", "merge", files[0], files[0]); code != 2 || !strings.Contains(errOut, "ran the same runs") {
		t.Fatalf("a shard twice: exit %d, %s", code, errOut)
	}
	_, other, _ := run(append(base[:len(base)-4], "--seed", "4", "--steps", "30", "--runs", "2", "--shard", "2/3", "--json")...)
	otherFile := filepath.Join(dir, "other.json")
	os.WriteFile(otherFile, []byte(other), 0o644)
	if code, _, errOut := run("simulate", "merge", files[0], otherFile); code != 2 || !strings.Contains(errOut, "not shards of one hunt") {
		t.Fatalf("another seed: exit %d, %s", code, errOut)
	}
	// a shard that --timeout stopped leaves a gap in the runs: the merge
	// says so
	budget := []string{"simulate", "../../../../testdata/fischer.yaml", "-q", "mutex", "--runs", "1000000000", "--timeout", "100ms", "--json"}
	var timed []string
	for i := 1; i <= 2; i++ {
		_, out, _ := run(append(budget, "--shard", strconv.Itoa(i)+"/2")...)
		f := filepath.Join(dir, "timed"+strconv.Itoa(i)+".json")
		os.WriteFile(f, []byte(out), 0o644)
		timed = append(timed, f)
	}
	if code, out, errOut := run(append([]string{"simulate", "merge"}, timed...)...); code != 0 || !strings.Contains(out, "(a shard stopped by --timeout before its last run)") {
		t.Fatalf("shards stopped by --timeout: exit %d\n%s%s", code, out, errOut)
	}
}

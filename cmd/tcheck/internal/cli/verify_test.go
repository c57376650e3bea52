package cli

import (
	"bytes"
	"encoding/json"
	"flag"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

var update = flag.Bool("update", false, "rewrite golden files")

// run runs tcheck with args and returns its exit code, stdout and stderr.
func run(args ...string) (int, string, string) {
	var out, errOut bytes.Buffer
	code := Main(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// volatile masks the fields that change from run to run.
var volatile = regexp.MustCompile(`time [0-9.]+[a-zµ]+, peak memory [0-9.]+ [KMG]?i?B`)

func golden(t *testing.T, name, got string) {
	t.Helper()
	got = volatile.ReplaceAllString(got, "time X, peak memory X")
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if string(want) != got {
		t.Errorf("output differs from %s (run with -update and inspect the diff):\n%s", path, got)
	}
}

// TestVerifyExitCodes checks the documented exit codes: 0 when every query
// is as expected, 1 when a property is violated or an expectation missed,
// 2 for usage and model errors.
func TestVerifyExitCodes(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		code int
	}{
		{"all as expected", []string{"verify", "../../../../testdata/fischer.yaml", "--no-progress"}, 0},
		{"expectation missed", []string{"verify", "../../../../testdata/regress/wrong/select-wrong.yaml", "-q", "largest", "--no-progress"}, 1},
		{"expectation for other parameters not judged", []string{"verify", "../../../../testdata/fischer.yaml", "--set", "w=9", "-q", "mutex", "--no-progress"}, 0},
		{"a formula violated under --set", []string{"verify", "../../../../testdata/fischer.yaml", "--set", "w=9", "-q", "A[] !(P(1).cs && P(2).cs)", "--no-progress"}, 1},
		{"formula violated", []string{"verify", "../../../../testdata/fischer.yaml", "-q", "E<> P(1).cs && P(2).cs", "--no-progress"}, 1},
		{"formula satisfied", []string{"verify", "../../../../testdata/fischer.yaml", "-q", "E<> P(1).cs", "--no-progress"}, 0},
		{"runtime error", []string{"verify", "../../../../queries/testdata/errors/range.yaml", "--no-progress"}, 2},
		{"UPPAAL XTA with a .q file", []string{"verify", "../../../../testdata/uppaal/fischer.xta", "--queries", "../../../../testdata/uppaal/fischer.q", "--no-progress"}, 0},
		{"bundled model", []string{"verify", "timeout", "-q", "A1", "--no-progress"}, 0},
		{"missing .q file", []string{"verify", "../../../../testdata/uppaal/fischer.xta", "--queries", "nope.q"}, 2},
		{"missing file", []string{"verify", "no-such-model.yaml"}, 2},
		{"bad flag", []string{"verify", "--order", "sideways", "../../../../testdata/fischer.yaml"}, 2},
		{"progress order without a measure", []string{"verify", "--order", "progress", "../../../../testdata/fischer.yaml", "--no-progress"}, 2},
		{"progress order by the model's measure", []string{"verify", "--order", "progress", "agreement-scalar", "-q", "termination", "--no-progress"}, 0},
		{"bad query", []string{"verify", "../../../../testdata/fischer.yaml", "-q", "E<> P(9).cs"}, 2},
		{"unknown parameter", []string{"verify", "../../../../testdata/fischer.yaml", "--set", "nope=1"}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := run(tc.args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.code, out, errOut)
			}
		})
	}
}

// TestVerifyRefusesWhatItCannotCheck proves that inputs that once gave a
// wrong verdict, a panic or unbounded memory are refused with exit 2 and a
// clear message (issue 12): a clock constant outside the DBM's range, a
// model path that is an endless stream, a file over --max-input, and a
// load that exceeds --max-memory.
func TestVerifyRefusesWhatItCannotCheck(t *testing.T) {
	dir := t.TempDir()
	clockModel := filepath.Join(dir, "big-constant.yaml")
	src := "name: m\ndeclarations: clock x;\ntemplates:\n  - name: P\n    locations:\n      - {name: a, initial: true}\n      - {name: b}\n    edges:\n      - {from: a, to: b, guard: x < 1500000000}\nsystem: system P;\n"
	if err := os.WriteFile(clockModel, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	defer debug.SetMemoryLimit(math.MaxInt64) // --max-memory sets the process's GC limit
	zero := filepath.Join(dir, "zero.yaml")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		msg  string
	}{
		{"clock constant out of range", []string{"verify", clockModel, "-q", "A[] !P.b"}, "big-constant.yaml:9:35: clock constant 1500000000 in x < 1500000000 out of range"},
		{"an endless stream", []string{"verify", zero}, "larger than the input limit of 8 MiB"},
		{"a file over --max-input", []string{"verify", "../../../../testdata/fischer.yaml", "--max-input", "1KiB"}, "larger than the input limit of 1 KiB"},
		// The abandoned load reads on until --max-input stops it: keep that small.
		{"a load over --max-memory", []string{"verify", zero, "--max-input", "256MiB", "--max-memory", "64MiB"}, "memory limit 64 MiB reached while loading the model"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := run(tc.args...)
			if code != 2 || !strings.Contains(errOut, tc.msg) {
				t.Fatalf("exit %d, want 2 with %q\nstdout:\n%s\nstderr:\n%s", code, tc.msg, out, errOut)
			}
		})
	}
}

// TestVerifyReportsEveryQuery proves that a query tcheck cannot check is
// reported as an error with its position while the others are still
// checked and printed (issue 18, item 2), and that a bare word naming no
// query gets the model's query names and the closest one (issue 16, item 5).
func TestVerifyReportsEveryQuery(t *testing.T) {
	code, out, errOut := run("verify", "../../../../testdata/fischer.yaml", "-q", "mutex", "-q", "E<> P(9).cs", "-q", "cs-reachable", "--no-progress")
	if code != 2 {
		t.Fatalf("exit %d, want 2\n%s%s", code, out, errOut)
	}
	for _, want := range []string{"mutex: A[]", "satisfied  (as expected)", "E<> P(9).cs\n  error\n  error: -q[2]:1:", "cs-reachable: E<> P(1).cs\n  satisfied"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// --set to the file's own value changes no parameter: the expectation holds
	if _, out, _ := run("verify", "../../../../testdata/fischer.yaml", "--set", "w=10", "-q", "mutex", "--no-progress"); !strings.Contains(out, "satisfied  (as expected)") {
		t.Errorf("--set w=10 (the file's value): %s", out)
	}
	// an unsupported liveness formula is positioned too (issue 16, item 11)
	if _, out, _ := run("verify", "../../../../testdata/fischer.yaml", "-q", "A<> P(1).x > 3"); !strings.Contains(out, "error: -q[1]:1:1: P(1).x > 3: clock constraints") {
		t.Errorf("liveness formula with a clock: %s", out)
	}
	code, out, errOut = run("verify", "../../../../testdata/fischer.yaml", "-q", "mutx")
	if want := "no query named mutx; ../../../../testdata/fischer.yaml has: mutex, cs-reachable, no-deadlock (did you mean mutex?)"; code != 2 || !strings.Contains(errOut, want) {
		t.Fatalf("exit %d, stderr %q, want 2 and %q (stdout %q)", code, errOut, want, out)
	}
}

// TestVerifyOutput pins the text output, with traces, of a violated
// property (golden file, volatile fields masked; one worker, whose counts
// and BFS-shortest trace are reproducible). Under --set the model's
// `expect: satisfied` is for its own parameters: the verdict is printed
// as not judged, and the exit code is 0 (docs/queries.md, Expectations).
func TestVerifyOutput(t *testing.T) {
	code, out, _ := run("verify", "../../../../testdata/fischer.yaml", "--set", "N=3", "--set", "w=9", "-q", "mutex", "--trace", "--stats", "--no-progress", "--workers", "1")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	golden(t, "verify-fischer-violated.txt", out)
}

// TestVerifyJSONMatchesSchema checks that --json output validates against
// the documented schema docs/verify.schema.json, for satisfied, violated,
// sup and error results, and sup/inf bounds under --hull.
func TestVerifyJSONMatchesSchema(t *testing.T) {
	c := jsonschema.NewCompiler()
	sch, err := c.Compile("../../../../docs/verify.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"../../../../testdata/fischer.yaml", "--set", "w=9"},
		{"../../../../queries/testdata/semantics/invariants.yaml"},
		{"../../../../queries/testdata/semantics/select.yaml"},
		{"../../../../queries/testdata/errors/range.yaml"},
		{"../../../../queries/testdata/semantics/liveness.yaml"},
		{"../../../../queries/testdata/semantics/hull.yaml", "--hull"},
	} {
		t.Run(filepath.Base(args[0]), func(t *testing.T) {
			_, out, errOut := run(append([]string{"verify", "--json", "--no-progress"}, args...)...)
			var doc any
			if err := json.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatalf("not JSON: %v\n%s\n%s", err, out, errOut)
			}
			if err := sch.Validate(doc); err != nil {
				t.Fatalf("does not match the schema: %v", err)
			}
			if !strings.Contains(out, `"verdict"`) {
				t.Fatal("no verdicts")
			}
		})
	}
	// A model that does not load is a JSON document with the error.
	code, out, _ := run("verify", "--json", "no-such-model.yaml")
	var doc map[string]any
	if err := json.Unmarshal([]byte(out), &doc); err != nil || code != 2 {
		t.Fatalf("exit %d, output not JSON (%v): %q", code, err, out)
	}
	if err := sch.Validate(any(doc)); err != nil {
		t.Fatalf("the error document does not match the schema: %v", err)
	}
	if msg, _ := doc["error"].(string); !strings.Contains(msg, "no-such-model.yaml") {
		t.Fatalf("error %q", msg)
	}
}

// TestUsageErrorsExit2 proves that what a user gets wrong on the command
// line is a usage error (exit 2) with a message, never silently taken as
// "no limit" or as a request for help (issue 16, items 9 and 13).
func TestUsageErrorsExit2(t *testing.T) {
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{nil, "no command given"},
		{[]string{"verify", "../../../../testdata/fischer.yaml", "--max-states", "-5"}, "--max-states: -5 is negative"},
		{[]string{"verify", "../../../../testdata/fischer.yaml", "--timeout", "-1s"}, "--timeout: -1s is negative"},
		{[]string{"verify", "../../../../testdata/fischer.yaml", "--max-memory", "12XB"}, `--max-memory: "12XB" is not a size`},
		{[]string{"verify", "../../../../testdata/fischer.yaml", "--set", "N=99999999999"}, "tcheck: --set N=99999999999: the value does not fit in 32 bits"},
		{[]string{"verify", "agrement"}, "(did you mean the bundled model agreement?)"},
		{[]string{"verify", "../../../../testdata/fischer.yaml", "--subsumption", "lu"}, "--subsumption:"},
		{[]string{"verify", "../../../../testdata/fischer.yaml", "--workers", "0"}, "--workers: 0 is not a number of workers"},
		{[]string{"sweep", "timeout", "--grid", "d=0..1", "--workers", "-2"}, "--workers: -2 is not a number of workers"},
		{[]string{"test", "../../../../testdata/regress/ok", "--workers", "0"}, "--workers: 0 is not a number of workers"},
	} {
		code, _, errOut := run(tc.args...)
		if code != 2 || !strings.Contains(errOut, tc.msg) {
			t.Errorf("tcheck %v: exit %d, stderr %q, want 2 and %q", tc.args, code, errOut, tc.msg)
		}
	}
	code, out, _ := run("version")
	if code != 0 || !strings.HasPrefix(out, "tcheck "+Version) {
		t.Errorf("tcheck version: exit %d, %q", code, out)
	}
}

// TestVerifyInterrupted checks Ctrl-C on verify: the exploration stops,
// every query is still reported (those not answered as unknown
// [interrupted]) and the exit code is 130 (issue 16, item 6).
func TestVerifyInterrupted(t *testing.T) {
	saved := verifySignals
	defer func() { verifySignals = saved }()
	savedAfter := afterPrepare
	defer func() { afterPrepare = savedAfter }()
	verifySignals = func() (<-chan os.Signal, func()) {
		ch := make(chan os.Signal, 1)
		// Ctrl-C once the model is loaded
		afterPrepare = func() { ch <- os.Interrupt }
		return ch, func() {}
	}
	code, out, errOut := run("verify", "../../../../testdata/fischer.yaml", "--set", "N=7", "--no-progress")
	if code != ExitInterrupted {
		t.Fatalf("exit %d, want %d\n%s%s", code, ExitInterrupted, out, errOut)
	}
	for _, want := range []string{"mutex:", "cs-reachable:", "no-deadlock:", "unknown", "[interrupted]"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(errOut, "interrupted:") {
		t.Errorf("stderr %q", errOut)
	}
}

// TestVerifyLimitsCoverLoading proves that --timeout, --max-memory and
// Ctrl-C stop verify while it loads a model and compiles its queries, as
// they stop its searches (a long chain of clock constraints once compiled
// for minutes past both limits: docs/results.md). The loads are of an
// endless stream, read until --max-input stops them (some milliseconds at
// 64 MiB); the time limit is far shorter.
func TestVerifyLimitsCoverLoading(t *testing.T) {
	zero := filepath.Join(t.TempDir(), "zero.yaml")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	saved := verifySignals
	defer func() { verifySignals = saved }()
	for _, tc := range []struct {
		name   string
		args   []string
		ctrlC  bool
		code   int
		stderr string
	}{
		{"--timeout", []string{"verify", zero, "--max-input", "64MiB", "--timeout", "1ms"}, false, ExitUsage, "time limit 1ms reached while loading the model and compiling its queries"},
		{"Ctrl-C", []string{"verify", zero, "--max-input", "64MiB"}, true, ExitInterrupted, "interrupted while loading the model"},
		{"--timeout as JSON", []string{"verify", zero, "--max-input", "64MiB", "--timeout", "1ms", "--json"}, false, ExitUsage, "time limit 1ms reached"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			verifySignals = func() (<-chan os.Signal, func()) {
				ch := make(chan os.Signal, 1)
				if tc.ctrlC {
					ch <- os.Interrupt // at once
				}
				return ch, func() {}
			}
			code, out, errOut := run(tc.args...)
			if code != tc.code || !strings.Contains(errOut, tc.stderr) {
				t.Fatalf("exit %d, want %d with %q\nstdout:\n%s\nstderr:\n%s", code, tc.code, tc.stderr, out, errOut)
			}
			if slices.Contains(tc.args, "--json") && !strings.Contains(out, `"exit_code": 2`) {
				t.Errorf("no JSON document with the exit code:\n%s", out)
			}
		})
	}
}

// TestPrepareWithinStopsAtEachLimit: prepareWithin hands back what the
// preparation gives while no limit is reached, and gives up on a
// preparation still running at the deadline, over the memory limit or
// when cancelled, without waiting for it, and tells it to stop (the
// interrupt it gave the preparation's compilations fires).
func TestPrepareWithinStopsAtEachLimit(t *testing.T) {
	savedHeap := prepareHeap
	defer func() { prepareHeap = savedHeap }()
	closed := make(chan struct{})
	close(closed)
	for _, tc := range []struct {
		name   string
		limits prepareLimits
		heap   uint64
		block  bool
		want   string // "" : the preparation's value
	}{
		{"no limits", prepareLimits{}, 0, false, ""},
		{"within every limit", prepareLimits{maxMemory: 1 << 30, deadline: time.Now().Add(time.Hour), timeout: time.Hour}, 1 << 20, false, ""},
		{"past the deadline", prepareLimits{deadline: time.Now().Add(20 * time.Millisecond), timeout: 20 * time.Millisecond}, 0, true, "time limit 20ms reached"},
		{"over the memory limit", prepareLimits{maxMemory: 1 << 20}, 1 << 21, true, "memory limit 1 MiB reached"},
		{"cancelled", prepareLimits{cancel: closed}, 0, true, "interrupted while loading the model"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			prepareHeap = func() uint64 { return tc.heap }
			release := make(chan struct{})
			defer close(release)
			interrupt := make(chan func() bool, 1)
			v, err := prepareWithin(tc.limits, func(i func() bool) (int, error) {
				interrupt <- i
				if tc.block {
					// until released, or long past the limit: a
					// prepareWithin that waits for it then fails
					select {
					case <-release:
					case <-time.After(2 * time.Second):
					}
				}
				return 42, nil
			})
			if tc.want == "" {
				if v != 42 || err != nil {
					t.Fatalf("got %d, %v; want 42", v, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %d, %v; want the error %q", v, err, tc.want)
			}
			// the preparation left running is told to stop
			if i := <-interrupt; i == nil || !i() {
				t.Errorf("the abandoned preparation's interrupt does not fire")
			}
		})
	}
	if _, err := prepareWithin(prepareLimits{}, func(func() bool) (int, error) { return 0, os.ErrNotExist }); err != os.ErrNotExist {
		t.Errorf("the preparation's error came back as %v", err)
	}
}

// TestVerifySubsumption checks --subsumption alu, the default: the same
// verdict as inclusion, fewer stored zones where global bounds leave room
// (Fischer N = 6 under Extra_LU with global bounds: 835,735 zones with
// inclusion, 26,799 with aLU), and the output says which subsumption was
// used; deadlock falls back to inclusion.
func TestVerifySubsumption(t *testing.T) {
	base := []string{"verify", "../../../../testdata/fischer.yaml", "--set", "N=5", "--global-bounds", "--extrapolation", "lu", "--stats", "--no-progress", "-q", "mutex", "--workers", "1"}
	_, incl, _ := run(append(base, "--subsumption", "inclusion")...)
	if strings.Contains(incl, "aLU subsumption") {
		t.Fatalf("--subsumption inclusion:\n%s", incl)
	}
	code, alu, errOut := run(base...)
	if code != 0 || !strings.Contains(alu, "satisfied") || !strings.Contains(alu, "aLU subsumption") {
		t.Fatalf("exit %d\n%s%s", code, alu, errOut)
	}
	stored := regexp.MustCompile(`stored (\d+)`)
	ni, _ := strconv.Atoi(stored.FindStringSubmatch(incl)[1])
	na, _ := strconv.Atoi(stored.FindStringSubmatch(alu)[1])
	if na >= ni {
		t.Fatalf("aLU stored %d zones, inclusion %d", na, ni)
	}
	_, dl, _ := run("verify", "../../../../testdata/fischer.yaml", "-q", "no-deadlock", "--stats", "--no-progress", "--subsumption", "alu")
	if !strings.Contains(dl, "satisfied") || strings.Contains(dl, "aLU subsumption") {
		t.Fatalf("deadlock under --subsumption alu:\n%s", dl)
	}
}

// TestVerifyHintsAtAnotherOrder checks that verify suggests --order
// topological, ranked or dfs on stderr where breadth first explored far more than it kept
// (FDDI N = 10: 10,219 states explored for 459 stored), and only there:
// not under another order, and not on Fischer (1.7 times).
func TestVerifyHintsAtAnotherOrder(t *testing.T) {
	fddi := filepath.Join(repoRoot, "testdata", "fddi.yaml")
	fischer := filepath.Join(repoRoot, "testdata", "fischer.yaml")
	for _, tc := range []struct {
		name string
		args []string
		hint bool
	}{
		{"fddi bfs", []string{"verify", fddi, "--set", "N=10", "-q", "token-held"}, true},
		{"fddi ranked", []string{"verify", fddi, "--set", "N=10", "-q", "token-held", "--order", "ranked"}, false},
		{"fddi topological", []string{"verify", fddi, "--set", "N=10", "-q", "token-held", "--order", "topological"}, false},
		{"fddi dfs", []string{"verify", fddi, "--set", "N=10", "-q", "token-held", "--order", "dfs"}, false},
		{"fischer bfs", []string{"verify", fischer, "--set", "N=8"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, stderr := run(append(tc.args, "--workers", "1", "--no-progress")...)
			if code != ExitOK {
				t.Fatalf("exit %d:\n%s%s", code, out, stderr)
			}
			got := strings.Contains(stderr, "hint: token-held: breadth first explored 10219 states for 459 stored")
			if got != tc.hint || strings.Contains(out, "hint:") {
				t.Fatalf("hint on stderr %v, want %v (stdout has none):\nstdout:\n%s\nstderr:\n%s", got, tc.hint, out, stderr)
			}
		})
	}
}

// TestEveryModelReaderTakesMaxInput: every command that reads a model file
// refuses one over --max-input with the message that names the flag, and
// the flag raises the limit. convert, export and replay refused a file
// over 8 MiB with "--max-input raises it" and had no such flag.
func TestEveryModelReaderTakesMaxInput(t *testing.T) {
	fischer := "../../../../testdata/fischer.yaml"
	out := filepath.Join(t.TempDir(), "out.xml")
	for _, args := range [][]string{
		{"verify", fischer, "-q", "mutex", "--no-progress"},
		{"sweep", fischer, "-q", "mutex", "--grid", "N=2..3"},
		{"test", fischer},
		{"simulate", fischer, "--runs", "1"},
		{"convert", fischer, "--to", "xml", "-o", out},
		{"export", fischer, "--to", "xml", "-o", out},
	} {
		t.Run(args[0], func(t *testing.T) {
			code, stdout, stderr := run(append(args, "--max-input", "1KiB")...)
			if code != 2 || !strings.Contains(stdout+stderr, "larger than the input limit of 1 KiB (--max-input raises it)") {
				t.Fatalf("exit %d, want 2 with the input limit\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
			}
			if code, stdout, stderr := run(append(args, "--max-input", "1MiB")...); code == 2 {
				t.Fatalf("--max-input 1MiB: exit 2\nstdout:\n%s\nstderr:\n%s", stdout, stderr)
			}
		})
	}
	if code, _, stderr := run("replay", fischer, "--max-input", "1KiB"); code != 2 || !strings.Contains(stderr, "larger than the input limit of 1 KiB") {
		t.Fatalf("replay: exit %d, want 2 with the input limit\n%s", code, stderr)
	}
}

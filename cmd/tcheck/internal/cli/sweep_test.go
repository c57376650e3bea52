package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"

	"github.com/tcheck/tcheck/queries/sweep"
)

// repoRoot is the module root seen from this package's directory.
const repoRoot = "../../../.."

// bundledPath returns the file of a bundled model.
func bundledPath(name string) string { return filepath.Join(repoRoot, "agreement", name+".yaml") }

// tcheckBinary builds the tcheck command into the test's temporary
// directory, for the tests that run it as separate processes (the build
// cache makes all but the first build a link).
func tcheckBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "tcheck")
	out, err := exec.Command("go", "build", "-o", bin, "github.com/tcheck/tcheck/cmd/tcheck").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// timeoutSweep is a small sweep of the timeout model (6 points, well
// under a second) with verdicts and a sup value per point.
func timeoutSweep() []string {
	return []string{"sweep", bundledPath("timeout"), "--grid", "c1=1", "--grid", "c2=1..2", "--grid", "d=0..2",
		"-q", "A1", "-q", "A2", "-q", "detection=sup{Process.halted && !has_halted && !Observer.halted}: Process.x", "--no-progress"}
}

// stableJSONL rewrites a jsonl result file with the volatile fields
// cleared, so that runs can be compared byte for byte.
func stableJSONL(t *testing.T, path string) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	res, err := sweep.ReadResults(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if res.Truncated {
		t.Errorf("%s: truncated", path)
	}
	var b bytes.Buffer
	if err := sweep.Write(&b, "jsonl", res.Header, res.Points, res.Header.Sweep.Points, sweep.WriteOptions{Stable: true}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestSweepShardsMergeToTheUnshardedResult runs a sweep whole and as three
// shards in separate processes (two with --shard i/n, one the way a
// Kubernetes Indexed Job runs it, from JOB_COMPLETION_INDEX), merges the
// shards, and compares every output format with the unsharded run's, byte
// for byte with --stable (which omits time and memory) and after clearing
// time and memory in the jsonl files written without it.
func TestSweepShardsMergeToTheUnshardedResult(t *testing.T) {
	bin := tcheckBinary(t)
	dir := t.TempDir()
	whole := filepath.Join(dir, "whole.jsonl")
	if out, err := exec.Command(bin, append(timeoutSweep(), "--format", "jsonl", "--out", whole)...).CombinedOutput(); err != nil {
		t.Fatalf("unsharded sweep: %v\n%s", err, out)
	}
	var wg sync.WaitGroup
	shards := make([]string, 3)
	errs := make([]error, 3)
	outs := make([][]byte, 3)
	for i := range 3 {
		shards[i] = filepath.Join(dir, "shard-"+string(rune('0'+i))+".jsonl")
		args := append(timeoutSweep(), "--format", "jsonl", "--out", shards[i])
		cmd := exec.Command(bin, args...)
		if i == 2 {
			cmd.Args = append(cmd.Args, "--shard", "auto")
			cmd.Env = append(os.Environ(), "JOB_COMPLETION_INDEX=2", "TCHECK_SHARDS=3")
		} else {
			cmd.Args = append(cmd.Args, "--shard", string(rune('0'+i))+"/3")
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			outs[i], errs[i] = cmd.CombinedOutput()
		}()
	}
	wg.Wait()
	for i := range 3 {
		if errs[i] != nil {
			t.Fatalf("shard %d: %v\n%s", i, errs[i], outs[i])
		}
	}
	// Every shard holds its own points only.
	total := 0
	for i, s := range shards {
		f, _ := os.Open(s)
		res, err := sweep.ReadResults(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if res.Header.Shard == nil || res.Header.Shard.Index != i || res.Header.Shard.Count != 3 {
			t.Errorf("shard %d: header shard %+v", i, res.Header.Shard)
		}
		for _, p := range res.Points {
			if p.Index%3 != i {
				t.Errorf("shard %d holds point %d", i, p.Index)
			}
		}
		total += len(res.Points)
	}
	if total != 6 {
		t.Errorf("the shards hold %d points, want 6", total)
	}
	merged := filepath.Join(dir, "merged.jsonl")
	if out, err := exec.Command(bin, append([]string{"sweep", "merge", "--format", "jsonl", "--out", merged}, shards...)...).CombinedOutput(); err != nil {
		t.Fatalf("merge: %v\n%s", err, out)
	}
	if a, b := stableJSONL(t, whole), stableJSONL(t, merged); a != b {
		t.Errorf("merged jsonl differs from the unsharded run:\n%s\nwant\n%s", b, a)
	}
	for _, format := range sweep.Formats {
		want, err := exec.Command(bin, append(timeoutSweep(), "--format", format, "--stable")...).Output()
		if err != nil {
			t.Fatalf("%s: %v", format, err)
		}
		got, err := exec.Command(bin, append([]string{"sweep", "merge", "--format", format, "--stable"}, shards...)...).Output()
		if err != nil {
			t.Fatalf("merge %s: %v", format, err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: merged output differs from the unsharded run:\n%s\nwant\n%s", format, got, want)
		}
	}
	// A missing shard is an error unless --partial.
	code, _, stderr := run("sweep", "merge", shards[0], shards[1])
	if code != ExitUsage || !strings.Contains(stderr, "2 of 6 points are missing") {
		t.Errorf("merge without a shard: exit %d, %q", code, stderr)
	}
	if code, _, _ := run("sweep", "merge", "--partial", shards[0], shards[1]); code != ExitOK {
		t.Errorf("merge --partial: exit %d", code)
	}
}

// TestSweepInterruptedAndResumedLosesNoPoint interrupts a sweep with
// SIGINT once some points are in its --resume file, checks that the file
// is a valid result file holding the finished points, resumes it, and
// compares the result with an uninterrupted run.
func TestSweepInterruptedAndResumedLosesNoPoint(t *testing.T) {
	bin := tcheckBinary(t)
	dir := t.TempDir()
	journal := filepath.Join(dir, "r.jsonl")
	// Fischer N=2..6: the points grow from a millisecond to a fifth of a
	// second (the last ones stop at the state limit), so the sweep is
	// still running when the signal comes after the second point.
	args := []string{"sweep", repoRoot + "/testdata/fischer.yaml", "--grid", "N=2..6", "--grid", "w=9..10", "-q", "mutex", "-q", "no-deadlock",
		"--max-states", "30000", "-j", "1", "--workers", "1", "--no-progress"}
	cmd := exec.Command(bin, append(args, "--resume", journal)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		b, _ := os.ReadFile(journal)
		if bytes.Count(b, []byte("\n")) >= 3 { // header and two points
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("no points after 20s: %s", stderr.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != ExitInterrupted {
		t.Fatalf("interrupted sweep: %v, want exit %d; stderr:\n%s", err, ExitInterrupted, stderr.String())
	}
	if !strings.Contains(stderr.String(), "resume with --resume") {
		t.Errorf("stderr does not say how to resume:\n%s", stderr.String())
	}
	f, _ := os.Open(journal)
	res, err := sweep.ReadResults(f)
	f.Close()
	if err != nil || res.Truncated {
		t.Fatalf("the interrupted file is not a valid result file: %v (truncated %v)", err, res != nil && res.Truncated)
	}
	done := len(res.Points)
	if done < 2 || done >= 10 {
		t.Fatalf("%d of 10 points in the interrupted file, want 2..9", done)
	}
	cmd = exec.Command(bin, append(args, "--resume", journal)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("resumed sweep: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "resuming: ") {
		t.Errorf("no resuming message:\n%s", out)
	}
	whole := filepath.Join(dir, "whole.jsonl")
	if out, err := exec.Command(bin, append(args, "--format", "jsonl", "--out", whole)...).CombinedOutput(); err != nil {
		t.Fatalf("whole sweep: %v\n%s", err, out)
	}
	if a, b := stableJSONL(t, whole), stableJSONL(t, journal); a != b {
		t.Errorf("resumed result differs from an uninterrupted run:\n%s\nwant\n%s", b, a)
	}
}

// TestSweepResumeDropsATruncatedLine resumes from a file whose last line
// was cut off (the writer was killed): the line is dropped, its point run
// again, and the file ends complete.
func TestSweepResumeDropsATruncatedLine(t *testing.T) {
	dir := t.TempDir()
	journal := filepath.Join(dir, "r.jsonl")
	args := []string{"sweep", repoRoot + "/testdata/fischer.yaml", "--grid", "N=2..3", "--grid", "w=9..10", "-q", "mutex", "--no-progress", "--stable"}
	if code, _, stderr := run(append(args, "--resume", journal)...); code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	full, _ := os.ReadFile(journal)
	lines := strings.SplitAfter(string(full), "\n")
	// Keep the header, two points and half of the third.
	cut := lines[0] + lines[1] + lines[2] + lines[3][:len(lines[3])/2]
	os.WriteFile(journal, []byte(cut), 0o644)
	code, _, stderr := run(append(args, "--resume", journal)...)
	if code != ExitOK || !strings.Contains(stderr, "resuming: 2 of 4 points") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	again, _ := os.ReadFile(journal)
	if string(again) != string(full) {
		t.Errorf("resumed file:\n%s\nwant\n%s", again, full)
	}
	// An empty resume file starts afresh.
	os.WriteFile(journal, nil, 0o644)
	if code, _, stderr := run(append(args, "--resume", journal)...); code != ExitOK {
		t.Fatalf("empty resume file: exit %d: %s", code, stderr)
	}
	if again, _ := os.ReadFile(journal); string(again) != string(full) {
		t.Errorf("from an empty resume file:\n%s\nwant\n%s", again, full)
	}
	// A resume file of another sweep is refused.
	code, _, stderr = run("sweep", repoRoot+"/testdata/fischer.yaml", "--grid", "N=2..4", "-q", "mutex", "--resume", journal)
	if code != ExitUsage || !strings.Contains(stderr, "another sweep (the grids differ)") {
		t.Errorf("other sweep: exit %d, %q", code, stderr)
	}
}

func TestSweepTableGolden(t *testing.T) {
	code, out, stderr := run(append(timeoutSweep(), "--stable")...)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	golden(t, "sweep-timeout.txt", out)
}

// TestSweepFilePaperTable runs the shipped timeout sweep file restricted
// to its cheapest points and checks its expectations (the detection delay
// is exactly T on every row of the paper's table 2.1).
func TestSweepFilePaperTable(t *testing.T) {
	code, out, stderr := run("sweep", repoRoot+"/agreement/paper/timeout.sweep.yaml", "--stable", "--no-progress", "--where", "c1 == 1 && d <= 2")
	if code != ExitOK {
		t.Fatalf("exit %d: %s\n%s", code, stderr, out)
	}
	if !strings.Contains(out, "6 points: 6 ok") || strings.Contains(out, "!") {
		t.Errorf("unexpected table:\n%s", out)
	}
}

func TestSweepExitCodes(t *testing.T) {
	fischer := repoRoot + "/testdata/fischer.yaml"
	dir := t.TempDir()
	wrong := filepath.Join(dir, "wrong.sweep.yaml")
	os.WriteFile(wrong, []byte("model: "+filepath.Join("..", "..", "..", "..", "..")+"/nonexistent\ngrid: {N: 2}\n"), 0o644)
	missed := filepath.Join(dir, "missed.sweep.yaml")
	abs, _ := filepath.Abs(fischer)
	os.WriteFile(missed, []byte("model: "+abs+"\nqueries: [mutex]\ngrid: {N: 2, w: 9..10}\nexpect: {mutex: satisfied}\n"), 0o644)
	for _, tc := range []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"ok", []string{"sweep", fischer, "--grid", "N=2", "--grid", "w=9..10", "-q", "mutex"}, ExitOK, ""},
		{"expectation missed", []string{"sweep", missed}, ExitViolated, ""},
		{"model error at a point", []string{"sweep", bundledPath("timeout"), "--grid", "c1=0..1", "-q", "A1"}, ExitUsage, "model errors"},
		{"no grid", []string{"sweep", fischer}, ExitUsage, "no grid"},
		{"not a parameter", []string{"sweep", fischer, "--grid", "x=1"}, ExitUsage, "x is not a parameter"},
		{"bad shard", []string{"sweep", fischer, "--grid", "N=2", "--shard", "3/3"}, ExitUsage, "0 <= i < n"},
		{"bad format", []string{"sweep", fischer, "--grid", "N=2", "--format", "xml"}, ExitUsage, "--format"},
		{"flags with a sweep file", []string{"sweep", missed, "--grid", "N=3"}, ExitUsage, "give it in the sweep file"},
		{"missing model", []string{"sweep", wrong}, ExitUsage, "nonexistent"},
		{"bad plot", []string{"sweep", fischer, "--grid", "N=2", "--plot", filepath.Join(dir, "x.gif")}, ExitUsage, ".svg"},
		{"costs file missing", []string{"sweep", fischer, "--grid", "N=2", "--costs", filepath.Join(dir, "none.jsonl")}, ExitUsage, "--costs"},
		{"costs file not a result file", []string{"sweep", fischer, "--grid", "N=2", "--costs", missed}, ExitUsage, "not a JSON result file"},
		{"csv over the resume file", []string{"sweep", fischer, "--grid", "N=2", "--format", "csv", "--out", filepath.Join(dir, "r"), "--resume", filepath.Join(dir, "r")}, ExitUsage, "is the --resume file"},
	} {
		code, _, stderr := run(append(tc.args, "--no-progress")...)
		if code != tc.code || !strings.Contains(stderr, tc.msg) {
			t.Errorf("%s: exit %d (want %d), stderr %q (want %q)", tc.name, code, tc.code, stderr, tc.msg)
		}
	}
}

// TestSweepCostsKeepTheOutput: a sweep started longest first from an
// earlier run's result file (--costs) prints what the run in index order
// prints, and says how many points it found costs for.
func TestSweepCostsKeepTheOutput(t *testing.T) {
	dir := t.TempDir()
	first := filepath.Join(dir, "first.jsonl")
	args := append(timeoutSweep(), "--workers", "1", "--stable")
	if code, _, stderr := run(append(args, "--format", "jsonl", "-o", first)...); code != ExitOK {
		t.Fatalf("first run: exit %d: %s", code, stderr)
	}
	code, plain, _ := run(args...)
	code2, ordered, stderr := run(append(args, "--costs", first)...)
	if code != ExitOK || code2 != ExitOK {
		t.Fatalf("exit %d and %d: %s", code, code2, stderr)
	}
	if ordered != plain {
		t.Errorf("output with --costs:\n%s\nwithout:\n%s", ordered, plain)
	}
	if !strings.Contains(stderr, "costs: 6 of 6 points have a cost (states)") {
		t.Errorf("stderr %q", stderr)
	}
}

// TestSweepPlotSVG draws the detection delay of the timeout model against
// d, one line per c2, with T overlaid.
func TestSweepPlotSVG(t *testing.T) {
	svg := filepath.Join(t.TempDir(), "delay.svg")
	code, _, stderr := run(append(timeoutSweep(), "--plot", svg, "--plot-overlay", "T", "--plot-y", "worst-time")...)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(svg)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for _, want := range []string{"<svg", ">c2=1<", ">c2=2<", ">T (c2=1)<", ">detection<", ">d<"} {
		if !strings.Contains(s, want) {
			t.Errorf("the SVG has no %q", want)
		}
	}
}

// TestPaperSweepFilesLoad parses the sweep files of the paper's tables
// (without running the large instances) and checks their sizes against
// tables 2.1 and 2.2 of seed-models.md.
func TestPaperSweepFilesLoad(t *testing.T) {
	for _, tc := range []struct {
		file   string
		points int
	}{
		{"timeout.sweep.yaml", 19},
		{"agreement.sweep.yaml", 40},
		{"agreement-deadlock.sweep.yaml", 18},
		{"agreement-scalar.sweep.yaml", 40},
	} {
		path := repoRoot + "/agreement/paper/" + tc.file
		if strings.HasPrefix(tc.file, "agreement") {
			if _, err := os.Stat(repoRoot + "/agreement/agreement.yaml"); err != nil {
				// The sweep files use the query names of the bundled
				// model in the agreement package (worst-time, ...).
				t.Logf("%s: skipped until the bundled agreement model is in agreement/", tc.file)
				continue
			}
		}
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		s, err := sweep.ParseFile(path, src, resolveSweepModel)
		if err != nil {
			t.Errorf("%s: %v", tc.file, err)
			continue
		}
		ps, err := s.Points()
		if err != nil || len(ps) != tc.points {
			t.Errorf("%s: %d points (%v), want %d", tc.file, len(ps), err, tc.points)
		}
		if !s.HasExpectations() {
			t.Errorf("%s: no expectations", tc.file)
		}
	}
}

// TestJobArrayExamplesRun runs the job scripts of docs/ the way their
// schedulers would, on a small sweep: the Slurm array script as three
// tasks (SLURM_ARRAY_TASK_ID), then its merge script; the Kubernetes
// Indexed Job's script (paths moved into a temporary directory) with
// JOB_COMPLETION_INDEX, then its merge. Both merged tables must equal the
// table of a single run.
func TestJobArrayExamplesRun(t *testing.T) {
	bin := tcheckBinary(t)
	dir := t.TempDir()
	sweepFile := filepath.Join(dir, "small.sweep.yaml")
	abs, _ := filepath.Abs(bundledPath("timeout"))
	os.WriteFile(sweepFile, []byte("model: "+abs+"\nqueries:\n  - A2\n  - detection: 'sup{Process.halted && !has_halted && !Observer.halted}: Process.x'\n"+
		"grid: {c1: 1, c2: 1..2, d: 0..2}\nexpect: {A2: satisfied, detection: = T}\n"), 0o644)
	want, err := exec.Command(bin, "sweep", sweepFile, "--no-progress").Output()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Dir(bin) + string(os.PathListSeparator) + os.Getenv("PATH")
	t.Run("slurm", func(t *testing.T) {
		out := filepath.Join(dir, "slurm")
		for i := range 3 {
			cmd := exec.Command("bash", repoRoot+"/docs/slurm/sweep.sbatch")
			cmd.Env = append(os.Environ(), "PATH="+path, "SWEEP="+sweepFile, "OUT="+out,
				"SLURM_ARRAY_TASK_ID="+strconv.Itoa(i), "SLURM_ARRAY_TASK_MIN=0", "SLURM_ARRAY_TASK_COUNT=3", "SLURM_CPUS_PER_TASK=1",
				// one CPU per task, as Slurm's cpuset gives: one worker per point,
				// whose state counts match the single-machine run's
				"GOMAXPROCS=1")
			if b, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("task %d: %v\n%s", i, err, b)
			}
		}
		cmd := exec.Command("bash", repoRoot+"/docs/slurm/merge.sbatch")
		cmd.Env = append(os.Environ(), "PATH="+path, "OUT="+out, "OVERLAY=T")
		got, err := cmd.Output()
		if err != nil {
			t.Fatalf("merge: %v\n%s", err, got)
		}
		compareTables(t, got, want)
		for _, f := range []string{"sweep.csv", "sweep.jsonl", "sweep.svg"} {
			if _, err := os.Stat(filepath.Join(out, f)); err != nil {
				t.Errorf("merge wrote no %s", f)
			}
		}
	})

	t.Run("kubernetes", func(t *testing.T) {
		job := jobScript(t, repoRoot+"/docs/k8s/sweep-job.yaml", "tcheck-sweep")
		merge := jobScript(t, repoRoot+"/docs/k8s/merge-job.yaml", "tcheck-merge")
		results := filepath.Join(dir, "k8s")
		os.MkdirAll(results, 0o755)
		move := strings.NewReplacer("/sweep/sweep.sweep.yaml", sweepFile, "/results", results)
		for i := range 3 {
			cmd := exec.Command("sh", "-c", move.Replace(job.script))
			cmd.Env = append(os.Environ(), "PATH="+path, "JOB_COMPLETION_INDEX="+strconv.Itoa(i), "TCHECK_SHARDS=3")
			if b, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("completion %d: %v\n%s", i, err, b)
			}
		}
		cmd := exec.Command("sh", "-c", move.Replace(merge.script))
		cmd.Env = append(os.Environ(), "PATH="+path)
		got, err := cmd.Output()
		if err != nil {
			t.Fatalf("merge: %v\n%s", err, got)
		}
		compareTables(t, got, want)
		if job.completions != job.parallelism || job.completions != job.shards {
			t.Errorf("completions %d, parallelism %d, TCHECK_SHARDS %d: want them equal", job.completions, job.parallelism, job.shards)
		}
	})
}

// compareTables compares sweep tables without their time and memory
// columns.
func compareTables(t *testing.T, got, want []byte) {
	t.Helper()
	strip := func(b []byte) string {
		var out []string
		for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			f := strings.Fields(l)
			switch {
			case len(f) > 0 && f[0] == "c1": // header: ... time memory
				f = f[:len(f)-2]
			case len(f) > 3 && strings.HasSuffix(f[len(f)-1], "B"): // ... 6ms 5.1 MiB
				f = f[:len(f)-3]
			}
			out = append(out, strings.Join(f, " "))
		}
		return strings.Join(out, "\n")
	}
	if g, w := strip(got), strip(want); g != w {
		t.Errorf("merged table:\n%s\nwant\n%s", g, w)
	}
}

type k8sJob struct {
	script                           string
	completions, parallelism, shards int
}

// jobScript reads the shell script and sizes of a Job manifest.
func jobScript(t *testing.T, path, name string) k8sJob {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	for {
		var doc struct {
			Kind     string `yaml:"kind"`
			Metadata struct {
				Name string `yaml:"name"`
			} `yaml:"metadata"`
			Spec struct {
				CompletionMode string `yaml:"completionMode"`
				Completions    int    `yaml:"completions"`
				Parallelism    int    `yaml:"parallelism"`
				Template       struct {
					Spec struct {
						Containers []struct {
							Command []string `yaml:"command"`
							Args    []string `yaml:"args"`
							Env     []struct {
								Name  string `yaml:"name"`
								Value string `yaml:"value"`
							} `yaml:"env"`
						} `yaml:"containers"`
					} `yaml:"spec"`
				} `yaml:"template"`
			} `yaml:"spec"`
		}
		if err := dec.Decode(&doc); err != nil {
			t.Fatalf("%s: no Job %s (%v)", path, name, err)
		}
		if doc.Kind != "Job" || doc.Metadata.Name != name {
			continue
		}
		c := doc.Spec.Template.Spec.Containers[0]
		if len(c.Command) != 2 || c.Command[0] != "sh" || len(c.Args) != 1 {
			t.Fatalf("%s: the container does not run a sh -c script", path)
		}
		j := k8sJob{script: c.Args[0], completions: doc.Spec.Completions, parallelism: doc.Spec.Parallelism}
		for _, e := range c.Env {
			if e.Name == "TCHECK_SHARDS" {
				j.shards, _ = strconv.Atoi(e.Value)
			}
		}
		if name == "tcheck-sweep" && doc.Spec.CompletionMode != "Indexed" {
			t.Errorf("%s: completionMode %q, want Indexed", path, doc.Spec.CompletionMode)
		}
		return j
	}
}

// TestSweepJSONMatchesSchema validates --format json documents and every
// line of --format jsonl files against docs/sweep.schema.json, for a sweep
// with values, expectations, a model error at a point, a state limit and
// a sweep file's options.
func TestSweepJSONMatchesSchema(t *testing.T) {
	c := jsonschema.NewCompiler()
	const schema = repoRoot + "/docs/sweep.schema.json"
	doc, err := c.Compile(schema)
	if err != nil {
		t.Fatal(err)
	}
	header, err := c.Compile(schema + "#/$defs/header")
	if err != nil {
		t.Fatal(err)
	}
	point, err := c.Compile(schema + "#/$defs/point")
	if err != nil {
		t.Fatal(err)
	}
	sweeps := [][]string{
		timeoutSweep(),
		{"sweep", bundledPath("timeout"), "--grid", "c1=0..1", "-q", "A1", "--shard", "0/1", "--no-progress"},
		{"sweep", repoRoot + "/testdata/fischer.yaml", "--grid", "N=2,5", "-q", "mutex", "-q", "no-deadlock", "--max-states", "300", "--no-progress"},
		{"sweep", repoRoot + "/agreement/paper/timeout.sweep.yaml", "--where", "c1 == 1 && d <= 1", "--no-progress"},
		// a sweep file's options (order: progress) in the header
		{"sweep", repoRoot + "/agreement/paper/agreement-scalar.sweep.yaml", "--where", "c1 == 1 && c2 == 1 && d == 0", "--no-progress"},
	}
	for i, args := range sweeps {
		_, out, stderr := run(append(args, "--format", "json")...)
		var v any
		if err := json.Unmarshal([]byte(out), &v); err != nil {
			t.Fatalf("sweep %d: not JSON: %v\n%s%s", i, err, out, stderr)
		}
		if err := doc.Validate(v); err != nil {
			t.Errorf("sweep %d: the document does not match the schema: %v", i, err)
		}
		_, out, _ = run(append(args, "--format", "jsonl")...)
		for k, line := range strings.Split(strings.TrimSpace(out), "\n") {
			var v any
			if err := json.Unmarshal([]byte(line), &v); err != nil {
				t.Fatalf("sweep %d line %d: not JSON: %v", i, k+1, err)
			}
			sch := point
			if k == 0 {
				sch = header
			}
			if err := sch.Validate(v); err != nil {
				t.Errorf("sweep %d line %d does not match the schema: %v", i, k+1, err)
			}
		}
	}
}

// TestSweepOutputFormatFollowsExtension checks that -o FILE.jsonl writes
// JSON lines without --format (it once wrote the table there, which
// `sweep merge` then refused), and that merge reads the file back.
func TestSweepOutputFormatFollowsExtension(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "fischer.jsonl")
	if code, o, e := run("sweep", "../../../../testdata/regress/ok/fischer.sweep.yaml", "-j", "1", "--no-progress", "-o", out); code != 0 {
		t.Fatalf("sweep: exit %d\n%s%s", code, o, e)
	}
	b, err := os.ReadFile(out)
	if err != nil || !strings.HasPrefix(string(b), `{"tool":"tcheck"`) {
		t.Fatalf("%s is not JSON lines (%v): %.80q", out, err, b)
	}
	if code, o, e := run("sweep", "merge", out); code != 0 || !strings.Contains(o, "4 points: 4 ok") {
		t.Fatalf("merge: exit %d\n%s%s", code, o, e)
	}
}

package regress

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

const modelSrc = `# a comment that must stay
name: m
declarations: |
  int[0, 5] v = 0;
templates:
  - name: P
    locations:
      - {name: a, initial: true}
      - {name: b}
    edges:
      - {from: a, to: b, update: v = 3}
system: |
  system P;
queries:
  plain:
    formula: E<> v == 3
    expect: violated   # trailing comment
  single:
    formula: E<> v == 4
    expect: 'satisfied'
  double:
    formula: "sup: v"
    expect: "5"
  flow: {formula: "inf: v", expect: 1, comment: in a flow mapping}
  untouched:
    formula: E<> P.b
    expect: satisfied
`

func TestRewriteExpectationsKeepsEverythingElse(t *testing.T) {
	edits := map[string]string{"plain": "satisfied", "single": "violated", "double": "<3", "flow": "0"}
	out, err := RewriteExpectations("m.yaml", []byte(modelSrc), edits)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.NewReplacer(
		"expect: violated   # trailing", "expect: satisfied   # trailing",
		"expect: 'satisfied'", "expect: 'violated'",
		`expect: "5"`, `expect: "<3"`,
		"expect: 1,", "expect: 0,",
	).Replace(modelSrc)
	if string(out) != want {
		t.Errorf("rewritten:\n%s\nwant\n%s", out, want)
	}
}

func TestRewriteExpectationsQuotesWhenNeeded(t *testing.T) {
	for _, tc := range []struct {
		value, want string
	}{
		{">7", `expect: ">7"`},     // '>' starts a folded scalar
		{"1, 2", `expect: "1, 2"`}, // a comma ends a plain scalar in flow context
		{"<4", "expect: <4"},       // plain is fine
		{"inf", "expect: inf"},     // a string, not a float, for the model loader
		{"none", "expect: none"},
	} {
		out, err := RewriteExpectations("m.yaml", []byte(modelSrc), map[string]string{"plain": tc.value})
		if err != nil {
			t.Errorf("%s: %v", tc.value, err)
			continue
		}
		if !strings.Contains(string(out), tc.want+"   # trailing") {
			t.Errorf("%s: got\n%s", tc.value, out)
		}
	}
}

func TestRewriteExpectationsRefusesBlockScalars(t *testing.T) {
	src := strings.Replace(modelSrc, "expect: violated   # trailing comment", "expect: |\n      violated", 1)
	if _, err := RewriteExpectations("m.yaml", []byte(src), map[string]string{"plain": "satisfied"}); err == nil || !strings.Contains(err.Error(), "single-line") {
		t.Errorf("error %v, want a refusal", err)
	}
}

// TestDiscoverFindsModelsAndSweeps: directories are walked for models with
// queries and sweep files; other YAML files are left alone.
func TestDiscoverFindsModelsAndSweeps(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("b/model.yaml", modelSrc)
	write("a/x.sweep.yaml", "model: ../b/model.yaml\ngrid: {}\n")
	write("k8s/job.yaml", "apiVersion: batch/v1\nkind: Job\n")
	write("noqueries.yaml", "name: m\ntemplates: []\nsystem: x\n")
	write(".hidden/model.yaml", modelSrc)
	write("testdata/fuzz/model.yaml", modelSrc)
	write("a/long.sweep.yaml", "model: ../b/model.yaml\ngrid: {}\noptions: {test: false}\n")
	got, err := Discover([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	for i := range got {
		got[i], _ = filepath.Rel(dir, got[i])
	}
	want := []string{"a/x.sweep.yaml", "b/model.yaml"}
	if !slices.Equal(got, want) {
		t.Errorf("Discover = %v, want %v", got, want)
	}
	if _, err := Discover([]string{filepath.Join(dir, "nosuch")}); err == nil {
		t.Errorf("a missing path is not an error")
	}
	// named explicitly, a sweep with test: false is taken
	named, err := Discover([]string{filepath.Join(dir, "a/long.sweep.yaml")})
	if err != nil || len(named) != 1 {
		t.Errorf("Discover(long.sweep.yaml) = %v, %v", named, err)
	}
}

// TestCheckFileStatuses checks the fixtures of testdata/regress.
func TestCheckFileStatuses(t *testing.T) {
	for _, tc := range []struct {
		path               string
		pass, fail, errors int
		skipped            string
	}{
		{"../../testdata/regress/ok/select.yaml", 6, 0, 0, ""},
		{"../../testdata/regress/ok/fischer.sweep.yaml", 8, 0, 0, ""},
		{"../../testdata/regress/wrong/select-wrong.yaml", 4, 2, 0, ""},
		{"../../testdata/regress/wrong/fischer-wrong.sweep.yaml", 1, 1, 0, ""},
		{"../../testdata/regress/broken/overflow.yaml", 0, 0, 1, ""},
		{"../../testdata/regress/broken/syntax-error.yaml", 0, 0, 1, ""},
		{"../../queries/testdata/errors/range.yaml", 0, 0, 0, "no expectations"},
	} {
		r := CheckFile(context.Background(), tc.path, Options{Jobs: 2})
		p, f, e := r.Counts()
		if p != tc.pass || f != tc.fail || e != tc.errors || r.Skipped != tc.skipped {
			t.Errorf("%s: %d passed, %d failed, %d errors, skipped %q (err %v); want %d, %d, %d, %q",
				tc.path, p, f, e, r.Skipped, r.Err, tc.pass, tc.fail, tc.errors, tc.skipped)
		}
	}
}

// TestUpdateLeavesClaimsAlone: --update rewrites recorded answers but not
// expectations that compare with an expression ("<= 2" stays, and the
// case keeps failing).
func TestUpdateLeavesClaimsAlone(t *testing.T) {
	src := strings.NewReplacer("expect: violated   # trailing comment", "expect: violated",
		`expect: "5"`, `expect: "<= 2"`).Replace(modelSrc)
	path := filepath.Join(t.TempDir(), "m.yaml")
	os.WriteFile(path, []byte(src), 0o644)
	r := CheckFile(context.Background(), path, Options{})
	if _, f, e := r.Counts(); f != 4 || e != 0 {
		t.Fatalf("%d failed, %d errors before the update, want 4, 0 (err %v)", f, e, r.Err)
	}
	n, skipped, err := Update(r)
	if err != nil || n != 3 || len(skipped) != 1 || !strings.Contains(skipped[0], "double") {
		t.Fatalf("Update = %d, %v, %v; want 3 rewritten and double skipped", n, skipped, err)
	}
	got, _ := os.ReadFile(path)
	if !strings.Contains(string(got), `expect: "<= 2"`) || !strings.Contains(string(got), "expect: satisfied\n") {
		t.Errorf("updated file:\n%s", got)
	}
	r = CheckFile(context.Background(), path, Options{})
	if p, f, _ := r.Counts(); p != 4 || f != 1 {
		t.Errorf("after the update %d passed, %d failed; want 4, 1", p, f)
	}
}

// TestLimitsStopTheCompilation: a model's timeout, counted from the
// start of its file, its memory limit and Ctrl-C stop the compilation of its model (a
// select over 160,000 combinations, testdata/limits/large-select.yaml,
// seconds to compile unbounded): the file is an error that says so.
func TestLimitsStopTheCompilation(t *testing.T) {
	path := "../../testdata/limits/large-select.yaml"
	// a clock that jumps two hours at its fourth call, once the
	// compilation has started polling it
	calls := 0
	base := time.Now()
	jumping := func() time.Time {
		if calls++; calls < 4 {
			return base
		}
		return base.Add(2 * time.Hour)
	}
	o := Options{Now: jumping}
	o.Check.Limits.Timeout = time.Hour
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	// any heap is over a limit of one byte: reached at the first poll
	var tight Options
	tight.Check.Limits.MaxMemory = 1
	for _, c := range []struct {
		name string
		ctx  context.Context
		o    Options
		want string
	}{
		{"the model's timeout", context.Background(), o, "time limit 1h0m0s reached while the model and its queries were compiled"},
		{"Ctrl-C", cancelled, Options{}, "interrupted while the model and its queries were compiled"},
		{"the memory limit", context.Background(), tight, "memory limit 1 B reached while the model and its queries were compiled"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := CheckFile(c.ctx, path, c.o)
			if r.Err == nil || r.Err.Error() != c.want {
				t.Errorf("%v; want the error %q", r.Err, c.want)
			}
			// an interrupted file is reported as such, not counted
			if _, _, e := r.Counts(); r.Interrupted != (c.ctx.Err() != nil) || !r.Interrupted && e != 1 {
				t.Errorf("%d errors, interrupted %v", e, r.Interrupted)
			}
		})
	}
}

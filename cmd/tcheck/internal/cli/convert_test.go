package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// demo is a demo model of testdata/uppaal, seen from this package.
func demo(name string) string { return filepath.Join("../../../../testdata/uppaal", name) }

// verdictLines keeps the lines of verify --stats output that must agree
// between formats: verdicts and state counts, without the file name.
var verdictLines = regexp.MustCompile(`(?m)^\s+(satisfied|violated|unknown|\S+ = ).*$|^\s+states: .*$`)

func verdicts(out string) string {
	return strings.Join(verdictLines.FindAllString(out, -1), "\n")
}

// TestVerifyReadsUPPAALFormats runs verify on the XML and XTA versions of
// a demo: same verdicts and state counts as the YAML version, exit 0 (with
// one worker: the counts of a parallel search vary from run to run).
func TestVerifyReadsUPPAALFormats(t *testing.T) {
	code, want, errOut := run("verify", demo("fischer.yaml"), "--stats", "--no-progress", "--workers", "1")
	if code != 0 {
		t.Fatalf("yaml: exit %d: %s", code, errOut)
	}
	for _, ext := range []string{"xml", "xta"} {
		code, out, errOut := run("verify", demo("fischer."+ext), "--stats", "--no-progress", "--workers", "1")
		if code != 0 {
			t.Errorf("%s: exit %d: %s", ext, code, errOut)
		}
		if verdicts(out) != verdicts(want) || verdicts(out) == "" {
			t.Errorf("%s: verdicts differ from the YAML version:\n%s\nwant:\n%s", ext, verdicts(out), verdicts(want))
		}
	}
	// Parameters lifted from the XML are overridable.
	if code, out, _ := run("verify", demo("fischer.xml"), "--set", "N=3", "--no-progress"); code != 0 || !strings.Contains(out, "N=3 k=2") {
		t.Errorf("--set N=3: exit %d:\n%s", code, out)
	}
}

// TestConvertWritesEveryFormat converts the XTA demo to each format and
// checks the written model: it verifies like the original.
func TestConvertWritesEveryFormat(t *testing.T) {
	dir := t.TempDir()
	_, want, _ := run("verify", demo("csmacd.xta"), "--stats", "--no-progress", "--workers", "1")
	for _, out := range []string{"c.yaml", "c.xml", "c.xta"} {
		path := filepath.Join(dir, out)
		if code, _, errOut := run("convert", demo("csmacd.xta"), "-o", path); code != 0 {
			t.Fatalf("convert -o %s: exit %d: %s", out, code, errOut)
		}
		code, got, errOut := run("verify", path, "--stats", "--no-progress", "--workers", "1")
		if code != 0 || verdicts(got) != verdicts(want) {
			t.Errorf("%s: exit %d %s; verdicts:\n%s\nwant:\n%s", out, code, errOut, verdicts(got), verdicts(want))
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "c.q")); err != nil {
		t.Errorf("no .q file next to c.xta: %v", err)
	}
}

// TestConvertUsage checks the exit codes and messages of convert.
func TestConvertUsage(t *testing.T) {
	for _, tc := range []struct {
		name    string
		args    []string
		code    int
		out     string // in stdout
		errText string // in stderr
	}{
		{"to stdout", []string{"convert", demo("bridge.xml"), "--to", "xta"}, 0, "process Soldier(const int delay) {", "give -o FILE.xta to write them to FILE.q"},
		{"no format", []string{"convert", demo("bridge.xml")}, 2, "", "--to: give the output format"},
		{"bad format", []string{"convert", demo("bridge.xml"), "--to", "svg"}, 2, "", `not "svg"`},
		{"no such file", []string{"convert", "nope.xml", "--to", "yaml"}, 2, "", "nope.xml"},
		{"model error", []string{"convert", "../../../../model/uppaal/testdata/errors/branchpoint.xml", "--to", "yaml"}, 2, "", "branchpoint.xml:15:3: branchpoints"},
		{"template without dot", []string{"export", demo("bridge.xml"), "--to", "xml", "--template", "Torch"}, 2, "", "--template is for --to dot only"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := run(tc.args...)
			if code != tc.code || !strings.Contains(out, tc.out) || !strings.Contains(errOut, tc.errText) {
				t.Errorf("exit %d (want %d)\nstdout: %.300s\nstderr: %s", code, tc.code, out, errOut)
			}
		})
	}
}

// TestConvertRoundTripsStructs converts a model with structs (typedefs,
// arrays of structs, struct parameters and locals, comparisons in queries)
// from YAML to XML, XML to XTA and XTA back to YAML: each file keeps the
// struct declarations and verifies with the verdicts and state counts of
// the original.
func TestConvertRoundTripsStructs(t *testing.T) {
	dir := t.TempDir()
	orig := "../../../../queries/testdata/semantics/struct-leader-election.yaml"
	_, want, _ := run("verify", orig, "--stats", "--no-progress", "--workers", "1")
	if !strings.Contains(want, "states:") {
		t.Fatalf("no state counts in:\n%s", want)
	}
	from := orig
	for _, out := range []string{"s.xml", "s.xta", "s.yaml"} {
		path := filepath.Join(dir, out)
		if code, _, errOut := run("convert", from, "-o", path); code != 0 {
			t.Fatalf("convert %s -o %s: exit %d: %s", filepath.Base(from), out, code, errOut)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range []string{"typedef struct { bool full; int[0, N] uid; bool elected; } msg_t;", "slot[id] = slot[prev]", "msg_t m = { true, uid, elected };"} {
			if !strings.Contains(string(b), s) && !strings.Contains(string(b), strings.ReplaceAll(s, "&", "&amp;")) {
				t.Errorf("%s lacks %q", out, s)
			}
		}
		code, got, errOut := run("verify", path, "--stats", "--no-progress", "--workers", "1")
		if code != 0 || verdicts(got) != verdicts(want) {
			t.Errorf("%s: exit %d %s; verdicts:\n%s\nwant:\n%s", out, code, errOut, verdicts(got), verdicts(want))
		}
		from = path
	}
}

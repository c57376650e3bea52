package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestCorpus checks the public UPPAAL models of testdata/corpus (issue 17;
// provenance and licences in testdata/corpus/MANIFEST.md), read from their
// original files: a model M.xml with M.expect.q must verify every query of
// that file as its EXPECT: line says (exit 0); a model with M.error must be
// rejected (exit 2) with that positioned error. Every trace is printed,
// hence concretised and replayed. A regression in reading
// UPPAAL XML, in the .q reader or in a verdict fails this test.
func TestCorpus(t *testing.T) {
	root := filepath.Join(repoRoot, "testdata", "corpus")
	models, err := filepath.Glob(filepath.Join(root, "*", "*.xml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(models) < 20 {
		t.Fatalf("found %d corpus models in %s, want at least 20", len(models), root)
	}
	for _, m := range models {
		base := strings.TrimSuffix(m, ".xml")
		name, _ := filepath.Rel(root, m)
		t.Run(name, func(t *testing.T) {
			qfile, errFile := base+".expect.q", base+".error"
			_, qerr := os.Stat(qfile)
			want, eerr := os.ReadFile(errFile)
			switch {
			case qerr == nil && eerr == nil:
				t.Fatalf("both %s and %s exist", qfile, errFile)
			case qerr == nil:
				start := time.Now()
				// --trace: every witness and counterexample is concretised
				// and replayed, and one that does not replay makes the
				// verdict an error (issue 18: the gear controller's traces)
				code, out, stderr := run("verify", m, "--queries", qfile, "--workers", "1", "--timeout", "1m", "--no-progress", "--trace")
				if code != ExitOK {
					t.Errorf("exit %d, want 0 (every query as expected):\n%s%s", code, out, stderr)
				}
				if strings.Contains(out, "no trace") || strings.Contains(out, "(--trace prints it)") {
					t.Errorf("a verdict without its printed trace:\n%s", out)
				}
				if n := strings.Count(out, "(as expected"); n == 0 || n != strings.Count(string(mustRead(t, qfile)), "EXPECT:") {
					t.Errorf("%d queries as expected, want one per EXPECT: line of %s:\n%s", n, qfile, out)
				}
				if d := time.Since(start); d > 20*time.Second {
					t.Logf("slow corpus model: %v", d)
				}
			case eerr == nil:
				code, out, stderr := run("verify", m, "--workers", "1", "--timeout", "1m", "--no-progress")
				msg := strings.TrimSpace(string(want))
				if !regexp.MustCompile(`^` + regexp.QuoteMeta(filepath.Base(m)) + `:\d+:\d+: .`).MatchString(msg) {
					t.Fatalf("%s: want a positioned error (%s:LINE:COL: message), got %q", errFile, filepath.Base(m), msg)
				}
				if code != ExitUsage || !strings.Contains(out+stderr, msg) {
					t.Errorf("exit %d, want 2 with the error %q:\n%s%s", code, msg, out, stderr)
				}
			default:
				t.Fatalf("%s has neither %s nor %s", m, filepath.Base(qfile), filepath.Base(errFile))
			}
		})
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestGearControllerTraceIssue18 is issue 18's first report: on the gear
// controller (Lindahl, Pettersson and Yi), `E<> v2 and c2 > 650` was
// satisfied but "no trace": the concretisation searched for small
// denominators and gave up. The exact concretisation prints a run whose
// delays are rationals, and the run replays (a trace that does not
// replay would make the verdict an error, exit 2).
func TestGearControllerTraceIssue18(t *testing.T) {
	m := filepath.Join(repoRoot, "testdata", "corpus", "gearcontrol", "GearControl.xml")
	for _, q := range []string{"E<> v2 and c2 > 650", "sup{v1}:c1", "sup{v2}:c2"} {
		code, out, stderr := run("verify", m, "-q", q, "--trace", "--workers", "1", "--no-progress")
		if code != ExitOK || strings.Contains(out, "no trace") || !strings.Contains(out, "delay ") {
			t.Errorf("%s: exit %d, want 0 with a printed trace:\n%s%s", q, code, out, stderr)
		}
	}
}

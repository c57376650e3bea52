package cli

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

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
		{"expectation missed", []string{"verify", "../../../../testdata/fischer.yaml", "--set", "w=9", "-q", "mutex", "--no-progress"}, 1},
		{"formula violated", []string{"verify", "../../../../testdata/fischer.yaml", "-q", "E<> P(1).cs && P(2).cs", "--no-progress"}, 1},
		{"formula satisfied", []string{"verify", "../../../../testdata/fischer.yaml", "-q", "E<> P(1).cs", "--no-progress"}, 0},
		{"runtime error", []string{"verify", "../../../../queries/testdata/errors/range.yaml", "--no-progress"}, 2},
		{"UPPAAL XTA with a .q file", []string{"verify", "../../../../testdata/uppaal/fischer.xta", "--queries", "../../../../testdata/uppaal/fischer.q", "--no-progress"}, 0},
		{"bundled model", []string{"verify", "timeout", "-q", "A1", "--no-progress"}, 0},
		{"missing .q file", []string{"verify", "../../../../testdata/uppaal/fischer.xta", "--queries", "nope.q"}, 2},
		{"missing file", []string{"verify", "no-such-model.yaml"}, 2},
		{"bad flag", []string{"verify", "--order", "sideways", "../../../../testdata/fischer.yaml"}, 2},
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

// TestVerifyOutput pins the text output, with traces, of a violated
// property (golden file, volatile fields masked).
func TestVerifyOutput(t *testing.T) {
	code, out, _ := run("verify", "../../../../testdata/fischer.yaml", "--set", "N=3", "--set", "w=9", "-q", "mutex", "--trace", "--stats", "--no-progress")
	if code != 1 {
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
}

package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tcheck/tcheck/model/uppaal"
)

// withBundled makes name resolve to the model file path for the test.
func withBundled(t *testing.T, name, path string) {
	t.Helper()
	saved := bundledModel
	t.Cleanup(func() { bundledModel = saved })
	bundledModel = func(n string) ([]byte, string, bool) {
		if n != name {
			return saved(n)
		}
		b, err := os.ReadFile(path)
		return b, name + ".yaml", err == nil
	}
}

// agreementFile is the bundled agreement model's file.
func agreementFile(t *testing.T) string { return "../../../../agreement/agreement.yaml" }

// TestExportBundledModelToUPPAAL exports the bundled agreement model to XML
// (the location init is renamed, and said so on stderr) and reads it back.
func TestExportBundledModelToUPPAAL(t *testing.T) {
	withBundled(t, "agreement", agreementFile(t))
	out := filepath.Join(t.TempDir(), "agreement.xml")
	code, _, errOut := run("export", "agreement", "-o", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(errOut, "renamed init to Init") {
		t.Errorf("stderr does not list the renaming: %q", errOut)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	f, err := uppaal.ParseFile(out, b)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Compile(nil); err != nil {
		t.Fatal(err)
	}
	if len(f.Queries) == 0 || f.Queries[0].Name != "agreement" {
		t.Errorf("queries not kept: %d", len(f.Queries))
	}
}

// TestExportOptions checks --set, --to dot with --template, and errors.
func TestExportOptions(t *testing.T) {
	code, out, errOut := run("export", demo("train-gate.yaml"), "--to", "xml", "--set", "N=3")
	if code != 0 || !strings.Contains(out, "const int N = 3;") {
		t.Errorf("--set N=3: exit %d %s\n%.400s", code, errOut, out)
	}
	code, _, errOut = run("export", demo("train-gate.yaml"), "--to", "xml", "--set", "M=3")
	if code != 2 || !strings.Contains(errOut, "unknown parameter M (the model's parameters: N)") {
		t.Errorf("--set M=3: exit %d %s", code, errOut)
	}
	code, out, errOut = run("export", demo("train-gate.xta"), "--to", "dot", "--template", "Gate")
	if code != 0 || !strings.Contains(out, "subgraph cluster_Gate") || strings.Contains(out, "cluster_Train") {
		t.Errorf("--to dot --template Gate: exit %d %s\n%s", code, errOut, out)
	}
	code, _, errOut = run("export", demo("train-gate.xta"), "--to", "dot", "--template", "Nope")
	if code != 2 || !strings.Contains(errOut, `no template "Nope"`) {
		t.Errorf("--template Nope: exit %d %s", code, errOut)
	}
	dir := t.TempDir()
	if code, _, errOut := run("export", demo("bridge.xta"), "-o", filepath.Join(dir, "b.dot")); code != 0 {
		t.Errorf("-o b.dot: exit %d %s", code, errOut)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "b.dot")); err != nil || !strings.HasPrefix(string(b), "digraph bridge {") {
		t.Errorf("b.dot: %v %.100s", err, b)
	}
}

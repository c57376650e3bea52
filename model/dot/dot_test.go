package dot

import (
	"bytes"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tcheck/tcheck/model"
	"github.com/tcheck/tcheck/model/uppaal"
)

var update = flag.Bool("update", false, "rewrite golden files")

func load(t *testing.T, path string) *model.File {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := uppaal.ParseFile(path, src)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// models to draw: select, urgent channels and an unnamed committed
// location (train-gate), an urgent location and a τ edge (bridge).
var models = []string{"train-gate", "bridge"}

// TestEncodeGolden compares the drawings with golden files (the encoding
// is deterministic).
func TestEncodeGolden(t *testing.T) {
	for _, m := range models {
		b, err := Encode(load(t, "../../testdata/uppaal/"+m+".xml"), "")
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join("testdata", m+".dot")
		if *update {
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run with -update to create it)", err)
		}
		if !bytes.Equal(want, b) {
			t.Errorf("%s differs (run with -update and inspect the diff):\n%s", path, b)
		}
	}
}

// TestEncodeMarks checks what the drawing shows: one cluster per template,
// an entry arrow to the initial location, (C) and (U) marks, invariants and
// the four kinds of edge labels, escaped.
func TestEncodeMarks(t *testing.T) {
	b, err := Encode(load(t, "../../testdata/uppaal/train-gate.xml"), "")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for _, want := range []string{
		"subgraph cluster_Train {", "subgraph cluster_Gate {",
		`"Gate.__init" -> "Gate.Free"`, `"Train.__init" -> "Train.Safe"`, "shape=point",
		"<B>id5</B> (C)", `x&lt;=20`,
		`<FONT COLOR="#a08000">e : id_t</FONT>`, `<FONT COLOR="#008000">len == 0</FONT>`,
		`<FONT COLOR="#008080">appr[e]?</FONT>`, `<FONT COLOR="#0000c0">enqueue(e)</FONT>`,
		`label="train-gate (N=6)"`,
	} {
		if !strings.Contains(s, want) {
			t.Errorf("no %q in the drawing", want)
		}
	}
	b, err = Encode(load(t, "../../testdata/uppaal/bridge.xml"), "Torch")
	if err != nil {
		t.Fatal(err)
	}
	if s := string(b); !strings.Contains(s, "<B>one</B> (U)") || strings.Contains(s, "cluster_Soldier") {
		t.Errorf("--template Torch:\n%s", s)
	}
	if _, err := Encode(load(t, "../../testdata/uppaal/bridge.xml"), "Nope"); err == nil || !strings.Contains(err.Error(), "templates: Torch, Soldier") {
		t.Errorf("unknown template: %v", err)
	}
}

// TestGraphvizRendersTheDrawings runs `dot -Tsvg` on the drawings when
// Graphviz is installed (CI installs it).
func TestGraphvizRendersTheDrawings(t *testing.T) {
	dotBin, err := exec.LookPath("dot")
	if err != nil {
		t.Skip("Graphviz (dot) is not installed")
	}
	for _, m := range append(models, "fischer", "csmacd") {
		b, err := Encode(load(t, "../../testdata/uppaal/"+m+".xml"), "")
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(dotBin, "-Tsvg")
		cmd.Stdin = bytes.NewReader(b)
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		if err := cmd.Run(); err != nil {
			t.Errorf("%s: dot -Tsvg: %v\n%s", m, err, errOut.String())
			continue
		}
		if errOut.Len() > 0 {
			t.Errorf("%s: dot -Tsvg warns: %s", m, errOut.String())
		}
		if !strings.Contains(out.String(), "<svg") {
			t.Errorf("%s: no SVG", m)
		}
	}
}

package uppaal

import (
	"bytes"
	"path/filepath"
	"testing"
)

// TestProgressAndGanttSkipped: a progress measure and a Gantt chart after
// the system line are read and skipped (neither changes a state or a
// verdict: one guides UPPAAL's sweep-line method, the other draws its
// simulator's chart), and the exported model keeps them (they were
// rejected before).
func TestProgressAndGanttSkipped(t *testing.T) {
	files, err := filepath.Glob("testdata/skipped/*")
	if err != nil || len(files) != 2 {
		t.Fatalf("want 2 files in testdata/skipped: %v %v", files, err)
	}
	for _, path := range files {
		f := load(t, path)
		net, err := f.Compile(nil)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if len(net.Procs) == 0 {
			t.Fatalf("%s: no processes", path)
		}
		word := []byte("gantt {")
		if filepath.Base(path) == "progress.xta" {
			word = []byte("progress {")
		}
		for _, out := range [][]byte{first(FormatXML(f)), first(FormatXTA(f))} {
			if !bytes.Contains(out, word) {
				t.Errorf("%s: the export lost %q:\n%s", path, word, out)
			}
		}
		xta, _ := FormatXTA(f)
		g, err := ParseFile("out.xta", xta)
		if err == nil {
			_, err = g.Compile(nil)
		}
		if err != nil {
			t.Errorf("%s: the exported XTA does not load: %v", path, err)
		}
	}
}

func first(b []byte, _ []Renaming) []byte { return b }

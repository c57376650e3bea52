package plot

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tcheck/tcheck/queries/sweep"
)

// TestSaveFormats draws a two-line plot with overlays in every format and
// checks each file's signature; other extensions are refused.
func TestSaveFormats(t *testing.T) {
	d := &sweep.PlotData{XLabel: "d", YLabel: "delay", OverlayLabel: "T", Lines: []sweep.PlotLine{
		{Label: "c2=1", Points: []sweep.XY{{X: 0, Y: 3}, {X: 1, Y: 5}}, Overlay: []sweep.XY{{X: 0, Y: 3}, {X: 1, Y: 5}}},
		{Label: "c2=2", Points: []sweep.XY{{X: 0, Y: 8}}, Overlay: []sweep.XY{{X: 0, Y: 8}, {X: 1, Y: 11}}},
	}}
	dir := t.TempDir()
	for ext, magic := range map[string]string{".svg": "<?xml", ".png": "\x89PNG", ".pdf": "%PDF"} {
		path := filepath.Join(dir, "p"+ext)
		if err := Save(path, d, "title"); err != nil {
			t.Fatalf("%s: %v", ext, err)
		}
		b, _ := os.ReadFile(path)
		if !bytes.HasPrefix(b, []byte(magic)) {
			t.Errorf("%s: the file starts %q", ext, b[:min(len(b), 8)])
		}
		if ext == ".svg" {
			for _, label := range []string{">c2=1<", ">T (c2=2)<", ">delay<"} {
				if !strings.Contains(string(b), label) {
					t.Errorf("the SVG has no %s", label)
				}
			}
		}
	}
	if err := Save(filepath.Join(dir, "p.gif"), d, ""); err == nil {
		t.Errorf("no error for .gif")
	}
}

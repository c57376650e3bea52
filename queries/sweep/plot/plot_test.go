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

// TestTicksAreRound checks that axis ticks fall on multiples of a round
// step (1, 2 or 5 times a power of ten) and that every one is labelled:
// the d axis once read 3, 13, 23 and the worst-time axis 100, 300, 500
// (issue 16, item 15).
func TestTicksAreRound(t *testing.T) {
	for _, c := range []struct {
		min, max float64
		integer  bool
		want     string
	}{
		{-0.9, 30.9, true, "0 5 10 15 20 25 30"},
		{2.7, 100.3, true, "20 40 60 80 100"},
		{80, 620, false, "100 200 300 400 500 600"},
		{-0.3, 2.3, true, "0 1 2"},
		{0.12, 0.31, false, "0.15 0.20 0.25 0.30"},
	} {
		var got []string
		for _, tk := range (niceTicks{integer: c.integer}).Ticks(c.min, c.max) {
			if tk.Label == "" {
				t.Errorf("[%g, %g]: unlabelled tick at %g", c.min, c.max, tk.Value)
			}
			got = append(got, tk.Label)
		}
		if strings.Join(got, " ") != c.want {
			t.Errorf("[%g, %g]: ticks %q, want %q", c.min, c.max, strings.Join(got, " "), c.want)
		}
	}
}

// TestLegendLeavesTheDataAlone checks that the band left above the data
// for the legend grows with its entries, so that the legend drawn top
// left never covers a point (issue 16, item 15).
func TestLegendLeavesTheDataAlone(t *testing.T) {
	var lines []sweep.PlotLine
	for i := range 6 {
		lines = append(lines, sweep.PlotLine{Label: "s" + string(rune('a'+i)), Points: []sweep.XY{{X: 0, Y: 0}, {X: 10, Y: 100}}})
	}
	p, err := New(&sweep.PlotData{XLabel: "x", YLabel: "y", Lines: lines}, "t")
	if err != nil {
		t.Fatal(err)
	}
	// six legend rows take about 6*15+10 points of about 254: the data
	// (up to y = 100) must stay below that band
	band := (p.Y.Max - 100) / (p.Y.Max - p.Y.Min)
	if need := (6*legendRow + legendMargin) / dataHeight; band < need {
		t.Fatalf("the band above the data is %.2f of the plot, the legend needs %.2f", band, need)
	}
}

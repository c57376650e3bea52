package plot

import (
	"fmt"
	"image/color"
	"math"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"

	"github.com/tcheck/tcheck/queries/sweep"
)

// Formats are the file extensions Save writes.
var Formats = []string{".svg", ".png", ".pdf"}

// New builds the plot of d.
func New(d *sweep.PlotData, title string) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = d.XLabel
	p.Y.Label.Text = d.YLabel
	p.Legend.Top = true
	p.Legend.Left = true
	p.Add(plotter.NewGrid())
	integerX := true
	for i, l := range d.Lines {
		c := plotutil.Color(i)
		// The overlay first, wide and translucent, so that a result equal
		// to it shows on top of it.
		if len(l.Overlay) > 0 {
			ol, err := plotter.NewLine(xys(l.Overlay))
			if err != nil {
				return nil, err
			}
			r, g, b, _ := c.RGBA()
			ol.Color = color.NRGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), 0x70}
			ol.Width = vg.Points(3)
			ol.Dashes = []vg.Length{vg.Points(6), vg.Points(4)}
			p.Add(ol)
			label := d.OverlayLabel
			if l.Label != "" {
				label += " (" + l.Label + ")"
			}
			p.Legend.Add(label, ol)
		}
		if len(l.Points) > 0 {
			lp, sp, err := plotter.NewLinePoints(xys(l.Points))
			if err != nil {
				return nil, err
			}
			lp.Color, sp.Color, sp.Shape = c, c, plotutil.Shape(i)
			p.Add(lp, sp)
			label := d.YLabel
			if l.Label != "" {
				label = l.Label
			}
			p.Legend.Add(label, lp, sp)
		}
		for _, q := range append(append([]sweep.XY{}, l.Points...), l.Overlay...) {
			if q.X != math.Trunc(q.X) {
				integerX = false
			}
		}
	}
	if integerX {
		p.X.Tick.Marker = integerTicks{}
	}
	// Margins, and room at the top for the legend (drawn top left).
	entries := 0
	for _, l := range d.Lines {
		if len(l.Points) > 0 {
			entries++
		}
		if len(l.Overlay) > 0 {
			entries++
		}
	}
	if dx := p.X.Max - p.X.Min; dx > 0 {
		p.X.Min -= 0.03 * dx
		p.X.Max += 0.03 * dx
	}
	dy := p.Y.Max - p.Y.Min
	if dy == 0 {
		dy = math.Max(1, math.Abs(p.Y.Max))
	}
	p.Y.Min -= 0.04 * dy
	p.Y.Max += math.Max(0.05, 0.07*float64(entries)) * dy
	return p, nil
}

// Save draws d into path; the extension chooses the format.
func Save(path string, d *sweep.PlotData, title string) error {
	ext := strings.ToLower(filepath.Ext(path))
	ok := false
	for _, f := range Formats {
		ok = ok || f == ext
	}
	if !ok {
		return fmt.Errorf("--plot %s: want a file name ending in %s", path, strings.Join(Formats, ", "))
	}
	p, err := New(d, title)
	if err != nil {
		return err
	}
	return p.Save(7*vg.Inch, 4.5*vg.Inch, path)
}

func xys(ps []sweep.XY) plotter.XYs {
	out := make(plotter.XYs, len(ps))
	for i, q := range ps {
		out[i].X, out[i].Y = q.X, q.Y
	}
	return out
}

// integerTicks labels integer positions only (parameters are integers),
// at most about ten of them.
type integerTicks struct{}

func (integerTicks) Ticks(min, max float64) []plot.Tick {
	lo, hi := math.Ceil(min), math.Floor(max)
	step := math.Max(1, math.Ceil((hi-lo)/10))
	var ts []plot.Tick
	for v := lo; v <= hi; v += step {
		ts = append(ts, plot.Tick{Value: v, Label: fmt.Sprintf("%d", int64(v))})
	}
	if len(ts) == 0 {
		return plot.DefaultTicks{}.Ticks(min, max)
	}
	return ts
}

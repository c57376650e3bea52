package plot

import (
	"fmt"
	"image/color"
	"math"
	"path/filepath"
	"strconv"
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
	p.X.Tick.Marker = niceTicks{integer: integerX}
	p.Y.Tick.Marker = niceTicks{}
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
	// The legend takes about legendRow points per entry (and a margin)
	// of a data area about dataHeight points high: the band above the
	// data is made that high, so that the legend never covers a point.
	band := math.Min(0.6, (legendRow*float64(entries)+legendMargin)/dataHeight)
	p.Y.Max += math.Max(0.05, band/(1-band)*1.04) * dy
	return p, nil
}

// Sizes of Save's drawing, in points, for the legend's room.
const (
	legendRow    = 15.0
	legendMargin = 10.0
	dataHeight   = 4.5*72 - 70 // the figure's height less title and x axis
)

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

// niceTicks labels round values: multiples of a step of 1, 2 or 5 times a
// power of ten, about five to ten of them, every one labelled (integer:
// the step is at least 1, for integer parameters).
type niceTicks struct{ integer bool }

func (n niceTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) {
		return plot.DefaultTicks{}.Ticks(lo, hi)
	}
	step := niceStep((hi - lo) / 8)
	if n.integer {
		step = math.Max(1, math.Round(step))
	}
	decimals := max(0, int(-math.Floor(math.Log10(step)+1e-9)))
	var ts []plot.Tick
	for k := math.Ceil(lo/step - 1e-9); k*step <= hi+step*1e-9; k++ {
		v := k*step + 0 // + 0 turns -0 into 0
		ts = append(ts, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', decimals, 64)})
	}
	if len(ts) == 0 {
		return plot.DefaultTicks{}.Ticks(lo, hi)
	}
	return ts
}

// niceStep returns the smallest of 1, 2, 5 times a power of ten that is
// at least x (x > 0).
func niceStep(x float64) float64 {
	p := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= x*(1-1e-9) {
			return m * p
		}
	}
	return 10 * p
}

package sweep

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/tcheck/tcheck/model"
	"github.com/tcheck/tcheck/queries"
)

// PlotOptions choose what a plot shows.
type PlotOptions struct {
	// X is the parameter on the x axis (default: the last parameter that
	// takes several values).
	X string
	// Y is the result on the y axis: "states", "time" (seconds), "memory"
	// (MiB), "worst-time" (the first value of the sweep's first sup query),
	// a query name ("name[term]" for one expression of a sup/inf with
	// several), whose value (sup/inf) or verdict (1 satisfied, 0 violated)
	// is plotted. Default: worst-time if the sweep has a sup query, else
	// states.
	Y string
	// Series are the parameters whose values make separate lines (default:
	// every other parameter that takes several values).
	Series []string
	// Where keeps the points for which it holds.
	Where string
	// Overlay is an expression over the model's parameters and constants
	// drawn as a dashed line next to each series (e.g. "T", "U").
	Overlay string
}

// XY is a plotted point.
type XY struct{ X, Y float64 }

// PlotLine is one series of a plot and its overlay.
type PlotLine struct {
	Label   string
	Points  []XY
	Overlay []XY
}

// PlotData is what a plot draws.
type PlotData struct {
	XLabel, YLabel, OverlayLabel string
	Lines                        []PlotLine
}

// OverlayFunc evaluates an overlay at a point.
type OverlayFunc func(params []Param) (float64, error)

// ModelOverlay returns an OverlayFunc that compiles the model with the
// fixed parameters set and the point's values and evaluates expr there.
func ModelOverlay(f *model.File, set []Param, expr string) (OverlayFunc, error) {
	e, err := ParseModelExpr(expr)
	if err != nil {
		return nil, err
	}
	return func(params []Param) (float64, error) {
		ov := map[string]int64{}
		for _, p := range set {
			ov[p.Name] = p.Value
		}
		for _, p := range params {
			ov[p.Name] = p.Value
		}
		net, err := f.Compile(ov)
		if err != nil {
			return 0, err
		}
		v, err := e.Eval(net)
		return float64(v), err
	}, nil
}

// Plot extracts the data of a plot from results. Points whose y value is
// not a number (unknown, error, "inf", "none", "> K") are left out.
func Plot(s *SpecJSON, points []*PointResult, o PlotOptions, overlay OverlayFunc) (*PlotData, error) {
	names := s.Names()
	filter, err := ParseFilter(o.Where)
	if err != nil {
		return nil, fmt.Errorf("--plot-where: %v", err)
	}
	var kept []*PointResult
	for _, p := range points {
		ok, err := filter.Keep(p.Params)
		if err != nil {
			return nil, fmt.Errorf("--plot-where: %v", err)
		}
		if ok {
			kept = append(kept, p)
		}
	}
	varying := func(n string) bool {
		seen := map[int64]bool{}
		for _, p := range kept {
			seen[paramValue(p.Params, n)] = true
		}
		return len(seen) > 1
	}
	x := o.X
	if x == "" {
		for i := len(names) - 1; i >= 0; i-- {
			if varying(names[i]) {
				x = names[i]
				break
			}
		}
		if x == "" && len(names) > 0 {
			x = names[len(names)-1]
		}
	}
	if !slices.Contains(names, x) {
		return nil, fmt.Errorf("--plot-x: %s is not a swept parameter (%s)", x, strings.Join(names, ", "))
	}
	series := o.Series
	if series == nil {
		for _, n := range names {
			if n != x && varying(n) {
				series = append(series, n)
			}
		}
	}
	for _, n := range series {
		if !slices.Contains(names, n) || n == x {
			return nil, fmt.Errorf("--plot-series: %s is not a swept parameter other than the x axis", n)
		}
	}
	yv, ylabel, err := yValue(s, o.Y)
	if err != nil {
		return nil, err
	}
	d := &PlotData{XLabel: x, YLabel: ylabel, OverlayLabel: o.Overlay}
	byLabel := map[string]int{}
	for _, p := range kept {
		var parts []string
		for _, n := range series {
			parts = append(parts, fmt.Sprintf("%s=%d", n, paramValue(p.Params, n)))
		}
		label := strings.Join(parts, ", ")
		li, ok := byLabel[label]
		if !ok {
			li = len(d.Lines)
			byLabel[label] = li
			d.Lines = append(d.Lines, PlotLine{Label: label})
		}
		l := &d.Lines[li]
		xv := float64(paramValue(p.Params, x))
		for _, q := range l.Overlay {
			if q.X == xv {
				return nil, fmt.Errorf("two points of line %q have %s=%v: another parameter varies; add it to --plot-series or filter with --plot-where", label, x, xv)
			}
		}
		if overlay != nil {
			ov, err := overlay(p.Params)
			if err != nil {
				return nil, fmt.Errorf("--plot-overlay at %s: %v", p.Key(), err)
			}
			l.Overlay = append(l.Overlay, XY{xv, ov})
		} else {
			l.Overlay = append(l.Overlay, XY{xv, 0})
		}
		if y, ok := yv(p); ok {
			l.Points = append(l.Points, XY{xv, y})
		}
	}
	for i := range d.Lines {
		l := &d.Lines[i]
		sort.Slice(l.Points, func(a, b int) bool { return l.Points[a].X < l.Points[b].X })
		sort.Slice(l.Overlay, func(a, b int) bool { return l.Overlay[a].X < l.Overlay[b].X })
		if overlay == nil {
			l.Overlay = nil
		}
	}
	return d, nil
}

func paramValue(ps []Param, name string) int64 {
	for _, p := range ps {
		if p.Name == name {
			return p.Value
		}
	}
	return 0
}

// numeric reads a sup/inf value: "13" and "<13" (a supremum not attained)
// are 13; "none", "inf" and unresolved "> K" are not numbers.
func numeric(v string) (float64, bool) {
	v = strings.TrimPrefix(v, "<")
	n, err := strconv.ParseInt(v, 10, 64)
	return float64(n), err == nil
}

// yValue returns the extractor of the y value and its label.
func yValue(s *SpecJSON, y string) (func(*PointResult) (float64, bool), string, error) {
	if y == "" {
		y = "states"
		for _, q := range s.Queries {
			if q.Kind == "sup" {
				y = "worst-time"
				break
			}
		}
	}
	// A query of that name wins over the keywords (the bundled agreement
	// model has a sup query named worst-time).
	for _, c := range columns(s) {
		if c == y && y != "states" && y != "time" && y != "memory" {
			return queryValue(s, y)
		}
	}
	switch y {
	case "states":
		return func(p *PointResult) (float64, bool) { return float64(p.States), p.Error == "" }, "stored states", nil
	case "time":
		return func(p *PointResult) (float64, bool) { return p.Elapsed.Seconds(), true }, "time (s)", nil
	case "memory":
		return func(p *PointResult) (float64, bool) { return float64(p.PeakMemory) / (1 << 20), true }, "peak memory (MiB)", nil
	case "worst-time":
		for i, q := range s.Queries {
			if q.Kind == "sup" {
				return valueAt(i, 0), q.Name, nil
			}
		}
		return nil, "", fmt.Errorf("--plot-y worst-time: the sweep has no sup query (add one with -q, e.g. -q 'sup{cond}: clock')")
	}
	return queryValue(s, y)
}

// queryValue returns the extractor of a query column's value.
func queryValue(s *SpecJSON, y string) (func(*PointResult) (float64, bool), string, error) {
	for i, q := range s.Queries {
		if q.Kind == "sup" || q.Kind == "inf" {
			if y == q.Name && len(q.Terms) == 1 {
				return valueAt(i, 0), q.Name, nil
			}
			for k, t := range q.Terms {
				if y == q.Name+"["+t+"]" {
					return valueAt(i, k), y, nil
				}
			}
			continue
		}
		if y == q.Name {
			return func(p *PointResult) (float64, bool) {
				if i >= len(p.Queries) {
					return 0, false
				}
				switch p.Queries[i].Verdict {
				case queries.Satisfied:
					return 1, true
				case queries.Violated:
					return 0, true
				}
				return 0, false
			}, q.Name + " (1 satisfied, 0 violated)", nil
		}
	}
	return nil, "", fmt.Errorf("--plot-y %q: want worst-time, states, time, memory or a query (%s)", y, strings.Join(columns(s), ", "))
}

func valueAt(i, k int) func(*PointResult) (float64, bool) {
	return func(p *PointResult) (float64, bool) {
		if i >= len(p.Queries) || k >= len(p.Queries[i].Values) || p.Queries[i].Verdict == queries.Error {
			return 0, false
		}
		return numeric(p.Queries[i].Values[k])
	}
}

package sweep

import (
	"context"
	"reflect"
	"strings"
	"testing"
)

// TestPlotSeriesAndOverlay plots the detection delay of the timeout model
// against d, one line per c2, with T overlaid: the delay equals T.
func TestPlotSeriesAndOverlay(t *testing.T) {
	s, err := New(Args{
		Model:   modelSource(t, bundled(t, "timeout")),
		Queries: []string{"A2", "detection=sup{Process.halted && !has_halted && !Observer.halted}: Process.x"},
		Grid:    Grid{{mustAxis(t, "c2=1..2"), mustAxis(t, "d=0..1")}},
	})
	if err != nil {
		t.Fatal(err)
	}
	ps, _ := s.Points()
	res := s.Run(context.Background(), ps, RunOptions{Jobs: 2})
	sj := s.JSON(len(ps))
	ov, err := ModelOverlay(s.ModelFile, nil, "T")
	if err != nil {
		t.Fatal(err)
	}
	d, err := Plot(&sj, res, PlotOptions{Y: "worst-time", Overlay: "T"}, ov)
	if err != nil {
		t.Fatal(err)
	}
	want := &PlotData{XLabel: "d", YLabel: "detection", OverlayLabel: "T", Lines: []PlotLine{
		{Label: "c2=1", Points: []XY{{0, 3}, {1, 5}}, Overlay: []XY{{0, 3}, {1, 5}}},
		{Label: "c2=2", Points: []XY{{0, 8}, {1, 11}}, Overlay: []XY{{0, 8}, {1, 11}}},
	}}
	if !reflect.DeepEqual(d, want) {
		t.Errorf("plot data %+v, want %+v", d, want)
	}
	// A verdict plots as 1/0; x and series chosen explicitly.
	d, err = Plot(&sj, res, PlotOptions{X: "c2", Y: "A2", Series: []string{"d"}}, nil)
	if err != nil || len(d.Lines) != 2 || d.Lines[0].Label != "d=0" || d.Lines[0].Points[1] != (XY{2, 1}) {
		t.Errorf("verdict plot %+v, %v", d, err)
	}
	// Without the series, two points of a line share x.
	if _, err := Plot(&sj, res, PlotOptions{X: "d", Series: []string{}}, nil); err == nil || !strings.Contains(err.Error(), "another parameter varies") {
		t.Errorf("error %v, want another parameter varies", err)
	}
	// --plot-where keeps one line.
	d, err = Plot(&sj, res, PlotOptions{Where: "c2 == 2"}, nil)
	if err != nil || len(d.Lines) != 1 || d.Lines[0].Label != "" {
		t.Errorf("filtered plot %+v, %v", d, err)
	}
	if _, err := Plot(&sj, res, PlotOptions{Y: "nosuch"}, nil); err == nil {
		t.Errorf("no error for an unknown y")
	}
}

func TestNumericValues(t *testing.T) {
	for v, want := range map[string]float64{"13": 13, "<13": 13, "-2": -2} {
		if got, ok := numeric(v); !ok || got != want {
			t.Errorf("numeric(%q) = %v, %v", v, got, ok)
		}
	}
	for _, v := range []string{"none", "inf", ">64"} {
		if _, ok := numeric(v); ok {
			t.Errorf("numeric(%q) is a number", v)
		}
	}
}

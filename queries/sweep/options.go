package sweep

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/tcheck/tcheck/queries"
	"github.com/tcheck/tcheck/zone"
)

// Options are the exploration options of every point. Limits apply per
// point: MaxStates to each exploration of the point, Timeout to the point
// as a whole (its explorations share it), MaxMemory to the process's heap
// while the point runs (with several points in parallel the heap is
// shared, so the limit covers them together).
type Options struct {
	Order         zone.Order
	Extrapolation zone.ExtraKind
	GlobalBounds  bool
	FullZones     bool
	Hull          bool // convex-hull over-approximation (queries.Options.Hull)
	Subsumption   zone.Subsumption
	Limits        zone.Limits
	// Workers is the number of goroutines of each point's exploration
	// (queries.Options.Workers); 0: the cores left to each point by Run.
	Workers int
	// NoSymmetry turns off the symmetry reduction over the model's scalar
	// sets (queries.Options.Symmetry), which is on by default.
	NoSymmetry bool
	// SkipInTest: `test: false`, see SkippedInTest.
	SkipInTest bool
}

func (o Options) check() queries.Options {
	return queries.Options{Order: o.Order, Extrapolation: o.Extrapolation, GlobalBounds: o.GlobalBounds, FullZones: o.FullZones, Hull: o.Hull, Subsumption: o.Subsumption, Limits: o.Limits, Workers: o.Workers, Symmetry: !o.NoSymmetry}
}

// ParseBytes reads sizes like 512MB, 2GiB, 1000000.
func ParseBytes(s string) (uint64, error) {
	orig := s
	s = strings.TrimSpace(s)
	units := []struct {
		suffix string
		mult   uint64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}, {"GB", 1e9}, {"MB", 1e6}, {"KB", 1e3}, {"G", 1 << 30}, {"M", 1 << 20}, {"K", 1 << 10}, {"B", 1}}
	mult := uint64(1)
	for _, u := range units {
		if strings.HasSuffix(s, u.suffix) {
			s, mult = strings.TrimSpace(strings.TrimSuffix(s, u.suffix)), u.mult
			break
		}
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v < 0 {
		return 0, fmt.Errorf("%q is not a size (e.g. 2GiB, 500MB)", orig)
	}
	return uint64(v * float64(mult)), nil
}

// OptionsJSON is the options part of a sweep's header in result files.
type OptionsJSON struct {
	Order          string `json:"order"`
	Extrapolation  string `json:"extrapolation"`
	GlobalBounds   bool   `json:"global_bounds"`
	Hull           bool   `json:"hull,omitempty"`
	Subsumption    string `json:"subsumption,omitempty"` // "alu"; absent: inclusion
	Symmetry       string `json:"symmetry,omitempty"`    // "off"; absent: on (it acts on models with scalar sets only)
	MaxStates      int64  `json:"max_states"`
	Timeout        string `json:"timeout"`
	MaxMemoryBytes uint64 `json:"max_memory_bytes"`
}

// JSON converts the options for a header.
func (o Options) JSON() OptionsJSON {
	t := "0"
	if o.Limits.Timeout > 0 {
		t = o.Limits.Timeout.String()
	}
	sub := ""
	if o.Subsumption != zone.Inclusion {
		sub = o.Subsumption.String()
	}
	sym := ""
	if o.NoSymmetry {
		sym = "off"
	}
	return OptionsJSON{
		Order: o.Order.String(), Extrapolation: o.Extrapolation.String(), GlobalBounds: o.GlobalBounds, Hull: o.Hull, Subsumption: sub, Symmetry: sym,
		MaxStates: o.Limits.MaxStates, Timeout: t, MaxMemoryBytes: o.Limits.MaxMemory,
	}
}

// options converts back (for plotting and checking merged files).
func (j OptionsJSON) options() (Options, error) {
	var o Options
	if j.Order == "" {
		o.Order = zone.BFS
	} else if order, err := zone.ParseOrder(j.Order); err != nil {
		return o, fmt.Errorf("order %q", j.Order)
	} else {
		o.Order = order
	}
	x, err := zone.ParseExtraKind(j.Extrapolation)
	if err != nil {
		return o, err
	}
	o.Extrapolation = x
	o.GlobalBounds = j.GlobalBounds
	o.Hull = j.Hull
	if j.Subsumption != "" {
		if o.Subsumption, err = zone.ParseSubsumption(j.Subsumption); err != nil {
			return o, err
		}
	}
	switch j.Symmetry {
	case "":
	case "off":
		o.NoSymmetry = true
	default:
		return o, fmt.Errorf("symmetry %q", j.Symmetry)
	}
	o.Limits.MaxStates = j.MaxStates
	if j.Timeout != "" && j.Timeout != "0" {
		if o.Limits.Timeout, err = time.ParseDuration(j.Timeout); err != nil {
			return o, err
		}
	}
	o.Limits.MaxMemory = j.MaxMemoryBytes
	return o, nil
}

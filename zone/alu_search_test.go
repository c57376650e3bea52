package zone_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tcheck/tcheck/model"
	"github.com/tcheck/tcheck/zone"
)

// reachKeys explores the whole zone graph and returns the discrete states
// (locations and variables) of every symbolic state computed, sorted, and
// the result.
func reachKeys(t *testing.T, net *model.Network, opts zone.Options) ([]string, zone.Result) {
	t.Helper()
	seen := map[string]bool{}
	res := zone.Search(zone.NewSystem(net), opts, func(v *zone.Visit) bool {
		seen[fmt.Sprint(v.Locs, v.Vars)] = true
		return false
	})
	if res.Reason != zone.Completed {
		t.Fatalf("search ended: %v (%v)", res.Reason, res.Err)
	}
	keys := make([]string, 0, len(seen))
	for k := range seen {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys, res
}

// TestALUSameDiscreteStates checks that aLU subsumption reaches the same
// discrete states as inclusion and never stores more zones, on Fischer,
// CSMA/CD and the semantics models of queries, under Extra_LU+ and
// Extra_LU, local and global bounds, BFS and DFS, minimal and full zones.
func TestALUSameDiscreteStates(t *testing.T) {
	type model struct {
		path string
		set  map[string]int64
	}
	models := []model{
		{"../testdata/fischer.yaml", map[string]int64{"N": 4}},
		{"../testdata/fischer.yaml", map[string]int64{"N": 5}},
		{"../testdata/csmacd.yaml", nil},
	}
	sem, _ := filepath.Glob("../queries/testdata/semantics/*.yaml")
	if len(sem) == 0 {
		t.Fatal("no semantics models")
	}
	for _, p := range sem {
		models = append(models, model{p, nil})
	}
	beyond := false
	for _, m := range models {
		net := compile(t, m.path, m.set)
		for _, x := range []zone.Extrapolation{
			{Kind: zone.ExtraLUPlus, Local: true},
			{Kind: zone.ExtraLU, Local: true},
			{Kind: zone.ExtraLUPlus},
		} {
			for _, o := range []zone.Options{{}, {Order: zone.DFS}, {FullZones: true}} {
				name := fmt.Sprintf("%s%v/%s/%v/full=%v", filepath.Base(m.path), m.set, x.Describe(), o.Order, o.FullZones)
				o.Extrapolation = x
				incKeys, inc := reachKeys(t, net, o)
				o.Subsumption = zone.ALU
				aluKeys, alu := reachKeys(t, net, o)
				if !slices.Equal(incKeys, aluKeys) {
					t.Fatalf("%s: %d discrete states with inclusion, %d with aLU", name, len(incKeys), len(aluKeys))
				}
				if alu.Discrete != inc.Discrete {
					t.Fatalf("%s: %d stored discrete parts with inclusion, %d with aLU", name, inc.Discrete, alu.Discrete)
				}
				if alu.Stored > inc.Stored {
					t.Fatalf("%s: aLU stored %d zones, inclusion %d", name, alu.Stored, inc.Stored)
				}
				if alu.Stored < inc.Stored {
					beyond = true
					t.Logf("%s: stored %d with inclusion, %d with aLU", name, inc.Stored, alu.Stored)
				}
				wantDesc := ", aLU subsumption"
				switch {
				case len(net.Diagonals) > 0:
					wantDesc = ", inclusion (aLU refused: diagonal constraints)"
				case net.Stopwatches:
					wantDesc = ", inclusion (aLU refused: stopwatches)"
				}
				if !strings.HasSuffix(alu.Extrapolation, wantDesc) || strings.Contains(inc.Extrapolation, "subsumption") {
					t.Fatalf("%s: described %q and %q", name, inc.Extrapolation, alu.Extrapolation)
				}
				if m.path == "../testdata/fischer.yaml" && m.set["N"] == 5 && o.Order == zone.BFS && !o.FullZones && x.Local && x.Kind == zone.ExtraLUPlus {
					t.Logf("%s: stored %d with inclusion, %d with aLU", name, inc.Stored, alu.Stored)
				}
			}
		}
	}
	if !beyond {
		t.Fatal("aLU never stored fewer zones than inclusion")
	}
}

// TestALURefused checks that aLU falls back to inclusion, and says so,
// under the convex hull, Extra_M/M+ (deadlock), no extrapolation and
// diagonal constraints.
func TestALURefused(t *testing.T) {
	net := compile(t, "../testdata/fischer.yaml", map[string]int64{"N": 4})
	sys := zone.NewSystem(net)
	for _, tc := range []struct {
		opts zone.Options
		why  string
	}{
		{zone.Options{Hull: true, Extrapolation: zone.Extrapolation{Local: true}}, "convex hull"},
		{zone.Options{Extrapolation: zone.Extrapolation{Kind: zone.ExtraMPlus, Local: true}}, "extrapolation m+"},
		{zone.Options{Extrapolation: zone.Extrapolation{Kind: zone.ExtraM, Local: true}}, "extrapolation m"},
		{zone.Options{Extrapolation: zone.Extrapolation{Kind: zone.ExtraNone}}, "extrapolation none"},
		{zone.Options{Extrapolation: zone.Extrapolation{Local: true, Diagonals: []model.ClockConstraint{{I: 1, J: 2, Const: 1}}}}, "diagonal constraints"},
	} {
		if tc.opts.Extrapolation.Kind == zone.ExtraNone {
			// the exploration need not terminate; check the resolution only
			tc.opts.Subsumption = zone.ALU
			if s, why := zone.ResolveSubsumption(sys, tc.opts); s != zone.Inclusion || why != tc.why {
				t.Fatalf("none: %v (%s)", s, why)
			}
			continue
		}
		inc := zone.Search(sys, tc.opts, func(*zone.Visit) bool { return false })
		tc.opts.Subsumption = zone.ALU
		alu := zone.Search(sys, tc.opts, func(*zone.Visit) bool { return false })
		if alu.Stored != inc.Stored || alu.Explored != inc.Explored {
			t.Fatalf("%s: aLU not refused: stored %d, inclusion %d", tc.why, alu.Stored, inc.Stored)
		}
		if want := inc.Extrapolation + ", inclusion (aLU refused: " + tc.why + ")"; alu.Extrapolation != want {
			t.Fatalf("described %q, want %q", alu.Extrapolation, want)
		}
	}
}

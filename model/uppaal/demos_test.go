package uppaal

import (
	"path/filepath"
	"testing"

	"github.com/tcheck/tcheck/queries"
	"github.com/tcheck/tcheck/zone"
)

// demos are UPPAAL's classic demo models, written for these tests in XML,
// XTA (with a .q file) and YAML, with their known verdicts as expectations
// (derived in each file's comments): Fischer's protocol (mutual exclusion
// holds), the train-gate controller (never two trains crossing, every train
// can cross), the bridge problem (all four across in 60 minutes, not in 59)
// and CSMA/CD (collisions happen, only two senders at once in collision).
var demos = []string{"fischer", "train-gate", "bridge", "csmacd"}

// TestDemoModelsGiveTheirKnownVerdicts checks every query of every demo in
// every format against its expectation.
func TestDemoModelsGiveTheirKnownVerdicts(t *testing.T) {
	for _, demo := range demos {
		for _, ext := range []string{"xml", "xta", "yaml"} {
			t.Run(demo+"."+ext, func(t *testing.T) {
				f := load(t, filepath.Join(demoDir, demo+"."+ext))
				if len(f.Queries) == 0 {
					t.Fatal("no queries")
				}
				for _, o := range check(t, f, queries.Options{}) {
					if !o.Expect {
						t.Errorf("query %s has no expectation", o.Name)
					}
					if !o.Matches {
						t.Errorf("query %s: got %s, not the expected verdict", o.Name, o.Verdict)
					}
				}
			})
		}
	}
}

// TestDemoFormatsAgree checks that the XML and XTA versions of each demo
// give the same verdicts (or values) and the same numbers of stored states
// as the YAML version, query by query, under two extrapolations.
func TestDemoFormatsAgree(t *testing.T) {
	for _, demo := range demos {
		for _, kind := range []zone.ExtraKind{zone.ExtraLUPlus, zone.ExtraLU} {
			t.Run(demo+"/"+kind.String(), func(t *testing.T) {
				opts := queries.Options{Extrapolation: kind}
				want := check(t, load(t, filepath.Join(demoDir, demo+".yaml")), opts)
				for _, ext := range []string{"xml", "xta"} {
					got := check(t, load(t, filepath.Join(demoDir, demo+"."+ext)), opts)
					if d := sameOutcomes(want, got, false); d != "" {
						t.Errorf("%s.%s differs from %s.yaml: %s", demo, ext, demo, d)
					}
				}
			})
		}
	}
}

// TestStructModelReadsFromUPPAALFormats reads a model with structs as UPPAAL
// writes it (testdata/structs.xml, and structs.xta with its .q file,
// written from queries/testdata/semantics/struct-leader-election.yaml):
// struct typedefs, arrays of structs, struct parameters and locals,
// whole-struct assignments and comparisons give the verdicts and numbers
// of stored states of the YAML original, each as expected.
func TestStructModelReadsFromUPPAALFormats(t *testing.T) {
	want := check(t, load(t, "../../queries/testdata/semantics/struct-leader-election.yaml"), queries.Options{})
	for _, name := range []string{"structs.xml", "structs.xta"} {
		got := check(t, load(t, filepath.Join("testdata", name)), queries.Options{})
		if d := sameOutcomes(want, got, false); d != "" {
			t.Errorf("%s differs from the YAML original: %s", name, d)
		}
		for _, o := range got {
			if !o.Expect || !o.Matches {
				t.Errorf("%s: query %s: %s (expectation given %v, met %v)", name, o.Name, o.Verdict, o.Expect, o.Matches)
			}
		}
	}
}

// TestStopwatchModelReadsFromUPPAALFormats reads a model with a stopwatch
// as UPPAAL writes it (testdata/stopwatch.xml, and stopwatch.xta with its
// .q file, written from
// queries/testdata/semantics/stopwatch-scheduler.yaml): the clock rate
// e' == running in an invariant, and the expectations maybe_true and
// maybe_false (tcheck's unknown), give the verdicts, values and numbers of
// stored states of the YAML original, each as expected.
func TestStopwatchModelReadsFromUPPAALFormats(t *testing.T) {
	want := check(t, load(t, "../../queries/testdata/semantics/stopwatch-scheduler.yaml"), queries.Options{})
	for _, name := range []string{"stopwatch.xml", "stopwatch.xta"} {
		got := check(t, load(t, filepath.Join("testdata", name)), queries.Options{})
		if d := sameOutcomes(want, got, false); d != "" {
			t.Errorf("%s differs from the YAML original: %s", name, d)
		}
		for _, o := range got {
			if !o.Expect || !o.Matches {
				t.Errorf("%s: query %s: %s (expectation given %v, met %v)", name, o.Name, o.Verdict, o.Expect, o.Matches)
			}
		}
	}
}

package queries

import (
	"testing"

	"github.com/tcheck/tcheck/zone"
)

// TestStructModelMatchesFlatTwin checks models that use structs against
// the same models written without them (testdata/twins): flattening a
// struct into its fields must not change what is explored, so every query
// has the same verdict (and each its expected one) after the same number
// of stored states, under the default and the coarsest extrapolation.
func TestStructModelMatchesFlatTwin(t *testing.T) {
	for _, tc := range []struct{ structs, flat string }{
		{"testdata/semantics/struct-leader-election.yaml", "testdata/twins/flat-leader-election.yaml"},
	} {
		for _, kind := range []zone.ExtraKind{zone.ExtraLUPlus, zone.ExtraNone} {
			t.Run(tc.flat+"/"+kind.String(), func(t *testing.T) {
				opts := Options{Extrapolation: kind}
				opts.Limits.MaxStates = 100000
				a := checkFile(t, tc.structs, nil, opts)
				b := checkFile(t, tc.flat, nil, opts)
				if len(a) != len(b) {
					t.Fatalf("%d queries with structs, %d without", len(a), len(b))
				}
				for i := range a {
					if a[i].Query.Name != b[i].Query.Name {
						t.Fatalf("query %d is %s with structs, %s without", i, a[i].Query.Name, b[i].Query.Name)
					}
					if a[i].Verdict != b[i].Verdict || a[i].Stats.Stored != b[i].Stats.Stored {
						t.Errorf("%s: %v after %d stored states with structs, %v after %d without",
							a[i].Query.Name, a[i].Verdict, a[i].Stats.Stored, b[i].Verdict, b[i].Stats.Stored)
					}
					if a[i].Stats.Stored < 10 {
						t.Errorf("%s: only %d stored states: the model explores too little to compare", a[i].Query.Name, a[i].Stats.Stored)
					}
				}
			})
		}
	}
}

package agreement

import (
	"strings"
	"testing"

	"github.com/tcheck/tcheck/queries"
)

// cheapInstances are the paper's instances with c1 = 1 and d <= 1 (tables
// 2.1, 2.2 of seed-models.md), on which `go test` checks every query of
// both models (the "cheap instances"). With the dead-value
// normalisation the largest, d = 1 with f = 1, has 0.4 million zones.
var cheapInstances = []instance{{1, 1, 0, 0}, {1, 1, 0, 1}, {1, 2, 0, 0}, {1, 2, 0, 1}, {1, 1, 1, 0}, {1, 2, 1, 0}, {1, 1, 1, 1}, {1, 2, 1, 1}}

// mutantInstances are the instances the agreement mutants are checked on:
// f = 0 on both groups and f = 1 on the first (each f = 1 instance costs
// about ten seconds per mutant); every cheap instance with -tags slow.
var mutantInstances = func() []instance {
	if slow {
		return cheapInstances
	}
	return []instance{{1, 1, 0, 0}, {1, 1, 0, 1}, {1, 2, 0, 0}}
}()

// TestTimeoutPaperSect4 checks properties (1) A1 and (2) A2 of the timeout
// task and the extra checks of seed-models.md 3.7 on the cheap instances,
// and on (9,10,5), the smallest of the paper's third group.
func TestTimeoutPaperSect4(t *testing.T) {
	for _, in := range append(cheapInstances, instance{9, 10, 5, 0}) {
		if in.f == 1 {
			continue // the timeout model has no f
		}
		t.Run(in.String(), func(t *testing.T) { checkAll(t, "timeout", in, nil) })
	}
}

// roundsF0 overrides the `rounds` check for f = 0: seed-models.md 4.9
// observed at most round 2f+1, but with f = 0 a process with input 1 that
// receives (1, j) from a process that decided 0 moves to round 2 = 2f+2
// (the replayed counterexample is in docs/results.md).
var roundsF0 = map[string]queries.Verdict{"rounds": queries.Violated}

func roundsOverride(in instance) map[string]queries.Verdict {
	if in.f == 0 {
		return roundsF0
	}
	return nil
}

// TestAgreementPaperSect5 checks properties (3)-(7), the non-vacuity
// checks of seed-models.md 4.9 and worst-time <= U on the cheap instances.
func TestAgreementPaperSect5(t *testing.T) {
	for _, in := range cheapInstances {
		t.Run(in.String(), func(t *testing.T) { checkAll(t, "agreement", in, roundsOverride(in)) })
	}
}

// TestMutants checks the faulty variants of seed-models.md 3.9 and 4.10:
// each produces the verdicts its file expects (the failures with replayed
// counterexamples), on the cheap instances where seed-models.md states
// them.
func TestMutants(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   []instance
		// override holds verdicts that depend on the instance.
		override map[instance]map[string]queries.Verdict
	}{
		{name: "timeout-m1", in: []instance{{1, 1, 0, 0}, {1, 2, 0, 0}, {1, 1, 1, 0}}},
		{name: "timeout-m2", in: []instance{{1, 1, 0, 0}, {1, 2, 0, 0}, {1, 1, 1, 0}}},
		{name: "timeout-m3", in: []instance{{1, 1, 0, 0}, {1, 2, 0, 0}, {1, 1, 1, 0}}},
		{name: "agreement-m1", in: mutantInstances, override: map[instance]map[string]queries.Verdict{
			// (5) also fails for f = 0 (seed-models.md 4.10), and the
			// worst time exceeds U
			{1, 1, 0, 0}: {"termination": queries.Violated, "worst-time": queries.Violated},
			{1, 2, 0, 0}: {"termination": queries.Violated, "worst-time": queries.Violated},
			{1, 1, 1, 0}: {"termination": queries.Violated, "worst-time": queries.Violated},
			{1, 2, 1, 0}: {"termination": queries.Violated, "worst-time": queries.Violated},
		}},
		{name: "agreement-m3", in: mutantInstances},
		{name: "agreement-m3b", in: mutantInstances},
		{name: "agreement-m5", in: []instance{{1, 1, 1, 0}, {1, 1, 0, 0}}, override: map[instance]map[string]queries.Verdict{
			// with d = 0, NB = 1 is enough
			{1, 1, 0, 0}: {"output-enabled": queries.Satisfied, "deadlock": queries.Satisfied},
		}},
		{name: "agreement-msym", in: mutantInstances},
		{name: "agreement-mt", in: mutantInstances},
	} {
		for _, in := range tc.in {
			t.Run(tc.name+"/"+in.String(), func(t *testing.T) {
				override := map[string]queries.Verdict{}
				if strings.HasPrefix(tc.name, "agreement") {
					for k, v := range roundsOverride(in) {
						override[k] = v
					}
				}
				for k, v := range tc.override[in] {
					override[k] = v
				}
				checkAll(t, tc.name, in, override)
			})
		}
	}
}

package agreement

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tcheck/tcheck/model"
	"github.com/tcheck/tcheck/queries"
	"github.com/tcheck/tcheck/zone"
)

// scalarInstances are the cheap rows of agreement/paper/agreement.sweep.yaml
// (Hendriks, FORMATS 2005, Sect. 5.2, n = 3) on which agreement-scalar is
// compared with agreement: d/c1 <= 1, f in {0, 1}; by default the three
// cheapest (go test ./... stays a few minutes: (1,1,1) f = 1 alone takes
// over a minute for both models). With -tags slow, every cheap instance of
// the paper's first two groups.
var scalarInstances = func() []instance {
	if slow {
		return cheapInstances
	}
	return []instance{{1, 1, 0, 0}, {1, 1, 0, 1}, {1, 1, 1, 0}}
}()

// TestScalarAgreementSameAnswersSect5 checks the claim of the header of
// agreement-scalar.yaml: written with the process identities as a scalar
// set, any process allowed to fail (instead of the paper's mayFail = id <
// f) and P10's recipient set built in a committed location, the agreement
// model checked with symmetry reduction gives every query of the file
// (properties (3)-(7) of Hendriks, FORMATS 2005, Sect. 5.2, the checks of
// seed-models.md 4.9, and the exact worst-case time to agreement) the
// verdict and the sup value of the bundled agreement model, with replayed
// traces, and stores fewer states for each. The file's queries do not
// tell a failure that sends to some of the others from one that sends to
// all (on these rows neither changes a verdict or the worst time), so
// the models are also compared on partialSend, which only the former
// makes true.
func TestScalarAgreementSameAnswersSect5(t *testing.T) {
	for _, in := range scalarInstances {
		t.Run(in.String(), func(t *testing.T) {
			plain := checkWith(t, "agreement", in, queries.Options{})
			sym := checkWith(t, "agreement-scalar", in, queries.Options{Symmetry: true})
			if len(plain) != len(sym) {
				t.Fatalf("%d queries in agreement, %d in agreement-scalar", len(plain), len(sym))
			}
			for i := range plain {
				p, s := plain[i], sym[i]
				if p.Query.Name != s.Query.Name {
					t.Fatalf("query %d: %s vs %s", i, p.Query.Name, s.Query.Name)
				}
				if !strings.Contains(s.Extrapolation, "symmetry reduction over pid_t") {
					t.Errorf("%s: no symmetry reduction: %s", s.Query.Name, s.Extrapolation)
				}
				if p.Verdict != s.Verdict || fmt.Sprint(p.Values) != fmt.Sprint(s.Values) {
					t.Errorf("%s: agreement %v %v, agreement-scalar %v %v", p.Query.Name, p.Verdict, p.Values, s.Verdict, s.Values)
				}
				if s.Stats.Stored >= p.Stats.Stored {
					t.Errorf("%s: agreement-scalar stores %d states, agreement %d: no reduction", s.Query.Name, s.Stats.Stored, p.Stats.Stored)
				}
				needTrace := (s.Verdict == queries.Violated && strings.HasPrefix(s.Query.Src, "A[]")) ||
					(s.Verdict == queries.Satisfied && (len(s.Values) > 0 || strings.HasPrefix(s.Query.Src, "E<>")))
				if needTrace && (s.Trace == nil || s.TraceErr != nil) {
					t.Errorf("%s: no replayed trace on agreement-scalar: %v", s.Query.Name, s.TraceErr)
				}
			}
			for _, r := range sym {
				if r.Query.Name == "worst-time" && len(r.Values) == 0 {
					t.Errorf("worst-time: no value")
				}
				if r.Query.Name == "partial-send" && in.f > 0 && r.Verdict != queries.Satisfied {
					t.Errorf("partial-send: %v with f = %d", r.Verdict, in.f)
				}
			}
		})
	}
}

// partialSend holds when a failed process i (down, no decision) has a
// message in its Broadcast automaton b that is pending to some j while a
// running process k neither awaits it nor has received it (it would be in
// buff[k], whose row msg is kept while r[k] <= msg + 1): P10 with a
// recipient set S that leaves k out.
const partialSend = `E<> exists (i : pid_t) exists (b : bid_t) exists (j : pid_t) exists (k : pid_t)
	k != i && down[i] && dec[i] < 0 && Broadcast(i, b).msg >= 0 && pend[i][b][j] && !down[k] &&
	!pend[i][b][k] && !buff[k][Broadcast(i, b).msg][i] && r[k] <= Broadcast(i, b).msg + 1`

// checkWith checks every query of a bundled model and partialSend at an
// instance with opts.
func checkWith(t *testing.T, name string, in instance, opts queries.Options) []*queries.Result {
	t.Helper()
	f, net := compile(t, name, in.overrides(name))
	qs, err := queries.FromFile(net, f, nil)
	if err != nil {
		t.Fatal(err)
	}
	q, err := queries.Compile(net, model.NewText(partialSend, model.Pos{}))
	if err != nil {
		t.Fatal(err)
	}
	q.Name = "partial-send"
	qs = append(qs, q)
	res := queries.Check(zone.NewSystem(net), qs, opts)
	for _, r := range res {
		if r.Verdict == queries.Error || r.Verdict == queries.Unknown {
			t.Fatalf("%s %v: %s: %v %v %v", name, in, r.Query.Name, r.Verdict, r.Err, r.TraceErr)
		}
	}
	return res
}

// TestDeadlockPropertyOneExplorationSect5 checks that property (7) of
// Hendriks, FORMATS 2005, Sect. 5.2 (only the expected deadlocks: all
// finished, or two clocks of processes apart by more than T - c1) is
// decided in the Extra_LU+ exploration of properties (3)-(6), on its
// stored zones (queries.Check): none of them holds an unexpected
// deadlock, so the Extra_M+ exploration, three to six times larger on the
// paper's rows with d >= 3, is not needed. The stored zones are shown to
// the property within the locations' invariants: Extra_LU+ drops the
// Broadcast automata's x <= d (an upper bound that no lower-bound guard
// reads), and valuations beyond it would be deadlocked in the abstraction
// only. The exploration leaves the property's constant T - c1 out of the
// bounds (queries' coarse try), and keeps the clocks' upper bounds where
// time cannot pass: without them, agreement-scalar with f = 1, whose
// failures go through the committed location failing after x = 0, meets
// deadlocks there that only the abstraction has (x > T against update's
// invariant), and the try is abandoned for one with the constant.
func TestDeadlockPropertyOneExplorationSect5(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   instance
	}{
		{"agreement-scalar", instance{1, 1, 1, 0}},
		{"agreement-scalar", instance{1, 2, 0, 1}},
		{"agreement", instance{1, 2, 0, 1}},
	} {
		name, in := tc.name, tc.in
		{
			t.Run(name+"/"+in.String(), func(t *testing.T) {
				f, net := compile(t, name, in.overrides(name))
				qs, err := queries.FromFile(net, f, []string{"deadlock", "agreement"})
				if err != nil {
					t.Fatal(err)
				}
				res := queries.Check(zone.NewSystem(net), qs, queries.Options{Extrapolation: zone.ExtraLUPlus, Symmetry: true})
				for _, r := range res {
					if r.Verdict != queries.Satisfied || r.Rounds != 1 || strings.HasPrefix(r.Extrapolation, "m") {
						t.Errorf("%s: %v in %d explorations (%v), want satisfied in 1 under lu+", r.Query.Name, r.Verdict, r.Rounds, r.Extrapolation)
					}
				}
				if res[0].Stats.Stored != res[1].Stats.Stored {
					t.Errorf("deadlock stored %d states, agreement %d: not one exploration", res[0].Stats.Stored, res[1].Stats.Stored)
				}
			})
		}
	}
}

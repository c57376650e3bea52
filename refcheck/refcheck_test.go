package refcheck_test

import (
	"errors"
	"fmt"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/tcheck/tcheck/model"
	"github.com/tcheck/tcheck/model/syntax"
	"github.com/tcheck/tcheck/queries"
	"github.com/tcheck/tcheck/refcheck"
)

// compile compiles a model given as YAML text.
func compile(t *testing.T, src string) *model.Network {
	t.Helper()
	f, err := model.Parse("test.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	net, err := f.Compile(nil)
	if err != nil {
		t.Fatal(err)
	}
	return net
}

// ask answers one query with the reference: "satisfied"/"violated" for
// E<> and A[], the value for sup over a clock, "model-error",
// "unsupported" or "limit" for those errors.
func ask(t *testing.T, net *model.Network, formula string, opts refcheck.Options) string {
	t.Helper()
	q, err := queries.Compile(net, model.Text{S: formula})
	if err != nil {
		t.Fatalf("%s: %v", formula, err)
	}
	verdict, values, ok, err := answer(t, net, q, opts)
	if !ok {
		t.Fatalf("%s: not a query the reference decides", formula)
	}
	var me *refcheck.ModelError
	var un *refcheck.Unsupported
	switch {
	case errors.As(err, &me):
		return "model-error"
	case errors.As(err, &un):
		return "unsupported"
	case errors.Is(err, refcheck.ErrLimit):
		return "limit"
	case err != nil:
		t.Fatalf("%s: %v", formula, err)
	}
	if q.Kind == syntax.QuerySup || q.Kind == syntax.QueryInf {
		var s []string
		for _, v := range values {
			s = append(s, v.String())
		}
		return strings.Join(s, ",")
	}
	return verdict
}

type check struct {
	query string
	want  string
}

// model templates for the cases below: one process P with clocks x, y.
const oneProc = `
declarations: |
  clock x, y;
  int[0, 3] v = 0;
  int[0, 5] w = 2;
templates:
  - name: P
    locations: [LOCS]
    edges: [EDGES]
system: system P;
`

func onePModel(locs, edges string) string {
	return strings.NewReplacer("LOCS", locs, "EDGES", edges).Replace(oneProc)
}

var cases = []struct {
	name   string
	model  string
	checks []check
	opts   refcheck.Options
}{
	{
		name:  "non-strict invariant: the bound is reached and attained",
		model: onePModel(`{name: a, initial: true, invariant: x <= 3}`, ``),
		checks: []check{
			{"E<> P.a && x == 3", "satisfied"},
			{"E<> x > 3", "violated"},
			{"sup: x", "3"},
			{"sup{x > 1}: y", "3"},
			{"A[] x == y", "satisfied"},
		},
	},
	{
		name:  "strict invariant: the bound is a supremum not attained",
		model: onePModel(`{name: a, initial: true, invariant: x < 3}`, ``),
		checks: []check{
			{"E<> x == 3", "violated"},
			{"E<> x > 2", "satisfied"},
			{"sup: x", "<3"},
			{"A[] x < 3", "satisfied"},
		},
	},
	{
		name: "strict and non-strict guards",
		model: onePModel(`{name: a, initial: true}, {name: b}, {name: c}`,
			`{from: a, to: b, guard: x > 2, update: y = 0}, {from: a, to: c, guard: x >= 2 && x <= 2, update: y = 0}`),
		checks: []check{
			{"E<> P.b && x == 2", "violated"},
			{"E<> P.b && x < 3 && y == 0", "satisfied"},
			{"E<> P.c && x == 2 && y == 0", "satisfied"},
			{"E<> P.c && x > 2 && y == 0", "violated"},
			// regions lose x - y once x is beyond its ceiling: the
			// reference says so instead of guessing
			{"A[] P.c imply x - y == 2", "unsupported"},
			// x can be anything above 2 when P leaves a (no invariant there)
			{"sup{P.b && y == 0}: x", "inf"},
			{"sup{P.c && y == 0}: x", "2"},
		},
	},
	{
		name: "reset to a non-zero constant",
		model: onePModel(`{name: a, initial: true, invariant: x <= 1}, {name: b, invariant: x <= 4}`,
			`{from: a, to: b, guard: x == 1, update: x = 3}`),
		checks: []check{
			{"E<> P.b && x == 3 && y == 1", "satisfied"},
			{"E<> P.b && x < 3", "violated"},
			{"sup{P.b}: y", "2"},
			{"A[] P.b imply x - y == 2", "satisfied"},
		},
	},
	{
		name: "a move whose target invariant fails does not exist",
		model: onePModel(`{name: a, initial: true}, {name: b, invariant: x <= 1}, {name: c, invariant: "v == 1"}`,
			`{from: a, to: b, guard: x >= 2}, {from: a, to: c, update: v = 2}`),
		checks: []check{
			{"E<> P.b", "violated"},
			{"E<> P.c", "violated"},
		},
	},
	{
		name: "data-dependent clock constant above the static ceiling",
		model: onePModel(`{name: a, initial: true}, {name: b}`,
			`{from: a, to: b, guard: "x >= w + 1 && y > 0"}`),
		checks: []check{
			{"E<> P.b && x < 3", "violated"},
			{"E<> P.b && x == 3", "satisfied"},
			{"sup{P.a}: x", "inf"},
		},
	},
	{
		name: "diagonal guard",
		model: onePModel(`{name: a, initial: true, invariant: y <= 2}, {name: b}`,
			`{from: a, to: a, guard: y >= 1, update: y = 0}, {from: a, to: b, guard: x - y >= 3}`),
		checks: []check{
			{"E<> P.b", "satisfied"},
			{"E<> P.b && x < 3", "violated"},
			{"E<> P.b && x < 4", "satisfied"},
		},
	},
	{
		name: "out-of-range assignment on a reachable move is a model error",
		model: onePModel(`{name: a, initial: true}, {name: b}`,
			`{from: a, to: b, guard: x > 1, update: v = v + 4}`),
		checks: []check{
			{"E<> P.a", "model-error"},
			{"A[] v == 0", "model-error"},
			{"sup: x", "model-error"},
		},
	},
	{
		name: "an out-of-range assignment behind a false guard is no error",
		model: onePModel(`{name: a, initial: true, invariant: x <= 2}, {name: b}`,
			`{from: a, to: b, guard: x > 2, update: v = v + 4}`),
		checks: []check{
			{"E<> P.b", "violated"},
			{"A[] v == 0", "satisfied"},
		},
	},
	{
		name: "deadlock: a location without edges, after any delay",
		model: onePModel(`{name: a, initial: true}, {name: b}`,
			`{from: a, to: b, guard: x >= 2}`),
		checks: []check{
			{"E<> deadlock", "satisfied"},
			{"E<> deadlock && P.a", "violated"},
			{"E<> deadlock && x < 2", "violated"},
			{"A[] deadlock imply P.b", "satisfied"},
		},
	},
	{
		name: "deadlock: a time-lock (the invariant expires before the guard opens)",
		model: onePModel(`{name: a, initial: true, invariant: x <= 3}, {name: b}`,
			`{from: a, to: b, guard: x >= 4}`),
		checks: []check{
			{"E<> deadlock && P.a && x == 0", "satisfied"},
			{"E<> P.b", "violated"},
		},
	},
	{
		name: "no deadlock on a live loop, with or without an invariant",
		model: onePModel(`{name: a, initial: true, invariant: x <= 1}, {name: b}`,
			`{from: a, to: a, guard: x >= 1, update: x = 0}, {from: a, to: b, guard: v == 1}`),
		checks: []check{
			{"A[] !deadlock", "satisfied"},
			// time diverges through the loop (x goes from 0 to 1 each
			// turn), and y is never reset
			{"sup: y", "inf"},
			{"sup{P.a}: x", "1"},
		},
	},
	{
		name: "sup beyond a small SupCeiling",
		model: onePModel(`{name: a, initial: true, invariant: x <= 1}`,
			`{from: a, to: a, guard: x >= 1, update: x = 0}`),
		opts: refcheck.Options{SupCeiling: 10},
		checks: []check{
			{"sup: y", "inf"},
			{"sup{y <= 5}: y", "5"},
			{"sup{y < 5}: y", "<5"},
			{"sup{v == 1}: y", "none"},
		},
	},
	{
		name:  "sup above the ceiling but bounded: only a lower bound",
		model: onePModel(`{name: a, initial: true, invariant: x <= 70}`, ``),
		opts:  refcheck.Options{SupCeiling: 10},
		checks: []check{
			{"sup: y", ">10"},
			{"sup: x", "70"},
		},
	},
	{
		name:  "sup above the default ceiling but bounded",
		model: onePModel(`{name: a, initial: true, invariant: x <= 70}`, ``),
		checks: []check{
			{"sup: y", ">64"},
		},
	},
	{
		name:  "sup with the ceiling raised above the bound",
		model: onePModel(`{name: a, initial: true, invariant: x <= 70}`, ``),
		opts:  refcheck.Options{SupCeiling: 80},
		checks: []check{
			{"sup: y", "70"},
		},
	},
	{
		name: "inf: attained, not attained, none",
		model: onePModel(`{name: a, initial: true}, {name: b}, {name: c}`,
			`{from: a, to: b, guard: x >= 2, update: v = 1}, {from: a, to: c, guard: x > 3, update: y = 0}`),
		checks: []check{
			{"inf: x", "0"},
			{"inf{P.b}: x", "2"},
			// y = 0 on entering c, x > 3 then and growing
			{"inf{P.c}: x", ">3"},
			{"inf{P.c}: y", "0"},
			{"inf{P.c && y > 1}: x", ">4"},
			{"inf{v == 3}: x", "none"},
		},
	},
	{
		name:  "inf beyond the ceiling: only a lower bound",
		model: onePModel(`{name: a, initial: true}, {name: b}`, `{from: a, to: b, guard: x >= 70}`),
		opts:  refcheck.Options{SupCeiling: 10},
		checks: []check{
			// 70 is x's own constant, its ceiling; y, equal to x, has
			// the SupCeiling only
			{"inf{P.b}: x", "70"},
			{"inf{P.b}: y", ">=10"},
			{"inf{P.b && x > 70}: y", ">=10"},
		},
	},
	{
		name: "sup and inf of data expressions",
		model: onePModel(`{name: a, initial: true}, {name: b}, {name: c}`,
			`{from: a, to: b, guard: x >= 1, update: v = 3}, {from: b, to: c, update: w = w - 2}`),
		checks: []check{
			{"sup: v", "3"},
			{"inf: w", "0"},
			{"sup{P.b}: v + w", "5"},
			{"inf{P.a}: v - w", "-2"},
			{"sup{x < 1}: v", "0"},
			{"inf{P.c && x > 9}: w", "0"},
			{"sup{v == 2}: w", "none"},
		},
	},
	{
		name: "a data term's runtime error is a model error",
		model: onePModel(`{name: a, initial: true}, {name: b}`,
			`{from: a, to: b, update: v = 2}`),
		checks: []check{
			{"sup: 6 / (2 - v)", "model-error"},
			{"inf{P.a}: 6 / (2 - v)", "3"},
		},
	},
	{
		name: "a loop that takes no time proves no inf",
		model: onePModel(`{name: a, initial: true, invariant: x <= 70}`,
			`{from: a, to: a, update: v = 1}`),
		opts: refcheck.Options{SupCeiling: 10},
		checks: []check{
			{"sup: y", ">10"},
			{"A[] !deadlock", "satisfied"},
		},
	},
	{
		name: "a loop that resets a clock only when it reached 1 proves inf",
		model: onePModel(`{name: a, initial: true, invariant: x <= 3}`,
			`{from: a, to: a, guard: x >= 1, update: x = 0}`),
		opts: refcheck.Options{SupCeiling: 10},
		checks: []check{
			{"sup: y", "inf"},
			{"sup: x", "3"},
		},
	},
	{
		name: "unbounded in a region reached from a divergent loop",
		model: onePModel(`{name: a, initial: true, invariant: x <= 1}, {name: b, invariant: x <= 0}`,
			`{from: a, to: a, guard: x >= 1, update: x = 0}, {from: a, to: b, update: x = 0}`),
		opts: refcheck.Options{SupCeiling: 10},
		checks: []check{
			{"sup{P.b}: y", "inf"},
			{"sup{P.b}: x", "0"},
			{"E<> P.b && y == 37", "satisfied"},
		},
	},
	{
		name: "a loop that may reset at any time lets time diverge too",
		model: onePModel(`{name: a, initial: true, invariant: x < 1}`,
			`{from: a, to: a, update: x = 0}`),
		opts: refcheck.Options{SupCeiling: 10},
		checks: []check{
			{"sup: y", "inf"},
			{"sup: x", "<1"},
		},
	},
	{
		name:  "an initial state that violates its invariant: nothing is reachable",
		model: onePModel(`{name: a, initial: true, invariant: "v == 1"}, {name: b}`, `{from: a, to: b}`),
		checks: []check{
			{"E<> P.b", "violated"},
			{"E<> P.a", "violated"},
			{"A[] v == 1", "satisfied"},
			{"sup: x", "none"},
		},
	},
	{
		name: "urgent location: no delay, moves allowed",
		model: onePModel(`{name: a, initial: true, urgent: true}, {name: b}, {name: c}`,
			`{from: a, to: b, guard: x > 0}, {from: a, to: c}`),
		checks: []check{
			{"E<> P.b", "violated"},
			{"E<> P.c && x > 7", "satisfied"},
			{"E<> P.a && y > 0", "violated"},
		},
	},
	{
		name: "state limit",
		model: onePModel(`{name: a, initial: true}`,
			`{from: a, to: a, guard: "x >= 3", update: x = 0}`),
		opts: refcheck.Options{MaxStates: 3},
		checks: []check{
			{"E<> P.a && x > 2", "limit"},
		},
	},
	{
		name: "committed location: only moves leaving it, no delay",
		model: `
declarations: |
  chan c;
  clock x;
  int[0, 99] v = 0;
templates:
  - name: C
    locations:
      - {name: a, initial: true, committed: true}
      - {name: b}
    edges:
      - {from: a, to: b, guard: v == 1, update: v = v * 10 + 1}
  - name: S
    locations:
      - {name: a, initial: true}
      - {name: b}
    edges:
      - {from: a, to: b, sync: "c!", update: v = v * 10 + 2}
  - name: R
    locations:
      - {name: a, initial: true}
      - {name: b}
    edges:
      - {from: a, to: b, sync: "c?", update: v = v * 10 + 3}
system: system C, S, R;
`,
		checks: []check{
			// C waits for v == 1, which no move can make while C is
			// committed: the S-R synchronisation involves no committed
			// process, so the system is stuck at once.
			{"E<> S.b", "violated"},
			{"E<> deadlock && C.a && x == 0", "satisfied"},
			{"E<> x > 0", "violated"},
		},
	},
	{
		name: "committed process joining a synchronisation lifts the rule",
		model: `
declarations: |
  chan c;
  clock x;
  int[0, 999] v = 0;
templates:
  - name: S
    locations:
      - {name: a, initial: true, committed: true}
      - {name: b}
    edges:
      - {from: a, to: b, sync: "c!", update: v = v * 10 + 2}
  - name: R
    locations:
      - {name: a, initial: true}
      - {name: b}
    edges:
      - {from: a, to: b, sync: "c?", update: v = v * 10 + 3}
  - name: Q
    locations:
      - {name: a, initial: true}
      - {name: b}
    edges:
      - {from: a, to: b, update: v = v * 10 + 4}
system: system S, R, Q;
`,
		checks: []check{
			{"E<> v == 234", "satisfied"},
			{"E<> v == 4 || v == 42 || v == 423", "violated"},
			{"A[] S.a imply x == 0", "satisfied"},
		},
	},
	{
		name: "urgent binary channel: no delay once both sides are enabled",
		model: `
declarations: |
  urgent chan u;
  clock x, y;
  bool ready = false;
templates:
  - name: S
    locations:
      - {name: a, initial: true}
      - {name: b}
      - {name: c}
    edges:
      - {from: a, to: b, guard: x >= 1, update: "ready = true, y = 0"}
      - {from: b, to: c, sync: "u!"}
  - name: R
    locations:
      - {name: a, initial: true}
      - {name: b}
    edges:
      - {from: a, to: b, guard: ready, sync: "u?"}
system: system S, R;
`,
		checks: []check{
			{"E<> S.b && y > 0", "violated"},
			{"E<> S.c && x == 1 && y == 0", "satisfied"},
			{"E<> S.c && y > 1", "satisfied"},
			{"sup{S.b}: y", "0"},
			{"sup{S.b}: x", "inf"},
		},
	},
	{
		name: "urgent channel with no receiver: delay allowed",
		model: `
declarations: |
  urgent chan u;
  clock x;
templates:
  - name: S
    locations:
      - {name: a, initial: true}
      - {name: b}
    edges:
      - {from: a, to: b, sync: "u!"}
  - name: R
    locations:
      - {name: a, initial: true}
    edges:
      - {from: a, to: a, guard: "false", sync: "u?"}
system: system S, R;
`,
		checks: []check{
			{"E<> S.a && x > 2", "satisfied"},
			{"E<> S.b", "violated"},
			{"E<> deadlock", "satisfied"},
		},
	},
	{
		name: "urgent broadcast: no delay even without receivers",
		model: `
declarations: |
  urgent broadcast chan u;
  clock x;
templates:
  - name: S
    locations:
      - {name: a, initial: true}
      - {name: b}
    edges:
      - {from: a, to: b, sync: "u!"}
system: system S;
`,
		checks: []check{
			{"E<> S.a && x > 0", "violated"},
			{"E<> S.b && x > 0", "satisfied"},
		},
	},
	{
		name: "broadcast: a receiver whose target invariant fails blocks the move",
		model: `
declarations: |
  broadcast chan g;
  clock x;
  int[0, 3] v = 0;
templates:
  - name: S
    locations:
      - {name: a, initial: true}
      - {name: b}
    edges:
      - {from: a, to: b, sync: "g!", update: v = 1}
  - name: R
    locations:
      - {name: a, initial: true}
      - {name: b, invariant: v == 2}
    edges:
      - {from: a, to: b, sync: "g?"}
system: system S, R;
`,
		checks: []check{
			{"E<> S.b", "violated"},
		},
	},
	{
		name: "channel array with a data-dependent index and select",
		model: `
declarations: |
  chan c[3];
  clock x;
  int[0, 2] i = 1;
  int[0, 9] got = 0;
templates:
  - name: S
    locations:
      - {name: a, initial: true}
      - {name: b}
    edges:
      - {from: a, to: b, sync: "c[i]!", update: i = 2}
  - name: R
    locations:
      - {name: a, initial: true}
      - {name: b}
    edges:
      - {from: a, to: b, select: "k : int[0, 2]", sync: "c[k]?", update: got = k + 3 * i}
system: system S, R;
`,
		checks: []check{
			{"E<> R.b && got == 7", "satisfied"},
			{"A[] R.b imply got == 7", "satisfied"},
		},
	},
	{
		name: "binary: guards read the source state, the receiver sees the sender's update",
		model: `
declarations: |
  chan c;
  int[0, 9] v = 0;
templates:
  - name: S
    locations:
      - {name: a, initial: true}
      - {name: b}
    edges:
      - {from: a, to: b, sync: "c!", update: v = 5}
  - name: R
    locations:
      - {name: a, initial: true}
      - {name: b}
    edges:
      - {from: a, to: b, guard: v == 0, sync: "c?", update: v = v + 1}
      - {from: a, to: b, guard: v == 5, sync: "c?", update: v = 9}
system: system S, R;
`,
		checks: []check{
			{"A[] R.b imply v == 6", "satisfied"},
			{"E<> v == 9", "violated"},
		},
	},
}

// TestHandWrittenModels checks small models whose answers follow directly
// from the semantics (strict and non-strict bounds, resets, committed and
// urgent locations, urgent/broadcast/binary channels, select, deadlock and
// time-locks, sup attained/not attained/inf/beyond the ceiling, model
// errors, the state limit).
func TestHandWrittenModels(t *testing.T) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			net := compile(t, c.model)
			for _, k := range c.checks {
				if got := ask(t, net, k.query, c.opts); got != k.want {
					t.Errorf("%s: got %s, want %s", k.query, got, k.want)
				}
			}
		})
	}
}

// TestDeadlockVariants checks the deadlock model of the semantics suite in
// its variants: a plain deadlock (1) and a time-lock (2) are deadlocks, the
// live loop (0) is not.
func TestDeadlockVariants(t *testing.T) {
	for variant, want := range map[int64]string{0: "satisfied", 1: "violated", 2: "violated"} {
		_, net, err := model.Load("../queries/testdata/semantics/deadlock.yaml", map[string]int64{"variant": variant})
		if err != nil {
			t.Fatal(err)
		}
		if got := ask(t, net, "A[] !deadlock", refcheck.Options{}); got != want {
			t.Errorf("variant %d: got %s, want %s", variant, got, want)
		}
	}
}

// TestStopwatchModelsAreUnsupported proves the reference refuses a model
// with a clock rate (its regions assume every clock advances) instead of
// answering as if the stopped clock ran: here x stays 0, so x >= 1 is
// unreachable, which a reference ignoring the rate would call reachable.
func TestStopwatchModelsAreUnsupported(t *testing.T) {
	net := compile(t, `declarations: clock x;
templates:
  - name: P
    locations:
      - {name: a, initial: true, invariant: "x' == 0"}
system: system P;
`)
	for _, f := range []string{"E<> x >= 1", "A[] x < 1", "sup: x"} {
		if got := ask(t, net, f, refcheck.Options{SupCeiling: 10}); got != "unsupported" {
			t.Errorf("%s: %s, want unsupported", f, got)
		}
	}
}

// TestMoveLimitStopsBroadcastFanOut proves the reference gives up with
// ErrLimit, in about the time its state limit allows, on a model whose
// states have too many moves to enumerate instead of enumerating them:
// every broadcast of testdata/limits/broadcast-fanout.yaml combines one of
// 6 receiving edges from each of 8 processes (55 million moves per state),
// on which Reachable used to run for days below its state limit.
func TestMoveLimitStopsBroadcastFanOut(t *testing.T) {
	_, net, err := model.Load("testdata/limits/broadcast-fanout.yaml", nil)
	if err != nil {
		t.Fatal(err)
	}
	// far more than the cases need (tens of milliseconds per 1,000 states
	// of the limit), far less than enumerating a single state's moves
	const deadline = 30 * time.Second
	for _, c := range []struct {
		query string
		opts  refcheck.Options
	}{
		{"E<> deadlock", refcheck.Options{MaxStates: 1000}},
		{"A[] !deadlock", refcheck.Options{MaxStates: 1000}},
		{"E<> x0 >= 1", refcheck.Options{MaxStates: 1000}},
		{"sup: x0", refcheck.Options{MaxStates: 1000}},
		// difftest's limit (difftest.RefMaxStates): about 2 s
		{"E<> deadlock", refcheck.Options{MaxStates: 100000}},
	} {
		t.Run(fmt.Sprintf("%s/MaxStates=%d", c.query, c.opts.MaxStates), func(t *testing.T) {
			if c.opts.MaxStates > 1000 && testing.Short() {
				t.Skip("seconds")
			}
			q, err := queries.Compile(net, model.Text{S: c.query})
			if err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() {
				_, _, _, err := answer(t, net, q, c.opts)
				done <- err
			}()
			select {
			case err := <-done:
				if !errors.Is(err, refcheck.ErrLimit) {
					t.Errorf("got %v, want ErrLimit", err)
				}
			case <-time.After(deadline):
				t.Fatalf("no answer after %v", deadline)
			}
		})
	}
}

// TestStartFromAGivenState: with Options.From the exploration starts from
// the given state's region (tcheck's --from): time only goes forward from
// its clock values, and its data and locations are the given ones.
func TestStartFromAGivenState(t *testing.T) {
	net := compile(t, onePModel(`{name: a, initial: true, invariant: x <= 3}, {name: b}`,
		`{from: a, to: b, guard: x >= 1 && v == 2, update: w = 5}`))
	at := func(loc int32, v, w int32, x, y string) *refcheck.Start {
		r := func(s string) *big.Rat {
			q, ok := new(big.Rat).SetString(s)
			if !ok {
				t.Fatalf("bad value %s", s)
			}
			return q
		}
		return &refcheck.Start{Locs: []int32{loc}, Vars: []int32{v, w}, Clocks: []*big.Rat{new(big.Rat), r(x), r(y)}}
	}
	for _, c := range []struct {
		from   *refcheck.Start
		checks []check
		within int32
	}{
		{at(0, 0, 2, "0", "0"), []check{{"E<> P.b", "violated"}, {"sup: x", "3"}}, 0},
		// with a horizon: runs of at most 1 (or 0) time units
		{at(0, 2, 2, "0", "0"), []check{
			{"E<> P.b", "satisfied"},
			{"sup: y", "1"},
			{"inf{P.b}: x", "1"},
			// a run may end at the horizon, in a
			{"A<> P.b", "violated"},
			{"E[] P.a", "satisfied"},
		}, 1},
		{at(0, 2, 2, "5/2", "0"), []check{
			{"E<> P.b", "satisfied"},
			// a lets time pass until x = 3, half a unit; b until the
			// horizon
			{"sup{P.a}: y", "<1"},
			{"E<> P.a && y == 1", "violated"},
			{"sup: y", "1"},
			{"E<> P.b && y == 1", "satisfied"},
		}, 1},
		{at(0, 2, 2, "1/2", "7"), []check{{"E<> P.b && w == 5", "satisfied"}}, 0},
		{at(0, 2, 2, "5/2", "5/2"), []check{
			{"E<> x == 2", "violated"},
			{"E<> x == 3 && y == 3", "satisfied"},
			{"E<> x == 3 && y > 3", "violated"},
			// the region's extremes: x in (2, 3) at the start
			{"inf: x", ">2"},
			{"sup{P.a}: x", "3"},
			{"inf{P.b}: y", ">2"},
		}, 0},
		{at(0, 2, 2, "5/2", "11/4"), []check{
			{"E<> x == 3 && y == 3", "violated"},
			{"E<> P.a && x == 3 && y > 3", "satisfied"},
		}, 0},
		{at(1, 1, 0, "9", "2"), []check{
			{"E<> P.a", "violated"},
			{"inf: w", "0"},
			{"inf: y", "2"},
			{"sup: v", "1"},
		}, 0},
	} {
		for _, k := range c.checks {
			if got := ask(t, net, k.query, refcheck.Options{From: c.from, Within: c.within}); got != k.want {
				t.Errorf("from %v %v %v: %s: got %s, want %s", c.from.Locs, c.from.Vars, c.from.Clocks, k.query, got, k.want)
			}
		}
	}
}

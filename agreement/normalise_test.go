package agreement

import (
	"encoding/binary"
	"fmt"
	"slices"
	"testing"

	"github.com/tcheck/tcheck/model"
	"github.com/tcheck/tcheck/queries"
	"github.com/tcheck/tcheck/zone"
)

// literalInstances are the instances on which the bundled agreement model
// is compared with agreement-literal (seed-models.md 4 verbatim). The
// literal model has up to 0.5 million zones at d = 0, 0.8 million at d = 1
// with f = 0 (a minute for all its queries, so its answers are compared
// there only with -tags slow) and six million at d = 1 with f = 1 (-tags
// slow).
var literalInstances = func() []instance {
	in := []instance{{1, 1, 0, 0}, {1, 1, 0, 1}, {1, 2, 0, 0}, {1, 2, 0, 1}, {1, 1, 1, 0}}
	if slow {
		in = append(in, instance{1, 2, 1, 0}, instance{1, 1, 1, 1}, instance{1, 2, 1, 1})
	}
	return in
}()

// TestNormalisationKeepsAnswers checks that the dead-value normalisation of
// the bundled agreement model (its header) changes nothing but the size of
// the zone graph: every query of the file (properties (3)-(7) of Hendriks,
// FORMATS 2005, Sect. 5.2, the checks of seed-models.md 4.9 and
// worst-time) gets the same verdict and the same sup value on the bundled
// model and on agreement-literal.
func TestNormalisationKeepsAnswers(t *testing.T) {
	for _, in := range literalInstances {
		if in.d > 0 && !slow {
			continue
		}
		t.Run(in.String(), func(t *testing.T) {
			lit := checkQueries(t, "agreement-literal", in)
			norm := checkQueries(t, "agreement", in)
			if len(lit) != len(norm) {
				t.Fatalf("%d queries on the literal model, %d on the normalised one", len(lit), len(norm))
			}
			for i := range lit {
				l, n := lit[i], norm[i]
				if l.Query.Name != n.Query.Name {
					t.Fatalf("query %d: %s vs %s", i, l.Query.Name, n.Query.Name)
				}
				if l.Verdict != n.Verdict || fmt.Sprint(l.Values) != fmt.Sprint(n.Values) {
					t.Errorf("%s: literal %v %v, normalised %v %v", l.Query.Name, l.Verdict, l.Values, n.Verdict, n.Values)
				}
				if l.Stats.Stored <= n.Stats.Stored {
					t.Errorf("%s: the normalised model stores %d zones, the literal one %d: no reduction", l.Query.Name, n.Stats.Stored, l.Stats.Stored)
				}
			}
		})
	}
}

func checkQueries(t *testing.T, name string, in instance) []*queries.Result {
	t.Helper()
	f, net := compile(t, name, in.overrides(name))
	qs, err := queries.FromFile(net, f, nil)
	if err != nil {
		t.Fatal(err)
	}
	res := queries.Check(zone.NewSystem(net), qs, queries.Options{})
	for _, r := range res {
		if r.Verdict == queries.Error || r.Verdict == queries.Unknown {
			t.Fatalf("%s %v: %s: %v %v", name, in, r.Query.Name, r.Verdict, r.Err)
		}
	}
	return res
}

// TestNormalisationIsDeadValuesOnly checks the claim behind the
// normalisation directly: the discrete states the bundled agreement model
// reaches are exactly those agreement-literal reaches, with the dead values
// reset. normaliseDead restates, independently of the model's functions,
// which values are dead (the model's header and seed-models.md 4.3-4.6):
// bv and bmask once a Broadcast automaton took them; for a halted process,
// its buff and halted sets and the messages pending to it; for a running
// process in round r, the rows of buff below r-1. A normalisation that
// reset a live value would make the normalised model miss states (or reach
// new ones) and fail this test.
func TestNormalisationIsDeadValuesOnly(t *testing.T) {
	for _, in := range literalInstances {
		t.Run(in.String(), func(t *testing.T) {
			_, lnet := compile(t, "agreement-literal", in.overrides("agreement"))
			_, nnet := compile(t, "agreement", in.overrides("agreement"))
			if !slices.EqualFunc(lnet.Vars, nnet.Vars, func(a, b model.Var) bool { return a.Name == b.Name }) {
				t.Fatal("the two models have different variables")
			}
			dead := newDeadValues(t, lnet)
			lit := discreteStates(t, lnet, dead.normalise)
			norm := discreteStates(t, nnet, nil)
			missing, extra := 0, 0
			for k := range lit {
				if !norm[k] {
					missing++
				}
			}
			for k := range norm {
				if !lit[k] {
					extra++
				}
			}
			if missing > 0 || extra > 0 {
				t.Errorf("the normalised model misses %d and adds %d of the literal model's %d normalised discrete states", missing, extra, len(lit))
			}
			if len(norm) == 0 {
				t.Fatal("no states")
			}
		})
	}
}

// discreteStates explores net completely and returns the set of discrete
// parts (locations and variables) it reaches, passed through normalise
// when that is non-nil.
func discreteStates(t *testing.T, net *model.Network, normalise func([]int32)) map[string]bool {
	t.Helper()
	seen := map[string]bool{}
	vars := make([]int32, len(net.Vars))
	var key []byte
	res := zone.Search(zone.NewSystem(net), zone.Options{Extrapolation: zone.Extrapolation{Local: true}}, func(v *zone.Visit) bool {
		copy(vars, v.Vars)
		if normalise != nil {
			normalise(vars)
		}
		key = key[:0]
		for _, l := range v.Locs {
			key = binary.AppendVarint(key, int64(l))
		}
		for _, x := range vars {
			key = binary.AppendVarint(key, int64(x))
		}
		seen[string(key)] = true
		return false
	})
	if res.Reason != zone.Completed {
		t.Fatalf("%s: search ended: %v %v", net.Name, res.Reason, res.Err)
	}
	return seen
}

// deadValues holds, per process, where its dead-when-halted and
// round-dependent values sit in the variable vector.
type deadValues struct {
	r, down, bv, bmask []int
	// whenDown[i] lists the slots of buff[i], halted[i] and pend[.][.][i].
	whenDown [][]int
	// rows[i][m] lists the slots of buff[i][m].
	rows [][][]int
}

func newDeadValues(t *testing.T, net *model.Network) *deadValues {
	t.Helper()
	index := map[string]int{}
	for i, v := range net.Vars {
		index[v.Name] = i
	}
	param := func(name string) int {
		for _, p := range net.Params {
			if p.Name == name {
				return int(p.Value)
			}
		}
		t.Fatalf("no parameter %s", name)
		return 0
	}
	slot := func(name string, i ...int) int {
		s := name
		for _, x := range i {
			s += fmt.Sprintf("[%d]", x)
		}
		k, ok := index[s]
		if !ok {
			t.Fatalf("no variable %s", s)
		}
		return k
	}
	c1, d, f, n := param("c1"), param("d"), param("f"), param("n")
	nb, mmax := min(d/c1+2, 2*f+3), 2*f+3
	dv := &deadValues{whenDown: make([][]int, n), rows: make([][][]int, n)}
	for i := range n {
		dv.r = append(dv.r, slot("r", i))
		dv.down = append(dv.down, slot("down", i))
		dv.bv = append(dv.bv, slot("bv", i))
		dv.bmask = append(dv.bmask, slot("bmask", i))
		dv.rows[i] = make([][]int, mmax+1)
		for m := 0; m <= mmax; m++ {
			for j := range n {
				dv.rows[i][m] = append(dv.rows[i][m], slot("buff", i, m, j))
			}
			dv.whenDown[i] = append(dv.whenDown[i], dv.rows[i][m]...)
		}
		for j := range n {
			dv.whenDown[i] = append(dv.whenDown[i], slot("halted", i, j))
			for k := range nb {
				dv.whenDown[i] = append(dv.whenDown[i], slot("pend", j, k, i))
			}
		}
	}
	return dv
}

// normalise resets the dead values of vars to their initial values.
func (d *deadValues) normalise(vars []int32) {
	for i := range d.r {
		vars[d.bv[i]], vars[d.bmask[i]] = 0, 0
		if vars[d.down[i]] != 0 {
			for _, k := range d.whenDown[i] {
				vars[k] = 0
			}
			continue
		}
		for m := 0; m < int(vars[d.r[i]])-1; m++ {
			for _, k := range d.rows[i][m] {
				vars[k] = 0
			}
		}
	}
}

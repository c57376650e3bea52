package zone_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/tcheck/tcheck/dbm"
	"github.com/tcheck/tcheck/model"
	"github.com/tcheck/tcheck/zone"
)

// broadcastCutModels have clock guards on broadcast receivers, where
// Stepper.Moves leaves out the choices of receivers empty in the zone.
var broadcastCutModels = []struct {
	path string
	set  map[string]int64
}{
	{"testdata/broadcast-guarded-receivers.yaml", nil},
	{"../queries/testdata/semantics/broadcast-clock-guards.yaml", nil},
	{"../queries/testdata/semantics/broadcast.yaml", nil},
}

// TestBroadcastCutLeavesOutOnlyEmptyChoices: in every state of the models,
// the moves of a broadcast enumerated in the state's zone are those of the
// whole product, in its order, less exactly those whose clock guards
// (the sender's, and each receiver's or skip's) leave nothing of the zone,
// which Post gives no successor.
func TestBroadcastCutLeavesOutOnlyEmptyChoices(t *testing.T) {
	for _, m := range broadcastCutModels {
		t.Run(m.path, func(t *testing.T) {
			sys := zone.NewSystem(compile(t, m.path, m.set))
			st := zone.NewStepper(sys)
			states, cut := 0, 0
			res := zone.Search(sys, zone.Options{Workers: 1, VisitStored: true}, func(v *zone.Visit) bool {
				if !v.Stored {
					return false
				}
				states++
				z := v.Zone.Clone()
				var all, kept []zone.Move
				restore := zone.SetBroadcastCutForTest(false)
				err := st.Moves(v.Locs, v.Vars, z, func(mv zone.Move) bool { all = append(all, slices.Clone(mv)); return true })
				restore()
				if err != nil {
					t.Fatal(err)
				}
				if err := st.Moves(v.Locs, v.Vars, z, func(mv zone.Move) bool { kept = append(kept, slices.Clone(mv)); return true }); err != nil {
					t.Fatal(err)
				}
				var want []zone.Move
				for _, mv := range all {
					guards, err := st.Guards(v.Locs, v.Vars, mv, nil)
					if err != nil {
						t.Fatal(err)
					}
					g := z.Clone()
					in := true
					for _, c := range guards {
						if in = g.Constrain(c.I, c.J, c.B); !in {
							break
						}
					}
					if in {
						want = append(want, mv)
					}
				}
				cut += len(all) - len(kept)
				if !slices.EqualFunc(kept, want, func(a, b zone.Move) bool { return slices.Equal(a, b) }) {
					t.Fatalf("state %v %v: moves %v, want those of %v whose guards meet the zone: %v", v.Locs, v.Vars, kept, all, want)
				}
				return false
			})
			if res.Reason != zone.Completed {
				t.Fatalf("search: %v (%v)", res.Reason, res.Err)
			}
			t.Logf("%d states, %d choices left out", states, cut)
			if m.path == broadcastCutModels[0].path && cut < 4000 {
				t.Errorf("only %d choices left out: the model no longer tests the cut", cut)
			}
		})
	}
}

// TestBroadcastCutKeepsSearchesAndPaths: with and without the cut, a
// search explores and stores the same states (the choices left out have
// no successor), and the path to each stored state, whose move indices
// count only the moves kept in the parent's zone, is the same run.
func TestBroadcastCutKeepsSearchesAndPaths(t *testing.T) {
	for _, m := range broadcastCutModels {
		for _, workers := range []int{1, 2} {
			t.Run(m.path, func(t *testing.T) {
				sys := zone.NewSystem(compile(t, m.path, m.set))
				run := func(on bool) (zone.Result, [][]zone.Move) {
					defer zone.SetBroadcastCutForTest(on)()
					var nodes []zone.Node
					var mu sync.Mutex
					res := zone.SearchWorkers(sys, zone.Options{Workers: workers, VisitStored: true}, func() zone.Visitor {
						return func(v *zone.Visit) bool {
							if v.Stored {
								mu.Lock()
								nodes = append(nodes, v.Parent)
								mu.Unlock()
							}
							return false
						}
					})
					if res.Reason != zone.Completed {
						t.Fatalf("search: %v (%v)", res.Reason, res.Err)
					}
					var paths [][]zone.Move
					if workers == 1 {
						for _, n := range nodes {
							p, err := sys.PathMoves(n)
							if err != nil {
								t.Fatalf("path to a stored state: %v", err)
							}
							paths = append(paths, p)
						}
					}
					return res, paths
				}
				withCut, cutPaths := run(true)
				without, paths := run(false)
				if withCut.Explored != without.Explored || withCut.Discrete != without.Discrete || workers == 1 && (withCut.Stored != without.Stored || withCut.Transitions != without.Transitions) {
					t.Fatalf("with the cut %+v, without %+v", withCut.Stats, without.Stats)
				}
				for i := range paths {
					if !slices.EqualFunc(cutPaths[i], paths[i], func(a, b zone.Move) bool { return slices.Equal(a, b) }) {
						t.Fatalf("state %d: path %v with the cut, %v without", i, cutPaths[i], paths[i])
					}
				}
			})
		}
	}
}

// initialOf returns a stepper of the model at path with N receivers and
// the model's initial state.
func initialOf(t *testing.T, path string, n int64) (*zone.Stepper, []int32, []int32, dbm.DBM) {
	t.Helper()
	sys := zone.NewSystem(compile(t, path, map[string]int64{"N": n}))
	st := zone.NewStepper(sys)
	locs, vars := sys.InitialDiscrete()
	z := dbm.New(sys.Dim)
	if ok, err := st.Initial(locs, vars, z); !ok || err != nil {
		t.Fatalf("initial: %v %v", ok, err)
	}
	return st, locs, vars, z
}

// TestBroadcastCutUnderPriorities: under a channel priority the moves
// before priorities are the broadcast's choices cut in the zone too: at
// the initial state of 12 guarded receivers, a few of the 4,096 choices are
// enumerated (all of them, and the pieces they split the lower moves
// into, took 10.7 s at 16 receivers), and the moves are the two broadcasts whose guards
// meet the zone and the receivers' internal moves below them.
// TestBroadcastCutOnRandomWideModels compares the states reached with and
// without the cut under priorities.
func TestBroadcastCutUnderPriorities(t *testing.T) {
	st, locs, vars, z := initialOf(t, "testdata/broadcast-guarded-receivers-priority.yaml", 12)
	broadcasts, internal := 0, 0
	if err := st.Moves(locs, vars, z, func(m zone.Move) bool {
		if m[0].Proc == 0 {
			broadcasts++
		} else {
			internal++
		}
		return true
	}); err != nil {
		t.Fatal(err)
	}
	if n := zone.BroadcastChoicesForTest(st); n > 1000 {
		t.Errorf("%d choices of receivers enumerated, want a few of the 4,096", n)
	}
	if broadcasts != 2 || internal != 12 {
		t.Errorf("%d broadcasts and %d internal moves, want 2 and 12", broadcasts, internal)
	}
}

// TestBroadcastCutAtTwentyFourReceivers: the state before the broadcast of
// 24 guarded receivers has 2^24 choices; in its zone two have guards that
// meet it, and only those are enumerated.
func TestBroadcastCutAtTwentyFourReceivers(t *testing.T) {
	st, locs, vars, z := initialOf(t, "testdata/broadcast-guarded-receivers.yaml", 24)
	n := 0
	if err := st.Moves(locs, vars, z, func(zone.Move) bool { n++; return n < 1000 }); err != nil {
		t.Fatal(err)
	}
	if n != 2 {
		t.Errorf("%d moves enumerated, want the 2 whose guards meet the zone", n)
	}
}

// TestBroadcastCutKeepsMovesAfterADelay: the deadlock predicate of a zone
// counts the moves enabled after a delay from it, so the choices of a
// broadcast are cut against the zone's future there, not the zone
// itself: from x = 0 the sender's guard x >= 1 holds after a delay, and
// the zone is not deadlocked.
func TestBroadcastCutKeepsMovesAfterADelay(t *testing.T) {
	sys := zone.NewSystem(compile(t, "testdata/broadcast-after-delay.yaml", nil))
	st := zone.NewStepper(sys)
	locs, vars := sys.InitialDiscrete()
	z := dbm.New(sys.Dim)
	z.Zero()
	dead, err := st.Deadlocked(locs, vars, z, dbm.Federation{})
	if err != nil {
		t.Fatal(err)
	}
	if !dead.IsEmpty() {
		t.Errorf("x = 0 is deadlocked (%v), but the broadcast is enabled after a delay of 1", dead)
	}
}

// wideBroadcastModel writes a random model of one sender and n receivers
// of its broadcast, each receiver with a clock and one to three receiving
// edges whose clock guards (bounds, windows, diagonals with the next
// receiver's clock) the cut must decide on zones that the receivers'
// resets and delays make diverse; with prio, the broadcast has priority
// over the receivers' internal moves.
func wideBroadcastModel(rng *rand.Rand, n int, prio bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "name: wide\ndeclarations: |\n  broadcast chan go;\n  clock g;\n  int[0, 3] k = 0;\n")
	if prio {
		// the receivers' internal moves below the broadcasts: each is
		// taken only where no choice of the broadcast is enabled
		fmt.Fprintf(&b, "  chan priority default < go;\n")
	}
	fmt.Fprintf(&b, "templates:\n  - name: S\n    locations:\n      - {name: a, initial: true, invariant: g <= 4}\n    edges:\n")
	fmt.Fprintf(&b, "      - {from: a, to: a, guard: g >= %d, sync: \"go!\", update: \"g = 0, k = (k + 1) %% 4\"}\n", 1+rng.IntN(2))
	guard := func(i int) string {
		c := rng.IntN(4)
		switch rng.IntN(5) {
		case 0:
			return fmt.Sprintf("x%d >= %d", i, c)
		case 1:
			return fmt.Sprintf("x%d <= %d", i, c)
		case 2:
			return fmt.Sprintf("x%d > %d && x%d < %d", i, c, i, c+2)
		case 3:
			return fmt.Sprintf("x%d - x%d <= %d", i, (i+1)%n, c-1)
		default:
			return fmt.Sprintf("x%d >= %d && k == %d", i, c, rng.IntN(4))
		}
	}
	for i := range n {
		fmt.Fprintf(&b, "  - name: R%d\n    locations:\n      - {name: a, initial: true}\n      - {name: b}\n    edges:\n", i)
		for range 1 + rng.IntN(3) {
			to := []string{"a", "b"}[rng.IntN(2)]
			fmt.Fprintf(&b, "      - {from: a, to: %s, guard: %q, sync: \"go?\", update: \"x%d = 0\"}\n", to, guard(i), i)
		}
		fmt.Fprintf(&b, "      - {from: b, to: a, guard: \"x%d >= 1\", update: \"x%d = 0\"}\n", i, i)
	}
	var clocks, procs []string
	for i := range n {
		clocks = append(clocks, fmt.Sprintf("x%d", i))
		procs = append(procs, fmt.Sprintf("R%d", i))
	}
	s := b.String()
	s = strings.Replace(s, "clock g;", "clock g, "+strings.Join(clocks, ", ")+";", 1)
	return s + "system: system S, " + strings.Join(procs, ", ") + ";\n"
}

// TestBroadcastCutOnRandomWideModels: on random models of a broadcast to
// four to six guarded receivers (wideBroadcastModel), a search with the
// cut explores, stores and visits the same states as one without it, and
// finds the same deadlocks. Where the broadcast has priority over the
// receivers' internal moves, a choice cut out would have split those
// moves into pieces of the same union: there the discrete states reached,
// and whether a deadlock is, must be the same.
func TestBroadcastCutOnRandomWideModels(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	runs := 24
	if testing.Short() {
		runs = 8
	}
	cut, prioCut := 0, 0
	for m := range runs {
		prio := m%3 == 2
		text := wideBroadcastModel(rng, 4+rng.IntN(3), prio)
		f, err := model.Parse("wide.yaml", []byte(text))
		if err != nil {
			t.Fatalf("model %d: %v\n%s", m, err, text)
		}
		net, err := f.Compile(nil)
		if err != nil {
			t.Fatalf("model %d: %v\n%s", m, err, text)
		}
		sys := zone.NewSystem(net)
		search := func(on bool) (zone.Result, int) {
			defer zone.SetBroadcastCutForTest(on)()
			st := zone.NewStepper(sys)
			var dead dbm.Federation
			deadlocked := 0
			opts := zone.Options{Workers: 1, VisitStored: true, Limits: zone.Limits{MaxStates: 5000}}
			res := zone.Search(sys, opts, func(v *zone.Visit) bool {
				if v.Stored {
					var err error
					if dead, err = st.Deadlocked(v.Locs, v.Vars, v.Zone, dead); err != nil {
						t.Fatal(err)
					}
					if !dead.IsEmpty() {
						deadlocked++
					}
				}
				return false
			})
			return res, deadlocked
		}
		with, deadWith := search(true)
		without, deadWithout := search(false)
		same := with.Explored == without.Explored && with.Stored == without.Stored && with.Transitions == without.Transitions && deadWith == deadWithout
		if prio {
			same = with.Discrete == without.Discrete && (deadWith == 0) == (deadWithout == 0)
		}
		if with.Reason != without.Reason || with.Reason == zone.Completed && !same {
			t.Fatalf("model %d: with the cut %v %+v, %d deadlocked; without %v %+v, %d\n%s", m, with.Reason, with.Stats, deadWith, without.Reason, without.Stats, deadWithout, text)
		}
		if with.Reason == zone.Completed {
			cut++
			if prio {
				prioCut++
			}
		}
	}
	if cut < runs/2 || prioCut < runs/6 {
		t.Errorf("only %d of %d searches completed (%d with priorities): the models no longer test the cut", cut, runs, prioCut)
	}
}

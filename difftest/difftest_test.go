package difftest

import (
	"cmp"
	"flag"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tcheck/tcheck/refcheck"
)

var (
	flagSeeds = flag.Int("difftest.seeds", 0, "number of random models (default 2000, 200 with -short)")
	flagFirst = flag.Uint64("difftest.first", 1, "first seed")
	flagStats = flag.Bool("difftest.stats", false, "print the statistics of the run")
	flagProcs = flag.Int("difftest.workers", 0, "models checked in parallel (default GOMAXPROCS)")
	flagExtra = flag.Int("difftest.extra", 3, "configurations besides the baseline per model, rotating")
	flagAll   = flag.Bool("difftest.all", false, "check every model under every configuration (default: the baseline and 3 others, rotating)")
	flagSym   = flag.Int("difftest.symseeds", 0, "number of random symmetric models of TestDifferentialSymmetric (default 300, 50 with -short)")
)

// configsFor returns the configurations model i of the seed list is
// checked under: the baseline and extra others, rotating through the list
// so that every configuration sees about extra/(len(Configs)-1) of the
// models (all of them with -difftest.all).
func configsFor(i, extra int) []Config {
	if *flagAll || extra >= len(Configs)-1 {
		return Configs
	}
	others := len(Configs) - 1
	cs := []Config{Configs[0]}
	for j := range extra {
		cs = append(cs, Configs[1+(i*extra+j)%others])
	}
	return cs
}

// cpuTime is the user and system time of the process so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// seedLen is the number of bytes a seed stands for (enough for any model).
const seedLen = 1024

func seedModel(seed uint64) []byte {
	return Generate(NewSource(SeedBytes(seed, seedLen))).Text
}

// report fails t with the disagreements of a model, printing the model and
// writing it to a temporary file to keep as a regression case.
func report(t *testing.T, what string, text []byte, out *Outcome) {
	t.Helper()
	if len(out.Disagreements) == 0 {
		return
	}
	var b strings.Builder
	for _, d := range out.Disagreements {
		fmt.Fprintf(&b, "  %s\n", d)
	}
	path := filepath.Join(os.TempDir(), fmt.Sprintf("difftest-%s-%d.yaml", strings.ReplaceAll(what, " ", "-"), time.Now().UnixNano()))
	if err := os.WriteFile(path, text, 0o644); err != nil {
		path = "(not written: " + err.Error() + ")"
	}
	t.Errorf("%s: %d disagreements:\n%smodel (saved to %s):\n%s", what, len(out.Disagreements), b.String(), path, text)
}

// TestDifferential compares tcheck with the reference and with itself on
// a fixed list of random models.
func TestDifferential(t *testing.T) {
	n := *flagSeeds
	if n == 0 {
		// 2,000: about 12 s on 2 cores, 25 s with -difftest.all (docs/difftest.md)
		n = 2000
		if testing.Short() {
			n = 200
		}
	}
	runSeeds(t, n, seedModel, func(i int) *Harness {
		return &Harness{Ref: defaultReference(), Configs: configsFor(i, *flagExtra), SlowSupAll: *flagAll, Simulate: true, From: true}
	})
}

// TestDifferentialSymmetric compares tcheck with the symmetry reduction
// with tcheck without it, under the baseline and rotating configurations,
// and with the reference, on a fixed list of random symmetric models
// (GenerateSymmetric); and checks that the reduction stores fewer states
// in all than the unreduced search.
func TestDifferentialSymmetric(t *testing.T) {
	n := *flagSym
	if n == 0 {
		// 300: about 20 s CPU (docs/difftest.md)
		n = 300
		if testing.Short() {
			n = 50
		}
	}
	total := runSeeds(t, n, symSeedModel, func(i int) *Harness {
		return &Harness{Ref: defaultReference(), Configs: configsFor(i, *flagExtra), SlowSupAll: *flagAll, Symmetry: true, Simulate: true, From: true}
	})
	if total.StoredOn >= total.StoredOff {
		t.Errorf("the symmetry reduction stored %d states, the unreduced search %d", total.StoredOn, total.StoredOff)
	}
}

func symSeedModel(seed uint64) []byte {
	return GenerateSymmetric(NewSource(SeedBytes(seed, seedLen))).Text
}

// runSeeds checks the models of n seeds from -difftest.first, model i
// with harness(i), in parallel, fails t with the disagreements and
// returns the statistics.
func runSeeds(t *testing.T, n int, gen func(uint64) []byte, harness func(int) *Harness) Stats {
	t.Helper()
	start, cpu0 := time.Now(), cpuTime()
	type item struct {
		seed uint64
		text []byte
		out  *Outcome
	}
	items := make([]item, n)
	var wg sync.WaitGroup
	next := make(chan int)
	workers := *flagProcs
	if workers <= 0 {
		// twice the processors: zone.Search starts with runtime.GC(),
		// whose wait would leave a processor idle
		workers = 2 * runtime.GOMAXPROCS(0)
	}
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				seed := *flagFirst + uint64(i)
				text := gen(seed)
				out := harness(i).Compare(text)
				items[i] = item{seed, text, out}
				if len(out.Disagreements) > 0 && *flagStats {
					fmt.Printf("seed %d: %d disagreements, first: %s\n", seed, len(out.Disagreements), out.Disagreements[0])
				}
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	if *flagStats {
		// the five models whose slowest configuration took longest
		// (Outcome.Slowest): where to look for a search that is slow
		// for no reason of its size
		byTime := slices.Clone(items)
		slices.SortFunc(byTime, func(a, b item) int { return cmp.Compare(b.out.Slowest, a.out.Slowest) })
		var parts []string
		for _, it := range byTime[:min(5, len(byTime))] {
			parts = append(parts, fmt.Sprintf("seed %d under %s %v", it.seed, it.out.SlowestConfig, it.out.Slowest.Round(time.Millisecond)))
		}
		fmt.Printf("slowest checks: %s\n", strings.Join(parts, "; "))
	}
	if *flagStats {
		// the models with notes (Outcome.Notes), by seed: the imprecise
		// sups and the reduction's larger searches of a campaign
		for _, it := range items {
			if k := len(it.out.Notes); k > 0 {
				fmt.Printf("seed %d: %d notes, first: %s\n", it.seed, k, it.out.Notes[0])
			}
		}
	}
	var total Stats
	failed := 0
	for _, it := range items {
		total.Add(it.out.Stats)
		if file, known := knownSeeds[it.seed]; known && !*flagStrict {
			t.Logf("seed %d: %d disagreements, an open finding (testdata/difftest/%s)", it.seed, len(it.out.Disagreements), file)
			continue
		}
		if len(it.out.Disagreements) > 0 {
			t.Logf("seed %d: disagreement", it.seed)
			failed++
			if failed <= 10 {
				report(t, fmt.Sprintf("seed %d", it.seed), it.text, it.out)
			}
		}
	}
	if failed > 10 {
		t.Errorf("... %d models with disagreements in all", failed)
	}
	msg := fmt.Sprintf("%d models, %d queries %v, %d results compared over %d configurations, reference: %d decided, %d unsupported, %d over its limit, %d model errors; Extra_None unknown: %d; traces checked: %d; verdicts error: %d; sup imprecise: %d, skipped (slow): %d, undecided: %d; liveness at the state limit: %d; traces retried with a longer deadline: %d; %v wall, %v CPU",
		total.Models, total.Queries, total.ByKind, total.Compared, len(Configs), total.RefDecided, total.RefUnsupported, total.RefLimit, total.RefModelError, total.NoneUnknown, total.Traces, total.Errors, total.Imprecise, total.SkippedSlow, total.Undecided, total.LiveAtLimit, total.TraceRetries, time.Since(start).Round(time.Millisecond), (cpuTime() - cpu0).Round(time.Millisecond))
	if defaultReference() == nil {
		msg += " (no reference: tcheck against itself only)"
	}
	if total.SimRuns > 0 {
		msg += fmt.Sprintf("; simulator: %d runs, %d goals found, %d model errors met", total.SimRuns, total.SimFound, total.SimErrors)
	}
	if total.FromStates > 0 {
		msg += fmt.Sprintf("; from a random state: %d models", total.FromStates)
	}
	if total.SymPairs > 0 {
		msg += fmt.Sprintf("; symmetry: %d results compared with and without the reduction, the baseline stored %d states without it, %d with it (%d queries with more states, %d with more discrete parts); at tcheck's limits: %d", total.SymPairs, total.StoredOff, total.StoredOn, total.SymLarger, total.SymMoreDiscrete, total.AtLimit)
	}
	if *flagStats {
		fmt.Println(msg)
	}
	t.Log(msg)
	return total
}

// FuzzDifferential drives the generator from the fuzzer's bytes: the
// fuzzer's minimisation of a failing input shrinks the model.
func FuzzDifferential(f *testing.F) {
	for seed := uint64(1); seed <= 40; seed++ {
		f.Add(SeedBytes(seed, 256))
	}
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		text := Generate(NewSource(b)).Text
		report(t, "fuzz", text, (&Harness{Ref: defaultReference(), Configs: Configs, Simulate: true}).Compare(text))
	})
}

// FuzzDifferentialSymmetric is FuzzDifferential on symmetric models
// (GenerateSymmetric), with and without the symmetry reduction, under
// fuzzSymmetricHarness.
func FuzzDifferentialSymmetric(f *testing.F) {
	for _, seed := range []uint64{1, 2, 4, 5, 6, 7} { // 3: the reference takes seconds
		f.Add(SeedBytes(seed, 256))
	}
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		text := GenerateSymmetric(NewSource(b)).Text
		report(t, "fuzz", text, fuzzSymmetricHarness(b).Compare(text))
	})
}

// Go's fuzzing ends a worker whose input runs past 10 seconds
// (internal/fuzz), and a symmetric model checked under every
// configuration twice, against a reference allowed RefMaxStates per
// query, took up to 11 s under the fuzzer's coverage instrumentation
// (docs/difftest.md, "Running it"). So FuzzDifferentialSymmetric checks
// an input under the baseline and fuzzSymExtra others that the input's
// hash chooses (configsFor's rotation), each with and without the
// reduction, against a reference bounded by fuzzRefMaxStates (where it
// stops, the baseline stands in for it, as in the seeded tests), within
// fuzzBudget (Harness.Budget).
const (
	fuzzSymExtra     = 5
	fuzzRefMaxStates = 10000
	fuzzBudget       = 4 * time.Second
)

// fuzzSymmetricHarness is FuzzDifferentialSymmetric's harness for input b.
func fuzzSymmetricHarness(b []byte) *Harness {
	h := fnv.New64a()
	h.Write(b)
	return &Harness{
		Ref:      RegionReference{Opts: refcheck.Options{MaxStates: fuzzRefMaxStates, SupCeiling: SupCeiling}},
		Configs:  configsFor(int(h.Sum64()%uint64(len(Configs))), fuzzSymExtra),
		Symmetry: true,
		Simulate: true,
		Budget:   fuzzBudget,
	}
}

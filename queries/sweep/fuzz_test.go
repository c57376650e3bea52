package sweep

import (
	"bytes"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// FuzzSweepInputs feeds arbitrary text to what reads a sweep's input: the
// sweep file (ParseFile, over the bundled models, then its points), the
// command line's grid values, axes, --where filters, --shard and sizes.
// Nothing may panic or hang, a grid of a valid file stays within the
// bounds on points, and every value of a range lies between its ends.
// The seed corpus is the bundled sweep files, the file errors'
// cases and a few command-line values.
//
//	go test -run XXX -fuzz FuzzSweepInputs -fuzztime 1m ./queries/sweep/
func FuzzSweepInputs(f *testing.F) {
	for _, src := range seedFiles(f, "../../agreement/paper/*.sweep.yaml") {
		f.Add(src, "c1 >= 2 && d == 100 || f != 1")
	}
	for _, s := range []string{"model: timeout\ngrid: {d: 0..x}\n", "model: timeout\ngrid: {d: 0}\nexpect: {A1: yes}\n", "model: timeout\ngrid: {d: 0}\noptions: {timeout: soon}\n"} {
		f.Add([]byte(s), "d=0..50/10")
	}
	f.Add([]byte("model: timeout\ngrid: {d: '-9223372036854775808..-9223372036854775807/9223372036854775807'}\n"), "3/4")
	f.Add([]byte("{}"), "1.5GiB")
	f.Add([]byte("{}"), "-9223372036854775808..-9223372036854775807/9223372036854775807")
	f.Add([]byte("{}"), "-9223372036854775808..9223372036854775807")

	f.Fuzz(func(t *testing.T, src []byte, arg string) {
		if len(src) > 1<<14 {
			return
		}
		if s, err := ParseFile("t.sweep.yaml", src, testResolver); err == nil {
			if ps, err := s.Points(); err == nil && len(ps) > maxPoints {
				t.Fatalf("%d points, more than %d", len(ps), maxPoints)
			}
		} else if !strings.HasPrefix(err.Error(), "t.sweep.yaml") {
			t.Fatalf("an error without the file's name: %v", err)
		}
		checkRanges(t, arg)
		_, _ = ParseAxis(arg)
		if flt, err := ParseFilter(arg); err == nil {
			_, _ = flt.Keep([]Param{{Name: "d", Value: 3}, {Name: "c1", Value: 1}})
		}
		_, _ = ParseModelExpr(arg)
		if sh, err := ParseShard(arg); err == nil && (sh.Index < 0 || sh.Index >= sh.Count) {
			t.Fatalf("shard %v accepted", sh)
		}
		_, _ = ParseBytes(arg)
	})
}

// checkRanges compares ParseValues(s), where it succeeds, with values
// computed in arbitrary precision: a range a..b/s steps from a towards b
// while it stays between them.
func checkRanges(t *testing.T, s string) {
	vs, err := ParseValues(s)
	if err != nil {
		return
	}
	var want []int64
	for _, item := range strings.Split(s, ",") {
		lo, hi, ok := strings.Cut(strings.TrimSpace(item), "..")
		if !ok {
			v, _ := parseInt(item)
			want = append(want, v)
			continue
		}
		step := big.NewInt(1)
		if h, st, ok := strings.Cut(hi, "/"); ok {
			v, _ := parseInt(st)
			step.SetInt64(v)
			hi = h
		}
		a, _ := parseInt(lo)
		b, _ := parseInt(hi)
		if a > b {
			step.Neg(step)
		}
		end := big.NewInt(b)
		for v := big.NewInt(a); len(want) <= maxAxis; v.Add(v, step) {
			if a <= b && v.Cmp(end) > 0 || a > b && v.Cmp(end) < 0 {
				break
			}
			want = append(want, v.Int64())
		}
	}
	if !slices.Equal(vs, want) {
		if len(vs) > 8 || len(want) > 8 {
			t.Fatalf("%q: %d values, want %d", s, len(vs), len(want))
		}
		t.Fatalf("%q: values %v, want %v", s, vs, want)
	}
}

// FuzzSweepResults feeds arbitrary text to the readers of result files
// (ReadResults: sweep --costs, sweep merge, sweep plot) and what uses
// what they read: merging a file with itself, the costs of its points and
// the plot of each parameter against each result. Nothing may panic or
// hang. The seed corpus is the result files under docs/results.
//
//	go test -run XXX -fuzz FuzzSweepResults -fuzztime 1m ./queries/sweep/
func FuzzSweepResults(f *testing.F) {
	for _, src := range seedFiles(f, "../../docs/results/*.jsonl") {
		if len(src) <= 1<<14 {
			f.Add(src, "time")
		}
	}
	f.Add([]byte(`{"tool":"tcheck","sweep":{"grid":[{"d":[0]}]}}`+"\n"+`{"index":0,"params":{"d":0}}`+"\n"), "states")
	f.Fuzz(func(t *testing.T, src []byte, y string) {
		if len(src) > 1<<15 {
			return
		}
		r, err := ReadResults(bytes.NewReader(src))
		if err != nil {
			return
		}
		_, _, _ = Merge([]*Results{r, r}, []string{"a", "b"}, MergeOptions{Partial: true})
		_ = CostsFromResults(r)
		xs := []string{""}
		for _, b := range r.Header.Sweep.Grid {
			for _, a := range b {
				xs = append(xs, a.Name)
			}
		}
		for _, x := range xs[:min(len(xs), 4)] {
			_, _ = Plot(&r.Header.Sweep, r.Points, PlotOptions{X: x, Y: y}, nil)
		}
	})
}

// seedFiles reads the files matching glob, at least one.
func seedFiles(f *testing.F, glob string) [][]byte {
	files, err := filepath.Glob(glob)
	if err != nil || len(files) == 0 {
		f.Fatalf("no files %s: %v", glob, err)
	}
	var out [][]byte
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		out = append(out, src)
	}
	return out
}

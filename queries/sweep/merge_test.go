package sweep

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestMergedShardsEqualTheUnshardedRun runs the sweep as n shards, each
// checking only its own points into its own file, merges the files (in
// the order given) and compares every output format with the unsharded
// run's, byte for byte with WriteOptions.Stable.
func TestMergedShardsEqualTheUnshardedRun(t *testing.T) {
	s := fischerSweep(t, nil)
	ps, _ := s.Points()
	h := header(s, len(ps))
	whole := s.Run(context.Background(), ps, oneWorker)
	for _, tc := range []struct {
		name   string
		shards int
		format string // of the shards' files
		order  []int  // the shards' files, in the order given to merge
	}{
		{"one shard", 1, "jsonl", []int{0}},
		{"two shards", 2, "jsonl", []int{0, 1}},
		{"three shards given last first", 3, "jsonl", []int{2, 1, 0}},
		{"three shards as json documents", 3, "json", []int{1, 0, 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			var files []string
			for _, i := range tc.order {
				sh := Shard{Index: i, Count: tc.shards}
				var points []Point
				for _, p := range ps {
					if sh.Contains(p.Index) {
						points = append(points, p)
					}
				}
				hs := h
				hs.Shard = &ShardRef{Index: i, Count: tc.shards}
				path := filepath.Join(dir, fmt.Sprintf("shard-%d.%s", i, tc.format))
				res := s.Run(context.Background(), points, oneWorker)
				if err := WriteFile(path, tc.format, hs, res, len(points), WriteOptions{}); err != nil {
					t.Fatal(err)
				}
				files = append(files, path)
			}
			mh, merged, err := MergeFiles(files, MergeOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if mh.Shard != nil {
				t.Errorf("the merged header names shard %+v", mh.Shard)
			}
			for _, format := range Formats {
				var got, want bytes.Buffer
				Write(&got, format, mh, merged, mh.Sweep.Points, WriteOptions{Stable: true})
				Write(&want, format, h, whole, len(ps), WriteOptions{Stable: true})
				if got.String() != want.String() {
					t.Errorf("%s: merged:\n%s\nwant\n%s", format, got.String(), want.String())
				}
			}
		})
	}
}

// TestMergeRefusesFilesThatDoNotMakeOneSweep merges result files of which
// one is wrong in one respect (conflicting or duplicate points among
// them): every case is refused with an error that names the file and says
// what is wrong, and missing points are accepted only with
// MergeOptions.Partial.
func TestMergeRefusesFilesThatDoNotMakeOneSweep(t *testing.T) {
	s := fischerSweep(t, nil)
	ps, _ := s.Points()
	h := header(s, len(ps))
	whole := s.Run(context.Background(), ps, oneWorker)
	// file writes a jsonl file of header h holding the points i of idx,
	// then tail.
	file := func(t *testing.T, name string, h Header, idx []int, tail string) string {
		var b bytes.Buffer
		WriteHeaderLine(&b, h)
		for _, i := range idx {
			WritePointLine(&b, whole[i], WriteOptions{})
		}
		b.WriteString(tail)
		path := filepath.Join(t.TempDir(), name)
		os.WriteFile(path, b.Bytes(), 0o644)
		return path
	}
	// moved is point i's line with the parameters of point j.
	moved := func(i, j int) string {
		p := *whole[i]
		p.Params = whole[j].Params
		var b bytes.Buffer
		WritePointLine(&b, &p, WriteOptions{})
		return b.String()
	}
	other := fischerSweep(t, func(a *Args) { a.Queries = []string{"mutex"} })
	for _, tc := range []struct {
		name    string
		files   func(t *testing.T) []string
		partial bool
		err     string // "" when the merge must succeed; {i} is the i-th file
		missing []int  // the MissingError's indices
	}{
		{"a point that means other parameters in another file", func(t *testing.T) []string {
			return []string{file(t, "a.jsonl", h, []int{0, 1, 2}, ""), file(t, "b.jsonl", h, []int{3}, moved(1, 3))}
		}, false, "{1}: point 1 is N=3,w=10 here and N=2,w=10 in an earlier file", nil},
		{"a point in two files", func(t *testing.T) []string {
			return []string{file(t, "a.jsonl", h, []int{0, 1, 2}, ""), file(t, "b.jsonl", h, []int{2, 3}, "")}
		}, false, "{1}: point 2 (N=3,w=9) is also in {0}: give each shard's file once", nil},
		{"the same file twice", func(t *testing.T) []string {
			a := file(t, "a.jsonl", h, []int{0, 1, 2, 3}, "")
			return []string{a, a}
		}, false, "{0}: point 0 (N=2,w=9) is also in {0}", nil},
		{"a point twice in one file", func(t *testing.T) []string {
			return []string{file(t, "a.jsonl", h, []int{0, 1, 2, 3, 1}, "")}
		}, false, "{0}: point 1 (N=2,w=10) is in the file twice", nil},
		{"a point outside the sweep", func(t *testing.T) []string {
			p := *whole[3]
			p.Index = 4
			var b bytes.Buffer
			WritePointLine(&b, &p, WriteOptions{})
			return []string{file(t, "a.jsonl", h, []int{0, 1, 2, 3}, b.String())}
		}, false, "{0}: point N=3,w=10 has index 4, outside the sweep's 4 points", nil},
		{"files of different sweeps", func(t *testing.T) []string {
			return []string{file(t, "a.jsonl", h, []int{0, 1}, ""), file(t, "b.jsonl", header(other, len(ps)), nil, "")}
		}, false, "{0} and {1} come from different sweeps: the queries differ", nil},
		{"a file cut off by a kill", func(t *testing.T) []string {
			return []string{file(t, "a.jsonl", h, []int{0, 1}, `{"index":2,"par`), file(t, "b.jsonl", h, []int{2, 3}, "")}
		}, false, "{0}: the last line is incomplete (was the shard killed? resume it with --resume {0})", nil},
		{"a missing point", func(t *testing.T) []string {
			return []string{file(t, "a.jsonl", h, []int{0, 2}, ""), file(t, "b.jsonl", h, []int{1}, "")}
		}, false, "1 of 4 points are missing (indices [3]...)", []int{3}},
		{"a missing point with Partial", func(t *testing.T) []string {
			return []string{file(t, "a.jsonl", h, []int{0, 2}, ""), file(t, "b.jsonl", h, []int{1}, "")}
		}, true, "", nil},
		{"not a result file", func(t *testing.T) []string {
			p := filepath.Join(t.TempDir(), "a.csv")
			os.WriteFile(p, []byte("N,w,mutex\n"), 0o644)
			return []string{p}
		}, false, "{0}: not a JSON result file", nil},
		{"no file", func(t *testing.T) []string { return nil }, false, "no results to merge", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := tc.files(t)
			_, merged, err := MergeFiles(files, MergeOptions{Partial: tc.partial})
			if tc.err == "" {
				if err != nil {
					t.Fatal(err)
				}
				if got := indices(merged); !slices.Equal(got, []int{0, 1, 2}) {
					t.Errorf("merged %v", got)
				}
				return
			}
			if err == nil {
				t.Fatalf("merged, want an error %q", tc.err)
			}
			want := tc.err
			for i, f := range files {
				want = strings.ReplaceAll(want, fmt.Sprintf("{%d}", i), f)
			}
			if msg := err.Error(); !strings.Contains(msg, want) {
				t.Errorf("error %q, want %q", msg, want)
			}
			var me *MissingError
			if errors.As(err, &me) != (tc.missing != nil) || me != nil && (!slices.Equal(me.Missing, tc.missing) || me.Points != len(ps)) {
				t.Errorf("error %#v: want missing %v", err, tc.missing)
			}
		})
	}
}

// TestMergeOfResultsInMemory merges Results read elsewhere, with names for
// the messages: the same union as from files.
func TestMergeOfResultsInMemory(t *testing.T) {
	s := fischerSweep(t, nil)
	ps, _ := s.Points()
	h := header(s, len(ps))
	whole := s.Run(context.Background(), ps, oneWorker)
	a := &Results{Header: h, Points: []*PointResult{whole[3], whole[1]}}
	b := &Results{Header: h, Points: []*PointResult{whole[0], whole[2]}}
	mh, merged, err := Merge([]*Results{a, b}, []string{"a", "b"}, MergeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := stable(t, mh, merged), stable(t, h, whole); got != want {
		t.Errorf("merged:\n%s\nwant\n%s", got, want)
	}
	a.Truncated = true
	if _, _, err := Merge([]*Results{a, b}, []string{"a", "b"}, MergeOptions{}); err == nil || !strings.HasPrefix(err.Error(), "a: the last line is incomplete") {
		t.Errorf("a truncated result merged: %v", err)
	}
}

package sweep

import (
	"errors"
	"fmt"
	"os"
)

// MergeOptions configure Merge.
type MergeOptions struct {
	// Partial allows points of the sweep to be missing from the union.
	Partial bool
}

// A MissingError is a merge whose files leave points of the sweep out
// (and MergeOptions.Partial is not set).
type MissingError struct {
	Missing []int // the indices of the missing points, in order
	Points  int   // the number of points of the sweep
}

func (e *MissingError) Error() string {
	show := e.Missing
	if len(show) > 10 {
		show = show[:10]
	}
	return fmt.Sprintf("%d of %d points are missing (indices %v...)", len(e.Missing), e.Points, show)
}

// Merge joins the results of the shards of one sweep (or of any result
// files of it) into the result of a single run of the whole sweep: the
// header without its shard, and the union of the points in index order, so
// that Write prints what one run prints. names name the results in errors
// (file names). The results must describe the same sweep (SameSweep), none
// may end in an incomplete line, a point's index must be in the sweep and
// mean the same parameters in every file that holds it, and every point
// must be present unless o.Partial (else the error is a *MissingError). A
// point may be given once only: two files that hold the same point are
// overlapping shards, or the same file given twice, and which of their
// results to keep is not for the merge to choose.
func Merge(results []*Results, names []string, o MergeOptions) (Header, []*PointResult, error) {
	switch {
	case len(results) == 0:
		return Header{}, nil, errNothingToMerge
	case len(names) != len(results):
		return Header{}, nil, fmt.Errorf("merge: %d results and %d names", len(results), len(names))
	}
	m := newMerger()
	for i, res := range results {
		if err := m.add(names, i, res); err != nil {
			return m.h, nil, err
		}
	}
	return m.finish(o)
}

// MergeFiles reads result files (jsonl or json) and merges them as Merge
// does, reading each file only after the earlier ones merged.
func MergeFiles(paths []string, o MergeOptions) (Header, []*PointResult, error) {
	if len(paths) == 0 {
		return Header{}, nil, errNothingToMerge
	}
	m := newMerger()
	for i, path := range paths {
		f, err := os.Open(path)
		if err != nil {
			return m.h, nil, err
		}
		res, err := ReadResults(f)
		f.Close()
		if err != nil {
			return m.h, nil, fmt.Errorf("%s: %v", path, err)
		}
		if err := m.add(paths, i, res); err != nil {
			return m.h, nil, err
		}
	}
	return m.finish(o)
}

var errNothingToMerge = errors.New("merge: no results to merge")

type merger struct {
	h     Header
	byIdx map[int]*PointResult
	from  map[int]int // the position of the file that gave each point
}

func newMerger() *merger {
	return &merger{byIdx: map[int]*PointResult{}, from: map[int]int{}}
}

// add merges the i-th of the results named names.
func (m *merger) add(names []string, i int, res *Results) error {
	path := names[i]
	if res.Truncated {
		return fmt.Errorf("%s: the last line is incomplete (was the shard killed? resume it with --resume %s)", path, path)
	}
	if i == 0 {
		m.h = res.Header
		m.h.Shard = nil
	} else if why := SameSweep(m.h.Sweep, res.Header.Sweep); why != "" {
		return fmt.Errorf("%s and %s come from different sweeps: %s", names[0], path, why)
	}
	for _, p := range res.Points {
		if p.Index < 0 || p.Index >= m.h.Sweep.Points {
			return fmt.Errorf("%s: point %s has index %d, outside the sweep's %d points", path, p.Key(), p.Index, m.h.Sweep.Points)
		}
		if q, ok := m.byIdx[p.Index]; ok {
			if q.Key() != p.Key() {
				return fmt.Errorf("%s: point %d is %s here and %s in an earlier file", path, p.Index, p.Key(), q.Key())
			}
			if m.from[p.Index] == i {
				return fmt.Errorf("%s: point %d (%s) is in the file twice", path, p.Index, p.Key())
			}
			return fmt.Errorf("%s: point %d (%s) is also in %s: give each shard's file once", path, p.Index, p.Key(), names[m.from[p.Index]])
		}
		m.byIdx[p.Index] = p
		m.from[p.Index] = i
	}
	return nil
}

func (m *merger) finish(o MergeOptions) (Header, []*PointResult, error) {
	var all []*PointResult
	var missing []int
	for i := range m.h.Sweep.Points {
		if p, ok := m.byIdx[i]; ok {
			all = append(all, p)
		} else {
			missing = append(missing, i)
		}
	}
	if len(missing) > 0 && !o.Partial {
		return m.h, nil, &MissingError{Missing: missing, Points: m.h.Sweep.Points}
	}
	return m.h, all, nil
}

package sweep

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// fischerSweep is a small sweep of Fischer's protocol (4 points, a few
// milliseconds each) with its extra arguments applied.
func fischerSweep(t *testing.T, edit func(*Args)) *Spec {
	t.Helper()
	a := Args{
		Model:   modelSource(t, "../../testdata/fischer.yaml"),
		Queries: []string{"mutex", "sup: P(1).x"},
		Grid:    Grid{{mustAxis(t, "N=2..3"), mustAxis(t, "w=9..10")}},
	}
	if edit != nil {
		edit(&a)
	}
	s, err := New(a)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// oneWorker checks each point with one goroutine, so that the state
// counts, and so the stable output, are the same from run to run.
var oneWorker = RunOptions{Jobs: 2, Check: CheckOptions{Workers: 1}}

func header(s *Spec, points int) Header {
	return Header{Tool: "tcheck", Version: "test", Sweep: s.JSON(points)}
}

// stable is the --stable jsonl of results.
func stable(t *testing.T, h Header, rs []*PointResult) string {
	t.Helper()
	var b bytes.Buffer
	if err := Write(&b, "jsonl", h, rs, len(rs), WriteOptions{Stable: true}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// stableFile reads a result file and returns its --stable jsonl.
func stableFile(t *testing.T, path string) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	res, err := ReadResults(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if res.Truncated {
		t.Errorf("%s ends in an incomplete line", path)
	}
	return stable(t, res.Header, res.Points)
}

func indices(rs []*PointResult) []int {
	var out []int
	for _, r := range rs {
		out = append(out, r.Index)
	}
	return out
}

// TestJournalHoldsEveryAppendedPointAndRewritesThemInIndexOrder appends
// points in several completion orders: after every append the file reads
// back as a complete result file holding exactly the points appended so
// far, and Rewrite leaves what Write prints for the points in index order.
func TestJournalHoldsEveryAppendedPointAndRewritesThemInIndexOrder(t *testing.T) {
	s := fischerSweep(t, nil)
	ps, _ := s.Points()
	res := s.Run(context.Background(), ps, oneWorker)
	h := header(s, len(ps))
	for _, tc := range []struct {
		name  string
		order []int
	}{
		{"index order", []int{0, 1, 2, 3}},
		{"reverse order", []int{3, 2, 1, 0}},
		{"interleaved", []int{2, 0, 3, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "r.jsonl")
			j, err := CreateJournal(path, h, WriteOptions{Stable: true})
			if err != nil {
				t.Fatal(err)
			}
			for n, i := range tc.order {
				if err := j.Append(res[i]); err != nil {
					t.Fatal(err)
				}
				f, _ := os.Open(path)
				back, err := ReadResults(f)
				f.Close()
				if err != nil || back.Truncated {
					t.Fatalf("after %d appends: %v (truncated %v)", n+1, err, back != nil && back.Truncated)
				}
				if got, want := indices(back.Points), tc.order[:n+1]; !slices.Equal(got, want) {
					t.Fatalf("after %d appends the file holds %v, want %v", n+1, got, want)
				}
			}
			var appended []*PointResult
			for _, i := range tc.order {
				appended = append(appended, res[i])
			}
			if err := j.Rewrite(h, appended, len(ps)); err != nil {
				t.Fatal(err)
			}
			got, _ := os.ReadFile(path)
			if want := stable(t, h, res); string(got) != want {
				t.Errorf("rewritten file:\n%s\nwant\n%s", got, want)
			}
			if err := j.Append(res[0]); err == nil {
				t.Errorf("Append after Rewrite (which closes the journal) succeeded")
			}
		})
	}
}

// TestResumedSessionGivesTheResultsOfOneRun resumes from files that a
// stopped or killed run leaves (or none): the session checks exactly the
// points the file lacks, and the results and the file at the end are
// those of one uninterrupted run.
func TestResumedSessionGivesTheResultsOfOneRun(t *testing.T) {
	s := fischerSweep(t, nil)
	ps, _ := s.Points()
	h := header(s, len(ps))
	whole := s.Run(context.Background(), ps, oneWorker)
	want := stable(t, h, whole)
	// journal writes a result file holding the points i of done, in that
	// order, then tail.
	journal := func(t *testing.T, path string, done []int, tail string) {
		j, err := CreateJournal(path, h, WriteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, i := range done {
			if err := j.Append(whole[i]); err != nil {
				t.Fatal(err)
			}
		}
		j.Close()
		if tail != "" {
			f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
			f.WriteString(tail)
			f.Close()
		}
	}
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, path string)
		done  []int // the points Done holds
	}{
		{"no file", func(t *testing.T, path string) {}, nil},
		{"an empty file (killed before the header)", func(t *testing.T, path string) { os.WriteFile(path, nil, 0o644) }, nil},
		{"the header only", func(t *testing.T, path string) { journal(t, path, nil, "") }, nil},
		{"two points done out of order", func(t *testing.T, path string) { journal(t, path, []int{2, 0}, "") }, []int{0, 2}},
		{"a point cut off by a kill", func(t *testing.T, path string) {
			journal(t, path, []int{1}, `{"index":3,"params":{"N":3,"w"`)
		}, []int{1}},
		{"every point done", func(t *testing.T, path string) { journal(t, path, []int{3, 1, 0, 2}, "") }, []int{0, 1, 2, 3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "r.jsonl")
			tc.setup(t, path)
			sess, err := OpenSession(s, h, ps, Files{Resume: path, Write: WriteOptions{Stable: true}})
			if err != nil {
				t.Fatal(err)
			}
			defer sess.Close()
			if got := indices(sess.Done); !slices.Equal(got, tc.done) {
				t.Errorf("Done holds %v, want %v", got, tc.done)
			}
			// Opened, the file is a whole result file again: a kill
			// now loses nothing of what it holds.
			f, _ := os.Open(path)
			back, err := ReadResults(f)
			f.Close()
			if err != nil || back.Truncated || len(back.Points) != len(tc.done) {
				t.Errorf("the opened file: %v (truncated %v), want %d whole points", err, back != nil && back.Truncated, len(tc.done))
			}
			var todo []int
			for _, p := range sess.Todo {
				todo = append(todo, p.Index)
			}
			var checked []int
			opts := oneWorker
			opts.OnDone = func(r *PointResult) { checked = append(checked, r.Index) }
			all, err := sess.Run(context.Background(), opts)
			if err != nil {
				t.Fatal(err)
			}
			slices.Sort(checked)
			if len(todo)+len(tc.done) != len(ps) || !slices.Equal(checked, todo) {
				t.Errorf("Todo %v, checked %v; Done %v of %d points", todo, checked, tc.done, len(ps))
			}
			if got := stable(t, h, all); got != want {
				t.Errorf("resumed results:\n%s\nwant\n%s", got, want)
			}
			if got, _ := os.ReadFile(path); string(got) != want {
				t.Errorf("resumed file:\n%s\nwant\n%s", got, want)
			}
		})
	}
}

// TestStoppedSessionResumesToTheResultsOfOneRun stops a session after its
// first point, as Ctrl-C does (each point is in the file when OnDone sees
// it), and resumes it into a second file (Out)
// besides the first: both files end as one run of the sweep, and the
// resumed session checks only the points the stopped one did not finish.
func TestStoppedSessionResumesToTheResultsOfOneRun(t *testing.T) {
	s := fischerSweep(t, nil)
	ps, _ := s.Points()
	h := header(s, len(ps))
	want := stable(t, h, s.Run(context.Background(), ps, oneWorker))
	dir := t.TempDir()
	resume, out := filepath.Join(dir, "r.jsonl"), filepath.Join(dir, "out.jsonl")

	sess, err := OpenSession(s, h, ps, Files{Resume: resume})
	if err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	opts := oneWorker
	opts.Jobs, opts.Stop = 1, stop
	opts.OnDone = func(r *PointResult) {
		// The point is in the file before OnDone sees it.
		f, _ := os.Open(resume)
		back, err := ReadResults(f)
		f.Close()
		if err != nil || !slices.Contains(indices(back.Points), r.Index) {
			t.Errorf("OnDone(point %d): the file does not hold it (%v)", r.Index, err)
		}
		select {
		case <-stop:
		default:
			close(stop)
		}
	}
	first, err := sess.Run(context.Background(), opts)
	sess.Close()
	if err != nil {
		t.Fatal(err)
	}
	if len(first) == 0 || len(first) == len(ps) {
		t.Fatalf("the stopped session finished %d of %d points", len(first), len(ps))
	}

	sess, err = OpenSession(s, h, ps, Files{Resume: resume, Out: out, Write: WriteOptions{Stable: true}})
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	if !slices.Equal(indices(sess.Done), indices(first)) || len(sess.Todo) != len(ps)-len(first) {
		t.Fatalf("resuming: Done %v, %d to do; the stopped session finished %v", indices(sess.Done), len(sess.Todo), indices(first))
	}
	if got := sess.Files(); !slices.Equal(got, []string{resume, out}) {
		t.Errorf("Files() = %v", got)
	}
	all, err := sess.Run(context.Background(), oneWorker)
	if err != nil {
		t.Fatal(err)
	}
	if got := stable(t, h, all); got != want {
		t.Errorf("resumed results:\n%s\nwant\n%s", got, want)
	}
	for _, path := range []string{resume, out} {
		if got, _ := os.ReadFile(path); string(got) != want {
			t.Errorf("%s:\n%s\nwant\n%s", filepath.Base(path), got, want)
		}
	}
}

// TestResumeKeepsOnlyTheRunsPoints resumes a shard from the file of the
// whole sweep: the shard's points are done, and the file is rewritten as
// the shard's own result file.
func TestResumeKeepsOnlyTheRunsPoints(t *testing.T) {
	s := fischerSweep(t, nil)
	ps, _ := s.Points()
	h := header(s, len(ps))
	whole := s.Run(context.Background(), ps, oneWorker)
	path := filepath.Join(t.TempDir(), "r.jsonl")
	if err := WriteFile(path, "jsonl", h, whole, len(ps), WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	sh := Shard{Index: 1, Count: 2}
	var shard []Point
	var shardResults []*PointResult
	for i, p := range ps {
		if sh.Contains(p.Index) {
			shard = append(shard, p)
			shardResults = append(shardResults, whole[i])
		}
	}
	hs := h
	hs.Shard = &ShardRef{Index: sh.Index, Count: sh.Count}
	sess, err := OpenSession(s, hs, shard, Files{Resume: path, Write: WriteOptions{Stable: true}})
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	if len(sess.Todo) != 0 || !slices.Equal(indices(sess.Done), []int{1, 3}) {
		t.Fatalf("Done %v, %d to do; want [1 3], none", indices(sess.Done), len(sess.Todo))
	}
	if _, err := sess.Run(context.Background(), oneWorker); err != nil {
		t.Fatal(err)
	}
	if got, want := stableFile(t, path), stable(t, hs, shardResults); got != want {
		t.Errorf("rewritten file:\n%s\nwant\n%s", got, want)
	}
}

// TestResumeRefusesAnotherSweepsFile writes the result file of a sweep
// that differs in one respect and resumes the base sweep from it: the
// session is refused with an error naming the file and the difference,
// and the file is left as it was.
func TestResumeRefusesAnotherSweepsFile(t *testing.T) {
	base := fischerSweep(t, nil)
	ps, _ := base.Points()
	for _, tc := range []struct {
		name string
		file func(t *testing.T) []byte // the resume file's content
		why  string                    // in the error
		// other is whether the error wraps ErrOtherSweep (else the file
		// is not a result file)
		other bool
	}{
		{"another model", func(t *testing.T) []byte {
			h := header(base, len(ps))
			h.Sweep.ModelSHA256 = strings.Repeat("0", 64)
			return jsonl(t, h)
		}, "the models differ", true},
		{"other queries", otherSweep(func(a *Args) { a.Queries = []string{"mutex"} }), "the queries differ", true},
		{"another grid", otherSweep(func(a *Args) { a.Grid = Grid{{mustAxis(t, "N=2..4"), mustAxis(t, "w=9..10")}} }), "the grids differ", true},
		{"another filter", otherSweep(func(a *Args) { a.Where = "N < 3" }), "the grids differ", true},
		{"other fixed parameters", otherSweep(func(a *Args) { a.Set = []Param{{Name: "k", Value: 9}} }), "the fixed parameters differ", true},
		{"other options", otherSweep(func(a *Args) { a.Options.Limits.MaxStates = 1000 }), "the exploration options differ", true},
		{"a table, not a result file", func(t *testing.T) []byte { return []byte("N  w  mutex\n2  9  violated\n") }, "not a JSON result file", false},
		{"a header that is not a sweep's", func(t *testing.T) []byte { return []byte(`{"tool":"tcheck"}` + "\n") }, "not a sweep result header", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "r.jsonl")
			content := tc.file(t)
			os.WriteFile(path, content, 0o644)
			sess, err := OpenSession(base, header(base, len(ps)), ps, Files{Resume: path})
			if err == nil {
				sess.Close()
				t.Fatal("resumed from another sweep's file")
			}
			var fe *FileError
			if !errors.As(err, &fe) || fe.Path != path {
				t.Errorf("error %v (%T) is not a FileError of %s", err, err, path)
			}
			if errors.Is(err, ErrOtherSweep) != tc.other {
				t.Errorf("errors.Is(%v, ErrOtherSweep) = %v, want %v", err, !tc.other, tc.other)
			}
			if !strings.Contains(err.Error(), tc.why) || !strings.HasPrefix(err.Error(), path+": ") {
				t.Errorf("error %q: want %q after the file name", err, tc.why)
			}
			if got, _ := os.ReadFile(path); !bytes.Equal(got, content) {
				t.Errorf("the refused file was changed:\n%s", got)
			}
		})
	}
}

// otherSweep returns the header line of a sweep like the base one with
// edit applied.
func otherSweep(edit func(*Args)) func(t *testing.T) []byte {
	return func(t *testing.T) []byte {
		s := fischerSweep(t, edit)
		ps, _ := s.Points()
		return jsonl(t, header(s, len(ps)))
	}
}

// jsonl is a result file holding only the header h.
func jsonl(t *testing.T, h Header) []byte {
	var b bytes.Buffer
	if err := WriteHeaderLine(&b, h); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

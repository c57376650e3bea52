package sweep

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
)

// A Journal is a JSON Lines result file written while a sweep runs: the
// header line, then one line per point as it finishes, each with a single
// Write call, so that a run that is stopped or killed leaves a file that
// ReadResults reads back (a line cut off by a kill is reported as
// Results.Truncated, and ResumeJournal drops it). Rewrite puts the points
// in index order at the end. A Journal is not safe for concurrent use; the
// callbacks of Spec.Run are serialised, so Append may be called from them.
type Journal struct {
	path string
	f    *os.File
	wo   WriteOptions
}

// ErrOtherSweep is wrapped by the error of ResumeJournal and
// OpenSession for a result file whose header describes another sweep
// (SameSweep).
var ErrOtherSweep = errors.New("the file holds another sweep")

// A FileError is a result file that cannot be resumed: it does not read
// as a result file, or it holds another sweep (Err wraps ErrOtherSweep).
// Errors of the file system are returned as they are.
type FileError struct {
	Path string
	Err  error
}

func (e *FileError) Error() string { return e.Path + ": " + e.Err.Error() }
func (e *FileError) Unwrap() error { return e.Err }

// CreateJournal creates (or truncates) a result file and writes its
// header line.
func CreateJournal(path string, h Header, wo WriteOptions) (*Journal, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	j := &Journal{path: path, f: f, wo: wo}
	if err := WriteHeaderLine(f, h); err != nil {
		f.Close()
		return nil, err
	}
	return j, nil
}

// ResumeJournal opens a result file to continue a sweep: it returns the
// points the file holds, in the file's order, and the file opened for
// appending after them. The file's header must describe the sweep of h
// (SameSweep; the shard may differ), or the error is a *FileError wrapping
// ErrOtherSweep. An incomplete last line (the writer was killed) is
// dropped. A file that does not exist, or is empty, is created with the
// header h.
func ResumeJournal(path string, h Header, wo WriteOptions) (*Journal, []*PointResult, error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err == nil {
		// An empty file (created, then killed before the header was
		// written) starts afresh.
		if st, serr := f.Stat(); serr == nil && st.Size() == 0 {
			f.Close()
			err = os.ErrNotExist
		}
	}
	if errors.Is(err, os.ErrNotExist) {
		j, err := CreateJournal(path, h, wo)
		return j, nil, err
	}
	if err != nil {
		return nil, nil, err
	}
	res, err := ReadResults(f)
	if err != nil {
		f.Close()
		return nil, nil, &FileError{Path: path, Err: err}
	}
	if why := SameSweep(res.Header.Sweep, h.Sweep); why != "" {
		f.Close()
		return nil, nil, &FileError{Path: path, Err: fmt.Errorf("%w (%s)", ErrOtherSweep, why)}
	}
	// Drop an incomplete last line, then append.
	if err := f.Truncate(res.ValidLen); err != nil {
		f.Close()
		return nil, nil, err
	}
	if _, err := f.Seek(res.ValidLen, io.SeekStart); err != nil {
		f.Close()
		return nil, nil, err
	}
	return &Journal{path: path, f: f, wo: wo}, res.Points, nil
}

// Path returns the journal's file name.
func (j *Journal) Path() string { return j.path }

// Append writes a finished point as one line; the error names the file.
func (j *Journal) Append(p *PointResult) error {
	if j.f == nil {
		return fmt.Errorf("%s: the journal is closed", j.path)
	}
	if err := WritePointLine(j.f, p, j.wo); err != nil {
		return fmt.Errorf("%s: %v", j.path, err)
	}
	return nil
}

// Close closes the file; closing a closed journal does nothing.
func (j *Journal) Close() error {
	if j.f == nil {
		return nil
	}
	err := j.f.Close()
	j.f = nil
	return err
}

// Rewrite closes the journal and replaces its file, atomically, with the
// header h and the points in index order: what Write prints in the jsonl
// format, whatever order the points finished in. total is the number of
// points of the run, as for Write.
func (j *Journal) Rewrite(h Header, points []*PointResult, total int) error {
	j.Close()
	return WriteFile(j.path, "jsonl", h, sortedByIndex(points), total, j.wo)
}

// WriteFile writes results in a format, as Write, to a file replaced
// atomically: a temporary file in the same directory renamed over path
// (which keeps its permissions), so that readers never see half a file.
func WriteFile(path, format string, h Header, points []*PointResult, total int, wo WriteOptions) error {
	return WriteFileAtomic(path, func(w io.Writer) error {
		return Write(w, format, h, points, total, wo)
	})
}

// WriteFileAtomic writes path through write into a temporary file in the
// same directory renamed over path (which keeps its permissions), so that
// readers never see half a file.
func WriteFileAtomic(path string, write func(io.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := write(tmp); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	mode := os.FileMode(0o644)
	if st, err := os.Stat(path); err == nil {
		mode = st.Mode().Perm()
	}
	if err := os.Chmod(tmp.Name(), mode); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// sortedByIndex returns the results in index order (a copy).
func sortedByIndex(rs []*PointResult) []*PointResult {
	out := append([]*PointResult{}, rs...)
	sort.Slice(out, func(i, j int) bool { return out[i].Index < out[j].Index })
	return out
}

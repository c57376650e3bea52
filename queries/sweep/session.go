package sweep

import (
	"context"
	"path/filepath"
)

// Files name the result files of a Session, both JSON Lines journals.
type Files struct {
	// Resume is a result file to continue: the points of the run that it
	// holds are not checked again, the others are appended to it as they
	// finish. It is created if it does not exist.
	Resume string
	// Out is a result file written afresh: the header and the points
	// taken from Resume, then each point as it finishes. Ignored when it
	// is the Resume file.
	Out string
	// Write applies to every line written.
	Write WriteOptions
}

// A Session runs a sweep's points with their results recorded in result
// files as they finish, so that a run that is stopped, interrupted or
// killed can be resumed by another Session on the same Resume file: the
// points already there are skipped, and the files end as one run of all
// the points would have left them (in index order).
type Session struct {
	// Done holds the results of the run's points that the Resume file
	// already held, in index order; Todo the points left to check, in
	// the order given to Open.
	Done []*PointResult
	Todo []Point

	spec     *Spec
	header   Header
	total    int
	journals []*Journal
}

// OpenSession opens the result files of a run of points of spec (all its
// points, or a shard's) described by the header h (Header.Sweep is
// spec.JSON of the whole sweep's number of points). Points of the Resume
// file that are not among points are ignored (and left out when the file
// is rewritten). The error is a *FileError for a Resume file that is not a
// result file or holds another sweep (errors.Is ErrOtherSweep). Close the
// session when done with it, whether or not Run was called.
func OpenSession(spec *Spec, h Header, points []Point, f Files) (*Session, error) {
	s := &Session{spec: spec, header: h, total: len(points)}
	var previous []*PointResult
	if f.Resume != "" {
		j, prev, err := ResumeJournal(f.Resume, h, f.Write)
		if err != nil {
			return nil, err
		}
		s.journals = append(s.journals, j)
		inRun := map[string]bool{}
		for _, p := range points {
			inRun[p.Key()] = true
		}
		for _, p := range prev {
			if inRun[p.Key()] {
				previous = append(previous, p)
			}
		}
	}
	s.Done = sortedByIndex(previous)
	if f.Out != "" && !samePath(f.Out, f.Resume) {
		j, err := CreateJournal(f.Out, h, f.Write)
		if err != nil {
			s.Close()
			return nil, err
		}
		s.journals = append(s.journals, j)
		for _, p := range s.Done {
			if err := WritePointLine(j.f, p, f.Write); err != nil {
				s.Close()
				return nil, err
			}
		}
	}
	done := map[string]bool{}
	for _, p := range s.Done {
		done[p.Key()] = true
	}
	for _, p := range points {
		if !done[p.Key()] {
			s.Todo = append(s.Todo, p)
		}
	}
	return s, nil
}

// Files returns the names of the session's result files: the Resume file
// first, then the Out file.
func (s *Session) Files() []string {
	var out []string
	for _, j := range s.journals {
		out = append(out, j.path)
	}
	return out
}

// Run checks the points of Todo with Spec.Run and opts, appending each
// finished point to the result files before opts.OnDone sees it, and
// returns the results of the whole run, Done and the new ones, in index
// order. When opts.Stop or ctx stops the run early, the results are the
// points finished so far (resume them with another Session). At the end
// each file is rewritten with the header and the results in index order;
// after a failed write, Run returns the error and leaves the files as they
// are (every line in them whole). Run is called once.
func (s *Session) Run(ctx context.Context, opts RunOptions) ([]*PointResult, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	var writeErr error
	onDone := opts.OnDone
	opts.OnDone = func(p *PointResult) {
		for _, j := range s.journals {
			if err := j.Append(p); err != nil && writeErr == nil {
				writeErr = err
			}
		}
		if onDone != nil {
			onDone(p)
		}
	}
	results := s.spec.Run(ctx, s.Todo, opts)
	// Run has returned: no OnDone call is running or will run.
	if writeErr != nil {
		return nil, writeErr
	}
	all := sortedByIndex(append(append([]*PointResult{}, s.Done...), results...))
	for _, j := range s.journals {
		if err := j.Rewrite(s.header, all, s.total); err != nil {
			return nil, err
		}
	}
	return all, nil
}

// Close closes the result files (Run closes them too).
func (s *Session) Close() error {
	var first error
	for _, j := range s.journals {
		if err := j.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// samePath reports whether a and b name the same file (both non-empty).
func samePath(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	aa, err1 := filepath.Abs(a)
	bb, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && aa == bb
}

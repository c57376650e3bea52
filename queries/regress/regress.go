package regress

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/tcheck/tcheck/model"
	"github.com/tcheck/tcheck/queries"
	"github.com/tcheck/tcheck/queries/sweep"
	"github.com/tcheck/tcheck/zone"
)

// Status is the outcome of a test case.
type Status int

const (
	Pass  Status = iota // the result meets the expectation
	Fail                // it does not (or a limit left it unknown)
	Error               // a model error: the file does not load, or the model raised a runtime error
)

var statusNames = [...]string{"pass", "fail", "error"}

func (s Status) String() string { return statusNames[s] }

// MarshalText prints statuses as words in JSON.
func (s Status) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Case is one checked expectation: a query of a model file, or a query at
// one point of a sweep file.
type Case struct {
	// Name is the query's name, followed for sweep files by "/" and the
	// point ("detection/c1=1,c2=1,d=0").
	Name     string
	Query    string
	Point    string // sweep files only
	Status   Status
	Expected string
	Got      string
	Message  string // why it failed or errored, for people
	Pos      model.Pos
	Elapsed  time.Duration

	// Result and Net give the full result (trace included) for reports.
	Result *queries.Result
	Net    *model.Network
}

// FileResult is the outcome of one file.
type FileResult struct {
	Path  string
	Kind  string // "model" or "sweep"
	Name  string // the model's name
	Cases []Case
	// Err is a model error that kept the file from being checked.
	Err error
	// Skipped says why a file has no cases ("no expectations", "no
	// query matches -run").
	Skipped string
	Elapsed time.Duration
	// Updated counts the expectations rewritten by Update.
	Updated int
	// Interrupted: the run was interrupted (Ctrl-C) before this file was
	// checked through; its cases count neither as passed nor as failed.
	Interrupted bool
}

// Counts returns the numbers of cases passed, failed and errored (a file
// that does not load counts as one error).
func (r *FileResult) Counts() (pass, fail, errs int) {
	if r.Interrupted {
		return 0, 0, 0
	}
	if r.Err != nil {
		return 0, 0, 1
	}
	for _, c := range r.Cases {
		switch c.Status {
		case Pass:
			pass++
		case Fail:
			fail++
		case Error:
			errs++
		}
	}
	return
}

// Status is the file's status: error if any case errored or it did not
// load, else fail if any case failed, else pass.
func (r *FileResult) Status() Status {
	_, f, e := r.Counts()
	switch {
	case e > 0:
		return Error
	case f > 0:
		return Fail
	}
	return Pass
}

// Options configure checking.
type Options struct {
	// Run selects queries by name (all when nil).
	Run *regexp.Regexp
	// Check are the exploration options; Limits apply to each exploration
	// of a model file and to each point of a sweep file.
	Check sweep.Options
	// Jobs is the number of files (and points of a sweep file) checked at
	// the same time.
	Jobs int
	// Resolve finds the models of sweep files.
	Resolve sweep.Resolver
	// Parse reads model files (model.Parse when nil).
	Parse func(name string, src []byte) (*model.File, error)
	// Expand turns a mutant file (top-level keys base and replace: a patch
	// over a model, as the bundled mutants are) into model text; mutant
	// files are skipped when it is nil.
	Expand func(path string, src []byte) ([]byte, error)
	// Now is the clock (time.Now when nil).
	Now func() time.Time
}

func (o *Options) now() time.Time {
	if o.Now != nil {
		return o.Now()
	}
	return time.Now()
}

// Discover returns the files to check under paths, sorted within each
// directory, in the order of paths: a directory is walked recursively for
// *.yaml and *.yml files that are models with queries (a top-level
// `queries` key next to `templates` or `system`) or sweep files
// (*.sweep.yaml) that do not say `options: {test: false}`; files named
// explicitly are always taken. Hidden directories and testdata/fuzz
// corpora are skipped.
func Discover(paths []string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, root := range paths {
		st, err := os.Stat(root)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			add(root)
			continue
		}
		var found []string
		err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				name := d.Name()
				if p != root && (strings.HasPrefix(name, ".") || name == "fuzz" && filepath.Base(filepath.Dir(p)) == "testdata") {
					return filepath.SkipDir
				}
				return nil
			}
			if !strings.HasSuffix(p, ".yaml") && !strings.HasSuffix(p, ".yml") {
				return nil
			}
			if sweep.IsSweepFile(p) {
				if src, err := model.ReadSource(p); err == nil && !sweep.SkippedInTest(src) {
					found = append(found, p)
				}
			} else if isModelWithQueries(p) || isMutant(p) {
				found = append(found, p)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		sort.Strings(found)
		for _, p := range found {
			add(p)
		}
	}
	return out, nil
}

// isMutant reports whether a YAML file is a mutant file: a patch over a
// model (top-level keys base and replace).
func isMutant(path string) bool {
	src, err := model.ReadSource(path)
	if err != nil {
		return false
	}
	return IsMutant(src)
}

// IsMutant reports whether src has the top-level keys base and replace.
func IsMutant(src []byte) bool {
	var doc yaml.Node
	if yaml.NewDecoder(bytes.NewReader(src)).Decode(&doc) != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return false
	}
	m := doc.Content[0]
	var base, replace bool
	for i := 0; i+1 < len(m.Content); i += 2 {
		switch m.Content[i].Value {
		case "base":
			base = true
		case "replace":
			replace = true
		}
	}
	return base && replace
}

// isModelWithQueries looks at the top-level keys of a YAML file.
func isModelWithQueries(path string) bool {
	src, err := model.ReadSource(path)
	if err != nil {
		return false
	}
	var doc yaml.Node
	if yaml.NewDecoder(bytes.NewReader(src)).Decode(&doc) != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		// Not YAML we can read: a model file only if it says so.
		return bytes.Contains(src, []byte("\ntemplates:")) && bytes.Contains(src, []byte("\nqueries:"))
	}
	m := doc.Content[0]
	var model, queries bool
	for i := 0; i+1 < len(m.Content); i += 2 {
		switch m.Content[i].Value {
		case "templates", "system":
			model = true
		case "queries":
			queries = true
		}
	}
	return model && queries
}

// Check checks files, Jobs at a time, and calls report for each file in
// the order of files as soon as it and the files before it are done.
func Check(ctx context.Context, files []string, o Options, report func(*FileResult)) []*FileResult {
	jobs := max(o.Jobs, 1)
	results := make([]*FileResult, len(files))
	ready := make([]chan struct{}, len(files))
	for i := range ready {
		ready[i] = make(chan struct{})
	}
	sem := make(chan struct{}, jobs)
	var wg sync.WaitGroup
	for i, f := range files {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			if ctx.Err() != nil {
				results[i] = &FileResult{Path: f, Kind: kindOf(f), Interrupted: true}
			} else {
				results[i] = CheckFile(ctx, f, o)
			}
			close(ready[i])
		}()
	}
	for i := range files {
		<-ready[i]
		if report != nil {
			report(results[i])
		}
	}
	wg.Wait()
	return results
}

func kindOf(path string) string {
	if sweep.IsSweepFile(path) {
		return "sweep"
	}
	return "model"
}

// CheckFile checks the expectations of one model or sweep file.
func CheckFile(ctx context.Context, path string, o Options) *FileResult {
	start := o.now()
	r := &FileResult{Path: path, Kind: kindOf(path)}
	defer func() { r.Elapsed = o.now().Sub(start) }()
	src, err := model.ReadSource(path)
	if err != nil {
		r.Err = err
		return r
	}
	switch {
	case r.Kind == "sweep":
		checkSweep(ctx, r, src, o)
	case IsMutant(src):
		if o.Expand == nil {
			r.Skipped = "a mutant file, and no way to expand it"
			return r
		}
		text, err := o.Expand(path, src)
		if err != nil {
			r.Err = err
			return r
		}
		checkModel(ctx, r, text, o)
	default:
		checkModel(ctx, r, src, o)
	}
	if ctx.Err() != nil {
		r.Interrupted = true
	}
	return r
}

func (o *Options) selected(name string) bool { return o.Run == nil || o.Run.MatchString(name) }

func checkModel(ctx context.Context, r *FileResult, src []byte, o Options) {
	parse := o.Parse
	if parse == nil {
		parse = model.Parse
	}
	f, err := parse(r.Path, src)
	if err != nil {
		r.Err = err
		return
	}
	r.Name = f.Name
	var names []string
	expected := 0
	for _, q := range f.Queries {
		if q.Expect == "" && q.MaxStates == 0 {
			continue
		}
		expected++
		if o.selected(q.Name) {
			names = append(names, q.Name)
		}
	}
	switch {
	case expected == 0:
		r.Skipped = "no expectations"
		return
	case len(names) == 0:
		r.Skipped = "no query matches -run"
		return
	}
	// the model's timeout counts from here and, with its memory limit
	// (the process's heap, as for the searches) and Ctrl-C, stops the
	// compilation of the model and its queries too
	limits := o.Check.Limits
	if limits.Timeout > 0 {
		if d := o.now().Add(limits.Timeout); limits.Deadline.IsZero() || d.Before(limits.Deadline) {
			limits.Deadline = d
		}
	}
	overMemory := false
	interrupt := func() bool {
		if ctx.Err() != nil || !limits.Deadline.IsZero() && !o.now().Before(limits.Deadline) {
			return true
		}
		if limits.MaxMemory > 0 && zone.HeapBytes() > limits.MaxMemory {
			overMemory = true
		}
		return overMemory
	}
	net, err := f.CompileWith(nil, model.CompileOptions{Interrupt: interrupt})
	if err == nil {
		var qs []*queries.Query
		if qs, err = queries.FromFile(net, f, names); err == nil {
			net.SetCompileInterrupt(nil)
			checkQueries(ctx, r, net, qs, limits, o)
			return
		}
	}
	if errors.Is(err, model.ErrInterrupted) {
		if ctx.Err() != nil {
			err = errors.New("interrupted while the model and its queries were compiled")
		} else if overMemory {
			err = fmt.Errorf("memory limit %s reached while the model and its queries were compiled", model.FormatBytes(int64(limits.MaxMemory)))
		} else if limits.Timeout > 0 {
			err = fmt.Errorf("time limit %v reached while the model and its queries were compiled", limits.Timeout)
		} else {
			err = errors.New("time limit reached while the model and its queries were compiled")
		}
	}
	r.Err = err
}

// checkQueries checks the compiled queries qs of a model file under
// limits and records a case for each.
func checkQueries(ctx context.Context, r *FileResult, net *model.Network, qs []*queries.Query, limits zone.Limits, o Options) {
	co := queries.Options{Order: o.Check.Order, Extrapolation: o.Check.Extrapolation, GlobalBounds: o.Check.GlobalBounds, FullZones: o.Check.FullZones, Hull: o.Check.Hull, Subsumption: o.Check.Subsumption, Limits: limits, Workers: o.Check.Workers, Now: o.Now}
	if co.Workers <= 0 {
		// the cores left to each of the files checked at the same time
		co.Workers = max(1, runtime.GOMAXPROCS(0)/max(o.Jobs, 1))
	}
	if co.Limits.Cancel == nil {
		co.Limits.Cancel = ctx.Done()
	}
	for _, res := range queries.Check(zone.NewSystem(net), qs, co) {
		q := res.Query
		c := Case{Name: q.Name, Query: q.Name, Expected: expectText(q.Expect), Got: gotText(res), Pos: q.Expect.Pos, Elapsed: res.Stats.Elapsed, Result: res, Net: net}
		if !q.Expect.Pos.IsValid() {
			c.Pos = q.Pos
		}
		switch {
		case res.Verdict == queries.Error:
			c.Status = Error
			c.Message = errorText(res)
		case res.Matches():
			c.Status = Pass
		default:
			c.Status = Fail
			c.Message = fmt.Sprintf("expected %s, got %s", c.Expected, c.Got)
			if res.Verdict == queries.Unknown {
				c.Message += " (" + res.Reason.String() + ")"
			}
		}
		r.Cases = append(r.Cases, c)
	}
}

// expectText describes an expectation.
func expectText(e queries.Expectation) string {
	s := strings.TrimSpace(e.Raw)
	if e.MaxStates > 0 {
		if s != "" {
			s += ", "
		}
		s += fmt.Sprintf("at most %d stored states", e.MaxStates)
	}
	return s
}

// gotText describes a result in the terms of its expectation.
func gotText(r *queries.Result) string {
	var s string
	if len(r.Values) > 0 && r.Verdict != queries.Error {
		var vs []string
		for _, v := range r.Values {
			vs = append(vs, v.String())
		}
		s = strings.Join(vs, ", ")
	} else {
		s = r.Verdict.String()
	}
	if r.Query.Expect.MaxStates > 0 {
		s += fmt.Sprintf(", %d stored states", r.Stats.Stored)
	}
	return s
}

func errorText(r *queries.Result) string {
	switch {
	case r.Err != nil:
		return r.Err.Error()
	case r.TraceErr != nil:
		return r.TraceErr.Error()
	}
	return "model error"
}

func checkSweep(ctx context.Context, r *FileResult, src []byte, o Options) {
	spec, err := sweep.ParseFile(r.Path, src, o.Resolve)
	if err != nil {
		r.Err = err
		return
	}
	r.Name = spec.ModelFile.Name
	// Keep the selected queries; expectations of the others no longer
	// apply.
	var qs []sweep.QuerySpec
	for _, q := range spec.Queries {
		if o.selected(q.Name) {
			qs = append(qs, q)
		}
	}
	if !spec.HasExpectations() {
		r.Skipped = "no expectations"
		return
	}
	if len(qs) == 0 {
		r.Skipped = "no query matches -run"
		return
	}
	spec.Queries = qs
	// Command-line limits override the file's when given.
	if o.Check.Limits.MaxStates > 0 {
		spec.Options.Limits.MaxStates = o.Check.Limits.MaxStates
	}
	if o.Check.Limits.Timeout > 0 {
		spec.Options.Limits.Timeout = o.Check.Limits.Timeout
	}
	if o.Check.Limits.MaxMemory > 0 {
		spec.Options.Limits.MaxMemory = o.Check.Limits.MaxMemory
	}
	spec.Options.Workers = o.Check.Workers
	spec.Options.Subsumption = o.Check.Subsumption
	points, err := spec.Points()
	if err != nil {
		r.Err = err
		return
	}
	results := spec.Run(ctx, points, sweep.RunOptions{Jobs: o.Jobs, Check: sweep.CheckOptions{Traces: true, Now: o.Now}})
	for _, p := range results {
		for i, q := range p.Queries {
			if q.Expected == "" && p.Error == "" && q.Verdict != queries.Error {
				continue
			}
			c := Case{Name: q.Query + "/" + p.Key(), Query: q.Query, Point: p.Key(), Expected: q.Expected, Pos: q.ExpectPos, Elapsed: p.Elapsed, Net: p.Net}
			if i < len(p.Results) {
				c.Result = p.Results[i]
			}
			c.Got = q.Verdict.String()
			if len(q.Values) > 0 {
				c.Got = strings.Join(q.Values, ", ")
			}
			switch {
			case p.Error != "" || q.Verdict == queries.Error:
				c.Status, c.Message = Error, q.Error
				if p.Error != "" {
					c.Message = p.Error
				}
			case q.OK:
				c.Status = Pass
			default:
				c.Status = Fail
				c.Message = fmt.Sprintf("expected %s, got %s", c.Expected, c.Got)
				if q.Verdict == queries.Unknown {
					c.Message += " (" + q.Reason + ")"
				}
			}
			r.Cases = append(r.Cases, c)
		}
	}
	if len(results) < len(points) && ctx.Err() != nil {
		r.Err = fmt.Errorf("interrupted after %d of %d points", len(results), len(points))
	}
}

package sweep

import (
	"errors"
	"fmt"
	"time"

	"github.com/tcheck/tcheck/model"
	"github.com/tcheck/tcheck/model/syntax"
	"github.com/tcheck/tcheck/queries"
	"github.com/tcheck/tcheck/zone"
)

// Args describe a sweep given on the command line.
type Args struct {
	Model   ModelSource
	Queries []string // -q: model query names, name=formula or formulas; none: all of the model's
	Grid    Grid
	Where   string
	Set     []Param
	Options Options
}

// New builds a sweep from command-line arguments.
func New(a Args) (*Spec, error) {
	s := &Spec{Grid: a.Grid, Set: a.Set, Options: a.Options}
	if err := s.parseModel(a.Model); err != nil {
		return nil, err
	}
	f, err := ParseFilter(a.Where)
	if err != nil {
		return nil, err
	}
	s.Where = f
	for i, arg := range a.Queries {
		q, err := QueryArg(s.ModelFile, arg, i+1)
		if err != nil {
			return nil, err
		}
		s.Queries = append(s.Queries, q)
	}
	if err := s.finish(); err != nil {
		return nil, err
	}
	return s, nil
}

// QueryResult is the answer of one query at one point.
type QueryResult struct {
	Query   string
	Verdict queries.Verdict
	// Values are the sup/inf values as printed by queries.Value.
	Values []string
	// Expected is the expectation at this point ("" when none) and OK
	// whether the result meets it (true when there is none).
	Expected string
	OK       bool
	// Reason is why the exploration stopped (zone.StopReason.String()).
	Reason       string
	Stored       int64
	Explored     int64
	Explorations int
	Error        string
	// ExpectPos is where the expectation is written (not in result files).
	ExpectPos model.Pos
}

// PointResult is the outcome of one point.
type PointResult struct {
	Point
	Queries []QueryResult
	// Error is a point-level error (the model does not compile with these
	// parameters); the queries then have verdict error.
	Error string
	// OK: every expectation at this point is met.
	OK bool
	// States is the largest number of states stored by one exploration of
	// the point.
	States int64
	// Elapsed (wall clock, compiling included) and PeakMemory (peak heap of
	// the process while the point ran, shared with the points running at
	// the same time) are volatile.
	Elapsed    time.Duration
	PeakMemory uint64

	// Net and Results are the compiled network and the full results, kept
	// in memory for reports with traces (nil for results read from files).
	Net     *model.Network
	Results []*queries.Result
}

// Status summarises a point: "error" (a model error at some query or
// compiling the point), "missed" (an expectation missed), "unknown" (a
// limit stopped some query) or "ok".
func (r *PointResult) Status() string {
	if r.Error != "" {
		return "error"
	}
	for _, q := range r.Queries {
		if q.Verdict == queries.Error {
			return "error"
		}
	}
	if !r.OK {
		return "missed"
	}
	for _, q := range r.Queries {
		if q.Verdict == queries.Unknown {
			return "unknown"
		}
	}
	return "ok"
}

// CheckOptions tune CheckPoint.
type CheckOptions struct {
	// Traces keeps the witness and counterexample traces (Results[i].Trace).
	// They are built and replayed either way: a verdict whose trace does not
	// replay is reported as an error.
	Traces bool
	// Now is the clock (time.Now when nil).
	Now func() time.Time
	// Cancel, when closed, abandons the running explorations (their
	// queries end unknown).
	Cancel <-chan struct{}
	// Workers, when positive, overrides Options.Workers: the number of
	// goroutines of each exploration (queries.Options.Workers).
	Workers int
}

// CheckPoint compiles the model with the point's parameters and answers
// the sweep's queries there: the queries without deadlock, then those with
// it (queries.Check shares an exploration within each group), each group
// given the time left of the point's timeout.
func (s *Spec) CheckPoint(p Point, co CheckOptions) *PointResult {
	now := co.Now
	if now == nil {
		now = time.Now
	}
	start := now()
	res := &PointResult{Point: p, OK: true}
	defer func() { res.Elapsed = now().Sub(start) }()

	fail := func(err error) *PointResult {
		res.Error = err.Error()
		res.OK = false
		for _, q := range s.Queries {
			res.Queries = append(res.Queries, QueryResult{Query: q.Name, Verdict: queries.Error, OK: false, Error: res.Error})
		}
		return res
	}
	// the point's timeout, its memory limit and the cancellation stop
	// the compilation of its model and queries too (each query then
	// unknown, with the reason); the memory limit holds the process's
	// heap, as it does for the point's searches
	var deadline time.Time
	if t := s.Options.Limits.Timeout; t > 0 {
		deadline = start.Add(t)
	}
	maxMemory := s.Options.Limits.MaxMemory
	var stopped zone.StopReason
	var interrupt func() bool
	if !deadline.IsZero() || co.Cancel != nil || maxMemory > 0 {
		interrupt = func() bool {
			select {
			case <-co.Cancel:
				stopped = zone.Canceled
				return true
			default:
			}
			if !deadline.IsZero() && !now().Before(deadline) {
				stopped = zone.LimitTime
				return true
			}
			if maxMemory > 0 && zone.HeapBytes() > maxMemory {
				stopped = zone.LimitMemory
				return true
			}
			return false
		}
	}
	exps, err := s.expectationsAt(p)
	if err != nil {
		return fail(err)
	}
	unknown := func() *PointResult {
		// as after a search stopped by the limit: a query that expects
		// something at this point misses it, the others pass unknown
		for i := range s.Queries {
			q := &s.Queries[i]
			expected := s.expectsAt(q, exps[i])
			res.Queries = append(res.Queries, QueryResult{Query: q.Name, Verdict: queries.Unknown, Expected: expected, ExpectPos: exps[i].Pos, OK: expected == "", Reason: stopped.String(),
				Error: fmt.Sprintf("%s while the model and its queries were compiled", stopped)})
			res.OK = res.OK && expected == ""
		}
		return res
	}
	net, err := s.ModelFile.CompileWith(s.Overrides(p), model.CompileOptions{Interrupt: interrupt})
	if errors.Is(err, model.ErrInterrupted) {
		return unknown()
	}
	if err != nil {
		return fail(err)
	}
	res.Net = net
	qs := make([]*queries.Query, len(s.Queries))
	bounds := make([]*boundExpect, len(s.Queries))
	for i := range s.Queries {
		qs[i], bounds[i], err = s.compileQuery(net, i, exps[i])
		if errors.Is(err, model.ErrInterrupted) {
			return unknown()
		}
		if err != nil {
			return fail(err)
		}
	}
	net.SetCompileInterrupt(nil)

	opts := s.Options.check()
	// Every witness and counterexample is built and replayed, kept or not:
	// a verdict whose trace does not replay is an error (queries.Check).
	opts.NoTrace = false
	opts.Limits.Cancel = co.Cancel
	opts.Now = now
	if co.Workers > 0 {
		opts.Workers = co.Workers
	}
	if t := s.Options.Limits.Timeout; t > 0 {
		// the point's timeout counts from its start, the model's
		// compilation included (queries.Check makes it one deadline for
		// all its explorations and traces either way)
		opts.Limits.Timeout = 0
		opts.Limits.Deadline = start.Add(t)
	}
	results := queries.Check(zone.NewSystem(net), qs, opts)
	if !co.Traces {
		for _, r := range results {
			r.Trace = nil
		}
	}
	res.Results = results
	for i, r := range results {
		qr := QueryResult{
			Query: s.Queries[i].Name, Verdict: r.Verdict, Expected: r.Query.Expect.Raw,
			Reason: r.Reason.String(), Stored: r.Stats.Stored, Explored: r.Stats.Explored, Explorations: r.Rounds,
		}
		for _, v := range r.Values {
			qr.Values = append(qr.Values, v.String())
		}
		switch {
		case r.Err != nil:
			qr.Error = r.Err.Error()
		case r.Verdict == queries.Error && r.TraceErr != nil:
			qr.Error = r.TraceErr.Error()
		}
		switch {
		case bounds[i] != nil:
			qr.Expected, qr.ExpectPos = exps[i].Raw, exps[i].Pos
			qr.OK, err = bounds[i].holds(net, r)
			if err != nil {
				qr.OK, qr.Error = false, err.Error()
			}
		case r.Query.Expect.Given || r.Query.Expect.MaxStates > 0:
			qr.OK, qr.ExpectPos = r.Matches(), exps[i].Pos
		default:
			qr.OK = r.Verdict != queries.Error
		}
		if !qr.OK {
			res.OK = false
		}
		res.States = max(res.States, r.Stats.Stored)
		res.PeakMemory = max(res.PeakMemory, r.Stats.PeakMemory)
		res.Queries = append(res.Queries, qr)
	}
	return res
}

// expectsAt is what query q expects at a point whose expectation for it
// is e ("" when nothing), without compiling it: the sweep's expectation,
// else the model's where it applies at other parameters (compileQuery:
// Expectation.ForOtherParameters).
func (s *Spec) expectsAt(q *QuerySpec, e RuleExpect) string {
	if e.Raw != "" || !q.FromModel {
		return e.Raw
	}
	fq := s.ModelFile.Query(q.Name)
	if fq == nil {
		return ""
	}
	me, err := queries.ParseExpectation(fq.Expect, q.Kind, fq.ExpectPos)
	if err != nil {
		return fq.Expect
	}
	if me.MaxStates = fq.MaxStates; me.ForOtherParameters().Given {
		return fq.Expect
	}
	return ""
}

// compileQuery compiles query i of the sweep on net with its expectation
// at this point.
func (s *Spec) compileQuery(net *model.Network, i int, e RuleExpect) (*queries.Query, *boundExpect, error) {
	qs := &s.Queries[i]
	var q *queries.Query
	if qs.FromModel {
		list, err := queries.FromFile(net, s.ModelFile, []string{qs.Name})
		if err == nil {
			err = queries.FirstErr(list)
		}
		if err != nil {
			return nil, nil, err
		}
		q = list[0]
		// The model's fixed expectations hold at its own parameters; at
		// a sweep's points only those written as comparisons with the
		// model's constants (`<= U`) apply, as with verify --set.
		q.Expect = q.Expect.ForOtherParameters()
	} else {
		var err error
		q, err = queries.Compile(net, model.NewText(qs.Formula, qs.Pos))
		if err != nil {
			return nil, nil, err
		}
		q.Name = qs.Name
	}
	if e.Raw == "" {
		return q, nil, nil
	}
	if qs.IsValue() {
		b, ok, err := parseBound(e.Raw)
		if err != nil {
			return nil, nil, &model.Error{Pos: e.Pos, Msg: err.Error()}
		}
		if ok {
			if b.op == "=" {
				v, err := b.expr.Eval(net)
				if err != nil {
					return nil, nil, &model.Error{Pos: e.Pos, Msg: err.Error()}
				}
				var vals string
				for k := range q.Terms {
					if k > 0 {
						vals += ", "
					}
					vals += fmt.Sprint(v)
				}
				q.Expect, err = queries.ParseExpectation(vals, q.Kind, e.Pos)
				q.Expect.Raw = fmt.Sprintf("%s (= %s)", vals, b.expr.Src)
				return q, nil, err
			}
			q.Expect.Raw = e.Raw
			return q, &b, nil
		}
	}
	var err error
	q.Expect, err = queries.ParseExpectation(e.Raw, q.Kind, e.Pos)
	return q, nil, err
}

// holds checks a "<= EXPR" / ">= EXPR" expectation: every value, a
// supremum or infimum whether attained or not, must be on the right side of
// the bound; "none" (no state satisfies the condition) meets any bound,
// "inf" none, and an unresolved value (sup "> K", inf "< K") only a bound
// it is known to meet.
func (b *boundExpect) holds(net *model.Network, r *queries.Result) (bool, error) {
	if r.Verdict == queries.Error || r.Verdict == queries.Unknown && len(r.Values) == 0 {
		return false, nil
	}
	k, err := b.expr.Eval(net)
	if err != nil {
		return false, err
	}
	for _, v := range r.Values {
		switch {
		case v.None:
			continue
		case v.Inf:
			return false, nil
		case v.Exceeds:
			// The value is beyond v.Bound in the direction of the
			// extreme: it can still meet a bound on the other side.
			if b.op == "<=" && r.Query.Kind == syntax.QueryInf && v.Bound <= k {
				continue
			}
			if b.op == ">=" && r.Query.Kind == syntax.QuerySup && v.Bound >= k {
				continue
			}
			return false, nil
		}
		if b.op == "<=" && v.Bound > k || b.op == ">=" && v.Bound < k {
			return false, nil
		}
	}
	return true, nil
}

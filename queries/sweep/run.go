package sweep

import (
	"context"
	"runtime"
	"sort"
	"sync"
)

// RunOptions configure Run.
type RunOptions struct {
	// Jobs is the number of points checked at the same time
	// (runtime.NumCPU() when 0).
	Jobs int
	// Check is passed to CheckPoint. With Check.Workers and the spec's
	// Options.Workers both 0, each point gets the cores left to it,
	// GOMAXPROCS / Jobs (at least 1).
	Check CheckOptions
	// Stop, when closed, stops Run from starting points; Run returns when
	// the points already running have finished.
	Stop <-chan struct{}
	// OnStart is called when a point starts and OnDone when it finishes.
	// Both are called from one goroutine at a time (never concurrently),
	// OnDone in completion order, and never after Run has returned.
	OnStart func(p Point)
	OnDone  func(r *PointResult)
}

// Run checks points, Jobs at a time, and returns the results of the points
// that finished, in point order. When ctx is cancelled Run returns at once
// with the points finished so far: the explorations in flight are
// cancelled too (ctx.Done() is their CheckOptions.Cancel unless the caller
// set one), and whatever they return afterwards is dropped. When opts.Stop
// is closed Run starts no more points and returns when the running ones
// have finished.
func (s *Spec) Run(ctx context.Context, points []Point, opts RunOptions) []*PointResult {
	jobs := opts.Jobs
	if jobs <= 0 {
		jobs = runtime.NumCPU()
	}
	if opts.Check.Workers <= 0 {
		opts.Check.Workers = s.Options.Workers
	}
	if opts.Check.Workers <= 0 {
		// the cores left to each point: -j points × --workers per point
		// never exceed the cores unless both are asked for. Jobs, not the
		// points left, divides them, so that a point's statistics do not
		// depend on how many points run beside it (a resumed sweep).
		opts.Check.Workers = max(1, runtime.GOMAXPROCS(0)/jobs)
	}
	jobs = min(jobs, max(len(points), 1))
	var (
		mu      sync.Mutex // serialises the callbacks and guards returned
		returnd bool
		out     []*PointResult
		wg      sync.WaitGroup
	)
	todo := make(chan Point)
	done := make(chan struct{})
	for range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range todo {
				mu.Lock()
				if returnd {
					mu.Unlock()
					return
				}
				if opts.OnStart != nil {
					opts.OnStart(p)
				}
				mu.Unlock()
				co := opts.Check
				if co.Cancel == nil {
					co.Cancel = ctx.Done()
				}
				r := s.CheckPoint(p, co)
				mu.Lock()
				if !returnd {
					out = append(out, r)
					if opts.OnDone != nil {
						opts.OnDone(r)
					}
				}
				mu.Unlock()
			}
		}()
	}
	go func() {
		defer close(todo)
		for _, p := range points {
			select {
			case <-ctx.Done():
				return
			case <-opts.Stop:
				return
			default:
			}
			select {
			case todo <- p:
			case <-ctx.Done():
				return
			case <-opts.Stop:
				return
			}
		}
	}()
	go func() {
		wg.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-ctx.Done():
	}
	mu.Lock()
	returnd = true
	res := out
	mu.Unlock()
	sort.Slice(res, func(i, j int) bool { return res[i].Index < res[j].Index })
	return res
}

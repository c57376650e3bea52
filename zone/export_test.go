package zone

// SearchParallelForTest runs the parallel driver even with one worker, to
// measure its machinery against the sequential Search.
func SearchParallelForTest(sys *System, opts Options, newVisitor func() Visitor) Result {
	return searchParallel(sys, opts, newVisitor)
}

// Package queries answers UPPAAL's symbolic queries on a compiled model:
// E<> φ, A[] φ, sup/inf, E[] φ, A<> φ and φ --> ψ, with traces that are
// concrete, replayed runs of the model. See docs/queries.md for the query
// language and the meaning of every answer.
//
// # Checking
//
// Check groups the queries so that those needing the same abstraction
// share one exploration of the zone graph (package zone): one group without
// `deadlock` (Extra_LU+ by default), one with it (Extra_M+, which preserves
// deadlocks; Behrmann, Bouyer, Larsen, Pelánek, STTT 2006). The clock
// constants of the formulas join the extrapolation bounds, so abstraction
// never changes a verdict; diagonal constraints switch to Extra_M with zone
// splitting (Bengtsson and Yi 2004). A deadlock query is first decided
// on the stored zones of the Extra_LU+ exploration, an over-approximation,
// and its own clock constants join the bounds only once a coarser try
// without them has met its goal (exploreTry). A formula is decided on a symbolic
// state by zone.Checker, which puts it in negation normal form and splits
// its clock part into zones.
//
// sup/inf over a clock gives the clock an extra bound K and explores again
// with 2K while the answer reaches K (supState), so a printed value is
// exact, unless it sees first that the clock grows forever: a cycle that
// forces time to pass (growsForever, unbounded.go), or a concrete run
// that lets it pass forever and then reaches the condition, solved as
// difference constraints over its times and replayed (repeatsWithTime,
// repeat.go). E[], A<> and --> are decided on the explicit abstract zone graph
// (zone.BuildGraph) by strongly connected components (liveness.go); under
// the symmetry reduction that graph is its quotient by the permutations of
// the scalar sets, whose paths zone.Graph.Run maps back to runs of the
// model (a cycle repeated until the run closes it).
//
// # Traces
//
// A trace is computed from the moves of a path in three steps
// (trace.go): the exact zones along the path are recomputed without
// extrapolation (symbolicPath); concrete delays are chosen backwards so
// that every guard and invariant holds, with rational clock values over one
// denominator (concretise; where that step-by-step choice fails, all the
// run's times are solved at once, concretiseByTimes); and the run is
// replayed by Replay (replay.go),
// which implements the concrete semantics of UPPAAL independently of the
// symbolic engine. A trace that does not replay is reported as an internal
// error, never printed.
//
// # Expectations
//
// A query may carry an expectation (`expect:` in the model file): a verdict,
// or for sup/inf a value or a comparison with a constant expression of the
// model (`<= U`). Result.Matches compares; tcheck verify, tcheck test and
// tcheck sweep turn mismatches into exit code 1.
package queries

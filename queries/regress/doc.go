// Package regress checks models in the way unit tests check code: the
// engine behind `tcheck test` (reference: docs/sweep.md, "tcheck test").
//
// Discover finds the files to check: model files whose queries carry
// `expect:` values (and `max-states:` bounds), and sweep files
// (*.sweep.yaml, package sweep) with expectations per point. CheckFile
// checks one file: every selected query with an expectation becomes a
// Case (for sweep files, every query with an expectation at every point),
// which passes when the result meets the expectation (queries.Result.
// Matches), fails otherwise (a limit that leaves the answer unknown
// fails), and errors when the model raises a runtime error. A file that
// does not parse or compile is an error as a whole.
//
// The reports follow go test: WriteFile prints the failures with the
// expected and the actual answer, the expectation's position and the
// result with its replayed trace, then one line per file; WriteSummary
// ends with "N passed, N failed". JSON and WriteJUnit give the same for
// tools and CI systems.
//
// Update rewrites the expect: values of failed cases from the current
// answers, editing only the bytes of each expect scalar (so comments,
// order and formatting stay), and refuses to write a file whose reparsed
// model differs in anything but those expectations.
package regress

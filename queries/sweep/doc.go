// Package sweep checks a model's queries over a grid of parameter values:
// the engine behind `tcheck sweep` (docs/sweep.md is the user's reference).
//
// # Points and their order
//
// A sweep (Spec) names a model, queries, a grid and an optional filter. The
// grid is a union of blocks; each block is the cartesian product of its
// axes, enumerated like nested loops written in axis order (the first axis
// varies slowest, the last fastest); blocks follow one another. The filter
// (`where`) is an expression over the parameters. The points that pass it
// are numbered 0, 1, ... in enumeration order: Point.Index. The index fixes
// the order of every output, whatever order the points finish in, and the
// shard of a point: shard i of n holds the points with Index mod n = i.
//
// # Checking a point
//
// CheckPoint compiles the model with the point's parameters (Spec.Set and
// the point's values override the model's parameters) and answers the
// queries there with queries.Check, in two groups as Check shares
// explorations (the queries without deadlock, those with it), each group
// given the time left of the point's timeout.
// The model file's own expectations hold at its default parameters and are
// ignored; the sweep's expectations (Spec.Expect, rules selected by `when`
// conditions, later rules overriding earlier ones) are checked instead.
//
// # Running and results
//
// Spec.Run checks points in parallel and reports each finished point
// through a callback, serialised, in completion order; the results it
// returns are in index order. Result files are JSON Lines: a header line
// (Header: the sweep, with the model's SHA-256, so that results of
// different sweeps are never mixed) and one line per point, in any order;
// ReadResults also reads the --format json document.
//
// # Resuming and merging
//
// A Journal is a result file written as points finish, one whole line at
// a time, so that a stopped or killed run leaves a valid file. A Session
// (OpenSession) runs points with their results recorded in journals: its
// Resume file's points are skipped and the new ones appended, and at the
// end every file is rewritten in index order, so that a run resumed any
// number of times leaves the same file as one uninterrupted run. A file of
// another sweep is refused (ErrOtherSweep). Merge and MergeFiles join the
// files of a sweep's shards into the result of a single run: the union
// ordered by index, so that Write prints exactly what a single run prints;
// files of different sweeps, files cut off by a kill, points whose index
// means other parameters in another file, points given twice and (unless
// MergeOptions.Partial) missing points are refused. `tcheck sweep
// --resume`, `--out FILE.jsonl` and `tcheck sweep merge` are these
// functions, with flags, signals and a progress bar around them.
//
// The core is deterministic: given a spec and the same engine, every
// output is the same bytes except the time and memory fields (last in
// every format, omitted with WriteOptions.Stable).
package sweep

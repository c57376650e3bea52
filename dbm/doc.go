// Package dbm implements difference bound matrices (DBMs), the symbolic
// representation of clock zones used by tcheck, together with federations
// (finite unions of zones) and the extrapolations that make the zone graph
// finite. It uses only the standard library.
//
// # Zones and the matrix layout
//
// A zone over clocks x_1, …, x_{n−1} is a conjunction of constraints
// x_i − x_j ≺ c with ≺ ∈ {<, ≤} and integer c. Clock x_0 is the constant 0,
// so x_i − x_0 ≺ c is the upper bound x_i ≺ c and x_0 − x_j ≺ c is the lower
// bound x_j ≻ −c. A [DBM] of dimension Dim = n stores one bound per ordered
// pair in a flat row-major slice:
//
//	entry (i, j) is M[i*Dim + j] and bounds x_i − x_j   (0 ≤ i, j < Dim)
//	row 0    (0, j): −x_j ≺ c, lower bounds            (c ≤ 0: clocks are ≥ 0)
//	column 0 (i, 0):  x_i ≺ c, upper bounds
//	diagonal (i, i): always ≤ 0 in a closed non-empty DBM
//
// For example the zone 1 ≤ x1 ≤ 3 ∧ x1 − x2 < 1 (Dim = 3) is, closed,
//
//	      0     x1    x2
//	0     <=0   <=-1  <0
//	x1    <=3   <=0   <1
//	x2    <inf  <inf  <=0
//
// # Bounds
//
// A [Bound] encodes "≺ c" in an int32 as (c << 1) | 1 for ≤ and c << 1 for
// <, as in UDBM: integer order is the order of tightness, min is
// intersection, and the sum of two bounds is (c1 + c2) with ≤ only if both
// are ≤. [LTInf] is "< ∞" (no constraint); there is no "≤ ∞". Constants of
// a model must lie in [−MaxConst, MaxConst] (package model rejects others,
// [CheckConst] tests the range); sums are
// computed in 64 bits and saturate at the representable range, which debug
// builds report as a panic.
//
// # Conventions
//
// Clocks are non-negative: every DBM the package builds has row 0 ≤ 0. Bound
// arrays for extrapolation (M, L, U) are indexed by clock with [0] the
// reference clock, always 0, and [NoBound] for a clock that is never
// compared. Operations take closed (canonical, all-pairs shortest path)
// non-empty DBMs and leave them closed; emptiness is reported as a bool,
// never an error, and marked in place (M[0] < ≤0) so that [DBM.IsEmpty] is
// O(1). A DBM is a header around a slice: methods mutate the shared matrix
// in place, and [DBM.Clone] copies it. Hot operations (Close, Constrain,
// Up, Down, Reset, Free, Relation, the extrapolations) do not allocate.
//
// Every exported operation documents its preconditions and postconditions
// and says which are checked. Cheap checks (dimensions, clock indices) are
// always on; the closure and validity invariants ([DBM.IsClosed],
// [DBM.IsValid], O(Dim³)) are checked after each operation only when built
// with -tags tcheckdebug, which CI runs.
//
// Points of a zone are rational valuations given as numerators over one
// common denominator ([DBM.Contains], [DBM.Point]), so that boundaries and
// strict bounds can be represented exactly in traces.
//
// # References
//
//   - J. Bengtsson, W. Yi, "Timed automata: semantics, algorithms and
//     tools", Lectures on Concurrency and Petri Nets, LNCS 3098, 2004:
//     closure, delay, reset, normalisation, zone splitting for diagonal
//     constraints.
//   - G. Behrmann, P. Bouyer, K. G. Larsen, R. Pelánek, "Lower and upper
//     bounds in zone-based abstractions of timed automata", STTT 8(3),
//     2006: Extra_M, Extra_M^+, Extra_LU, Extra_LU^+.
//   - K. G. Larsen, F. Larsson, P. Pettersson, W. Yi, "Efficient
//     verification of real-time systems: compact data structure and
//     state-space reduction", RTSS 1997: minimal constraint systems.
//   - UDBM (the UPPAAL DBM library) for the bound encoding and the
//     operation contracts; TChecker for the DBM interface.
package dbm

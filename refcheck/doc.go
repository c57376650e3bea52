// Package refcheck is an independent reference checker for networks of timed
// automata, used by the differential tester (issue 12) to check tcheck's
// symbolic engine. It shares nothing with packages zone, dbm and queries: it
// uses only the compiled model (package model: guards, updates, invariants,
// formulas) and decides E<>, A[], sup and inf over a clock or a data
// expression and the liveness queries E[], A<> and --> (liveness.go) by an
// explicit exploration of the region graph.
//
// # Theory
//
// Regions are those of Alur and Dill, "A theory of timed automata",
// Theoretical Computer Science 126(2):183-235, 1994 (Section 4). Every clock
// x has a ceiling C(x), at least the largest constant x is compared with in
// the model and the query. A region fixes, for every clock, either its
// integer part k ≤ C(x) and whether its fractional part is zero, or that
// x > C(x) ("beyond the ceiling"); and, for the clocks not beyond their
// ceiling, the order of their nonzero fractional parts. Two valuations of
// one region satisfy the same constraints x ≺ c and c ≺ x with c ≤ C(x)
// (Alur and Dill, Lemma 4.5), and region equivalence is a time-abstract
// bisimulation (Lemma 4.4): every valuation of a region has a time successor
// in the next region (the "time successor" of Definition 4.7) and the image
// of a region under a reset x := c is a region. Since the initial region is
// the single valuation 0, the set of reachable valuations of a discrete
// state is exactly a union of regions: every valuation of a reachable region
// is reachable (by induction over the region path, each step being an image
// or a time successor of a region, and both cover their whole target). So a
// formula that each region decides (all its valuations agree) is reachable
// iff it holds in some reachable region, which is what Reachable computes.
//
// The checker never guesses: a constraint whose truth the region does not
// determine (a data-dependent constant above the ceiling, a diagonal
// x - y ≺ c over a clock beyond its ceiling) makes it raise the ceiling and
// explore again, up to a cap, and answer Unsupported past it.
//
// # Semantics
//
// The moves are UPPAAL's (Behrmann, David, Larsen, "A Tutorial on UPPAAL",
// SFM-RT 2004, Section 2; tcheck's docs/model-format.md and docs/queries.md):
//
//   - a delay is allowed unless some process is in a committed or urgent
//     location or a synchronisation on an urgent channel is enabled (its
//     data guards hold: urgent edges have no clock guards), and every
//     valuation passed must satisfy the invariants (invariants are upper
//     bounds, so checking the target region of each time step suffices);
//   - internal moves of one process; binary synchronisations of a sender
//     c! and a receiver c? in distinct processes; broadcasts, in which the
//     sender and, from every other process with an enabled receiving edge on
//     the channel, one such edge join (one move per combination);
//   - guards (data and clock) are evaluated on the source state, channel
//     indices too; updates run sender first, then the receivers in process
//     order, and the clock resets they record apply in that order;
//   - while a process is in a committed location only moves in which a
//     process leaves a committed location are allowed;
//   - the target must satisfy every process's invariant (clock and data
//     part), otherwise the move does not exist;
//   - a runtime error (an assignment out of range, ...) raised by a reachable
//     move, a guard or invariant evaluated in a reachable state, or the query
//     formula, is a model error (*ModelError), whatever the query's answer.
//
// deadlock holds in a state when no move is possible in it nor after any
// allowed delay (docs/queries.md): it is computed along the chain of time
// successors of each region, and is a property of the region (bisimulation).
//
// # Sup
//
// sup{φ}: x is the maximum, over the reachable regions where φ holds, of the
// supremum of x over the region: k when x's fractional part is zero
// (attained), k+1 not attained ("<k+1") when it is not. The ceiling of x is
// raised to Options.SupCeiling (default 64), so these values are exact below
// it. A region where φ holds and x is beyond its ceiling proves only
// sup > C(x) (SupValue.AtLeast), unless x is shown unbounded there
// (SupValue.Inf), which needs time to diverge without x being reset. For
// that, Sup explores with one more clock, the tick clock: it belongs to no
// process, has ceiling 1 and is set back to 0 whenever a time step makes it
// reach 1, so such a step ("a tick") witnesses that one more time unit has
// passed. In the region graph restricted to the edges that do not reset x,
// a strongly connected component with a tick inside has a cycle that every
// valuation of its regions can follow forever (Alur and Dill, Lemma 4.4:
// each step of a region path can be taken from every valuation of its
// source region), m turns of which take at least m-1 time units; x, never
// reset, grows without bound in those regions, and in every region reached
// from them by edges that do not reset x: Inf is sound. It is also
// complete: if x takes arbitrarily large values in regions where φ holds,
// take a run to such a valuation with x > c + n + 1, where c is the largest
// value x is reset to and n the number of regions. Time passes more than n
// units since x's last reset, so the tick clock (the fractional part of
// the total time) reaches 1 more than n times on that stretch of the path:
// two ticks leave the same region, a cycle with a tick that does not reset
// x, from which the final region is reached without resetting x. So x is
// unbounded exactly when Sup says Inf, and AtLeast means a finite
// supremum above the ceiling.
//
// # Inf and data terms
//
// inf{φ}: x (Inf) is the minimum, over the reachable regions where φ
// holds, of the infimum of x over the region: k where x's fractional part
// is zero (attained), k not attained (">k") where it is not, with x's
// ceiling raised to Options.SupCeiling as for Sup. A region beyond the
// ceiling C gives only that the values there exceed C (">=C"): its
// valuations are one region whatever their distance above C. sup{φ}: e
// and inf{φ}: e over a data expression (Data) take e's largest or
// smallest value on the discrete parts of the reachable regions where φ
// holds; a runtime error of e there is a ModelError.
//
// # What is not supported
//
// Models with stopwatches (clock rates x' == e in invariants): their
// reachability is undecidable and regions are no finite bisimulation once
// clocks advance at different rates; every entry point returns
// Unsupported. Liveness formulas that test clocks or deadlock (tcheck
// refuses them too). Diagonal constraints
// x - y ≺ c are decided while both clocks are below their ceilings and
// raise the ceilings otherwise; when the clocks grow without bound that
// ends in Unsupported (regions lose x - y beyond the ceilings).
package refcheck

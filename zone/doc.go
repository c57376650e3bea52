// Package zone explores the zone graph of a compiled network of timed
// automata (package model): symbolic states (location vector, variable
// vector, DBM), their successors under UPPAAL's semantics, extrapolation,
// the passed and waiting lists with zone inclusion, and the search loop with
// statistics and limits.
//
// # Symbolic semantics
//
// A symbolic state is (l, v, Z) where l is the location vector, v the
// variable vector and Z a closed DBM (package dbm). Its zone is always delay
// closed where delay is allowed and constrained by the invariants of l. The
// successor along a transition t with clock guard g, resets r and target l'
// is (Bengtsson and Yi, "Timed automata: semantics, algorithms and tools",
// 2004, Sect. 4):
//
//	Z' = ((Z ∧ g)[r := vals] ∧ Inv(l'))↑ ∧ Inv(l')
//
// where the delay ↑ is omitted when l' has a committed or urgent location or
// an urgent synchronisation is enabled in (l', v'). The zone is dropped if
// empty; a successor the passed list keeps is then extrapolated (see
// Extrapolation and below).
//
// Transitions follow UPPAAL: an internal edge; a binary synchronisation of a
// sender c! and a receiver c? in another process, the sender's update first;
// a broadcast c! with every other process that has an enabled c? edge joining
// (one successor per combination of their enabled receiving edges), updates
// in the order sender, then receivers by process index. Data guards are
// evaluated on the source state before any update. If any process is in a
// committed location, only transitions involving such a process are allowed
// and time does not pass.
//
// # Passed and waiting lists
//
// The passed list is keyed on the packed discrete part (locations and
// variables); each key holds the zones stored for it. A successor whose zone
// is included in a stored zone is covered and dropped; stored zones included
// in a new one are evicted and marked covered so the waiting list skips them
// (TChecker's covreach with full covering). The test is made on the exact
// successor, before its extrapolation, so that only the successors kept
// are extrapolated: what includes the exact zone covers it, and what does
// not include it cannot include its extrapolation either
// (Options.AbstractFirst extrapolates first, as TChecker does, which may
// keep more zones). With Options.Subsumption = ALU,
// "included in" becomes "included in the aLU abstraction of", both ways
// (Herbreteau, Srivathsan, Walukiewicz, LICS 2012; TChecker's aLU-covreach),
// under the LU bounds of the location vector that the extrapolation uses;
// ResolveSubsumption says where it falls back to inclusion (convex hull,
// Extra_M/M+ as for deadlock, no extrapolation, diagonal constraints).
// Stored states hold no Go pointer (nodestore.go): records in segments,
// zones and discrete parts in a byte slab, nodes naming each other by
// index; Node is a handle on one for visitors and traces.
//
// The search is breadth-first by default (shortest traces) or depth-first,
// and deterministic: successors are generated in process and edge order,
// and nothing ranges over a Go map.
package zone

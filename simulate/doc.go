// Package simulate runs seeded random executions of a network of timed
// automata under its concrete semantics, and monitors properties along them.
//
// A run starts in the initial state with every clock at zero. At each state
// the simulator enumerates the moves whose data guards hold (the committed
// rule, binary synchronisation with one receiver, broadcast with every
// enabled receiver joining), and computes for each the interval of delays
// after which it can be taken: the source invariants, the clock guards and
// the target invariants after the move's updates and resets, and no delay at
// all in a committed or urgent location or while an urgent synchronisation is
// enabled. A strategy then picks a move and a delay in its interval: delays
// are exact rationals on a grid of 1/D (D drawn per run, refined when an
// interval holds no grid point), biased towards the bounds of the interval,
// where guards and invariants make the interesting things happen.
//
// Two strategies are provided. Random picks a move uniformly among those
// that can be taken. PCT is probabilistic concurrency testing (Burckhardt,
// Kothari, Musuvathi, Nagarakatte, "A Randomized Scheduler with Probabilistic
// Guarantees of Finding Bugs", ASPLOS 2010), the priority scheduler that P#
// uses for systematic testing (Deligiannis et al.): the processes get random
// distinct priorities, d-1 priority change points are drawn among the steps
// of the run, and the move taken is always one of the highest-priority process
// that has one (a move belongs to its sender or its only process); at the
// i-th change point the process about to move drops below every other
// process. Time is part of a move: the delay is drawn in the move's interval,
// so a high-priority process that must wait lets time pass, and lower
// priority processes move when it has nothing to do.
//
// Properties are monitored along every run: an E<> φ query is reached, an
// A[] φ query violated, when φ (resp. ¬φ) holds at some point of the run,
// including the points in the middle of a delay (the formula is evaluated
// at each point where one of its clock constraints changes truth value and
// in each open interval between them, and deadlock where the last move's
// interval closes). Every reported run is a queries.Trace that is replayed
// with queries.Replay, the checker's independent concrete semantics, before
// it is reported.
//
// Everything is deterministic: run i of seed s draws from a PCG generator
// seeded with (s, i), and nothing depends on maps or timing.
package simulate

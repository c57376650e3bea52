// Package model is tcheck's modelling front end: it reads a network of timed
// automata written in the YAML model format (docs/model-format.md) with
// UPPAAL's C-like declarations, checks it, instantiates its templates and
// compiles it into the Network that the engine (package zone) explores and
// the query layer (package queries) evaluates formulas on.
//
// # Pipeline
//
//	Parse(filename, src)  → *File      structure only: YAML keys, scalars,
//	                                    code snippets with their positions
//	(*File).Compile(set)  → *Network   parameters → global declarations →
//	                                    templates (parsed once) → system
//	                                    declarations → one process per
//	                                    instance and free-parameter value →
//	                                    static clock bounds
//	Network.CompileFormula / CompileTerm   state formulas and sup/inf terms
//
// (*File).CompileWith bounds a compilation by an interrupt that the compiler
// polls (every few hundred expressions, select combinations and processes,
// and in the queries compiled against the network until
// SetCompileInterrupt lifts it): the commands' --timeout, --max-memory and
// Ctrl-C stop a compilation with ErrInterrupted as they stop a search.
//
// File is format-neutral: importers of UPPAAL's XML and XTA formats can fill
// it and share the checker. Every error is a *Error whose text starts with
// file:line:col; positions inside code snippets are mapped back through the
// YAML scalar (plain, quoted, folded or literal block) they came from.
//
// # Data layout of the compiled network
//
// Variables. The state's data is one vector of int32, Network.Vars
// describing each slot: global variables first, in declaration order, then
// each process's non-constant parameters and local variables, in process
// order. Arrays are flattened row-major: `bool buff[3][4][3]` occupies 36
// consecutive slots, element [i][m][j] at base + (i*4 + m)*3 + j, named
// "buff[i][m][j]"; template-local variables are named "Proc(1).msg". Bools
// hold 0 or 1 (any other value assigned to a bool is normalised to 1, as in
// C and UPPAAL). Constants, template parameters declared const and select
// values are folded into the compiled code and occupy no slot.
//
// Clocks. Network.Clocks[0] is the reference clock 0; the others follow in
// the same order as variables ("t", "Process.x", "Broadcast(1).x"). A clock
// constraint x_I - x_J ≺ c is a ClockConstraint{I, J, Strict, Const}: x ≤ 3
// is {x, 0, false, 3}, x > 3 is {0, x, true, -3}, x - y < 2 is {x, y, true,
// 2}. Bound arrays (Network.GlobalL/U, Location.L/U) are indexed by clock,
// with [0] = 0 and NoBound for a clock never compared from that side.
//
// Channels. Network.Chans lists every channel, arrays flattened ("b[2]").
// An edge's Sync is the index of its channel, or -1 with SyncExpr set when
// the index depends on variables.
//
// Compiled code. Guards, invariants' data parts, updates, functions and
// formulas are closures over an *Env (Vars, Locs, Resets, Err). They never
// allocate: function calls reserve a frame on Env's preallocated stack
// (Network.NewEnv sizes it), parameters by value and locals live in the
// frame, reference parameters hold a unified address (a ≥ 0 is Vars[a],
// a < 0 is frame[-a-1]). A runtime error (an assignment outside the
// declared range, an index out of bounds, a division by zero, a loop that
// does not terminate) sets Env.Err with the position of the offending
// expression and the value; the store is not performed. The engine checks
// Env.Err after each call and reports the state with a trace. Compiled code
// keeps no state outside the Env, so goroutines may evaluate it at the same
// time, each with its own Env.
//
// Compiling query formulas (CompileFormula, CompileTerm) only reads the
// compiled network (and calls its compile interrupt, if one is set) and
// may also run concurrently.
//
// # Semantics followed (UPPAAL 4)
//
// Updates run left to right; a synchronisation runs the sender's update
// before the receiver's (the engine's job, using Edge.Update). Selects are
// expanded: one Edge per value combination, first binding slowest, values
// recorded in Edge.Select. Free parameters of a template or partial
// instantiation listed in the system line create one process per value
// combination, named "Proc(0)", "Broadcast(0,2)"; a process without free
// parameters keeps its name. The default int range is [-32768, 32767].
//
// Static clock bounds follow Behrmann, Bouyer, Fleury, Larsen, "Static
// guard analysis in timed automata verification" (TACAS 2003); see
// clockBounds for what is done with resets to non-zero values, data-
// dependent bounds and diagonals.
package model

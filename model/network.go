package model

// This file is the contract between the model front end and the engine
// (package zone) and the query layer (package queries): the compiled form of
// a network of timed automata. Everything here is fully instantiated:
// template parameters, constants and select values are folded, processes are
// numbered, variables and clocks are flat vectors.

// NoBound marks a clock with no lower/upper bound constant in a bound array
// (the clock is never compared from that side). It is -2^29, below every
// bound a model can give (-MaxClockConst); the engine maps it, and anything
// below it, to dbm.NoBound (-2^30) when it builds extrapolation bounds.
const NoBound int32 = -(1 << 29)

// MaxClockConst is the largest constant, in absolute value, that a clock
// constraint or a clock reset may use: 2^29 - 1, the same as dbm.MaxConst
// (package model does not import dbm; a test in package zone checks that
// the two agree). Sums of two such constants stay representable in the
// DBM's encoded bounds. A constant written in the model outside this range
// is a load error; one computed from data at run time is a runtime error.
const MaxClockConst = 1<<29 - 1

// Network is a compiled network of timed automata.
type Network struct {
	Name   string
	File   string  // the model file, for messages ("" for in-memory models)
	Params []Param // the model's parameters with their values after --set

	// Vars is the layout of the integer variable vector (bools are 0/1).
	// Arrays are flattened row-major, one slot per element.
	Vars []Var
	// Clocks lists the clocks; Clocks[0] is the reference clock "0".
	Clocks []Clock
	// Chans lists the channels; arrays are flattened, one entry per element.
	Chans []Chan
	// Procs lists the processes in system order.
	Procs []*Process
	// Scalars lists the scalar sets (typ.scalar k is Scalars[k-1]); see
	// symmetry.go for what the symmetry reduction reads.
	Scalars []ScalarSet

	// GlobalL and GlobalU are the largest lower/upper bound constants each
	// clock is compared with anywhere in the model (guards and invariants),
	// indexed by clock; [0] is 0; NoBound where a clock is never compared.
	GlobalL, GlobalU []int32
	// Diagonals lists the diagonal clock constraints (x_i - x_j ≺ c, i,j ≠ 0)
	// that occur in guards or invariants; LU/M extrapolation is unsound when
	// this is non-empty.
	Diagonals []ClockConstraint
	// MaxReset bounds the values clocks are reset to (0 where every reset
	// is to 0). A diagonal x - y ≺ c compared after x = v is the constraint
	// y ≻ v - c on y's value at the reset: the abstraction must keep y
	// exact up to |c| + MaxReset wherever the diagonal may be compared
	// later, whether it is a guard's, an invariant's or a query's
	// (DiagonalBound).
	MaxReset int32
	// Stopwatches is set when some invariant sets a clock rate (x' == e):
	// the zone graph is then an over-approximation (see Network.Stopped).
	Stopwatches bool

	// Progress is the model's progress measure (nil: none): an integer
	// expression over the discrete state (variables and locations) that
	// the progress search order explores in increasing order, breadth
	// first among equal values (the sweep-line method's progress measure,
	// Christensen, Kristensen and Mailund, TACAS 2001). It changes the
	// order only, never a verdict; ProgressSrc is its source text.
	Progress    IntExpr
	ProgressSrc string

	// Priorities is set when the model declares channel priorities
	// (chan priority) or process priorities (system A < B): an action
	// transition is then taken only where no transition of strictly higher
	// priority is enabled (UPPAAL's rule; see Network.Priority).
	Priorities bool
	// ChanLevel is the priority level of each channel (index into Chans),
	// and TauLevel that of internal transitions and of every channel the
	// declaration does not list (its `default`); all 0 without chan
	// priority.
	ChanLevel []int32
	TauLevel  int32

	// compiler state kept for compiling query formulas (unexported).
	scope any
}

// Priority is the priority of a transition whose sender (or only edge)
// synchronises on channel ch (-1: internal) and in which the processes
// procs take part: the channel's level first, then the highest level of
// the processes (UPPAAL: "priorities are resolved by comparing priorities
// on channels first; if they are the same, the process priorities are
// compared", and a synchronisation has "the highest priority of the
// processes"). Larger is higher; the order is total.
func (n *Network) Priority(ch int32, procs func(yield func(int32) bool)) int64 {
	cl := n.TauLevel
	if ch >= 0 && int(ch) < len(n.ChanLevel) {
		cl = n.ChanLevel[ch]
	}
	pl := int32(0)
	for p := range procs {
		pl = max(pl, int32(n.Procs[p].Priority))
	}
	return int64(cl)<<32 | int64(pl)
}

// Param is a model parameter (an integer constant that --set overrides).
type Param struct {
	Name  string
	Value int64
}

// Var is one slot of the variable vector.
type Var struct {
	Name     string // e.g. "alive", "buff[0][1][2]", "Observer.cnt"
	Min, Max int32  // the declared range; an assignment outside it is a runtime error
	Init     int32
	Bool     bool
	// Proc is the owning process of a template-local variable (-1:
	// global); Scalar the scalar set of its values (0: none); Dims its
	// array dimensions indexed by a scalar set.
	Proc   int
	Scalar int
	Dims   []ScalarDim
}

// Clock is one clock. Proc is the owning process for a template-local clock,
// -1 for a global clock.
type Clock struct {
	Name string // e.g. "t", "Process.x", "Broadcast(1).x"
	Proc int
	Dims []ScalarDim // array dimensions indexed by a scalar set
}

// Chan is one channel.
type Chan struct {
	Name      string // e.g. "b[2]"
	Broadcast bool
	Urgent    bool
}

// Process is one instantiated template.
type Process struct {
	Index    int
	Name     string // e.g. "Observer", "Proc(1)", "Broadcast(0,2)"
	Template string
	// Family names the processes made from one name of the system line
	// with the same values of their free parameters that are not of a
	// scalar set; ScalarArgs are the values of those that are, in
	// parameter order (see symmetry.go).
	Family string
	// Priority is the process's priority level on the system line
	// (system A < B, C: A 0, B and C 1).
	Priority   int
	ScalarArgs []ScalarArg
	Locations  []Location
	Edges      []Edge // in template order; select expanded in value order
	Initial    int    // index into Locations
}

// Location is a location of a process.
type Location struct {
	Name      string
	Committed bool
	Urgent    bool
	// Invariant holds the clock part of the invariant (upper bounds, and
	// diagonals if written); InvData the data part (nil when none). A state
	// whose data part is false is not a valid state.
	Invariant []ClockConstraint
	InvData   BoolExpr
	// Rates are the clock rates the invariant sets (UPPAAL's stopwatches,
	// x' == e), in the order written; nil in a timed automaton. A clock
	// whose rate is 0 in any process's current location does not advance
	// while time passes (see Network.Stopped).
	Rates []ClockRate
	// Out lists the indices (into Process.Edges) of the edges leaving this
	// location, in template order.
	Out []int
	// L and U are the per-location clock bounds (Behrmann, Bouyer, Fleury,
	// Larsen, TACAS 2003), indexed by clock: the largest constant the clock
	// can be compared with from below/above from here on before a reset,
	// considering this process's own automaton. The bound of a location
	// vector is the maximum over its processes. NoBound where none.
	L, U []int32
	Src  string // the invariant as written (for printing)
}

// ClockRate is the conjunct x' == e of an invariant: clock Clock has rate
// Const (0 or 1) or, when Value is not nil, the value of Value in the
// current state, which must be 0 or 1 (anything else is a runtime error at
// Pos, raised by Value).
type ClockRate struct {
	Clock int
	Const int32
	Value IntExpr
	Src   string // the conjunct as written, for messages
}

// ClockConstraint is x_I - x_J ≺ c where ≺ is < when Strict, ≤ otherwise.
// J = 0 for an upper bound on x_I, I = 0 for a lower bound on x_J.
// When Value is nil the constant is Const; otherwise Value computes it from
// the variable vector (a constraint whose constant depends on data).
type ClockConstraint struct {
	I, J   int
	Strict bool
	Const  int32
	Value  IntExpr

	// lo, hi bound the values Value can return (= Const when Value is
	// nil); the static clock-bound analysis uses them (internal).
	lo, hi int64
}

// Edge is a compiled edge. Selects are expanded: one Edge per combination of
// select values, which are recorded in Select for printing traces.
type Edge struct {
	Index    int // index in Process.Edges
	Proc     int
	From, To int
	Select   []SelectValue

	Guard      BoolExpr          // data guard, nil = true
	ClockGuard []ClockConstraint // conjunction of clock constraints

	// Sync is the channel index into Network.Chans (-1 for none). If the
	// channel depends on data (`c[v]!` with v a variable), SyncExpr computes
	// it instead (and Sync is -1).
	Sync     int
	SyncExpr IntExpr
	Send     bool // '!' (true) or '?' (false)
	// BroadcastRecv marks an edge that receives on a broadcast channel.
	// Its clock guard (allowed since UPPAAL 4.1) decides where the process
	// takes part: it receives wherever a receiving edge is enabled and
	// stays out elsewhere, so the guard is also used negated (the clock
	// bounds count both).
	BroadcastRecv bool

	// Update runs the data assignments and records clock resets in
	// Env.Resets in execution order. nil = no update.
	Update Action

	GuardSrc, SyncSrc, UpdateSrc, SelectSrc, Comment string // as written
}

// MaxReceiverGuard is the largest number of constraints in the clock guard
// of an edge receiving on a broadcast channel (the engine names one of them
// in a move where the process stays out).
const MaxReceiverGuard = 1<<12 - 1

// HasSync reports whether the edge synchronises on a channel.
func (e *Edge) HasSync() bool { return e.Sync >= 0 || e.SyncExpr != nil }

// SelectValue is the value bound to a select variable on an expanded edge.
type SelectValue struct {
	Name  string
	Value int32
}

// Reset is a clock assignment x := Value recorded by an update.
type Reset struct {
	Clock int
	Value int32
}

// Compiled code runs over an Env. It never allocates. Runtime errors (an
// assignment out of a variable's range, an index out of bounds, division by
// zero) set Env.Err and the evaluation returns a harmless value; the caller
// checks Env.Err after each call.
type (
	IntExpr  func(*Env) int32
	BoolExpr func(*Env) bool
	Action   func(*Env)
)

// RuntimeError is an error raised while evaluating compiled code.
type RuntimeError struct {
	Pos string // file:line:col of the offending expression
	Msg string
	// Interrupted: the evaluation was stopped by Env.Interrupt (a time
	// limit or a cancellation), not by an error of the model.
	Interrupted bool
}

func (e *RuntimeError) Error() string {
	if e.Pos == "" {
		return e.Msg
	}
	return e.Pos + ": " + e.Msg
}

// Env is the evaluation context of compiled code. Vars is the variable
// vector of the state being evaluated (updated in place by Actions), Locs its
// location vector (read by location tests in query formulas). Updates append
// clock resets to Resets; the caller sets Resets = Resets[:0] before running
// an update. Err is the first runtime error, nil if none. Obtain one with
// Network.NewEnv: it holds the scratch space for function frames.
type Env struct {
	Vars   []int32
	Locs   []int32
	Resets []Reset
	Err    *RuntimeError
	// Interrupt, when set, is polled during long evaluations (every
	// interruptEvery loop iterations or function calls); when it returns
	// true the evaluation stops with an Err whose Interrupted is set.
	// Searches set it to their time limit and cancellation, so that
	// --timeout holds inside a single expensive guard too.
	Interrupt func() bool

	frame []int32 // function locals and by-value arguments (internal)
	sp    int
	fp    int   // frame pointer of the running function (internal)
	ret   int32 // return value of the last function call (internal)
	steps int   // loop iterations of the current evaluation (internal)
}

// FormulaKind is the kind of a node of a compiled state formula.
type FormulaKind int

const (
	FTrue FormulaKind = iota
	FFalse
	FData     // a condition on locations and variables only: Data
	FClock    // a clock constraint: Clock
	FDeadlock // the deadlock predicate
	FAnd      // conjunction of Args
	FOr       // disjunction of Args
	FNot      // negation of Args[0]
)

// Formula is a compiled state formula of a query: quantifiers over bounded
// types are expanded, data-only subformulas are collapsed into single FData
// nodes, and clock constraints (including differences between clocks of any
// processes) are FClock leaves.
type Formula struct {
	Kind  FormulaKind
	Data  BoolExpr
	Clock ClockConstraint
	Args  []*Formula
	Src   string // the source text of this node, for messages
}

// Has reports whether f or one of its subformulas is of kind k (for
// example FDeadlock: the formula needs the deadlock computation).
func (f *Formula) Has(k FormulaKind) bool {
	if f == nil {
		return false
	}
	if f.Kind == k {
		return true
	}
	for _, a := range f.Args {
		if a.Has(k) {
			return true
		}
	}
	return false
}

// Term is a compiled expression of a sup/inf query: a clock (Clock > 0) or a
// data expression (Data != nil).
type Term struct {
	Clock int
	Data  IntExpr
	Src   string
}

// Stopped sets stopped[x] to whether clock x is stopped in the discrete
// state (locs, env.Vars): its rate is 0 in the invariant of some process's
// current location. A clock no invariant names has rate 1, and x' == 1
// only says so again (it does not restart a clock another process stops).
// stopped[0] (the reference clock) is false. any reports whether some
// clock is stopped. A rate that depends on data and evaluates to something
// other than 0 or 1 leaves env.Err set (a runtime error at the rate's
// position).
func (n *Network) Stopped(env *Env, locs []int32, stopped []bool) (any bool) {
	clear(stopped)
	if !n.Stopwatches {
		return false
	}
	for p, proc := range n.Procs {
		for k := range proc.Locations[locs[p]].Rates {
			r := &proc.Locations[locs[p]].Rates[k]
			v := r.Const
			if r.Value != nil {
				v = r.Value(env)
				if env.Err != nil {
					return any
				}
			}
			if v == 0 {
				stopped[r.Clock] = true
				any = true
			}
		}
	}
	return any
}

// DiagonalBound is the constant a diagonal constraint x - y ≺ c adds to
// the bounds of both its clocks: |c| + MaxReset (Network.MaxReset). The
// zone splitting of Bengtsson and Yi keeps each stored zone on one side
// of the diagonal, which is exact while both clocks only grow; once one
// of them is reset to v > 0 the diagonal compares the other with v - c,
// and an abstraction that blurred it beyond |c| reached the diagonal's
// other side in valuations no run has (difftest seed 1307708:
// `A[] P2.L2 imply P2.z1 - x2 > 0` violated on a zone where x2 = 1 after
// z1 > 2 had been extrapolated to z1 > 0).
func (n *Network) DiagonalBound(cn ClockConstraint) int32 {
	return boundConst(max(cn.hi, -cn.lo, 0) + int64(n.MaxReset))
}

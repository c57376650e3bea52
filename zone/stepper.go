package zone

import (
	"errors"

	"github.com/tcheck/tcheck/dbm"
	"github.com/tcheck/tcheck/model"
)

// ModelError is a runtime error of the model (a variable assigned out of its
// range, an index out of bounds, a division by zero) met while computing the
// successors of a state along Move (nil for the initial state).
type ModelError struct {
	Err  *model.RuntimeError
	Move Move
}

func (e *ModelError) Error() string { return e.Err.Error() }

// Interrupted reports whether err is an evaluation stopped by
// model.Env.Interrupt (a time limit or a cancellation reached inside a long
// evaluation) rather than an error of the model.
func Interrupted(err error) bool {
	var me *ModelError
	if errors.As(err, &me) {
		return me.Err != nil && me.Err.Interrupted
	}
	var re *model.RuntimeError
	return errors.As(err, &re) && re.Interrupted
}

// SetInterrupt makes the stepper's long evaluations poll stop
// (model.Env.Interrupt): when it returns true the evaluation ends with an
// error for which Interrupted is true.
func (st *Stepper) SetInterrupt(stop func() bool) { st.env.Interrupt = stop }

// pollEvery is how many successors a search computes between two polls of
// the interrupt (pollSuccessor). The searches check their limits between
// expansions, every 256; one expansion may compute thousands of
// successors, each costly (a scalar set of hundreds of members under the
// symmetry reduction: a search given a 20 s timeout ran 35 s), so the
// time limit and cancellation are polled among them too.
const pollEvery = 64

// pollSuccessor counts a successor and, every pollEvery, polls the
// interrupt: it returns an error for which Interrupted is true when the
// search is to stop.
func (st *Stepper) pollSuccessor() error {
	if st.polls++; st.polls%pollEvery != 0 || st.env.Interrupt == nil || !st.env.Interrupt() {
		return nil
	}
	return &ModelError{Err: &model.RuntimeError{Msg: "search interrupted (time limit or cancellation) among the successors of a state", Interrupted: true}}
}

// enabledEdge is an edge whose data guard holds in the current state.
type enabledEdge struct {
	proc, edge int32
	ch         int32 // channel index, -1 for an internal edge
	send       bool
	pending    bool // a receiver whose guard collectEnabled has not evaluated yet
}

// Stepper computes symbolic successors. It owns scratch space and is not
// safe for concurrent use; make one per goroutine.
type Stepper struct {
	sys *System
	env *model.Env

	cur, tgt enabledSet // enabled edges of the source state and of a target (urgent channels)
	// cur is the enabled set of (curLocs, curVars) when curValid
	curLocs, curVars []int32
	curValid         bool
	move             Move
	groups           []recvGroup // broadcast receivers by process
	moveErr          error       // an error of the last enumeration of moves (broadcast)
	odometer         []int32
	bcast            broadcastScratch
	// combos counts the broadcast moves enumerated, to poll the
	// interrupt between them (broadcast); polls the successors computed
	// (pollSuccessor)
	combos uint64
	polls  uint64

	// scratch for post
	invBuf   []invBound
	invUpper []dbm.Constraint // applyInvariants' upper bounds, imposed together
	upper    []dbm.Bound
	tmpZ     dbm.DBM
	// stopped marks the clocks stopped in the state applyInvariants last
	// saw (stopwatches); anyStopped says whether there is one.
	stopped    []bool
	anyStopped bool
	// dead is Deadlocked's scratch
	dead struct {
		pre          dbm.DBM
		future       dbm.DBM // the zone whose moves are enumerated
		tlocs, tvars []int32
		guards       []dbm.Constraint
		resets       []model.Reset
		// spares holds the matrices of the pieces Deadlocked makes and
		// drops, and those of its last result once the caller gives
		// that back
		spares dbm.Spares
	}
}

// enabledSet holds the edges enabled in one discrete state.
type enabledSet struct {
	enabled []enabledEdge
	recvs   [][]int32 // per channel: indices into enabled of its receivers
	touched []int32   // channels with non-empty recvs
	sending []bool    // per channel: an enabled edge sends on it
	sent    []int32   // channels with sending set
}

func newEnabledSet(chans int) enabledSet {
	return enabledSet{recvs: make([][]int32, chans), sending: make([]bool, chans)}
}

type invBound struct {
	i, j int
	b    dbm.Bound
}

// NewStepper returns a successor generator for sys.
func NewStepper(sys *System) *Stepper {
	return &Stepper{
		sys:     sys,
		env:     sys.Net.NewEnv(),
		cur:     newEnabledSet(len(sys.Net.Chans)),
		tgt:     newEnabledSet(len(sys.Net.Chans)),
		tmpZ:    dbm.New(sys.Dim),
		upper:   make([]dbm.Bound, sys.Dim),
		stopped: make([]bool, sys.Dim),
	}
}

func (st *Stepper) runtimeErr(m Move) error {
	err := st.env.Err
	st.env.Err = nil
	return &ModelError{Err: err, Move: append(Move(nil), m...)}
}

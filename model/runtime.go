package model

import (
	"fmt"
	"math"
)

// maxSteps bounds the loop iterations and function calls of one
// evaluation (a guard, an update, a formula): a function whose loop does
// not terminate, or a chain of calls that would take exponential time,
// makes the evaluation fail with a runtime error instead of hanging the
// checker. (A variable so that tests can lower it.)
var maxSteps = 1 << 24

// interruptEvery is how many steps (loop iterations and calls) pass between
// two polls of Env.Interrupt.
const interruptEvery = 1 << 14

// NewEnv returns an Env for evaluating the compiled code of n: Vars holds
// the initial variable values, Locs the initial locations, and the frame
// stack is sized for the deepest chain of function calls.
func (n *Network) NewEnv() *Env {
	st := n.state()
	e := &Env{
		Vars:   n.InitialVars(),
		Locs:   make([]int32, len(n.Procs)),
		Resets: make([]Reset, 0, len(n.Clocks)),
	}
	for i, p := range n.Procs {
		e.Locs[i] = int32(p.Initial)
	}
	// Without recursion a chain of calls holds each function's frame at
	// most twice (once more when a call appears in the arguments of a call
	// of the same function), so twice the sum of all frames suffices; push
	// grows the stack (once) should a model prove this wrong.
	size := 64
	if st != nil {
		size += 2 * st.frameTotal
	}
	e.frame = make([]int32, size)
	return e
}

// InitialVars returns a new copy of the initial variable vector.
func (n *Network) InitialVars() []int32 {
	v := make([]int32, len(n.Vars))
	for i, x := range n.Vars {
		v[i] = x.Init
	}
	return v
}

// fail records the first runtime error of an evaluation. It is only called
// on the error path, so its allocations do not matter.
func (e *Env) fail(pos string, format string, args ...any) {
	if e.Err == nil {
		e.Err = &RuntimeError{Pos: pos, Msg: fmt.Sprintf(format, args...)}
	}
}

// push reserves size frame slots and returns the absolute index of the
// first. The stack grows when a chain of calls is deeper than NewEnv
// planned (that allocates once; the Env keeps the larger stack).
func (e *Env) push(size int) int {
	base := e.sp
	if base+size > len(e.frame) {
		f := make([]int32, 2*(base+size))
		copy(f, e.frame)
		e.frame = f
	}
	e.sp = base + size
	return base
}

// step counts one loop iteration and reports whether evaluation may go on.
func (e *Env) step(pos string) bool {
	if e.Err != nil {
		return false
	}
	e.steps++
	if e.steps > maxSteps {
		e.fail(pos, "evaluation did not terminate after %d loop iterations and function calls", maxSteps)
		return false
	}
	if e.steps%interruptEvery == 0 && e.Interrupt != nil && e.Interrupt() {
		e.fail(pos, "evaluation interrupted (time limit or cancellation)")
		e.Err.Interrupted = true
		return false
	}
	return true
}

// enter prepares e for a top-level evaluation (guard, update, formula):
// the frame stack is empty and the loop budget full.
func (e *Env) enter() {
	e.sp, e.fp, e.steps = 0, 0, 0
}

func (e *Env) load(a int32) int32 {
	if a >= 0 {
		return e.Vars[a]
	}
	return e.frame[-a-1]
}

// fit32 returns v as an int32, or records an overflow error and returns 0
// when v does not fit: expressions are evaluated in 64 bits and every
// intermediate result must fit in the 32 bits of the state vector (the
// constant folder applies the same rule at load time), so a product such
// as 65536*65536 is a runtime error instead of a silent wrap to 0.
func (e *Env) fit32(pos string, v int64) int32 {
	if v > math.MaxInt32 || v < math.MinInt32 {
		e.fail(pos, "integer overflow: %d does not fit in 32 bits", v)
		return 0
	}
	return int32(v)
}

// pow32 is a ** b for b ≥ 0, exact: a result outside 32 bits is an
// overflow error, as for * (see power).
func (e *Env) pow32(pos string, a, b int32) int32 {
	if b < 0 {
		e.fail(pos, "negative exponent: %d ** %d is not an integer", a, b)
		return 0
	}
	v, ok := power(int64(a), int64(b))
	if !ok {
		e.fail(pos, "integer overflow: %d ** %d does not fit in 32 bits", a, b)
		return 0
	}
	return int32(v)
}

// power is a ** b (b ≥ 0) when the result fits in 32 bits: ok is false on
// overflow. 0 ** 0 is 1, as in C's pow and UPPAAL's pow function. Square and
// multiply, so that 1 ** 2147483647 is quick.
func power(a, b int64) (v int64, ok bool) {
	v = 1
	for b > 0 {
		if b&1 == 1 {
			v *= a
			if v > math.MaxInt32 || v < math.MinInt32 {
				return 0, false
			}
		}
		b >>= 1
		if b > 0 {
			a *= a
			if a > math.MaxInt32+1 || a < math.MinInt32 {
				// |a| > 2^31, and a bit of b is still to come: it
				// multiplies a into v (non-zero), which overflows.
				return 0, false
			}
		}
	}
	return v, true
}

// shl32 is a << s evaluated in 64 bits (s ≥ 0): an overflow is an error.
func (e *Env) shl32(pos string, a, s int32) int32 {
	if a == 0 {
		return 0
	}
	if s >= 32 {
		e.fail(pos, "integer overflow: %d << %d does not fit in 32 bits", a, s)
		return 0
	}
	return e.fit32(pos, int64(a)<<uint(s))
}

package model

import (
	"fmt"
	"strconv"
	"strings"
)

// Default range of int, as in UPPAAL ("The default range of an integer is
// [-32768, 32767]").
const (
	defaultIntMin = -32768
	defaultIntMax = 32767
)

// Limits that keep a hostile or mistaken model from exhausting memory while
// it is compiled (the fuzzer finds these quickly).
const (
	maxSlots      = 1 << 20 // variable slots, clocks or channels in total
	maxProcesses  = 1 << 12
	maxEdges      = 1 << 18 // compiled edges in total (after select expansion)
	maxRangeEnum  = 1 << 16 // values a select, quantifier or free parameter may range over
	maxClocks     = 4000    // clocks, the reference clock aside (a DBM has (clocks+1)² entries; a stored full matrix must fit the 64 MiB a node record can describe, which 4,095 with large constants did not)
	maxWork       = 1 << 20 // quantifier bodies compiled for one model or formula
	maxBoundCells = 1 << 24 // locations × clocks in the per-location bound arrays
)

type kind uint8

const (
	kInt kind = iota
	kBool
	kClock
	kChan
	kVoid
	kArray
	kStruct
)

// typ is a checked type. Scalars carry their range (bools [0,1]); arrays
// carry their element type and size (multi-dimensional arrays nest).
type typ struct {
	kind      kind
	lo, hi    int64
	constant  bool
	urgent    bool
	broadcast bool
	elem      *typ
	size      int
	// scalar identifies the scalar set (scalar[n], Murϕ's and UPPAAL's
	// symmetric type) whose values an int type holds, 1, 2, ... (0: not a
	// scalar); for an array, index is the scalar set of its dimension.
	scalar, index int
	// first is the index of an array's first element: 0, or the lower
	// bound of the range type that gives the dimension (bool req[pid_t]
	// with typedef int[1,N] pid_t is indexed 1..N, as in UPPAAL).
	first int64
	// fields are a struct's fields in declaration order; slots is the
	// number of scalar slots of the struct (the sum over its fields).
	fields []field
	slots  int
	// name is the typedef name a struct type was declared with (for
	// messages; types are compared by structure, as in UPPAAL).
	name string
}

// field is a field of a struct type: its slots start at off within the
// struct's (structs are flattened into their scalar components, as arrays
// are).
type field struct {
	name string
	t    *typ
	off  int
}

var (
	intType   = &typ{kind: kInt, lo: defaultIntMin, hi: defaultIntMax}
	boolType  = &typ{kind: kBool, lo: 0, hi: 1}
	clockType = &typ{kind: kClock}
	voidType  = &typ{kind: kVoid}
	// litType is the type of integer literals and folded int constants:
	// no range restriction beyond int32.
	litType = &typ{kind: kInt, lo: -1 << 31, hi: 1<<31 - 1}
)

func (t *typ) isData() bool   { return t.kind == kInt || t.kind == kBool }
func (t *typ) isScalar() bool { return t.kind != kArray && t.kind != kStruct }

// onlyData reports whether every slot of t is an integer or a boolean (the
// types that may be meta).
func onlyData(t *typ) bool {
	switch t.kind {
	case kArray:
		return onlyData(t.elem)
	case kStruct:
		for _, f := range t.fields {
			if !onlyData(f.t) {
				return false
			}
		}
		return true
	}
	return t.isData()
}

// isAggregate reports whether t is an array or a struct: a value of
// several slots, copied and compared slot by slot.
func (t *typ) isAggregate() bool { return t.kind == kArray || t.kind == kStruct }

// hasStruct reports whether t is a struct or an array of structs.
func (t *typ) hasStruct() bool { return t.base().kind == kStruct }

// fieldOf returns the field called name of struct type t, or nil.
func (t *typ) fieldOf(name string) *field {
	for i := range t.fields {
		if t.fields[i].name == name {
			return &t.fields[i]
		}
	}
	return nil
}

// base returns the innermost element type of an array (t for scalars).
func (t *typ) base() *typ {
	for t.kind == kArray {
		t = t.elem
	}
	return t
}

// count is the number of scalar slots t occupies.
func (t *typ) count() int {
	switch t.kind {
	case kArray:
		return t.size * t.elem.count()
	case kStruct:
		return t.slots
	}
	return 1
}

// leaves returns the scalar types of t's slots, in slot order (arrays
// row-major, struct fields in declaration order).
func leaves(t *typ) []*typ {
	out := make([]*typ, 0, t.count())
	var walk func(t *typ)
	walk = func(t *typ) {
		switch t.kind {
		case kArray:
			for i := 0; i < t.size; i++ {
				walk(t.elem)
			}
		case kStruct:
			for _, f := range t.fields {
				walk(f.t)
			}
		default:
			out = append(out, t)
		}
	}
	walk(t)
	return out
}

// slotNames lists the names of the scalar slots of a variable name of type
// t, in slot order: "a[0][1]", "s.b", "m[1].c[0]".
func slotNames(name string, t *typ) []string {
	switch t.kind {
	case kArray:
		var out []string
		for i := 0; i < t.size; i++ {
			out = append(out, slotNames(name+"["+strconv.FormatInt(t.first+int64(i), 10)+"]", t.elem)...)
		}
		return out
	case kStruct:
		var out []string
		for _, f := range t.fields {
			out = append(out, slotNames(name+"."+f.name, f.t)...)
		}
		return out
	}
	return []string{name}
}

// slotPath names slot k of a value of type t, relative to the value:
// "[1].c[0]" (for runtime messages, without building every name).
func slotPath(t *typ, k int) string {
	var b strings.Builder
	for {
		switch t.kind {
		case kArray:
			n := t.elem.count()
			fmt.Fprintf(&b, "[%d]", t.first+int64(k/n))
			t, k = t.elem, k%n
			continue
		case kStruct:
			var in *field
			for i := range t.fields {
				if f := &t.fields[i]; k < f.off+f.t.count() {
					in = f
					break
				}
			}
			if in == nil {
				return b.String()
			}
			b.WriteString("." + in.name)
			t, k = in.t, k-in.off
			continue
		}
		return b.String()
	}
}

func (t *typ) withConst(c bool) *typ {
	if t.constant == c {
		return t
	}
	u := *t
	u.constant = c
	switch u.kind {
	case kArray:
		u.elem = u.elem.withConst(c)
	case kStruct:
		u.fields = make([]field, len(t.fields))
		for i, f := range t.fields {
			u.fields[i] = field{name: f.name, t: f.t.withConst(c), off: f.off}
		}
	}
	return &u
}

func (t *typ) String() string {
	var b strings.Builder
	if t.constant {
		b.WriteString("const ")
	}
	var dims []string
	for t.kind == kArray {
		if t.first != 0 {
			dims = append(dims, fmt.Sprintf("%d..%d", t.first, t.first+int64(t.size)-1))
		} else {
			dims = append(dims, strconv.Itoa(t.size))
		}
		t = t.elem
	}
	switch t.kind {
	case kInt:
		if t.scalar != 0 {
			fmt.Fprintf(&b, "scalar[%d]", t.hi+1)
		} else if t.lo == defaultIntMin && t.hi == defaultIntMax || t == litType {
			b.WriteString("int")
		} else {
			fmt.Fprintf(&b, "int[%d,%d]", t.lo, t.hi)
		}
	case kBool:
		b.WriteString("bool")
	case kClock:
		b.WriteString("clock")
	case kChan:
		if t.urgent {
			b.WriteString("urgent ")
		}
		if t.broadcast {
			b.WriteString("broadcast ")
		}
		b.WriteString("chan")
	case kVoid:
		b.WriteString("void")
	case kStruct:
		if t.name != "" {
			b.WriteString(t.name)
			break
		}
		b.WriteString("struct {")
		for _, f := range t.fields {
			// the field's dimensions follow its name, as declared
			ft, fd := f.t, ""
			for ft.kind == kArray {
				if ft.first != 0 {
					fd += fmt.Sprintf("[%d..%d]", ft.first, ft.first+int64(ft.size)-1)
				} else {
					fd += fmt.Sprintf("[%d]", ft.size)
				}
				ft = ft.elem
			}
			fmt.Fprintf(&b, " %s %s%s;", ft.withConst(false), f.name, fd)
		}
		b.WriteString(" }")
	}
	for _, d := range dims {
		fmt.Fprintf(&b, "[%s]", d)
	}
	return b.String()
}

// sameShape reports whether a and b have the same kind and array
// dimensions (ranges may differ).
func sameShape(a, b *typ) bool {
	for a.kind == kArray && b.kind == kArray {
		if a.size != b.size || a.first != b.first {
			return false
		}
		a, b = a.elem, b.elem
	}
	if a.kind == kArray || b.kind == kArray {
		return false
	}
	if a.kind == kStruct && b.kind == kStruct {
		if len(a.fields) != len(b.fields) {
			return false
		}
		for i := range a.fields {
			if a.fields[i].name != b.fields[i].name || !sameShape(a.fields[i].t, b.fields[i].t) {
				return false
			}
		}
		return true
	}
	return a.kind == b.kind
}

// sameType reports whether a and b are equal up to constness.
func sameType(a, b *typ) bool {
	if !sameShape(a, b) {
		return false
	}
	for a.kind == kArray {
		a, b = a.elem, b.elem
	}
	switch {
	case a.kind == kStruct:
		for i := range a.fields {
			if !sameType(a.fields[i].t, b.fields[i].t) {
				return false
			}
		}
		return true
	case a.isData():
		return a.lo == b.lo && a.hi == b.hi
	case a.kind == kChan:
		return a.urgent == b.urgent && a.broadcast == b.broadcast
	}
	return true
}

// equivalent reports whether values of types a and b may be assigned to
// each other and compared, as UTAP's Type::is_equivalent decides: the same
// structure (array sizes, struct field names in order), bool with bool,
// values of the same scalar set, and integers whose ranges are equal when
// both are bounded (a plain int goes with any integer; the ranges are
// checked slot by slot when a value is stored).
func equivalent(a, b *typ) bool {
	if a.kind != b.kind {
		return false
	}
	switch a.kind {
	case kArray:
		return a.size == b.size && a.first == b.first && a.index == b.index && equivalent(a.elem, b.elem)
	case kStruct:
		if len(a.fields) != len(b.fields) {
			return false
		}
		for i := range a.fields {
			if a.fields[i].name != b.fields[i].name || !equivalent(a.fields[i].t, b.fields[i].t) {
				return false
			}
		}
		return true
	case kInt:
		if a.scalar != b.scalar {
			return false
		}
		plain := func(t *typ) bool { return t.lo == defaultIntMin && t.hi == defaultIntMax }
		return plain(a) || plain(b) || a.lo == b.lo && a.hi == b.hi
	}
	return true
}

// ---------------------------------------------------------------------------
// Symbols and scopes

type symKind uint8

const (
	symConst symKind = iota // compile-time constant (scalar or array): vals
	symVar                  // data variable: where/off
	symClock                // clock or array of clocks: off = first clock index
	symChan                 // channel or array of channels: off = first channel index
	symType                 // typedef
	symFunc                 // function
)

// Storage of a data variable.
const (
	stGlobal = iota // slots of the variable vector from off
	stFrame         // function frame slots from fp+off
	stRef           // a reference parameter: frame[fp+off] holds a unified address
)

type symbol struct {
	name  string
	kind  symKind
	t     *typ
	pos   Pos
	vals  []int64 // symConst, flattened row-major
	where int     // symVar storage
	off   int
	fn    *function
	vname string // symVar stGlobal: the Var name prefix ("Observer.cnt")
	// refParam is i+1 for the i-th parameter of function owner when it is
	// a reference parameter (0 otherwise).
	refParam int
	owner    *function
	// empty is, for a type whose integer range is empty, the error to
	// report where the type is used: UPPAAL accepts such a typedef as long
	// as nothing has the type.
	empty error
	// notConst is, for a function's local const whose initialiser is not
	// a constant (it reads a variable, or its folding fails: then it
	// fails when it runs, compiler.lazy), why: said where a constant is
	// needed (constInt).
	notConst error
}

type scope struct {
	parent *scope
	syms   map[string]*symbol
	// fn is the function whose body this scope belongs to (nil outside).
	fn *function
}

func newScope(parent *scope) *scope {
	s := &scope{parent: parent, syms: map[string]*symbol{}}
	if parent != nil {
		s.fn = parent.fn
	}
	return s
}

func (s *scope) lookup(name string) *symbol {
	for ; s != nil; s = s.parent {
		if sym, ok := s.syms[name]; ok {
			return sym
		}
	}
	return nil
}

// unified addresses: a data slot is addressed by one int32: a >= 0 is
// Vars[a], a < 0 is frame[-a-1] (a function local, for reference
// parameters bound to locals).
func addrAdd(a int32, k int32) int32 {
	if a >= 0 {
		return a + k
	}
	return a - k
}

func frameAddr(abs int) int32 { return int32(-abs - 1) }

package model

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"sort"
	"strconv"
	"strings"

	"github.com/tcheck/tcheck/model/syntax"
)

// Load reads, parses and compiles a model file. overrides sets parameters
// (--set name=value).
func Load(path string, overrides map[string]int64) (*File, *Network, error) {
	src, err := ReadSource(path)
	if err != nil {
		return nil, nil, err
	}
	f, err := Parse(path, src)
	if err != nil {
		return nil, nil, err
	}
	n, err := f.Compile(overrides)
	if err != nil {
		return f, nil, err
	}
	return f, n, nil
}

// netState is the compiler state kept in Network.scope for compiling query
// formulas after the model.
type netState struct {
	file       *File
	global     *scope
	procs      []*procInfo
	frameSize  int // largest frame of one function
	frameTotal int // sum of all frames: NewEnv's stack size (no recursion)
	specials   int // calls' specialisations compiled (stmt.go specialise)
	// interrupt is polled while the model and the queries compiled
	// against it are compiled (CompileOptions.Interrupt; nil: never)
	interrupt func() bool
}

// ErrInterrupted is the error of a compilation stopped by its
// CompileOptions.Interrupt.
var ErrInterrupted = errors.New("compilation interrupted")

// CompileOptions bound a compilation.
type CompileOptions struct {
	// Interrupt, when not nil, is polled while the model is compiled
	// (every pollEvery expressions, select combinations and processes),
	// and later while queries are compiled against its network, until
	// SetCompileInterrupt replaces it: once it returns true, the
	// compilation stops with ErrInterrupted. It lets --timeout,
	// --max-memory and Ctrl-C stop a compilation whose time or memory
	// grows faster than its input, within the compiler's caps.
	Interrupt func() bool
}

// SetCompileInterrupt replaces the interrupt polled while queries are
// compiled against n (nil: none); see CompileOptions.Interrupt.
func (n *Network) SetCompileInterrupt(interrupt func() bool) {
	if st := n.state(); st != nil {
		st.interrupt = interrupt
	}
}

// pollEvery is how many polls pass between two calls of the interrupt
// (the first poll calls it).
const pollEvery = 256

// poll reports ErrInterrupted once the compilation's interrupt has said
// so, and at every poll after: a caller that tries an alternative after
// an error (a formula read as data, then as a clock constraint) meets it
// again at once.
func (c *compiler) poll() error {
	if c.interrupt == nil {
		return nil
	}
	if !c.halted {
		if c.polls++; c.polls%pollEvery != 1 || !c.interrupt() {
			return nil
		}
		c.halted = true
	}
	return ErrInterrupted
}

func (n *Network) state() *netState {
	st, _ := n.scope.(*netState)
	return st
}

// procInfo is what the query compiler needs about a process.
type procInfo struct {
	proc  *Process
	scope *scope  // the process's parameters and local declarations
	inst  string  // the name in the system line (instance or template)
	args  []int64 // values of its free parameters, in order
	// argSets are the scalar sets of the free parameters (0: none)
	argSets []int
	locs    map[string]int
}

// compiler holds the state of one compilation.
type compiler struct {
	nscalar int // scalar sets declared so far (typ.scalar)
	// emptyRange is set when typeOf fails on an empty int range, which a
	// typedef tolerates until the type is used.
	emptyRange bool
	file       *File
	net        *Network
	st         *netState
	text       Text // the snippet being compiled, for positions
	nedges     int
	// dead is above 0 while the compiler compiles an operand that a
	// constant decides is never evaluated: the side of && || imply that
	// the left operand decides, the branch of ?: or of an if statement
	// that the condition does not take. Its folding raises no error
	// (deadFold): C, whose semantics the model's expressions follow,
	// does not evaluate it, and a parameterised model guards a division
	// so (N > 0 ? M / N : 0 at N = 0).
	dead int
	// lazy is above 0 while the compiler compiles code that runs in the
	// model's states (guards, synchronisations, updates, invariants,
	// function bodies), outside a context that needs a constant
	// (constInt): a constant operation there that fails (a division by
	// zero, an overflow) fails when it is evaluated, as in C, and not
	// when the model is loaded (deadFold), so that a guard such as a > 0
	// ? 100 / N : 0 is valid at N = 0 until a > 0 holds
	lazy int
	work int // quantifier bodies compiled (bounded by maxWork)
	// interrupt, polls and halted: poll
	interrupt func() bool
	polls     uint32
	halted    bool
	nspecs    int // functions specialised (bounded by maxSpecs)
	// resetsOf maps {process, edge} to the clocks its update resets.
	resetsOf map[[2]int][]int
	// maxReset bounds the values clocks are reset to (the clock bounds of
	// a model with priorities need it).
	maxReset int64
}

type tmplInfo struct {
	ft     *FileTemplate
	params []*syntax.Param
	decls  []syntax.Decl
	invs   []syntax.Expr // per location
	edges  []*parsedEdge
	locs   map[string]int
	init   int
}

type parsedEdge struct {
	fe       *FileEdge
	from, to int
	sel      []*syntax.SelectBinding
	guard    syntax.Expr
	sync     *syntax.Sync
	update   []syntax.Expr
}

// prelude is the scope of UPPAAL's built-in declarations, the parent of a
// model's global scope, so that the model's own declarations shadow them:
// the limits of the fixed-width integers (INT8_MIN ... UINT16_MAX, INT32_MIN,
// INT32_MAX) and their types (int8_t, uint8_t, int16_t, uint16_t,
// int32_t), as UPPAAL 4.1 and later predefine them.
func prelude() *scope {
	sc := newScope(nil)
	for _, r := range []struct {
		typ, lo, hi string
		min, max    int64
	}{
		{"int8_t", "INT8_MIN", "INT8_MAX", -1 << 7, 1<<7 - 1},
		{"uint8_t", "", "UINT8_MAX", 0, 1<<8 - 1},
		{"int16_t", "INT16_MIN", "INT16_MAX", -1 << 15, 1<<15 - 1},
		{"uint16_t", "", "UINT16_MAX", 0, 1<<16 - 1},
		{"int32_t", "INT32_MIN", "INT32_MAX", -1 << 31, 1<<31 - 1},
	} {
		sc.syms[r.typ] = &symbol{name: r.typ, kind: symType, t: &typ{kind: kInt, lo: r.min, hi: r.max}}
		if r.lo != "" {
			sc.syms[r.lo] = &symbol{name: r.lo, kind: symConst, t: intType.withConst(true), vals: []int64{r.min}}
		}
		sc.syms[r.hi] = &symbol{name: r.hi, kind: symConst, t: intType.withConst(true), vals: []int64{r.max}}
	}
	return sc
}

// preludeScope is built once: its symbols are read, never written
// (declarations go into the scopes below it).
var preludeScope = prelude()

// IsPrelude reports whether name is one of the built-in declarations of
// prelude.
func IsPrelude(name string) bool {
	_, ok := preludeScope.syms[name]
	return ok
}

// Compile checks f and compiles it into a Network, with the parameters in
// overrides replacing those of the file. The result is deterministic: the
// same file and overrides give the same network.
func (f *File) Compile(overrides map[string]int64) (*Network, error) {
	return f.CompileWith(overrides, CompileOptions{})
}

// CompileWith is Compile bounded by o: a compilation stopped by its
// interrupt gives ErrInterrupted and no network.
func (f *File) CompileWith(overrides map[string]int64, o CompileOptions) (*Network, error) {
	c := &compiler{file: f, resetsOf: map[[2]int][]int{}, interrupt: o.Interrupt}
	n, err := c.compile(overrides)
	if c.halted {
		// whatever error the stop surfaced as
		return nil, ErrInterrupted
	}
	return n, err
}

// compile compiles c.file (CompileWith).
func (c *compiler) compile(overrides map[string]int64) (*Network, error) {
	f := c.file
	n := &Network{Name: f.Name, File: f.Path}
	c.net = n
	c.st = &netState{file: f, global: newScope(preludeScope), interrupt: c.interrupt}
	n.scope = c.st
	n.Clocks = []Clock{{Name: "0", Proc: -1}}
	if err := c.params(overrides); err != nil {
		return nil, err
	}
	global := c.st.global
	c.text = f.Declarations
	decls, err := parseDecls(f.Declarations)
	if err != nil {
		return nil, err
	}
	if err := c.decls(global, decls, nil); err != nil {
		return nil, err
	}
	tmpls, err := c.templates()
	if err != nil {
		return nil, err
	}
	if err := c.system(tmpls); err != nil {
		return nil, err
	}
	nloc := 0
	for _, p := range n.Procs {
		nloc += len(p.Locations)
	}
	if nloc*len(n.Clocks) > maxBoundCells {
		return nil, errorf(Pos{File: f.Path, Line: 1, Col: 1}, "model too large: %d locations × %d clocks", nloc, len(n.Clocks))
	}
	c.clockBounds()
	if err := n.compileProgress(f.Progress); err != nil {
		return nil, err
	}
	return n, nil
}

// compileProgress compiles the model's progress measure (File.Progress)
// into n.Progress: a data expression of the language, as a sup query's
// term may be, over variables and locations (P(i).loc), without clocks
// or side effects.
func (n *Network) compileProgress(t Text) error {
	if t.IsEmpty() {
		return nil
	}
	x, err := syntax.ParseExpr(t.S)
	if err != nil {
		return snippetErr(t, err)
	}
	term, err := n.CompileTerm(x, t)
	if err != nil {
		return err
	}
	if term.Data == nil {
		return errorf(t.Pos, "progress: %s is a clock; the progress measure is an integer expression over the discrete state", term.Src)
	}
	n.Progress, n.ProgressSrc = term.Data, strings.Join(strings.Fields(t.S), " ")
	return nil
}

// params declares the model parameters as global int constants.
func (c *compiler) params(overrides map[string]int64) error {
	f := c.file
	seen := map[string]bool{}
	for _, p := range f.Params {
		if !isIdent(p.Name) {
			return errorf(p.Pos, "parameter name %q is not an identifier", p.Name)
		}
		seen[p.Name] = true
	}
	var unknown []string
	for k := range overrides {
		if !seen[k] {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		var names []string
		for _, p := range f.Params {
			names = append(names, p.Name)
		}
		return &Error{Pos: Pos{File: f.Path}, Msg: fmt.Sprintf("unknown parameter %s (the model's parameters: %s)", strings.Join(unknown, ", "), strings.Join(names, ", "))}
	}
	for _, p := range f.Params {
		v := p.Value
		if o, ok := overrides[p.Name]; ok {
			v = o
		}
		if v < math.MinInt32 || v > math.MaxInt32 {
			if _, ok := overrides[p.Name]; ok {
				// the value comes from the command line, not the file
				return &Error{Msg: fmt.Sprintf("--set %s=%d: the value does not fit in 32 bits", p.Name, v)}
			}
			return errorf(p.Pos, "parameter %s = %d does not fit in 32 bits", p.Name, v)
		}
		c.net.Params = append(c.net.Params, Param{Name: p.Name, Value: v})
		if old := c.st.global.syms[p.Name]; old != nil {
			return errorf(p.Pos, "parameter %s is declared twice", p.Name)
		}
		c.st.global.syms[p.Name] = &symbol{name: p.Name, kind: symConst, t: intType.withConst(true), vals: []int64{v}, pos: p.Pos}
	}
	return nil
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9' {
			continue
		}
		return false
	}
	return true
}

// declare checks that name is new in scope sc.
func (c *compiler) declare(sc *scope, name string, p syntax.Pos) error {
	if old, ok := sc.syms[name]; ok {
		if old.pos.IsValid() {
			return c.errAt(p, "%s is already declared (at %s)", name, old.pos)
		}
		return c.errAt(p, "%s is already declared", name)
	}
	// A name of a built-in function (min, max, abs) may be declared, as in
	// UPPAAL: the declaration shadows the built-in where it is in scope
	// (call resolves declared names first).
	return nil
}

// owner describes where declarations live: nil for globals, a process for
// template-local declarations.
type owner struct {
	proc   int
	prefix string // "Observer." for messages and variable names
}

// decls compiles a list of declarations into sc.
func (c *compiler) decls(sc *scope, ds []syntax.Decl, own *owner) error {
	for _, d := range ds {
		switch d := d.(type) {
		case *syntax.VarDecl:
			if err := c.varDecl(sc, d, own); err != nil {
				return err
			}
		case *syntax.TypedefDecl:
			if err := c.typedef(sc, d); err != nil {
				return err
			}
		case *syntax.FuncDecl:
			c.lazy++
			err := c.funcDecl(sc, d)
			c.lazy--
			if err != nil {
				return err
			}
		case *syntax.InstanceDecl:
			return c.errAt(d.Pos, "instantiations belong in the system declarations")
		case *syntax.SystemDecl:
			return c.errAt(d.Pos, "the system line belongs in the system declarations")
		case *syntax.ChanPriorityDecl:
			if sc != c.st.global {
				return c.errAt(d.Pos, "chan priority belongs in the global declarations")
			}
			if err := c.chanPriority(sc, d); err != nil {
				return err
			}
		default:
			return c.errAt(d.Position(), "unsupported declaration")
		}
	}
	return nil
}

// chanPriority compiles `chan priority a, d[0] < default < b, e;`: the
// level of each listed channel (a whole array lists each element), and
// the default level of the rest and of internal transitions; without
// `default` that is level 0, the lowest (libutap's SystemBuilder starts
// the default at the first level and moves it only at `default`).
func (c *compiler) chanPriority(sc *scope, d *syntax.ChanPriorityDecl) error {
	if c.net.ChanLevel != nil {
		return c.errAt(d.Pos, "a second chan priority declaration (UPPAAL allows one per system)")
	}
	c.net.Priorities = true
	level := make([]int32, len(c.net.Chans))
	listed := make([]bool, len(c.net.Chans))
	var tau int32
	sawDefault := false
	for l, xs := range d.Levels {
		for _, x := range xs {
			if x == nil {
				if sawDefault {
					return c.errAt(d.Pos, "default is listed twice in chan priority")
				}
				sawDefault, tau = true, int32(l)
				continue
			}
			r, err := c.refExpr(&ctx{sc: sc}, x)
			if err != nil {
				return err
			}
			if r.space != rsChan {
				return c.errAt(x.Position(), "%s is not a channel", r.name)
			}
			if !r.static {
				return c.errAt(x.Position(), "the index of %s in chan priority must be a constant", r.name)
			}
			for k := r.off; k < r.off+r.t.count(); k++ {
				if listed[k] {
					return c.errAt(x.Position(), "channel %s is listed twice in chan priority", c.net.Chans[k].Name)
				}
				listed[k], level[k] = true, int32(l)
			}
		}
	}
	for k := range level {
		if !listed[k] {
			level[k] = tau
		}
	}
	c.net.ChanLevel, c.net.TauLevel = level, tau
	return nil
}

func (c *compiler) typedef(sc *scope, d *syntax.TypedefDecl) error {
	c.emptyRange = false
	base, err := c.typeOf(sc, d.Type)
	var empty error
	if err != nil {
		if !c.emptyRange {
			return err
		}
		// an empty range is an error only where the type is used
		empty, base = err, intType
	}
	for _, dn := range d.Names {
		t, err := c.arrayOf(sc, base, dn.Dims)
		if err != nil {
			return err
		}
		if err := c.declare(sc, dn.Name, dn.Pos); err != nil {
			return err
		}
		if t.scalar != 0 && t.kind == kInt && strings.HasPrefix(c.net.Scalars[t.scalar-1].Name, "scalar[") {
			c.net.Scalars[t.scalar-1].Name = dn.Name // the set's first typedef names it
		}
		if t.kind == kStruct && t.name == "" {
			// messages name the struct by its typedef
			u := *t
			u.name = dn.Name
			t = &u
		}
		sc.syms[dn.Name] = &symbol{name: dn.Name, kind: symType, t: t, pos: c.text.At(dn.Pos), empty: empty}
	}
	return nil
}

// typeOf checks a type expression. Features tcheck does not support are
// rejected here, with their position.
func (c *compiler) typeOf(sc *scope, te *syntax.TypeExpr) (*typ, error) {
	if te == nil {
		return nil, &Error{Pos: c.text.Pos, Msg: "missing type"}
	}
	if te.Hybrid {
		return nil, c.errAt(te.Pos, "hybrid clocks are not supported")
	}
	var t *typ
	switch te.Kind {
	case syntax.TInt:
		t = intType
		if te.Range != nil {
			cx := &ctx{sc: sc}
			if te.Range.Lo == nil || te.Range.Hi == nil {
				return nil, c.errAt(te.Range.Pos, "an int range needs both bounds")
			}
			lo, err := c.constInt(cx, te.Range.Lo, "the lower bound of a range")
			if err != nil {
				return nil, err
			}
			hi, err := c.constInt(cx, te.Range.Hi, "the upper bound of a range")
			if err != nil {
				return nil, err
			}
			if lo > hi {
				c.emptyRange = true
				return nil, c.errAt(te.Range.Pos, "empty range [%d,%d]", lo, hi)
			}
			t = &typ{kind: kInt, lo: lo, hi: hi}
		}
	case syntax.TBool:
		t = boolType
	case syntax.TClock:
		t = clockType
	case syntax.TChan:
		t = &typ{kind: kChan, urgent: te.Urgent, broadcast: te.Broadcast}
	case syntax.TVoid:
		t = voidType
	case syntax.TNamed:
		sym := sc.lookup(te.Name)
		if sym == nil {
			return nil, c.errAt(te.Pos, "undeclared type %s", te.Name)
		}
		if sym.kind != symType {
			return nil, c.errAt(te.Pos, "%s is not a type", te.Name)
		}
		if sym.empty != nil {
			return nil, c.errAt(te.Pos, "%s is used, but its type is empty: %v", te.Name, sym.empty)
		}
		t = sym.t
	case syntax.TStruct:
		var err error
		if t, err = c.structType(sc, te); err != nil {
			return nil, err
		}
	case syntax.TScalar:
		if te.Range == nil || te.Range.Hi == nil {
			return nil, c.errAt(te.Pos, "a scalar set needs a size: scalar[n]")
		}
		n, err := c.constInt(&ctx{sc: sc}, te.Range.Hi, "the size of a scalar set")
		if err != nil {
			return nil, err
		}
		if n < 1 || n > maxRangeEnum {
			return nil, c.errAt(te.Range.Pos, "scalar set size %d must be between 1 and %d", n, maxRangeEnum)
		}
		// its values are 0..n-1 inside; the language gives them no order
		// and no arithmetic (checkScalar), so that permuting them is a
		// symmetry of the model
		c.nscalar++
		t = &typ{kind: kInt, lo: 0, hi: n - 1, scalar: c.nscalar}
		c.net.Scalars = append(c.net.Scalars, ScalarSet{Name: fmt.Sprintf("scalar[%d]", n), Size: int(n)})
	case syntax.TDouble:
		return nil, c.errAt(te.Pos, "double is not supported")
	case syntax.TString:
		return nil, c.errAt(te.Pos, "string is not supported")
	default:
		return nil, c.errAt(te.Pos, "unsupported type")
	}
	if (te.Urgent || te.Broadcast) && t.base().kind != kChan {
		return nil, c.errAt(te.Pos, "only channels can be urgent or broadcast")
	}
	if te.Range != nil && te.Kind != syntax.TInt && te.Kind != syntax.TScalar {
		return nil, c.errAt(te.Range.Pos, "only int types take a range")
	}
	if te.Meta && !onlyData(t) {
		// as libutap ($Prefix_meta_not_allowed_for_clocks, and channels
		// are not among the types that may be meta)
		return nil, c.errAt(te.Pos, "a %s cannot be meta (only integers, booleans, and arrays and structs of them)", t.base())
	}
	// Otherwise meta is read and ignored: a meta variable is an ordinary
	// state variable (docs/uppaal.md says what that changes).
	if te.Const {
		if k := t.base().kind; k == kClock || k == kChan {
			return nil, c.errAt(te.Pos, "a %s cannot be const", t.base())
		}
		t = t.withConst(true)
	}
	return t, nil
}

// structType checks a struct type `struct { T a; U b[2]; }`: its fields
// are laid out one after the other, each flattened into its slots. Fields
// hold data (int, bool, scalar sets, arrays and structs of these): UPPAAL
// rejects channels in structs, and tcheck does not support clocks there
// (UPPAAL does): a clock is not a slot of the variable vector.
func (c *compiler) structType(sc *scope, te *syntax.TypeExpr) (*typ, error) {
	t := &typ{kind: kStruct}
	seen := map[string]bool{}
	for _, fd := range te.Fields {
		base, err := c.typeOf(sc, fd.Type)
		if err != nil {
			return nil, err
		}
		if base.constant {
			return nil, c.errAt(fd.Type.Pos, "struct fields cannot be const (declare the whole struct const)")
		}
		switch k := base.base().kind; k {
		case kClock:
			return nil, c.errAt(fd.Type.Pos, "clocks inside structs are not supported (declare the clock outside the struct)")
		case kChan:
			return nil, c.errAt(fd.Type.Pos, "a struct cannot contain channels")
		case kVoid:
			return nil, c.errAt(fd.Type.Pos, "a struct field cannot be void")
		}
		for _, dn := range fd.Names {
			if seen[dn.Name] {
				return nil, c.errAt(dn.Pos, "field %s is declared twice in the struct", dn.Name)
			}
			seen[dn.Name] = true
			ft, err := c.arrayOf(sc, base, dn.Dims)
			if err != nil {
				return nil, err
			}
			t.fields = append(t.fields, field{name: dn.Name, t: ft, off: t.slots})
			t.slots += ft.count()
			if t.slots > maxSlots {
				return nil, c.errAt(dn.Pos, "struct too large (more than %d slots)", maxSlots)
			}
		}
	}
	if len(t.fields) == 0 {
		return nil, c.errAt(te.Pos, "a struct needs at least one field")
	}
	return t, nil
}

// arrayOf applies array dimensions to t: `int a[2][3]` is an array of 2
// arrays of 3. A dimension is a constant size or a bounded type starting at
// 0 (`bool b[pid_t]`).
func (c *compiler) arrayOf(sc *scope, t *typ, dims []syntax.Expr) (*typ, error) {
	for i := len(dims) - 1; i >= 0; i-- {
		d := dims[i]
		var size, first int64
		index := 0
		if id, ok := d.(*syntax.Ident); ok {
			if sym := sc.lookup(id.Name); sym != nil && sym.kind == symType {
				bt := sym.t
				if !bt.isData() || bt.kind == kArray {
					return nil, c.errAt(d.Position(), "array dimension type %s must be a bounded integer", id.Name)
				}
				if bt.kind == kInt && bt.lo == defaultIntMin {
					return nil, c.errAt(d.Position(), "array dimension type %s must be bounded", id.Name)
				}
				// indexed by the type's values: int[1,N] gives 1..N
				size, first, index = bt.hi-bt.lo+1, bt.lo, bt.scalar
			}
		}
		if size == 0 {
			var err error
			size, err = c.constInt(&ctx{sc: sc}, d, "an array size")
			if err != nil {
				return nil, err
			}
			if size < 1 {
				return nil, c.errAt(d.Position(), "array size %d must be positive", size)
			}
		}
		if size*int64(t.count()) > maxSlots {
			// the whole array, outer dimensions included, for the message
			total := new(big.Int).Mul(big.NewInt(size), big.NewInt(int64(t.count())))
			for _, od := range dims[:i] {
				if n, err := c.constInt(&ctx{sc: sc}, od, "an array size"); err == nil && n > 0 {
					total.Mul(total, big.NewInt(n))
				} else if id, ok := od.(*syntax.Ident); ok {
					if sym := sc.lookup(id.Name); sym != nil && sym.kind == symType && sym.t.isData() {
						total.Mul(total, big.NewInt(sym.t.hi-sym.t.lo+1))
					}
				}
			}
			return nil, c.errAt(d.Position(), "array too large (%s elements; at most %d)", total, maxSlots)
		}
		t = &typ{kind: kArray, elem: t, size: int(size), first: first, index: index, constant: t.constant}
	}
	return t, nil
}

// constInit evaluates a constant initialiser of type t.
func (c *compiler) constInit(cx *ctx, t *typ, init syntax.Expr, name string) ([]int64, error) {
	elems, err := c.flatInit(cx, t, init, name)
	if err != nil {
		return nil, err
	}
	vals := make([]int64, len(elems))
	for i, e := range elems {
		if !e.isConst {
			return nil, c.errAt(e.pos, "the initialiser of %s must be a constant expression", name)
		}
		vals[i] = e.val
	}
	return vals, nil
}

// elemNames lists the names of the scalar elements of t, row-major:
// "a[0][1]".
func elemNames(name string, t *typ) []string {
	if t.kind != kArray {
		return []string{name}
	}
	var out []string
	for i := 0; i < t.size; i++ {
		out = append(out, elemNames(name+"["+strconv.FormatInt(t.first+int64(i), 10)+"]", t.elem)...)
	}
	return out
}

func (c *compiler) varDecl(sc *scope, d *syntax.VarDecl, own *owner) error {
	base, err := c.typeOf(sc, d.Type)
	if err != nil {
		return err
	}
	prefix, proc := "", -1
	if own != nil {
		prefix, proc = own.prefix, own.proc
	}
	for _, dn := range d.Names {
		t, err := c.arrayOf(sc, base, dn.Dims)
		if err != nil {
			return err
		}
		if err := c.declare(sc, dn.Name, dn.Pos); err != nil {
			return err
		}
		sym := &symbol{name: dn.Name, t: t, pos: c.text.At(dn.Pos)}
		switch b := t.base(); b.kind {
		case kVoid:
			return c.errAt(dn.Pos, "variable %s cannot be void", dn.Name)
		case kClock, kChan:
			if dn.Init != nil {
				return c.errAt(dn.Init.Position(), "%s %s cannot have an initialiser", b, dn.Name)
			}
			names := elemNames(prefix+dn.Name, t)
			if b.kind == kClock {
				sym.kind, sym.off = symClock, len(c.net.Clocks)
				dims := slotDims(t)
				for i, nm := range names {
					c.net.Clocks = append(c.net.Clocks, Clock{Name: nm, Proc: proc, Dims: dims[i]})
				}
				if len(c.net.Clocks)-1 > maxClocks { // Clocks[0] is the reference clock
					return c.errAt(dn.Pos, "too many clocks (at most %d)", maxClocks)
				}
			} else {
				sym.kind, sym.off = symChan, len(c.net.Chans)
				for _, nm := range names {
					c.net.Chans = append(c.net.Chans, Chan{Name: nm, Broadcast: b.broadcast, Urgent: b.urgent})
				}
				if len(c.net.Chans) > maxSlots {
					return c.errAt(dn.Pos, "too many channels")
				}
			}
		default:
			var vals []int64
			if dn.Init != nil {
				vals, err = c.constInit(&ctx{sc: sc}, t, dn.Init, dn.Name)
				if err != nil {
					return err
				}
			} else if base.constant {
				return c.errAt(dn.Pos, "constant %s needs an initialiser", dn.Name)
			} else {
				vals = make([]int64, t.count())
				for i, l := range leaves(t) {
					vals[i] = defaultValue(l)
				}
			}
			if base.constant {
				sym.kind, sym.vals = symConst, vals
				break
			}
			sym.kind, sym.where, sym.off = symVar, stGlobal, len(c.net.Vars)
			sym.vname = prefix + dn.Name
			ls := leaves(t)
			dims := slotDims(t)
			for i, nm := range slotNames(prefix+dn.Name, t) {
				l := ls[i]
				c.net.Vars = append(c.net.Vars, Var{Name: nm, Min: int32(l.lo), Max: int32(l.hi), Init: int32(vals[i]), Bool: l.kind == kBool,
					Proc: proc, Scalar: l.scalar, Dims: dims[i]})
			}
			if len(c.net.Vars) > maxSlots {
				return c.errAt(dn.Pos, "too many variables")
			}
		}
		sc.syms[dn.Name] = sym
	}
	return nil
}

// ---------------------------------------------------------------------------
// Templates and the system

func (c *compiler) templates() (map[string]*tmplInfo, error) {
	out := map[string]*tmplInfo{}
	for _, ft := range c.file.Templates {
		if !isIdent(ft.Name) {
			return nil, errorf(ft.Pos, "template name %q is not an identifier", ft.Name)
		}
		if old, ok := out[ft.Name]; ok {
			return nil, errorf(ft.Pos, "template %s is already declared (at %s)", ft.Name, old.ft.Pos)
		}
		ti := &tmplInfo{ft: ft, locs: map[string]int{}, init: -1}
		var err error
		if ti.params, err = parseParams(ft.Params); err != nil {
			return nil, err
		}
		if ti.decls, err = parseDecls(ft.Declarations); err != nil {
			return nil, err
		}
		if len(ft.Locations) == 0 {
			return nil, errorf(ft.Pos, "template %s has no locations", ft.Name)
		}
		for i, l := range ft.Locations {
			if !isIdent(l.Name) {
				return nil, errorf(l.Pos, "location name %q is not an identifier", l.Name)
			}
			if j, dup := ti.locs[l.Name]; dup {
				return nil, errorf(l.Pos, "location %s is already declared in template %s (at %s)", l.Name, ft.Name, ft.Locations[j].Pos)
			}
			ti.locs[l.Name] = i
			if l.Initial {
				if ti.init >= 0 {
					return nil, errorf(l.Pos, "template %s has two initial locations (%s and %s)", ft.Name, ft.Locations[ti.init].Name, l.Name)
				}
				ti.init = i
			}
			if l.Committed && l.Urgent {
				return nil, errorf(l.Pos, "location %s cannot be both committed and urgent", l.Name)
			}
			inv, err := parseExpr(l.Invariant)
			if err != nil {
				return nil, err
			}
			ti.invs = append(ti.invs, inv)
		}
		if ti.init < 0 {
			return nil, errorf(ft.Pos, "template %s has no initial location (mark one with initial: true)", ft.Name)
		}
		for _, fe := range ft.Edges {
			pe := &parsedEdge{fe: fe}
			var ok bool
			if pe.from, ok = ti.locs[fe.From]; !ok {
				return nil, errorf(fe.FromPos, "no location %s in template %s", fe.From, ft.Name)
			}
			if pe.to, ok = ti.locs[fe.To]; !ok {
				return nil, errorf(fe.ToPos, "no location %s in template %s", fe.To, ft.Name)
			}
			if pe.sel, err = parseSelect(fe.Select); err != nil {
				return nil, err
			}
			if pe.guard, err = parseExpr(fe.Guard); err != nil {
				return nil, err
			}
			if pe.sync, err = parseSync(fe.Sync); err != nil {
				return nil, err
			}
			if pe.update, err = parseUpdate(fe.Update); err != nil {
				return nil, err
			}
			ti.edges = append(ti.edges, pe)
		}
		out[ft.Name] = ti
	}
	return out, nil
}

// instance is a (partial) instantiation of the system declarations.
type instance struct {
	d    *syntax.InstanceDecl
	tmpl *tmplInfo
}

// system compiles the system declarations: declarations, instantiations and
// the system line, then the processes in order.
func (c *compiler) system(tmpls map[string]*tmplInfo) error {
	f := c.file
	if f.System.IsEmpty() {
		return errorf(Pos{File: f.Path, Line: 1, Col: 1}, "the model has no system declaration (system: \"system P, Q;\")")
	}
	c.text = f.System
	ds, err := parseSystem(f.System)
	if err != nil {
		return err
	}
	// System-level declarations are global but visible only here, as in
	// UPPAAL (they are declared after the templates).
	sys := newScope(c.st.global)
	insts := map[string]*instance{}
	var line *syntax.SystemDecl
	for _, d := range ds {
		switch d := d.(type) {
		case *syntax.InstanceDecl:
			if line != nil {
				return c.errAt(d.Pos, "instantiation after the system line")
			}
			t, ok := tmpls[d.Template]
			if !ok {
				if _, isInst := insts[d.Template]; isInst {
					return c.errAt(d.TmplPos, "%s is an instantiation, not a template (instantiate the template directly)", d.Template)
				}
				return c.errAt(d.TmplPos, "no template %s", d.Template)
			}
			if _, dup := insts[d.Name]; dup {
				return c.errAt(d.Pos, "instance %s is already declared", d.Name)
			}
			if _, dup := tmpls[d.Name]; dup {
				return c.errAt(d.Pos, "instance %s has the name of a template", d.Name)
			}
			insts[d.Name] = &instance{d: d, tmpl: t}
		case *syntax.SystemDecl:
			if line != nil {
				return c.errAt(d.Pos, "a second system line")
			}
			line = d
		default:
			if line != nil {
				return c.errAt(d.Position(), "declaration after the system line")
			}
			if err := c.decls(sys, []syntax.Decl{d}, nil); err != nil {
				return err
			}
		}
	}
	if line == nil {
		return errorf(f.System.Pos, "the system declarations have no system line (system P, Q;)")
	}
	if len(line.Groups) > 1 {
		c.net.Priorities = true
	}
	listed := map[string]bool{}
	for gi, g := range line.Groups {
		for _, id := range g {
			c.text = f.System
			if listed[id.Name] {
				return c.errAt(id.Pos, "%s is listed twice in the system line", id.Name)
			}
			listed[id.Name] = true
			first := len(c.net.Procs)
			if err := c.expand(sys, id, insts, tmpls); err != nil {
				return err
			}
			for _, p := range c.net.Procs[first:] {
				p.Priority = gi // system A < B: B's processes are higher
			}
		}
	}
	if len(c.net.Procs) == 0 {
		return c.errAt(line.Pos, "the system has no processes")
	}
	return nil
}

// expand creates the processes of one name of the system line: one per
// combination of values of its free parameters, in lexicographic order
// (the first parameter varies slowest).
func (c *compiler) expand(sys *scope, id *syntax.Ident, insts map[string]*instance, tmpls map[string]*tmplInfo) error {
	var free []*syntax.Param
	var tmpl *tmplInfo
	inst := insts[id.Name]
	if inst != nil {
		free, tmpl = inst.d.Params, inst.tmpl
	} else if t, ok := tmpls[id.Name]; ok {
		free, tmpl = t.params, t
	} else {
		return c.errAt(id.Pos, "no template or instantiation %s", id.Name)
	}
	// Free parameter types are evaluated where they were written: the
	// system declarations for instances, the template's parameter list
	// (in the global scope) otherwise.
	ranges := make([][2]int64, len(free))
	types := make([]*typ, len(free))
	for i, p := range free {
		var t *typ
		var err error
		if inst != nil {
			t, err = c.paramType(sys, p)
		} else {
			c.text = tmpl.ft.Params
			t, err = c.paramType(c.st.global, p)
			if err == nil && p.Ref {
				err = c.errAt(p.Pos, "template %s is listed in the system line with the free reference parameter %s: bind it by an instantiation", tmpl.ft.Name, p.Name)
			}
			c.text = c.file.System
		}
		if err != nil {
			return err
		}
		if inst != nil && p.Ref {
			return c.errAt(p.Pos, "free parameter %s of %s cannot be a reference", p.Name, id.Name)
		}
		if !t.isData() || t.kind == kArray || (t.kind == kInt && t.lo == defaultIntMin && t.hi == defaultIntMax) {
			return c.errAt(id.Pos, "free parameter %s of %s must be a bounded integer or bool (it is %s)", p.Name, id.Name, t)
		}
		types[i] = t
		ranges[i] = [2]int64{t.lo, t.hi}
	}
	vals := make([]int64, len(free))
	for i := range vals {
		vals[i] = ranges[i][0]
	}
	for {
		if len(c.net.Procs) >= maxProcesses {
			return c.errAt(id.Pos, "too many processes (at most %d)", maxProcesses)
		}
		name := id.Name
		if len(free) > 0 {
			parts := make([]string, len(vals))
			for i, v := range vals {
				parts[i] = strconv.FormatInt(v, 10)
			}
			name += "(" + strings.Join(parts, ",") + ")"
		}
		var args []argVal
		if inst != nil {
			sc := newScope(sys)
			for i, p := range free {
				sc.syms[p.Name] = &symbol{name: p.Name, kind: symConst, t: types[i].withConst(true), vals: []int64{vals[i]}}
			}
			c.text = c.file.System
			var err error
			args, err = c.instArgs(&ctx{sc: sc}, inst.d, tmpl)
			if err != nil {
				return err
			}
		} else {
			for _, v := range vals {
				args = append(args, argVal{val: []int64{v}})
			}
		}
		pi := &procInfo{inst: id.Name, args: append([]int64(nil), vals...)}
		if err := c.process(pi, name, tmpl, args, id.Pos); err != nil {
			return err
		}
		c.setFamily(pi.proc, id.Name, types, vals)
		for _, t := range types {
			pi.argSets = append(pi.argSets, t.scalar)
		}
		c.text = c.file.System
		// Next combination.
		k := len(vals) - 1
		for k >= 0 && vals[k] == ranges[k][1] {
			vals[k] = ranges[k][0]
			k--
		}
		if k < 0 {
			return nil
		}
		vals[k]++
	}
}

// argVal is an argument of a template instantiation: constant values (by
// value) or a reference to an object.
type argVal struct {
	val []int64
	ref *ref
	pos syntax.Pos
}

// instArgs evaluates the arguments of an instantiation.
func (c *compiler) instArgs(cx *ctx, d *syntax.InstanceDecl, tmpl *tmplInfo) ([]argVal, error) {
	if len(d.Args) != len(tmpl.params) {
		return nil, c.errAt(d.TmplPos, "template %s takes %d arguments, not %d", tmpl.ft.Name, len(tmpl.params), len(d.Args))
	}
	var out []argVal
	for i, a := range d.Args {
		p := tmpl.params[i]
		if p.Ref {
			r, err := c.refExpr(cx, a)
			if err != nil {
				return nil, err
			}
			if !r.static {
				return nil, c.errAt(a.Position(), "the argument for reference parameter %s must be a variable with constant indices", p.Name)
			}
			out = append(out, argVal{ref: r, pos: a.Position()})
			continue
		}
		e, err := c.expr(cx, a)
		if err != nil {
			return nil, err
		}
		if e.ref != nil && e.ref.space == rsConst && e.t.isAggregate() {
			r := e.ref
			vals := make([]int64, r.t.count())
			for k := range vals {
				vals[k] = int64(r.vals[r.off+k])
			}
			out = append(out, argVal{val: vals, pos: a.Position(), ref: r})
			continue
		}
		if e.fn == nil || !e.t.isData() {
			return nil, c.errAt(a.Position(), "the argument for parameter %s must be a constant value (declare the parameter as a reference: &%s)", p.Name, p.Name)
		}
		if !e.isConst {
			return nil, c.errAt(a.Position(), "the argument for parameter %s must be a constant expression", p.Name)
		}
		out = append(out, argVal{val: []int64{e.val}, pos: a.Position()})
	}
	return out, nil
}

// process instantiates template tmpl as process name with args.
func (c *compiler) process(pi *procInfo, name string, tmpl *tmplInfo, args []argVal, at syntax.Pos) error {
	if err := c.poll(); err != nil {
		return err
	}
	ft := tmpl.ft
	idx := len(c.net.Procs)
	p := &Process{Index: idx, Name: name, Template: ft.Name, Initial: tmpl.init}
	pi.proc = p
	pi.locs = tmpl.locs
	c.net.Procs = append(c.net.Procs, p)
	c.st.procs = append(c.st.procs, pi)
	sc := newScope(c.st.global)
	pi.scope = sc
	own := &owner{proc: idx, prefix: name + "."}
	// Parameters.
	sysText := c.text
	c.text = ft.Params
	for i, prm := range tmpl.params {
		t, err := c.paramType(c.st.global, prm)
		if err != nil {
			return err
		}
		if err := c.declare(sc, prm.Name, prm.Pos); err != nil {
			return err
		}
		a := args[i]
		sym, err := c.bindParam(prm, t, a, name, own, sysText)
		if err != nil {
			return err
		}
		sc.syms[prm.Name] = sym
	}
	// Local declarations.
	c.text = ft.Declarations
	if err := c.decls(sc, tmpl.decls, own); err != nil {
		return err
	}
	// Locations.
	for i, fl := range ft.Locations {
		loc := Location{Name: fl.Name, Committed: fl.Committed, Urgent: fl.Urgent, Src: fl.Invariant.S}
		if inv := tmpl.invs[i]; inv != nil {
			c.text = fl.Invariant
			c.lazy++
			cc, data, err := c.clockConstraints(&ctx{sc: sc}, inv, &loc.Rates)
			c.lazy--
			if err != nil {
				return err
			}
			loc.Invariant = cc
			if len(loc.Rates) > 0 {
				c.net.Stopwatches = true
			}
			if data != nil {
				if data.effects {
					return c.errAt(inv.Position(), "the invariant has side effects")
				}
				loc.InvData = c.boolExpr(data)
			}
		}
		p.Locations = append(p.Locations, loc)
	}
	// Edges.
	for _, pe := range tmpl.edges {
		if err := c.edges(p, sc, pe); err != nil {
			return err
		}
	}
	for i := range p.Edges {
		l := &p.Locations[p.Edges[i].From]
		l.Out = append(l.Out, i)
	}
	return nil
}

// bindParam binds template parameter prm (of type t) to argument a.
func (c *compiler) bindParam(prm *syntax.Param, t *typ, a argVal, procName string, own *owner, sysText Text) (*symbol, error) {
	sym := &symbol{name: prm.Name, t: t, pos: c.text.At(prm.Pos)}
	argErr := func(format string, args ...any) error {
		return &Error{Pos: sysText.At(a.pos), Msg: fmt.Sprintf(format, args...)}
	}
	if prm.Ref {
		r := a.ref
		if r == nil {
			return nil, argErr("the argument for reference parameter %s must be a variable", prm.Name)
		}
		if !sameShape(r.t, t) || t.hasStruct() && !equivalent(r.t, t) {
			return nil, argErr("the argument %s of type %s does not match parameter %s of type %s", r.name, r.t, prm.Name, t)
		}
		switch r.space {
		case rsClock:
			sym.kind, sym.off = symClock, r.off
		case rsChan:
			// A channel keeps its own kind through a reference: a plain
			// chan passed to a `broadcast chan &` parameter is still a
			// binary channel, as UTAP reads it. The parameter takes the
			// argument's type so that the template's checks (clock guards
			// on urgent or broadcast channels) see the real kind.
			sym.kind, sym.off, sym.t = symChan, r.off, r.t
		case rsConst:
			if !t.constant {
				return nil, argErr("constant %s passed to the non-const reference parameter %s", r.name, prm.Name)
			}
			sym.kind = symConst
			sym.vals = make([]int64, r.t.count())
			for k := range sym.vals {
				sym.vals[k] = int64(r.vals[r.off+k])
			}
		case rsData:
			if r.where != stGlobal {
				return nil, argErr("the argument for reference parameter %s must be a global variable", prm.Name)
			}
			if r.readonly && !t.constant {
				return nil, argErr("constant %s passed to the non-const reference parameter %s", r.name, prm.Name)
			}
			// The alias keeps the variable's own range (stores are checked
			// against it), with the parameter's constness.
			sym.kind, sym.where, sym.off = symVar, stGlobal, r.off
			sym.t = r.t.withConst(t.constant)
			sym.vname = r.name
		}
		return sym, nil
	}
	if k := t.base().kind; k == kClock || k == kChan {
		return nil, c.errAt(prm.Pos, "%s parameter %s must be a reference (%s &%s)", t.base(), prm.Name, t.base(), prm.Name)
	}
	if a.val == nil || len(a.val) != t.count() || (t.hasStruct() || a.ref != nil && a.ref.t.hasStruct()) && (a.ref == nil || !equivalent(t, a.ref.t)) {
		return nil, argErr("the argument for parameter %s must have type %s", prm.Name, t)
	}
	ls := leaves(t)
	vals := append([]int64(nil), a.val...)
	for k, v := range vals {
		if b := ls[k]; b.kind == kBool {
			vals[k] = b64(v != 0)
		} else if v < b.lo || v > b.hi {
			return nil, argErr("argument %d out of range [%d,%d] of parameter %s of %s", v, b.lo, b.hi, prm.Name, procName)
		}
	}
	if t.constant {
		sym.kind, sym.vals = symConst, vals
		return sym, nil
	}
	// A non-const value parameter is a variable of the process, initialised
	// with the argument.
	sym.kind, sym.where, sym.off = symVar, stGlobal, len(c.net.Vars)
	sym.vname = own.prefix + prm.Name
	dims := slotDims(t)
	for k, nm := range slotNames(own.prefix+prm.Name, t) {
		b := ls[k]
		c.net.Vars = append(c.net.Vars, Var{Name: nm, Min: int32(b.lo), Max: int32(b.hi), Init: int32(vals[k]), Bool: b.kind == kBool,
			Proc: own.proc, Scalar: b.scalar, Dims: dims[k]})
	}
	return sym, nil
}

// edges compiles one edge of the template: one Edge per combination of
// select values (first binding varies slowest).
func (c *compiler) edges(p *Process, sc *scope, pe *parsedEdge) error {
	fe := pe.fe
	type selv struct {
		name   string
		t      *typ
		lo, hi int64
	}
	var sels []selv
	c.text = fe.Select
	for _, b := range pe.sel {
		t, err := c.typeOf(sc, b.Type)
		if err != nil {
			return err
		}
		lo, hi, err := c.enumRange(t, b.Pos, "select type")
		if err != nil {
			return err
		}
		sels = append(sels, selv{b.Name, t, lo, hi})
	}
	// every combination compiles to at least one edge, so a product of
	// ranges past the cap is refused before any is compiled (a select
	// over 30,001 × 30,001 values took 5.5 s to reach the cap one edge
	// at a time)
	combos := int64(1)
	for _, s := range sels {
		combos *= s.hi - s.lo + 1 // each range is at most maxRangeEnum: no overflow before the test below
		if int64(c.nedges)+combos > maxEdges {
			c.text = fe.Select
			before := ""
			if c.nedges > 0 {
				before = fmt.Sprintf(", beside the %d compiled before it", c.nedges)
			}
			return c.errAt(pe.sel[0].Pos, "too many edges after select expansion (at most %d): the select gives %d combinations or more%s", maxEdges, combos, before)
		}
	}
	vals := make([]int64, len(sels))
	for i := range sels {
		vals[i] = sels[i].lo
	}
	c.lazy++
	defer func() { c.lazy-- }()
	for {
		if err := c.poll(); err != nil {
			return err
		}
		esc := sc
		var sv []SelectValue
		if len(sels) > 0 {
			esc = newScope(sc)
			for i, s := range sels {
				if _, dup := esc.syms[s.name]; dup {
					c.text = fe.Select
					return c.errAt(pe.sel[i].Pos, "select variable %s is declared twice", s.name)
				}
				esc.syms[s.name] = &symbol{name: s.name, kind: symConst, t: s.t.withConst(true), vals: []int64{vals[i]}}
				sv = append(sv, SelectValue{Name: s.name, Value: int32(vals[i])})
			}
		}
		c.text = fe.Guard
		guards, err := c.guardDisjuncts(&ctx{sc: esc}, pe.guard)
		if err != nil {
			return err
		}
		for _, g := range guards {
			pg := *pe
			pg.guard = g
			e, resets, err := c.edge(p, esc, &pg)
			if err != nil {
				return err
			}
			e.Select = sv
			e.Index = len(p.Edges)
			if len(resets) > 0 {
				c.resetsOf[[2]int{p.Index, e.Index}] = resets
			}
			p.Edges = append(p.Edges, *e)
			c.nedges++
			if c.nedges > maxEdges {
				return errorf(fe.Pos, "too many edges after select expansion (at most %d)", maxEdges)
			}
		}
		k := len(vals) - 1
		for k >= 0 && vals[k] == sels[k].hi {
			vals[k] = sels[k].lo
			k--
		}
		if k < 0 {
			return nil
		}
		vals[k]++
	}
}

// edge compiles one (select-expanded) edge. It also returns the clocks the
// update certainly resets (top-level resets with a constant clock index),
// for the clock-bound analysis.
func (c *compiler) edge(p *Process, sc *scope, pe *parsedEdge) (*Edge, []int, error) {
	fe := pe.fe
	e := &Edge{Proc: p.Index, From: pe.from, To: pe.to, Sync: -1,
		GuardSrc: fe.Guard.S, SyncSrc: fe.Sync.S, UpdateSrc: fe.Update.S, SelectSrc: fe.Select.S, Comment: fe.Comment}
	cx := &ctx{sc: sc}
	if pe.guard != nil {
		c.text = fe.Guard
		cc, data, err := c.clockConstraints(cx, pe.guard, nil)
		if err != nil {
			return nil, nil, err
		}
		e.ClockGuard = cc
		if data != nil {
			if data.effects {
				return nil, nil, c.errAt(pe.guard.Position(), "the guard has side effects")
			}
			if !(data.isConst && data.val != 0) {
				e.Guard = c.boolExpr(data)
			}
		}
	}
	if s := pe.sync; s != nil {
		c.text = fe.Sync
		r, err := c.refExpr(cx, s.Chan)
		if err != nil {
			return nil, nil, err
		}
		if r.space != rsChan {
			return nil, nil, c.errAt(s.Pos, "%s is not a channel: '%s' needs a channel", r.name, map[bool]string{true: "!", false: "?"}[s.Send])
		}
		if r.t.kind != kChan {
			return nil, nil, c.errAt(s.Pos, "%s is an array of channels: index it", r.name)
		}
		if r.effects {
			return nil, nil, c.errAt(s.Pos, "the channel expression has side effects")
		}
		e.Send = s.Send
		if r.static {
			e.Sync = r.off
		} else {
			e.SyncExpr = c.intExpr(r.addr)
		}
		if len(e.ClockGuard) > 0 {
			if r.t.urgent {
				return nil, nil, c.errAt(s.Pos, "clock guard on an edge synchronising on urgent channel %s: not supported (UPPAAL only warns, and its semantics then depends on the clock values)", r.name)
			}
			if r.t.broadcast && !s.Send && len(e.ClockGuard) > MaxReceiverGuard {
				return nil, nil, c.errAt(s.Pos, "the clock guard of a receiver of broadcast channel %s has %d constraints; at most %d are supported", r.name, len(e.ClockGuard), MaxReceiverGuard)
			}
		}
		e.BroadcastRecv = r.t.broadcast && !s.Send
	}
	var resets []int
	if len(pe.update) > 0 {
		c.text = fe.Update
		var acts []func(*Env) int32
		for _, u := range pe.update {
			f, err := c.updateExpr(cx, u)
			if err != nil {
				return nil, nil, err
			}
			acts = append(acts, f)
			if a, ok := unparen(u).(*syntax.AssignExpr); ok && a.Op == syntax.OpAssign {
				if r, err := c.refExpr(cx, a.LHS); err == nil && r.space == rsClock && r.static {
					resets = append(resets, r.off)
				}
			}
		}
		e.Update = func(en *Env) {
			en.enter()
			for _, a := range acts {
				a(en)
				if en.Err != nil {
					return
				}
			}
		}
	}
	return e, resets, nil
}

// updateExpr compiles one expression of an update: it must do something.
func (c *compiler) updateExpr(cx *ctx, u syntax.Expr) (func(*Env) int32, error) {
	switch x := unparen(u).(type) {
	case *syntax.AssignExpr, *syntax.IncDecExpr, *syntax.CallExpr:
		return c.effectExpr(cx, nil, x)
	}
	v, err := c.expr(cx, u)
	if err != nil {
		return nil, err
	}
	if !v.effects {
		return nil, c.errAt(u.Position(), "the update %s has no effect", exprString(u))
	}
	return v.fn, nil
}

// boolExpr wraps a compiled condition as a top-level BoolExpr.
func (c *compiler) boolExpr(d *cexpr) BoolExpr {
	if d.isConst {
		v := d.val != 0
		return func(*Env) bool { return v }
	}
	f := d.fn
	return func(e *Env) bool { e.enter(); return f(e) != 0 }
}

// intExpr wraps a compiled value as a top-level IntExpr.
func (c *compiler) intExpr(f func(*Env) int32) IntExpr {
	return func(e *Env) int32 { e.enter(); return f(e) }
}

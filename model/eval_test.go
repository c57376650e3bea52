package model

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/tcheck/tcheck/model/syntax"
)

// mustCompile parses and compiles a model (completed by completeModel).
func mustCompile(t testing.TB, src string, set map[string]int64) *Network {
	t.Helper()
	f, err := Parse("test.yaml", []byte(completeModel(src)))
	if err != nil {
		t.Fatal(err)
	}
	n, err := f.Compile(set)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// eval evaluates a side-effect-free data expression in env (as a sup/inf
// term would be).
func eval(t testing.TB, n *Network, env *Env, expr string) (int32, *RuntimeError) {
	t.Helper()
	term, err := compileTerm(n, expr)
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	if term.Data == nil {
		t.Fatalf("%s: not a data term", expr)
	}
	env.Err = nil
	v := term.Data(env)
	return v, env.Err
}

// TestEvalExpressions proves the operators and built-ins compute what
// UPPAAL (C) computes, on constants (folded) and on variables (compiled).
func TestEvalExpressions(t *testing.T) {
	n := mustCompile(t, `declarations: |
  int a = 7, b = -3, z = 0, s = 2;
  bool t = true, f = false;
  int[0,255] m = 12;
`, nil)
	env := n.NewEnv()
	cases := []struct {
		expr string
		want int32
	}{
		{"a + b * 2", 1}, {"a / 2", 3}, {"b / 2", -1}, {"a % 3", 1}, {"b % 2", -1}, {"-a", -7}, {"+a", 7},
		{"a << s", 28}, {"a >> 1", 3}, {"b >> 1", -2}, {"m & 4", 4}, {"m | 1", 13}, {"m ^ 15", 3}, {"~m", -13},
		{"a <? b", -3}, {"a >? b", 7}, {"min(a, b)", -3}, {"max(a, b)", 7}, {"abs(b)", 3}, {"abs(a)", 7},
		{"a > b ? a : b", 7}, {"t ? 1 : 2", 1}, {"f ? 1 : 2", 2},
		{"t && f", 0}, {"t || f", 1}, {"t and not f", 1}, {"f or f", 0}, {"f imply z", 1}, {"t imply f", 0},
		{"!a", 0}, {"!z", 1}, {"a == 7", 1}, {"a != 7", 0}, {"b < a", 1}, {"b >= a", 0}, {"t == 1", 1},
		{"t + t", 2}, {"a && b", 1}, {"z || a", 1},
		{"(1 << 3) - 1", 7}, {"7 / 2 * 2", 6}, {"-7 % 3", -1}, {"3 <? 2 >? 1", 2},
		{"forall (i : int[0,3]) i < a", 1}, {"exists (i : int[0,3]) i == s", 1}, {"sum (i : int[1,3]) i * a", 42},
	}
	for _, c := range cases {
		got, rerr := eval(t, n, env, c.expr)
		if rerr != nil {
			t.Errorf("%s: %v", c.expr, rerr)
		} else if got != c.want {
			t.Errorf("%s = %d, want %d", c.expr, got, c.want)
		}
	}
}

// TestPowerOperator proves that UPPAAL 5's a ** b is exact integer
// exponentiation on variables and on constants alike: 0 ** 0 is 1, a
// negative base alternates in sign, a negative exponent and a result outside
// 32 bits are errors (a runtime error on variables, a compile error on
// constants), and large exponents of 0, 1 and -1 are computed quickly.
func TestPowerOperator(t *testing.T) {
	n := mustCompile(t, `declarations: |
  int a = 7, b = -3, z = 0, s = 2, one = 1, mone = -1, neg = -1;
  int32_t big = 46341, top = 2147483647;
`, nil)
	env := n.NewEnv()
	for _, c := range []struct {
		vars, consts string // the same computation on variables and on literals
		want         int32
		err          string
	}{
		{"a ** s", "7 ** 2", 49, ""},
		{"b ** 3", "(-3) ** 3", -27, ""},
		{"-s ** s", "-2 ** 2", 4, ""}, // prefix minus binds tighter: (-2) ** 2
		{"s ** s ** 3", "2 ** 2 ** 3", 64, ""},
		{"z ** z", "0 ** 0", 1, ""},
		{"z ** a", "0 ** 7", 0, ""},
		{"a ** z", "7 ** 0", 1, ""},
		{"one ** top", "1 ** 2147483647", 1, ""},
		{"mone ** top", "(-1) ** 2147483647", -1, ""},
		{"s ** 31", "2 ** 31", 0, "overflow"},
		{"-s ** 31", "-2 ** 31", -2147483648, ""},
		{"big ** s", "46341 ** 2", 0, "overflow"},
		{"s ** top", "2 ** 2147483647", 0, "overflow"},
		{"a ** neg", "7 ** -1", 0, "negative exponent"},
	} {
		got, rerr := eval(t, n, env, c.vars)
		switch {
		case c.err != "" && (rerr == nil || !strings.Contains(rerr.Error(), c.err)):
			t.Errorf("%s: got %d, %v; want an error with %q", c.vars, got, rerr, c.err)
		case c.err == "" && (rerr != nil || got != c.want):
			t.Errorf("%s = %d, %v; want %d", c.vars, got, rerr, c.want)
		}
		x, err := syntax.ParseExpr(c.consts)
		if err != nil {
			t.Fatal(err)
		}
		term, err := n.CompileTerm(x, NewText(c.consts, Pos{File: "expr", Line: 1, Col: 1}))
		switch {
		case c.err != "":
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: compiled (%v); want an error with %q", c.consts, err, c.err)
			}
		case err != nil:
			t.Errorf("%s: %v", c.consts, err)
		case term.Data == nil:
			t.Errorf("%s: not a data term", c.consts)
		default:
			if got := term.Data(env); got != c.want {
				t.Errorf("%s = %d, want %d", c.consts, got, c.want)
			}
		}
	}
}

// TestDefaultValueIsZeroClampedIntoRange proves that a variable declared
// without an initialiser starts at 0 when its range holds 0, and otherwise
// at the bound nearest 0 (the lower bound of int[1,5], as UPPAAL models such
// as `int[1,5] m_status;` need; issue 17): global, template-local and
// function-local variables, each element of an array and each field of a
// struct by its own range.
func TestDefaultValueIsZeroClampedIntoRange(t *testing.T) {
	n := mustCompile(t, `declarations: |
  int[1,5] m_status;
  int[-5,-2] below;
  int[-3,3] around;
  int[2,4] arr[2][2];
  typedef int[7,9] seven_t;
  seven_t named;
  int[10,20] fromFunction() { int[10,20] local; return local; }
  int[-9,-4] fromFunctionNeg() { int[-9,-4] local[2]; return local[1]; }
  typedef struct { int a; int[1,3] b; int[-4,-2] c[2]; } T;
  T s;
  int[1,3] fromStruct() { T local; return local.b; }
templates:
  - name: P
    declarations: int[3,8] own;
    locations:
      - {name: a, initial: true}
`, nil)
	env := n.NewEnv()
	for _, c := range []struct {
		name string
		want int32
	}{
		{"m_status", 1}, {"below", -2}, {"around", 0},
		{"arr[0][0]", 2}, {"arr[1][1]", 2}, {"named", 7}, {"P.own", 3},
		{"s.a", 0}, {"s.b", 1}, {"s.c[0]", -2}, {"s.c[1]", -2},
	} {
		i := n.VarIndex(c.name)
		if i < 0 {
			t.Errorf("%s: no such variable", c.name)
			continue
		}
		if got := env.Vars[i]; got != c.want {
			t.Errorf("%s starts at %d, want %d", c.name, got, c.want)
		}
	}
	for _, c := range []struct {
		expr string
		want int32
	}{{"fromFunction()", 10}, {"fromFunctionNeg()", -4}, {"fromStruct()", 1}} {
		if got, rerr := eval(t, n, env, c.expr); rerr != nil || got != c.want {
			t.Errorf("%s = %d, %v; want %d", c.expr, got, rerr, c.want)
		}
	}
}

// TestEvalFunctions proves functions with loops (range for, C for, while,
// do, break, continue, early return), locals, multi-dimensional arrays,
// by-value and by-reference parameters compute the right values.
func TestEvalFunctions(t *testing.T) {
	n := mustCompile(t, `declarations: |
  const int N = 4;
  typedef int[0, N-1] id_t;
  int grid[N][3] = {{1,2,3},{4,5,6},{7,8,9},{10,11,12}};
  bool flags[N] = {false, true, false, true};
  const int primes[5] = {2, 3, 5, 7, 11};
  int g = 0;

  int sumRow(const id_t r) { int s = 0; for (j : int[0,2]) s += grid[r][j]; return s; }
  int sumAll() { int s = 0; for (i : id_t) s = s + sumRow(i); return s; }
  int firstFlag() { int i; for (i = 0; i < N; i++) if (flags[i]) return i; return -1; }
  int countOdd() {
    int c = 0, i = 0;
    for (i = 0; i < 10; ++i) { if (i % 2 == 0) continue; c++; }
    return c;
  }
  int whileLoop(int k) { int steps = 0; while (k > 1) { k = k % 2 == 0 ? k / 2 : 3 * k + 1; steps++; } return steps; }
  int doLoop() { int k = 0; do { k += 5; } while (k < 12); return k; }
  int breakAt(int lim) { int i; for (i = 0; ; i++) { if (i >= lim) break; } return i; }
  int nested() { int c = 0; for (i : id_t) for (j : id_t) { if (j > i) break; c++; } return c; }
  void incr(int &x) { x++; }
  int byRef() { int loc = 5; incr(loc); incr(loc); return loc; }
  int copyArr(int a[3]) { a[0] = 100; return a[0] + a[1]; }
  int byValArr() { int r = copyArr(grid[1]); return r * 100 + grid[1][0]; }
  int sumArr(const int &a[3]) { return a[0] + a[1] + a[2]; }
  int refArr() { return sumArr(grid[2]); }
  int prime(int i) { return primes[i]; }
  int local2d() { int m[2][2] = {{1, 2}, {3, 4}}; m[1][0] = m[0][1] * 10; return m[1][0] + m[1][1]; }
  bool boolRet() { return 5; }
  int shadow(int g) { return g * 2; }
  int useGlobal() { return g + 1; }
`, nil)
	env := n.NewEnv()
	cases := []struct {
		expr string
		want int32
	}{
		{"sumRow(1)", 15}, {"sumAll()", 78}, {"firstFlag()", 1}, {"countOdd()", 5}, {"whileLoop(6)", 8},
		{"doLoop()", 15}, {"breakAt(7)", 7}, {"nested()", 10}, {"byRef()", 7}, {"byValArr()", 10504},
		{"refArr()", 24}, {"prime(3)", 7}, {"local2d()", 24}, {"boolRet()", 1}, {"shadow(21)", 42},
		{"useGlobal()", 1}, {"sumRow(2) + sumRow(3)", 57},
	}
	for _, c := range cases {
		got, rerr := eval(t, n, env, c.expr)
		if rerr != nil {
			t.Errorf("%s: %v", c.expr, rerr)
		} else if got != c.want {
			t.Errorf("%s = %d, want %d", c.expr, got, c.want)
		}
	}
	// Functions do not leak frame state: the stack is empty afterwards.
	if env.sp != 0 || env.fp != 0 {
		t.Errorf("frame stack not empty: sp=%d fp=%d", env.sp, env.fp)
	}
}

// runEdge runs edge i of process p in env: the guard, then the update,
// returning the resets.
func runEdge(t testing.TB, n *Network, env *Env, p, i int) []Reset {
	t.Helper()
	e := &n.Procs[p].Edges[i]
	env.Err = nil
	if e.Guard != nil && !e.Guard(env) {
		t.Fatalf("edge %d of %s: guard false", i, n.Procs[p].Name)
	}
	env.Resets = env.Resets[:0]
	if e.Update != nil {
		e.Update(env)
	}
	return env.Resets
}

// TestEvalUpdates proves updates run their assignments left to right,
// record clock resets in order, normalise bools, and that template
// reference parameters write the bound global.
func TestEvalUpdates(t *testing.T) {
	n := mustCompile(t, `declarations: |
  int a, b;
  bool flag;
  int arr[3];
  clock x, y;
  void resetY() { y = 7; }
templates:
  - name: P
    parameters: int &v, const int k
    declarations: int[0,10] loc = 1;
    locations:
      - {name: s, initial: true}
    edges:
      - {from: s, to: s, update: "a = 1, b = a + 1, x = 0, flag = 5, resetY(), v = k + loc, arr[b] = 9, loc++"}
system: |
  Q = P(arr[0], 4);
  system Q;
`, nil)
	env := n.NewEnv()
	resets := runEdge(t, n, env, 0, 0)
	if env.Err != nil {
		t.Fatal(env.Err)
	}
	want := map[string]int32{"a": 1, "b": 2, "flag": 1, "arr[0]": 5, "arr[2]": 9, "Q.loc": 2}
	for name, v := range want {
		if got := env.Vars[n.VarIndex(name)]; got != v {
			t.Errorf("%s = %d, want %d", name, got, v)
		}
	}
	if wantR := []Reset{{Clock: n.ClockIndex("x"), Value: 0}, {Clock: n.ClockIndex("y"), Value: 7}}; !reflect.DeepEqual(resets, wantR) {
		t.Errorf("resets %v, want %v", resets, wantR)
	}
}

// TestRuntimeErrors proves that an assignment outside a declared range, an
// index out of bounds and a division by zero are reported as runtime errors
// with the position of the offending expression, never wrapped.
func TestRuntimeErrors(t *testing.T) {
	n := mustCompile(t, `declarations: |
  int[0,3] small;
  int big;
  int arr[2];
  int i = 5;
  int zero = 0;
  bool bb;
  int[0,3] k = 3;
  void bump(int[0,3] &r) { r = r + 1; }
  int[0,1] narrow(int v) { return v; }
  int idx() { return arr[i]; }
  int div() { return 4 / zero; }
  int loopForever() { while (true) { } return 0; }
templates:
  - name: P
    declarations: int[-1,3] cnt = 3;
    locations:
      - {name: s, initial: true}
    edges:
      - {from: s, to: s, update: cnt++}
      - {from: s, to: s, update: big = 40000}
      - {from: s, to: s, update: bump(k)}
      - {from: s, to: s, update: "arr[i] = 1"}
      - {from: s, to: s, update: small = 2 - 3}
`, nil)
	cases := []struct {
		edge int
		want string
	}{
		{0, "test.yaml:20:37: assignment of 4 to P.cnt out of range [-1,3]"},
		{1, "test.yaml:21:38: assignment of 40000 to big out of range [-32768,32767]"},
		{2, "test.yaml:9:30: assignment of 4 to k out of range [0,3]"},
		{3, "test.yaml:23:38: index 5 out of bounds [0,1] of arr"},
		{4, "test.yaml:24:40: assignment of -1 to small out of range [0,3]"},
	}
	for _, c := range cases {
		env := n.NewEnv()
		before := append([]int32(nil), env.Vars...)
		runEdge(t, n, env, 0, c.edge)
		if env.Err == nil {
			t.Errorf("edge %d: no runtime error", c.edge)
			continue
		}
		if got := env.Err.Error(); got != c.want {
			t.Errorf("edge %d: %s, want %s", c.edge, got, c.want)
		}
		// The failing store is not performed.
		if c.edge == 0 && env.Vars[n.VarIndex("P.cnt")] != before[n.VarIndex("P.cnt")] {
			t.Errorf("edge %d: out-of-range value stored", c.edge)
		}
	}
	defer func(old int) { maxSteps = old }(maxSteps)
	maxSteps = 1000
	env := n.NewEnv()
	for _, c := range []struct{ expr, want string }{
		{"narrow(2)", "test.yaml:10:28: return value 2 of narrow out of range [0,1]"},
		{"idx()", "test.yaml:11:25: index 5 out of bounds [0,1] of arr"},
		{"div()", "test.yaml:12:24: division by zero"},
		{"loopForever()", "test.yaml:13:23: evaluation did not terminate after 1000 loop iterations and function calls"},
	} {
		_, rerr := eval(t, n, env, c.expr)
		if rerr == nil {
			t.Errorf("%s: no runtime error", c.expr)
		} else if rerr.Error() != c.want {
			t.Errorf("%s: %s, want %s", c.expr, rerr, c.want)
		}
	}
}

// TestSelectExpansion proves a select makes one edge per value combination
// (first binding slowest), with the values folded into guard, sync and
// update and recorded in Edge.Select.
func TestSelectExpansion(t *testing.T) {
	n := mustCompile(t, `declarations: |
  typedef int[0,1] two_t;
  chan c[3];
  int last = -1;
  int hits[3][2];
templates:
  - name: P
    locations:
      - {name: s, initial: true}
    edges:
      - {from: s, to: s, select: "i : int[0,2], j : two_t", guard: i != j, sync: "c[i]!", update: "last = 10 * i + j, hits[i][j]++"}
`, nil)
	p := n.Procs[0]
	if len(p.Edges) != 6 {
		t.Fatalf("%d edges, want 6", len(p.Edges))
	}
	var got []string
	for k := range p.Edges {
		e := &p.Edges[k]
		env := n.NewEnv()
		enabled := e.Guard == nil || e.Guard(env)
		if enabled {
			e.Update(env)
		}
		got = append(got, fmt.Sprintf("%v sync=%s enabled=%v last=%d", e.Select, n.Chans[e.Sync].Name, enabled, env.Vars[n.VarIndex("last")]))
	}
	want := []string{
		"[{i 0} {j 0}] sync=c[0] enabled=false last=-1",
		"[{i 0} {j 1}] sync=c[0] enabled=true last=1",
		"[{i 1} {j 0}] sync=c[1] enabled=true last=10",
		"[{i 1} {j 1}] sync=c[1] enabled=false last=-1",
		"[{i 2} {j 0}] sync=c[2] enabled=true last=20",
		"[{i 2} {j 1}] sync=c[2] enabled=true last=21",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if out := p.Locations[0].Out; !reflect.DeepEqual(out, []int{0, 1, 2, 3, 4, 5}) {
		t.Errorf("Out = %v", out)
	}
}

// TestInstantiation proves partial instantiation and free parameters: one
// process per value combination in order, named after the instance with its
// arguments, with the bound arguments folded in; plain instances keep their
// name; template-local variables and clocks are per process.
func TestInstantiation(t *testing.T) {
	n := mustCompile(t, `parameters: {f: 1}
declarations: |
  typedef int[0,2] pid_t;
  typedef int[0,1] bid_t;
templates:
  - name: Process
    parameters: const pid_t id, const bool mayFail
    declarations: clock x; int[0,5] k = id;
    locations:
      - {name: s, initial: true}
  - name: Broadcast
    parameters: const pid_t id, const bid_t bid
    declarations: clock x;
    locations:
      - {name: s, initial: true}
  - name: Observer
    locations:
      - {name: s, initial: true}
system: |
  Proc(const pid_t id) = Process(id, id < f);
  system Proc, Observer, Broadcast;
`, nil)
	var names []string
	for _, p := range n.Procs {
		names = append(names, p.Name)
	}
	want := "Proc(0) Proc(1) Proc(2) Observer Broadcast(0,0) Broadcast(0,1) Broadcast(1,0) Broadcast(1,1) Broadcast(2,0) Broadcast(2,1)"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("processes %s, want %s", got, want)
	}
	env := n.NewEnv()
	for _, c := range []struct {
		expr string
		want int32
	}{{"Proc(0).mayFail", 1}, {"Proc(1).mayFail", 0}, {"Proc(2).k", 2}, {"Broadcast(2,1).bid", 1}, {"Proc(1).id", 1}} {
		got, rerr := eval(t, n, env, c.expr)
		if rerr != nil || got != c.want {
			t.Errorf("%s = %d (%v), want %d", c.expr, got, rerr, c.want)
		}
	}
	var clocks []string
	for _, c := range n.Clocks[1:] {
		clocks = append(clocks, fmt.Sprintf("%s@%d", c.Name, c.Proc))
	}
	wantC := "Proc(0).x@0 Proc(1).x@1 Proc(2).x@2 Broadcast(0,0).x@4 Broadcast(0,1).x@5 Broadcast(1,0).x@6 Broadcast(1,1).x@7 Broadcast(2,0).x@8 Broadcast(2,1).x@9"
	if got := strings.Join(clocks, " "); got != wantC {
		t.Errorf("clocks %s, want %s", got, wantC)
	}
}

// TestParameterOverride proves --set values replace the file's parameters
// everywhere they are used (ranges, array sizes, process counts).
func TestParameterOverride(t *testing.T) {
	src := `parameters: {n: 2}
declarations: |
  typedef int[0,n-1] id_t;
  int[0,n] cnt[n];
templates:
  - name: P
    parameters: const id_t id
    locations:
      - {name: s, initial: true}
`
	for _, k := range []int64{1, 2, 5} {
		n := mustCompile(t, src, map[string]int64{"n": k})
		if int64(len(n.Procs)) != k || int64(len(n.Vars)) != k || int64(n.Vars[0].Max) != k {
			t.Errorf("n=%d: %d processes, %d vars, max %d", k, len(n.Procs), len(n.Vars), n.Vars[0].Max)
		}
		if n.Params[0] != (Param{"n", k}) {
			t.Errorf("n=%d: Params %v", k, n.Params)
		}
	}
}

// TestDynamicSync proves a channel index that depends on data compiles to
// SyncExpr.
func TestDynamicSync(t *testing.T) {
	n := mustCompile(t, `declarations: |
  chan c[3];
  int[0,2] k = 2;
templates:
  - name: P
    locations:
      - {name: s, initial: true}
    edges:
      - {from: s, to: s, sync: "c[k]?"}
`, nil)
	e := &n.Procs[0].Edges[0]
	if e.Sync != -1 || e.SyncExpr == nil || e.Send || !e.HasSync() {
		t.Fatalf("edge %+v", e)
	}
	if got := e.SyncExpr(n.NewEnv()); got != 2 {
		t.Errorf("SyncExpr = %d, want 2", got)
	}
}

// TestReferenceParameters proves template parameters by reference bind a
// process to a global variable (element), clock or channel, and that a
// renaming instantiation keeps the instance's name.
func TestReferenceParameters(t *testing.T) {
	n := mustCompile(t, `declarations: |
  int v[2];
  clock c1, c2;
  chan a, b;
templates:
  - name: T
    parameters: int &x, clock &y, chan &ch, const int k
    locations:
      - {name: s, initial: true, invariant: y <= 5}
    edges:
      - {from: s, to: s, guard: y >= 1, sync: ch!, update: "x = k, y = 0"}
  - name: O
    locations:
      - {name: s, initial: true}
system: |
  T0 = T(v[1], c2, b, 7);
  Obs = O();
  system T0, Obs;
`, nil)
	if got := n.Procs[1].Name; got != "Obs" {
		t.Errorf("instance name %s, want Obs", got)
	}
	e := &n.Procs[0].Edges[0]
	if n.Chans[e.Sync].Name != "b" {
		t.Errorf("sync on %s, want b", n.Chans[e.Sync].Name)
	}
	if c := e.ClockGuard[0]; c.J != n.ClockIndex("c2") {
		t.Errorf("guard on clock %d, want c2", c.J)
	}
	if c := n.Procs[0].Locations[0].Invariant[0]; c.I != n.ClockIndex("c2") {
		t.Errorf("invariant on clock %d, want c2", c.I)
	}
	env := n.NewEnv()
	resets := runEdge(t, n, env, 0, 0)
	if env.Vars[n.VarIndex("v[1]")] != 7 || env.Vars[n.VarIndex("v[0]")] != 0 {
		t.Errorf("v = %v, want [0 7]", env.Vars)
	}
	if len(resets) != 1 || resets[0].Clock != n.ClockIndex("c2") {
		t.Errorf("resets %v, want c2", resets)
	}
	// The reset of the bound clock stops bound propagation like a local one.
	if l := n.Procs[0].Locations[0]; l.U[n.ClockIndex("c2")] != 5 || l.L[n.ClockIndex("c2")] != 1 {
		t.Errorf("bounds of c2: L %d U %d", l.L[n.ClockIndex("c2")], l.U[n.ClockIndex("c2")])
	}
}

// TestCompoundAssignments proves each compound assignment operator, in
// functions (locals, globals, array elements, references), and the frame
// stack's growth for an Env not made by NewEnv.
func TestCompoundAssignments(t *testing.T) {
	n := mustCompile(t, `declarations: |
  int g = 5;
  int arr[2] = {3, 4};
  int a;
  void twice(int &r) { r *= 2; }
  int ops() {
    int a = 100, r = 0;
    a += 5; r = r * 2 + (a == 105);
    a -= 10; r = r * 2 + (a == 95);
    a *= 2; r = r * 2 + (a == 190);
    a /= 3; r = r * 2 + (a == 63);
    a %= 10; r = r * 2 + (a == 3);
    a <<= 4; r = r * 2 + (a == 48);
    a >>= 2; r = r * 2 + (a == 12);
    a &= 10; r = r * 2 + (a == 8);
    a |= 3; r = r * 2 + (a == 11);
    a ^= 1; r = r * 2 + (a == 10);
    return r;
  }
  int globals() { g += 1; arr[1] -= 1; twice(arr[0]); twice(g); a := 7; return g * 100 + arr[0] * 10 + arr[1] + a; }
  int divZero() { int k = 1, z = 0; k /= z; return k; }
  int depth3(int v) { return v + 1; }
  int depth2(int v) { return depth3(depth3(v)) + 1; }
  int depth1(int v) { return depth2(depth2(v)) * 2; }
templates:
  - name: P
    locations:
      - {name: s, initial: true}
    edges:
      - {from: s, to: s, update: "arr[0] = globals()"}
`, nil)
	env := n.NewEnv()
	if got, rerr := eval(t, n, env, "ops()"); rerr != nil || got != 1023 {
		t.Errorf("ops() = %b, %v; want all ten checks true (1111111111)", got, rerr)
	}
	if got, rerr := eval(t, n, env, "divZero()"); rerr == nil || rerr.Msg != "division by zero" {
		t.Errorf("divZero() = %d, %v", got, rerr)
	}
	runEdge(t, n, env, 0, 0)
	// g: 5+1 = 6, doubled 12; arr = {6, 3}; a = 7: 1200 + 60 + 3 + 7.
	if got := env.Vars[n.VarIndex("arr[0]")]; got != 1270 || env.Err != nil {
		t.Errorf("arr[0] = %d (%v), want 1270", got, env.Err)
	}
	// An Env without a preallocated stack grows it.
	bare := &Env{Vars: n.InitialVars(), Locs: make([]int32, len(n.Procs))}
	if got, rerr := eval(t, n, bare, "depth1(1)"); rerr != nil || got != 14 {
		t.Errorf("depth1(1) = %d, %v; want 14", got, rerr)
	}
}

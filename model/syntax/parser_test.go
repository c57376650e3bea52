package syntax

import (
	"strings"
	"testing"
)

// TestParseConstructs parses one example of every construct of the language
// through its entry point and checks the canonical print (want) and, where
// the grouping matters, the fully parenthesised tree (tree).
func TestParseConstructs(t *testing.T) {
	for _, tc := range constructTests {
		t.Run(tc.name, func(t *testing.T) {
			tree, err := parseAs(tc.kind, tc.src)
			if err != nil {
				t.Fatalf("%s: %v", tc.src, err)
			}
			want := tc.want
			if want == "" && strings.TrimSpace(tc.src) != "" {
				want = tc.src
			}
			if got := render(tree, false); got != want {
				t.Errorf("print:\n got %q\nwant %q", got, want)
			}
			if tc.tree != "" {
				if got := render(tree, true); got != tc.tree {
					t.Errorf("tree:\n got %q\nwant %q", got, tc.tree)
				}
			}
			checkRoundTrip(t, tc.kind, tc.src)
		})
	}
}

// constructTests has one example of each construct, with the entry point
// that parses it.
var constructTests = []struct {
	name, kind, src string
	want            string // canonical print; "" means the same as src
	tree            string // fully parenthesised print, if checked
}{
	// Variables, constants, clocks, channels.
	{name: "int", kind: kindDecls, src: "int x;\n"},
	{name: "int with init", kind: kindDecls, src: "int x = 3;\n"},
	{name: "ranged int", kind: kindDecls, src: "int[-1, 1] v;\n", tree: "int[(-1), 1] v;\n"},
	{name: "bool", kind: kindDecls, src: "bool alive = false, has_halted = true;\n"},
	{name: "const", kind: kindDecls, src: "const int N = 3, M = 4;\n"},
	{name: "old assignment in initialiser", kind: kindDecls, src: "int x := 3;", want: "int x = 3;\n"},
	{name: "clock", kind: kindDecls, src: "clock x, y;\n"},
	{name: "chan", kind: kindDecls, src: "chan c;\n"},
	{name: "urgent chan", kind: kindDecls, src: "urgent chan c;\n"},
	{name: "broadcast chan", kind: kindDecls, src: "broadcast chan go;\n"},
	{name: "urgent broadcast chan", kind: kindDecls, src: "urgent broadcast chan go;\n"},
	{name: "array of channels", kind: kindDecls, src: "chan b[n], stop[n];\n"},
	{name: "multi-dimensional array", kind: kindDecls, src: "bool buff[n][MMAX + 1][n];\n"},
	{name: "nested initialiser", kind: kindDecls, src: "int a[2][2] = { {1,2}, {3,4} };", want: "int a[2][2] = {{1, 2}, {3, 4}};\n"},
	{name: "array size given by a type", kind: kindDecls, src: "int a[pid_t];\n"},
	{name: "several declarations on a line", kind: kindDecls, src: "chan activate[n]; broadcast chan go;", want: "chan activate[n];\nbroadcast chan go;\n"},

	// Typedefs and structs.
	{name: "typedef of a range", kind: kindDecls, src: "typedef int[0,n-1] pid_t;", want: "typedef int[0, n - 1] pid_t;\n"},
	{name: "typedef of an array", kind: kindDecls, src: "typedef bool row_t[3], mat_t[3][3];\n"},
	{name: "typedef of a struct", kind: kindDecls, src: "typedef struct { int a; bool b; } s_t;\n"},
	{name: "struct with arrays and nested struct", kind: kindDecls,
		src: "typedef struct { int[0, 3] a[2], b; struct { clock x; } inner; } s_t;\n"},
	{name: "variable of a named type", kind: kindDecls, src: "pid_t p = 0;\ns_t s;\n"},
	{name: "struct variable with an initialiser", kind: kindDecls,
		src: "struct { int a; bool b; int[0,3] c[2]; } s = { 1, true, {0, 1} };", want: "struct { int a; bool b; int[0, 3] c[2]; } s = {1, true, {0, 1}};\n"},
	{name: "array of structs and a constant struct", kind: kindDecls,
		src: "s_t arr[N] = { {1, {2}}, {3, {4}} };\nconst s_t k = { 0, {1} };\n", want: "s_t arr[N] = {{1, {2}}, {3, {4}}};\nconst s_t k = {0, {1}};\n"},
	{name: "struct parameters, fields and whole-struct assignment", kind: kindDecls,
		src:  "bool f(s_t v, s_t &w) { s_t l = v; w.c[1] = l.a; arr[i].inner.x = 2; w = l; return v == w; }",
		want: "bool f(s_t v, s_t &w)\n{\n    s_t l = v;\n    w.c[1] = l.a;\n    arr[i].inner.x = 2;\n    w = l;\n    return v == w;\n}\n"},

	// Constructs parsed so that the checker can reject them with a position.
	{name: "double", kind: kindDecls, src: "double x;\n"},
	{name: "meta", kind: kindDecls, src: "meta int x;\n"},
	{name: "hybrid clock", kind: kindDecls, src: "hybrid clock x;\n"},
	{name: "scalar", kind: kindDecls, src: "scalar[3] s;\ntypedef scalar[n] id_t;\n"},
	{name: "string", kind: kindDecls, src: "string s;\n"},
	{name: "const chan (flags are not checked here)", kind: kindDecls, src: "const urgent broadcast chan c;\n"},

	// Functions.
	{name: "void function", kind: kindDecls, src: "void f() { x = 1; }", want: "void f()\n{\n    x = 1;\n}\n"},
	{name: "int function", kind: kindDecls, src: "int f(int a) { return a + 1; }", want: "int f(int a)\n{\n    return a + 1;\n}\n"},
	{name: "typedef result", kind: kindDecls, src: "pid_t f() { return 0; }", want: "pid_t f()\n{\n    return 0;\n}\n"},
	{name: "parameter kinds", kind: kindDecls,
		src:  "bool g(const pid_t id, int &x, bool a[3], int[0,3] &b[2][2]) { return true; }",
		want: "bool g(const pid_t id, int &x, bool a[3], int[0, 3] &b[2][2])\n{\n    return true;\n}\n"},
	{name: "local declarations anywhere in a block", kind: kindDecls,
		src:  "void f() { int i = 0; i++; const int j = 2; typedef int[0,1] b_t; b_t k; pid_t p; }",
		want: "void f()\n{\n    int i = 0;\n    i++;\n    const int j = 2;\n    typedef int[0, 1] b_t;\n    b_t k;\n    pid_t p;\n}\n"},
	{name: "statements", kind: kindDecls,
		src: `void f() {
				if (a) x = 1; else if (b) x = 2; else { x = 3; }
				for (i = 0, j = 1; i < n; i++, j--) ;
				for (;;) break;
				for (j : pid_t) continue;
				for (k : int[0, 3]) { }
				while (x > 0) x--;
				do x++; while (x < 3);
				do { x++; } while (x < 3);
				return;
			}`,
		want: `void f()
{
    if (a)
        x = 1;
    else if (b)
        x = 2;
    else {
        x = 3;
    }
    for (i = 0, j = 1; i < n; i++, j--)
        ;
    for (;;)
        break;
    for (j : pid_t)
        continue;
    for (k : int[0, 3]) {
    }
    while (x > 0)
        x--;
    do
        x++;
    while (x < 3);
    do {
        x++;
    } while (x < 3);
    return;
}
`},
	{name: "dangling else binds to the nearest if", kind: kindDecls,
		src:  "void f() { if (a) if (b) x = 1; else x = 2; }",
		want: "void f()\n{\n    if (a)\n        if (b)\n            x = 1;\n        else\n            x = 2;\n}\n"},
	{name: "nested blocks", kind: kindDecls, src: "void f() { { { x = 1; } } }",
		want: "void f()\n{\n    {\n        {\n            x = 1;\n        }\n    }\n}\n"},
	{name: "comments", kind: kindDecls, src: "/* a */ int /* b */ x; // c\n// d\n", want: "int x;\n"},

	// System declarations.
	{name: "instantiation", kind: kindSystem, src: "P1 = Process(1, true);\nsystem P1;\n"},
	{name: "instantiation with old assignment", kind: kindSystem, src: "P1 := Process();\nsystem P1;\n", want: "P1 = Process();\nsystem P1;\n"},
	{name: "partial instantiation", kind: kindSystem, src: "Proc(const pid_t id) = Process(id, id < f);\nsystem Proc, Timeout, Broadcast;\n"},
	{name: "partial instantiation without parameters", kind: kindSystem, src: "Proc() = Process();\nsystem Proc;\n"},
	{name: "declarations in the system", kind: kindSystem, src: "const int N = 2;\nint f()\n{\n    return N;\n}\nsystem P;\n"},
	{name: "priorities", kind: kindSystem, src: "system A, B < C < D, E;\n"},

	// Labels.
	{name: "params", kind: kindParams, src: "const pid_t id, const bool mayFail, int &x"},
	{name: "array params", kind: kindParams, src: "bool a[3], int &b[n][2]"},
	{name: "empty params", kind: kindParams, src: "  ", want: ""},
	{name: "guard", kind: kindExpr, src: "x >= c1 && turn()"},
	{name: "invariant", kind: kindExpr, src: "x <= c2"},
	{name: "update", kind: kindUpdate, src: "x = 0, active[id] = true, nf++, start()"},
	{name: "empty update", kind: kindUpdate, src: "", want: ""},
	{name: "compound assignments", kind: kindUpdate, src: "a += 1, a -= 1, a *= 2, a /= 2, a %= 3, a |= 1, a &= 1, a ^= 1, a <<= 1, a >>= 1"},
	{name: "select", kind: kindSelect, src: "i : int[0,3], j : pid_t", want: "i : int[0, 3], j : pid_t"},
	{name: "empty select", kind: kindSelect, src: "", want: ""},
	{name: "sync send", kind: kindSync, src: "b[id]!"},
	{name: "sync receive", kind: kindSync, src: "go?"},
	{name: "sync with spaces", kind: kindSync, src: "activate[id] ?", want: "activate[id]?"},
	{name: "sync on a 2-d channel array", kind: kindSync, src: "c[i][j + 1]!"},

	// Expressions.
	{name: "literals", kind: kindExpr, src: "0 + 42 + 9223372036854775807", tree: "((0 + 42) + 9223372036854775807)"},
	{name: "leading zeros", kind: kindExpr, src: "007", want: "7"},
	{name: "booleans", kind: kindExpr, src: "true || false"},
	{name: "min and max", kind: kindExpr, src: "a <? b >? c", tree: "((a <? b) >? c)"},
	{name: "builtins are calls", kind: kindExpr, src: "min(a, b) + max(a, b) + abs(x)"},
	{name: "keyword operators", kind: kindExpr, src: "not a and b or c imply d", want: "!a && b || c imply d",
		tree: "((((!a) && b) || c) imply d)"},
	{name: "deadlock", kind: kindExpr, src: "deadlock"},
	{name: "sum", kind: kindExpr, src: "sum (i : pid_t) a[i]"},
	{name: "member of a call", kind: kindExpr, src: "Proc(1).x - Proc(0).x > T"},
	{name: "init is not a keyword", kind: kindExpr, src: "Process.init && init"},
	{name: "A and E are identifiers outside queries", kind: kindExpr, src: "A[E] + E"},
	{name: "x-->0 is x-- > 0 outside queries", kind: kindExpr, src: "x-->0", want: "x-- > 0"},
	{name: "prefix operators", kind: kindExpr, src: "-a + +b - ~c + !d + ++e + --f"},
	{name: "unary spacing", kind: kindExpr, src: "- -a + - --b + + +c", tree: "(((-(-a)) + (-(--b))) + (+(+c)))"},
	{name: "postfix chain", kind: kindExpr, src: "a[1][2].b(3)(4).c++"},
	{name: "clock rates in an invariant", kind: kindExpr, src: "x <= 5 && y' == 0 && z[i]' == running", tree: "(((x <= 5) && (y' == 0)) && (z[i]' == running))"},
	{name: "conditional", kind: kindExpr, src: "a ? b : c ? d : e", tree: "(a ? b : (c ? d : e))"},
	{name: "conditional middle is a full expression", kind: kindExpr, src: "a ? b = 1 : c", tree: "(a ? (b = 1) : c)"},
	{name: "assignment is an expression", kind: kindExpr, src: "b = (a = 1) + 2", tree: "(b = ((a = 1) + 2))"},
	{name: "parentheses are kept", kind: kindExpr, src: "((a))", tree: "((a))"},
	{name: "whitespace and comments", kind: kindExpr, src: "\ta /*x*/ +\n\tb // y", want: "a + b"},

	// Queries.
	{name: "E<>", kind: kindQuery, src: "E<> P.cs"},
	{name: "A[]", kind: kindQuery, src: "A[] not deadlock", want: "A[] !deadlock"},
	{name: "E[]", kind: kindQuery, src: "E[] x < 3"},
	{name: "A<>", kind: kindQuery, src: "A<> P.done"},
	{name: "leads to", kind: kindQuery, src: "P.req --> P.ack"},
	{name: "leads to after a decrement", kind: kindQuery, src: "x-- --> y", tree: "(x--) --> y"},
	{name: "sup", kind: kindQuery, src: "sup: Train(1).x, Train(2).x"},
	{name: "sup with condition", kind: kindQuery, src: "sup{Train(1).Crossing}: Train(1).x"},
	{name: "inf", kind: kindQuery, src: "inf{Gate.Occ}: Gate.len"},
	{name: "inf without condition", kind: kindQuery, src: "inf: x"},
	{name: "A is an ordinary name inside a query", kind: kindQuery, src: "E<> A[1] > E", tree: "E<> (A[1] > E)"},
	{name: "spaced temporal operator", kind: kindQuery, src: "A [] x", want: "A[] x"},
	{name: "sup is an ordinary name elsewhere", kind: kindQuery, src: "E<> sup > inf"},
}

// TestParseTreeFields checks node fields that printing cannot show: flags,
// kinds, positions and the nil conventions of the entry points.
func TestParseTreeFields(t *testing.T) {
	t.Run("type flags and kinds", func(t *testing.T) {
		ds, err := ParseDecls("urgent broadcast chan c; meta int m; hybrid clock h; double d; string s; scalar[4] sc; const int k = 1;")
		if err != nil {
			t.Fatal(err)
		}
		type want struct {
			kind                                   TypeKind
			constF, urgent, broadcast, meta, hybrd bool
		}
		wants := []want{
			{kind: TChan, urgent: true, broadcast: true},
			{kind: TInt, meta: true},
			{kind: TClock, hybrd: true},
			{kind: TDouble},
			{kind: TString},
			{kind: TScalar},
			{kind: TInt, constF: true},
		}
		for i, w := range wants {
			ty := ds[i].(*VarDecl).Type
			got := want{ty.Kind, ty.Const, ty.Urgent, ty.Broadcast, ty.Meta, ty.Hybrid}
			if got != w {
				t.Errorf("decl %d: got %+v, want %+v", i, got, w)
			}
		}
		sc := ds[5].(*VarDecl).Type.Range
		if sc == nil || sc.Lo != nil || sc.Hi.(*IntLit).Value != 4 {
			t.Errorf("scalar range: got %+v", sc)
		}
	})
	t.Run("struct fields", func(t *testing.T) {
		ds, err := ParseDecls("typedef struct { int a; bool b[2]; } s_t;")
		if err != nil {
			t.Fatal(err)
		}
		ty := ds[0].(*TypedefDecl).Type
		if ty.Kind != TStruct || len(ty.Fields) != 2 || ty.Fields[1].Names[0].Name != "b" || len(ty.Fields[1].Names[0].Dims) != 1 {
			t.Errorf("got %+v", ty)
		}
	})
	t.Run("array size given by a type is an Ident", func(t *testing.T) {
		ds, err := ParseDecls("int a[pid_t];")
		if err != nil {
			t.Fatal(err)
		}
		if id, ok := ds[0].(*VarDecl).Names[0].Dims[0].(*Ident); !ok || id.Name != "pid_t" {
			t.Errorf("got %#v", ds[0].(*VarDecl).Names[0].Dims[0])
		}
	})
	t.Run("positions", func(t *testing.T) {
		ds, err := ParseDecls("int x;\n  bool f(int &y)\n{ return y; }")
		if err != nil {
			t.Fatal(err)
		}
		f := ds[1].(*FuncDecl)
		check := func(what string, got Pos, line, col, off int) {
			t.Helper()
			if got != (Pos{Off: off, Line: line, Col: col}) {
				t.Errorf("%s: got %+v, want %d:%d (offset %d)", what, got, line, col, off)
			}
		}
		check("VarDecl", ds[0].Position(), 1, 1, 0)
		check("Declarator", ds[0].(*VarDecl).Names[0].Pos, 1, 5, 4)
		check("FuncDecl", f.Pos, 2, 3, 9)
		check("FuncDecl.NamePos", f.NamePos, 2, 8, 14)
		check("Param", f.Params[0].Pos, 2, 15, 21)
		check("Body", f.Body.Pos, 3, 1, 24)
		check("Return", f.Body.Stmts[0].Position(), 3, 3, 26)
	})
	t.Run("expression positions", func(t *testing.T) {
		e, err := ParseExpr("a + f(b)[1].c")
		if err != nil {
			t.Fatal(err)
		}
		bin := e.(*BinaryExpr)
		mem := bin.Y.(*MemberExpr)
		idx := mem.X.(*IndexExpr)
		call := idx.X.(*CallExpr)
		for _, c := range []struct {
			what string
			got  Pos
			col  int
		}{{"binary op", bin.Pos, 3}, {"member dot", mem.Pos, 12}, {"member name", mem.NamePos, 13}, {"index", idx.Pos, 9}, {"call", call.Pos, 5}} {
			if c.got.Col != c.col || c.got.Line != 1 {
				t.Errorf("%s: got %v, want 1:%d", c.what, c.got, c.col)
			}
		}
	})
	t.Run("system groups", func(t *testing.T) {
		ds, err := ParseSystem("system A, B < C;")
		if err != nil {
			t.Fatal(err)
		}
		g := ds[0].(*SystemDecl).Groups
		if len(g) != 2 || len(g[0]) != 2 || g[1][0].Name != "C" || g[1][0].Pos.Col != 15 {
			t.Errorf("got %+v", g)
		}
	})
	t.Run("instance params nil for a full instantiation", func(t *testing.T) {
		ds, err := ParseSystem("P = T(1); Q() = T(); system P, Q;")
		if err != nil {
			t.Fatal(err)
		}
		p, q := ds[0].(*InstanceDecl), ds[1].(*InstanceDecl)
		if p.Params != nil || q.Params == nil || len(q.Params) != 0 || q.Args != nil || p.TmplPos.Col != 5 {
			t.Errorf("got %+v / %+v", p, q)
		}
	})
	t.Run("sync direction", func(t *testing.T) {
		s, err := ParseSync("c[1]!")
		if err != nil || !s.Send {
			t.Fatalf("got %+v, %v", s, err)
		}
		s, err = ParseSync("c?")
		if err != nil || s.Send {
			t.Fatalf("got %+v, %v", s, err)
		}
	})
	t.Run("query kinds", func(t *testing.T) {
		for src, kind := range map[string]QueryKind{
			"E<> p": QueryEF, "A[] p": QueryAG, "E[] p": QueryEG, "A<> p": QueryAF, "p --> q": QueryLeadsTo,
			"sup: x": QuerySup, "inf{p}: x": QueryInf,
		} {
			q, err := ParseQuery(src)
			if err != nil || q.Kind != kind {
				t.Errorf("%s: got %+v, %v", src, q, err)
			}
		}
		q, _ := ParseQuery("sup: x, y")
		if q.Formula != nil || len(q.Exprs) != 2 {
			t.Errorf("sup: got %+v", q)
		}
	})
	t.Run("empty inputs", func(t *testing.T) {
		if ps, err := ParseParams(" // none\n"); ps != nil || err != nil {
			t.Errorf("params: %v %v", ps, err)
		}
		if es, err := ParseUpdate("/* none */"); es != nil || err != nil {
			t.Errorf("update: %v %v", es, err)
		}
		if bs, err := ParseSelect(""); bs != nil || err != nil {
			t.Errorf("select: %v %v", bs, err)
		}
		if ds, err := ParseDecls(""); ds != nil || err != nil {
			t.Errorf("decls: %v %v", ds, err)
		}
	})
}

// TestFormatEntryPoints checks the exported Format helpers against the
// printer used by the other tests.
func TestFormatEntryPoints(t *testing.T) {
	ds, _ := ParseDecls("int x; void f() { x++; }")
	if got, want := FormatDecls(ds), "int x;\nvoid f()\n{\n    x++;\n}\n"; got != want {
		t.Errorf("FormatDecls: got %q, want %q", got, want)
	}
	us, _ := ParseUpdate("x=1,y++")
	if got, want := FormatUpdate(us), "x = 1, y++"; got != want {
		t.Errorf("FormatUpdate: got %q, want %q", got, want)
	}
	ss, _ := ParseSelect("i:int[0,1],j:pid_t")
	if got, want := FormatSelect(ss), "i : int[0, 1], j : pid_t"; got != want {
		t.Errorf("FormatSelect: got %q, want %q", got, want)
	}
	ps, _ := ParseParams("const int&x,bool b[2]")
	if got, want := FormatParams(ps), "const int &x, bool b[2]"; got != want {
		t.Errorf("FormatParams: got %q, want %q", got, want)
	}
	if got := Format(nil); got != "" {
		t.Errorf("Format(nil) = %q", got)
	}
}

package syntax

import (
	"errors"
	"strings"
	"testing"
)

// TestErrors checks the message and position of the first error for a table
// of bad inputs, covering each class of error: lexical errors, syntax errors
// of each entry point, constructs rejected by name, and nesting limits.
func TestErrors(t *testing.T) {
	for _, tc := range errorTests {
		t.Run(tc.name, func(t *testing.T) {
			tree, err := parseAs(tc.kind, tc.src)
			if err == nil {
				t.Fatalf("no error; parsed as %s", render(tree, false))
			}
			var se *Error
			if !errors.As(err, &se) {
				t.Fatalf("error %v is a %T, not an *Error", err, err)
			}
			if got := err.Error(); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

// errorTests pairs bad inputs with the expected first error.
var errorTests = []struct{ name, kind, src, want string }{
	// Lexical errors.
	{"unterminated comment", kindDecls, "int x; /* never\nclosed", "1:8: unterminated comment"},
	{"integer out of range", kindExpr, "x + 99999999999999999999", "1:5: integer literal 99999999999999999999 out of range"},
	{"unexpected character", kindExpr, "a @ b", "1:3: unexpected character '@'"},
	{"unexpected non-ASCII character", kindExpr, "a ≤ b", "1:3: unexpected character '≤'"},
	{"invalid byte", kindExpr, "a \xff", "1:3: unexpected byte 0xff"},
	{"hexadecimal literal", kindExpr, "0x10", "1:1: invalid number literal 0x10"},
	{"unterminated string", kindDecls, "string s = \"abc", "1:12: unterminated string literal"},
	{"syntax error before a lexical error", kindDecls, "int int x; @", "1:5: expected identifier in declaration, found keyword 'int'"},
	{"lexical error reported where the parser reaches it", kindDecls, "int x = 1 # 2;", "1:11: unexpected character '#'"},

	// Declarations.
	{"missing semicolon", kindDecls, "int x\nint y;", "2:1: expected ';' after declaration, found 'int'"},
	{"missing semicolon at end", kindDecls, "int x", "1:6: expected ';' after declaration, found end of input"},
	{"keyword as a name", kindDecls, "int for;", "1:5: expected identifier in declaration, found keyword 'for'"},
	{"not a declaration", kindDecls, "x = 1;", "1:1: instantiations are only allowed in the system declarations"},
	{"expression statement at top level", kindDecls, "x++;", "1:1: expected declaration, found 'x'"},
	{"stray semicolon", kindDecls, "int x;;", "1:7: expected declaration, found ';'"},
	{"missing range bound", kindDecls, "int[0] x;", "1:6: expected ',' in integer range, found ']'"},
	{"duplicate prefix", kindDecls, "const const int x = 1;", "1:7: duplicate 'const' in type"},
	{"prefix then a name (read as a type name)", kindDecls, "const x = 1;", "1:9: expected identifier in declaration, found '='"},
	{"typedef with initialiser", kindDecls, "typedef int t = 3;", "1:15: a typedef cannot have an initialiser"},
	{"empty struct", kindDecls, "typedef struct { } s;", "1:18: expected field declaration, found '}'"},
	{"struct field initialiser", kindDecls, "typedef struct { int a = 1; } s;", "1:24: struct fields cannot have initialisers"},
	{"empty initialiser list", kindDecls, "int a[2] = {};", "1:13: expected initialiser, found '}'"},
	{"trailing comma in initialiser list", kindDecls, "int a[2] = {1, 2,};", "1:18: expected initialiser, found '}'"},
	{"named field initialiser", kindDecls, "s_t s = { a: 1 };", "1:11: named field initialisers are not supported"},
	{"anonymous type as array size", kindDecls, "int a[int[0,3]];", "1:7: an array size given by a type must be a type name (declare it with typedef)"},
	{"missing function body", kindDecls, "void f();", "1:9: expected '{' to start the function body, found ';'"},
	{"function in a block", kindDecls, "void f() { int g() { } }", "1:17: functions cannot be declared inside a block"},
	{"missing parameter name", kindDecls, "void f(int) { }", "1:11: expected identifier in parameter, found ')'"},
	{"system line in declarations", kindDecls, "system P;", "1:1: the 'system' line is only allowed in the system declarations"},

	// Constructs rejected by name.
	{"chan priority without a separator", kindDecls, "chan a, b;\nchan priority a b;", "2:17: expected ';' after chan priority, found 'b'"},
	{"chan priority with an expression", kindDecls, "chan a, b;\nchan priority a + b;", "2:17: expected ';' after chan priority, found '+'"},
	{"priority declaration", kindDecls, "priority a < b;", "1:1: priority declarations are not supported"},
	{"progress measures", kindDecls, "progress { x; }", "1:1: progress measures are not supported"},
	{"gantt chart", kindDecls, "gantt { P: true -> 1; }", "1:1: Gantt charts are not supported"},
	{"dynamic template", kindDecls, "dynamic Child(int x);", "1:1: dynamic templates are not supported"},
	{"before_update", kindDecls, "before_update { x = 1 }", "1:1: before_update blocks are not supported"},
	{"external function", kindDecls, "import \"lib.so\" { int f(); };", "1:1: external functions (import) are not supported"},
	{"floating-point literal", kindDecls, "double x = 1.5;", "1:12: floating-point literals are not supported"},
	{"floating-point exponent", kindExpr, "2e3", "1:1: floating-point literals are not supported"},
	{"string literal", kindDecls, "string s = \"abc\";", "1:12: string literals are not supported"},
	{"spawn", kindUpdate, "spawn Child(1)", "1:1: dynamic processes (spawn) are not supported"},
	{"switch", kindDecls, "void f() { switch (x) { case 1: break; } }", "1:12: switch statements are not supported"},

	// Expressions.
	{"empty expression", kindExpr, "", "1:1: unexpected end of input in expression"},
	{"end of input in expression", kindExpr, "x +", "1:4: unexpected end of input in expression"},
	{"operator without operand", kindExpr, "x + * y", "1:5: expected expression, found '*'"},
	{"unclosed parenthesis", kindExpr, "(a + b", "1:7: expected ')' after parenthesised expression, found end of input"},
	{"unclosed index", kindExpr, "a[1", "1:4: expected ']' after index, found end of input"},
	{"unclosed call", kindExpr, "f(a, b", "1:7: expected ')' after arguments, found end of input"},
	{"missing colon", kindExpr, "a ? b", "1:6: expected ':' in conditional expression, found end of input"},
	{"trailing tokens", kindExpr, "a b", "1:3: unexpected 'b' after expression"},
	{"two expressions", kindExpr, "a, b", "1:2: unexpected ',' after expression"},
	{"member needs a name", kindExpr, "P.1", "1:3: expected identifier after '.', found '1'"},
	{"quantifier without type", kindExpr, "forall (i) a", "1:10: expected ':' after 'forall' variable, found ')'"},
	{"initialiser list in expression", kindExpr, "{1, 2}", "1:1: initialiser lists {...} are only allowed in declarations"},

	// Statements.
	{"missing semicolon after statement", kindDecls, "void f() { x = 1 }", "1:18: expected ';' after expression, found '}'"},
	{"unclosed block", kindDecls, "void f() { x = 1;", "1:18: expected '}' to close the block, found end of input"},
	{"else without if", kindDecls, "void f() { else x; }", "1:12: 'else' without 'if'"},
	{"declaration in for", kindDecls, "void f() { for (int i = 0; i < 3; i++) ; }", "1:17: declarations are not allowed in a for-loop initialiser"},
	{"do without while", kindDecls, "void f() { do x++; }", "1:20: expected 'while' after do body, found '}'"},
	{"return without semicolon", kindDecls, "void f() { return }", "1:19: expected expression, found '}'"},

	// System declarations.
	{"missing system line", kindSystem, "P = T();", "1:9: missing 'system' line at the end of the system declarations"},
	{"two system lines", kindSystem, "system A; system B;", "1:11: only one 'system' line is allowed"},
	{"declaration after system", kindSystem, "system A; int x;", "1:11: unexpected 'int' after the system line (it must come last)"},
	{"progress block not closed", kindSystem, "system A; progress { x; ", "1:20: the block opened here is not closed"},
	{"gantt block not closed", kindSystem, "system A; gantt { G(i : int[0,1]): P(i).a -> 1; ", "1:17: the block opened here is not closed"},
	{"declaration after the gantt block", kindSystem, "system A; gantt { G: true -> 1; } int x;", "1:35: unexpected 'int' after the system line (it must come last)"},
	{"empty system line", kindSystem, "system;", "1:7: expected identifier (process name) in system line, found ';'"},
	{"instance without template call", kindSystem, "P = T; system P;", "1:6: expected '(' after template name, found ';'"},
	{"instance missing assignment", kindSystem, "P(int x) T(x); system P;", "1:10: expected '=' in instantiation, found 'T'"},

	// Labels.
	{"parameter without name", kindParams, "const int", "1:10: expected identifier in parameter, found end of input"},
	{"parameter list trailing comma", kindParams, "int a,", "1:7: expected parameter, found end of input"},
	{"select without type", kindSelect, "i :", "1:4: expected type, found end of input"},
	{"select without colon", kindSelect, "i int[0,3]", "1:3: expected ':' after select variable, found 'int'"},
	{"sync without direction", kindSync, "c", "1:2: expected '!' or '?' after channel, found end of input"},
	{"sync with trailing tokens", kindSync, "c! x", "1:4: unexpected 'x' after synchronisation"},
	{"empty sync", kindSync, "", "1:1: unexpected end of input in synchronisation"},
	{"update with empty element", kindUpdate, "x = 1,", "1:7: unexpected end of input in expression"},

	// Queries.
	{"empty query", kindQuery, "  ", "1:3: empty query"},
	{"query without operator", kindQuery, "x > 0", "1:6: expected '-->' after state formula, found end of input (a query is E<> φ, A[] φ, E[] φ, A<> φ, φ --> ψ, sup: ... or inf: ...)"},
	{"query with trailing tokens", kindQuery, "E<> a b", "1:7: unexpected 'b' after query"},
	{"query operator without formula", kindQuery, "A[]", "1:4: unexpected end of input in expression"},
	{"sup without expressions", kindQuery, "sup{p}:", "1:8: unexpected end of input in expression"},
	{"sup without colon", kindQuery, "sup{p} x", "1:8: expected ':' in 'sup' query, found 'x'"},
	{"bounds query", kindQuery, "bounds: x", "1:1: bounds queries are not supported"},
	{"probability query", kindQuery, "Pr[<=10](<> P.done)", "1:1: probabilistic queries (Pr[...]) are not supported: statistical model checking is outside tcheck's scope"},
	{"probability query with a clock bound", kindQuery, "Pr[time<=100](<> P.safe)", "1:1: probabilistic queries (Pr[...]) are not supported: statistical model checking is outside tcheck's scope"},
	{"statistical query", kindQuery, "E[<=10; 100](max: x)", "1:1: statistical queries (E[...](max: ...)) are not supported: statistical model checking is outside tcheck's scope"},
	{"simulation query", kindQuery, "simulate[<=10] { x }", "1:1: simulation queries (simulate[...]) are not supported (tcheck simulate runs a model)"},
	{"control query", kindQuery, "control: A<> P.goal", "1:1: controller synthesis queries are not supported"},
	{"strategy subjection", kindQuery, "A[] p under S", "1:7: strategy subjection (under) is not supported"},
	{"deadlock operand missing", kindQuery, "A[] deadlock imply", "1:19: unexpected end of input in expression"},

	// Nesting limits.
	{"deep parentheses", kindExpr, strings.Repeat("(", 5000) + "x" + strings.Repeat(")", 5000), "1:1001: nesting too deep (more than 1000 levels)"},
	{"deep prefix operators", kindExpr, strings.Repeat("!", 5000) + "x", "1:1001: nesting too deep (more than 1000 levels)"},
	{"deep assignment chain", kindExpr, strings.Repeat("a = ", 3000) + "x", "1:4001: nesting too deep (more than 1000 levels)"},
	{"deep blocks", kindDecls, "void f() " + strings.Repeat("{", 3000), "1:1011: nesting too deep (more than 1000 levels)"},
	{"deep initialisers", kindDecls, "int a = " + strings.Repeat("{", 3000), "1:1009: nesting too deep (more than 1000 levels)"},
	{"deep structs", kindDecls, strings.Repeat("struct { ", 3000), "1:9008: nesting too deep (more than 1000 levels)"},
}

// TestErrorPositionsAreByteOffsets checks that Pos.Off, Line and Col agree
// with the source text, including after multi-byte characters in comments.
func TestErrorPositionsAreByteOffsets(t *testing.T) {
	src := "// é\nint x = ;"
	_, err := ParseDecls(src)
	var se *Error
	if !errors.As(err, &se) {
		t.Fatalf("got %v", err)
	}
	if se.Pos.Line != 2 || se.Pos.Col != 9 || src[se.Pos.Off] != ';' {
		t.Errorf("got %+v", se.Pos)
	}
}

// TestNestingWithinLimit checks that nesting just below the limit and very
// long operator chains (which build deep trees iteratively) are accepted.
func TestNestingWithinLimit(t *testing.T) {
	for _, tc := range []struct{ name, kind, src string }{
		{"parentheses", kindExpr, strings.Repeat("(", 998) + "x" + strings.Repeat(")", 998)},
		{"prefix operators", kindExpr, strings.Repeat("!", 998) + "x"},
		{"blocks", kindDecls, "void f() " + strings.Repeat("{", 1000) + strings.Repeat("}", 1000)},
		{"long chain", kindExpr, "x" + strings.Repeat(" + x", 100000)},
		{"long update list", kindUpdate, "x = 1" + strings.Repeat(", x = 1", 100000)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkRoundTrip(t, tc.kind, tc.src)
		})
	}
}

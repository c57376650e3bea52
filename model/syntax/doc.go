// Package syntax parses and prints tcheck's modelling language, the C-like
// declaration, expression and query language of UPPAAL, into the syntax tree
// of ast.go.
//
// # Entry points
//
// Each function parses one whole string (a YAML scalar, later an XML
// element); positions are relative to that string.
//
//	ParseDecls(src)   global or template-local declarations
//	ParseSystem(src)  system declarations: declarations, instantiations and
//	                  the final `system` line
//	ParseParams(src)  template parameters      `const pid_t id, int &x`  ("" → nil)
//	ParseExpr(src)    a guard, invariant or constant expression ("" is an error)
//	ParseUpdate(src)  an update list           `x = 0, f(), n++`         ("" → nil)
//	ParseSelect(src)  a select label           `i : int[0,3], j : pid_t` ("" → nil)
//	ParseSync(src)    a synchronisation        `b[id]!`, `go?`
//	ParseQuery(src)   a symbolic query         `A[] φ`, `φ --> ψ`, `sup{φ}: e`
//
// Format, FormatDecls, FormatUpdate, FormatSelect and FormatParams print
// trees back as canonical UPPAAL text that parses to the same tree.
//
// # Grammar
//
// An EBNF summary ({x} repeats, [x] is optional). Comments are `// ...` and
// `/* ... */` (not nested). Identifiers are [A-Za-z_][A-Za-z0-9_]*; integer
// literals are decimal and must fit in an int64.
//
//	Decls       = { Decl } .
//	System      = { Decl | Instance } SystemLine .
//	Decl        = "typedef" Type Declarator { "," Declarator } ";"
//	            | Type Declarator [ "=" Init ] { "," Declarator [ "=" Init ] } ";"
//	            | Type Name "(" [ Params ] ")" Block .
//	Declarator  = Name { "[" (Expr | TypeName) "]" } .
//	Init        = Expr | "{" Init { "," Init } "}" .
//	Type        = { "const" | "urgent" | "broadcast" | "meta" | "hybrid" } BaseType .
//	BaseType    = "int" [ "[" Expr "," Expr "]" ] | "bool" | "clock" | "chan" | "void"
//	            | "double" | "string" | "scalar" "[" Expr "]" | TypeName
//	            | "struct" "{" Type Declarator { "," Declarator } ";" { ... } "}" .
//	Params      = Param { "," Param } .
//	Param       = Type [ "&" ] Name { "[" Expr "]" } .
//	Instance    = Name [ "(" [ Params ] ")" ] ("=" | ":=") Name "(" [ Exprs ] ")" ";" .
//	SystemLine  = "system" Name { ("," | "<") Name } ";" .
//	Block       = "{" { Stmt } "}" .
//	Stmt        = Block | ";" | Expr ";" | LocalDecl
//	            | "if" "(" Expr ")" Stmt [ "else" Stmt ]
//	            | "for" "(" [ Exprs ] ";" [ Expr ] ";" [ Exprs ] ")" Stmt
//	            | "for" "(" Name ":" Type ")" Stmt
//	            | "while" "(" Expr ")" Stmt | "do" Stmt "while" "(" Expr ")" ";"
//	            | "return" [ Expr ] ";" | "break" ";" | "continue" ";" .
//	LocalDecl   = a variable declaration or typedef (anywhere in a block).
//	Exprs       = Expr { "," Expr } .
//	Expr        = Primary | Expr Postfix | Prefix Expr | Expr BinOp Expr
//	            | Expr "?" Expr ":" Expr | Expr AssignOp Expr
//	            | ("forall" | "exists" | "sum") "(" Name ":" Type ")" Expr .
//	Primary     = Name | Int | "true" | "false" | "deadlock" | "(" Expr ")" .
//	Postfix     = "[" Expr "]" | "." Name | "(" [ Exprs ] ")" | "++" | "--" .
//	Prefix      = "!" | "not" | "-" | "+" | "~" | "++" | "--" .
//	Select      = Name ":" Type { "," Name ":" Type } .
//	Sync        = PostfixExpr ("!" | "?") .
//	Query       = ("A[]" | "E<>" | "E[]" | "A<>") Expr | Expr "-->" Expr
//	            | ("sup" | "inf") [ "{" Expr "}" ] ":" Exprs .
//
// A declaration or statement starting with two identifiers in a row
// (`pid_t id`) is a declaration with a named type; the parser needs no
// symbol table. In system declarations `Name =` and `Name (` start an
// instantiation. The words A, E, sup and inf are ordinary identifiers except
// at the start of a query; `-->` is a token only in queries (elsewhere
// `x-->0` is `x-- > 0`, as in C). `init` is not reserved, so locations may
// be called init. `min`, `max` and `abs` are ordinary calls. `deadlock` is
// parsed everywhere; the checker allows it only in queries.
//
// # Precedence
//
// From the table in the UPPAAL documentation, Language Reference →
// Expressions → Precedence (https://docs.uppaal.org/language-reference/expressions/),
// highest first:
//
//	left   () [] .  x++ x--          postfix
//	right  ! not ++ -- - + ~         prefix
//	left   **                        power (UPPAAL 5)
//	left   * / %
//	left   + -
//	left   << >>
//	left   <? >?
//	left   < <= >= >
//	left   == !=
//	left   &
//	left   ^
//	left   |
//	left   && and
//	left   || or imply
//	right  ?:
//	right  = := += -= *= /= %= &= |= <<= >>= ^=
//	       forall exists sum       (lowest: the body extends as far right as possible)
//
// The same levels are declared in libutap's grammar (UPPAAL's own parser,
// src/parser.y: `%left T_BOOL_OR T_KW_OR T_KW_XOR T_KW_IMPLY`, `%left
// T_BOOL_AND T_KW_AND`, `%right T_EXCLAM T_KW_NOT ...`), so `imply` is not
// lower than `||`: `a || b imply c` is `(a || b) imply c` and `a imply b ||
// c` is `(a imply b) || c`. The same page also says, in prose, that `not`,
// `and` and `or` have lower precedence than `!`, `&&` and `||`; that
// describes older libutap versions (UPPAAL 4.0), where the keyword forms sat
// below assignment. We follow the table and the current libutap, which is
// also what lets the tree use one Op for both spellings. Two details the
// table leaves open follow libutap and C++: the else branch of `?:` is an
// assignment expression (`a ? b : c = d` is `a ? b : (c = d)`), and the
// middle operand is a full expression.
//
// The power operator `**` of UPPAAL 5 is not in the documentation's table;
// libutap declares it `%left T_POWOP` between `%left T_MULT T_DIV T_MOD` and
// the prefix operators, so it binds tighter than `*` and looser than unary
// minus, and associates to the left: `-a ** b` is `(-a) ** b`, `a ** b **
// c` is `(a ** b) ** c` (unlike Python's right-associative `**`).
//
// A quantifier may appear wherever an operand may (`a && forall (i : T) b &&
// c` is `a && forall (i : T) (b && c)`), and its body takes everything to its
// right up to a closing bracket, a comma, a colon or the end.
//
// # Positions
//
// A Pos holds the byte offset and the 1-based line and column (in bytes) of
// a node within the parsed string. Operators' nodes (BinaryExpr, AssignExpr,
// UnaryExpr, IncDecExpr, CondExpr at '?', IndexExpr at '[', MemberExpr at
// '.') are positioned at the operator; CallExpr at the start of the callee;
// declarations at their first token (FuncDecl.NamePos at the name);
// Declarator, Param, SelectBinding and InstanceDecl at the declared name;
// Sync and Query at their first token.
//
// # Errors
//
// Every Parse function returns the first error in the text, as an *Error
// (Pos plus Msg; Error() is "line:col: msg"), and no tree. Messages say
// what was expected and what was found: "expected ';' after declaration,
// found 'int'", "unexpected end of input in expression", "unterminated
// comment", "integer literal 99999999999999999999 out of range". Input
// nested deeper than MaxNesting levels (parentheses, prefix operators,
// assignment chains, statements, initialisers, structs) is an error rather
// than a stack overflow. The parser never panics and runs in time linear in
// the input.
//
// # Unsupported UPPAAL features
//
// Some constructs are parsed into the tree with a flag or kind set, so that
// the checker can reject them with a position: `double`, `string`,
// `hybrid clock`, clocks inside structs, and any combination of type
// prefixes (`const chan`). (Scalar sets, structs and `meta` are parsed the
// same way and supported by the checker: meta integers and booleans are
// read as ordinary variables, meta clocks and channels rejected.) Constructs with no tree representation are
// rejected here with a message naming the feature: floating-point and string
// literals,
// `priority` declarations, progress measures and Gantt charts before the
// system line (after it they are skipped: they do not change the
// semantics), dynamic
// templates and spawn, before_update/after_update, import (external
// functions), switch statements, named struct initialisers, array sizes
// given by an anonymous type (`int a[int[0,3]]`), and the non-symbolic query
// forms (bounds, Pr, E[<=...], simulate, control, under). A clock rate x'
// (stopwatches) is parsed as a RateExpr anywhere; the checker accepts it
// only in a location invariant, as x' == e. Channel priorities (`chan
// priority a < default < b;`) are a ChanPriorityDecl.
//
// # Printing
//
// The printer emits `&&`, `||`, `!` and `=` for `and`, `or`, `not` and `:=`,
// keeps the user's parentheses (ParenExpr), and adds parentheses only where a
// tree built by hand needs them (for example a quantifier that is not the
// last operand). Functions and statements are printed on several lines,
// indented by four spaces.
package syntax

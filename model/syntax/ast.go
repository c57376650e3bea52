package syntax

import "fmt"

// Pos is a position in the source text handed to a Parse function: Off is the
// byte offset, Line and Col are 1-based (Col counts bytes). The model loader
// maps it to a position in the model file (a YAML scalar, an XML element).
type Pos struct {
	Off, Line, Col int
}

func (p Pos) String() string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }

// IsValid reports whether p was set by the parser.
func (p Pos) IsValid() bool { return p.Line > 0 }

// Node is implemented by every syntax tree node.
type Node interface {
	Position() Pos
}

// ---------------------------------------------------------------------------
// Types

// TypeKind is the base kind of a type expression.
type TypeKind int

const (
	TInt    TypeKind = iota // int or int[lo,hi]
	TBool                   // bool
	TClock                  // clock
	TChan                   // chan (binary unless Broadcast)
	TVoid                   // void (function results only)
	TNamed                  // a typedef name (Name)
	TStruct                 // struct { Fields }
	TScalar                 // scalar[n] (parsed so it can be rejected with a position)
	TDouble                 // double (parsed so it can be rejected with a position)
	TString                 // string (parsed so it can be rejected with a position)
)

// TypeExpr is a type as written: prefixes, a base kind, an optional range.
// Array dimensions belong to the declarator, as in C.
type TypeExpr struct {
	Pos       Pos
	Const     bool
	Urgent    bool // urgent chan
	Broadcast bool // broadcast chan
	Meta      bool // meta (rejected later)
	Hybrid    bool // hybrid clock (rejected later)
	Kind      TypeKind
	Name      string     // TNamed
	Range     *RangeExpr // int[lo,hi], scalar[n] (Hi only); nil if absent
	Fields    []*VarDecl // TStruct
}

// RangeExpr is the [Lo, Hi] of a bounded int type (Lo is nil for scalar[n]).
type RangeExpr struct {
	Pos    Pos
	Lo, Hi Expr
}

// ---------------------------------------------------------------------------
// Declarations

// Decl is a declaration: *VarDecl, *TypedefDecl, *FuncDecl, *InstanceDecl or
// *SystemDecl (the last two only in system declarations).
type Decl interface {
	Node
	declNode()
}

// VarDecl declares one or more variables (or constants, clocks, channels) of
// one base type: `const int N = 3, M = 4;`, `bool buff[n][6][n];`.
type VarDecl struct {
	Pos   Pos
	Type  *TypeExpr
	Names []*Declarator
}

// Declarator is one name of a declaration with its array dimensions and
// initialiser. A dimension is an expression (the size) or an *Ident naming a
// bounded type (`int a[pid_t]`: one element per value of the type).
type Declarator struct {
	Pos  Pos
	Name string
	Dims []Expr
	Init Expr // nil, an expression, or an *InitList
}

// InitList is a brace initialiser `{e1, e2, ...}`, possibly nested.
type InitList struct {
	Pos   Pos
	Elems []Expr
}

// TypedefDecl is `typedef T name[dims], ...;`.
type TypedefDecl struct {
	Pos   Pos
	Type  *TypeExpr
	Names []*Declarator // Init is always nil
}

// FuncDecl is a function definition.
type FuncDecl struct {
	Pos     Pos // of the result type (the start of the declaration)
	Result  *TypeExpr
	Name    string
	NamePos Pos // of Name
	Params  []*Param
	Body    *BlockStmt
}

// Param is a function or template parameter: `const pid_t id`, `int &x`,
// `bool a[3]`.
type Param struct {
	Pos  Pos
	Type *TypeExpr
	Ref  bool
	Name string
	Dims []Expr
}

// InstanceDecl is a (partial) instantiation in the system declarations:
// `P1 = Process(1, true);` or `Proc(const pid_t id) = Process(id, id < f);`.
type InstanceDecl struct {
	Pos      Pos
	Name     string
	Params   []*Param // nil for a full instantiation
	Template string
	TmplPos  Pos
	Args     []Expr
}

// ChanPriorityDecl is `chan priority a, d[0] < default < b, e;`: Levels
// from the lowest to the highest priority, each a list of channel
// expressions (an identifier with constant indices; a whole array names
// every element) or nil for `default` (the level of every channel not
// listed and of internal transitions).
type ChanPriorityDecl struct {
	Pos    Pos
	Levels [][]Expr
}

// SystemDecl is `system A, B, C;`. Groups holds the process names split at
// the priority operator `<` (one group when no priorities are used).
type SystemDecl struct {
	Pos    Pos
	Groups [][]*Ident
}

func (*VarDecl) declNode()          {}
func (*TypedefDecl) declNode()      {}
func (*FuncDecl) declNode()         {}
func (*InstanceDecl) declNode()     {}
func (*SystemDecl) declNode()       {}
func (*ChanPriorityDecl) declNode() {}

// ---------------------------------------------------------------------------
// Statements

// Stmt is a statement of a function body.
type Stmt interface {
	Node
	stmtNode()
}

type (
	// BlockStmt is `{ ... }`; declarations appear as *DeclStmt.
	BlockStmt struct {
		Pos   Pos
		Stmts []Stmt
	}
	// DeclStmt is a local variable or typedef declaration.
	DeclStmt struct {
		Decl Decl // *VarDecl or *TypedefDecl
	}
	// ExprStmt is an expression used as a statement (`x = 1;`, `f();`).
	ExprStmt struct {
		X Expr
	}
	// EmptyStmt is `;`.
	EmptyStmt struct {
		Pos Pos
	}
	// IfStmt is `if (Cond) Then else Else`; Else may be nil.
	IfStmt struct {
		Pos  Pos
		Cond Expr
		Then Stmt
		Else Stmt
	}
	// ForStmt is the C loop `for (Init; Cond; Post) Body`; each part may be
	// nil. Init is a comma list of expressions.
	ForStmt struct {
		Pos  Pos
		Init []Expr
		Cond Expr
		Post []Expr
		Body Stmt
	}
	// RangeForStmt is UPPAAL's `for (Var : Type) Body` over a bounded type.
	RangeForStmt struct {
		Pos    Pos
		Var    string
		VarPos Pos
		Type   *TypeExpr
		Body   Stmt
	}
	// WhileStmt is `while (Cond) Body`.
	WhileStmt struct {
		Pos  Pos
		Cond Expr
		Body Stmt
	}
	// DoWhileStmt is `do Body while (Cond);`.
	DoWhileStmt struct {
		Pos  Pos
		Body Stmt
		Cond Expr
	}
	// ReturnStmt is `return;` or `return Value;`.
	ReturnStmt struct {
		Pos   Pos
		Value Expr
	}
	// BreakStmt is `break;`.
	BreakStmt struct {
		Pos Pos
	}
	// ContinueStmt is `continue;`.
	ContinueStmt struct {
		Pos Pos
	}
)

func (*BlockStmt) stmtNode()    {}
func (*DeclStmt) stmtNode()     {}
func (*ExprStmt) stmtNode()     {}
func (*EmptyStmt) stmtNode()    {}
func (*IfStmt) stmtNode()       {}
func (*ForStmt) stmtNode()      {}
func (*RangeForStmt) stmtNode() {}
func (*WhileStmt) stmtNode()    {}
func (*DoWhileStmt) stmtNode()  {}
func (*ReturnStmt) stmtNode()   {}
func (*BreakStmt) stmtNode()    {}
func (*ContinueStmt) stmtNode() {}

// ---------------------------------------------------------------------------
// Expressions

// Expr is an expression.
type Expr interface {
	Node
	exprNode()
}

// Op is an operator.
type Op int

const (
	OpInvalid Op = iota
	// unary
	OpNeg    // -x
	OpPlus   // +x
	OpNot    // !x, not x
	OpBitNot // ~x
	// increments (IncDecExpr)
	OpInc // ++
	OpDec // --
	// binary arithmetic and bit operations
	OpMul
	OpDiv
	OpMod
	OpPow // a ** b (UPPAAL 5)
	OpAdd
	OpSub
	OpShl
	OpShr
	OpBitAnd
	OpBitXor
	OpBitOr
	OpMin // a <? b (old UPPAAL spelling of min)
	OpMax // a >? b
	// comparisons
	OpLT
	OpLE
	OpGT
	OpGE
	OpEQ
	OpNE
	// logic
	OpAnd   // &&, and
	OpOr    // ||, or
	OpImply // imply
	// assignments (AssignExpr)
	OpAssign    // = or :=
	OpAddAssign // +=
	OpSubAssign
	OpMulAssign
	OpDivAssign
	OpModAssign
	OpAndAssign // &=
	OpOrAssign  // |=
	OpXorAssign // ^=
	OpShlAssign // <<=
	OpShrAssign // >>=
	// quantifiers (QuantExpr)
	OpForall
	OpExists
	OpSum
)

var opNames = [...]string{
	OpInvalid: "?", OpNeg: "-", OpPlus: "+", OpNot: "!", OpBitNot: "~", OpInc: "++", OpDec: "--",
	OpMul: "*", OpDiv: "/", OpMod: "%", OpPow: "**", OpAdd: "+", OpSub: "-", OpShl: "<<", OpShr: ">>",
	OpBitAnd: "&", OpBitXor: "^", OpBitOr: "|", OpMin: "<?", OpMax: ">?",
	OpLT: "<", OpLE: "<=", OpGT: ">", OpGE: ">=", OpEQ: "==", OpNE: "!=",
	OpAnd: "&&", OpOr: "||", OpImply: "imply",
	OpAssign: "=", OpAddAssign: "+=", OpSubAssign: "-=", OpMulAssign: "*=", OpDivAssign: "/=",
	OpModAssign: "%=", OpAndAssign: "&=", OpOrAssign: "|=", OpXorAssign: "^=", OpShlAssign: "<<=",
	OpShrAssign: ">>=", OpForall: "forall", OpExists: "exists", OpSum: "sum",
}

func (o Op) String() string {
	if o >= 0 && int(o) < len(opNames) {
		return opNames[o]
	}
	return fmt.Sprintf("Op(%d)", int(o))
}

type (
	// IntLit is an integer literal.
	IntLit struct {
		Pos   Pos
		Value int64
	}
	// BoolLit is true or false.
	BoolLit struct {
		Pos   Pos
		Value bool
	}
	// Ident is a name.
	Ident struct {
		Pos  Pos
		Name string
	}
	// IndexExpr is X[Index].
	IndexExpr struct {
		Pos   Pos // of '['
		X     Expr
		Index Expr
	}
	// MemberExpr is X.Name: a struct field, or in queries a process's
	// location, variable or clock (`Proc(1).wait`, `P.x`).
	MemberExpr struct {
		Pos     Pos // of '.'
		X       Expr
		Name    string
		NamePos Pos
	}
	// CallExpr is Fun(Args): a function call, or in queries a process
	// instance of a partially instantiated template (`Proc(1)`).
	CallExpr struct {
		Pos  Pos // of the function name
		Fun  Expr
		Args []Expr
	}
	// UnaryExpr is Op X for OpNeg, OpPlus, OpNot, OpBitNot.
	UnaryExpr struct {
		Pos Pos
		Op  Op
		X   Expr
	}
	// IncDecExpr is ++x, x++, --x, x--.
	IncDecExpr struct {
		Pos    Pos
		Op     Op // OpInc or OpDec
		Prefix bool
		X      Expr
	}
	// RateExpr is X', the rate (derivative) of clock X: UPPAAL's
	// stopwatches, written in a location invariant as X' == e.
	RateExpr struct {
		Pos Pos // of the tick
		X   Expr
	}
	// BinaryExpr is X Op Y.
	BinaryExpr struct {
		Pos  Pos // of the operator
		Op   Op
		X, Y Expr
	}
	// CondExpr is Cond ? Then : Else.
	CondExpr struct {
		Pos              Pos // of '?'
		Cond, Then, Else Expr
	}
	// AssignExpr is LHS Op RHS for the assignment operators.
	AssignExpr struct {
		Pos      Pos // of the operator
		Op       Op
		LHS, RHS Expr
	}
	// QuantExpr is forall/exists/sum (Var : Type) Body.
	QuantExpr struct {
		Pos    Pos
		Op     Op // OpForall, OpExists, OpSum
		Var    string
		VarPos Pos
		Type   *TypeExpr
		Body   Expr
	}
	// ParenExpr is (X); kept so that printing preserves the user's grouping.
	ParenExpr struct {
		Pos Pos
		X   Expr
	}
	// DeadlockExpr is the query predicate `deadlock`.
	DeadlockExpr struct {
		Pos Pos
	}
)

func (*IntLit) exprNode()       {}
func (*BoolLit) exprNode()      {}
func (*Ident) exprNode()        {}
func (*IndexExpr) exprNode()    {}
func (*MemberExpr) exprNode()   {}
func (*CallExpr) exprNode()     {}
func (*UnaryExpr) exprNode()    {}
func (*IncDecExpr) exprNode()   {}
func (*RateExpr) exprNode()     {}
func (*BinaryExpr) exprNode()   {}
func (*CondExpr) exprNode()     {}
func (*AssignExpr) exprNode()   {}
func (*QuantExpr) exprNode()    {}
func (*ParenExpr) exprNode()    {}
func (*DeadlockExpr) exprNode() {}
func (*InitList) exprNode()     {}

// ---------------------------------------------------------------------------
// Edge labels and queries

// SelectBinding is one `name : Type` of a select label.
type SelectBinding struct {
	Pos  Pos
	Name string
	Type *TypeExpr
}

// Sync is a synchronisation label `Chan!` or `Chan?`.
type Sync struct {
	Pos  Pos
	Chan Expr // an *Ident or an *IndexExpr chain
	Send bool // true for '!', false for '?'
}

// QueryKind is the temporal operator of a query.
type QueryKind int

const (
	QueryEF      QueryKind = iota // E<> φ
	QueryAG                       // A[] φ
	QueryEG                       // E[] φ
	QueryAF                       // A<> φ
	QueryLeadsTo                  // φ --> ψ
	QuerySup                      // sup{φ}: e1, e2, ...
	QueryInf                      // inf{φ}: e1, e2, ...
)

var queryKindNames = [...]string{"E<>", "A[]", "E[]", "A<>", "-->", "sup", "inf"}

func (k QueryKind) String() string {
	if k >= 0 && int(k) < len(queryKindNames) {
		return queryKindNames[k]
	}
	return fmt.Sprintf("QueryKind(%d)", int(k))
}

// Query is a parsed query. For EF/AG/EG/AF, Formula is φ. For LeadsTo,
// Formula is φ and Formula2 is ψ. For Sup/Inf, Formula is the condition
// (nil for `sup: e`) and Exprs the expressions to maximise/minimise.
type Query struct {
	Pos      Pos
	Kind     QueryKind
	Formula  Expr
	Formula2 Expr
	Exprs    []Expr
}

// Position methods.

func (n *TypeExpr) Position() Pos         { return n.Pos }
func (n *RangeExpr) Position() Pos        { return n.Pos }
func (n *VarDecl) Position() Pos          { return n.Pos }
func (n *Declarator) Position() Pos       { return n.Pos }
func (n *InitList) Position() Pos         { return n.Pos }
func (n *TypedefDecl) Position() Pos      { return n.Pos }
func (n *FuncDecl) Position() Pos         { return n.Pos }
func (n *Param) Position() Pos            { return n.Pos }
func (n *InstanceDecl) Position() Pos     { return n.Pos }
func (n *ChanPriorityDecl) Position() Pos { return n.Pos }
func (n *SystemDecl) Position() Pos       { return n.Pos }
func (n *BlockStmt) Position() Pos        { return n.Pos }
func (n *DeclStmt) Position() Pos         { return n.Decl.Position() }
func (n *ExprStmt) Position() Pos         { return n.X.Position() }
func (n *EmptyStmt) Position() Pos        { return n.Pos }
func (n *IfStmt) Position() Pos           { return n.Pos }
func (n *ForStmt) Position() Pos          { return n.Pos }
func (n *RangeForStmt) Position() Pos     { return n.Pos }
func (n *WhileStmt) Position() Pos        { return n.Pos }
func (n *DoWhileStmt) Position() Pos      { return n.Pos }
func (n *ReturnStmt) Position() Pos       { return n.Pos }
func (n *BreakStmt) Position() Pos        { return n.Pos }
func (n *ContinueStmt) Position() Pos     { return n.Pos }
func (n *IntLit) Position() Pos           { return n.Pos }
func (n *BoolLit) Position() Pos          { return n.Pos }
func (n *Ident) Position() Pos            { return n.Pos }
func (n *IndexExpr) Position() Pos        { return n.Pos }
func (n *MemberExpr) Position() Pos       { return n.Pos }
func (n *CallExpr) Position() Pos         { return n.Pos }
func (n *UnaryExpr) Position() Pos        { return n.Pos }
func (n *IncDecExpr) Position() Pos       { return n.Pos }
func (n *RateExpr) Position() Pos         { return n.Pos }
func (n *BinaryExpr) Position() Pos       { return n.Pos }
func (n *CondExpr) Position() Pos         { return n.Pos }
func (n *AssignExpr) Position() Pos       { return n.Pos }
func (n *QuantExpr) Position() Pos        { return n.Pos }
func (n *ParenExpr) Position() Pos        { return n.Pos }
func (n *DeadlockExpr) Position() Pos     { return n.Pos }
func (n *SelectBinding) Position() Pos    { return n.Pos }
func (n *Sync) Position() Pos             { return n.Pos }
func (n *Query) Position() Pos            { return n.Pos }

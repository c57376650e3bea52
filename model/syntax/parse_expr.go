package syntax

// Expression parsing: precedence climbing over the binary levels of
// UPPAAL's precedence table (see doc.go), with recursive descent for the
// right-associative levels, prefix and postfix operators.

// Binary precedence levels, lowest first. Assignment and ?: are handled by
// parseAssign and parseCond; quantifiers are operands whose body is a full
// expression (so they extend as far to the right as possible).
const (
	precNone   = iota
	precAssign // = := += ... (right)
	precCond   // ?: (right)
	precOr     // || or imply
	precAnd    // && and
	precBitOr  // |
	precBitXor // ^
	precBitAnd // &
	precEq     // == !=
	precRel    // < <= >= >
	precMinMax // <? >?
	precShift  // << >>
	precAdd    // + -
	precMul    // * / %
	precPow    // ** (left associative, as in UTAP's grammar)
	precUnary  // ! not ++ -- - + ~ (prefix), and quantifiers as operands
	precPostfix
	precPrimary
)

// binaryOps maps a token to its binary operator and precedence.
var binaryOps = map[tokKind]struct {
	op   Op
	prec int
}{
	tOrOr: {OpOr, precOr}, kOr: {OpOr, precOr}, kImply: {OpImply, precOr},
	tAndAnd: {OpAnd, precAnd}, kAnd: {OpAnd, precAnd},
	tPipe: {OpBitOr, precBitOr}, tCaret: {OpBitXor, precBitXor}, tAmp: {OpBitAnd, precBitAnd},
	tEQ: {OpEQ, precEq}, tNE: {OpNE, precEq},
	tLT: {OpLT, precRel}, tLE: {OpLE, precRel}, tGE: {OpGE, precRel}, tGT: {OpGT, precRel},
	tMin: {OpMin, precMinMax}, tMax: {OpMax, precMinMax},
	tShl: {OpShl, precShift}, tShr: {OpShr, precShift},
	tPlus: {OpAdd, precAdd}, tMinus: {OpSub, precAdd},
	tStar: {OpMul, precMul}, tSlash: {OpDiv, precMul}, tPercent: {OpMod, precMul},
	tPow: {OpPow, precPow},
}

var assignOps = map[tokKind]Op{
	tAssign: OpAssign, tColonEq: OpAssign, tAddAssign: OpAddAssign, tSubAssign: OpSubAssign,
	tMulAssign: OpMulAssign, tDivAssign: OpDivAssign, tModAssign: OpModAssign,
	tAndAssign: OpAndAssign, tOrAssign: OpOrAssign, tXorAssign: OpXorAssign,
	tShlAssign: OpShlAssign, tShrAssign: OpShrAssign,
}

// binaryPrec returns the precedence of a binary operator (for the printer).
func binaryPrec(op Op) int {
	switch op {
	case OpOr, OpImply:
		return precOr
	case OpAnd:
		return precAnd
	case OpBitOr:
		return precBitOr
	case OpBitXor:
		return precBitXor
	case OpBitAnd:
		return precBitAnd
	case OpEQ, OpNE:
		return precEq
	case OpLT, OpLE, OpGE, OpGT:
		return precRel
	case OpMin, OpMax:
		return precMinMax
	case OpShl, OpShr:
		return precShift
	case OpAdd, OpSub:
		return precAdd
	case OpMul, OpDiv, OpMod:
		return precMul
	case OpPow:
		return precPow
	}
	return precNone
}

// parseExpr parses a full expression.
func (p *parser) parseExpr() Expr {
	p.enter()
	defer p.leave()
	return p.parseAssign()
}

// parseExprList parses `e {, e}`.
func (p *parser) parseExprList() []Expr {
	es := []Expr{p.parseExpr()}
	for p.got(tComma) {
		es = append(es, p.parseExpr())
	}
	return es
}

// parseAssign parses `cond [assignop assign]` (right associative).
func (p *parser) parseAssign() Expr {
	lhs := p.parseCond()
	op, ok := assignOps[p.tok.kind]
	if !ok {
		return lhs
	}
	pos := p.tok.pos
	p.next()
	p.enter()
	rhs := p.parseAssign()
	p.leave()
	return &AssignExpr{Pos: pos, Op: op, LHS: lhs, RHS: rhs}
}

// parseCond parses `or [? expr : assign]`. As in C++ and libutap, the else
// branch is at assignment level: `a ? b : c = d` is `a ? b : (c = d)`.
func (p *parser) parseCond() Expr {
	c := p.parseBinary(precOr)
	if p.tok.kind != tQuestion {
		return c
	}
	pos := p.tok.pos
	p.next()
	then := p.parseExpr()
	p.expect(tColon, " in conditional expression")
	p.enter()
	els := p.parseAssign()
	p.leave()
	return &CondExpr{Pos: pos, Cond: c, Then: then, Else: els}
}

// parseBinary parses a left-associative chain of binary operators of
// precedence at least min.
func (p *parser) parseBinary(min int) Expr {
	x := p.parseUnary()
	for {
		b, ok := binaryOps[p.tok.kind]
		if !ok || b.prec < min {
			return x
		}
		pos := p.tok.pos
		p.next()
		y := p.parseBinary(b.prec + 1)
		x = &BinaryExpr{Pos: pos, Op: b.op, X: x, Y: y}
	}
}

// parseUnary parses prefix operators and quantifiers.
func (p *parser) parseUnary() Expr {
	pos := p.tok.pos
	var op Op
	switch p.tok.kind {
	case tBang, kNot:
		op = OpNot
	case tMinus:
		op = OpNeg
	case tPlus:
		op = OpPlus
	case tTilde:
		op = OpBitNot
	case tInc, tDec:
		op = OpInc
		if p.tok.kind == tDec {
			op = OpDec
		}
		p.next()
		p.enter()
		x := p.parseUnary()
		p.leave()
		return &IncDecExpr{Pos: pos, Op: op, Prefix: true, X: x}
	case kForall, kExists, kSum:
		return p.parseQuant()
	default:
		return p.parsePostfix()
	}
	p.next()
	p.enter()
	x := p.parseUnary()
	p.leave()
	return &UnaryExpr{Pos: pos, Op: op, X: x}
}

// parseQuant parses `forall|exists|sum (name : Type) body`. The body is a
// full expression: quantifiers have the lowest precedence.
func (p *parser) parseQuant() Expr {
	q := &QuantExpr{Pos: p.tok.pos}
	switch p.tok.kind {
	case kForall:
		q.Op = OpForall
	case kExists:
		q.Op = OpExists
	default:
		q.Op = OpSum
	}
	kw := p.tok.text
	p.next()
	p.expect(tLParen, " after '"+kw+"'")
	name := p.expectIdent(" in '" + kw + "'")
	q.Var, q.VarPos = name.text, name.pos
	p.expect(tColon, " after '"+kw+"' variable")
	q.Type = p.parseType()
	p.expect(tRParen, " after '"+kw+"' type")
	q.Body = p.parseExpr()
	return q
}

// parsePostfix parses a primary expression followed by `[i]`, `.name`,
// `(args)`, `++` and `--`.
func (p *parser) parsePostfix() Expr {
	start := p.tok.pos
	x := p.parsePrimary()
	for {
		switch p.tok.kind {
		case tLBrack:
			pos := p.tok.pos
			p.next()
			i := p.parseExpr()
			p.expect(tRBrack, " after index")
			x = &IndexExpr{Pos: pos, X: x, Index: i}
		case tDot:
			pos := p.tok.pos
			p.next()
			name := p.expectIdent(" after '.'")
			x = &MemberExpr{Pos: pos, X: x, Name: name.text, NamePos: name.pos}
		case tLParen:
			p.next()
			var args []Expr
			if p.tok.kind != tRParen {
				args = p.parseExprList()
			}
			p.expect(tRParen, " after arguments")
			x = &CallExpr{Pos: start, Fun: x, Args: args}
		case tInc, tDec:
			op := OpInc
			if p.tok.kind == tDec {
				op = OpDec
			}
			x = &IncDecExpr{Pos: p.tok.pos, Op: op, X: x}
			p.next()
		case tTick:
			x = &RateExpr{Pos: p.tok.pos, X: x}
			p.next()
		default:
			return x
		}
	}
}

func (p *parser) parsePrimary() Expr {
	t := p.tok
	switch t.kind {
	case tInt:
		p.next()
		return &IntLit{Pos: t.pos, Value: t.val}
	case kTrue, kFalse:
		p.next()
		return &BoolLit{Pos: t.pos, Value: t.kind == kTrue}
	case kDeadlock:
		p.next()
		return &DeadlockExpr{Pos: t.pos}
	case tIdent:
		if t.text == "spawn" && p.peek(1).kind == tIdent {
			p.fail("dynamic processes (spawn) are not supported")
		}
		p.next()
		return &Ident{Pos: t.pos, Name: t.text}
	case tLParen:
		p.next()
		x := p.parseExpr()
		p.expect(tRParen, " after parenthesised expression")
		return &ParenExpr{Pos: t.pos, X: x}
	case tFloat:
		p.fail("floating-point literals are not supported")
	case tString:
		p.fail("string literals are not supported")
	case tLBrace:
		p.fail("initialiser lists {...} are only allowed in declarations")
	case tEOF:
		p.fail("unexpected end of input in expression")
	}
	p.expected("expression")
	return nil
}

// ---------------------------------------------------------------------------
// Queries

func (p *parser) parseQuery() *Query {
	q := &Query{Pos: p.tok.pos}
	if p.tok.kind == tEOF {
		p.fail("empty query")
	}
	if p.tok.kind == tIdent {
		n1, n2 := p.peek(1).kind, p.peek(2).kind
		name := p.tok.text
		temporal := true
		switch {
		case (name == "A" || name == "E") && n1 == tLBrack && n2 == tRBrack:
			q.Kind = QueryAG
			if name == "E" {
				q.Kind = QueryEG
			}
		case (name == "A" || name == "E") && n1 == tLT && n2 == tGT:
			q.Kind = QueryAF
			if name == "E" {
				q.Kind = QueryEF
			}
		case (name == "sup" || name == "inf") && (n1 == tColon || n1 == tLBrace):
			return p.parseSupInf(q)
		case name == "bounds" && (n1 == tColon || n1 == tLBrace):
			p.fail("bounds queries are not supported")
		case name == "Pr" && n1 == tLBrack:
			p.fail("probabilistic queries (Pr[...]) are not supported: statistical model checking is outside tcheck's scope")
		case name == "simulate" && n1 == tLBrack:
			p.fail("simulation queries (simulate[...]) are not supported (tcheck simulate runs a model)")
		case name == "E" && n1 == tLBrack && n2 != tRBrack:
			p.fail("statistical queries (E[...](max: ...)) are not supported: statistical model checking is outside tcheck's scope")
		case (name == "control" || name == "control_t") && (n1 == tColon || n1 == tStar):
			p.fail("controller synthesis queries are not supported")
		default:
			temporal = false
		}
		if temporal {
			p.next()
			p.next()
			p.next()
			q.Formula = p.parseExpr()
			p.queryEnd()
			return q
		}
	}
	q.Formula = p.parseExpr()
	if p.tok.kind != tLeadsTo {
		if p.tok.kind == tEOF {
			p.fail("expected '-->' after state formula, found end of input (a query is E<> φ, A[] φ, E[] φ, A<> φ, φ --> ψ, sup: ... or inf: ...)")
		}
		p.expected("'-->' after state formula")
	}
	q.Kind = QueryLeadsTo
	p.next()
	q.Formula2 = p.parseExpr()
	p.queryEnd()
	return q
}

func (p *parser) parseSupInf(q *Query) *Query {
	q.Kind = QuerySup
	if p.tok.text == "inf" {
		q.Kind = QueryInf
	}
	kw := p.tok.text
	p.next()
	if p.got(tLBrace) {
		q.Formula = p.parseExpr()
		p.expect(tRBrace, " after '"+kw+"' condition")
	}
	p.expect(tColon, " in '"+kw+"' query")
	q.Exprs = p.parseExprList()
	p.queryEnd()
	return q
}

func (p *parser) queryEnd() {
	if p.tok.kind == tIdent && p.tok.text == "under" {
		p.fail("strategy subjection (under) is not supported")
	}
	p.expectEOF("query")
}

package syntax

// Declarations, types, statements and the system line.

// isTypeKeyword reports whether k starts a type (a prefix or a base type).
func isTypeKeyword(k tokKind) bool {
	switch k {
	case kConst, kUrgent, kBroadcast, kMeta, kHybrid, kInt, kBool, kClock, kChan, kVoid,
		kDouble, kString, kScalar, kStruct:
		return true
	}
	return false
}

// atTypedDecl reports whether the current token starts a declaration with a
// type: a type keyword, or a type name followed by the declared name
// (`pid_t id`; two identifiers in a row are never an expression).
func (p *parser) atTypedDecl() bool {
	return isTypeKeyword(p.tok.kind) || p.tok.kind == tIdent && p.peek(1).kind == tIdent
}

// parseType parses a type: prefixes, then a base type.
func (p *parser) parseType() *TypeExpr {
	t := &TypeExpr{Pos: p.tok.pos}
	for {
		var flag *bool
		switch p.tok.kind {
		case kConst:
			flag = &t.Const
		case kUrgent:
			flag = &t.Urgent
		case kBroadcast:
			flag = &t.Broadcast
		case kMeta:
			flag = &t.Meta
		case kHybrid:
			flag = &t.Hybrid
		}
		if flag == nil {
			break
		}
		if *flag {
			p.fail("duplicate '%s' in type", p.tok.text)
		}
		*flag = true
		p.next()
	}
	switch p.tok.kind {
	case kInt:
		t.Kind = TInt
		p.next()
		if p.tok.kind == tLBrack {
			r := &RangeExpr{Pos: p.tok.pos}
			p.next()
			r.Lo = p.parseExpr()
			p.expect(tComma, " in integer range")
			r.Hi = p.parseExpr()
			p.expect(tRBrack, " after integer range")
			t.Range = r
		}
	case kBool:
		t.Kind = TBool
		p.next()
	case kClock:
		t.Kind = TClock
		p.next()
	case kChan:
		t.Kind = TChan
		p.next()
		if p.tok.kind == kPriority {
			p.fail("chan priority is a declaration of its own (chan priority a < b;), not a type")
		}
	case kVoid:
		t.Kind = TVoid
		p.next()
	case kDouble:
		t.Kind = TDouble
		p.next()
	case kString:
		t.Kind = TString
		p.next()
	case kScalar:
		t.Kind = TScalar
		p.next()
		r := &RangeExpr{Pos: p.tok.pos}
		p.expect(tLBrack, " after 'scalar'")
		r.Hi = p.parseExpr()
		p.expect(tRBrack, " after scalar size")
		t.Range = r
	case kStruct:
		t.Kind = TStruct
		p.next()
		p.parseStructFields(t)
	case tIdent:
		t.Kind = TNamed
		t.Name = p.tok.text
		p.next()
	default:
		p.expected("type")
	}
	return t
}

// parseStructFields parses `{ T a, b[2]; U c; }`.
func (p *parser) parseStructFields(t *TypeExpr) {
	p.enter()
	defer p.leave()
	p.expect(tLBrace, " after 'struct'")
	for p.tok.kind != tRBrace {
		if !p.atTypedDecl() {
			p.expected("field declaration")
		}
		d := &VarDecl{Pos: p.tok.pos, Type: p.parseType()}
		for {
			name := p.expectIdent(" in struct field declaration")
			dc := &Declarator{Pos: name.pos, Name: name.text, Dims: p.parseDims()}
			if p.tok.kind == tAssign || p.tok.kind == tColonEq {
				p.fail("struct fields cannot have initialisers")
			}
			d.Names = append(d.Names, dc)
			if !p.got(tComma) {
				break
			}
		}
		p.expect(tSemi, " after struct field declaration")
		t.Fields = append(t.Fields, d)
	}
	if len(t.Fields) == 0 {
		p.expected("field declaration")
	}
	p.next()
}

// parseDims parses array dimensions `[e][T]...`.
func (p *parser) parseDims() []Expr {
	var dims []Expr
	for p.tok.kind == tLBrack {
		p.next()
		if isTypeKeyword(p.tok.kind) {
			p.fail("an array size given by a type must be a type name (declare it with typedef)")
		}
		dims = append(dims, p.parseExpr())
		p.expect(tRBrack, " after array size")
	}
	return dims
}

// parseDecl parses one declaration of ParseDecls or ParseSystem.
func (p *parser) parseDecl() Decl {
	switch p.tok.kind {
	case kTypedef:
		return p.parseTypedef()
	case kPriority:
		p.fail("priority declarations are not supported")
	case kChan:
		if p.peek(1).kind == kPriority {
			return p.parseChanPriority()
		}
		return p.parseTypedDecl(true)
	case kSystem:
		p.fail("the 'system' line is only allowed in the system declarations")
	case tIdent:
		next := p.peek(1)
		switch name := p.tok.text; {
		case next.kind == tIdent:
			if name == "dynamic" {
				p.fail("dynamic templates are not supported")
			}
			return p.parseTypedDecl(true)
		case next.kind == tAssign || next.kind == tColonEq || next.kind == tLParen:
			if p.mode != modeSystem {
				p.fail("instantiations are only allowed in the system declarations")
			}
			return p.parseInstance()
		case (name == "progress" || name == "gantt") && next.kind == tLBrace:
			if name == "progress" {
				p.fail("progress measures are not supported")
			}
			p.fail("Gantt charts are not supported")
		case (name == "before_update" || name == "after_update") && next.kind == tLBrace:
			p.fail("%s blocks are not supported", name)
		case name == "import" && next.kind == tString:
			p.fail("external functions (import) are not supported")
		}
	default:
		if isTypeKeyword(p.tok.kind) {
			return p.parseTypedDecl(true)
		}
	}
	p.expected("declaration")
	return nil
}

// parseTypedef parses `typedef T name[dims], ...;`.
func (p *parser) parseTypedef() *TypedefDecl {
	d := &TypedefDecl{Pos: p.tok.pos}
	p.next()
	d.Type = p.parseType()
	for {
		name := p.expectIdent(" in typedef")
		dc := &Declarator{Pos: name.pos, Name: name.text, Dims: p.parseDims()}
		if p.tok.kind == tAssign || p.tok.kind == tColonEq {
			p.fail("a typedef cannot have an initialiser")
		}
		d.Names = append(d.Names, dc)
		if !p.got(tComma) {
			break
		}
	}
	p.expect(tSemi, " after typedef")
	return d
}

// parseTypedDecl parses a variable declaration or (if funcOK) a function
// definition, both starting with a type.
func (p *parser) parseTypedDecl(funcOK bool) Decl {
	pos := p.tok.pos
	typ := p.parseType()
	name := p.expectIdent(" in declaration")
	if p.tok.kind == tLParen {
		if !funcOK {
			p.fail("functions cannot be declared inside a block")
		}
		return p.parseFunc(pos, typ, name)
	}
	d := &VarDecl{Pos: pos, Type: typ}
	for {
		dc := &Declarator{Pos: name.pos, Name: name.text, Dims: p.parseDims()}
		if p.got(tAssign) || p.got(tColonEq) {
			dc.Init = p.parseInit()
		}
		d.Names = append(d.Names, dc)
		if !p.got(tComma) {
			break
		}
		name = p.expectIdent(" in declaration")
	}
	p.expect(tSemi, " after declaration")
	return d
}

// parseInit parses an initialiser: an expression or a brace list.
func (p *parser) parseInit() Expr {
	if p.tok.kind != tLBrace {
		return p.parseExpr()
	}
	p.enter()
	defer p.leave()
	l := &InitList{Pos: p.tok.pos}
	p.next()
	for {
		if p.tok.kind == tIdent && p.peek(1).kind == tColon {
			p.fail("named field initialisers are not supported")
		}
		if p.tok.kind == tRBrace {
			p.expected("initialiser")
		}
		l.Elems = append(l.Elems, p.parseInit())
		if !p.got(tComma) {
			break
		}
	}
	p.expect(tRBrace, " after initialiser list")
	return l
}

// parseFunc parses the rest of a function definition after its name.
func (p *parser) parseFunc(pos Pos, result *TypeExpr, name token) *FuncDecl {
	f := &FuncDecl{Pos: pos, Result: result, Name: name.text, NamePos: name.pos}
	p.expect(tLParen, " after function name")
	if p.tok.kind != tRParen {
		f.Params = append(f.Params, p.parseParam())
		for p.got(tComma) {
			f.Params = append(f.Params, p.parseParam())
		}
	}
	p.expect(tRParen, " after parameters")
	if p.tok.kind != tLBrace {
		p.expected("'{' to start the function body")
	}
	f.Body = p.parseBlock()
	return f
}

// parseParam parses `T [&] name [dims]`.
func (p *parser) parseParam() *Param {
	if !isTypeKeyword(p.tok.kind) && p.tok.kind != tIdent {
		p.expected("parameter")
	}
	typ := p.parseType()
	ref := p.got(tAmp)
	name := p.expectIdent(" in parameter")
	return &Param{Pos: name.pos, Type: typ, Ref: ref, Name: name.text, Dims: p.parseDims()}
}

// ---------------------------------------------------------------------------
// System declarations

// parseInstance parses `Name [(params)] = Template(args);`.
func (p *parser) parseInstance() *InstanceDecl {
	name := p.expectIdent(" in instantiation")
	d := &InstanceDecl{Pos: name.pos, Name: name.text}
	if p.got(tLParen) {
		d.Params = []*Param{}
		if p.tok.kind != tRParen {
			d.Params = append(d.Params, p.parseParam())
			for p.got(tComma) {
				d.Params = append(d.Params, p.parseParam())
			}
		}
		p.expect(tRParen, " after instantiation parameters")
	}
	if !p.got(tAssign) && !p.got(tColonEq) {
		p.expected("'=' in instantiation")
	}
	tmpl := p.expectIdent(" (template name) in instantiation")
	d.Template, d.TmplPos = tmpl.text, tmpl.pos
	p.expect(tLParen, " after template name")
	if p.tok.kind != tRParen {
		d.Args = p.parseExprList()
	}
	p.expect(tRParen, " after template arguments")
	p.expect(tSemi, " after instantiation")
	return d
}

// parseChanPriority parses `chan priority a, d[0] < default < b, e;`
// (UPPAAL's ChanPriority: identifiers with indices, or default, separated
// by ',' within a level and '<' between levels).
func (p *parser) parseChanPriority() *ChanPriorityDecl {
	d := &ChanPriorityDecl{Pos: p.tok.pos}
	p.next() // chan
	p.next() // priority
	level := []Expr{}
	for {
		if p.tok.kind == kDefault {
			level = append(level, nil)
			p.next()
		} else {
			name := p.expectIdent(" (channel) in chan priority")
			var x Expr = &Ident{Pos: name.pos, Name: name.text}
			for p.tok.kind == tLBrack {
				pos := p.tok.pos
				p.next()
				i := p.parseExpr()
				p.expect(tRBrack, " after channel index")
				x = &IndexExpr{Pos: pos, X: x, Index: i}
			}
			level = append(level, x)
		}
		switch p.tok.kind {
		case tComma:
			p.next()
			continue
		case tLT:
			d.Levels = append(d.Levels, level)
			level = []Expr{}
			p.next()
			continue
		}
		break
	}
	d.Levels = append(d.Levels, level)
	p.expect(tSemi, " after chan priority")
	return d
}

// parseSystemLine parses `system A, B < C;`.
func (p *parser) parseSystemLine() *SystemDecl {
	d := &SystemDecl{Pos: p.tok.pos}
	p.next()
	group := []*Ident{}
	for {
		name := p.expectIdent(" (process name) in system line")
		group = append(group, &Ident{Pos: name.pos, Name: name.text})
		switch p.tok.kind {
		case tComma:
			p.next()
			continue
		case tLT:
			d.Groups = append(d.Groups, group)
			group = []*Ident{}
			p.next()
			continue
		}
		break
	}
	d.Groups = append(d.Groups, group)
	p.expect(tSemi, " after system line")
	return d
}

// parseAfterSystem checks that nothing but UPPAAL's progress measures and
// Gantt chart (System ::= SysDecl ProgressDecl GanttDecl) follows the
// system line. Both are skipped: a progress measure only guides the
// sweep-line method's deletion of states and a Gantt chart only draws the
// simulator's chart, so neither changes a state, a transition or a verdict
// (docs/uppaal.md). The model's text keeps them, so export writes them back.
func (p *parser) parseAfterSystem() {
	for p.tok.kind == tIdent && (p.tok.text == "progress" || p.tok.text == "gantt") && p.peek(1).kind == tLBrace {
		p.next()
		p.skipBraces()
	}
	if p.tok.kind == kSystem {
		p.fail("only one 'system' line is allowed")
	}
	p.expectEOF("the system line (it must come last)")
}

// skipBraces skips a block `{ ... }` with nested braces; the current token
// is '{'.
func (p *parser) skipBraces() {
	open := p.tok
	depth := 0
	for {
		switch p.tok.kind {
		case tLBrace:
			depth++
		case tRBrace:
			depth--
		case tEOF:
			p.tok = open
			p.fail("the block opened here is not closed")
		}
		p.next()
		if depth == 0 {
			return
		}
	}
}

// ---------------------------------------------------------------------------
// Statements

// parseBlock parses `{ stmt* }`; the current token is '{'. (Nesting is
// counted by parseStmt.)
func (p *parser) parseBlock() *BlockStmt {
	b := &BlockStmt{Pos: p.tok.pos}
	p.expect(tLBrace, "")
	for p.tok.kind != tRBrace {
		if p.tok.kind == tEOF {
			p.expected("'}' to close the block")
		}
		b.Stmts = append(b.Stmts, p.parseStmt())
	}
	p.next()
	return b
}

func (p *parser) parseStmt() Stmt {
	p.enter()
	defer p.leave()
	pos := p.tok.pos
	switch p.tok.kind {
	case tLBrace:
		return p.parseBlock()
	case tSemi:
		p.next()
		return &EmptyStmt{Pos: pos}
	case kIf:
		p.next()
		s := &IfStmt{Pos: pos}
		p.expect(tLParen, " after 'if'")
		s.Cond = p.parseExpr()
		p.expect(tRParen, " after if condition")
		s.Then = p.parseStmt()
		if p.got(kElse) {
			s.Else = p.parseStmt()
		}
		return s
	case kFor:
		return p.parseFor()
	case kWhile:
		p.next()
		s := &WhileStmt{Pos: pos}
		p.expect(tLParen, " after 'while'")
		s.Cond = p.parseExpr()
		p.expect(tRParen, " after while condition")
		s.Body = p.parseStmt()
		return s
	case kDo:
		p.next()
		s := &DoWhileStmt{Pos: pos, Body: p.parseStmt()}
		p.expect(kWhile, " after do body")
		p.expect(tLParen, " after 'while'")
		s.Cond = p.parseExpr()
		p.expect(tRParen, " after while condition")
		p.expect(tSemi, " after do-while")
		return s
	case kReturn:
		p.next()
		s := &ReturnStmt{Pos: pos}
		if p.tok.kind != tSemi {
			s.Value = p.parseExpr()
		}
		p.expect(tSemi, " after return")
		return s
	case kBreak:
		p.next()
		p.expect(tSemi, " after 'break'")
		return &BreakStmt{Pos: pos}
	case kContinue:
		p.next()
		p.expect(tSemi, " after 'continue'")
		return &ContinueStmt{Pos: pos}
	case kTypedef:
		return &DeclStmt{Decl: p.parseTypedef()}
	case kSwitch, kCase, kDefault:
		p.fail("switch statements are not supported")
	case kElse:
		p.fail("'else' without 'if'")
	}
	if p.atTypedDecl() {
		return &DeclStmt{Decl: p.parseTypedDecl(false)}
	}
	x := p.parseExpr()
	p.expect(tSemi, " after expression")
	return &ExprStmt{X: x}
}

// parseFor parses `for (i : T) S` or `for (init; cond; post) S`.
func (p *parser) parseFor() Stmt {
	pos := p.tok.pos
	p.next()
	p.expect(tLParen, " after 'for'")
	if p.tok.kind == tIdent && p.peek(1).kind == tColon {
		name := p.tok
		p.next()
		p.next()
		s := &RangeForStmt{Pos: pos, Var: name.text, VarPos: name.pos, Type: p.parseType()}
		p.expect(tRParen, " after for-loop type")
		s.Body = p.parseStmt()
		return s
	}
	if p.atTypedDecl() {
		p.fail("declarations are not allowed in a for-loop initialiser")
	}
	s := &ForStmt{Pos: pos}
	if p.tok.kind != tSemi {
		s.Init = p.parseExprList()
	}
	p.expect(tSemi, " after for-loop initialiser")
	if p.tok.kind != tSemi {
		s.Cond = p.parseExpr()
	}
	p.expect(tSemi, " after for-loop condition")
	if p.tok.kind != tRParen {
		s.Post = p.parseExprList()
	}
	p.expect(tRParen, " after for-loop update")
	s.Body = p.parseStmt()
	return s
}

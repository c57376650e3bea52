package syntax

import "fmt"

// Error is a syntax error at a position of the parsed string. Every Parse
// function returns at most one error, the first one in the text, as an
// *Error.
type Error struct {
	Pos Pos
	Msg string
}

func (e *Error) Error() string { return fmt.Sprintf("%d:%d: %s", e.Pos.Line, e.Pos.Col, e.Msg) }

// MaxNesting is the deepest nesting of expressions, statements, initialisers
// and struct types the parser accepts; deeper input is reported as an error
// instead of exhausting the stack.
const MaxNesting = 1000

// bailout is the panic value used to unwind the parser on the first error;
// the entry points recover it and return the error.
type bailout struct{ err *Error }

type parser struct {
	toks  []token
	i     int
	tok   token // toks[i]
	depth int
	mode  parseMode
}

// parseMode says which entry point is running; a few constructs are only
// legal (or only get a helpful message) in one of them.
type parseMode int

const (
	modeDecls parseMode = iota
	modeSystem
	modeOther
)

// run parses src with f, turning a bailout into an error. Panics other than
// bailouts are bugs and are not hidden.
func run[T any](src string, query bool, mode parseMode, f func(p *parser) T) (res T, err error) {
	p := &parser{toks: tokenize(src, query), mode: mode}
	p.tok = p.toks[0]
	defer func() {
		if r := recover(); r != nil {
			b, ok := r.(bailout)
			if !ok {
				panic(r)
			}
			var zero T
			res, err = zero, b.err
		}
	}()
	res = f(p)
	return res, nil
}

func (p *parser) next() {
	if p.i < len(p.toks)-1 {
		p.i++
	}
	p.tok = p.toks[p.i]
}

// peek returns the token n positions after the current one (EOF past the end).
func (p *parser) peek(n int) token {
	if p.i+n < len(p.toks) {
		return p.toks[p.i+n]
	}
	return p.toks[len(p.toks)-1]
}

// errorAt stops parsing with an error at pos.
func (p *parser) errorAt(pos Pos, format string, args ...any) {
	panic(bailout{&Error{Pos: pos, Msg: fmt.Sprintf(format, args...)}})
}

// fail stops parsing with an error about the current token. If the current
// token is a lexical error, that error is reported instead: it is what the
// user has to fix first.
func (p *parser) fail(format string, args ...any) {
	if p.tok.kind == tError {
		p.errorAt(p.tok.pos, "%s", p.tok.text)
	}
	p.errorAt(p.tok.pos, format, args...)
}

// expected stops parsing with "expected WHAT, found TOKEN".
func (p *parser) expected(what string) {
	p.fail("expected %s, found %s", what, p.tok.describe())
}

// expect consumes a token of kind k or fails with "expected 'k'<context>".
func (p *parser) expect(k tokKind, context string) token {
	t := p.tok
	if t.kind != k {
		p.expected(quoteKind(k) + context)
	}
	p.next()
	return t
}

// expectIdent consumes an identifier; a keyword gets a specific message.
func (p *parser) expectIdent(context string) token {
	t := p.tok
	if t.kind != tIdent {
		if t.kind >= kConst && t.kind < numTokKinds {
			p.fail("expected identifier%s, found keyword '%s'", context, t.text)
		}
		p.expected("identifier" + context)
	}
	p.next()
	return t
}

func (p *parser) got(k tokKind) bool {
	if p.tok.kind == k {
		p.next()
		return true
	}
	return false
}

// expectEOF fails unless all input has been consumed.
func (p *parser) expectEOF(after string) {
	if p.tok.kind != tEOF {
		p.fail("unexpected %s after %s", p.tok.describe(), after)
	}
}

func (p *parser) enter() {
	p.depth++
	if p.depth > MaxNesting {
		p.errorAt(p.tok.pos, "nesting too deep (more than %d levels)", MaxNesting)
	}
}

func (p *parser) leave() { p.depth-- }

// ---------------------------------------------------------------------------
// Entry points

// ParseDecls parses global or template-local declarations: variables,
// constants, clocks, channels, typedefs and functions.
func ParseDecls(src string) ([]Decl, error) {
	return run(src, false, modeDecls, func(p *parser) []Decl {
		var ds []Decl
		for p.tok.kind != tEOF {
			ds = append(ds, p.parseDecl())
		}
		return ds
	})
}

// ParseSystem parses UPPAAL system declarations: declarations as in
// ParseDecls, (partial) instantiations, and exactly one final
// `system A, B, C;` line.
func ParseSystem(src string) ([]Decl, error) {
	return run(src, false, modeSystem, func(p *parser) []Decl {
		var ds []Decl
		for {
			if p.tok.kind == tEOF {
				p.fail("missing 'system' line at the end of the system declarations")
			}
			if p.tok.kind == kSystem {
				ds = append(ds, p.parseSystemLine())
				p.parseAfterSystem()
				return ds
			}
			ds = append(ds, p.parseDecl())
		}
	})
}

// ParseParams parses a template parameter list such as
// `const pid_t id, const bool mayFail, int &x`. Empty input gives nil.
func ParseParams(src string) ([]*Param, error) {
	return run(src, false, modeOther, func(p *parser) []*Param {
		if p.tok.kind == tEOF {
			return nil
		}
		ps := []*Param{p.parseParam()}
		for p.got(tComma) {
			ps = append(ps, p.parseParam())
		}
		p.expectEOF("parameter list")
		return ps
	})
}

// ParseExpr parses one expression (a guard, an invariant, a constant).
// Empty input is an error.
func ParseExpr(src string) (Expr, error) {
	return run(src, false, modeOther, func(p *parser) Expr {
		e := p.parseExpr()
		p.expectEOF("expression")
		return e
	})
}

// ParseUpdate parses a comma-separated list of expressions (an update
// label). Empty input gives nil.
func ParseUpdate(src string) ([]Expr, error) {
	return run(src, false, modeOther, func(p *parser) []Expr {
		if p.tok.kind == tEOF {
			return nil
		}
		es := p.parseExprList()
		p.expectEOF("expression")
		return es
	})
}

// ParseSelect parses a select label `i : int[0,3], j : pid_t`. Empty input
// gives nil.
func ParseSelect(src string) ([]*SelectBinding, error) {
	return run(src, false, modeOther, func(p *parser) []*SelectBinding {
		if p.tok.kind == tEOF {
			return nil
		}
		var bs []*SelectBinding
		for {
			name := p.expectIdent(" in select")
			p.expect(tColon, " after select variable")
			bs = append(bs, &SelectBinding{Pos: name.pos, Name: name.text, Type: p.parseType()})
			if !p.got(tComma) {
				break
			}
		}
		p.expectEOF("select")
		return bs
	})
}

// ParseSync parses a synchronisation label `c!`, `c?`, `b[id]!`.
func ParseSync(src string) (*Sync, error) {
	return run(src, false, modeOther, func(p *parser) *Sync {
		if p.tok.kind == tEOF {
			p.fail("unexpected end of input in synchronisation")
		}
		s := &Sync{Pos: p.tok.pos, Chan: p.parsePostfix()}
		switch p.tok.kind {
		case tBang:
			s.Send = true
		case tQuestion:
		default:
			p.expected("'!' or '?' after channel")
		}
		p.next()
		p.expectEOF("synchronisation")
		return s
	})
}

// ParseQuery parses a symbolic query: `E<> φ`, `A[] φ`, `E[] φ`, `A<> φ`,
// `φ --> ψ`, `sup: e, ...`, `sup{φ}: e, ...`, `inf: ...`, `inf{φ}: ...`.
func ParseQuery(src string) (*Query, error) {
	return run(src, true, modeOther, (*parser).parseQuery)
}

package syntax

import (
	"fmt"
	"strconv"
	"unicode/utf8"
)

// lexer splits a source string into tokens. It stops at the first lexical
// error, which it returns as a tError token followed by tEOF, so that the
// parser reports whichever error comes first in the text.
type lexer struct {
	src   string
	off   int
	line  int
	col   int
	query bool // recognise `-->` (only in queries: `x-->0` is `x-- > 0` in code)
}

// tokenize returns all tokens of src, ending with tEOF.
func tokenize(src string, query bool) []token {
	l := &lexer{src: src, line: 1, col: 1, query: query}
	var toks []token
	for {
		t := l.next()
		toks = append(toks, t)
		if t.kind == tError {
			toks = append(toks, token{kind: tEOF, pos: l.pos()})
			return toks
		}
		if t.kind == tEOF {
			return toks
		}
	}
}

func (l *lexer) pos() Pos { return Pos{Off: l.off, Line: l.line, Col: l.col} }

// advance moves over n bytes, keeping line and column up to date.
func (l *lexer) advance(n int) {
	for i := 0; i < n; i++ {
		if l.src[l.off] == '\n' {
			l.line++
			l.col = 1
		} else {
			l.col++
		}
		l.off++
	}
}

func (l *lexer) peekByte(i int) byte {
	if l.off+i < len(l.src) {
		return l.src[l.off+i]
	}
	return 0
}

func isLetter(c byte) bool { return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool  { return '0' <= c && c <= '9' }

// skipSpace skips white space and comments. It returns an error token for an
// unterminated block comment.
func (l *lexer) skipSpace() (token, bool) {
	for l.off < len(l.src) {
		c := l.src[l.off]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			l.advance(1)
		case c == '/' && l.peekByte(1) == '/':
			for l.off < len(l.src) && l.src[l.off] != '\n' {
				l.advance(1)
			}
		case c == '/' && l.peekByte(1) == '*':
			start := l.pos()
			l.advance(2)
			for {
				if l.off >= len(l.src) {
					return token{kind: tError, text: "unterminated comment", pos: start}, false
				}
				if l.src[l.off] == '*' && l.peekByte(1) == '/' {
					l.advance(2)
					break
				}
				l.advance(1)
			}
		default:
			return token{}, true
		}
	}
	return token{}, true
}

// operators lists the operator spellings, longest first within each leading
// character so that the first match is the longest one.
var operators = []struct {
	text string
	kind tokKind
}{
	{"-->", tLeadsTo}, // only in query mode, see next
	{"<<=", tShlAssign}, {">>=", tShrAssign},
	{"++", tInc}, {"--", tDec}, {"+=", tAddAssign}, {"-=", tSubAssign}, {"*=", tMulAssign}, {"**", tPow},
	{"/=", tDivAssign}, {"%=", tModAssign}, {"&=", tAndAssign}, {"|=", tOrAssign},
	{"^=", tXorAssign}, {"<<", tShl}, {">>", tShr}, {"<=", tLE}, {">=", tGE}, {"==", tEQ},
	{"!=", tNE}, {"&&", tAndAnd}, {"||", tOrOr}, {"<?", tMin}, {">?", tMax}, {":=", tColonEq},
	{"(", tLParen}, {")", tRParen}, {"[", tLBrack}, {"]", tRBrack}, {"{", tLBrace},
	{"}", tRBrace}, {",", tComma}, {";", tSemi}, {":", tColon}, {".", tDot}, {"?", tQuestion},
	{"'", tTick}, {"=", tAssign}, {"+", tPlus}, {"-", tMinus}, {"*", tStar}, {"/", tSlash},
	{"%", tPercent}, {"&", tAmp}, {"|", tPipe}, {"^", tCaret}, {"~", tTilde}, {"!", tBang},
	{"<", tLT}, {">", tGT},
}

func (l *lexer) next() token {
	if t, ok := l.skipSpace(); !ok {
		return t
	}
	start := l.pos()
	if l.off >= len(l.src) {
		return token{kind: tEOF, pos: start}
	}
	c := l.src[l.off]
	switch {
	case isLetter(c):
		end := l.off
		for end < len(l.src) && (isLetter(l.src[end]) || isDigit(l.src[end])) {
			end++
		}
		text := l.src[l.off:end]
		l.advance(end - l.off)
		if k, ok := keywords[text]; ok {
			return token{kind: k, text: text, pos: start}
		}
		return token{kind: tIdent, text: text, pos: start}
	case isDigit(c):
		return l.number(start)
	case c == '"':
		return l.stringLit(start)
	}
	for _, op := range operators {
		if op.kind == tLeadsTo && !l.query {
			continue
		}
		if len(l.src)-l.off >= len(op.text) && l.src[l.off:l.off+len(op.text)] == op.text {
			l.advance(len(op.text))
			return token{kind: op.kind, text: op.text, pos: start}
		}
	}
	r, _ := utf8.DecodeRuneInString(l.src[l.off:])
	msg := fmt.Sprintf("unexpected character %q", r)
	if r == utf8.RuneError {
		msg = fmt.Sprintf("unexpected byte 0x%02x", c)
	}
	return token{kind: tError, text: msg, pos: start}
}

// number lexes a decimal integer literal. Floating-point literals (`1.5`,
// `2e3`) are recognised so that the parser can reject them by name; a digit
// sequence running into letters (`0x10`, `12ab`) is an error.
func (l *lexer) number(start Pos) token {
	end := l.off
	for end < len(l.src) && isDigit(l.src[end]) {
		end++
	}
	float := false
	if end+1 < len(l.src) && l.src[end] == '.' && isDigit(l.src[end+1]) {
		float = true
		end++
		for end < len(l.src) && isDigit(l.src[end]) {
			end++
		}
	}
	if end < len(l.src) && (l.src[end] == 'e' || l.src[end] == 'E') {
		e := end + 1
		if e < len(l.src) && (l.src[e] == '+' || l.src[e] == '-') {
			e++
		}
		if e < len(l.src) && isDigit(l.src[e]) {
			float = true
			end = e
			for end < len(l.src) && isDigit(l.src[end]) {
				end++
			}
		}
	}
	if end < len(l.src) && (isLetter(l.src[end]) || isDigit(l.src[end])) {
		for end < len(l.src) && (isLetter(l.src[end]) || isDigit(l.src[end])) {
			end++
		}
		text := l.src[l.off:end]
		return token{kind: tError, text: fmt.Sprintf("invalid number literal %s", text), pos: start}
	}
	text := l.src[l.off:end]
	l.advance(end - l.off)
	if float {
		return token{kind: tFloat, text: text, pos: start}
	}
	v, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		return token{kind: tError, text: fmt.Sprintf("integer literal %s out of range", text), pos: start}
	}
	return token{kind: tInt, text: text, pos: start, val: v}
}

// stringLit lexes a double-quoted string literal with backslash escapes.
func (l *lexer) stringLit(start Pos) token {
	end := l.off + 1
	for {
		if end >= len(l.src) || l.src[end] == '\n' {
			return token{kind: tError, text: "unterminated string literal", pos: start}
		}
		switch l.src[end] {
		case '\\':
			end += 2
			continue
		case '"':
			end++
			text := l.src[l.off:end]
			l.advance(end - l.off)
			return token{kind: tString, text: text, pos: start}
		}
		end++
	}
}

package uppaal

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/tcheck/tcheck/model"
)

// lineIndex maps byte offsets of a source to 1-based lines and byte columns,
// as model.Pos counts them.
type lineIndex struct {
	file  string
	src   string
	lines []int // byte offset of the start of each line
}

func newLineIndex(file, src string) *lineIndex {
	li := &lineIndex{file: file, src: src, lines: []int{0}}
	for i := 0; i < len(src); i++ {
		if src[i] == '\n' {
			li.lines = append(li.lines, i+1)
		}
	}
	return li
}

// pos returns the position of byte offset off (clamped to the source).
func (li *lineIndex) pos(off int) model.Pos {
	if off < 0 {
		off = 0
	}
	if off > len(li.src) {
		off = len(li.src)
	}
	k := sort.Search(len(li.lines), func(i int) bool { return li.lines[i] > off }) - 1
	if k < 0 {
		k = 0
	}
	return model.Pos{File: li.file, Line: k + 1, Col: off - li.lines[k] + 1}
}

// errAt returns a positioned model error at byte offset off.
func (li *lineIndex) errAt(off int, format string, args ...any) error {
	return &model.Error{Pos: li.pos(off), Msg: fmt.Sprintf(format, args...)}
}

// checkUTF8 reports the first byte of the source that is not UTF-8.
func checkUTF8(li *lineIndex) error {
	for i := 0; i < len(li.src); {
		r, w := utf8.DecodeRuneInString(li.src[i:])
		if r == utf8.RuneError && w == 1 {
			return li.errAt(i, "the file is not valid UTF-8")
		}
		i += w
	}
	return nil
}

// text returns the verbatim snippet src[start:end] as a model.Text: its
// lines are the file's lines, so positions inside it are exact.
func (li *lineIndex) text(start, end int) model.Text {
	return model.NewText(li.src[start:end], li.pos(start))
}

// label returns src[start:end] without the white space around it, as a
// verbatim snippet.
func (li *lineIndex) label(start, end int) model.Text {
	return li.text(li.trim(start, end))
}

// trim returns the bounds of src[start:end] without the white space
// around it.
func (li *lineIndex) trim(start, end int) (int, int) {
	for start < end && isSpace(li.src[start]) {
		start++
	}
	for end > start && isSpace(li.src[end-1]) {
		end--
	}
	return start, end
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// tokKind classifies the tokens of the structural scanner. It knows just
// enough of UPPAAL's C-like language to find the boundaries of
// declarations, processes, labels and queries; the snippets themselves are
// parsed by package syntax.
type tokKind int

const (
	tEOF    tokKind = iota
	tIdent          // identifier or keyword
	tNumber         // integer or floating-point literal
	tString         // "..." (UPPAAL has no escapes in strings)
	tPunct          // punctuation or operator; text is the spelling
)

type token struct {
	kind     tokKind
	text     string
	off, end int // byte span in the source
}

// comment is a `//` or `/* */` comment with its byte span.
type comment struct {
	text     string // without the markers
	off, end int
	block    bool
}

// scanError is a lexical error of the structural scanner.
type scanError struct {
	off int
	msg string
}

// scan splits src into tokens (comments and white space removed, comments
// returned separately). Multi-character punctuation recognised: `->`,
// `-u->`, `:=`, `==`, `!=`, `<=`, `>=`, `&&`, `||`, `++`, `--`; everything
// else is one character.
func scan(src string) ([]token, []comment, *scanError) {
	var toks []token
	var comments []comment
	i := 0
	for i < len(src) {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			i++
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			j := strings.IndexByte(src[i:], '\n')
			if j < 0 {
				j = len(src) - i
			}
			comments = append(comments, comment{text: src[i+2 : i+j], off: i, end: i + j})
			i += j
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			j := strings.Index(src[i+2:], "*/")
			if j < 0 {
				return toks, comments, &scanError{i, "unterminated comment"}
			}
			comments = append(comments, comment{text: src[i+2 : i+2+j], off: i, end: i + 4 + j, block: true})
			i += j + 4
		case isIdentStart(c):
			j := i + 1
			for j < len(src) && isIdentChar(src[j]) {
				j++
			}
			toks = append(toks, token{tIdent, src[i:j], i, j})
			i = j
		case c >= '0' && c <= '9':
			j := i + 1
			for j < len(src) && (isIdentChar(src[j]) || src[j] == '.' ||
				(src[j] == '+' || src[j] == '-') && (src[j-1] == 'e' || src[j-1] == 'E')) {
				j++
			}
			toks = append(toks, token{tNumber, src[i:j], i, j})
			i = j
		case c == '"':
			j := strings.IndexByte(src[i+1:], '"')
			if j < 0 {
				return toks, comments, &scanError{i, "unterminated string literal"}
			}
			toks = append(toks, token{tString, src[i : i+j+2], i, i + j + 2})
			i += j + 2
		default:
			n := 1
			for _, p := range []string{"-u->", "->", ":=", "==", "!=", "<=", ">=", "&&", "||", "++", "--"} {
				if strings.HasPrefix(src[i:], p) {
					n = len(p)
					break
				}
			}
			toks = append(toks, token{tPunct, src[i : i+n], i, i + n})
			i += n
		}
	}
	toks = append(toks, token{kind: tEOF, off: len(src), end: len(src)})
	return toks, comments, nil
}

func isIdentStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isIdentChar(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' }

// isIdent reports whether s is an identifier of the language.
func isIdent(s string) bool {
	if s == "" || !isIdentStart(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isIdentChar(s[i]) {
			return false
		}
	}
	return true
}

// is reports whether t is the punctuation or identifier s.
func (t token) is(s string) bool { return (t.kind == tPunct || t.kind == tIdent) && t.text == s }

// matching returns the index of the token closing the bracket at toks[i]
// ('(', '[' or '{'), or -1 when it is not closed. Brackets of the other
// kinds nest inside; a mismatched closing bracket ends the search.
func matching(toks []token, i int) int {
	var stack []string
	for j := i; j < len(toks) && toks[j].kind != tEOF; j++ {
		if toks[j].kind != tPunct {
			continue
		}
		switch toks[j].text {
		case "(":
			stack = append(stack, ")")
		case "[":
			stack = append(stack, "]")
		case "{":
			stack = append(stack, "}")
		case ")", "]", "}":
			if len(stack) == 0 || stack[len(stack)-1] != toks[j].text {
				return -1
			}
			stack = stack[:len(stack)-1]
			if len(stack) == 0 {
				return j
			}
		}
	}
	return -1
}

// commentText strips a comment's markers and surrounding space; block
// comments lose the leading `*` UPPAAL's GUI and many editors put on each
// line.
func commentText(c comment) string {
	if !c.block {
		return strings.TrimSpace(c.text)
	}
	var lines []string
	for _, l := range strings.Split(c.text, "\n") {
		l = strings.TrimSpace(strings.TrimSuffix(l, "\r"))
		if strings.HasPrefix(l, "*") && !strings.HasPrefix(l, "*/") {
			l = strings.TrimSpace(l[1:])
		}
		lines = append(lines, l)
	}
	for len(lines) > 0 && lines[0] == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return strings.Join(lines, "\n")
}

// blank returns s with the byte range [start, end) replaced by spaces,
// keeping line breaks, so that the rest of s keeps its line and column.
func blank(s string, start, end int) string {
	b := []byte(s)
	for i := start; i < end && i < len(b); i++ {
		if b[i] != '\n' && b[i] != '\r' {
			b[i] = ' '
		}
	}
	return string(b)
}

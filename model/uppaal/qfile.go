package uppaal

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"

	"github.com/tcheck/tcheck/model"
)

// ParseQueries reads a UPPAAL query file (.q): one query per line (a
// trailing backslash continues a line, and so does an unclosed bracket),
// with `//` and `/* */` comments. The comments right before a query (no
// blank line in between) describe it and become its comment, as in the
// files UPPAAL's GUI writes. Inside that comment, a line `[name] ...` at
// the start names the query (otherwise queries are called q1, q2, ... in
// file order) and a line `EXPECT: satisfied` (or violated, or a value list
// for sup/inf) is its expectation; both are what tcheck writes.
func ParseQueries(name string, src []byte) ([]*model.FileQuery, error) {
	s := string(src)
	li := newLineIndex(name, s)
	if err := checkUTF8(li); err != nil {
		return nil, err
	}
	var qs []*model.FileQuery
	var pending []string // comments since the last blank line
	i := 0
	for i < len(s) {
		c := s[i]
		switch {
		case c == '\n':
			// A blank line (nothing but white space since the last
			// newline or comment line) detaches pending comments.
			if lineIsBlank(s, i) {
				pending = nil
			}
			i++
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			i++
		case strings.HasPrefix(s[i:], "//"):
			j := strings.IndexByte(s[i:], '\n')
			if j < 0 {
				j = len(s) - i
			}
			pending = append(pending, commentText(comment{text: s[i+2 : i+j]}))
			i += j
			if i < len(s) {
				i++ // the comment's own newline does not make a blank line
			}
		case strings.HasPrefix(s[i:], "/*"):
			j := strings.Index(s[i+2:], "*/")
			if j < 0 {
				return nil, li.errAt(i, "unterminated comment")
			}
			pending = append(pending, commentText(comment{text: s[i+2 : i+2+j], block: true}))
			i += j + 4
			// Skip the rest of the comment's line when it is empty.
			k := i
			for k < len(s) && (s[k] == ' ' || s[k] == '\t' || s[k] == '\r') {
				k++
			}
			if k < len(s) && s[k] == '\n' {
				i = k + 1
			}
		default:
			end, text, err := queryLine(li, s, i)
			if err != nil {
				return nil, err
			}
			if oneLine(text) == "" { // a lone continuation, comments
				pending = nil
				i = end
				continue
			}
			q := &model.FileQuery{Pos: li.pos(i), Formula: model.NewText(text, li.pos(i))}
			qname, comment, expect := splitComment(strings.Join(nonEmpty(pending), "\n"))
			q.Name, q.Comment, q.Expect = qname, comment, expect
			if expect != "" {
				q.ExpectPos = q.Pos
			}
			qs = append(qs, q)
			pending = nil
			i = end
		}
	}
	uniqueQueryNames(qs)
	return qs, nil
}

// lineIsBlank reports whether the line ending at the newline s[nl] holds
// only white space.
func lineIsBlank(s string, nl int) bool {
	for k := nl - 1; k >= 0 && s[k] != '\n'; k-- {
		if s[k] != ' ' && s[k] != '\t' && s[k] != '\r' {
			return false
		}
	}
	return true
}

// queryLine returns the end of the query starting at s[i] and its text
// (continuation backslashes replaced by spaces, so positions stay exact).
func queryLine(li *lineIndex, s string, i int) (int, string, error) {
	depth := 0
	j := i
	b := []byte(nil)
	for j < len(s) {
		c := s[j]
		switch {
		case strings.HasPrefix(s[j:], "/*"):
			k := strings.Index(s[j+2:], "*/")
			if k < 0 {
				return 0, "", li.errAt(j, "unterminated comment")
			}
			j += k + 4
			continue
		case strings.HasPrefix(s[j:], "//"):
			k := strings.IndexByte(s[j:], '\n')
			if k < 0 {
				k = len(s) - j
			}
			j += k
			continue
		case c == '\\':
			k := j + 1
			for k < len(s) && (s[k] == ' ' || s[k] == '\t' || s[k] == '\r') {
				k++
			}
			if k == len(s) || s[k] == '\n' { // a continuation (at the end: nothing follows)
				if b == nil {
					b = []byte(s)
				}
				b[j] = ' '
				j = min(k+1, len(s))
				continue
			}
			return 0, "", li.errAt(j, "stray '\\' (a backslash continues a query at the end of a line)")
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			depth--
		case c == '\n':
			if depth <= 0 {
				return j + 1, trimQuery(pick(b, s), i, j), nil
			}
		}
		j++
	}
	return j, trimQuery(pick(b, s), i, j), nil
}

func pick(b []byte, s string) string {
	if b != nil {
		return string(b)
	}
	return s
}

func trimQuery(s string, i, j int) string {
	return strings.TrimRight(s[i:j], " \t\r")
}

func nonEmpty(ss []string) []string {
	var out []string
	for _, s := range ss {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

var (
	nameTagRE = regexp.MustCompile(`^\[([^\]\n]+)\][ \t]*`)
	expectRE  = regexp.MustCompile(`^EXPECT:\s*(.*?)\s*$`)
)

// splitComment takes a query's comment apart: a leading `[name]` tag, the
// `EXPECT:` line and the rest.
func splitComment(c string) (name, comment, expect string) {
	var lines []string
	for _, l := range strings.Split(c, "\n") {
		if m := expectRE.FindStringSubmatch(strings.TrimSpace(l)); m != nil {
			expect = m[1]
			continue
		}
		lines = append(lines, l)
	}
	c = strings.TrimSpace(strings.Join(lines, "\n"))
	if m := nameTagRE.FindStringSubmatch(c); m != nil {
		name = m[1]
		c = strings.TrimSpace(c[len(m[0]):])
	}
	return name, c, expect
}

func defaultQueryName(n int) string { return fmt.Sprintf("q%d", n) }

// uniqueQueryNames gives every query a name (q1, q2, ... by position) and
// makes names unique: a repeated name is replaced by the positional one,
// with a suffix if that is taken too.
func uniqueQueryNames(qs []*model.FileQuery) {
	seen := map[string]bool{}
	for _, q := range qs {
		if q.Name != "" && !seen[q.Name] {
			seen[q.Name] = true
		} else {
			q.Name = ""
		}
	}
	for i, q := range qs {
		if q.Name != "" {
			continue
		}
		n := defaultQueryName(i + 1)
		for k := 2; seen[n]; k++ {
			n = fmt.Sprintf("%s_%d", defaultQueryName(i+1), k)
		}
		q.Name = n
		seen[n] = true
	}
}

// queryComment is the comment tcheck writes for a query in UPPAAL formats:
// `[name] comment`, with the tag left out when the name is the positional
// default (n is the 1-based position).
func queryComment(q *model.FileQuery, n int) string {
	c := q.Comment
	if q.Name != "" && (q.Name != defaultQueryName(n) || nameTagRE.MatchString(c)) {
		if c == "" {
			c = "[" + q.Name + "]"
		} else {
			c = "[" + q.Name + "] " + c
		}
	}
	return c
}

// FormatQueries writes queries as a UPPAAL query file (.q) that
// ParseQueries reads back with the same names, formulas, comments and
// expectations. Formulas are written on one line (comments inside them are
// dropped); per-query max-states limits have no place in the format and are
// left out.
func FormatQueries(qs []*model.FileQuery) []byte {
	var b bytes.Buffer
	b.WriteString("//This file was generated by tcheck.\n")
	for i, q := range qs {
		b.WriteString("\n")
		var lines []string
		if c := queryComment(q, i+1); c != "" {
			lines = append(lines, strings.Split(c, "\n")...)
		}
		if q.Expect != "" {
			lines = append(lines, "EXPECT: "+q.Expect)
		}
		if len(lines) > 0 {
			body := strings.Join(lines, "\n")
			star := false
			for _, l := range lines {
				star = star || strings.HasPrefix(strings.TrimSpace(l), "*")
			}
			if star || strings.Contains(body, "*/") {
				for _, l := range lines {
					b.WriteString("// " + l + "\n")
				}
			} else {
				b.WriteString("/*\n" + body + "\n*/\n")
			}
		}
		b.WriteString(oneLine(q.Formula.S) + "\n")
	}
	return b.Bytes()
}

// oneLine removes comments from a formula and joins its lines.
func oneLine(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		switch {
		case strings.HasPrefix(s[i:], "//"):
			j := strings.IndexByte(s[i:], '\n')
			if j < 0 {
				j = len(s) - i
			}
			b.WriteByte(' ')
			i += j
		case strings.HasPrefix(s[i:], "/*"):
			j := strings.Index(s[i+2:], "*/")
			if j < 0 {
				j = len(s) - i - 2
			}
			b.WriteByte(' ')
			i += j + 4
		default:
			b.WriteByte(s[i])
			i++
		}
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

package regress

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/tcheck/tcheck/model"
	"github.com/tcheck/tcheck/model/syntax"
	"github.com/tcheck/tcheck/queries"
)

// NewExpectation returns the expect: value that a result would meet, and
// false when it has none (unknown and error verdicts are never written).
func NewExpectation(r *queries.Result) (string, bool) {
	switch r.Verdict {
	case queries.Satisfied, queries.Violated:
	default:
		return "", false
	}
	if r.Query.Kind == syntax.QuerySup || r.Query.Kind == syntax.QueryInf {
		var vs []string
		for _, v := range r.Values {
			vs = append(vs, v.String())
		}
		if len(vs) == 0 {
			return "", false
		}
		return strings.Join(vs, ", "), true
	}
	return r.Verdict.String(), true
}

// Update rewrites, in the model file of r, the expect: value of every
// failed case whose result has an answer, leaving every other byte of the
// file as it was (comments, order, formatting, quoting style). It checks
// the rewritten file parses to the same model with only those expectations
// changed before replacing the file. Sweep files are not updated. It
// returns the number of expectations rewritten and the cases it could not
// update, with the reason.
func Update(r *FileResult) (int, []string, error) {
	if r.Kind != "model" || r.Err != nil {
		return 0, nil, nil
	}
	edits := map[string]string{}
	var skipped []string
	for _, c := range r.Cases {
		if c.Status != Fail || c.Result == nil {
			continue
		}
		v, ok := NewExpectation(c.Result)
		if !ok {
			skipped = append(skipped, fmt.Sprintf("%s: no answer to write (%s)", c.Name, c.Got))
			continue
		}
		if isClaim(c.Result.Query) {
			skipped = append(skipped, fmt.Sprintf("%s: %q compares with an expression; edit it by hand (got %s)", c.Name, c.Result.Query.Expect.Raw, v))
			continue
		}
		if c.Result.Query.Expect.Raw == "" || matchesIgnoringMaxStates(c.Result) {
			skipped = append(skipped, fmt.Sprintf("%s: only max-states missed (not rewritten)", c.Name))
			continue
		}
		edits[c.Query] = v
	}
	if len(edits) == 0 {
		return 0, skipped, nil
	}
	src, err := model.ReadSource(r.Path)
	if err != nil {
		return 0, skipped, err
	}
	out, err := RewriteExpectations(r.Path, src, edits)
	if err != nil {
		return 0, skipped, err
	}
	st, err := os.Stat(r.Path)
	if err != nil {
		return 0, skipped, err
	}
	tmp, err := os.CreateTemp(filepath.Dir(r.Path), "."+filepath.Base(r.Path)+".*")
	if err != nil {
		return 0, skipped, err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(out); err != nil {
		tmp.Close()
		return 0, skipped, err
	}
	if err := tmp.Close(); err != nil {
		return 0, skipped, err
	}
	if err := os.Chmod(tmp.Name(), st.Mode().Perm()); err != nil {
		return 0, skipped, err
	}
	if err := os.Rename(tmp.Name(), r.Path); err != nil {
		return 0, skipped, err
	}
	return len(edits), skipped, nil
}

// literalValue is a sup/inf value as printed: 12, <12, >12, inf, none.
var literalValue = regexp.MustCompile(`^\s*([<>]?\s*-?[0-9]+|inf|none)\s*$`)

// isClaim reports whether a sup/inf expectation compares with an
// expression of the model ("<= U", "T"): it states a claim rather than
// records an answer, and is never rewritten.
func isClaim(q *queries.Query) bool {
	if q.Kind != syntax.QuerySup && q.Kind != syntax.QueryInf {
		return false
	}
	for _, v := range strings.Split(q.Expect.Raw, ",") {
		if !literalValue.MatchString(v) {
			return true
		}
	}
	return false
}

// matchesIgnoringMaxStates reports whether r meets its expect: value (its
// max-states aside).
func matchesIgnoringMaxStates(r *queries.Result) bool {
	q := *r.Query
	q.Expect.MaxStates = 0
	r2 := *r
	r2.Query = &q
	return r2.Matches()
}

// RewriteExpectations replaces the expect: scalars of the named queries
// (query name -> new value) in a model file's source, in place.
func RewriteExpectations(path string, src []byte, edits map[string]string) ([]byte, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s: not a model file", path)
	}
	qs := mapValue(doc.Content[0], "queries")
	if qs == nil || qs.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s: no queries", path)
	}
	lines := lineStarts(src)
	type span struct {
		start, end int
		text       string
	}
	var spans []span
	for name, v := range edits {
		q := mapValue(qs, name)
		if q == nil {
			return nil, fmt.Errorf("%s: no query %s", path, name)
		}
		e := mapValue(q, "expect")
		if e == nil || e.Kind != yaml.ScalarNode {
			return nil, fmt.Errorf("%s: query %s has no expect: scalar", path, name)
		}
		start := offset(src, lines, e.Line, e.Column)
		end, err := scalarEnd(src, start, e)
		if err != nil {
			return nil, fmt.Errorf("%s:%d:%d: expect of %s: %v", path, e.Line, e.Column, name, err)
		}
		spans = append(spans, span{start, end, quote(v, e.Style)})
	}
	// Apply from the end so that offsets stay valid.
	for i := range spans {
		for j := i + 1; j < len(spans); j++ {
			if spans[j].start > spans[i].start {
				spans[i], spans[j] = spans[j], spans[i]
			}
		}
	}
	out := append([]byte{}, src...)
	for _, s := range spans {
		out = append(out[:s.start], append([]byte(s.text), out[s.end:]...)...)
	}
	if err := sameExceptExpectations(path, src, out, edits); err != nil {
		return nil, err
	}
	return out, nil
}

// sameExceptExpectations parses both versions and checks that exactly the
// edited expectations changed, to the wanted values.
func sameExceptExpectations(path string, before, after []byte, edits map[string]string) error {
	a, err := model.Parse(path, before)
	if err != nil {
		return err
	}
	b, err := model.Parse(path, after)
	if err != nil {
		return fmt.Errorf("internal error: the rewritten file does not parse: %v", err)
	}
	if len(a.Queries) != len(b.Queries) {
		return fmt.Errorf("internal error: the rewritten file has other queries")
	}
	for i, qa := range a.Queries {
		qb := b.Queries[i]
		want := qa.Expect
		if v, ok := edits[qa.Name]; ok {
			want = v
		}
		if qa.Name != qb.Name || qa.Formula.S != qb.Formula.S || qa.Comment != qb.Comment || qa.MaxStates != qb.MaxStates || qb.Expect != want {
			return fmt.Errorf("internal error: rewriting changed query %s beyond its expectation", qa.Name)
		}
	}
	return nil
}

func mapValue(m *yaml.Node, key string) *yaml.Node {
	if m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

func lineStarts(src []byte) []int {
	ls := []int{0}
	for i, c := range src {
		if c == '\n' {
			ls = append(ls, i+1)
		}
	}
	return ls
}

// offset converts the YAML library's 1-based line and character column to
// a byte offset.
func offset(src []byte, lines []int, line, col int) int {
	off := lines[line-1]
	for c := 1; c < col && off < len(src) && src[off] != '\n'; c++ {
		_, w := utf8.DecodeRune(src[off:])
		off += w
	}
	return off
}

// scalarEnd returns the end offset of the single-line scalar node n
// starting at start.
func scalarEnd(src []byte, start int, n *yaml.Node) (int, error) {
	switch n.Style {
	case yaml.DoubleQuotedStyle:
		if start >= len(src) || src[start] != '"' {
			return 0, fmt.Errorf("cannot find the quoted value")
		}
		for i := start + 1; i < len(src) && src[i] != '\n'; i++ {
			switch src[i] {
			case '\\':
				i++
			case '"':
				return i + 1, nil
			}
		}
	case yaml.SingleQuotedStyle:
		if start >= len(src) || src[start] != '\'' {
			return 0, fmt.Errorf("cannot find the quoted value")
		}
		for i := start + 1; i < len(src) && src[i] != '\n'; i++ {
			if src[i] == '\'' {
				if i+1 < len(src) && src[i+1] == '\'' {
					i++
					continue
				}
				return i + 1, nil
			}
		}
	case 0:
		if bytes.HasPrefix(src[start:], []byte(n.Value)) && !strings.Contains(n.Value, "\n") {
			return start + len(n.Value), nil
		}
	}
	return 0, fmt.Errorf("only single-line plain or quoted values can be rewritten")
}

var plainSafe = regexp.MustCompile(`^[A-Za-z0-9_<][A-Za-z0-9_<.-]*$`)

// quote formats v as a YAML scalar in the style of the value it replaces
// (plain when the old one was plain and v needs no quotes).
func quote(v string, style yaml.Style) string {
	switch {
	case style == yaml.SingleQuotedStyle:
		return "'" + strings.ReplaceAll(v, "'", "''") + "'"
	case style == 0 && plainSafe.MatchString(v):
		return v
	}
	return `"` + strings.ReplaceAll(strings.ReplaceAll(v, `\`, `\\`), `"`, `\"`) + `"`
}

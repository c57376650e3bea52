package model

import (
	"flag"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/tcheck/tcheck/model/syntax"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// A txtar-like case file: "-- name --" lines start a case; the lines up to
// the next such line are the case's text.
type dataCase struct {
	name, text string
}

func readCases(t *testing.T, path string) []dataCase { return readCasesFile(t, path) }

func readCasesFile(t testing.TB, path string) []dataCase {
	t.Helper()
	var cases []dataCase
	for _, line := range strings.SplitAfter(string(readFile(t, path)), "\n") {
		trim := strings.TrimSpace(line)
		if strings.HasPrefix(trim, "-- ") && strings.HasSuffix(trim, " --") {
			cases = append(cases, dataCase{name: strings.TrimSuffix(strings.TrimPrefix(trim, "-- "), " --")})
			continue
		}
		if len(cases) == 0 {
			continue // the file's header comment
		}
		cases[len(cases)-1].text += line
	}
	return cases
}

// completeModel appends what a case leaves out: a template P with one
// initial location `a` when it has no templates, and `system P;` when it
// has no system. Appending keeps the positions of the case's own lines.
func completeModel(src string) string {
	if !strings.HasSuffix(src, "\n") && src != "" {
		src += "\n"
	}
	if !strings.Contains(src, "templates:") {
		src += "templates:\n  - name: P\n    locations:\n      - {name: a, initial: true}\n"
	}
	if !strings.Contains(src, "system:") {
		src += "system: system P;\n"
	}
	return src
}

// loadAll parses, compiles and compiles the queries of a model, returning
// the first error.
func loadAll(name string, src []byte) error {
	f, err := Parse(name, src)
	if err != nil {
		return err
	}
	var set map[string]int64
	if rest, ok := strings.CutPrefix(string(src), "# set: "); ok {
		set = map[string]int64{}
		line, _, _ := strings.Cut(rest, "\n")
		for _, kv := range strings.Split(line, ",") {
			k, v, _ := strings.Cut(kv, "=")
			x, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			if err != nil {
				return err
			}
			set[strings.TrimSpace(k)] = x
		}
	}
	n, err := f.Compile(set)
	if err != nil {
		return err
	}
	for _, q := range f.Queries {
		pq, err := ParseQuery(q.Formula)
		if err != nil {
			return err
		}
		for _, x := range []syntax.Expr{pq.Formula, pq.Formula2} {
			if x == nil {
				continue
			}
			if _, err := n.CompileFormula(x, q.Formula); err != nil {
				return err
			}
		}
		for _, x := range pq.Exprs {
			if _, err := n.CompileTerm(x, q.Formula); err != nil {
				return err
			}
		}
	}
	return nil
}

// TestCheckErrors proves that each class of model error is reported with
// its position and a clear message. The cases are in testdata/errors.txt
// (one small model per case, completed by completeModel), the expected
// messages in testdata/errors.golden; `go test -run TestCheckErrors
// -update` rewrites the latter (inspect the diff).
func TestCheckErrors(t *testing.T) {
	cases := readCases(t, "testdata/errors.txt")
	var got strings.Builder
	seen := map[string]bool{}
	for _, c := range cases {
		if seen[c.name] {
			t.Fatalf("case %s appears twice", c.name)
		}
		seen[c.name] = true
		err := loadAll(c.name+".yaml", []byte(completeModel(c.text)))
		msg := "OK (no error)"
		if err != nil {
			msg = err.Error()
			if _, ok := err.(*Error); !ok {
				t.Errorf("%s: error of type %T, want *model.Error: %v", c.name, err, err)
			}
			if !strings.HasPrefix(msg, c.name+".yaml:") {
				t.Errorf("%s: error without position: %s", c.name, msg)
			}
		}
		got.WriteString(c.name + ": " + msg + "\n")
	}
	const golden = "testdata/errors.golden"
	if *update {
		if err := os.WriteFile(golden, []byte(got.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want := string(readFile(t, golden))
	if got.String() != want {
		gl, wl := strings.Split(got.String(), "\n"), strings.Split(want, "\n")
		for i := 0; i < len(gl) || i < len(wl); i++ {
			var g, w string
			if i < len(gl) {
				g = gl[i]
			}
			if i < len(wl) {
				w = wl[i]
			}
			if g != w {
				t.Errorf("got  %s\nwant %s", g, w)
			}
		}
	}
}

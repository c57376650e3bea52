package cli

import (
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

const regressDir = repoRoot + "/testdata/regress"

// TestTestExitCodes: 0 when every expectation is met, 1 when some are
// missed, 2 for model errors (a file that does not load, a runtime error).
func TestTestExitCodes(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		code int
		last string
	}{
		{"all met", []string{"test", regressDir + "/ok"}, ExitOK, "18 passed, 0 failed"},
		{"some missed", []string{"test", regressDir + "/wrong"}, ExitViolated, "5 passed, 3 failed"},
		{"model errors", []string{"test", regressDir + "/broken"}, ExitUsage, "0 passed, 2 failed"},
		{"-run selects queries", []string{"test", "-run", "^(range|largest)$", regressDir + "/wrong"}, ExitViolated, "1 passed, 1 failed"},
		{"-run with two dashes", []string{"test", "--run=^range$", regressDir + "/wrong"}, ExitOK, "1 passed, 0 failed"},
		{"no file has expectations", []string{"test", repoRoot + "/queries/testdata/errors"}, ExitOK, "0 passed, 0 failed"},
		{"missing path", []string{"test", regressDir + "/nosuch"}, ExitUsage, ""},
		{"bad regexp", []string{"test", "-run", "(", regressDir}, ExitUsage, ""},
	} {
		code, out, stderr := run(tc.args...)
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if code != tc.code || tc.last != "" && lines[len(lines)-1] != tc.last {
			t.Errorf("%s: exit %d (want %d), last line %q (want %q)\n%s%s", tc.name, code, tc.code, lines[len(lines)-1], tc.last, out, stderr)
		}
	}
}

var testTimes = regexp.MustCompile(`[0-9]+\.[0-9]{3}s`)

// TestTestReportGolden checks the go-test-like report: failures with
// expected and got, the expectation's position and the trace; one line
// per file; the closing lines.
func TestTestReportGolden(t *testing.T) {
	_, out, _ := run("test", regressDir)
	golden(t, "test-regress.txt", testTimes.ReplaceAllString(out, "X.XXXs"))
}

// TestTestJUnitIsValid writes the JUnit report of the fixtures and checks
// it against the rules both common JUnit schemas (Ant's JUnit.xsd, as
// published by Windy Road, and Jenkins' junit-10.xsd) impose on the
// elements written, and its counts.
func TestTestJUnitIsValid(t *testing.T) {
	path := filepath.Join(t.TempDir(), "report.xml")
	run("test", "--junit", path, regressDir)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	suites := validateJUnit(t, b)
	want := map[string][3]int{ // tests, failures, errors
		"ok/committed.yaml":              {4, 0, 0},
		"ok/fischer.sweep.yaml":          {8, 0, 0},
		"ok/select.yaml":                 {6, 0, 0},
		"wrong/select-wrong.yaml":        {6, 2, 0},
		"wrong/fischer-wrong.sweep.yaml": {2, 1, 0},
		"broken/overflow.yaml":           {1, 0, 1},
		"broken/syntax-error.yaml":       {1, 0, 1},
	}
	if len(suites) != len(want) {
		t.Errorf("%d test suites, want %d", len(suites), len(want))
	}
	for name, c := range suites {
		rel := strings.TrimPrefix(name, regressDir+"/")
		if w, ok := want[rel]; !ok || w != c {
			t.Errorf("suite %s: tests, failures, errors = %v, want %v", rel, c, w)
		}
	}
}

// validateJUnit checks a JUnit document and returns tests, failures and
// errors per suite.
func validateJUnit(t *testing.T, b []byte) map[string][3]int {
	t.Helper()
	dec := xml.NewDecoder(strings.NewReader(string(b)))
	var stack []string
	var children [][]string
	suites := map[string][3]int{}
	var suite string
	var counted [3]int
	timestamp := regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}$`)
	decimal := regexp.MustCompile(`^[0-9]+(\.[0-9]+)?$`)
	attrs := func(se xml.StartElement, required, allowed []string) map[string]string {
		m := map[string]string{}
		for _, a := range se.Attr {
			m[a.Name.Local] = a.Value
			ok := false
			for _, n := range append(append([]string{}, required...), allowed...) {
				ok = ok || n == a.Name.Local
			}
			if !ok {
				t.Errorf("<%s> has attribute %s, which a schema does not allow", se.Name.Local, a.Name.Local)
			}
		}
		for _, n := range required {
			if _, ok := m[n]; !ok {
				t.Errorf("<%s> lacks the required attribute %s", se.Name.Local, n)
			}
		}
		return m
	}
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v", err)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			name := e.Name.Local
			parent := ""
			if len(stack) > 0 {
				parent = stack[len(stack)-1]
				children[len(children)-1] = append(children[len(children)-1], name)
			}
			allowedIn := map[string]string{"testsuites": "", "testsuite": "testsuites", "properties": "testsuite", "property": "properties",
				"testcase": "testsuite", "system-out": "testsuite", "system-err": "testsuite", "failure": "testcase", "error": "testcase"}
			if p, ok := allowedIn[name]; !ok || p != parent {
				t.Errorf("<%s> inside <%s>", name, parent)
			}
			switch name {
			case "testsuites":
				attrs(e, nil, nil) // Ant's schema allows none
			case "testsuite":
				m := attrs(e, []string{"name", "package", "id", "hostname", "timestamp", "tests", "failures", "errors", "time"}, []string{"skipped"})
				for _, n := range []string{"id", "tests", "failures", "errors"} {
					if _, err := strconv.Atoi(m[n]); err != nil {
						t.Errorf("testsuite %s=%q is not an integer", n, m[n])
					}
				}
				if !timestamp.MatchString(m["timestamp"]) || !decimal.MatchString(m["time"]) {
					t.Errorf("testsuite timestamp %q or time %q malformed", m["timestamp"], m["time"])
				}
				suite = m["name"]
				tests, _ := strconv.Atoi(m["tests"])
				failures, _ := strconv.Atoi(m["failures"])
				errs, _ := strconv.Atoi(m["errors"])
				suites[suite] = [3]int{tests, failures, errs}
				counted = [3]int{}
			case "testcase":
				m := attrs(e, []string{"name", "classname", "time"}, nil)
				if !decimal.MatchString(m["time"]) {
					t.Errorf("testcase time %q malformed", m["time"])
				}
				counted[0]++
			case "failure", "error":
				attrs(e, []string{"type"}, []string{"message"})
				if name == "failure" {
					counted[1]++
				} else {
					counted[2]++
				}
			case "property":
				attrs(e, []string{"name", "value"}, nil)
			}
			stack = append(stack, name)
			children = append(children, nil)
		case xml.EndElement:
			name := stack[len(stack)-1]
			kids := children[len(children)-1]
			stack, children = stack[:len(stack)-1], children[:len(children)-1]
			switch name {
			case "testsuite":
				// Ant: properties, testcase*, system-out, system-err.
				ok := len(kids) >= 3 && kids[0] == "properties" && kids[len(kids)-2] == "system-out" && kids[len(kids)-1] == "system-err"
				for _, k := range kids[1 : len(kids)-2] {
					ok = ok && k == "testcase"
				}
				if !ok {
					t.Errorf("testsuite %s children %v, want properties, testcase*, system-out, system-err", suite, kids)
				}
				if counted != suites[suite] {
					t.Errorf("testsuite %s says %v but holds %v", suite, suites[suite], counted)
				}
			case "testcase":
				if len(kids) > 1 {
					t.Errorf("testcase with %v: at most one failure or error", kids)
				}
			}
		}
	}
	return suites
}

// TestTestUpdateRewritesOnlyExpectations runs --update on a copy of a file
// with two wrong expectations: exactly those two values change, the file
// passes afterwards, and a second --update changes nothing.
func TestTestUpdateRewritesOnlyExpectations(t *testing.T) {
	orig, err := os.ReadFile(regressDir + "/wrong/select-wrong.yaml")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "select-wrong.yaml")
	os.WriteFile(path, orig, 0o644)
	if code, out, stderr := run("test", "--update", path); code != ExitOK || !strings.Contains(out, "2 expectations updated") {
		t.Fatalf("--update: exit %d\n%s%s", code, out, stderr)
	}
	got, _ := os.ReadFile(path)
	a, b := strings.Split(string(orig), "\n"), strings.Split(string(got), "\n")
	if len(a) != len(b) {
		t.Fatalf("--update changed the number of lines")
	}
	var changed []string
	for i := range a {
		if a[i] != b[i] {
			changed = append(changed, a[i]+" => "+b[i])
		}
	}
	want := []string{
		"    expect: violated  # wrong: the largest values are reachable =>     expect: satisfied  # wrong: the largest values are reachable",
		`    expect: "4" => ` + `    expect: "3"`,
	}
	if strings.Join(changed, "\n") != strings.Join(want, "\n") {
		t.Errorf("changed lines:\n%s\nwant\n%s", strings.Join(changed, "\n"), strings.Join(want, "\n"))
	}
	if code, out, _ := run("test", path); code != ExitOK {
		t.Errorf("after --update: exit %d\n%s", code, out)
	}
	run("test", "--update", path)
	again, _ := os.ReadFile(path)
	if string(again) != string(got) {
		t.Errorf("a second --update changed the file")
	}
	// Without --update nothing is written.
	os.WriteFile(path, orig, 0o644)
	run("test", path)
	if now, _ := os.ReadFile(path); string(now) != string(orig) {
		t.Errorf("the file changed without --update")
	}
}

func TestTestJSON(t *testing.T) {
	code, out, _ := run("test", "-json", regressDir+"/wrong")
	var rep struct {
		Files []struct {
			Path   string `json:"path"`
			Status string `json:"status"`
			Cases  []struct {
				Name     string          `json:"name"`
				Status   string          `json:"status"`
				Expected string          `json:"expected"`
				Got      string          `json:"got"`
				Result   json.RawMessage `json:"result"`
			} `json:"cases"`
		} `json:"files"`
		Passed   int `json:"passed"`
		Failed   int `json:"failed"`
		ExitCode int `json:"exit_code"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if code != ExitViolated || rep.ExitCode != code || rep.Passed != 5 || rep.Failed != 3 || len(rep.Files) != 2 {
		t.Errorf("exit %d, report %+v", code, rep)
	}
	for _, f := range rep.Files {
		for _, c := range f.Cases {
			if c.Status == "fail" && (c.Expected == "" || c.Got == "" || !strings.Contains(string(c.Result), `"trace"`)) {
				t.Errorf("%s %s: failed case without expected/got/trace: %+v", f.Path, c.Name, c)
			}
		}
	}
}

// TestTestChecksMutantFiles checks that tcheck test expands mutant files
// (patches over a model: the bundled mutants) and checks their expected
// verdicts, and that a mutant whose expectation is wrong fails.
func TestTestChecksMutantFiles(t *testing.T) {
	dir := "../../../../agreement/mutants/"
	code, out, errOut := run("test", dir+"timeout-m1.yaml", dir+"timeout-m2.yaml", dir+"timeout-m3.yaml")
	if code != 0 || !strings.Contains(out, "16 passed, 0 failed") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	// the same mutant with A1's expectation turned around
	src, err := os.ReadFile(dir + "timeout-m1.yaml")
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	wrong := strings.Replace(string(src), "A1: violated", "A1: satisfied", 1)
	if wrong == string(src) {
		t.Fatal("the mutant file changed; update this test")
	}
	path := tmp + "/timeout-m1.yaml"
	if err := os.WriteFile(path, []byte(wrong), 0o644); err != nil {
		t.Fatal(err)
	}
	// the base model timeout is found among the bundled models
	code, out, _ = run("test", path)
	if code != 1 || !strings.Contains(out, "FAIL") {
		t.Fatalf("a wrong expectation passed: exit %d\n%s", code, out)
	}
}

// TestTestTakesTheSearchFlags checks that tcheck test accepts the search
// options that verify and sweep files have (docs/sweep.md says --hull
// applies to it), and applies them: under --hull a sup with an exact
// expectation is only bounded and fails, as docs/queries.md says.
func TestTestTakesTheSearchFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"test", "--hull", "../../../../testdata/regress/ok/committed.yaml"}, 0},
		{[]string{"test", "--full-zones", "../../../../testdata/regress/ok/select.yaml"}, 0},
		{[]string{"test", "--hull", "../../../../testdata/regress/ok/select.yaml"}, 1},
	} {
		if code, out, errOut := run(tc.args...); code != tc.code {
			t.Errorf("tcheck %v: exit %d, want %d\n%s%s", tc.args, code, tc.code, out, errOut)
		}
	}
}

// TestTestInterrupted checks Ctrl-C on tcheck test: the files not checked
// through are reported as interrupted, not as model errors, and the exit
// code is 130 (issue 16, item 7).
func TestTestInterrupted(t *testing.T) {
	saved := testSignals
	defer func() { testSignals = saved }()
	testSignals = func(parent context.Context) (context.Context, context.CancelFunc) {
		ctx, cancel := context.WithCancel(parent)
		cancel() // Ctrl-C at once
		return ctx, cancel
	}
	code, out, errOut := run("test", "../../../../testdata/regress/ok")
	if code != ExitInterrupted {
		t.Fatalf("exit %d, want %d\n%s%s", code, ExitInterrupted, out, errOut)
	}
	if !strings.Contains(out, "INTERRUPTED\t") || !strings.Contains(out, "interrupted: 3 files not checked through") || strings.Contains(out, "model error") {
		t.Fatalf("report:\n%s", out)
	}
}

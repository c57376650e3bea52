package regress

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/tcheck/tcheck/queries"
)

// Totals counts cases over files.
type Totals struct {
	Passed, Failed, Errors int
	// Interrupted counts the files a Ctrl-C kept from being checked through.
	Interrupted int
}

// Total adds up the counts of files.
func Total(rs []*FileResult) Totals {
	var t Totals
	for _, r := range rs {
		p, f, e := r.Counts()
		t.Passed += p
		t.Failed += f
		t.Errors += e
		if r.Interrupted {
			t.Interrupted++
		}
	}
	return t
}

// ReportOptions tune the text report.
type ReportOptions struct {
	Verbose bool // a line for every case, not only failures
	// Stable prints no times (for golden files).
	Stable bool
}

func seconds(d time.Duration, stable bool) string {
	if stable {
		return "-"
	}
	return fmt.Sprintf("%.3fs", d.Seconds())
}

// WriteFile prints one file's report in the manner of go test: the
// failures with their details (expected and got, the position of the
// expectation, the result with its trace), then one line for the file.
func WriteFile(w io.Writer, r *FileResult, o ReportOptions) {
	if r.Interrupted {
		fmt.Fprintf(w, "INTERRUPTED\t%s\n", r.Path)
		return
	}
	for _, c := range r.Cases {
		if c.Status == Pass && !o.Verbose {
			continue
		}
		fmt.Fprintf(w, "--- %s: %s (%s)\n", strings.ToUpper(c.Status.String()), c.Name, seconds(c.Elapsed, o.Stable))
		if c.Status == Pass {
			continue
		}
		fmt.Fprintf(w, "    %s\n", caseMessage(c))
		if c.Result != nil && c.Net != nil {
			var b bytes.Buffer
			queries.WriteResult(&b, c.Net, c.Result, true, false)
			for _, line := range strings.Split(strings.TrimRight(b.String(), "\n"), "\n") {
				fmt.Fprintf(w, "    %s\n", line)
			}
		}
	}
	switch {
	case r.Err != nil:
		fmt.Fprintf(w, "ERROR\t%s\t%s\n", r.Path, strings.Join(strings.Fields(r.Err.Error()), " "))
	case r.Skipped != "":
		fmt.Fprintf(w, "?   \t%s\t[%s]\n", r.Path, r.Skipped)
	default:
		p, f, e := r.Counts()
		status := "ok  "
		switch r.Status() {
		case Fail:
			status = "FAIL"
		case Error:
			status = "FAIL"
		}
		n := p + f + e
		what := "queries"
		switch {
		case r.Kind == "sweep" && n == 1:
			what = "check"
		case r.Kind == "sweep":
			what = "checks"
		case n == 1:
			what = "query"
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%d %s", status, r.Path, seconds(r.Elapsed, o.Stable), n, what)
		if f+e > 0 {
			fmt.Fprintf(w, ", %d failed", f+e)
		}
		if r.Updated > 0 {
			fmt.Fprintf(w, ", %d expectations updated", r.Updated)
		}
		fmt.Fprintln(w)
	}
}

// caseMessage is the first line of a case's details: where the
// expectation is written and how it was missed (model errors carry their
// own position).
func caseMessage(c Case) string {
	if c.Status == Fail && c.Pos.IsValid() {
		return c.Pos.String() + ": " + c.Message
	}
	return c.Message
}

// WriteSummary prints the closing lines: PASS or FAIL, the number of model
// errors if any, and "N passed, N failed" (failed includes errors).
func WriteSummary(w io.Writer, t Totals) {
	if t.Failed+t.Errors == 0 && t.Interrupted > 0 {
		fmt.Fprintln(w, "INTERRUPTED")
	} else if t.Failed+t.Errors == 0 {
		fmt.Fprintln(w, "PASS")
	} else {
		fmt.Fprintln(w, "FAIL")
	}
	if t.Errors > 0 {
		fmt.Fprintf(w, "%d model errors\n", t.Errors)
	}
	if t.Interrupted > 0 {
		fmt.Fprintf(w, "interrupted: %d files not checked through\n", t.Interrupted)
	}
	fmt.Fprintf(w, "%d passed, %d failed\n", t.Passed, t.Failed+t.Errors)
}

// JSONCase is a case in the JSON report.
type JSONCase struct {
	Name     string              `json:"name"`
	Query    string              `json:"query"`
	Point    string              `json:"point,omitempty"`
	Status   Status              `json:"status"`
	Expected string              `json:"expected"`
	Got      string              `json:"got"`
	Message  string              `json:"message,omitempty"`
	Position string              `json:"position,omitempty"`
	Result   *queries.JSONResult `json:"result,omitempty"`
	Seconds  float64             `json:"time_seconds"`
}

// JSONFile is a file in the JSON report.
type JSONFile struct {
	Path    string     `json:"path"`
	Kind    string     `json:"kind"`
	Model   string     `json:"model,omitempty"`
	Status  string     `json:"status"` // pass, fail, error, skip
	Skipped string     `json:"skipped,omitempty"`
	Error   string     `json:"error,omitempty"`
	Cases   []JSONCase `json:"cases"`
	Updated int        `json:"updated,omitempty"`
	Seconds float64    `json:"time_seconds"`
}

// JSONReport is the --json output of tcheck test.
type JSONReport struct {
	Tool     string     `json:"tool"`
	Version  string     `json:"version"`
	Files    []JSONFile `json:"files"`
	Passed   int        `json:"passed"`
	Failed   int        `json:"failed"`
	Errors   int        `json:"errors"`
	ExitCode int        `json:"exit_code"`
}

// JSON builds the JSON report; failed cases carry their full result with
// the trace.
func JSON(rs []*FileResult, version string, exit int) JSONReport {
	t := Total(rs)
	rep := JSONReport{Tool: "tcheck", Version: version, Files: []JSONFile{}, Passed: t.Passed, Failed: t.Failed, Errors: t.Errors, ExitCode: exit}
	for _, r := range rs {
		f := JSONFile{Path: r.Path, Kind: r.Kind, Model: r.Name, Skipped: r.Skipped, Cases: []JSONCase{}, Updated: r.Updated, Seconds: r.Elapsed.Seconds()}
		switch {
		case r.Err != nil:
			f.Status, f.Error = "error", r.Err.Error()
		case r.Skipped != "":
			f.Status = "skip"
		default:
			f.Status = r.Status().String()
		}
		for _, c := range r.Cases {
			jc := JSONCase{Name: c.Name, Query: c.Query, Point: c.Point, Status: c.Status, Expected: c.Expected, Got: c.Got, Message: c.Message, Seconds: c.Elapsed.Seconds()}
			if c.Pos.IsValid() {
				jc.Position = c.Pos.String()
			}
			if c.Status != Pass && c.Result != nil && c.Net != nil {
				j := queries.JSON(c.Net, c.Result, true)
				jc.Result = &j
			}
			f.Cases = append(f.Cases, jc)
		}
		rep.Files = append(rep.Files, f)
	}
	return rep
}

// JUnit XML (the Ant format read by CI systems). The elements and
// attributes written are those both common schemas accept: the Ant schema
// (testsuite with package, id, hostname, timestamp; properties, system-out
// and system-err present; a failure or error element with a type) and the
// Jenkins/Surefire one.
type junitSuites struct {
	XMLName xml.Name     `xml:"testsuites"`
	Suites  []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string          `xml:"name,attr"`
	Package    string          `xml:"package,attr"`
	ID         int             `xml:"id,attr"`
	Hostname   string          `xml:"hostname,attr"`
	Timestamp  string          `xml:"timestamp,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Skipped    int             `xml:"skipped,attr"`
	Time       string          `xml:"time,attr"`
	Properties junitProperties `xml:"properties"`
	Cases      []junitCase     `xml:"testcase"`
	SystemOut  string          `xml:"system-out"`
	SystemErr  string          `xml:"system-err"`
}

type junitProperties struct {
	Props []junitProperty `xml:"property"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitProblem `xml:"failure,omitempty"`
	Error     *junitProblem `xml:"error,omitempty"`
}

type junitProblem struct {
	Type    string `xml:"type,attr"`
	Message string `xml:"message,attr"`
	Text    string `xml:",cdata"`
}

// JUnitOptions fill the volatile attributes.
type JUnitOptions struct {
	Hostname  string    // "localhost" when empty
	Timestamp time.Time // start of the run
	Stable    bool      // write zero times and a fixed timestamp (tests)
}

// WriteJUnit writes a JUnit XML report: one testsuite per file with
// cases (skipped files are left out), one testcase per case; a file that
// does not load is a testsuite with one errored testcase named "load".
func WriteJUnit(w io.Writer, rs []*FileResult, o JUnitOptions) error {
	host := o.Hostname
	if host == "" {
		host = "localhost"
	}
	ts := o.Timestamp.UTC().Format("2006-01-02T15:04:05")
	if o.Stable {
		ts = "2000-01-01T00:00:00"
	}
	t := func(d time.Duration) string {
		if o.Stable {
			return "0.000"
		}
		return fmt.Sprintf("%.3f", d.Seconds())
	}
	doc := junitSuites{}
	for _, r := range rs {
		if r.Skipped != "" {
			continue
		}
		class := strings.TrimSuffix(strings.TrimSuffix(r.Path, ".yaml"), ".yml")
		class = strings.NewReplacer("/", ".", "\\", ".", " ", "_").Replace(strings.TrimPrefix(class, "./"))
		s := junitSuite{Name: r.Path, Package: class, ID: len(doc.Suites), Hostname: host, Timestamp: ts, Time: t(r.Elapsed)}
		if r.Name != "" {
			s.Properties.Props = append(s.Properties.Props, junitProperty{"model", r.Name}, junitProperty{"kind", r.Kind})
		}
		if r.Err != nil {
			s.Tests, s.Errors = 1, 1
			s.Cases = append(s.Cases, junitCase{Name: "load", Classname: class, Time: t(r.Elapsed),
				Error: &junitProblem{Type: "model error", Message: oneLine(r.Err.Error()), Text: r.Err.Error()}})
		}
		for _, c := range r.Cases {
			jc := junitCase{Name: c.Name, Classname: class, Time: t(c.Elapsed)}
			if c.Status != Pass {
				var b bytes.Buffer
				fmt.Fprintf(&b, "%s\n", caseMessage(c))
				if c.Result != nil && c.Net != nil {
					queries.WriteResult(&b, c.Net, c.Result, true, false)
				}
				p := &junitProblem{Message: oneLine(c.Message), Text: b.String()}
				if c.Status == Error {
					p.Type = "model error"
					jc.Error = p
					s.Errors++
				} else {
					p.Type = "expectation missed"
					jc.Failure = p
					s.Failures++
				}
			}
			s.Tests++
			s.Cases = append(s.Cases, jc)
		}
		doc.Suites = append(doc.Suites, s)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// EncodeJSON writes v indented.
func EncodeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

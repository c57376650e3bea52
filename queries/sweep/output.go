package sweep

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/tcheck/tcheck/queries"
	"github.com/tcheck/tcheck/zone"
)

// Formats lists the output formats.
var Formats = []string{"table", "csv", "json", "jsonl"}

// WriteOptions tune the output.
type WriteOptions struct {
	// Stable omits the volatile fields (time, memory): the output is then
	// the same from run to run, for diffs and golden files.
	Stable bool
}

// Summary counts the points of a result by status.
type Summary struct {
	Points  int `json:"points"` // points in the sweep
	Done    int `json:"done"`   // points with a result
	OK      int `json:"ok"`
	Missed  int `json:"missed"`  // an expectation missed
	Unknown int `json:"unknown"` // a limit stopped a query
	Errors  int `json:"errors"`  // a model error
}

// Summarise counts points by status; total is the number of points of the
// sweep (or shard).
func Summarise(points []*PointResult, total int) Summary {
	s := Summary{Points: total, Done: len(points)}
	for _, p := range points {
		switch p.Status() {
		case "ok":
			s.OK++
		case "missed":
			s.Missed++
		case "unknown":
			s.Unknown++
		case "error":
			s.Errors++
		}
	}
	return s
}

func (s Summary) String() string {
	var b strings.Builder
	if s.Done < s.Points {
		fmt.Fprintf(&b, "%d of %d points", s.Done, s.Points)
	} else {
		fmt.Fprintf(&b, "%d points", s.Done)
	}
	var parts []string
	for _, c := range []struct {
		n    int
		what string
	}{{s.OK, "ok"}, {s.Missed, "missed an expectation"}, {s.Unknown, "unknown (a limit was reached)"}, {s.Errors, "model errors"}} {
		if c.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", c.n, c.what))
		}
	}
	if len(parts) > 0 {
		b.WriteString(": " + strings.Join(parts, ", "))
	}
	return b.String()
}

// Write prints results in a format (table, csv, json or jsonl), points in
// index order. The header describes the sweep; total is the number of
// points the results should cover (the sweep's or the shard's).
func Write(w io.Writer, format string, h Header, points []*PointResult, total int, wo WriteOptions) error {
	switch format {
	case "table", "":
		return writeTable(w, h, points, total, wo)
	case "csv":
		return writeCSV(w, h, points, wo)
	case "json":
		doc := docJSON{Tool: h.Tool, Version: h.Version, Sweep: h.Sweep, Shard: h.Shard, Points: []PointJSON{}}
		for _, p := range points {
			doc.Points = append(doc.Points, maskJSON(p.JSON(), wo))
		}
		s := Summarise(points, total)
		doc.Summary = &s
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(doc)
	case "jsonl":
		if err := WriteHeaderLine(w, h); err != nil {
			return err
		}
		for _, p := range points {
			if err := WritePointLine(w, p, wo); err != nil {
				return err
			}
		}
		return nil
	}
	return fmt.Errorf("unknown format %q (want %s)", format, strings.Join(Formats, ", "))
}

type docJSON struct {
	Tool    string      `json:"tool"`
	Version string      `json:"version"`
	Sweep   SpecJSON    `json:"sweep"`
	Shard   *ShardRef   `json:"shard,omitempty"`
	Points  []PointJSON `json:"points"`
	Summary *Summary    `json:"summary"`
}

// WriteHeaderLine writes the header line of a JSON Lines result file.
func WriteHeaderLine(w io.Writer, h Header) error {
	b, err := json.Marshal(h)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// WritePointLine writes one point as a line of a JSON Lines result file,
// with a single Write call (so that a file opened for appending holds whole
// lines).
func WritePointLine(w io.Writer, p *PointResult, wo WriteOptions) error {
	b, err := json.Marshal(maskJSON(p.JSON(), wo))
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

func maskJSON(j PointJSON, wo WriteOptions) PointJSON {
	if wo.Stable {
		j.Seconds, j.PeakMemory = 0, 0
	}
	return j
}

// columns returns the query column labels of a sweep.
func columns(s *SpecJSON) []string {
	var out []string
	for _, q := range s.Queries {
		if len(q.Terms) <= 1 {
			out = append(out, q.Name)
			continue
		}
		for _, t := range q.Terms {
			out = append(out, q.Name+"["+t+"]")
		}
	}
	return out
}

// cells returns the query cells of a point (one per column).
func cells(s *SpecJSON, p *PointResult) []string {
	var out []string
	for i, q := range s.Queries {
		n := max(len(q.Terms), 1)
		var qr *QueryResult
		if i < len(p.Queries) {
			qr = &p.Queries[i]
		}
		for k := range n {
			var c string
			switch {
			case qr == nil:
				c = "-"
			case qr.Verdict == queries.Error:
				c = "error"
			case q.Kind == "sup" || q.Kind == "inf":
				if k < len(qr.Values) {
					c = qr.Values[k]
				} else {
					c = qr.Verdict.String()
				}
			default:
				c = qr.Verdict.String()
			}
			out = append(out, c)
		}
	}
	return out
}

// note explains a point's errors and limits, for people.
func note(p *PointResult) string {
	if p.Error != "" {
		return oneLine(p.Error)
	}
	var parts []string
	for _, q := range p.Queries {
		switch {
		case q.Error != "":
			parts = append(parts, q.Query+": "+oneLine(q.Error))
		case q.Verdict == queries.Unknown && q.Reason != "" && q.Reason != "completed" && q.Reason != "stopped":
			parts = append(parts, q.Query+": "+q.Reason)
		case !q.OK && q.Expected != "":
			parts = append(parts, fmt.Sprintf("%s: expected %s", q.Query, q.Expected))
		}
	}
	return strings.Join(parts, "; ")
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// Duration formats a point's time for the table.
func Duration(d time.Duration) string {
	switch {
	case d >= 10*time.Second:
		return d.Round(100 * time.Millisecond).String()
	case d >= time.Millisecond:
		return d.Round(time.Millisecond).String()
	}
	return d.Round(time.Microsecond).String()
}

func writeTable(w io.Writer, h Header, points []*PointResult, total int, wo WriteOptions) error {
	s := &h.Sweep
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	head := append(append([]string{}, s.Names()...), columns(s)...)
	head = append(head, "status", "states")
	hasNote := false
	for _, p := range points {
		if note(p) != "" {
			hasNote = true
		}
	}
	if hasNote {
		head = append(head, "note")
	}
	head = append(head, "time", "memory")
	fmt.Fprintln(tw, strings.Join(head, "\t"))
	missed := false
	for _, p := range points {
		var row []string
		for _, q := range p.Params {
			row = append(row, strconv.FormatInt(q.Value, 10))
		}
		cs := cells(s, p)
		col := 0
		for i, q := range s.Queries {
			n := max(len(q.Terms), 1)
			for range n {
				if i < len(p.Queries) && !p.Queries[i].OK && p.Queries[i].Expected != "" {
					cs[col] += "!"
					missed = true
				}
				col++
			}
		}
		row = append(row, cs...)
		row = append(row, p.Status(), strconv.FormatInt(p.States, 10))
		if hasNote {
			row = append(row, note(p))
		}
		if wo.Stable {
			row = append(row, "-", "-")
		} else {
			row = append(row, Duration(p.Elapsed), queries.Bytes(p.PeakMemory))
		}
		fmt.Fprintln(tw, strings.Join(row, "\t"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if missed {
		fmt.Fprintln(w, "! marks a result that misses its expectation")
	}
	_, err := fmt.Fprintln(w, Summarise(points, total))
	return err
}

func writeCSV(w io.Writer, h Header, points []*PointResult, wo WriteOptions) error {
	s := &h.Sweep
	cw := csv.NewWriter(w)
	head := append(append([]string{}, s.Names()...), columns(s)...)
	head = append(head, "status", "states", "note", "time_seconds", "peak_memory_bytes")
	if err := cw.Write(head); err != nil {
		return err
	}
	for _, p := range points {
		var row []string
		for _, q := range p.Params {
			row = append(row, strconv.FormatInt(q.Value, 10))
		}
		row = append(row, cells(s, p)...)
		row = append(row, p.Status(), strconv.FormatInt(p.States, 10), note(p))
		if wo.Stable {
			row = append(row, "", "")
		} else {
			row = append(row, strconv.FormatFloat(p.Elapsed.Seconds(), 'f', 3, 64), strconv.FormatUint(p.PeakMemory, 10))
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// OrderHint is queries.OrderHint for a sweep run under order (as its
// header gives it): a note naming the point and query where breadth first
// explored the most states for those it stored, when one wastes its work
// as queries.Wastes says, and "" otherwise.
func OrderHint(all []*PointResult, order string) string {
	if order != "" && order != zone.BFS.String() {
		return ""
	}
	var worstPoint *PointResult
	var worst *QueryResult
	var worstExplored int64
	for _, p := range all {
		for i := range p.Queries {
			q := &p.Queries[i]
			e := queries.PerExploration(q.Explored, q.Explorations)
			if queries.Wastes(e, q.Stored) &&
				(worst == nil || queries.WastesMore(e, q.Stored, worstExplored, worst.Stored)) {
				worstPoint, worst, worstExplored = p, q, e
			}
		}
	}
	if worst == nil {
		return ""
	}
	return fmt.Sprintf("hint: %s, %s: breadth first explored %s for %d stored (zones found later replaced expanded ones); --order topological, ranked or dfs (order: in a sweep file) %s",
		worstPoint.Key(), worst.Query, queries.ExploredStates(worst.Explored, worst.Explorations), worst.Stored, queries.OrderAdvice)
}

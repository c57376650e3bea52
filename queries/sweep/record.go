package sweep

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"time"

	"github.com/tcheck/tcheck/queries"
)

// Params is a parameter list that reads and writes as a JSON object whose
// keys keep the list's order: {"c1": 1, "c2": 2, "d": 0}.
type Params []Param

// MarshalJSON writes the object in list order.
func (ps Params) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, p := range ps {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(p.Name)
		b.Write(k)
		b.WriteByte(':')
		b.WriteString(strconv.FormatInt(p.Value, 10))
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// UnmarshalJSON reads the object keeping the order of its keys.
func (ps *Params) UnmarshalJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	t, err := dec.Token()
	if err != nil {
		return err
	}
	if d, ok := t.(json.Delim); !ok || d != '{' {
		return fmt.Errorf("parameters: want an object")
	}
	*ps = nil
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return err
		}
		vt, err := dec.Token()
		if err != nil {
			return err
		}
		n, ok := vt.(json.Number)
		if !ok {
			return fmt.Errorf("parameter %v: want an integer", kt)
		}
		v, err := n.Int64()
		if err != nil {
			return fmt.Errorf("parameter %v: %v", kt, err)
		}
		*ps = append(*ps, Param{Name: kt.(string), Value: v})
	}
	_, err = dec.Token()
	return err
}

// Header is the first line of a JSON Lines result file and the "sweep"
// part of a JSON one: what was swept, so that results can be resumed and
// merged only with results of the same sweep.
type Header struct {
	Tool    string    `json:"tool"`
	Version string    `json:"version"`
	Sweep   SpecJSON  `json:"sweep"`
	Shard   *ShardRef `json:"shard,omitempty"`
}

// ShardRef names the shard a file holds.
type ShardRef struct {
	Index int `json:"index"`
	Count int `json:"count"`
}

// SpecJSON describes a sweep in result files.
type SpecJSON struct {
	File        string       `json:"file,omitempty"`
	Model       string       `json:"model"`
	ModelName   string       `json:"model_name"`
	ModelSHA256 string       `json:"model_sha256"`
	Set         Params       `json:"set"`
	Queries     []QueryJSON  `json:"queries"`
	Grid        [][]AxisJSON `json:"grid"`
	Where       string       `json:"where,omitempty"`
	Expect      []RuleJSON   `json:"expect,omitempty"`
	Options     OptionsJSON  `json:"options"`
	Points      int          `json:"points"`
}

// QueryJSON is a query of the sweep.
type QueryJSON struct {
	Name    string   `json:"name"`
	Formula string   `json:"formula"`
	Kind    string   `json:"kind"`
	Terms   []string `json:"terms,omitempty"`
	Model   bool     `json:"from_model"`
}

// AxisJSON is one swept parameter.
type AxisJSON struct {
	Name   string  `json:"name"`
	Values []int64 `json:"values"`
}

// RuleJSON is an expectation rule.
type RuleJSON struct {
	When   string          `json:"when,omitempty"`
	Expect []RuleValueJSON `json:"expect"`
}

// RuleValueJSON is the expectation of one query in a rule.
type RuleValueJSON struct {
	Query string `json:"query"`
	Value string `json:"value"`
}

// JSON describes the spec for result files; points is the number of points
// of the whole sweep.
func (s *Spec) JSON(points int) SpecJSON {
	j := SpecJSON{
		File: s.File, Model: s.Model, ModelName: s.ModelFile.Name, ModelSHA256: s.ModelSHA256,
		Set: Params(s.Set), Where: s.Where.Src, Options: s.Options.JSON(), Points: points,
	}
	if j.Set == nil {
		j.Set = Params{}
	}
	for i := range s.Queries {
		q := &s.Queries[i]
		j.Queries = append(j.Queries, QueryJSON{Name: q.Name, Formula: q.Src(s.ModelFile), Kind: q.Kind.String(), Terms: q.Terms, Model: q.FromModel})
	}
	for _, b := range s.Grid {
		var bj []AxisJSON
		for _, a := range b {
			bj = append(bj, AxisJSON{Name: a.Name, Values: a.Values})
		}
		j.Grid = append(j.Grid, bj)
	}
	for _, r := range s.Expect {
		rj := RuleJSON{When: r.When.Src}
		for _, e := range r.Expects {
			rj.Expect = append(rj.Expect, RuleValueJSON{e.Query, e.Raw})
		}
		j.Expect = append(j.Expect, rj)
	}
	return j
}

// Names returns the parameter names of the grid.
func (j *SpecJSON) Names() []string {
	if len(j.Grid) == 0 {
		return nil
	}
	var out []string
	for _, a := range j.Grid[0] {
		out = append(out, a.Name)
	}
	return out
}

// HasExpectations reports whether the sweep has expectations.
func (j *SpecJSON) HasExpectations() bool {
	for _, r := range j.Expect {
		if len(r.Expect) > 0 {
			return true
		}
	}
	return false
}

// identity is the part of a spec that must agree between files that are
// resumed or merged: everything but where the files came from.
func (j SpecJSON) identity() string {
	j.File, j.Model = "", ""
	b, _ := json.Marshal(j)
	return string(b)
}

// SameSweep reports why two specs describe different sweeps ("" when they
// are the same).
func SameSweep(a, b SpecJSON) string {
	if a.identity() == b.identity() {
		return ""
	}
	switch {
	case a.ModelSHA256 != b.ModelSHA256:
		return "the models differ"
	case fmt.Sprint(a.Queries) != fmt.Sprint(b.Queries):
		return "the queries differ"
	case fmt.Sprint(a.Grid) != fmt.Sprint(b.Grid) || a.Where != b.Where || a.Points != b.Points:
		return "the grids differ"
	case fmt.Sprint(a.Set) != fmt.Sprint(b.Set):
		return "the fixed parameters differ"
	case a.Options != b.Options:
		return "the exploration options differ"
	}
	return "the expectations differ"
}

// PointJSON is one point in result files.
type PointJSON struct {
	Index   int              `json:"index"`
	Params  Params           `json:"params"`
	Status  string           `json:"status"`
	OK      bool             `json:"ok"`
	Queries []PointQueryJSON `json:"queries"`
	States  int64            `json:"states"`
	Error   string           `json:"error,omitempty"`
	// Volatile, last.
	Seconds    float64 `json:"time_seconds"`
	PeakMemory uint64  `json:"peak_memory_bytes"`
}

// PointQueryJSON is one query's answer at a point.
type PointQueryJSON struct {
	Query        string   `json:"query"`
	Verdict      string   `json:"verdict"`
	Values       []string `json:"values,omitempty"`
	Expected     string   `json:"expected,omitempty"`
	OK           bool     `json:"ok"`
	StopReason   string   `json:"stop_reason"`
	Stored       int64    `json:"stored"`
	Explored     int64    `json:"explored"`
	Explorations int      `json:"explorations"`
	Error        string   `json:"error,omitempty"`
}

// JSON converts a point result for result files.
func (r *PointResult) JSON() PointJSON {
	j := PointJSON{
		Index: r.Index, Params: Params(r.Params), Status: r.Status(), OK: r.OK, States: r.States, Error: r.Error,
		Seconds: r.Elapsed.Seconds(), PeakMemory: r.PeakMemory, Queries: []PointQueryJSON{},
	}
	for _, q := range r.Queries {
		j.Queries = append(j.Queries, PointQueryJSON{
			Query: q.Query, Verdict: q.Verdict.String(), Values: q.Values, Expected: q.Expected, OK: q.OK,
			StopReason: q.Reason, Stored: q.Stored, Explored: q.Explored, Explorations: q.Explorations, Error: q.Error,
		})
	}
	return j
}

// Result converts back.
func (j PointJSON) Result() (*PointResult, error) {
	r := &PointResult{
		Point: Point{Index: j.Index, Params: []Param(j.Params)}, OK: j.OK, States: j.States, Error: j.Error,
		// Seconds came from a whole number of nanoseconds: round back to it.
		Elapsed: time.Duration(math.Round(j.Seconds * 1e9)), PeakMemory: j.PeakMemory,
	}
	for _, q := range j.Queries {
		v, err := verdictFromString(q.Verdict)
		if err != nil {
			return nil, err
		}
		r.Queries = append(r.Queries, QueryResult{
			Query: q.Query, Verdict: v, Values: q.Values, Expected: q.Expected, OK: q.OK,
			Reason: q.StopReason, Stored: q.Stored, Explored: q.Explored, Explorations: q.Explorations, Error: q.Error,
		})
	}
	return r, nil
}

// verdictFromString reads a verdict word (the inverse of Verdict.String).
func verdictFromString(s string) (queries.Verdict, error) {
	for v := queries.Unknown; v <= queries.Error; v++ {
		if v.String() == s {
			return v, nil
		}
	}
	return 0, fmt.Errorf("unknown verdict %q", s)
}

// Results is the content of a result file.
type Results struct {
	Header Header
	Points []*PointResult
	// Truncated is set when the file ended in an incomplete line (the
	// process writing it was killed); ValidLen is the length of the part
	// before it.
	Truncated bool
	ValidLen  int64
}

// ReadResults reads a result file written with --format jsonl (a header
// line, then one line per point, in any order) or --format json.
func ReadResults(r io.Reader) (*Results, error) {
	all, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	if t := bytes.TrimSpace(all); len(t) == 0 {
		return nil, fmt.Errorf("empty result file")
	} else if t[0] != '{' {
		return nil, fmt.Errorf("not a JSON result file (write one with --format jsonl or json)")
	}
	// A JSON document has the points inside it; JSON Lines has a header
	// line without them.
	var doc docJSON
	if err := json.Unmarshal(all, &doc); err == nil && doc.Points != nil {
		res := &Results{Header: Header{Tool: doc.Tool, Version: doc.Version, Sweep: doc.Sweep, Shard: doc.Shard}, ValidLen: int64(len(all))}
		for _, pj := range doc.Points {
			if err := res.add(pj); err != nil {
				return nil, err
			}
		}
		return res, nil
	}
	res := &Results{}
	off := 0
	line := 0
	for off < len(all) {
		end := bytes.IndexByte(all[off:], '\n')
		complete := end >= 0
		if !complete {
			end = len(all) - off
		}
		text := bytes.TrimSpace(all[off : off+end])
		line++
		next := off + end
		if complete {
			next++
		}
		if len(text) == 0 {
			off = next
			res.ValidLen = int64(off)
			continue
		}
		if line == 1 {
			if err := strictUnmarshal(text, &res.Header); err != nil || res.Header.Sweep.ModelSHA256 == "" {
				return nil, fmt.Errorf("line 1: not a sweep result header")
			}
		} else {
			var pj PointJSON
			if err := strictUnmarshal(text, &pj); err != nil {
				if !complete {
					res.Truncated = true
					break
				}
				return nil, fmt.Errorf("line %d: %v", line, err)
			}
			if err := res.add(pj); err != nil {
				return nil, fmt.Errorf("line %d: %v", line, err)
			}
		}
		off = next
		res.ValidLen = int64(off)
	}
	if res.Header.Sweep.ModelSHA256 == "" {
		return nil, fmt.Errorf("no sweep result header")
	}
	return res, nil
}

func strictUnmarshal(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return fmt.Errorf("more than one JSON value on the line")
	}
	return nil
}

func (res *Results) add(pj PointJSON) error {
	r, err := pj.Result()
	if err != nil {
		return err
	}
	res.Points = append(res.Points, r)
	return nil
}

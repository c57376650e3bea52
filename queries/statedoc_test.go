package queries

import (
	"testing"
)

// TestReadStateRejectsWhatIsNotAStateOfTheModel: every problem of a state
// document is an error at the line and column of the offending value.
func TestReadStateRejectsWhatIsNotAStateOfTheModel(t *testing.T) {
	net := fischer2(t)
	const clocks = `"clocks": {"P(1).x": 1, "P(2).x": 0}`
	cases := []struct {
		name, doc, want string
	}{
		{"unknown process", `{"locations": {"P(1)": "req", "P(3)": "A"}}`, `s.json:1:31: no process "P(3)" (the model has P(1), P(2))`},
		{"unknown location", "{\"locations\": {\"P(1)\": \"req\",\n  \"P(2)\": \"sleep\"}}", `s.json:2:11: P(2) has no location "sleep" (it has A, req, wait, cs)`},
		{"unknown location in trace form", `{"locations": ["P(1).req", "Q.A"]}`, `s.json:1:28: "Q.A" names no process of the model (it has P(1), P(2))`},
		{"missing process", `{"locations": {"P(1)": "req"}, "variables": {"id": 0}, ` + clocks + `}`, `s.json:1:15: no value for locations: P(2)`},
		{"unknown variable", "{\"locations\": [\"P(1).req\", \"P(2).A\"],\n \"variables\": {\"ids\": 1}, " + clocks + "}", `s.json:2:16: no variable ids in the model (did you mean id?)`},
		{"out of range", "{\"locations\": [\"P(1).req\", \"P(2).A\"],\n \"variables\": {\"id\": 3}, " + clocks + "}", `s.json:2:22: id = 3 is out of its range [0, 2]`},
		{"not an integer", `{"locations": ["P(1).req", "P(2).A"], "variables": {"id": 1.5}, ` + clocks + `}`, `s.json:1:59: id: 1.5 is not an integer`},
		{"array for a scalar", `{"locations": ["P(1).req", "P(2).A"], "variables": {"id": [1, 2]}, ` + clocks + `}`, `s.json:1:59: id is not an array`},
		{"missing variable", `{"locations": ["P(1).req", "P(2).A"], ` + clocks + `}`, `s.json:1:1: no value for variables: id`},
		{"unknown clock", `{"locations": ["P(1).req", "P(2).A"], "variables": {"id": 0}, "clocks": {"P(1).y": 1}}`, `s.json:1:74: no clock P(1).y in the model (did you mean P(1).x?)`},
		{"unknown clock field", `{"locations": ["P(1).req", "P(2).A"], "variables": {"id": 0}, "clocks": {"P(1)": {"y": 1}}}`, `s.json:1:83: P(1) has no y (it has x)`},
		{"negative clock", "{\"locations\": [\"P(1).req\", \"P(2).A\"], \"variables\": {\"id\": 0},\n \"clocks\": {\"P(1).x\": 1, \"P(2).x\": -0.25}}", `s.json:2:36: clock P(2).x = -1/4 is negative`},
		{"clock not a number", `{"locations": ["P(1).req", "P(2).A"], "variables": {"id": 0}, "clocks": {"P(1).x": "soon", "P(2).x": 0}}`, `s.json:1:84: clock P(1).x: "soon" is not a number (a decimal such as 2.5 or a fraction such as 5/2)`},
		{"invariant violated", "{\"locations\": [\"P(1).req\", \"P(2).A\"], \"variables\": {\"id\": 0},\n \"clocks\": {\"P(1).x\": 10.001, \"P(2).x\": 0}}", `s.json:2:23: the clock values violate the invariant of P(1).req (x <= k)`},
		{"missing clock", `{"locations": ["P(1).req", "P(2).A"], "variables": {"id": 0}, "clocks": {"P(1).x": 1}}`, `s.json:1:73: no value for clocks: P(2).x`},
		{"unknown field", `{"location": {}}`, `s.json:1:2: unknown field "location" (a state has locations, variables and clocks)`},
		{"a field twice", `{"locations": {}, "locations": {}}`, `s.json:1:19: field "locations" given twice`},
		{"not an object", `[1]`, `s.json:1:1: a state is an object with locations, variables and clocks`},
		{"broken JSON", "{\"locations\": {\n  \"P(1)\" \"req\"}}", `s.json:2:10: expected ':'`},
		{"a location twice", `{"locations": ["P(1).req", "P(1).A"]}`, `s.json:1:28: a second location for P(1)`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadState(net, "s.json", []byte(c.doc))
			if err == nil {
				t.Fatalf("accepted")
			}
			if err.Error() != c.want {
				t.Errorf("got  %s\nwant %s", err, c.want)
			}
		})
	}
}

// TestReadStateReadsNestedValues: arrays, process-local variables and
// fractions are read into the right slots.
func TestReadStateReadsNestedValues(t *testing.T) {
	_, net := loadModel(t, "testdata/statedoc/arrays.yaml", nil)
	s, err := ReadState(net, "s.json", []byte(`{
	  "locations": {"P": "a"},
	  "variables": {"m": [[1, 2], [3, 4]], "b": true, "P": {"k": -2}},
	  "clocks": {"x": "1/3", "P": {"y": 2.75}}}`))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int32{}
	for i, v := range net.Vars {
		got[v.Name] = s.Vars[i]
	}
	want := map[string]int32{"m[0][0]": 1, "m[0][1]": 2, "m[1][0]": 3, "m[1][1]": 4, "b": 1, "P.k": -2}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %d, want %d", k, got[k], v)
		}
	}
	if len(got) != len(want) {
		t.Errorf("variables %v, want %v", got, want)
	}
	for x, want := range map[string]string{"x": "1/3", "P.y": "11/4"} {
		found := false
		for i, c := range net.Clocks {
			if c.Name == x {
				found = true
				if s.Clocks[i].RatString() != want {
					t.Errorf("clock %s = %s, want %s", x, s.Clocks[i].RatString(), want)
				}
			}
		}
		if !found {
			t.Errorf("no clock %s in the model", x)
		}
	}
	for _, c := range []struct{ doc, want string }{
		{`{"locations": {"P": "a"}, "variables": {"m": [[1, 2]], "b": 0, "P": {"k": 0}}, "clocks": {"x": 0, "P.y": 0}}`, `s.json:1:46: m has 2 elements, not 1`},
		{`{"locations": {"P": "a"}, "variables": {"m": 1, "b": 0, "P": {"k": 0}}, "clocks": {"x": 0, "P.y": 0}}`, `s.json:1:46: m is an array of 2 elements`},
		{`{"locations": {"P": "a"}, "variables": {"m": [[1, 2], [3, 4]], "m[0][1]": 0, "b": 0, "P": {"k": 0}}, "clocks": {"x": 0, "P.y": 0}}`, `s.json:1:75: a second value for m[0][1]`},
	} {
		_, err := ReadState(net, "s.json", []byte(c.doc))
		if err == nil || err.Error() != c.want {
			t.Errorf("got  %v\nwant %s", err, c.want)
		}
	}
}

// TestReadTraceStateSelectsTheStep: FILE#N reads step N of the only trace
// of a document, FILE#QUERY:N that of a named query's trace; a step or a
// trace that does not exist is a named error.
func TestReadTraceStateSelectsTheStep(t *testing.T) {
	net := fischer2(t)
	step := func(locs, id string) string {
		return `{"delay": "0", "edges": [], "locations": [` + locs + `], "clocks": {"P(1).x": "0", "P(2).x": "1/2"}, "variables": {"id": ` + id + `}}`
	}
	bare := `{"kind": "witness", "steps": [` + step(`"P(1).A", "P(2).A"`, "0") + `, ` + step(`"P(1).req", "P(2).A"`, "0") + `]}`
	doc := `{"results": [{"query": "a", "trace": ` + bare + `}, {"query": "", "formula": "E<> P(1).cs", "trace": {"steps": [` + step(`"P(1).wait", "P(2).A"`, "1") + `]}}]}`
	ok := []struct {
		src, sel, loc string
	}{
		{bare, "1", "req"},
		{bare, "0", "A"},
		{doc, "a:1", "req"},
		{doc, "E<> P(1).cs:0", "wait"},
	}
	for _, c := range ok {
		s, err := ReadTraceState(net, "t.json", []byte(c.src), c.sel)
		if err != nil {
			t.Errorf("#%s: %v", c.sel, err)
			continue
		}
		if got := net.Procs[0].Locations[s.Locs[0]].Name; got != c.loc {
			t.Errorf("#%s: P(1) in %s, want %s", c.sel, got, c.loc)
		}
		if s.Clocks[2].RatString() != "1/2" {
			t.Errorf("#%s: P(2).x = %s, want 1/2", c.sel, s.Clocks[2].RatString())
		}
	}
	bad := []struct {
		src, sel, want string
	}{
		{bare, "2", `t.json#2: the trace has no step 2 (its steps are 0 to 1)`},
		{bare, "x", `t.json#x: want a step number (#17) or QUERY:STEP (#mutex:17)`},
		{doc, "1", `t.json#1: the document holds 2 traces (a, E<> P(1).cs): name one, as in t.json#a:1`},
		{doc, "b:1", `t.json#b:1: no trace of b; the document has traces of: a, E<> P(1).cs`},
		{`{"steps": [` + step(`"P(1).cs", "P(2).B"`, "0") + `]}`, "0", `t.json:1:65: P(2) has no location "B" (it has A, req, wait, cs)`},
		{`{"results": []}`, "0", `t.json holds no trace (verify writes them with --trace --json)`},
	}
	for _, c := range bad {
		_, err := ReadTraceState(net, "t.json", []byte(c.src), c.sel)
		if err == nil || err.Error() != c.want {
			t.Errorf("#%s: got  %v\nwant %s", c.sel, err, c.want)
		}
	}
}

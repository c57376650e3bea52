package queries

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tcheck/tcheck/model"
)

// A state document (docs/state.schema.json) is a JSON object
//
//	{"locations": {"P": "idle", "Q(1)": "wait"},
//	 "variables": {"n": 2, "flag": true, "a": [1, 2, 3], "Q(1)": {"k": 0}},
//	 "clocks": {"x": 2.5, "Q(1).y": "1/3"}}
//
// with every process's location, every variable and every clock. Arrays
// are JSON arrays (of the declared size), process-local variables and
// struct fields nest as objects; a slot may also be named in full
// ("a[2]", "Q(1).k") as in traces, whose steps are state documents too
// ("locations" may then be a list of "Process.location"). Clock values are
// numbers or strings holding a decimal or a fraction, exactly. ReadState
// reads one and checks it against the model; every problem is an error
// "file:line:col: message" at the offending value.

// ReadState reads the state document src (named name in messages) as a
// state of net and checks it (CheckState).
func ReadState(net *model.Network, name string, src []byte) (*State, error) {
	root, err := parseJSON(name, src)
	if err != nil {
		return nil, err
	}
	return stateOf(net, name, src, root, false)
}

// ReadTraceState reads step sel of a trace in the JSON document src (a
// trace, or verify --trace --json or simulate --json output) as a state of
// net. sel is a step number (the document must hold one trace) or
// QUERY:N for the trace of query QUERY.
func ReadTraceState(net *model.Network, name string, src []byte, sel string) (*State, error) {
	root, err := parseJSON(name, src)
	if err != nil {
		return nil, err
	}
	type trace struct {
		name string
		v    *jval
	}
	var traces []trace
	if root.kind == 'o' {
		if root.get("steps") != nil {
			traces = append(traces, trace{"trace", root})
		}
		if rs := root.get("results"); rs != nil && rs.kind == 'a' {
			for _, r := range rs.elems {
				if t := r.get("trace"); t != nil && t.kind == 'o' {
					n := ""
					if q := r.get("query"); q != nil && q.kind == 's' {
						n = q.str
					}
					if f := r.get("formula"); n == "" && f != nil && f.kind == 's' {
						n = f.str
					}
					traces = append(traces, trace{n, t})
				}
			}
		}
		for _, k := range []string{"until", "error"} {
			if u := root.get(k); u != nil && u.kind == 'o' {
				if t := u.get("trace"); t != nil && t.kind == 'o' {
					traces = append(traces, trace{k, t})
				}
			}
		}
	}
	var names []string
	for _, t := range traces {
		names = append(names, t.name)
	}
	query, num, named := "", sel, false
	if i := strings.LastIndexByte(sel, ':'); i >= 0 {
		query, num, named = sel[:i], sel[i+1:], true
	}
	n, err := strconv.Atoi(num)
	if err != nil || n < 0 {
		return nil, fmt.Errorf("%s#%s: want a step number (#17) or QUERY:STEP (#mutex:17)", name, sel)
	}
	var picked *jval
	switch {
	case len(traces) == 0:
		return nil, fmt.Errorf("%s holds no trace (verify writes them with --trace --json)", name)
	case named:
		for _, t := range traces {
			if t.name == query {
				picked = t.v
				break
			}
		}
		if picked == nil {
			return nil, fmt.Errorf("%s#%s: no trace of %s; the document has traces of: %s", name, sel, query, strings.Join(names, ", "))
		}
	case len(traces) > 1:
		return nil, fmt.Errorf("%s#%s: the document holds %d traces (%s): name one, as in %s#%s:%d", name, sel, len(traces), strings.Join(names, ", "), name, names[0], n)
	default:
		picked = traces[0].v
	}
	steps := picked.get("steps")
	if steps == nil || steps.kind != 'a' {
		return nil, errAt(name, src, picked.off, "the trace has no list of steps")
	}
	if n >= len(steps.elems) {
		return nil, fmt.Errorf("%s#%s: the trace has no step %d (its steps are 0 to %d)", name, sel, n, len(steps.elems)-1)
	}
	return stateOf(net, name, src, steps.elems[n], true)
}

// stateOf reads the state object v; inTrace allows a trace step's other
// fields.
func stateOf(net *model.Network, name string, src []byte, v *jval, inTrace bool) (*State, error) {
	at := func(off int, format string, args ...any) error {
		return errAt(name, src, off, fmt.Sprintf(format, args...))
	}
	if v.kind != 'o' {
		return nil, at(v.off, "a state is an object with locations, variables and clocks")
	}
	s := &State{Locs: make([]int32, len(net.Procs)), Vars: make([]int32, len(net.Vars)), Clocks: ratZeros(len(net.Clocks))}
	locPos := make([]int, len(net.Procs))
	varPos := make([]int, len(net.Vars))
	clockPos := make([]int, len(net.Clocks))
	for i, k := range v.keys {
		val := v.vals[i]
		switch k {
		case "$schema", "comment":
		case "delay", "edges", "move":
			if !inTrace {
				return nil, at(v.keyOffs[i], "unknown field %q (a state has locations, variables and clocks)", k)
			}
		case "locations":
			if err := readLocations(net, val, s.Locs, locPos, at); err != nil {
				return nil, err
			}
		case "variables":
			names := map[string]int{}
			for i, x := range net.Vars {
				names[x.Name] = i
			}
			shape := shapeOf(len(net.Vars), func(i int) string { return net.Vars[i].Name })
			err := readLeaves(val, shape, names, "variable", varPos, at, func(i int, leaf *jval) error {
				x, err := intValue(leaf)
				if err != nil {
					return at(leaf.off, "%s: %v", net.Vars[i].Name, err)
				}
				s.Vars[i] = x
				return nil
			})
			if err != nil {
				return nil, err
			}
		case "clocks":
			names := map[string]int{}
			for x := 1; x < len(net.Clocks); x++ {
				names[net.Clocks[x].Name] = x
			}
			shape := shapeOf(len(net.Clocks)-1, func(i int) string { return net.Clocks[i+1].Name })
			err := readLeaves(val, shape, names, "clock", clockPos, at, func(x int, leaf *jval) error {
				r, err := ratValue(leaf)
				if err != nil {
					return at(leaf.off, "clock %s: %v", net.Clocks[x].Name, err)
				}
				s.Clocks[x] = r
				return nil
			})
			if err != nil {
				return nil, err
			}
		default:
			return nil, at(v.keyOffs[i], "unknown field %q (a state has locations, variables and clocks)", k)
		}
	}
	missing := func(what string, pos []int, n int, from int, nameOf func(int) string) error {
		var ms []string
		for i := from; i < n; i++ {
			if pos[i] == 0 {
				ms = append(ms, nameOf(i))
			}
		}
		if len(ms) == 0 {
			return nil
		}
		off := v.off
		if f := v.get(what); f != nil {
			off = f.off
		}
		if len(ms) > 8 {
			ms = append(ms[:8], fmt.Sprintf("and %d more", len(ms)-8))
		}
		return at(off, "no value for %s: %s", what, strings.Join(ms, ", "))
	}
	if err := missing("locations", locPos, len(net.Procs), 0, func(p int) string { return net.Procs[p].Name }); err != nil {
		return nil, err
	}
	if err := missing("variables", varPos, len(net.Vars), 0, func(i int) string { return net.Vars[i].Name }); err != nil {
		return nil, err
	}
	if err := missing("clocks", clockPos, len(net.Clocks), 1, func(x int) string { return net.Clocks[x].Name }); err != nil {
		return nil, err
	}
	if err := CheckState(net, s); err != nil {
		off := v.off
		if se, ok := err.(*StateError); ok {
			switch se.Kind {
			case "location":
				off = locPos[se.Index]
			case "variable":
				off = varPos[se.Index]
			case "clock":
				off = clockPos[se.Index]
			}
		}
		return nil, at(off, "%v", err)
	}
	return s, nil
}

// readLocations reads {"P": "loc"} or ["P.loc", ...] into locs.
func readLocations(net *model.Network, v *jval, locs []int32, pos []int, at func(int, string, ...any) error) error {
	procs := map[string]int{}
	var pnames []string
	for p, proc := range net.Procs {
		procs[proc.Name] = p
		pnames = append(pnames, proc.Name)
	}
	set := func(p int, lv *jval, lname string) error {
		if pos[p] != 0 {
			return at(lv.off, "a second location for %s", net.Procs[p].Name)
		}
		proc := net.Procs[p]
		var lnames []string
		for l := range proc.Locations {
			if proc.Locations[l].Name == lname {
				locs[p], pos[p] = int32(l), lv.off
				return nil
			}
			lnames = append(lnames, proc.Locations[l].Name)
		}
		return at(lv.off, "%s has no location %q (it has %s)", proc.Name, lname, strings.Join(lnames, ", "))
	}
	switch v.kind {
	case 'o':
		for i, k := range v.keys {
			p, ok := procs[k]
			if !ok {
				return at(v.keyOffs[i], "no process %q (the model has %s)", k, strings.Join(pnames, ", "))
			}
			lv := v.vals[i]
			if lv.kind != 's' {
				return at(lv.off, "the location of %s is a string (a location name)", k)
			}
			if err := set(p, lv, lv.str); err != nil {
				return err
			}
		}
	case 'a':
		for _, lv := range v.elems {
			if lv.kind != 's' {
				return at(lv.off, "a location is a string Process.location")
			}
			found := false
			for p, proc := range net.Procs {
				if l, ok := strings.CutPrefix(lv.str, proc.Name+"."); ok {
					if err := set(p, lv, l); err != nil {
						return err
					}
					found = true
					break
				}
			}
			if !found {
				return at(lv.off, "%q names no process of the model (it has %s)", lv.str, strings.Join(pnames, ", "))
			}
		}
	default:
		return at(v.off, "locations is an object {\"Process\": \"location\"}")
	}
	return nil
}

// shape describes the slot names of variables (or clocks) as a tree:
// for each prefix of a slot name ("a", "a[1]", "P", "P.k"), the number of
// array elements under it or its field names.
type shape struct {
	elems  map[string]int
	fields map[string][]string
}

func shapeOf(n int, name func(int) string) shape {
	sh := shape{elems: map[string]int{}, fields: map[string][]string{}}
	for i := 0; i < n; i++ {
		s := name(i)
		depth := 0
		for k := 0; k < len(s); k++ {
			switch s[k] {
			case '(':
				depth++
			case ')':
				depth--
			case '[':
				if depth > 0 {
					continue
				}
				end := strings.IndexByte(s[k:], ']')
				if end < 0 {
					continue
				}
				if idx, err := strconv.Atoi(s[k+1 : k+end]); err == nil {
					sh.elems[s[:k]] = max(sh.elems[s[:k]], idx+1)
				}
			case '.':
				if depth > 0 {
					continue
				}
				rest := s[k+1:]
				if e := strings.IndexAny(rest, ".["); e >= 0 {
					rest = rest[:e]
				}
				if !slices.Contains(sh.fields[s[:k]], rest) {
					sh.fields[s[:k]] = append(sh.fields[s[:k]], rest)
				}
			}
		}
	}
	return sh
}

// readLeaves walks the object v of variable (or clock) values: nested
// arrays and objects build slot names as in the model ("a[1]", "P.k");
// each leaf is passed to set with its slot. pos records the leaves'
// offsets (a slot given twice is an error).
func readLeaves(v *jval, sh shape, names map[string]int, what string, pos []int, at func(int, string, ...any) error, set func(int, *jval) error) error {
	if v.kind != 'o' {
		return at(v.off, "%ss is an object {\"name\": value}", what)
	}
	var walk func(name string, val *jval, keyOff int) error
	walk = func(name string, val *jval, keyOff int) error {
		n, isArray := sh.elems[name]
		fs, isStruct := sh.fields[name]
		switch val.kind {
		case 'a':
			if !isArray {
				if _, ok := names[name]; ok {
					return at(val.off, "%s is not an array", name)
				}
				return at(keyOff, "no %s %s in the model", what, name)
			}
			if len(val.elems) != n {
				return at(val.off, "%s has %d elements, not %d", name, n, len(val.elems))
			}
			for i, e := range val.elems {
				if err := walk(fmt.Sprintf("%s[%d]", name, i), e, e.off); err != nil {
					return err
				}
			}
			return nil
		case 'o':
			if !isStruct {
				if _, ok := names[name]; ok || isArray {
					return at(val.off, "%s is not a structure or process (give its value)", name)
				}
				return at(keyOff, "no %s %s in the model", what, name)
			}
			for i, k := range val.keys {
				if !slices.Contains(fs, k) {
					return at(val.keyOffs[i], "%s has no %s (it has %s)", name, k, strings.Join(fs, ", "))
				}
				if err := walk(name+"."+k, val.vals[i], val.keyOffs[i]); err != nil {
					return err
				}
			}
			return nil
		}
		i, ok := names[name]
		if !ok {
			switch {
			case isArray:
				return at(val.off, "%s is an array of %d elements", name, n)
			case isStruct:
				return at(val.off, "%s has fields %s: give them as an object", name, strings.Join(fs, ", "))
			}
			msg := fmt.Sprintf("no %s %s in the model", what, name)
			if best := closestName(name, names); best != "" {
				msg += fmt.Sprintf(" (did you mean %s?)", best)
			}
			return at(keyOff, "%s", msg)
		}
		if pos[i] != 0 {
			return at(val.off, "a second value for %s", name)
		}
		pos[i] = val.off
		return set(i, val)
	}
	for i, k := range v.keys {
		if err := walk(k, v.vals[i], v.keyOffs[i]); err != nil {
			return err
		}
	}
	return nil
}

// closestName returns the name nearest to s by edit distance when it is
// a likely typo.
func closestName(s string, names map[string]int) string {
	var all []string
	for n := range names {
		all = append(all, n)
	}
	sort.Strings(all)
	best, bestD := "", len(s)/3+1
	for _, c := range all {
		if d := editDist(s, c); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

func editDist(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := 1
			if a[i-1] == b[j-1] {
				c = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+c)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// intValue reads a variable's value: an integer or a boolean.
func intValue(v *jval) (int32, error) {
	switch v.kind {
	case 'b':
		if v.b {
			return 1, nil
		}
		return 0, nil
	case 'n':
		x, err := strconv.ParseInt(v.str, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("%s is not an integer", v.str)
		}
		if x < math.MinInt32 || x > math.MaxInt32 {
			return 0, fmt.Errorf("%s is out of the 32-bit range", v.str)
		}
		return int32(x), nil
	}
	return 0, fmt.Errorf("the value is an integer or a boolean")
}

// ratValue reads a clock value: a number, or a string holding a decimal
// or a fraction.
func ratValue(v *jval) (*big.Rat, error) {
	if v.kind != 'n' && v.kind != 's' {
		return nil, fmt.Errorf("the value is a number or a string such as \"2.5\" or \"5/2\"")
	}
	// a JSON number may have an exponent, a string holds a decimal or a
	// fraction
	return readRat(v.str, v.kind == 'n')
}

// jval is a JSON value with the offset where it starts in the source.
type jval struct {
	kind    byte // 'o' object, 'a' array, 's' string, 'n' number, 'b' bool, 'z' null
	off     int
	str     string // string, or a number's text
	b       bool
	keys    []string
	keyOffs []int
	vals    []*jval
	elems   []*jval
}

func (v *jval) get(key string) *jval {
	if v == nil || v.kind != 'o' {
		return nil
	}
	for i, k := range v.keys {
		if k == key {
			return v.vals[i]
		}
	}
	return nil
}

// errAt is an error "name:line:col: msg" at byte offset off of src.
func errAt(name string, src []byte, off int, msg string) error {
	line, col := 1, 1
	for i := 0; i < off && i < len(src); {
		r, size := utf8.DecodeRune(src[i:])
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
		i += size
	}
	return &model.Error{Pos: model.Pos{File: name, Line: line, Col: col}, Msg: msg}
}

// parseJSON parses src into a tree of jvals with positions.
func parseJSON(name string, src []byte) (*jval, error) {
	p := &jparser{name: name, src: src}
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i < len(src) {
		return nil, errAt(name, src, p.i, "unexpected text after the JSON value")
	}
	return v, nil
}

type jparser struct {
	name string
	src  []byte
	i    int
}

func (p *jparser) fail(msg string) error { return errAt(p.name, p.src, p.i, msg) }

func (p *jparser) space() {
	for p.i < len(p.src) && strings.IndexByte(" \t\r\n", p.src[p.i]) >= 0 {
		p.i++
	}
}

const maxJSONDepth = 100

func (p *jparser) value(depth int) (*jval, error) {
	if depth > maxJSONDepth {
		return nil, p.fail("the JSON nests too deeply")
	}
	p.space()
	if p.i >= len(p.src) {
		return nil, p.fail("unexpected end of the JSON document")
	}
	v := &jval{off: p.i}
	switch c := p.src[p.i]; {
	case c == '{':
		v.kind = 'o'
		p.i++
		p.space()
		if p.i < len(p.src) && p.src[p.i] == '}' {
			p.i++
			return v, nil
		}
		for {
			p.space()
			koff := p.i
			if p.i >= len(p.src) || p.src[p.i] != '"' {
				return nil, p.fail("expected a field name in quotes")
			}
			k, err := p.str()
			if err != nil {
				return nil, err
			}
			if slices.Contains(v.keys, k) {
				return nil, errAt(p.name, p.src, koff, fmt.Sprintf("field %q given twice", k))
			}
			p.space()
			if p.i >= len(p.src) || p.src[p.i] != ':' {
				return nil, p.fail("expected ':'")
			}
			p.i++
			val, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			v.keys, v.keyOffs, v.vals = append(v.keys, k), append(v.keyOffs, koff), append(v.vals, val)
			p.space()
			if p.i < len(p.src) && p.src[p.i] == ',' {
				p.i++
				continue
			}
			if p.i < len(p.src) && p.src[p.i] == '}' {
				p.i++
				return v, nil
			}
			return nil, p.fail("expected ',' or '}'")
		}
	case c == '[':
		v.kind = 'a'
		p.i++
		p.space()
		if p.i < len(p.src) && p.src[p.i] == ']' {
			p.i++
			return v, nil
		}
		for {
			e, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			v.elems = append(v.elems, e)
			p.space()
			if p.i < len(p.src) && p.src[p.i] == ',' {
				p.i++
				continue
			}
			if p.i < len(p.src) && p.src[p.i] == ']' {
				p.i++
				return v, nil
			}
			return nil, p.fail("expected ',' or ']'")
		}
	case c == '"':
		v.kind = 's'
		s, err := p.str()
		if err != nil {
			return nil, err
		}
		v.str = s
		return v, nil
	case c == '-' || c >= '0' && c <= '9':
		v.kind = 'n'
		j := p.i
		for j < len(p.src) && strings.IndexByte("+-0123456789.eE", p.src[j]) >= 0 {
			j++
		}
		text := string(p.src[p.i:j])
		if !json.Valid([]byte(text)) {
			return nil, p.fail(fmt.Sprintf("%s is not a JSON number", text))
		}
		v.str = text
		p.i = j
		return v, nil
	default:
		for _, lit := range []string{"true", "false", "null"} {
			if strings.HasPrefix(string(p.src[p.i:min(len(p.src), p.i+5)]), lit) {
				p.i += len(lit)
				v.kind, v.b = 'b', lit == "true"
				if lit == "null" {
					v.kind = 'z'
				}
				return v, nil
			}
		}
		return nil, p.fail("expected a JSON value")
	}
}

// str reads a JSON string at p.i.
func (p *jparser) str() (string, error) {
	start := p.i
	j := p.i + 1
	for j < len(p.src) && p.src[j] != '"' {
		if p.src[j] == '\\' {
			j++
		}
		j++
	}
	if j >= len(p.src) {
		return "", p.fail("unterminated string")
	}
	var s string
	if err := json.Unmarshal(p.src[start:j+1], &s); err != nil {
		return "", p.fail("invalid string")
	}
	p.i = j + 1
	return s, nil
}

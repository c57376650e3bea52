package sweep

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Param is a parameter with its value at one point.
type Param struct {
	Name  string
	Value int64
}

// Axis is a swept parameter and its values, in the order given.
type Axis struct {
	Name   string
	Values []int64
}

// Block is the cartesian product of its axes: the first axis varies
// slowest, the last fastest, as in nested loops written in axis order.
type Block []Axis

// Grid is a union of blocks, enumerated block after block. Every block has
// the same parameters in the same order.
type Grid []Block

// Point is one assignment of values to the grid's parameters. Index is its
// position in the sweep (after the where filter), which fixes the order of
// every output and the shard a point belongs to.
type Point struct {
	Index  int
	Params []Param
}

// Key identifies a point by its values: "c1=1,c2=2,d=0".
func (p Point) Key() string { return ParamsKey(p.Params) }

// ParamsKey formats parameters as "a=1,b=2".
func ParamsKey(ps []Param) string {
	var b strings.Builder
	for i, p := range ps {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(p.Name)
		b.WriteByte('=')
		b.WriteString(strconv.FormatInt(p.Value, 10))
	}
	return b.String()
}

// ParseValues reads the values of one axis: a comma-separated list of
// integers and ranges "a..b" (a to b inclusive, ascending or descending)
// or "a..b/s" (in steps of s > 0), e.g. "1,9", "0..5", "0..50/10".
func ParseValues(s string) ([]int64, error) {
	var out []int64
	if strings.TrimSpace(s) == "" {
		return nil, fmt.Errorf("no values")
	}
	for _, item := range strings.Split(s, ",") {
		item = strings.TrimSpace(item)
		lo, hi, isRange := strings.Cut(item, "..")
		if !isRange {
			v, err := parseInt(item)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
			continue
		}
		step := int64(1)
		if h, st, ok := strings.Cut(hi, "/"); ok {
			var err error
			if step, err = parseInt(st); err != nil {
				return nil, err
			}
			if step <= 0 {
				return nil, fmt.Errorf("%q: the step must be positive", item)
			}
			hi = h
		}
		a, err := parseInt(lo)
		if err != nil {
			return nil, err
		}
		b, err := parseInt(hi)
		if err != nil {
			return nil, err
		}
		// the number of values, in unsigned arithmetic: b-a overflows
		// int64 between ends of opposite signs, and a + k·step, with
		// v > b-step as the test, ran past b near the ends of int64
		// ("-9223372036854775808..-9223372036854775807/9223372036854775807"
		// gave -1 and 9223372036854775806 too)
		span := uint64(b) - uint64(a)
		if a > b {
			span = uint64(a) - uint64(b)
		}
		if span/uint64(step) >= maxAxis {
			return nil, fmt.Errorf("%q has more than %d values", item, maxAxis)
		}
		n := span/uint64(step) + 1
		for k := range n {
			d := k * uint64(step) // at most span: no overflow
			if a <= b {
				out = append(out, int64(uint64(a)+d))
			} else {
				out = append(out, int64(uint64(a)-d))
			}
		}
	}
	if len(out) > maxAxis {
		return nil, fmt.Errorf("more than %d values", maxAxis)
	}
	seen := map[int64]bool{}
	for _, v := range out {
		if seen[v] {
			return nil, fmt.Errorf("value %d given twice", v)
		}
		seen[v] = true
	}
	return out, nil
}

// maxAxis and maxPoints bound grids so that a typo (0..1000000000) fails
// fast instead of exhausting memory.
const (
	maxAxis   = 1 << 20
	maxPoints = 1 << 22
)

func parseInt(s string) (int64, error) {
	v, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not an integer", strings.TrimSpace(s))
	}
	return v, nil
}

// ParseAxis reads a command-line grid entry "name=values".
func ParseAxis(s string) (Axis, error) {
	name, vals, ok := strings.Cut(s, "=")
	name = strings.TrimSpace(name)
	if !ok || !isIdent(name) {
		return Axis{}, fmt.Errorf("--grid %q: want name=values, e.g. d=0..5 or c1=1,9", s)
	}
	vs, err := ParseValues(vals)
	if err != nil {
		return Axis{}, fmt.Errorf("--grid %s: %v", name, err)
	}
	return Axis{Name: name, Values: vs}, nil
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9' {
			continue
		}
		return false
	}
	return true
}

// Names returns the grid's parameter names, in order.
func (g Grid) Names() []string {
	if len(g) == 0 {
		return nil
	}
	var out []string
	for _, a := range g[0] {
		out = append(out, a.Name)
	}
	return out
}

// Validate checks that the grid is non-empty and that every block has the
// same parameters, each once.
func (g Grid) Validate() error {
	if len(g) == 0 || len(g[0]) == 0 {
		return fmt.Errorf("the grid is empty: give at least one parameter")
	}
	names := g.Names()
	for i, n := range names {
		if slices.Contains(names[:i], n) {
			return fmt.Errorf("grid parameter %s given twice", n)
		}
	}
	for k, b := range g {
		var bn []string
		for _, a := range b {
			bn = append(bn, a.Name)
			if len(a.Values) == 0 {
				return fmt.Errorf("grid parameter %s has no values", a.Name)
			}
		}
		if !slices.Equal(bn, names) {
			return fmt.Errorf("grid block %d has parameters %s, block 1 has %s (every block needs the same, in the same order)",
				k+1, strings.Join(bn, ", "), strings.Join(names, ", "))
		}
	}
	return nil
}

// Points enumerates the grid in order, keeps the points for which keep
// returns true (all when keep is nil) and numbers them. A point that occurs
// in two blocks is an error.
func (g Grid) Points(keep func([]Param) (bool, error)) ([]Point, error) {
	if err := g.Validate(); err != nil {
		return nil, err
	}
	total := 0
	for _, b := range g {
		n := 1
		for _, a := range b {
			n *= len(a.Values)
			if n > maxPoints {
				return nil, fmt.Errorf("the grid has more than %d points", maxPoints)
			}
		}
		total += n
		if total > maxPoints {
			return nil, fmt.Errorf("the grid has more than %d points", maxPoints)
		}
	}
	var out []Point
	seen := map[string]bool{}
	for _, b := range g {
		idx := make([]int, len(b))
		for {
			ps := make([]Param, len(b))
			for i, a := range b {
				ps[i] = Param{a.Name, a.Values[idx[i]]}
			}
			key := ParamsKey(ps)
			if seen[key] {
				return nil, fmt.Errorf("point %s occurs twice in the grid", key)
			}
			seen[key] = true
			ok := true
			if keep != nil {
				var err error
				if ok, err = keep(ps); err != nil {
					return nil, fmt.Errorf("point %s: %v", key, err)
				}
			}
			if ok {
				out = append(out, Point{Index: len(out), Params: ps})
			}
			// Odometer: the last axis fastest.
			i := len(b) - 1
			for ; i >= 0; i-- {
				idx[i]++
				if idx[i] < len(b[i].Values) {
					break
				}
				idx[i] = 0
			}
			if i < 0 {
				break
			}
		}
	}
	return out, nil
}

// Shard is a slice of a sweep: the points whose index is Index modulo
// Count. Round-robin keeps the shards balanced when the cost of a point
// grows with a parameter.
type Shard struct {
	Index, Count int
}

// Contains reports whether point index i belongs to the shard (every point
// when Count is 0).
func (s Shard) Contains(i int) bool { return s.Count <= 1 || i%s.Count == s.Index }

// IsZero reports whether s is "the whole sweep".
func (s Shard) IsZero() bool { return s.Count <= 1 }

func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// ParseShard reads "i/n" with 0 <= i < n.
func ParseShard(s string) (Shard, error) {
	a, b, ok := strings.Cut(s, "/")
	if !ok {
		return Shard{}, fmt.Errorf("--shard %q: want i/n, e.g. 0/4", s)
	}
	i, err1 := strconv.Atoi(strings.TrimSpace(a))
	n, err2 := strconv.Atoi(strings.TrimSpace(b))
	if err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return Shard{}, fmt.Errorf("--shard %q: want i/n with 0 <= i < n", s)
	}
	return Shard{Index: i, Count: n}, nil
}

// ShardFromEnv determines the shard of a job array from the environment
// (getenv is os.Getenv in the command): the index from JOB_COMPLETION_INDEX
// (Kubernetes Indexed Job) or SLURM_ARRAY_TASK_ID minus SLURM_ARRAY_TASK_MIN
// (Slurm job array), the count from count when positive, else
// TCHECK_SHARDS, else SLURM_ARRAY_TASK_COUNT.
func ShardFromEnv(getenv func(string) string, count int) (Shard, error) {
	idx, src := -1, ""
	if v := getenv("JOB_COMPLETION_INDEX"); v != "" {
		i, err := strconv.Atoi(v)
		if err != nil {
			return Shard{}, fmt.Errorf("JOB_COMPLETION_INDEX=%q is not an integer", v)
		}
		idx, src = i, "JOB_COMPLETION_INDEX"
	} else if v := getenv("SLURM_ARRAY_TASK_ID"); v != "" {
		i, err := strconv.Atoi(v)
		if err != nil {
			return Shard{}, fmt.Errorf("SLURM_ARRAY_TASK_ID=%q is not an integer", v)
		}
		if m := getenv("SLURM_ARRAY_TASK_MIN"); m != "" {
			mi, err := strconv.Atoi(m)
			if err != nil {
				return Shard{}, fmt.Errorf("SLURM_ARRAY_TASK_MIN=%q is not an integer", m)
			}
			i -= mi
		}
		idx, src = i, "SLURM_ARRAY_TASK_ID"
	}
	if idx < 0 {
		return Shard{}, fmt.Errorf("--shard auto: neither JOB_COMPLETION_INDEX nor SLURM_ARRAY_TASK_ID is set")
	}
	if count <= 0 {
		for _, name := range []string{"TCHECK_SHARDS", "SLURM_ARRAY_TASK_COUNT"} {
			if v := getenv(name); v != "" {
				n, err := strconv.Atoi(v)
				if err != nil || n < 1 {
					return Shard{}, fmt.Errorf("%s=%q is not a positive integer", name, v)
				}
				count = n
				break
			}
		}
	}
	if count <= 0 {
		return Shard{}, fmt.Errorf("--shard auto: the number of shards is unknown: give --shard auto/N or set TCHECK_SHARDS")
	}
	if idx >= count {
		return Shard{}, fmt.Errorf("shard index %d (from %s) is not below the number of shards %d", idx, src, count)
	}
	return Shard{Index: idx, Count: count}, nil
}

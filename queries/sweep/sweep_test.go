package sweep

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tcheck/tcheck/queries"
)

func modelSource(t *testing.T, path string) ModelSource {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return ModelSource{Ref: path, Name: path, Src: src}
}

// bundled returns the path of a bundled model file.
func bundled(t *testing.T, name string) string { return filepath.Join("../../agreement", name+".yaml") }

// testResolver resolves model references relative to the sweep file and
// the bundled names timeout and agreement to their files.
func testResolver(ref, dir string) (ModelSource, error) {
	paths := []string{filepath.Join(dir, ref), filepath.Join("../../agreement", ref+".yaml")}
	for _, p := range paths {
		if src, err := os.ReadFile(p); err == nil {
			return ModelSource{Ref: ref, Name: p, Src: src}, nil
		}
	}
	return ModelSource{}, fmt.Errorf("no model %s", ref)
}

func mustAxis(t *testing.T, s string) Axis {
	t.Helper()
	a, err := ParseAxis(s)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestParseValues(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []int64
		err  string
	}{
		{"1,9", []int64{1, 9}, ""},
		{"0..5", []int64{0, 1, 2, 3, 4, 5}, ""},
		{"5..3", []int64{5, 4, 3}, ""},
		{"0..50/10", []int64{0, 10, 20, 30, 40, 50}, ""},
		{"0..7/5", []int64{0, 5}, ""},
		{"1, 3..4, 9", []int64{1, 3, 4, 9}, ""},
		{"-2..-1", []int64{-2, -1}, ""},
		{"7", []int64{7}, ""},
		{"1,1", nil, "given twice"},
		{"0..3,2", nil, "given twice"},
		{"0..5/0", nil, "step must be positive"},
		{"a", nil, "not an integer"},
		{"", nil, "no values"},
		{"0..100000000", nil, "more than"},
		// the ends of int64 (found while writing FuzzSweepInputs, by
		// reading ParseValues: the count overflowed, and the steps ran
		// past the range's end)
		{"-9223372036854775808..-9223372036854775807/9223372036854775807", []int64{-9223372036854775808}, ""},
		{"9223372036854775807..9223372036854775806/9223372036854775807", []int64{9223372036854775807}, ""},
		{"-9223372036854775808..9223372036854775807/9223372036854775807", []int64{-9223372036854775808, -1, 9223372036854775806}, ""},
		{"-9223372036854775808..9223372036854775807", nil, "more than"},
		{"9223372036854775807..-9223372036854775808", nil, "more than"},
	} {
		got, err := ParseValues(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParseValues(%q) error = %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("ParseValues(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
}

// TestGridOrderIsNestedLoops checks that points are enumerated with the
// first axis slowest, blocks in order, filtered, and numbered after
// filtering.
func TestGridOrderIsNestedLoops(t *testing.T) {
	g := Grid{
		{{"c1", []int64{1}}, {"c2", []int64{1, 2}}, {"d", []int64{0, 1}}},
		{{"c1", []int64{9}}, {"c2", []int64{10}}, {"d", []int64{5}}},
	}
	f, err := ParseFilter("c1 <= c2 && !(c2 == 2 && d == 0)")
	if err != nil {
		t.Fatal(err)
	}
	ps, err := g.Points(func(p []Param) (bool, error) { return f.Keep(p) })
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for i, p := range ps {
		if p.Index != i {
			t.Errorf("point %s has index %d, want %d", p.Key(), p.Index, i)
		}
		keys = append(keys, p.Key())
	}
	want := []string{"c1=1,c2=1,d=0", "c1=1,c2=1,d=1", "c1=1,c2=2,d=1", "c1=9,c2=10,d=5"}
	if !slices.Equal(keys, want) {
		t.Errorf("points %v, want %v", keys, want)
	}
}

func TestGridErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		g    Grid
		want string
	}{
		{"empty", Grid{}, "empty"},
		{"axis twice", Grid{{{"d", []int64{1}}, {"d", []int64{2}}}}, "given twice"},
		{"blocks differ", Grid{{{"d", []int64{1}}}, {{"c", []int64{1}}}}, "same"},
		{"point twice", Grid{{{"d", []int64{1, 2}}}, {{"d", []int64{2}}}}, "occurs twice"},
	} {
		_, err := tc.g.Points(nil)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}

func TestFilterSemantics(t *testing.T) {
	env := []Param{{"a", 7}, {"b", 2}, {"z", 0}}
	for _, tc := range []struct {
		src  string
		want bool
		err  string
	}{
		{"a / b == 3", true, ""},
		{"a % b == 1", true, ""},
		{"-a / b == -3", true, ""}, // C truncation
		{"a > b && b > 0", true, ""},
		{"z != 0 && a / z > 0", false, ""}, // short circuit
		{"z == 0 || a / z > 0", true, ""},
		{"z != 0 imply a / z > 0", true, ""},
		{"a > 5 ? b == 2 : false", true, ""},
		{"(1 << b) == 4", true, ""},
		{"b ** b ** 3 == 64", true, ""}, // ** is left associative: (2**2)**3, not 2**8
		{"-b ** b == 4", true, ""},      // (-2)**2
		{"a ** 0 == 1 && z ** 0 == 1", true, ""},
		{"a ** -b > 0", false, "negative exponent"},
		{"a ** 64 > 0", false, "overflow"},
		{"a / z", false, "division by zero"},
		{"c > 1", false, "not a parameter"},
		{"a = 1", false, "not allowed"},
	} {
		f, err := ParseFilter(tc.src)
		if err != nil {
			t.Fatalf("%s: %v", tc.src, err)
		}
		got, err := f.Keep(env)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: error %v, want %q", tc.src, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%s = %v, %v; want %v", tc.src, got, err, tc.want)
		}
	}
}

// TestShardsPartitionThePoints checks that the shards of a sweep are
// disjoint and together hold every point.
func TestShardsPartitionThePoints(t *testing.T) {
	for n := 1; n <= 5; n++ {
		seen := make([]int, 13)
		for i := range n {
			sh := Shard{Index: i, Count: n}
			for p := range seen {
				if sh.Contains(p) {
					seen[p]++
				}
			}
		}
		for p, c := range seen {
			if c != 1 {
				t.Errorf("n=%d: point %d is in %d shards", n, p, c)
			}
		}
	}
}

func TestShardFromEnv(t *testing.T) {
	for _, tc := range []struct {
		name  string
		env   map[string]string
		count int
		want  Shard
		err   string
	}{
		{"k8s", map[string]string{"JOB_COMPLETION_INDEX": "2", "TCHECK_SHARDS": "4"}, 0, Shard{2, 4}, ""},
		{"k8s with count", map[string]string{"JOB_COMPLETION_INDEX": "0"}, 3, Shard{0, 3}, ""},
		{"slurm from 1", map[string]string{"SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_COUNT": "4"}, 0, Shard{3, 4}, ""},
		{"slurm from 0", map[string]string{"SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_COUNT": "2"}, 0, Shard{0, 2}, ""},
		{"no index", map[string]string{}, 4, Shard{}, "neither"},
		{"no count", map[string]string{"JOB_COMPLETION_INDEX": "1"}, 0, Shard{}, "unknown"},
		{"index too large", map[string]string{"JOB_COMPLETION_INDEX": "4"}, 4, Shard{}, "not below"},
	} {
		got, err := ShardFromEnv(func(k string) string { return tc.env[k] }, tc.count)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: error %v, want %q", tc.name, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%s: got %v, %v; want %v", tc.name, got, err, tc.want)
		}
	}
}

// TestFischerSweepMutexNeedsWAtLeastK sweeps Fischer's protocol: mutual
// exclusion holds exactly when w >= k (k = 10).
func TestFischerSweepMutexNeedsWAtLeastK(t *testing.T) {
	s, err := New(Args{
		Model:   modelSource(t, "../../testdata/fischer.yaml"),
		Queries: []string{"mutex", "cs=E<> P(1).cs"},
		Grid:    Grid{{mustAxis(t, "N=2..3"), mustAxis(t, "w=9..10")}},
	})
	if err != nil {
		t.Fatal(err)
	}
	ps, err := s.Points()
	if err != nil {
		t.Fatal(err)
	}
	res := s.Run(context.Background(), ps, RunOptions{Jobs: 2})
	if len(res) != 4 {
		t.Fatalf("%d results, want 4", len(res))
	}
	for _, r := range res {
		w := r.Params[1].Value
		want := queries.Satisfied
		if w < 10 {
			want = queries.Violated
		}
		if r.Queries[0].Verdict != want || r.Queries[1].Verdict != queries.Satisfied {
			t.Errorf("%s: %v, want mutex %v and cs satisfied", r.Key(), r.Queries, want)
		}
		// The model's own expectation (mutex satisfied) is not the
		// sweep's: a violated mutex is data, not a failure.
		if !r.OK || r.Status() != "ok" {
			t.Errorf("%s: status %s, want ok (no sweep expectations)", r.Key(), r.Status())
		}
	}
}

// TestTimeoutSweepDetectionDelayIsT checks the sweep file format end to
// end on the timeout model: the detection delay equals T on every point
// (table 2.1 of seed-models.md), and a wrong expectation is reported.
func TestTimeoutSweepDetectionDelayIsT(t *testing.T) {
	src := `
model: timeout
queries:
  - A2
  - detection: 'sup{Process.halted && !has_halted && !Observer.halted}: Process.x'
grid:
  c1: 1
  c2: [1, 2]
  d: 0..2
where: c1 <= c2
expect:
  - {A2: satisfied, detection: = T}
  - when: c2 == 2 && d == 2
    detection: "13"
`
	s, err := ParseFile("t.sweep.yaml", []byte(src), testResolver)
	if err != nil {
		t.Fatal(err)
	}
	ps, err := s.Points()
	if err != nil {
		t.Fatal(err)
	}
	res := s.Run(context.Background(), ps, RunOptions{Jobs: 2})
	// T = D + c2*(D/c1 + 1) with D = d + c2.
	for _, r := range res {
		c1, c2, d := r.Params[0].Value, r.Params[1].Value, r.Params[2].Value
		D := d + c2
		T := D + c2*(D/c1+1)
		det := r.Queries[1]
		if len(det.Values) != 1 || det.Values[0] != fmt.Sprint(T) {
			t.Errorf("%s: detection delay %v, want %d", r.Key(), det.Values, T)
		}
		wantOK := !(c2 == 2 && d == 2) // the last rule expects 13, but T = 14
		if r.OK != wantOK || det.OK != wantOK {
			t.Errorf("%s: ok %v (detection %v, expected %q), want %v", r.Key(), r.OK, det.OK, det.Expected, wantOK)
		}
		if r.Queries[0].Verdict != queries.Satisfied || !r.Queries[0].OK {
			t.Errorf("%s: A2 %+v", r.Key(), r.Queries[0])
		}
	}
	if len(res) != 6 {
		t.Errorf("%d points, want 6", len(res))
	}
}

func TestBoundExpectations(t *testing.T) {
	src := `
model: timeout
queries:
  - detection: 'sup{Process.halted && !has_halted && !Observer.halted}: Process.x'
grid: {d: [0, 1]}
expect:
  - detection: <= T
  - when: d == 1
    detection: '>= T + 1'
`
	s, err := ParseFile("t.sweep.yaml", []byte(src), testResolver)
	if err != nil {
		t.Fatal(err)
	}
	ps, _ := s.Points()
	res := s.Run(context.Background(), ps, RunOptions{Jobs: 1})
	if !res[0].OK || res[1].OK {
		t.Errorf("ok = %v, %v; want true (3 <= T=3), false (5 >= T+1=6 fails)", res[0].OK, res[1].OK)
	}
}

func TestSweepFileErrors(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
	}{
		{"unknown key", "model: timeout\ngrid: {d: 0}\nfoo: 1\n", "t.sweep.yaml:3:1: the sweep file: unknown key foo"},
		{"no grid", "model: timeout\n", "no grid"},
		{"no model", "grid: {d: 0}\n", "names no model"},
		{"not a parameter", "model: timeout\ngrid: {x: 0..2}\n", "x is not a parameter of model timeout"},
		{"bad values", "model: timeout\ngrid: {d: 0..x}\n", "t.sweep.yaml:2:11: grid d:"},
		{"unknown query", "model: timeout\ngrid: {d: 0}\nqueries: [A9]\n", "t.sweep.yaml:3:11: model timeout has no query named A9"},
		{"expect unknown query", "model: timeout\ngrid: {d: 0}\nexpect: {A9: satisfied}\n", "t.sweep.yaml:3:14: expect: the sweep has no query named A9"},
		{"bad verdict", "model: timeout\ngrid: {d: 0}\nexpect: {A1: yes}\n", "t.sweep.yaml:3:14: expect: \"yes\" is not a verdict"},
		{"set and grid", "model: timeout\ngrid: {d: 0}\nset: {d: 1}\n", "both swept and set"},
		{"missing model", "model: nosuch\ngrid: {d: 0}\n", "t.sweep.yaml:1:8: model nosuch"},
		{"bad option", "model: timeout\ngrid: {d: 0}\noptions: {timeout: soon}\n", "t.sweep.yaml:3:20: timeout"},
	} {
		_, err := ParseFile("t.sweep.yaml", []byte(tc.src), testResolver)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}

// TestPointErrorsDoNotStopTheSweep: a point whose model does not compile
// (division by zero in the derived constants when c1 = 0) is reported as
// an error and the other points are checked.
func TestPointErrorsDoNotStopTheSweep(t *testing.T) {
	s, err := New(Args{Model: modelSource(t, bundled(t, "timeout")), Queries: []string{"A1"}, Grid: Grid{{mustAxis(t, "c1=0,1")}}})
	if err != nil {
		t.Fatal(err)
	}
	ps, _ := s.Points()
	res := s.Run(context.Background(), ps, RunOptions{Jobs: 2})
	if len(res) != 2 || res[0].Status() != "error" || res[1].Status() != "ok" {
		t.Fatalf("statuses %s, %s; want error, ok", res[0].Status(), res[1].Status())
	}
	if !strings.Contains(res[0].Error, "division by zero") {
		t.Errorf("point error %q, want division by zero", res[0].Error)
	}
}

// TestLimitsArePerPoint: a state limit makes the points that reach it
// unknown and the sweep goes on.
func TestLimitsArePerPoint(t *testing.T) {
	s, err := New(Args{
		Model: modelSource(t, "../../testdata/fischer.yaml"), Queries: []string{"mutex"},
		Grid:    Grid{{mustAxis(t, "N=2,5")}},
		Options: Options{Limits: limits(200, 0)},
	})
	if err != nil {
		t.Fatal(err)
	}
	ps, _ := s.Points()
	res := s.Run(context.Background(), ps, RunOptions{Jobs: 2})
	if res[0].Status() != "ok" || res[1].Status() != "unknown" || res[1].Queries[0].Reason != "state limit reached" {
		t.Errorf("got %s, %s (%s); want ok, unknown (state limit reached)", res[0].Status(), res[1].Status(), res[1].Queries[0].Reason)
	}
}

// TestTimeoutCoversThePoint: the timeout is shared by the explorations of
// a point; once it has passed, the remaining groups are not explored.
func TestTimeoutCoversThePoint(t *testing.T) {
	s, err := New(Args{
		Model: modelSource(t, "../../testdata/fischer.yaml"), Queries: []string{"mutex", "no-deadlock"},
		Grid: Grid{{mustAxis(t, "N=3")}}, Options: Options{Limits: limits(0, time.Hour)},
	})
	if err != nil {
		t.Fatal(err)
	}
	ps, _ := s.Points()
	// A clock that jumps two hours after the start: the first group
	// starts with no time left.
	var mu sync.Mutex
	calls := 0
	base := time.Now()
	now := func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		calls++
		if calls == 1 {
			return base
		}
		return base.Add(2 * time.Hour)
	}
	r := s.CheckPoint(ps[0], CheckOptions{Now: now})
	for _, q := range r.Queries {
		if q.Verdict != queries.Unknown || q.Reason != "time limit reached" {
			t.Errorf("%s: %v (%s), want unknown (time limit reached)", q.Query, q.Verdict, q.Reason)
		}
	}
}

// TestRunCancelKeepsFinishedPoints cancels a sweep after its first points
// finish: Run returns the finished points only, OnDone was called for
// exactly those, and never after Run returned.
func TestRunCancelKeepsFinishedPoints(t *testing.T) {
	s, err := New(Args{Model: modelSource(t, "../../testdata/fischer.yaml"), Queries: []string{"mutex"}, Grid: Grid{{mustAxis(t, "N=2..4"), mustAxis(t, "w=8..12")}}})
	if err != nil {
		t.Fatal(err)
	}
	ps, _ := s.Points()
	ctx, cancel := context.WithCancel(context.Background())
	var done []int
	returned := false
	res := s.Run(ctx, ps, RunOptions{Jobs: 2, OnDone: func(r *PointResult) {
		if returned {
			t.Errorf("OnDone after Run returned")
		}
		done = append(done, r.Index)
		if len(done) == 3 {
			cancel()
		}
	}})
	returned = true
	if len(res) < 3 || len(res) >= len(ps) {
		t.Fatalf("%d of %d points returned, want at least 3 and not all", len(res), len(ps))
	}
	slices.Sort(done)
	var got []int
	for _, r := range res {
		got = append(got, r.Index)
	}
	if !slices.Equal(got, done) {
		t.Errorf("returned %v, reported %v", got, done)
	}
}

// TestStopFinishesRunningPoints: closing Stop starts no more points but
// lets the running ones finish and report.
func TestStopFinishesRunningPoints(t *testing.T) {
	s, err := New(Args{Model: modelSource(t, "../../testdata/fischer.yaml"), Queries: []string{"mutex"}, Grid: Grid{{mustAxis(t, "N=2..3"), mustAxis(t, "w=5..12")}}})
	if err != nil {
		t.Fatal(err)
	}
	ps, _ := s.Points()
	stop := make(chan struct{})
	started := 0
	res := s.Run(context.Background(), ps, RunOptions{Jobs: 2, Stop: stop,
		OnStart: func(Point) {
			started++
			if started == 2 {
				close(stop)
			}
		}})
	if len(res) != started || started < 2 || started >= len(ps) {
		t.Errorf("%d started, %d finished of %d; want all started ones finished, not all", started, len(res), len(ps))
	}
}

// TestResultsRoundTrip writes results as JSON Lines and JSON and reads
// them back.
func TestResultsRoundTrip(t *testing.T) {
	s, err := New(Args{Model: modelSource(t, "../../testdata/fischer.yaml"), Queries: []string{"mutex", "sup: P(1).x"}, Grid: Grid{{mustAxis(t, "N=2"), mustAxis(t, "w=9..10")}}})
	if err != nil {
		t.Fatal(err)
	}
	ps, _ := s.Points()
	res := s.Run(context.Background(), ps, RunOptions{Jobs: 1})
	h := Header{Tool: "tcheck", Version: "test", Sweep: s.JSON(len(ps))}
	for _, format := range []string{"jsonl", "json"} {
		var b bytes.Buffer
		if err := Write(&b, format, h, res, len(ps), WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		back, err := ReadResults(bytes.NewReader(b.Bytes()))
		if err != nil {
			t.Fatalf("%s: %v", format, err)
		}
		if why := SameSweep(back.Header.Sweep, h.Sweep); why != "" {
			t.Errorf("%s: header differs: %s", format, why)
		}
		var again bytes.Buffer
		if err := Write(&again, format, back.Header, back.Points, len(ps), WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		if format == "jsonl" && again.String() != b.String() {
			t.Errorf("%s: rewritten output differs:\n%s\nwant\n%s", format, again.String(), b.String())
		}
	}
}

// TestReadResultsTruncatedLine: a file whose last line was cut off (the
// writer was killed) reads without it, and ValidLen ends before it.
func TestReadResultsTruncatedLine(t *testing.T) {
	s, err := New(Args{Model: modelSource(t, "../../testdata/fischer.yaml"), Queries: []string{"mutex"}, Grid: Grid{{mustAxis(t, "N=2")}}})
	if err != nil {
		t.Fatal(err)
	}
	ps, _ := s.Points()
	res := s.Run(context.Background(), ps, RunOptions{Jobs: 1})
	var b bytes.Buffer
	Write(&b, "jsonl", Header{Tool: "tcheck", Sweep: s.JSON(1)}, res, 1, WriteOptions{})
	full := b.Len()
	b.WriteString(`{"index":3,"params":{"N"`)
	back, err := ReadResults(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if !back.Truncated || back.ValidLen != int64(full) || len(back.Points) != 1 {
		t.Errorf("truncated %v, valid %d (want %d), %d points", back.Truncated, back.ValidLen, full, len(back.Points))
	}
}

func limits(states int64, timeout time.Duration) (l zoneLimits) {
	l.MaxStates, l.Timeout = states, timeout
	return l
}

// TestElapsedRoundTrip: a point's time survives writing and reading back
// (it is written in seconds, a float, and read back in nanoseconds).
func TestElapsedRoundTrip(t *testing.T) {
	for _, ns := range []int64{0, 1, 4087255, 4087254, 999999999, 123456789012, 86400e9 + 7} {
		r := &PointResult{Elapsed: time.Duration(ns)}
		back, _ := r.JSON().Result()
		if back.Elapsed != r.Elapsed {
			t.Errorf("%dns read back as %dns", ns, back.Elapsed)
		}
	}
}

// TestHullOption checks `options: {hull: true}`: the points are explored
// under the convex hull, their sup values are bounds that still confirm
// `<= T` but not `= T`, and the header of a result file records the option
// (and reads it back), since its values are not exact.
func TestHullOption(t *testing.T) {
	src := `
model: timeout
queries:
  - detection: 'sup{Process.halted && !has_halted && !Observer.halted}: Process.x'
grid: {d: [0, 1]}
expect:
  - detection: <= T
  - when: d == 1
    detection: = T
options: {hull: true}
`
	s, err := ParseFile("t.sweep.yaml", []byte(src), testResolver)
	if err != nil {
		t.Fatal(err)
	}
	if !s.Options.Hull {
		t.Fatal("hull: true not read")
	}
	ps, _ := s.Points()
	res := s.Run(context.Background(), ps, RunOptions{Jobs: 1})
	if !res[0].OK || res[1].OK {
		t.Errorf("ok = %v, %v; want true (a bound <= T), false (a bound cannot confirm = T)", res[0].OK, res[1].OK)
	}
	j := s.Options.JSON()
	if !j.Hull {
		t.Fatal("the header does not record hull")
	}
	back, err := j.options()
	if err != nil || !back.Hull {
		t.Fatalf("hull lost reading the header back: %v", err)
	}
}

// TestHeaderRecordsSymmetry checks that a result file's header says when
// the symmetry reduction was off (absent: on, so that the headers of
// models without scalar sets, and of earlier files, do not change), and
// that reading it back gives the same options.
func TestHeaderRecordsSymmetry(t *testing.T) {
	for _, off := range []bool{false, true} {
		j := Options{NoSymmetry: off}.JSON()
		if want := map[bool]string{false: "", true: "off"}[off]; j.Symmetry != want {
			t.Fatalf("NoSymmetry=%v: header symmetry %q, want %q", off, j.Symmetry, want)
		}
		back, err := j.options()
		if err != nil || back.NoSymmetry != off {
			t.Fatalf("NoSymmetry=%v read back as %v (%v)", off, back.NoSymmetry, err)
		}
		if got := (Options{NoSymmetry: off}).check().Symmetry; got == off {
			t.Fatalf("NoSymmetry=%v gives queries.Options.Symmetry=%v", off, got)
		}
	}
	if _, err := (OptionsJSON{Order: "bfs", Extrapolation: "lu+", Symmetry: "maybe"}).options(); err == nil {
		t.Fatal("a header with symmetry \"maybe\" was read")
	}
}

// TestLimitsStopTheCompilation: a point's timeout, its memory limit
// and the sweep's cancellation stop the compilation of its model (a select over 160,000
// combinations at K = 400, testdata/limits/large-select.yaml, seconds to
// compile unbounded), each
// query then unknown with the reason, as after a stopped search: the
// point is unknown where nothing is expected of its queries (the model's
// verdict expectations hold at its own parameters only) and missed where
// something is (a bound written with the model's constants).
func TestLimitsStopTheCompilation(t *testing.T) {
	model := modelSource(t, "../../testdata/limits/large-select.yaml")
	closed := make(chan struct{})
	close(closed)
	for _, c := range []struct {
		name      string
		co        func() CheckOptions
		maxMemory uint64
		reason    string
	}{
		// a clock that jumps two hours once the compilation has polled it
		// a few times
		{"the point's timeout", func() CheckOptions { return CheckOptions{Now: jumpingClock(4)} }, 0, "time limit reached"},
		{"cancellation", func() CheckOptions { return CheckOptions{Cancel: closed} }, 0, "interrupted"},
		// any heap is over a limit of one byte: reached at the first poll
		{"the point's memory limit", func() CheckOptions { return CheckOptions{} }, 1, "memory limit reached"},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, qs := range []struct {
				names  []string
				status string
			}{
				{[]string{"reach", "safe"}, "unknown"},
				{[]string{"reach", "safe", "most"}, "missed"},
			} {
				l := limits(0, time.Hour)
				l.MaxMemory = c.maxMemory
				s, err := New(Args{Model: model, Queries: qs.names, Grid: Grid{{mustAxis(t, "K=400")}}, Options: Options{Limits: l}})
				if err != nil {
					t.Fatal(err)
				}
				ps, _ := s.Points()
				r := s.CheckPoint(ps[0], c.co())
				if len(r.Queries) != len(qs.names) || r.Status() != qs.status {
					t.Fatalf("%v: %d results, status %s; want %s", qs.names, len(r.Queries), r.Status(), qs.status)
				}
				for _, q := range r.Queries {
					expects := q.Query == "most"
					if q.Verdict != queries.Unknown || q.Reason != c.reason || !strings.Contains(q.Error, "while the model and its queries were compiled") || q.OK == expects || expects != (q.Expected == "<= K") {
						t.Errorf("%s: %v (%s; %s; OK %v, expected %q), want unknown (%s) while compiling", q.Query, q.Verdict, q.Reason, q.Error, q.OK, q.Expected, c.reason)
					}
				}
			}
		})
	}
}

// jumpingClock is a clock that jumps two hours ahead at its call n.
func jumpingClock(n int) func() time.Time {
	var mu sync.Mutex
	calls := 0
	base := time.Now()
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		if calls++; calls < n {
			return base
		}
		return base.Add(2 * time.Hour)
	}
}

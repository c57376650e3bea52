package model

import (
	"slices"
	"testing"
)

// TestStoppedCombinesRatesAcrossProcesses proves how Network.Stopped reads
// the rates of the current locations: a clock no invariant names runs, a
// clock whose rate is 0 in any process's location is stopped even where
// another says x' == 1, a rate given by data (x' == run) follows the data,
// and a data rate other than 0 or 1 is a runtime error at its position.
func TestStoppedCombinesRatesAcrossProcesses(t *testing.T) {
	n := mustCompile(t, `declarations: |
  clock x, y, z;
  int run = 1;
templates:
  - name: P
    locations:
      - {name: a, initial: true, invariant: "x <= 5 && y' == 0"}
      - {name: b, invariant: "z' == run"}
      - {name: c, invariant: "y' == 1 && x' == 1"}
  - name: Q
    locations:
      - {name: a, initial: true}
      - {name: b, invariant: "(y' == 0) && x <= 9"}
system: system P, Q;
`, nil)
	if !n.Stopwatches {
		t.Fatal("Stopwatches not set")
	}
	y, z := n.ClockIndex("y"), n.ClockIndex("z")
	cases := []struct {
		name    string
		p, q    int32
		run     int32
		stopped []int // clocks stopped
		err     string
	}{
		{"rate 0 stops the clock", 0, 0, 1, []int{y}, ""},
		{"another process stops a clock its own location does not name", 1, 1, 1, []int{y}, ""},
		{"a data rate of 1 runs", 1, 0, 1, nil, ""},
		{"a data rate of 0 stops", 1, 0, 0, []int{z}, ""},
		{"rate 1 elsewhere does not restart a stopped clock", 2, 1, 1, []int{y}, ""},
		{"rate 1 alone runs", 2, 0, 1, nil, ""},
		{"a data rate of 2 is a runtime error", 1, 0, 2, nil, "test.yaml:8:37: the rate of clock z is 2: a stopwatch rate must be 0 (stopped) or 1 (running)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			env := n.NewEnv()
			env.Vars[n.VarIndex("run")] = c.run
			stopped := make([]bool, len(n.Clocks))
			anyStopped := n.Stopped(env, []int32{c.p, c.q}, stopped)
			if c.err != "" {
				if env.Err == nil || env.Err.Error() != c.err {
					t.Fatalf("error %v, want %s", env.Err, c.err)
				}
				return
			}
			if env.Err != nil {
				t.Fatal(env.Err)
			}
			var got []int
			for i, s := range stopped {
				if s {
					got = append(got, i)
				}
			}
			if !slices.Equal(got, c.stopped) || anyStopped != (len(c.stopped) > 0) {
				t.Errorf("stopped %v (any %v), want %v", got, anyStopped, c.stopped)
			}
		})
	}
}

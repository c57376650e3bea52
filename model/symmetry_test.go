package model

import (
	"strings"
	"testing"
)

// TestSymmetryObstacle proves when a model with scalar sets is refused the
// symmetry reduction although it keeps the language rules: a receiver of
// a broadcast with an update in a scalar-indexed family (UPPAAL runs the
// receivers' updates in process order, which a permutation changes), also
// through a channel chosen by an expression when the model has broadcast
// channels; not for binary channels, whose single receiver has no order.
func TestSymmetryObstacle(t *testing.T) {
	const head = `declarations: |
  typedef scalar[3] pid_t;
  pid_t last;
  bool got[pid_t];
`
	for _, tc := range []struct {
		name, decls, sync string
		want              string // a part of the reason, "" for none
	}{
		{"broadcast receiver with update", "  broadcast chan go;\n", "go?", "receives a broadcast with an update"},
		{"binary channel chosen by an expression", "  chan c[pid_t];\n", "c[last]?", ""},
		{"binary channel", "  chan c[pid_t];\n", "c[id]?", ""},
		{"expression with a broadcast channel in the model", "  chan c[pid_t];\n  broadcast chan b;\n", "c[last]?", "may be a broadcast channel"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := head + tc.decls + `templates:
  - name: P
    parameters: const pid_t id
    locations:
      - {name: a, initial: true}
    edges:
      - {from: a, to: a, sync: "` + tc.sync + `", update: "got[id] = true"}
system: |
  system P;
`
			n := mustCompile(t, src, nil)
			got := n.SymmetryObstacle()
			if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
				t.Fatalf("obstacle %q, want one with %q", got, tc.want)
			}
		})
	}
}

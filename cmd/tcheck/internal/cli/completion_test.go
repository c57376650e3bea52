package cli

import (
	"strings"
	"testing"
)

// TestShellCompletion checks what the shell completion scripts offer:
// bundled model names, a model's query names after -q, the values of
// flags with a fixed set, and model files by extension (issue 16, item 12).
func TestShellCompletion(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"__complete", "verify", "agr"}, []string{"agreement\n", "agreement-m1\n", ":4"}},
		{[]string{"__complete", "verify", "../../../../testdata/fischer.yaml", "-q", ""}, []string{"mutex\n", "cs-reachable\n", "no-deadlock\n"}},
		{[]string{"__complete", "verify", "--order", ""}, []string{"bfs\n", "dfs\n"}},
		{[]string{"__complete", "sweep", "x.yaml", "--extrapolation", ""}, []string{"lu+\n", "m+\n", "none\n"}},
		{[]string{"__complete", "export", "agreement", "--to", ""}, []string{"dot\n", "xta\n"}},
		{[]string{"__complete", "verify", "testdata/"}, []string{"yaml\n", "xml\n", "xta\n", ":8"}},
	} {
		code, out, errOut := run(tc.args...)
		if code != 0 {
			t.Errorf("%v: exit %d: %s", tc.args, code, errOut)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(out, w) {
				t.Errorf("%v: %q lacks %q", tc.args, out, w)
			}
		}
	}
}

package model

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCompiledGolden compares the compiled form (Network.Dump) of the
// example models with testdata/compiled/*.txt: variables with ranges and
// initial values, clocks with global bounds, channels, and per process the
// locations (flags, invariants, local bounds) and the select-expanded
// edges. `go test -run TestCompiledGolden ./model/ -args -update` rewrites
// them; inspect the diff.
func TestCompiledGolden(t *testing.T) {
	for _, name := range []string{"fischer", "timeout", "agreement"} {
		t.Run(name, func(t *testing.T) {
			_, n, err := Load(modelPath(name), nil)
			if err != nil {
				t.Fatal(err)
			}
			got := n.Dump()
			golden := filepath.Join("testdata", "compiled", name+".txt")
			if *update {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want := string(readFile(t, golden))
			if got != want {
				gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
				for i := range max(len(gl), len(wl)) {
					var g, w string
					if i < len(gl) {
						g = gl[i]
					}
					if i < len(wl) {
						w = wl[i]
					}
					if g != w {
						t.Fatalf("line %d:\n got  %s\n want %s", i+1, g, w)
					}
				}
			}
		})
	}
}

package difftest

import (
	"bytes"
	"testing"

	"github.com/tcheck/tcheck/model"
)

// TestGeneratorIsDeterministicAndValid: a seed always gives the same
// model, every generated model compiles, and the empty input (what the
// fuzzer's minimisation tends to) gives the smallest model.
func TestGeneratorIsDeterministicAndValid(t *testing.T) {
	for seed := uint64(0); seed < 500; seed++ {
		m := Generate(NewSource(SeedBytes(seed, seedLen)))
		if again := Generate(NewSource(SeedBytes(seed, seedLen))); !bytes.Equal(m.Text, again.Text) {
			t.Fatalf("seed %d: two different models", seed)
		}
		f, err := model.Parse("gen.yaml", m.Text)
		if err == nil {
			_, err = f.Compile(nil)
		}
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, m.Text)
		}
	}
	m := Generate(NewSource(nil))
	if m.Procs != 1 || m.Clocks != 1 || m.Queries != 1 {
		t.Errorf("empty input: %d processes, %d clocks, %d queries; want 1, 1, 1:\n%s", m.Procs, m.Clocks, m.Queries, m.Text)
	}
	t.Logf("the smallest model:\n%s", m.Text)
}

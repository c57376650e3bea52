package difftest

import (
	"bytes"
	"testing"

	"github.com/tcheck/tcheck/model"
	"github.com/tcheck/tcheck/queries"
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

// TestSymmetricGeneratorIsValid: a seed always gives the same symmetric
// model; every one compiles, has one scalar set of 2–4 values, processes
// instantiated over it, and nothing that turns the symmetry reduction off
// (model.Network.SymmetryObstacle); the empty input gives the smallest.
func TestSymmetricGeneratorIsValid(t *testing.T) {
	sizes := map[int]int{}
	for seed := uint64(0); seed < 500; seed++ {
		m := GenerateSymmetric(NewSource(SeedBytes(seed, seedLen)))
		if again := GenerateSymmetric(NewSource(SeedBytes(seed, seedLen))); !bytes.Equal(m.Text, again.Text) {
			t.Fatalf("seed %d: two different models", seed)
		}
		f, err := model.Parse("gensym.yaml", m.Text)
		var net *model.Network
		if err == nil {
			net, err = f.Compile(nil)
		}
		if err == nil {
			_, err = queries.FromFile(net, f, nil)
		}
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, m.Text)
		}
		if len(net.Scalars) != 1 || net.Scalars[0].Size < 2 || net.Scalars[0].Size > 4 {
			t.Fatalf("seed %d: scalar sets %v", seed, net.Scalars)
		}
		sizes[net.Scalars[0].Size]++
		if why := net.SymmetryObstacle(); why != "" {
			t.Fatalf("seed %d: the reduction is off: %s\n%s", seed, why, m.Text)
		}
		family := 0
		for _, p := range net.Procs {
			if len(p.ScalarArgs) > 0 {
				family++
			}
		}
		if family < net.Scalars[0].Size || len(net.Procs) != m.Procs {
			t.Fatalf("seed %d: %d processes, %d of them over the set, want %d", seed, len(net.Procs), family, m.Procs)
		}
	}
	if len(sizes) != 3 {
		t.Errorf("set sizes %v: want 2, 3 and 4", sizes)
	}
	m := GenerateSymmetric(NewSource(nil))
	if m.Procs != 2 || m.Clocks != 1 || m.Queries != 1 {
		t.Errorf("empty input: %d processes, %d clocks, %d queries; want 2, 1, 1:\n%s", m.Procs, m.Clocks, m.Queries, m.Text)
	}
	t.Logf("the smallest symmetric model:\n%s", m.Text)
}

package zone

import (
	"strings"
	"testing"

	"github.com/tcheck/tcheck/model"
)

// TestSymmetryCheck proves the check of zone/symcheck.go both ways: it
// passes every expanded state of symmetric models (Fischer with a scalar
// set; FORMATS 2003's example), and it refuses a model that keeps the
// language rules but whose successors depend on the order of the values
// of its scalar set, instead of answering on an unsound reduction.
func TestSymmetryCheck(t *testing.T) {
	defer func(every, first int64) { symCheckEvery, symCheckFirst = every, first }(symCheckEvery, symCheckFirst)
	symCheckEvery, symCheckFirst = 1, 0
	for _, tc := range []struct {
		path      string
		set       map[string]int64
		symmetric bool
	}{
		{"../queries/testdata/semantics/scalar-fischer.yaml", map[string]int64{"N": 4}, true},
		{"../queries/testdata/semantics/scalar-fischer.yaml", map[string]int64{"N": 5, "k": 3}, true},
		{"../queries/testdata/semantics/scalar-select-chan.yaml", nil, true},
		{"../queries/testdata/semantics/scalar-pools.yaml", nil, true},
		{"testdata/scalar-order-dependent.yaml", nil, false},
	} {
		t.Run(tc.path, func(t *testing.T) {
			_, net, err := model.Load(tc.path, tc.set)
			if err != nil {
				t.Fatal(err)
			}
			for _, workers := range []int{1, 3} {
				opts := Options{Extrapolation: Extrapolation{Local: true}, Symmetry: true, Workers: workers}
				res := SearchWorkers(NewSystem(net), opts, func() Visitor { return func(*Visit) bool { return false } })
				switch {
				case tc.symmetric && res.Reason != Completed:
					t.Fatalf("workers=%d: a symmetric model ended with %v: %v", workers, res.Reason, res.Err)
				case !tc.symmetric && (res.Reason != Failed || !strings.Contains(res.Err.Error(), "not symmetric in the scalar set pid_t")):
					t.Fatalf("workers=%d: an order-dependent model ended with %v (%v), want the symmetry check's error", workers, res.Reason, res.Err)
				}
			}
		})
	}
}

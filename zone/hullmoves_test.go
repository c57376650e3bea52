package zone

import (
	"testing"

	"github.com/tcheck/tcheck/model"
)

// TestHullMovesLeaveOutContradictoryPieces: under the convex hull a
// state's moves are enumerated against the zone of all valuations, not its
// own (nodeGraph.unpruned), and under priorities that still leaves out the
// pieces whose constraints contradict each other. In the model of the
// differential tester's seed 222546 the initial state's moves came in
// 32.4 M pieces each when none was left out, and its expansion took 6 s;
// a move's pieces are at most the product of its higher moves' constraint
// counts, and the consistent ones number a few dozen.
func TestHullMovesLeaveOutContradictoryPieces(t *testing.T) {
	_, net, err := model.Load("../testdata/difftest/hull-priority-pieces.yaml", nil)
	if err != nil {
		t.Fatal(err)
	}
	sys := NewSystem(net)
	for _, hull := range []bool{false, true} {
		passed := newPassedList(sys.Dim, false, hull)
		passed.graph.unpruned = hull
		e := newExpander(sys, passed.graph, Options{Hull: hull}, false, passed, func(*Visit) bool { return false })
		if r, err := e.initial(); err != nil || r != Completed || len(e.out) != 1 {
			t.Fatalf("hull=%v: initial: %v, %v, %d nodes", hull, r, err, len(e.out))
		}
		if r, err := e.expand(e.out[0]); err != nil || r != Completed {
			t.Fatalf("hull=%v: expand: %v, %v", hull, r, err)
		}
		if e.moveIdx > 100 {
			t.Errorf("hull=%v: the initial state's moves came in %d pieces, want at most 100", hull, e.moveIdx)
		}
		t.Logf("hull=%v: %d pieces", hull, e.moveIdx)
	}
}

package cli

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/tcheck/tcheck/zone"
)

// TestProgressOnlyOnATerminal checks that the one progress display stays
// off when stderr is not a terminal (a file, a pipe, a CI log): no bar is
// made and a long exploration's updates write nothing (issue 16, item 14).
func TestProgressOnlyOnATerminal(t *testing.T) {
	var buf bytes.Buffer
	if newBar(&buf, 10, "points", "") != nil || newBar(&buf, -1, "states", "") != nil {
		t.Fatal("a progress bar on a buffer")
	}
	f, err := os.CreateTemp(t.TempDir(), "stderr")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if isTerminal(f) {
		t.Fatal("a file is a terminal")
	}
	p := newVerifyProgress(f, true, true)
	p.update(nil, zone.Stats{Explored: 1000, Stored: 500, Elapsed: time.Minute})
	p.clear()
	if st, _ := f.Stat(); st.Size() != 0 {
		t.Fatalf("%d bytes of progress written to a file", st.Size())
	}
}

// TestRunningOrderHintOnce checks the note a long breadth-first
// exploration that wastes its work gets while it runs (a search like FDDI
// N = 20's may not end for the user to see the note at the end): on any
// stderr, once, only from queries.OrderHintAfter of running and
// OrderHint's thresholds (10,000 states explored, 4 times those stored),
// only when verify asked for it (breadth first, text output), and never
// from a progress report alone.
func TestRunningOrderHintOnce(t *testing.T) {
	wasteful := zone.Stats{Explored: 320068, Stored: 989, Elapsed: time.Minute}
	for _, tc := range []struct {
		name      string
		hintOrder bool
		updates   []zone.Stats
		want      int // hints printed
	}{
		{"wasteful", true, []zone.Stats{wasteful, wasteful, wasteful}, 1},
		{"too early", true, []zone.Stats{{Explored: 320068, Stored: 989, Elapsed: 4 * time.Second}}, 0},
		{"once it is late enough", true, []zone.Stats{{Explored: 20000, Stored: 400, Elapsed: 4 * time.Second}, {Explored: 320068, Stored: 989, Elapsed: 5 * time.Second}}, 1},
		{"usual waste", true, []zone.Stats{{Explored: 447598, Stored: 260998, Elapsed: time.Minute}}, 0},
		{"too few states", true, []zone.Stats{{Explored: 9999, Stored: 10, Elapsed: time.Minute}}, 0},
		{"not asked (another order, JSON)", false, []zone.Stats{wasteful}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			p := newVerifyProgress(&buf, true, tc.hintOrder)
			for _, s := range tc.updates {
				p.update(nil, s)
			}
			p.clear()
			got := strings.Count(buf.String(), "hint: breadth first has explored")
			if got != tc.want || p.hinted != (tc.want > 0) || got == 0 && buf.Len() > 0 {
				t.Fatalf("%d hints (hinted %v), want %d:\n%s", got, p.hinted, tc.want, buf.String())
			}
			if got > 0 && !strings.Contains(buf.String(), "--order topological, ranked or dfs") {
				t.Fatalf("the hint names no order:\n%s", buf.String())
			}
		})
	}
}

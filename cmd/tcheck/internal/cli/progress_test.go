package cli

import (
	"bytes"
	"os"
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
	p := newVerifyProgress(f)
	p.update(nil, zone.Stats{Explored: 1000, Stored: 500, Elapsed: time.Minute})
	p.clear()
	if st, _ := f.Stat(); st.Size() != 0 {
		t.Fatalf("%d bytes of progress written to a file", st.Size())
	}
}

package cli

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/tcheck/tcheck/queries"
	"github.com/tcheck/tcheck/zone"
)

// The one progress display of the commands: on stderr, drawn by the
// progress library, and only when stderr is a terminal (a log or a CI run
// gets the results and no progress lines).

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// newBar returns a progress bar over total items (a spinner when total is
// -1) on w, or nil when w is not a terminal.
func newBar(w io.Writer, total int, what, desc string) *progressbar.ProgressBar {
	if !isTerminal(w) || total == 0 {
		return nil
	}
	opts := []progressbar.Option{
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(desc),
		progressbar.OptionSetItsString(what),
		progressbar.OptionThrottle(200 * time.Millisecond),
		progressbar.OptionClearOnFinish(),
	}
	if total > 0 {
		opts = append(opts, progressbar.OptionShowCount(), progressbar.OptionSetPredictTime(true), progressbar.OptionSetWidth(30))
	} else {
		opts = append(opts, progressbar.OptionSpinnerType(14))
	}
	return progressbar.NewOptions(total, opts...)
}

// verifyProgress reports a long exploration of verify: after two seconds,
// the states explored and stored, the rate, the time and the memory (when
// show is set and w is a terminal). When hintOrder is set (breadth first,
// text output), it also prints queries.RunningOrderHint's note once, on
// any w: a search that wastes its time so may not end for the user to
// see OrderHint's note; hinted records that it was printed.
type verifyProgress struct {
	w         io.Writer
	bar       *progressbar.ProgressBar
	show      bool
	hintOrder bool
	hinted    bool
}

func newVerifyProgress(w io.Writer, show, hintOrder bool) *verifyProgress {
	return &verifyProgress{w: w, show: show, hintOrder: hintOrder}
}

// active reports whether the progress reports are wanted at all.
func (p *verifyProgress) active() bool { return p.show || p.hintOrder }

func (p *verifyProgress) update(qs []*queries.Query, s zone.Stats) {
	if p.hintOrder && !p.hinted {
		if hint := queries.RunningOrderHint(zone.BFS, s); hint != "" {
			p.clear()
			fmt.Fprintln(p.w, hint)
			p.hinted = true
		}
	}
	if !p.show || s.Elapsed < 2*time.Second || !isTerminal(p.w) {
		return
	}
	if p.bar == nil {
		p.bar = newBar(p.w, -1, "states", "")
		if p.bar == nil {
			return
		}
	}
	name := ""
	if len(qs) == 1 && qs[0].Name != "" {
		name = qs[0].Name + ": "
	}
	if s.Nodes > 0 {
		// the final visits of the stored zones (property (7))
		p.bar.Describe(fmt.Sprintf("%sexplored %d, stored %d; checking the stored zones: %d%%, %s, %s", name, s.Explored, s.Stored, 100*s.Checked/s.Nodes, s.Elapsed.Round(time.Second), queries.Bytes(s.PeakMemory)))
		return
	}
	rate := float64(s.Explored) / s.Elapsed.Seconds()
	p.bar.Describe(fmt.Sprintf("%sexplored %d, stored %d, %.0f states/s, %s, %s", name, s.Explored, s.Stored, rate, s.Elapsed.Round(time.Second), queries.Bytes(s.PeakMemory)))
}

func (p *verifyProgress) clear() {
	if p.bar != nil {
		_ = p.bar.Clear()
		p.bar = nil
	}
}

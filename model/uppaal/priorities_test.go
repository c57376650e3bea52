package uppaal

import (
	"path/filepath"
	"testing"

	"github.com/tcheck/tcheck/model"
)

// TestPrioritiesReadAndWritten: channel priorities (chan priority c < d) and
// process priorities (system P < Q) are read from UPPAAL XML and XTA, and
// written back in both formats with the same levels (they once were
// rejected; testdata/priorities holds the files that were then errors).
func TestPrioritiesReadAndWritten(t *testing.T) {
	files, err := filepath.Glob("testdata/priorities/*")
	if err != nil || len(files) != 3 {
		t.Fatalf("want 3 files in testdata/priorities: %v %v", files, err)
	}
	levels := func(net *model.Network) (chans []int32, tau int32, procs []int) {
		for _, p := range net.Procs {
			procs = append(procs, p.Priority)
		}
		return net.ChanLevel, net.TauLevel, procs
	}
	for _, path := range files {
		f := load(t, path)
		net, err := f.Compile(nil)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if !net.Priorities {
			t.Errorf("%s: no priorities", path)
		}
		wc, wt, wp := levels(net)
		if filepath.Base(path) == "priority-chan.xml" && (len(wc) < 2 || wc[0] != 0 || wc[1] != 1) {
			t.Errorf("%s: channel levels %v, want c 0 and d 1", path, wc)
		}
		if filepath.Ext(path) != ".xml" || filepath.Base(path) == "priority-system.xml" {
			if len(wp) != 2 || wp[0] != 0 || wp[1] != 1 {
				t.Errorf("%s: process levels %v, want P 0 and Q 1", path, wp)
			}
		}
		for _, format := range []string{"xml", "xta"} {
			var out []byte
			if format == "xml" {
				out, _ = FormatXML(f)
			} else {
				out, _ = FormatXTA(f)
			}
			g, err := ParseFile("out."+format, out)
			if err != nil {
				t.Fatalf("%s as %s: %v\n%s", path, format, err, out)
			}
			n2, err := g.Compile(nil)
			if err != nil {
				t.Fatalf("%s as %s: %v\n%s", path, format, err, out)
			}
			gc, gt, gp := levels(n2)
			if !n2.Priorities || len(gc) != len(wc) || gt != wt || len(gp) != len(wp) {
				t.Fatalf("%s as %s: levels %v %v %v, want %v %v %v", path, format, gc, gt, gp, wc, wt, wp)
			}
			for i := range gc {
				if gc[i] != wc[i] {
					t.Errorf("%s as %s: channel levels %v, want %v", path, format, gc, wc)
				}
			}
			for i := range gp {
				if gp[i] != wp[i] {
					t.Errorf("%s as %s: process levels %v, want %v", path, format, gp, wp)
				}
			}
		}
	}
}

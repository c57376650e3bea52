package cli

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// chromium returns the headless browser for TestBrowser: $TCHECK_CHROMIUM,
// or chromium (Debian's package), chromium-browser or google-chrome on the
// PATH. Without one the test skips, unless TCHECK_REQUIRE_BROWSER is set
// (CI sets it once it has installed Chromium).
func chromium(t *testing.T) string {
	t.Helper()
	cands := []string{os.Getenv("TCHECK_CHROMIUM"), "chromium", "chromium-browser", "google-chrome"}
	for _, c := range cands {
		if c == "" {
			continue
		}
		if p, err := exec.LookPath(c); err == nil {
			return p
		}
	}
	if os.Getenv("TCHECK_REQUIRE_BROWSER") != "" {
		t.Fatal("TCHECK_REQUIRE_BROWSER is set but no Chromium was found (chromium, chromium-browser, google-chrome or $TCHECK_CHROMIUM)")
	}
	t.Skip("Chromium is not installed (apt-get install chromium): the browser test of the HTML traces is skipped")
	return ""
}

// headless runs the browser on url with args and returns its stdout and
// the console messages of the page (Chromium logs them on stderr as
// INFO:CONSOLE lines with --enable-logging=stderr).
func headless(t *testing.T, bin, url string, args ...string) (string, []string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	all := append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
		"--user-data-dir=" + t.TempDir(), "--enable-logging=stderr", "--v=0"}, args...)
	cmd := exec.CommandContext(ctx, bin, append(all, url)...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v\n%s", bin, err, errOut.String())
	}
	var console []string
	for _, l := range strings.Split(errOut.String(), "\n") {
		if strings.Contains(l, ":CONSOLE") {
			console = append(console, l)
		}
	}
	return out.String(), console
}

var svgSize = regexp.MustCompile(`<svg xmlns="http://www.w3.org/2000/svg" width="(\d+)" height="(\d+)"`)

// TestBrowser loads the HTML charts of the Fischer race and of an
// agreement counterexample (agreement-m1) in headless Chromium: the pages
// load without a console message, their script runs and opens the hover
// panel on the step the address names, and a screenshot shows the chart
// and the panel. go test -update keeps the screenshots in docs/img.
func TestBrowser(t *testing.T) {
	bin := chromium(t)
	dir := t.TempDir()
	t.Chdir(repoRoot) // the pages name the model as a user gives it
	// the console is watched: a broken page must be noticed
	broken := filepath.Join(dir, "broken.html")
	if err := os.WriteFile(broken, []byte(`<!DOCTYPE html><html><body><script>console.error("boom"); undefinedFunction();</script></body></html>`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, console := headless(t, bin, "file://"+broken, "--dump-dom"); len(console) < 2 {
		t.Fatalf("the console messages of a broken page are not seen (%q): the test would prove nothing", console)
	}
	for _, tc := range []struct {
		name string
		args []string
		step int    // the step whose details the screenshot shows
		want string // in the panel
	}{
		{"fischer-race", []string{"verify", "testdata/fischer.yaml", "--set", "w=9", "-q", "A[] !(P(1).cs && P(2).cs)"}, 5, "changed: id=2"},
		{"agreement-m1", []string{"verify", "agreement-m1", "-q", "agreement"}, 20, "changed: dec[2]=1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, page, errOut := run(append(tc.args, "--workers", "1", "--no-progress", "--trace-format", "html")...)
			if code != 0 && code != 1 {
				t.Fatalf("exit %d\n%s", code, errOut)
			}
			path := filepath.Join(dir, tc.name+".html")
			if err := os.WriteFile(path, []byte(page), 0o644); err != nil {
				t.Fatal(err)
			}
			url := fmt.Sprintf("file://%s#msc0-d%d", path, tc.step)
			dom, console := headless(t, bin, url, "--dump-dom")
			if len(console) > 0 {
				t.Errorf("console messages:\n%s", strings.Join(console, "\n"))
			}
			if !strings.Contains(dom, `data-ready="true"`) {
				t.Errorf("the page's script did not run to its end:\n%s", dom)
			}
			panel := dom[strings.Index(dom, `<aside id="panel"`):]
			panel = panel[:strings.Index(panel, "</aside>")]
			if !strings.Contains(panel, fmt.Sprintf("[%d] t=", tc.step)) || !strings.Contains(panel, tc.want) {
				t.Errorf("the panel does not show step %d (%q):\n%s", tc.step, tc.want, panel)
			}
			m := svgSize.FindStringSubmatch(page)
			if m == nil {
				t.Fatal("no chart in the page")
			}
			w, _ := strconv.Atoi(m[1])
			h, _ := strconv.Atoi(m[2])
			w, h = min(w+48, 2400), min(h+260, 1600)
			shot := filepath.Join(dir, tc.name+".png")
			if _, console := headless(t, bin, url, fmt.Sprintf("--window-size=%d,%d", w, h), "--screenshot="+shot); len(console) > 0 {
				t.Errorf("console messages:\n%s", strings.Join(console, "\n"))
			}
			b, err := os.ReadFile(shot)
			if err != nil {
				t.Fatal(err)
			}
			img, err := png.Decode(bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			if got := img.Bounds().Size(); got != image.Pt(w, h) {
				t.Errorf("screenshot %v, want %dx%d", got, w, h)
			}
			// the lane headers (#1f3b73) and the panel (#fffdf3) are drawn
			if n := countColour(img, 0x1f, 0x3b, 0x73); n < 500 {
				t.Errorf("%d pixels of the lane headers' colour: the chart is not drawn", n)
			}
			if n := countColour(img, 0xff, 0xfd, 0xf3); n < 500 {
				t.Errorf("%d pixels of the panel's colour: the panel is not shown", n)
			}
			if *update {
				if err := os.WriteFile(filepath.Join("docs", "img", tc.name+".png"), b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

func countColour(img image.Image, r, g, b uint8) int {
	n := 0
	bd := img.Bounds()
	for y := bd.Min.Y; y < bd.Max.Y; y++ {
		for x := bd.Min.X; x < bd.Max.X; x++ {
			cr, cg, cb, _ := img.At(x, y).RGBA()
			if uint8(cr>>8) == r && uint8(cg>>8) == g && uint8(cb>>8) == b {
				n++
			}
		}
	}
	return n
}

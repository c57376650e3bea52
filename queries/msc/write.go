package msc

import (
	"fmt"
	"io"
	"strings"
)

const fontFamily = "DejaVu Sans Mono, Menlo, Consolas, monospace"

// WriteSVG writes d as one standalone SVG document: the title, then each
// section's heading, notes and chart, one below the other. The variable
// changes of each step are written beside it; hovering over a step shows
// its details as a tooltip (a title element).
func WriteSVG(w io.Writer, d *Document) error {
	var body strings.Builder
	width, y := 400, 8
	put := func(size int, weight, fill, text string) {
		y += size + 6
		fmt.Fprintf(&body, `<text x="8" y="%d" font-size="%d" font-weight="%s" fill="%s">%s</text>`+"\n", y, size, weight, fill, esc(text))
		width = max(width, 16+len([]rune(text))*size*charW/fontSize)
	}
	if d.Title != "" {
		put(16, "bold", "#000", d.Title)
	}
	for k, s := range d.Sections {
		y += 10
		put(14, "bold", "#000", s.Title)
		for _, n := range s.Notes {
			put(fontSize, "normal", "#333", n)
		}
		if s.Chart != nil && len(s.Chart.Steps) > 0 {
			g := layout(s.Chart, true)
			y += 12
			fmt.Fprintf(&body, `<g transform="translate(8,%d)">`+"\n", y)
			drawChart(&body, s.Chart, g, k, false)
			body.WriteString("</g>\n")
			y += g.height
			width = max(width, g.width+16)
		}
	}
	y += 8
	_, err := fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="%s" font-size="%d">
<rect width="100%%" height="100%%" fill="#fff"/>
%s</svg>
`, width, y, width, y, fontFamily, fontSize, body.String())
	return err
}

// WriteHTML writes d as one HTML page without external resources (inline
// CSS and JavaScript): each section's heading, notes and chart, and a
// panel that shows the details of the step under the pointer (the move's
// edges, the locations entered, the variables changed, the clock values).
// A page address ending in #msc0-d3 opens the panel on step 3 of the
// first section's chart. The page is also well-formed XML.
func WriteHTML(w io.Writer, d *Document) error {
	var b strings.Builder
	b.WriteString("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n")
	fmt.Fprintf(&b, "<title>%s</title>\n<style>\n%s</style>\n</head>\n<body>\n", esc(d.Title), pageCSS)
	if d.Title != "" {
		fmt.Fprintf(&b, "<h1>%s</h1>\n", esc(d.Title))
	}
	b.WriteString("<p class=\"hint\">Hover over a step (or focus it with Tab) to see its edges, the variables it changes and the clock values.</p>\n")
	for k, s := range d.Sections {
		fmt.Fprintf(&b, "<section>\n<h2>%s</h2>\n", esc(s.Title))
		for _, n := range s.Notes {
			fmt.Fprintf(&b, "<p class=\"note\">%s</p>\n", esc(n))
		}
		if c := s.Chart; c != nil && len(c.Steps) > 0 {
			g := layout(c, false)
			fmt.Fprintf(&b, "<div class=\"chart\">\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"%s\" font-size=\"%d\">\n",
				g.width, g.height, g.width, g.height, fontFamily, fontSize)
			drawChart(&b, c, g, k, true)
			b.WriteString("</svg>\n</div>\n")
			for i := range c.Steps {
				fmt.Fprintf(&b, "<div class=\"detail\" id=\"msc%d-d%d\" hidden=\"hidden\">", k, i)
				for _, l := range stepDetail(c, i) {
					fmt.Fprintf(&b, "<div>%s</div>", esc(l))
				}
				b.WriteString("</div>\n")
			}
		}
		b.WriteString("</section>\n")
	}
	fmt.Fprintf(&b, "<aside id=\"panel\" aria-live=\"polite\"></aside>\n<script>\n%s</script>\n</body>\n</html>\n", pageJS)
	_, err := io.WriteString(w, b.String())
	return err
}

const pageCSS = `body { font-family: ` + fontFamily + `; font-size: 13px; margin: 16px; color: #111; background: #fff; }
h1 { font-size: 18px; }
h2 { font-size: 15px; margin: 24px 0 4px; }
p.note { margin: 2px 0; color: #333; }
p.hint { color: #666; }
.chart { overflow-x: auto; margin-top: 8px; }
.step { cursor: pointer; outline: none; }
.step:hover .band, .step:focus .band, .step.current .band { fill-opacity: 0.8; }
#panel { position: fixed; right: 12px; bottom: 12px; max-width: 520px; max-height: 45vh; overflow: auto;
  background: #fffdf3; border: 1px solid #c9b458; border-radius: 4px; padding: 8px 10px;
  box-shadow: 0 2px 6px rgba(0, 0, 0, 0.2); white-space: pre-wrap; }
#panel:empty { display: none; }
#panel div div:first-child { font-weight: bold; }
`

// pageJS shows the details of the step under the pointer. It contains no
// '<' and no '&', so that the page stays well-formed XML.
const pageJS = `(function () {
  "use strict";
  var panel = document.getElementById("panel");
  var current = null;
  function show(id) {
    var d = document.getElementById(id);
    if (d === null || !d.classList.contains("detail")) {
      return;
    }
    var copy = d.cloneNode(true);
    copy.removeAttribute("id");
    copy.hidden = false;
    panel.replaceChildren(copy);
    if (current !== null) {
      current.classList.remove("current");
    }
    current = document.querySelector("[data-detail=\"" + id + "\"]");
    if (current !== null) {
      current.classList.add("current");
    }
  }
  document.querySelectorAll(".step[data-detail]").forEach(function (g) {
    var id = g.getAttribute("data-detail");
    g.addEventListener("mouseenter", function () { show(id); });
    g.addEventListener("focus", function () { show(id); });
  });
  if (location.hash.length > 1) {
    show(decodeURIComponent(location.hash.slice(1)));
  }
  document.body.setAttribute("data-ready", "true");
})();
`

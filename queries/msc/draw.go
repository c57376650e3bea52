package msc

import (
	"fmt"
	"html"
	"strings"
	"unicode/utf8"

	"github.com/tcheck/tcheck/queries"
)

// Sizes in pixels; text is monospace, about charW wide per character at
// fontSize.
const (
	fontSize   = 12
	charW      = 7
	lineH      = 14
	rowH       = 28  // the least vertical distance between two steps
	headerH    = 26  // the lane headers
	minLaneW   = 110 // a lane's least width
	maxLaneW   = 320
	timeHeight = 320 // the pixels the whole duration of a trace may take
	unitPx     = 16  // and one time unit at most
	labelChars = 56  // a change label's line
	labelLines = 4   // lines of change labels per step at most
	initVars   = 6   // initial values shown as a label at most
)

// esc escapes s for XML and HTML text and attribute values; characters
// XML does not allow (most control characters) become U+FFFD.
func esc(s string) string {
	if !utf8.ValidString(s) || strings.IndexFunc(s, badXMLRune) >= 0 {
		s = strings.Map(func(r rune) rune {
			if badXMLRune(r) {
				return utf8.RuneError
			}
			return r
		}, strings.ToValidUTF8(s, string(utf8.RuneError)))
	}
	return html.EscapeString(s)
}

func badXMLRune(r rune) bool {
	return r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == 0xFFFE || r == 0xFFFF || r >= 0xD800 && r < 0xE000
}

func textW(s string) int { return utf8.RuneCountInString(s) * charW }

// geom is the layout of a chart.
type geom struct {
	rulerW     int
	laneX      []int // centre of each lane
	laneW      []int
	lanesRight int // x where the lanes end
	labelX     int // x of the change labels
	width      int
	y          []int // y of each step
	yFail      int   // y of the failing move (0: none)
	yEnd       int   // where the boxes end
	height     int
	labels     [][]string // change labels of each step, wrapped
}

// layout places the chart; labels says whether the variable changes are
// written beside the steps (SVG) or left to the hover panel (HTML).
func layout(c *Chart, labels bool) *geom {
	g := &geom{}
	// the time ruler
	g.rulerW = 64
	for _, s := range c.Steps {
		g.rulerW = max(g.rulerW, textW("t="+queries.Rat(s.Time, c.Den))+20)
	}
	g.rulerW = max(g.rulerW, textW("t="+queries.Rat(c.endTime(), c.Den))+20)
	// the lanes
	x := g.rulerW
	for p, name := range c.Lanes {
		w := textW(name)
		for _, s := range c.Steps {
			if p < len(s.Locs) {
				w = max(w, textW(s.Locs[p]))
			}
		}
		w = min(max(w+28, minLaneW), maxLaneW)
		g.laneW = append(g.laneW, w)
		g.laneX = append(g.laneX, x+w/2)
		x += w
	}
	g.lanesRight = x
	if c.Cycle > 0 {
		x += 70
	}
	g.labelX = x + 12
	// the labels
	widest := 0
	for i, s := range c.Steps {
		var ls []string
		if labels {
			ls = wrap(changeLabel(s, i), labelChars, labelLines)
		} else if len(s.Changes) > 0 {
			ls = []string{fmt.Sprintf("Δ %d", len(s.Changes))}
		}
		for _, l := range ls {
			widest = max(widest, textW(l))
		}
		g.labels = append(g.labels, ls)
	}
	g.width = g.labelX + widest + 12
	if len(c.Fail) > 0 {
		for _, e := range c.Fail {
			g.width = max(g.width, g.labelX+textW("fails: "+e.String())+12)
		}
	}
	// the steps, downwards: at least a row apart (more for their labels),
	// plus the delay in between at a common scale
	total := c.endTime()
	delayPx := func(d int64) int {
		if d <= 0 || total <= 0 {
			return 0
		}
		return int(min(mulDiv(d, unitPx, c.Den), mulDiv(d, timeHeight, total)))
	}
	y := headerH + 24
	for i, s := range c.Steps {
		if i > 0 {
			y += delayPx(s.Delay)
		}
		g.y = append(g.y, y)
		y += max(rowH, lineH*len(g.labels[i])+8)
	}
	if len(c.Fail) > 0 {
		g.yFail = y
		y += rowH
	}
	y += delayPx(c.FinalDelay)
	g.yEnd = y
	g.height = y + 24
	return g
}

// endTime is the time at the end of the trace, after the final delay.
func (c *Chart) endTime() int64 {
	if len(c.Steps) == 0 {
		return c.FinalDelay
	}
	return c.Steps[len(c.Steps)-1].Time + c.FinalDelay
}

// changeLabel is the label of a step's variable changes; the initial
// values only when there are few.
func changeLabel(s Step, i int) string {
	if i == 0 && len(s.Changes) > initVars {
		return fmt.Sprintf("%d variables", len(s.Changes))
	}
	return strings.Join(s.Changes, " ")
}

// wrap breaks s at spaces into lines of at most n characters (a longer
// word stands alone); beyond max lines, the last line says how many words
// it leaves out.
func wrap(s string, n, maxLines int) []string {
	var lines [][]string
	width := 0
	for _, w := range strings.Fields(s) {
		l := utf8.RuneCountInString(w)
		if len(lines) == 0 || width+1+l > n {
			lines = append(lines, []string{w})
			width = l
			continue
		}
		lines[len(lines)-1] = append(lines[len(lines)-1], w)
		width += 1 + l
	}
	var out []string
	for k, ws := range lines {
		if k == maxLines-1 && len(lines) > maxLines {
			rest := 0
			for _, r := range lines[k:] {
				rest += len(r)
			}
			out = append(out, fmt.Sprintf("… (%d more)", rest))
			break
		}
		out = append(out, strings.Join(ws, " "))
	}
	return out
}

// drawChart writes the chart's SVG elements (without the enclosing svg
// element) at the origin; id makes its element ids unique in a document.
// With html, steps carry data-detail attributes for the hover panel
// instead of title elements.
func drawChart(b *strings.Builder, c *Chart, g *geom, id int, inHTML bool) {
	arrow := fmt.Sprintf("msc%d-arrow", id)
	fmt.Fprintf(b, `<defs><marker id="%s" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#1f3b73"/></marker></defs>`+"\n", arrow)
	// the ruler
	rx := g.rulerW - 10
	fmt.Fprintf(b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#888"/>`+"\n", rx, headerH+8, rx, g.yEnd)
	fmt.Fprintf(b, `<text x="%d" y="%d" text-anchor="end" fill="#555">time</text>`+"\n", rx, headerH)
	for i, s := range c.Steps {
		if i == 0 || s.Time != c.Steps[i-1].Time {
			fmt.Fprintf(b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#888"/><text x="%d" y="%d" text-anchor="end" fill="#333">t=%s</text>`+"\n",
				rx-4, g.y[i], rx, g.y[i], rx-6, g.y[i]+4, queries.Rat(s.Time, c.Den))
		}
	}
	if c.FinalDelay > 0 {
		fmt.Fprintf(b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#888"/><text x="%d" y="%d" text-anchor="end" fill="#333">t=%s</text>`+"\n",
			rx-4, g.yEnd, rx, g.yEnd, rx-6, g.yEnd+4, queries.Rat(c.endTime(), c.Den))
	}
	// headers and lifelines
	for p, name := range c.Lanes {
		x, w := g.laneX[p], g.laneW[p]-12
		fmt.Fprintf(b, `<rect x="%d" y="0" width="%d" height="%d" rx="3" fill="#1f3b73"/><text x="%d" y="%d" text-anchor="middle" fill="#fff" font-weight="bold">%s</text>`+"\n",
			x-w/2, w, headerH-6, x, headerH-11, esc(name))
		fmt.Fprintf(b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#bbb" stroke-dasharray="4 3"/>`+"\n", x, headerH-6, x, g.yEnd)
	}
	// location boxes: a box from the step a lane enters a location to the
	// step it leaves it
	for p := range c.Lanes {
		x, w := g.laneX[p], g.laneW[p]-20
		start := 0
		for i := 1; i <= len(c.Steps); i++ {
			if i < len(c.Steps) && c.Steps[i].Locs[p] == c.Steps[start].Locs[p] {
				continue
			}
			y1 := g.y[start]
			y2 := g.yEnd
			if i < len(c.Steps) {
				y2 = g.y[i]
			}
			fmt.Fprintf(b, `<rect class="loc" x="%d" y="%d" width="%d" height="%d" rx="4" fill="#e8f0fc" stroke="#4a6fa5"/><text x="%d" y="%d" text-anchor="middle" fill="#1f3b73">%s</text>`+"\n",
				x-w/2, y1, w, y2-y1, x, y1+lineH+3, esc(c.Steps[start].Locs[p]))
			start = i
		}
	}
	// the cycle
	if c.Cycle > 0 && c.Cycle < len(c.Steps) {
		y1, y2 := g.y[len(c.Steps)-c.Cycle], g.y[len(c.Steps)-1]
		cx := g.lanesRight + 12
		fmt.Fprintf(b, `<path d="M%d,%d h8 V%d h-8" fill="none" stroke="#a05000" stroke-width="2"/><text x="%d" y="%d" fill="#a05000">cycle</text>`+"\n",
			cx, y1, y2, cx+12, (y1+y2)/2+4)
	}
	// the steps
	for i, s := range c.Steps {
		y := g.y[i]
		if inHTML {
			fmt.Fprintf(b, `<g class="step" data-detail="msc%d-d%d" tabindex="0">`, id, i)
		} else {
			fmt.Fprintf(b, `<g class="step"><title>%s</title>`, esc(strings.Join(stepDetail(c, i), "\n")))
		}
		fmt.Fprintf(b, `<rect class="band" x="0" y="%d" width="%d" height="%d" fill="#fff3b0" fill-opacity="0"/>`, y-10, g.width, 20)
		b.WriteString("\n")
		switch s.Kind {
		case Internal:
			x := g.laneX[s.Sender]
			fmt.Fprintf(b, `<circle cx="%d" cy="%d" r="4" fill="#333"/>`, x, y)
		case Sync, Broadcast:
			sx := g.laneX[s.Sender]
			fmt.Fprintf(b, `<circle cx="%d" cy="%d" r="4" fill="#1f3b73"/>`, sx, y)
			for _, r := range s.Receivers {
				rxp := g.laneX[r]
				fmt.Fprintf(b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#1f3b73" stroke-width="1.5" marker-end="url(#%s)"/>`, sx, y, rxp, y, arrow)
			}
			label := s.Channel
			if s.Kind == Broadcast {
				label += " (broadcast)"
			}
			lx, anchor := sx+8, "start"
			if len(s.Receivers) > 0 {
				// above the arrow to the nearest receiver
				near := g.laneX[s.Receivers[0]]
				for _, r := range s.Receivers[1:] {
					if abs(g.laneX[r]-sx) < abs(near-sx) {
						near = g.laneX[r]
					}
				}
				lx, anchor = (sx+near)/2, "middle"
			} else {
				label += ", no receiver"
			}
			fmt.Fprintf(b, `<text x="%d" y="%d" text-anchor="%s" fill="#1f3b73" font-style="italic">%s</text>`, lx, y-4, anchor, esc(label))
		}
		for k, l := range g.labels[i] {
			fmt.Fprintf(b, `<text x="%d" y="%d" fill="#6a2c70">%s</text>`, g.labelX, y+4+k*lineH, esc(l))
		}
		b.WriteString("</g>\n")
	}
	// the failing move
	if len(c.Fail) > 0 {
		y := g.yFail
		for _, e := range c.Fail {
			for p, name := range c.Lanes {
				if name == e.Process {
					x := g.laneX[p]
					fmt.Fprintf(b, `<path d="M%d,%d l10,10 m0,-10 l-10,10" stroke="#c00000" stroke-width="2"/>`, x-5, y-5)
				}
			}
		}
		for k, e := range c.Fail {
			fmt.Fprintf(b, `<text x="%d" y="%d" fill="#c00000">%s</text>`, g.labelX, y+4+k*lineH, esc("fails: "+e.String()))
		}
		b.WriteString("\n")
	}
	if c.End != "" {
		fmt.Fprintf(b, `<text x="%d" y="%d" fill="#a05000">%s</text>`+"\n", g.rulerW, g.yEnd+18, esc(c.End))
	}
}

// stepDetail is what the hover panel (HTML) or the tooltip (SVG) says of
// step i.
func stepDetail(c *Chart, i int) []string {
	s := c.Steps[i]
	var out []string
	head := fmt.Sprintf("[%d] t=%s", i, queries.Rat(s.Time, c.Den))
	if i == 0 {
		head += ", the initial state"
	} else if s.Delay > 0 {
		head += fmt.Sprintf(", after a delay of %s", queries.Rat(s.Delay, c.Den))
	}
	out = append(out, head)
	for _, e := range s.Edges {
		out = append(out, "-> "+e.String())
	}
	var locs []string
	for p, l := range s.Locs {
		if i == 0 || c.Steps[i-1].Locs[p] != l {
			locs = append(locs, c.Lanes[p]+"."+l)
		}
	}
	if len(locs) > 0 {
		out = append(out, "locations: "+strings.Join(locs, " "))
	}
	if len(s.Changes) > 0 {
		what := "changed: "
		if i == 0 {
			what = "variables: "
		}
		out = append(out, what+strings.Join(s.Changes, " "))
	}
	if len(s.Clocks) > 0 {
		out = append(out, "clocks: "+strings.Join(s.Clocks, " "))
	}
	if i == len(c.Steps)-1 && c.FinalDelay > 0 {
		out = append(out, fmt.Sprintf("then a delay of %s: clocks %s", queries.Rat(c.FinalDelay, c.Den), strings.Join(c.FinalClocks, " ")))
	}
	return out
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

package cli

import (
	"fmt"
	"io"

	"github.com/tcheck/tcheck/queries/msc"
)

// traceFormats are the values of --trace-format.
var traceFormats = []string{"text", "json", "svg", "html"}

const traceFormatUsage = "how to print traces: text, json, svg or html (svg and html: a message sequence chart of every trace, as the only output; see docs/queries.md)"

// checkTraceFormat validates --trace-format ("" when not given) against
// --json: json goes with it, text, svg and html do not.
func checkTraceFormat(format string, asJSON bool) error {
	if format == "" {
		return nil
	}
	ok := false
	for _, f := range traceFormats {
		ok = ok || f == format
	}
	if !ok {
		return fmt.Errorf("--trace-format: want text, json, svg or html, not %q", format)
	}
	if asJSON && format != "json" {
		return fmt.Errorf("--trace-format %s and --json: choose one output", format)
	}
	return nil
}

// isPicture reports whether format draws charts.
func isPicture(format string) bool { return format == "svg" || format == "html" }

// writePicture writes d as SVG or HTML.
func writePicture(w io.Writer, format string, d *msc.Document) error {
	if format == "svg" {
		return msc.WriteSVG(w, d)
	}
	return msc.WriteHTML(w, d)
}

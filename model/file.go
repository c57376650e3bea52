package model

import (
	"fmt"
	"sort"
	"strings"

	"github.com/tcheck/tcheck/model/syntax"
)

// Pos is a position in a model file: 1-based line and column (the column
// counts bytes, as Go's own tools do). File is the file name as given to
// Parse; the zero Pos is "no position".
type Pos struct {
	File      string
	Line, Col int
}

// IsValid reports whether p names a line.
func (p Pos) IsValid() bool { return p.Line > 0 }

// String formats p as file:line:col (omitting what is unknown).
func (p Pos) String() string {
	switch {
	case !p.IsValid() && p.File == "":
		return ""
	case !p.IsValid():
		return p.File
	case p.Col == 0 && p.File == "":
		return fmt.Sprintf("%d", p.Line) // the column is unknown
	case p.Col == 0:
		return fmt.Sprintf("%s:%d", p.File, p.Line)
	case p.File == "":
		return fmt.Sprintf("%d:%d", p.Line, p.Col)
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// Error is a positioned model error: parsing, checking or compiling a model
// reports exactly one of these (the first problem found), formatted as
// `file:line:col: message` so that editors can jump to it.
type Error struct {
	Pos Pos
	Msg string
}

func (e *Error) Error() string {
	if s := e.Pos.String(); s != "" {
		return s + ": " + e.Msg
	}
	return e.Msg
}

func errorf(p Pos, format string, args ...any) *Error {
	return &Error{Pos: p, Msg: fmt.Sprintf(format, args...)}
}

// Text is a snippet of UPPAAL C-like code taken from a model file (a YAML
// scalar, later an XML element) together with the map from byte offsets in
// S back to positions in the file, so that errors found by the snippet
// parser or the checker name the line and column the user wrote.
type Text struct {
	S   string
	Pos Pos // where the snippet starts in the file (the scalar's position)

	// segs maps offsets of S to file positions: the offset o maps to
	// segs[k].line, segs[k].col + (o - segs[k].off) for the last k with
	// segs[k].off <= o. nil means "S starts at Pos and has no line breaks
	// that the file does not have" (command-line queries, tests).
	segs []textSeg
}

type textSeg struct {
	off, line, col int
}

// NewText returns a snippet that starts at p and whose lines are the file's
// lines (the snippet is a verbatim copy of the file region, as for a query
// given on the command line with p = {"<query>", 1, 1}).
func NewText(s string, p Pos) Text { return Text{S: s, Pos: p} }

// TextSeg maps a byte offset of a snippet to a file position: the byte at
// Off is at Line:Col, and the bytes after it follow on the same line until
// the next segment.
type TextSeg struct {
	Off, Line, Col int
}

// NewTextSegs returns a snippet whose bytes map to file positions through
// segs (sorted by Off, the first at offset 0), for readers whose snippets
// are not verbatim copies of the file: XML text after entity references or
// CDATA sections, for example.
func NewTextSegs(s, file string, segs []TextSeg) Text {
	t := Text{S: s}
	for _, g := range segs {
		t.segs = append(t.segs, textSeg{off: g.Off, line: g.Line, col: g.Col})
	}
	if len(segs) > 0 {
		t.Pos = Pos{File: file, Line: segs[0].Line, Col: segs[0].Col}
	} else {
		t.Pos = Pos{File: file}
	}
	return t
}

// IsEmpty reports whether the snippet holds only white space.
func (t Text) IsEmpty() bool { return strings.TrimSpace(t.S) == "" }

// At maps a position reported by the syntax package for t.S to a position
// in the file.
func (t Text) At(p syntax.Pos) Pos {
	if !p.IsValid() {
		return t.Pos
	}
	off := p.Off
	if off < 0 {
		off = 0
	}
	if off > len(t.S) {
		off = len(t.S)
	}
	if t.segs == nil {
		// Verbatim: line/col relative to the start position.
		line := t.Pos.Line + p.Line - 1
		col := p.Col
		if p.Line == 1 {
			col = t.Pos.Col + p.Col - 1
		}
		return Pos{File: t.Pos.File, Line: line, Col: col}
	}
	k := sort.Search(len(t.segs), func(i int) bool { return t.segs[i].off > off }) - 1
	if k < 0 {
		return t.Pos
	}
	s := t.segs[k]
	return Pos{File: t.Pos.File, Line: s.line, Col: s.col + off - s.off}
}

// FileParam is an entry of the `parameters:` map: an integer constant of
// the model that `--set name=value` overrides.
type FileParam struct {
	Name  string
	Value int64
	Pos   Pos
}

// File is a model as written, before any checking: the format-neutral
// result of reading a model file. The YAML loader fills it, and so can
// importers of other formats (UPPAAL XML/XTA), which then share the checker
// and compiler. All slices are in file order.
type File struct {
	Path         string // the file name given to Parse, used in positions
	Name         string
	NamePos      Pos
	Params       []FileParam
	Declarations Text
	Templates    []*FileTemplate
	System       Text
	// Progress is the model's progress measure (empty: none), an integer
	// expression over the discrete state that `--order progress`
	// explores in increasing order (Network.Progress).
	Progress Text
	Queries  []*FileQuery
}

// FileTemplate is a template as written.
type FileTemplate struct {
	Name         string
	Pos          Pos
	Params       Text // the parameter list, e.g. "const pid_t id, const bool mayFail"
	Declarations Text
	Locations    []*FileLocation
	Edges        []*FileEdge
	Comment      string
}

// FileLocation is a location as written.
type FileLocation struct {
	Name      string
	Pos       Pos
	Initial   bool
	Committed bool
	Urgent    bool
	Invariant Text
	Comment   string
}

// FileEdge is an edge as written.
type FileEdge struct {
	Pos            Pos
	From, To       string
	FromPos, ToPos Pos
	Select         Text
	Guard, Sync    Text
	Update         Text
	Comment        string
}

// FileQuery is an entry of the `queries:` map.
type FileQuery struct {
	Name      string
	Pos       Pos
	Formula   Text
	Expect    string // raw: "satisfied", "violated", or a value list for sup/inf
	ExpectPos Pos
	Comment   string
	MaxStates int64 // 0 when not given
}

// Template returns the template called name, or nil.
func (f *File) Template(name string) *FileTemplate {
	for _, t := range f.Templates {
		if t.Name == name {
			return t
		}
	}
	return nil
}

// Query returns the query called name, or nil.
func (f *File) Query(name string) *FileQuery {
	for _, q := range f.Queries {
		if q.Name == name {
			return q
		}
	}
	return nil
}

package syntax

import (
	"fmt"
	"testing"
)

// Entry-point names used by the table-driven tests, the golden files and the
// fuzz targets.
const (
	kindDecls  = "decls"
	kindSystem = "system"
	kindParams = "params"
	kindExpr   = "expr"
	kindUpdate = "update"
	kindSelect = "select"
	kindSync   = "sync"
	kindQuery  = "query"
)

// parseAs runs the entry point named kind on src.
func parseAs(kind, src string) (any, error) {
	switch kind {
	case kindDecls:
		return ParseDecls(src)
	case kindSystem:
		return ParseSystem(src)
	case kindParams:
		return ParseParams(src)
	case kindExpr:
		return ParseExpr(src)
	case kindUpdate:
		return ParseUpdate(src)
	case kindSelect:
		return ParseSelect(src)
	case kindSync:
		return ParseSync(src)
	case kindQuery:
		return ParseQuery(src)
	}
	panic("unknown entry point " + kind)
}

// render prints a tree returned by parseAs, canonically or (full) with every
// operator application parenthesised.
func render(tree any, full bool) string {
	p := &printer{full: full}
	switch t := tree.(type) {
	case []Decl:
		for _, d := range t {
			p.node(d)
			p.b.WriteByte('\n')
		}
	case []*Param:
		p.params(t)
	case []Expr:
		p.exprList(t)
	case []*SelectBinding:
		for i, b := range t {
			if i > 0 {
				p.str(", ")
			}
			p.node(b)
		}
	case Node:
		p.node(t)
	default:
		panic(fmt.Sprintf("render: unexpected %T", tree))
	}
	return p.b.String()
}

// checkRoundTrip parses src as kind, prints it, parses the print and checks
// that both trees are equal (ignoring positions) and that printing is
// idempotent. It returns the canonical text.
func checkRoundTrip(t testing.TB, kind, src string) string {
	t.Helper()
	tree, err := parseAs(kind, src)
	if err != nil {
		t.Fatalf("%s %q: %v", kind, src, err)
	}
	text := render(tree, false)
	tree2, err := parseAs(kind, text)
	if err != nil {
		t.Fatalf("%s %q: printed form does not parse: %v\nprinted:\n%s", kind, src, err, text)
	}
	if d := treeDiff(tree, tree2); d != "" {
		t.Fatalf("%s %q: round trip changed the tree: %s\nprinted:\n%s", kind, src, d, text)
	}
	if text2 := render(tree2, false); text2 != text {
		t.Fatalf("%s %q: printing is not idempotent:\n%s\nthen:\n%s", kind, src, text, text2)
	}
	return text
}

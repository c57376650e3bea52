package model

import (
	"errors"

	"github.com/tcheck/tcheck/model/syntax"
)

// The snippet parsers of package syntax report positions relative to the
// snippet; these wrappers map them into the model file.

func snippetErr(t Text, err error) error {
	var se *syntax.Error
	if errors.As(err, &se) {
		return &Error{Pos: t.At(se.Pos), Msg: se.Msg}
	}
	return &Error{Pos: t.Pos, Msg: err.Error()}
}

func parseDecls(t Text) ([]syntax.Decl, error) {
	if t.IsEmpty() {
		return nil, nil
	}
	d, err := syntax.ParseDecls(t.S)
	if err != nil {
		return nil, snippetErr(t, err)
	}
	return d, nil
}

func parseSystem(t Text) ([]syntax.Decl, error) {
	d, err := syntax.ParseSystem(t.S)
	if err != nil {
		return nil, snippetErr(t, err)
	}
	return d, nil
}

func parseParams(t Text) ([]*syntax.Param, error) {
	if t.IsEmpty() {
		return nil, nil
	}
	p, err := syntax.ParseParams(t.S)
	if err != nil {
		return nil, snippetErr(t, err)
	}
	return p, nil
}

func parseExpr(t Text) (syntax.Expr, error) {
	if t.IsEmpty() {
		return nil, nil
	}
	x, err := syntax.ParseExpr(t.S)
	if err != nil {
		return nil, snippetErr(t, err)
	}
	return x, nil
}

func parseUpdate(t Text) ([]syntax.Expr, error) {
	if t.IsEmpty() {
		return nil, nil
	}
	x, err := syntax.ParseUpdate(t.S)
	if err != nil {
		return nil, snippetErr(t, err)
	}
	return x, nil
}

func parseSelect(t Text) ([]*syntax.SelectBinding, error) {
	if t.IsEmpty() {
		return nil, nil
	}
	x, err := syntax.ParseSelect(t.S)
	if err != nil {
		return nil, snippetErr(t, err)
	}
	return x, nil
}

func parseSync(t Text) (*syntax.Sync, error) {
	if t.IsEmpty() {
		return nil, nil
	}
	x, err := syntax.ParseSync(t.S)
	if err != nil {
		return nil, snippetErr(t, err)
	}
	return x, nil
}

// ParseQuery parses the formula of a query with positions in the file.
func ParseQuery(t Text) (*syntax.Query, error) {
	q, err := syntax.ParseQuery(t.S)
	if err != nil {
		return nil, snippetErr(t, err)
	}
	return q, nil
}

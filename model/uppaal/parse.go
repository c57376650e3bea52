package uppaal

import (
	"bytes"
	"errors"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/tcheck/tcheck/model"
)

// ParseFile reads a model file in any format tcheck knows, chosen by the
// extension of name: .xml is UPPAAL XML, .xta is XTA (with the queries of
// the .q file of the same base name next to it, when there is one, after
// those in the XTA file), and anything else is tcheck's YAML format
// (model.Parse) unless the content starts like XML. name is used in
// positions and to find the .q file.
func ParseFile(name string, src []byte) (*model.File, error) {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".xml":
		return ParseXML(name, src)
	case ".xta":
		qname := strings.TrimSuffix(name, filepath.Ext(name)) + ".q"
		qsrc, err := model.ReadSource(qname)
		var qs []*model.FileQuery
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return nil, err
		default:
			if qs, err = ParseQueries(qname, qsrc); err != nil {
				return nil, err
			}
		}
		return parseXTA(name, src, qs)
	case ".q":
		return nil, &model.Error{Pos: model.Pos{File: name}, Msg: "a query file is not a model: give the model (an .xta model reads the .q file next to it)"}
	}
	if t := bytes.TrimSpace(src); bytes.HasPrefix(t, []byte("<?xml")) || bytes.HasPrefix(t, []byte("<nta")) {
		return ParseXML(name, src)
	}
	return model.Parse(name, src)
}

// SetQueries replaces the queries of f by those of the query file name
// (for `--queries FILE`). A constant local to a template that was lifted
// into a parameter is no longer a member of the template's processes, so a
// new query naming it as P(1).k is an error.
func SetQueries(f *model.File, name string, src []byte) error {
	qs, err := ParseQueries(name, src)
	if err != nil {
		return err
	}
	f.Queries = qs
	return nil
}

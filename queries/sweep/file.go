package sweep

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/tcheck/tcheck/model"
	"github.com/tcheck/tcheck/zone"
)

// Resolver reads the model a sweep file refers to: ref as written in the
// file, dir the directory of the sweep file (so that relative paths are
// relative to the sweep file). The command's resolver also accepts the
// names of bundled models.
type Resolver func(ref, dir string) (ModelSource, error)

// FileResolver resolves model references as file paths, relative to the
// sweep file's directory unless absolute (no bundled models).
func FileResolver(ref, dir string) (ModelSource, error) {
	p := ref
	if !filepath.IsAbs(ref) {
		p = filepath.Join(dir, ref)
	}
	src, err := model.ReadSource(p)
	if err != nil {
		return ModelSource{}, err
	}
	return ModelSource{Ref: ref, Name: p, Src: src}, nil
}

// IsSweepFile reports whether path names a sweep file (*.sweep.yaml or
// *.sweep.yml).
func IsSweepFile(path string) bool {
	return strings.HasSuffix(path, ".sweep.yaml") || strings.HasSuffix(path, ".sweep.yml")
}

// SkippedInTest reports whether a sweep file says `options: {test: false}`:
// a long run (the paper's full tables) that `tcheck test` leaves out when it
// finds the file in a directory; named explicitly, it still runs.
func SkippedInTest(src []byte) bool {
	var doc struct {
		Options struct {
			Test *bool `yaml:"test"`
		} `yaml:"options"`
	}
	if yaml.Unmarshal(src, &doc) != nil || doc.Options.Test == nil {
		return false
	}
	return !*doc.Options.Test
}

var sweepKeys = []string{"comment", "model", "set", "queries", "grid", "where", "expect", "options"}
var optionKeys = []string{"order", "extrapolation", "global-bounds", "hull", "max-states", "timeout", "max-memory", "test"}

// ParseFile reads a sweep file (format: docs/sweep.md) and the model it
// refers to, found by resolve (FileResolver when nil). Every error names
// file:line:col.
func ParseFile(path string, src []byte, resolve Resolver) (*Spec, error) {
	if resolve == nil {
		resolve = FileResolver
	}
	var doc yaml.Node
	if err := yaml.NewDecoder(bytes.NewReader(src)).Decode(&doc); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	p := &fileParser{path: path}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, p.errf(&doc, "a sweep file is a mapping with the keys %s", strings.Join(sweepKeys, ", "))
	}
	root := doc.Content[0]
	s := &Spec{File: path, Where: &Filter{}}
	var modelNode, queriesNode, expectNode *yaml.Node
	err := p.mapping(root, "the sweep file", sweepKeys, func(key string, k, v *yaml.Node) error {
		switch key {
		case "comment":
			return p.str(v, "comment", &s.Comment)
		case "model":
			modelNode = v
			return nil
		case "set":
			return p.mapping(v, "set", nil, func(name string, k, v *yaml.Node) error {
				x, err := p.int(v, "set "+name)
				s.Set = append(s.Set, Param{name, x})
				return err
			})
		case "queries":
			queriesNode = v
			return nil
		case "grid":
			return p.grid(v, s)
		case "where":
			var w string
			if err := p.str(v, "where", &w); err != nil {
				return err
			}
			f, err := ParseFilter(w)
			if err != nil {
				return p.errf(v, "%v", err)
			}
			s.Where = f
			return nil
		case "expect":
			expectNode = v
			return nil
		case "options":
			return p.options(v, &s.Options)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if modelNode == nil {
		return nil, p.errf(root, "the sweep file names no model (model: NAME or PATH)")
	}
	if len(s.Grid) == 0 {
		return nil, p.errf(root, "the sweep file has no grid")
	}
	var ref string
	if err := p.str(modelNode, "model", &ref); err != nil {
		return nil, err
	}
	ms, err := resolve(ref, filepath.Dir(path))
	if err != nil {
		return nil, p.errf(modelNode, "model %s: %v", ref, err)
	}
	if err := s.parseModel(ms); err != nil {
		return nil, err
	}
	if queriesNode != nil {
		if err := p.queries(queriesNode, s); err != nil {
			return nil, err
		}
	}
	if expectNode != nil {
		if err := p.expect(expectNode, s); err != nil {
			return nil, err
		}
	}
	if err := s.finish(); err != nil {
		if _, ok := err.(*model.Error); ok {
			return nil, err
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

type fileParser struct {
	path string
}

func (p *fileParser) pos(n *yaml.Node) model.Pos {
	return model.Pos{File: p.path, Line: n.Line, Col: n.Column}
}

func (p *fileParser) errf(n *yaml.Node, format string, args ...any) error {
	return &model.Error{Pos: p.pos(n), Msg: fmt.Sprintf(format, args...)}
}

func (p *fileParser) mapping(n *yaml.Node, what string, allowed []string, fn func(key string, k, v *yaml.Node) error) error {
	if n.Kind != yaml.MappingNode {
		return p.errf(n, "%s must be a mapping", what)
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if seen[k.Value] {
			return p.errf(k, "%s: key %s given twice", what, k.Value)
		}
		seen[k.Value] = true
		if allowed != nil && !contains(allowed, k.Value) {
			return p.errf(k, "%s: unknown key %s (allowed: %s)", what, k.Value, strings.Join(allowed, ", "))
		}
		if err := fn(k.Value, k, v); err != nil {
			return err
		}
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (p *fileParser) str(n *yaml.Node, what string, out *string) error {
	if n.Kind != yaml.ScalarNode {
		return p.errf(n, "%s must be a string", what)
	}
	*out = n.Value
	return nil
}

func (p *fileParser) int(n *yaml.Node, what string) (int64, error) {
	if n.Kind != yaml.ScalarNode {
		return 0, p.errf(n, "%s must be an integer", what)
	}
	v, err := strconv.ParseInt(n.Value, 10, 64)
	if err != nil {
		return 0, p.errf(n, "%s: %q is not an integer", what, n.Value)
	}
	return v, nil
}

// grid reads a mapping of axes or a list of such mappings.
func (p *fileParser) grid(n *yaml.Node, s *Spec) error {
	blocks := []*yaml.Node{n}
	if n.Kind == yaml.SequenceNode {
		blocks = n.Content
		if len(blocks) == 0 {
			return p.errf(n, "grid: the list of blocks is empty")
		}
	}
	for _, bn := range blocks {
		var b Block
		err := p.mapping(bn, "grid", nil, func(name string, k, v *yaml.Node) error {
			if !isIdent(name) {
				return p.errf(k, "grid: %q is not a parameter name", name)
			}
			var vals []int64
			switch v.Kind {
			case yaml.ScalarNode:
				var err error
				if vals, err = ParseValues(v.Value); err != nil {
					return p.errf(v, "grid %s: %v", name, err)
				}
			case yaml.SequenceNode:
				for _, e := range v.Content {
					if e.Kind != yaml.ScalarNode {
						return p.errf(e, "grid %s: want integers or ranges", name)
					}
					vs, err := ParseValues(e.Value)
					if err != nil {
						return p.errf(e, "grid %s: %v", name, err)
					}
					vals = append(vals, vs...)
				}
				seen := map[int64]bool{}
				for _, x := range vals {
					if seen[x] {
						return p.errf(v, "grid %s: value %d given twice", name, x)
					}
					seen[x] = true
				}
			default:
				return p.errf(v, "grid %s: want a value, a range (0..5) or a list", name)
			}
			b = append(b, Axis{Name: name, Values: vals})
			return nil
		})
		if err != nil {
			return err
		}
		s.Grid = append(s.Grid, b)
	}
	if err := s.Grid.Validate(); err != nil {
		return p.errf(n, "%v", err)
	}
	return nil
}

// queries reads the list of queries: names of model queries, formulas, or
// single-entry mappings name: formula.
func (p *fileParser) queries(n *yaml.Node, s *Spec) error {
	if n.Kind != yaml.SequenceNode {
		return p.errf(n, "queries must be a list (of query names, formulas or name: formula)")
	}
	for i, e := range n.Content {
		switch e.Kind {
		case yaml.ScalarNode:
			q, err := QueryArg(s.ModelFile, e.Value, i+1)
			if err != nil {
				return p.errf(e, "%v", err)
			}
			if !q.FromModel {
				q.Pos = p.pos(e)
			}
			s.Queries = append(s.Queries, q)
		case yaml.MappingNode:
			if len(e.Content) != 2 || e.Content[1].Kind != yaml.ScalarNode {
				return p.errf(e, "a query given as a mapping is name: formula")
			}
			k, v := e.Content[0], e.Content[1]
			if !isQueryName(k.Value) {
				return p.errf(k, "%q is not a query name", k.Value)
			}
			s.Queries = append(s.Queries, QuerySpec{Name: k.Value, Formula: strings.TrimSpace(v.Value), Pos: p.pos(v)})
		default:
			return p.errf(e, "a query is a name, a formula or name: formula")
		}
	}
	return nil
}

func isQueryName(s string) bool {
	return namedFormula.MatchString(s + "=x")
}

// expect reads the list of rules.
func (p *fileParser) expect(n *yaml.Node, s *Spec) error {
	rules := []*yaml.Node{n}
	if n.Kind == yaml.SequenceNode {
		rules = n.Content
	}
	for _, rn := range rules {
		r := Rule{When: &Filter{}}
		err := p.mapping(rn, "expect", nil, func(key string, k, v *yaml.Node) error {
			if key == "when" {
				var w string
				if err := p.str(v, "when", &w); err != nil {
					return err
				}
				f, err := ParseFilter(w)
				if err != nil {
					return p.errf(v, "%v", err)
				}
				r.When = f
				return nil
			}
			if v.Kind != yaml.ScalarNode {
				return p.errf(v, "expect %s: want a verdict or values", key)
			}
			r.Expects = append(r.Expects, RuleExpect{Query: key, Raw: v.Value, Pos: p.pos(v)})
			return nil
		})
		if err != nil {
			return err
		}
		s.Expect = append(s.Expect, r)
	}
	return nil
}

func (p *fileParser) options(n *yaml.Node, o *Options) error {
	return p.mapping(n, "options", optionKeys, func(key string, k, v *yaml.Node) error {
		var sv string
		if err := p.str(v, key, &sv); err != nil {
			return err
		}
		switch key {
		case "order":
			order, err := zone.ParseOrder(sv)
			if err != nil {
				return p.errf(v, "order: want bfs, dfs, ranked, progress or topological, not %q", sv)
			}
			o.Order = order
		case "extrapolation":
			x, err := zone.ParseExtraKind(sv)
			if err != nil {
				return p.errf(v, "extrapolation: %v", err)
			}
			o.Extrapolation = x
		case "global-bounds":
			b, err := strconv.ParseBool(sv)
			if err != nil {
				return p.errf(v, "global-bounds: want true or false")
			}
			o.GlobalBounds = b
		case "hull":
			b, err := strconv.ParseBool(sv)
			if err != nil {
				return p.errf(v, "hull: want true or false")
			}
			o.Hull = b
		case "test":
			b, err := strconv.ParseBool(sv)
			if err != nil {
				return p.errf(v, "test: want true or false")
			}
			o.SkipInTest = !b
		case "max-states":
			x, err := p.int(v, key)
			if err != nil {
				return err
			}
			if x < 0 {
				return p.errf(v, "max-states must not be negative")
			}
			o.Limits.MaxStates = x
		case "timeout":
			d, err := time.ParseDuration(sv)
			if err != nil || d < 0 {
				return p.errf(v, "timeout: %q is not a duration (e.g. 30s, 5m)", sv)
			}
			o.Limits.Timeout = d
		case "max-memory":
			b, err := ParseBytes(sv)
			if err != nil {
				return p.errf(v, "max-memory: %v", err)
			}
			o.Limits.MaxMemory = b
		}
		return nil
	})
}

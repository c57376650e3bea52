package agreement

import (
	"bytes"
	"embed"
	"fmt"
	"path"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/tcheck/tcheck/model"
)

//go:embed timeout.yaml agreement.yaml agreement-scalar.yaml mutants/*.yaml
var files embed.FS

// Model describes a bundled model.
type Model struct {
	Name  string
	Title string
	// Base is the model a mutant patches ("" for a base model).
	Base string
	// Comment is the file's leading comment block, without the '#'.
	Comment string
}

// bases lists the base models in the order `tcheck models list` shows them.
var bases = []Model{
	{Name: "timeout", Title: "the timeout task of Attiya et al. (Hendriks, FORMATS 2005, Sect. 4)"},
	{Name: "agreement", Title: "the abstract agreement algorithm of Attiya et al. (Hendriks, FORMATS 2005, Sect. 5)"},
	{Name: "agreement-scalar", Title: "the agreement model with the process identities as a scalar set, for symmetry reduction (same answers)"},
}

// mutant is a mutant file: a patch over a base model.
type mutant struct {
	Name       string           `yaml:"name"`
	Base       string           `yaml:"base"`
	Title      string           `yaml:"title"`
	Parameters map[string]int64 `yaml:"parameters"`
	Replace    []struct {
		Old string `yaml:"old"`
		New string `yaml:"new"`
	} `yaml:"replace"`
	Expect map[string]string `yaml:"expect"`
}

// All returns the bundled models: the base models, then the mutants by name.
func All() []Model {
	out := slices.Clone(bases)
	for i := range out {
		src, _ := files.ReadFile(out[i].Name + ".yaml")
		out[i].Comment = leadingComment(src)
	}
	entries, _ := files.ReadDir("mutants")
	for _, e := range entries {
		m, src, err := readMutant(e.Name())
		if err != nil {
			continue // reported by Source and by the package tests
		}
		out = append(out, Model{Name: m.Name, Title: m.Title, Base: m.Base, Comment: leadingComment(src)})
	}
	return out
}

// Lookup returns the bundled model called name.
func Lookup(name string) (Model, bool) {
	for _, m := range All() {
		if m.Name == name {
			return m, true
		}
	}
	return Model{}, false
}

// Source returns the YAML text of a bundled model. A mutant's text is its
// base model with the replacements applied (Expand).
func Source(name string) ([]byte, error) {
	for _, b := range bases {
		if b.Name == name {
			return files.ReadFile(name + ".yaml")
		}
	}
	msrc, err := files.ReadFile(path.Join("mutants", name+".yaml"))
	if err != nil {
		return nil, fmt.Errorf("no bundled model %q", name)
	}
	return Expand(msrc, func(base string) ([]byte, error) { return files.ReadFile(base + ".yaml") })
}

// IsPatch reports whether src is a mutant file (top-level keys base and
// replace) rather than a model.
func IsPatch(src []byte) bool {
	var doc map[string]any
	if yaml.Unmarshal(src, &doc) != nil {
		return false
	}
	_, b := doc["base"]
	_, r := doc["replace"]
	return b && r
}

// Expand applies a mutant file to its base model, whose text readBase
// returns: the replacements (each must occur exactly once in the base),
// then the mutant's name, parameter defaults and expectations. The result
// is a model file, preceded by the mutant's comment.
func Expand(patch []byte, readBase func(name string) ([]byte, error)) ([]byte, error) {
	var m mutant
	dec := yaml.NewDecoder(bytes.NewReader(patch))
	dec.KnownFields(true)
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("mutant: %w", err)
	}
	base, err := readBase(m.Base)
	if err != nil {
		return nil, fmt.Errorf("mutant %s: base model %q: %w", m.Name, m.Base, err)
	}
	text := string(base)
	for _, r := range m.Replace {
		if n := strings.Count(text, r.Old); n != 1 {
			return nil, fmt.Errorf("mutant %s: %q occurs %d times in %s, want exactly once", m.Name, r.Old, n, m.Base)
		}
		text = strings.Replace(text, r.Old, r.New, 1)
	}
	f, err := model.Parse(m.Name, []byte(text))
	if err != nil {
		return nil, fmt.Errorf("mutant %s: %w", m.Name, err)
	}
	f.Name = m.Name
	for k, v := range m.Parameters {
		found := false
		for i := range f.Params {
			if f.Params[i].Name == k {
				f.Params[i].Value, found = v, true
			}
		}
		if !found {
			return nil, fmt.Errorf("mutant %s: %s has no parameter %q", m.Name, m.Base, k)
		}
	}
	for _, q := range sortedKeys(m.Expect) {
		fq := f.Query(q)
		if fq == nil {
			return nil, fmt.Errorf("mutant %s: %s has no query %q", m.Name, m.Base, q)
		}
		fq.Expect = m.Expect[q]
	}
	var b strings.Builder
	for _, line := range strings.Split(strings.TrimRight(leadingComment(patch), "\n"), "\n") {
		b.WriteString("# " + line + "\n")
	}
	fmt.Fprintf(&b, "# Generated from the model %s by tcheck (mutant %s).\n", m.Base, m.Name)
	b.Write(model.FormatYAML(f))
	return []byte(b.String()), nil
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func readMutant(file string) (*mutant, []byte, error) {
	src, err := files.ReadFile(path.Join("mutants", file))
	if err != nil {
		return nil, nil, err
	}
	var m mutant
	dec := yaml.NewDecoder(strings.NewReader(string(src)))
	dec.KnownFields(true)
	if err := dec.Decode(&m); err != nil {
		return nil, nil, fmt.Errorf("mutants/%s: %w", file, err)
	}
	return &m, src, nil
}

// leadingComment returns the comment block at the top of a YAML file.
func leadingComment(src []byte) string {
	var b strings.Builder
	for _, line := range strings.Split(string(src), "\n") {
		rest, ok := strings.CutPrefix(line, "#")
		if !ok {
			break
		}
		b.WriteString(strings.TrimPrefix(rest, " ") + "\n")
	}
	return b.String()
}

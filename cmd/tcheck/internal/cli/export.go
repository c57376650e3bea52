package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tcheck/tcheck/model"
	"github.com/tcheck/tcheck/model/dot"
	"github.com/tcheck/tcheck/model/uppaal"
)

func init() { register(newExportCmd) }

func newExportCmd(stdout, stderr io.Writer) *cobra.Command {
	var (
		to, out, template string
		maxInput          string
		sets              []string
	)
	cmd := &cobra.Command{
		Use:   "export MODEL --to xml|xta|yaml|dot [-o OUT]",
		Short: "Write a model (a file or a bundled model) for UPPAAL or Graphviz",
		Long: `Write MODEL, a model file (.yaml, .xml, .xta) or the name of a bundled model, in
another format: UPPAAL XML (--to xml, loads in UPPAAL's GUI), XTA (--to xta; with
-o FILE.xta the queries go to FILE.q), tcheck's YAML (--to yaml) or a Graphviz
drawing of the automata (--to dot; --template NAME draws one template). --set
name=value changes a parameter's value in the written model. Names UPPAAL
reserves (a location called init) are renamed, in the queries too; the renamings
are listed on stderr. See docs/uppaal.md.

Exit codes: 0 written, 2 a usage or model error.`,
		Example: `  tcheck export agreement --to xml -o agreement.xml
  tcheck export testdata/fischer.yaml --to dot --template P | dot -Tsvg > fischer.svg`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := setMaxInput(maxInput); err != nil {
				return usageErr(err)
			}
			ov, err := parseSets(sets)
			if err != nil {
				return usageErr(err)
			}
			src, name, err := readModelSource(args[0])
			if err != nil {
				return usageErr(err)
			}
			f, err := uppaal.ParseFile(name, src)
			if err != nil {
				return usageErr(err)
			}
			return writeModel(stdout, stderr, f, ov, to, out, template)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&to, "to", "", "output format: xml, xta, yaml or dot (default: from the -o extension)")
	fl.StringVarP(&out, "output", "o", "", "write to this file instead of stdout")
	fl.StringVar(&template, "template", "", "with --to dot: draw only this template")
	fl.StringArrayVar(&sets, "set", nil, "set a model parameter in the written model: --set name=value (repeatable)")
	fl.StringVar(&maxInput, "max-input", "", maxInputUsage)
	return cmd
}

// formatOf returns the --to format, or the one the output file's extension
// names.
func formatOf(to, out string) (string, error) {
	if to == "" {
		switch strings.ToLower(filepath.Ext(out)) {
		case ".xml":
			to = "xml"
		case ".xta":
			to = "xta"
		case ".yaml", ".yml":
			to = "yaml"
		case ".dot", ".gv":
			to = "dot"
		default:
			return "", fmt.Errorf("--to: give the output format (xml, xta, yaml or dot)")
		}
	}
	switch to {
	case "xml", "xta", "yaml", "dot":
		return to, nil
	}
	return "", fmt.Errorf("--to: want xml, xta, yaml or dot, not %q", to)
}

// writeModel checks f (with the parameter overrides applied) by compiling
// it, then writes it in the format to (to out, or stdout when out is "").
func writeModel(stdout, stderr io.Writer, f *model.File, overrides map[string]int64, to, out, template string) error {
	format, err := formatOf(to, out)
	if err != nil {
		return usageErr(err)
	}
	if template != "" && format != "dot" {
		return usageErr(fmt.Errorf("--template is for --to dot only"))
	}
	if err := setParams(f, overrides); err != nil {
		return usageErr(err)
	}
	if _, err := f.Compile(nil); err != nil {
		return usageErr(err)
	}
	var b []byte
	var ren []uppaal.Renaming
	switch format {
	case "yaml":
		b = uppaal.FormatYAML(f)
	case "xml":
		b, ren = uppaal.FormatXML(f)
	case "xta":
		b, ren = uppaal.FormatXTA(f)
	case "dot":
		if b, err = dot.Encode(f, template); err != nil {
			return usageErr(err)
		}
	}
	for _, r := range ren {
		fmt.Fprintf(stderr, "tcheck: renamed %s to %s (reserved in UPPAAL)\n", r.From, r.To)
	}
	if out == "" {
		if format == "xta" && len(f.Queries) > 0 {
			fmt.Fprintln(stderr, "tcheck: the queries are not written to stdout; give -o FILE.xta to write them to FILE.q")
		}
		_, err := stdout.Write(b)
		return err
	}
	if err := os.WriteFile(out, b, 0o644); err != nil {
		return usageErr(err)
	}
	if format == "xta" && len(f.Queries) > 0 {
		g, _ := uppaal.ForUPPAAL(f)
		q := strings.TrimSuffix(out, filepath.Ext(out)) + ".q"
		if err := os.WriteFile(q, uppaal.FormatQueries(g.Queries), 0o644); err != nil {
			return usageErr(err)
		}
	}
	return nil
}

// setParams replaces the values of the model's parameters.
func setParams(f *model.File, overrides map[string]int64) error {
	var unknown []string
	for name, v := range overrides {
		found := false
		for i := range f.Params {
			if f.Params[i].Name == name {
				f.Params[i].Value = v
				found = true
			}
		}
		if !found {
			unknown = append(unknown, name)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		var names []string
		for _, p := range f.Params {
			names = append(names, p.Name)
		}
		return fmt.Errorf("--set: unknown parameter %s (the model's parameters: %s)", strings.Join(unknown, ", "), strings.Join(names, ", "))
	}
	return nil
}

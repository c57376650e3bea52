package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/tcheck/tcheck/agreement"
	"github.com/tcheck/tcheck/model"
)

func init() {
	register(newModelsCmd)
	bundledModel = func(name string) ([]byte, string, bool) {
		src, err := agreement.Source(name)
		if err != nil {
			return nil, "", false
		}
		return src, name + ".yaml", true
	}
	bundledNames = func() []string {
		var names []string
		for _, m := range agreement.All() {
			names = append(names, m.Name)
		}
		return names
	}
}

func newModelsCmd(stdout, stderr io.Writer) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "models",
		Short: "List, show and export the bundled models",
		Long: `tcheck bundles the models of Hendriks, "Model Checking the Time to Reach
Agreement" (FORMATS 2005): the timeout task and the abstract agreement algorithm
of Attiya, Dwork, Lynch and Stockmeyer, and their faulty variants. Every command
that takes a model file also takes a bundled model's name, when no such file
exists: tcheck verify agreement -q termination.`,
	}
	cmd.AddCommand(&cobra.Command{
		Use:   "list",
		Short: "List the bundled models",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			w := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
			for _, m := range agreement.All() {
				if m.Base == "" {
					fmt.Fprintf(w, "%s\t%s\n", m.Name, m.Title)
				} else {
					fmt.Fprintf(w, "%s\t%s\tvariant of %s\n", m.Name, m.Title, m.Base)
				}
			}
			return w.Flush()
		},
	})
	cmd.AddCommand(&cobra.Command{
		Use:   "show NAME",
		Short: "Describe a bundled model: parameters and queries",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			m, ok := agreement.Lookup(args[0])
			if !ok {
				return usageErr(fmt.Errorf("no bundled model %q (tcheck models list)", args[0]))
			}
			src, err := agreement.Source(m.Name)
			if err != nil {
				return usageErr(err)
			}
			f, err := model.Parse(m.Name+".yaml", src)
			if err != nil {
				return usageErr(err)
			}
			fmt.Fprintf(stdout, "%s: %s\n", m.Name, m.Title)
			if m.Base != "" {
				fmt.Fprintf(stdout, "variant of %s\n", m.Base)
			}
			fmt.Fprintln(stdout)
			for _, line := range strings.Split(strings.TrimRight(m.Comment, "\n"), "\n") {
				fmt.Fprintf(stdout, "  %s\n", line)
			}
			fmt.Fprintln(stdout, "\nparameters (change with --set name=value):")
			for _, p := range f.Params {
				fmt.Fprintf(stdout, "  %s = %d\n", p.Name, p.Value)
			}
			fmt.Fprintln(stdout, "\nqueries (check with tcheck verify "+m.Name+" -q NAME):")
			w := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
			for _, q := range f.Queries {
				expect := q.Expect
				if expect == "" {
					expect = "-"
				}
				fmt.Fprintf(w, "  %s\t%s\t%s\n", q.Name, expect, strings.TrimSpace(q.Comment))
			}
			if err := w.Flush(); err != nil {
				return err
			}
			fmt.Fprintf(stdout, "\nthe model file: tcheck models export %s\n", m.Name)
			return nil
		},
	})
	var (
		sets []string
		out  string
	)
	export := &cobra.Command{
		Use:   "export NAME [--set k=v]... [-o FILE]",
		Short: "Write a bundled model's YAML file, to start a model of your own from it",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ov, err := parseSets(sets)
			if err != nil {
				return usageErr(err)
			}
			src, err := agreement.Source(args[0])
			if err != nil {
				return usageErr(fmt.Errorf("no bundled model %q (tcheck models list)", args[0]))
			}
			if len(ov) > 0 {
				// new parameter defaults: through the File, so that the
				// result is checked (the YAML comments are not kept)
				f, err := model.Parse(args[0]+".yaml", src)
				if err != nil {
					return usageErr(err)
				}
				if err := setParams(f, ov); err != nil {
					return usageErr(err)
				}
				if _, err := f.Compile(nil); err != nil {
					return usageErr(err)
				}
				src = model.FormatYAML(f)
			}
			if out == "" {
				_, err := stdout.Write(src)
				return err
			}
			if err := os.WriteFile(out, src, 0o644); err != nil {
				return usageErr(err)
			}
			return nil
		},
	}
	export.Flags().StringArrayVar(&sets, "set", nil, "set a parameter's default in the written model: --set name=value (repeatable)")
	export.Flags().StringVarP(&out, "output", "o", "", "write to this file instead of stdout")
	cmd.AddCommand(export)
	return cmd
}

// expandMutant turns a mutant file into its model: the base model is the
// file base.yaml next to the mutant file or in the directory above (as
// agreement/mutants/*.yaml sit below agreement/agreement.yaml), else the
// bundled model of that name.
func expandMutant(path string, src []byte) ([]byte, error) {
	dir := filepath.Dir(path)
	return agreement.Expand(src, func(base string) ([]byte, error) {
		for _, p := range []string{filepath.Join(dir, base+".yaml"), filepath.Join(dir, "..", base+".yaml")} {
			if b, err := os.ReadFile(p); err == nil {
				return b, nil
			}
		}
		return agreement.Source(base)
	})
}

package cli

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/tcheck/tcheck/model"
	"github.com/tcheck/tcheck/model/uppaal"
)

func init() { register(newConvertCmd) }

func newConvertCmd(stdout, stderr io.Writer) *cobra.Command {
	var to, out, maxInput string
	cmd := &cobra.Command{
		Use:   "convert IN --to yaml|xml|xta [-o OUT]",
		Short: "Convert a model file between YAML, UPPAAL XML and XTA",
		Long: `Read the model file IN (tcheck's YAML, UPPAAL XML or XTA with its .q file, by
extension) and write it in another format: --to yaml, xml or xta (or dot). With
-o FILE.xta the queries go to FILE.q. The model is checked first; names UPPAAL
reserves are renamed for xml and xta (listed on stderr). See docs/uppaal.md.

Exit codes: 0 written, 2 a usage or model error.`,
		Example: `  tcheck convert fischer.xml --to yaml -o fischer.yaml
  tcheck convert testdata/fischer.yaml -o fischer.xta   # also writes fischer.q`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := setMaxInput(maxInput); err != nil {
				return usageErr(err)
			}
			src, err := model.ReadSource(args[0])
			if err != nil {
				return usageErr(err)
			}
			f, err := uppaal.ParseFile(args[0], src)
			if err != nil {
				return usageErr(err)
			}
			return writeModel(stdout, stderr, f, nil, to, out, "")
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&to, "to", "", "output format: yaml, xml or xta (default: from the -o extension)")
	fl.StringVarP(&out, "output", "o", "", "write to this file instead of stdout")
	fl.StringVar(&maxInput, "max-input", "", maxInputUsage)
	return cmd
}

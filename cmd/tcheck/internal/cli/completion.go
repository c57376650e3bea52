package cli

import (
	"strings"

	"github.com/spf13/cobra"
)

// addCompletions gives the commands shell completion (cobra's `tcheck
// completion bash|zsh|fish|powershell` scripts call it): model arguments
// complete to the bundled models' names or to model files by extension,
// -q to the query names of the model already given, and the flags with a
// fixed set of values to those values.
func addCompletions(root *cobra.Command) {
	fixed := map[string][]string{
		"order":         {"bfs", "dfs", "ranked", "progress", "topological"},
		"extrapolation": {"lu+", "lu", "m+", "m", "none"},
		"format":        {"table", "csv", "json", "jsonl"},
		"strategy":      {"random", "pct"},
	}
	for _, cmd := range root.Commands() {
		switch cmd.Name() {
		case "verify", "sweep", "export", "convert", "simulate":
			if cmd.ValidArgsFunction == nil {
				cmd.ValidArgsFunction = completeModelArg
			}
		}
		for name, values := range fixed {
			if cmd.Flags().Lookup(name) != nil {
				_ = cmd.RegisterFlagCompletionFunc(name, cobra.FixedCompletions(values, cobra.ShellCompDirectiveNoFileComp))
			}
		}
		if cmd.Flags().Lookup("to") != nil {
			to := []string{"yaml", "xml", "xta"}
			if cmd.Name() == "export" {
				to = append(to, "dot")
			}
			_ = cmd.RegisterFlagCompletionFunc("to", cobra.FixedCompletions(to, cobra.ShellCompDirectiveNoFileComp))
		}
		if cmd.Flags().Lookup("query") != nil && (cmd.Name() == "verify" || cmd.Name() == "simulate") {
			_ = cmd.RegisterFlagCompletionFunc("query", completeQueryName)
		}
	}
}

// completeModelArg completes the first argument: the bundled models whose
// name starts with what is typed, or else files with a model's extension.
func completeModelArg(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	var names []string
	for _, n := range bundledNames() {
		if strings.HasPrefix(n, toComplete) {
			names = append(names, n)
		}
	}
	if len(names) > 0 && !strings.ContainsAny(toComplete, "/.") {
		return names, cobra.ShellCompDirectiveNoFileComp
	}
	return []string{"yaml", "xml", "xta"}, cobra.ShellCompDirectiveFilterFileExt
}

// completeQueryName completes -q with the query names of the model given
// as the first argument.
func completeQueryName(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	if len(args) == 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	src, name, err := readModelSource(args[0])
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	f, err := parseModelFile(name, src)
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	var out []string
	for _, q := range f.Queries {
		if strings.HasPrefix(q.Name, toComplete) {
			out = append(out, q.Name)
		}
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}

package cli

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"
)

// Version is the tcheck version, overridable at link time with
// -ldflags "-X github.com/tcheck/tcheck/cmd/tcheck/internal/cli.Version=...".
var Version = "0.1.0-dev"

// Exit codes shared by every command.
const (
	ExitOK       = 0 // all as expected / satisfied
	ExitViolated = 1 // a property violated or an expectation missed
	ExitUsage    = 2 // usage or model error
)

// exitError carries an exit code through cobra's error return.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// commands holds the constructors of the subcommands; each command's file
// registers itself in an init function, so commands are added without
// touching this file.
var commands []func(stdout, stderr io.Writer) *cobra.Command

func register(mk func(stdout, stderr io.Writer) *cobra.Command) { commands = append(commands, mk) }

func newRoot(stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:           "tcheck",
		Short:         "A timed-automata model checker for partially synchronous protocols",
		Version:       Version,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetOut(stdout)
	root.SetErr(stderr)
	// tcheck without a command is a usage error (exit 2), with the help on
	// stderr, as for any other usage error.
	root.Args = cobra.NoArgs
	root.RunE = func(cmd *cobra.Command, args []string) error {
		cmd.SetOut(stderr)
		_ = cmd.Help()
		return usageErr(errors.New("no command given"))
	}
	for _, mk := range commands {
		root.AddCommand(mk(stdout, stderr))
	}
	addCompletions(root)
	return root
}

// Main runs tcheck with args and returns the process exit code.
func Main(args []string, stdout, stderr io.Writer) int {
	root := newRoot(stdout, stderr)
	root.SetArgs(args)
	err := root.Execute()
	if err == nil {
		return ExitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil && ee.err.Error() != "" {
			fmt.Fprintln(stderr, "tcheck:", ee.err)
		}
		return ee.code
	}
	fmt.Fprintln(stderr, "tcheck:", err)
	return ExitUsage
}

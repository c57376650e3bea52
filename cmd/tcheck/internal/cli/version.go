package cli

import (
	"fmt"
	"io"
	"runtime/debug"

	"github.com/spf13/cobra"
)

func init() { register(newVersionCmd) }

// versionText is the version line: tcheck's version, then what the Go
// build recorded (module version, VCS revision and time, whether the tree
// was modified, the Go version).
func versionText() string {
	s := "tcheck " + Version
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return s
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		s += " (module " + v + ")"
	}
	settings := map[string]string{}
	for _, kv := range info.Settings {
		settings[kv.Key] = kv.Value
	}
	if rev := settings["vcs.revision"]; rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		s += ", revision " + rev
		if settings["vcs.modified"] == "true" {
			s += " (modified)"
		}
		if t := settings["vcs.time"]; t != "" {
			s += ", " + t
		}
	}
	return s + ", " + info.GoVersion
}

func newVersionCmd(stdout, stderr io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version, the VCS revision and the Go version of this build",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			fmt.Fprintln(stdout, versionText())
			return nil
		},
	}
}

package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// docCommand is a tcheck command line found in a fenced shell block.
type docCommand struct {
	file, line string
	args       []string
	wantExit0  bool // the comment says "exit 0"
}

// docCommands extracts the tcheck command lines of the fenced shell blocks
// of README.md and docs/*.md (continuation lines joined, comments cut).
func docCommands(t *testing.T) []docCommand {
	files, _ := filepath.Glob(filepath.Join(repoRoot, "docs", "*.md"))
	files = append([]string{filepath.Join(repoRoot, "README.md")}, files...)
	var out []docCommand
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		inBlock, shell := false, false
		var pending string
		for _, line := range strings.Split(string(b), "\n") {
			trim := strings.TrimSpace(line)
			if strings.HasPrefix(trim, "```") {
				if !inBlock {
					lang := strings.TrimPrefix(trim, "```")
					shell = lang == "" || lang == "sh" || lang == "bash" || lang == "shell" || lang == "console"
				}
				inBlock = !inBlock
				pending = ""
				continue
			}
			if !inBlock || !shell {
				continue
			}
			if strings.HasSuffix(trim, "\\") {
				pending += strings.TrimSuffix(trim, "\\") + " "
				continue
			}
			trim, pending = pending+trim, ""
			trim = strings.TrimPrefix(trim, "$ ")
			trim = strings.TrimPrefix(trim, "go run ./cmd/tcheck ")
			rest, ok := strings.CutPrefix(trim, "tcheck ")
			if !ok {
				continue
			}
			cmd, comment, _ := strings.Cut(rest, " #")
			args, ok := shellWords(cmd)
			if !ok {
				continue
			}
			out = append(out, docCommand{file: filepath.Base(f), line: trim, args: args, wantExit0: strings.Contains(comment, "exit 0")})
		}
	}
	return out
}

// shellWords splits a command line as a shell would for the simple lines
// of the docs (quotes, no expansion); false for what it cannot run alone
// (pipes, redirections, variables, globs, placeholders).
func shellWords(s string) ([]string, bool) {
	var words []string
	var cur strings.Builder
	in := false
	var quote rune
	for _, r := range s {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '\'' || r == '"':
			quote, in = r, true
		case r == ' ' || r == '\t':
			if in {
				words = append(words, cur.String())
				cur.Reset()
				in = false
			}
		case strings.ContainsRune("|><;&$*[", r):
			return nil, false
		default:
			cur.WriteRune(r)
			in = true
		}
	}
	if in {
		words = append(words, cur.String())
	}
	for _, w := range words {
		// placeholders of the docs' synopses and generic file names
		if w == "MODEL" || w == "FILE..." || w == "FILE.sweep.yaml" || strings.HasPrefix(w, "model.") || w == "models/" || w == "[flags]" || strings.HasPrefix(w, "TRACE.json") {
			return nil, false
		}
	}
	return words, len(words) > 0
}

// slowDocCommands are documented commands that take minutes (the paper's
// tables, full checks of the agreement model): they are run by hand, not
// by go test.
var slowDocCommands = []string{
	"test agreement/",
	"agreement/paper/",
	"--hull",                        // agreement at d = 1: ten seconds
	"sweep agreement -q worst-time", // four points of agreement: ten seconds
	"detection=sup",                 // the timeout sweep with the detection delay: a minute
	"--order progress",              // agreement-scalar at d = 10: twenty seconds
}

// TestDocsCommandsRun runs the quick tcheck commands of README.md and
// docs/*.md as a user would, from a directory that has the repository's
// testdata and agreement folders: every one must run (exit 0 or 1; exit 0
// where the comment says so), never stop on a usage or model error.
func TestDocsCommandsRun(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the documented commands")
	}
	root, err := filepath.Abs(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, sub := range []string{"testdata", "agreement"} {
		if err := os.Symlink(filepath.Join(root, sub), filepath.Join(dir, sub)); err != nil {
			t.Fatal(err)
		}
	}
	cmds := docCommands(t)
	t.Chdir(dir)
	ran := 0
	for _, c := range cmds {
		slow := false
		for _, s := range slowDocCommands {
			if strings.Contains(strings.Join(c.args, " "), s) {
				slow = true
			}
		}
		if slow {
			continue
		}
		ran++
		t.Run(c.file+": "+c.line, func(t *testing.T) {
			args := append(c.args, "--no-progress")
			if c.args[0] != "verify" && c.args[0] != "sweep" {
				args = c.args
			}
			code, out, errOut := run(args...)
			if code == 2 || code > 2 || (c.wantExit0 && code != 0) {
				t.Fatalf("exit %d\n%s%s", code, out, errOut)
			}
		})
	}
	t.Logf("%d documented commands run, %d found", ran, len(cmds))
	if ran < 10 {
		t.Fatalf("only %d documented commands run: is the extraction broken?", ran)
	}
}

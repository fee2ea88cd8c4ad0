package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/testtool"
)

// helpOf runs the real command line with args and returns what it printed on
// standard output, so the reference shows exactly what a user sees.
func helpOf(t *testing.T, args ...string) string {
	t.Helper()
	var out, errb bytes.Buffer
	if code := Main(args, strings.NewReader(""), &out, &errb); code != exitOK {
		t.Fatalf("prosewash %s: exit %d, stderr %q", strings.Join(args, " "), code, errb.String())
	}
	return out.String()
}

// commandsDoc renders docs/commands.md from the help texts.
func commandsDoc(t *testing.T) string {
	var b strings.Builder
	b.WriteString("# Command reference\n\n")
	b.WriteString("Generated from the help texts (`prosewash help COMMAND`, `prosewash wash COMMAND --help`) by\n")
	b.WriteString("`go test ./internal/cli -run TestCommandsDoc -update`; edit the help texts in `internal/cli`, not\n")
	b.WriteString("this page. Conventions shared by every command: [cli.md](cli.md).\n")
	section := func(title, text string) {
		fmt.Fprintf(&b, "\n## %s\n\n```text\n%s```\n", title, text)
	}
	top := strings.Replace(helpOf(t, "--help"), "prosewash "+Version()+":", "prosewash:", 1)
	section("prosewash", top)
	for _, c := range commands() {
		if c.hidden || c.name == "help" {
			continue
		}
		section("prosewash "+c.name, helpOf(t, "help", c.name))
		if c.name == "wash" {
			for _, w := range washCommands() {
				section("prosewash wash "+w.name, helpOf(t, "wash", w.name, "--help"))
			}
		}
	}
	return b.String()
}

// TestCommandsDoc keeps docs/commands.md equal to the help texts, the way
// TestKeysDoc keeps KEYS.md equal to the configuration's key table.
func TestCommandsDoc(t *testing.T) {
	got := commandsDoc(t)
	path := filepath.Join(testtool.RepoRoot(t), "docs", "commands.md")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(want) != got {
		t.Error("docs/commands.md is out of date: run go test ./internal/cli -run TestCommandsDoc -update")
	}
}

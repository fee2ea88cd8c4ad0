package cli

import (
	"bytes"
	"strings"
	"testing"
)

// TestHelpEverywhere walks every command and wash subcommand: -h and --help
// print that command's help on standard output, nothing on standard error,
// and exit 0, wherever they sit among the other arguments.
func TestHelpEverywhere(t *testing.T) {
	type tc struct {
		args  []string
		usage string
	}
	var cases []tc
	for _, c := range commands() {
		if c.name == "help" {
			continue
		}
		for _, h := range []string{"-h", "--help"} {
			cases = append(cases, tc{[]string{c.name, h}, "usage: prosewash " + c.name + " "})
			if c.name != "wash" { // "wash x" is an unknown wash command
				cases = append(cases, tc{[]string{c.name, "x", h, "y"}, "usage: prosewash " + c.name + " "})
			}
		}
	}
	for _, w := range washCommands() {
		for _, h := range []string{"-h", "--help"} {
			cases = append(cases, tc{[]string{"wash", w.name, h}, "usage: prosewash wash " + w.name + " "})
			cases = append(cases, tc{[]string{"wash", w.name, "--json", h}, "usage: prosewash wash " + w.name + " "})
		}
		cases = append(cases, tc{[]string{"help", "wash", w.name}, "usage: prosewash wash " + w.name + " "})
	}
	for _, c := range cases {
		var out, errb bytes.Buffer
		code := Main(c.args, strings.NewReader(""), &out, &errb)
		if code != exitOK || !strings.HasPrefix(out.String(), c.usage) || errb.Len() != 0 {
			t.Errorf("prosewash %s: exit %d, stdout %.60q, stderr %q", strings.Join(c.args, " "), code, out.String(), errb.String())
		}
	}
}

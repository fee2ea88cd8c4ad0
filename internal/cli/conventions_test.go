package cli

import (
	"bytes"
	"regexp"
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
		// The whole usage line, with no trailing blank when a command
		// takes no arguments.
		usage := strings.TrimSpace("usage: prosewash "+c.name+" "+c.usage()) + "\n"
		if c.name == "wash" { // wash prints its own usage, listing its commands
			usage = "usage: prosewash wash "
		}
		for _, h := range []string{"-h", "--help"} {
			cases = append(cases, tc{[]string{c.name, h}, usage})
			if c.name != "wash" { // "wash x" is an unknown wash command
				cases = append(cases, tc{[]string{c.name, "x", h, "y"}, usage})
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

// TestUsageLinesNameEveryOption: install's and uninstall's usage lines name
// every option their help documents (an agent flag added to the hook table
// reaches both), and hook's names every platform its help documents.
func TestUsageLinesNameEveryOption(t *testing.T) {
	for _, c := range commands() {
		if c.name != "install" && c.name != "uninstall" && c.name != "hook" {
			continue
		}
		h := helpTopic{[]string{c.name}, "", c.summary, c.help}
		opts, _ := h.options()
		usage := c.usage()
		for _, o := range opts {
			if o != "--help" && o != "--session" && !strings.Contains(usage, "["+o+"]") && !strings.Contains(usage, "["+o+" ") {
				t.Errorf("usage: prosewash %s %s: lacks %s, which its help documents", c.name, usage, o)
			}
		}
		for _, m := range regexp.MustCompile(`(?m)^  prosewash hook ([a-z]+) `).FindAllStringSubmatch(c.help, -1) {
			if !strings.Contains(usage, m[1]) {
				t.Errorf("usage: prosewash hook %s: lacks %s, which its help documents", usage, m[1])
			}
		}
	}
}

package cli

// Output contract, followed by every command and hook:
//
//   - Human messages go to standard error, each line prefixed "prosewash: ",
//     lowercase, no trailing period. Errors read "prosewash: error: ...",
//     warnings "prosewash: warning: ...", hints "prosewash: hint: ...".
//   - Standard output carries only machine output: hook JSON, --json reports,
//     "classify --show" and "check" findings (they are the command's answer).
//   - Colour only through fatih/color, off when NO_COLOR is set, when the
//     stream is not a terminal (auto) or with --color=never.
//   - Nothing ever prints file contents.

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/fatih/color"
	"github.com/mattn/go-isatty"
)

type ui struct {
	stdout, stderr io.Writer
	colour         bool
	red, yellow    *color.Color
	cyan, green    *color.Color
	bold           *color.Color
}

func newUI(stdout, stderr io.Writer, mode string) *ui {
	u := &ui{stdout: stdout, stderr: stderr}
	switch mode {
	case "always":
		u.colour = true
	case "never":
		u.colour = false
	default:
		u.colour = isTerminal(stderr) && os.Getenv("NO_COLOR") == "" && os.Getenv("TERM") != "dumb"
	}
	mk := func(a ...color.Attribute) *color.Color {
		c := color.New(a...)
		if u.colour {
			c.EnableColor()
		} else {
			c.DisableColor()
		}
		return c
	}
	u.red, u.yellow, u.cyan, u.green, u.bold = mk(color.FgRed), mk(color.FgYellow), mk(color.FgCyan), mk(color.FgGreen), mk(color.Bold)
	return u
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	return isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd())
}

func (u *ui) line(label string, c *color.Color, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	for _, l := range strings.Split(strings.TrimRight(msg, "\n"), "\n") {
		if label != "" {
			fmt.Fprintf(u.stderr, "prosewash: %s %s\n", c.Sprint(label+":"), l)
		} else {
			fmt.Fprintf(u.stderr, "prosewash: %s\n", l)
		}
	}
}

func (u *ui) infof(format string, args ...any)  { u.line("", nil, format, args...) }
func (u *ui) errorf(format string, args ...any) { u.line("error", u.red, format, args...) }
func (u *ui) warnf(format string, args ...any)  { u.line("warning", u.yellow, format, args...) }
func (u *ui) hintf(format string, args ...any)  { u.line("hint", u.cyan, format, args...) }

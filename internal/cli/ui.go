package cli

// Output contract, followed by every command and hook:
//
//   - Human messages go to standard error, each line prefixed "prosewash: ",
//     lowercase, no trailing period. Errors read "prosewash: error: ...",
//     warnings "prosewash: warning: ...", hints "prosewash: hint: ...".
//   - Standard output carries only machine output: hook JSON, --json reports,
//     "classify --show" and "check" findings (they are the command's answer).
//   - Colour only through the ui's styles (ANSI SGR), off when NO_COLOR is
//     set, when TERM is dumb or the stream is not a terminal (auto), or with
//     --color=never.
//   - Nothing ever prints file contents.

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/mattn/go-isatty"
)

type ui struct {
	stdout, stderr io.Writer
	colour         bool
	red, yellow    style
	cyan, green    style
	bold           style
}

// style is one ANSI SGR style: the sequence that starts it and the one that
// ends it (0 after a colour, 22 after bold, as fatih/color wrote them before
// this replaced it). A ui without colour has empty styles, which print the
// text as it is. Local rather than a library: a colour library's package
// initialisers (a terminal probe of stdout, its tables) ran at every hook's
// start, and no hook prints colour.
type style struct{ on, off string }

func (s style) Sprint(text string) string {
	if s.on == "" {
		return text
	}
	return s.on + text + s.off
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
	if u.colour {
		enableEscapes(stderr)
		u.red, u.yellow, u.cyan = style{"\x1b[31m", "\x1b[0m"}, style{"\x1b[33m", "\x1b[0m"}, style{"\x1b[36m", "\x1b[0m"}
		u.green, u.bold = style{"\x1b[32m", "\x1b[0m"}, style{"\x1b[1m", "\x1b[22m"}
	}
	return u
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	return isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd())
}

func (u *ui) line(label string, c style, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	for _, l := range strings.Split(strings.TrimRight(msg, "\n"), "\n") {
		if label != "" {
			fmt.Fprintf(u.stderr, "prosewash: %s %s\n", c.Sprint(label+":"), l)
		} else {
			fmt.Fprintf(u.stderr, "prosewash: %s\n", l)
		}
	}
}

func (u *ui) infof(format string, args ...any)  { u.line("", style{}, format, args...) }
func (u *ui) errorf(format string, args ...any) { u.line("error", u.red, format, args...) }
func (u *ui) warnf(format string, args ...any)  { u.line("warning", u.yellow, format, args...) }
func (u *ui) hintf(format string, args ...any)  { u.line("hint", u.cyan, format, args...) }

package cli

import (
	"fmt"
	"io"
	"strings"
)

func runMan(e *env, args []string) error {
	if len(args) != 0 {
		return usagef("man takes no arguments")
	}
	writeMan(e.stdout, release, helpTopics())
	return nil
}

// writeMan writes the prosewash(1) page in roff (man macros) from the help
// texts: every command with its synopsis, summary and help, then the
// environment and the exit status, so the page can never say other than
// 'prosewash help'.
func writeMan(w io.Writer, version string, topics []helpTopic) {
	fmt.Fprintf(w, ".TH PROSEWASH 1 2026-12-01 %s \"User Commands\"\n", roffQuote("prosewash "+version))
	fmt.Fprintf(w, ".SH NAME\nprosewash \\- clean what AI coding agents write, without becoming a new source of bugs\n")
	fmt.Fprintf(w, ".SH SYNOPSIS\n.B prosewash\n%s\n", roffText("[--color auto|always|never] COMMAND [ARGS]"))
	fmt.Fprintf(w, ".SH DESCRIPTION\n%s\n", roffText("prosewash removes invisible Unicode carriers (zero-width characters, bidi controls, tag characters, smuggling variation selectors, exotic spaces) from the prose regions of the files an agent wrote, never from code, directives or literals, and keeps the memory files agents load lean without losing a fact. Human messages go to standard error with a 'prosewash:' prefix; standard output carries only machine output. Every command takes -h and --help."))
	fmt.Fprintf(w, ".SH COMMANDS\n")
	for _, t := range topics {
		fmt.Fprintf(w, ".SS %s\n%s\n", roffQuote(strings.TrimSpace("prosewash "+t.name()+" "+t.args)), roffText(t.summary+"."))
		if t.help != "" {
			fmt.Fprintf(w, ".PP\n.nf\n%s\n.fi\n", roffText(t.help))
		}
	}
	for _, section := range []string{envHelp, exitStatusHelp} {
		title, body, _ := strings.Cut(section, "\n")
		fmt.Fprintf(w, ".SH %s\n.nf\n%s\n.fi\n", title, roffText(body))
	}
	fmt.Fprintf(w, ".SH SEE ALSO\n%s\n", roffText("git(1), the documentation at https://github.com/prosewash/prosewash/tree/main/docs"))
}

// roffText escapes text for roff: backslashes, hyphens (which roff would
// set as typographic hyphens, breaking copied options), characters beyond
// ASCII (as \[uXXXX], which every roff reads) and a '.' or an apostrophe that would
// start a line as a request.
func roffText(s string) string {
	s = strings.NewReplacer(`\`, `\e`, "-", `\-`).Replace(s)
	var b strings.Builder
	for _, r := range s {
		if r > 0x7e {
			fmt.Fprintf(&b, `\[u%04X]`, r)
			continue
		}
		b.WriteRune(r)
	}
	s = b.String()
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, ".") || strings.HasPrefix(l, "'") {
			lines[i] = `\&` + l
		}
	}
	return strings.Join(lines, "\n")
}

// roffQuote is one macro argument: escaped and double-quoted.
func roffQuote(s string) string {
	return `"` + strings.ReplaceAll(roffText(s), `"`, `\(dq`) + `"`
}

package config

import (
	"fmt"
	"strings"
)

// wrapHint ends every refusal of a shell construct: commands run without a
// shell, so the only honest way to get one is a script the project owns.
const wrapHint = `commands run without a shell: wrap it in a script your project owns (e.g. test = ["sh", "scripts/check.sh"])`

// shellOperators are words a shell would read as control or redirection
// operators. In an argv they would reach the program as literal arguments,
// which is never what their author meant.
var shellOperators = [...]string{
	"|", "||", "|&", "&", "&&", ";", ";;",
	">", ">>", ">|", "<", "<<", "<<<", "<>",
	"2>", "2>>", "2>&1", "1>", "1>>", ">&", "<&", "&>", "&>>",
}

// CommandError refuses a command: a shell construct, an unterminated quote,
// an empty program.
type CommandError struct {
	Word string // the offending word, if any
	Msg  string
}

func (e *CommandError) Error() string {
	if e.Word != "" {
		return fmt.Sprintf("%q: %s", e.Word, e.Msg)
	}
	return e.Msg
}

func isOperator(w string) bool {
	for _, op := range shellOperators {
		if w == op {
			return true
		}
	}
	return false
}

// looksLikeRedirect reports whether w starts like a shell redirection with
// its target glued on ("2>/dev/null", ">out", "&>log").
func looksLikeRedirect(w string) bool {
	s := strings.TrimLeft(w, "0123456789")
	return strings.HasPrefix(s, ">") || strings.HasPrefix(s, "<") ||
		strings.HasPrefix(w, "&>") || (s != w && strings.HasPrefix(s, ">&"))
}

// CheckArgv refuses an argv that only makes sense to a shell: an operator
// such as |, &&, ; or 2>&1 as a word, or a word that is a redirection.
// Everything else is passed to the program as given.
func CheckArgv(argv []string) error {
	if len(argv) == 0 {
		return &CommandError{Msg: "empty command"}
	}
	if argv[0] == "" {
		return &CommandError{Msg: "empty program name"}
	}
	for _, w := range argv {
		if isOperator(w) {
			return &CommandError{Word: w, Msg: "is a shell operator; " + wrapHint}
		}
		if looksLikeRedirect(w) {
			return &CommandError{Word: w, Msg: "is a shell redirection; " + wrapHint}
		}
	}
	return nil
}

// SplitWords splits s into words the way a POSIX shell splits a simple
// command, without any expansion: blanks separate words, single quotes keep
// everything literally, double quotes keep everything but \" \\ \$ \`, and
// a backslash outside quotes escapes the next character. Anything a shell
// would expand or interpret (operators, $, backquotes, globs, a leading ~
// or #) is refused rather than passed on literally.
func SplitWords(s string) ([]string, error) {
	var (
		words  []string
		cur    strings.Builder
		inWord bool
	)
	end := func() {
		if inWord {
			words = append(words, cur.String())
			cur.Reset()
			inWord = false
		}
	}
	// plain records an unquoted character and refuses shell syntax.
	plain := func(r byte) error {
		switch r {
		case '|', '&', ';', '<', '>', '(', ')':
			return &CommandError{Msg: fmt.Sprintf("shell operator %q in the command; %s", shellWordAt(s, rune(r)), wrapHint)}
		case '$', '`':
			return &CommandError{Msg: fmt.Sprintf("%q would be expanded by a shell, and commands run without one; quote it with single quotes to pass it literally, or %s", string(r), wrapHint)}
		case '*', '?', '[':
			return &CommandError{Msg: fmt.Sprintf("%q is a glob, and nothing expands it without a shell; quote it to pass it literally, or %s", string(r), wrapHint)}
		case '~', '#':
			if !inWord {
				what := "home-directory expansion"
				if r == '#' {
					what = "a comment"
				}
				return &CommandError{Msg: fmt.Sprintf("a leading %q means %s to a shell, and commands run without one; quote it to pass it literally", string(r), what)}
			}
		}
		cur.WriteByte(r)
		inWord = true
		return nil
	}
	// Bytes, not runes: every special character is ASCII, and a byte walk
	// keeps any other byte exactly as written.
	rs := s
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch r {
		case ' ', '\t', '\n', '\r':
			end()
		case '\\':
			if i+1 >= len(rs) {
				return nil, &CommandError{Msg: "the command ends with a lone backslash"}
			}
			i++
			if rs[i] == '\n' { // a line continuation
				continue
			}
			cur.WriteByte(rs[i])
			inWord = true
		case '\'':
			j := i + 1
			for j < len(rs) && rs[j] != '\'' {
				j++
			}
			if j >= len(rs) {
				return nil, &CommandError{Msg: "unterminated single quote"}
			}
			cur.WriteString(rs[i+1 : j])
			inWord = true
			i = j
		case '"':
			j := i + 1
			for ; j < len(rs) && rs[j] != '"'; j++ {
				switch rs[j] {
				case '\\':
					if j+1 < len(rs) && strings.IndexByte("\"\\$`\n", rs[j+1]) >= 0 {
						j++
						if rs[j] != '\n' {
							cur.WriteByte(rs[j])
						}
						continue
					}
				case '$', '`':
					return nil, &CommandError{Msg: fmt.Sprintf("%q inside double quotes would be expanded by a shell, and commands run without one; use single quotes to pass it literally", string(rs[j]))}
				}
				cur.WriteByte(rs[j])
			}
			if j >= len(rs) {
				return nil, &CommandError{Msg: "unterminated double quote"}
			}
			inWord = true
			i = j
		default:
			if err := plain(r); err != nil {
				return nil, err
			}
		}
	}
	end()
	return words, nil
}

// shellWordAt returns the run of operator characters around the first
// occurrence of r, with a file-descriptor number in front of a redirection
// ("2>&1"), so the message shows what was written.
func shellWordAt(s string, r rune) string {
	i := strings.IndexRune(s, r)
	if i < 0 {
		return string(r)
	}
	const ops = "|&;<>()"
	start, end := i, i+1
	for start > 0 && strings.IndexByte(ops, s[start-1]) >= 0 {
		start--
	}
	for end < len(s) && (strings.IndexByte(ops, s[end]) >= 0 || (s[end] >= '0' && s[end] <= '9' && s[end-1] == '&')) {
		end++
	}
	if s[start] == '>' || s[start] == '<' {
		for start > 0 && s[start-1] >= '0' && s[start-1] <= '9' {
			start--
		}
	}
	return s[start:end]
}

// ParseCommand turns a configured command into an argv: a string is split
// with [SplitWords], an argv is taken as given; both are then checked with
// [CheckArgv]. An empty string or list means "no command" (nil, nil).
func ParseCommand(v any) ([]string, error) {
	var argv []string
	switch x := v.(type) {
	case string:
		if strings.TrimSpace(x) == "" {
			return nil, nil
		}
		w, err := SplitWords(x)
		if err != nil {
			return nil, err
		}
		argv = w
	case []string:
		argv = x
	case []any:
		for i, e := range x {
			s, ok := e.(string)
			if !ok {
				return nil, &CommandError{Msg: fmt.Sprintf("element %d is a %s; every element must be a string", i+1, tomlType(e))}
			}
			argv = append(argv, s)
		}
	default:
		return nil, &CommandError{Msg: fmt.Sprintf("want an argv array of strings or a string, got a %s", tomlType(v))}
	}
	if len(argv) == 0 {
		return nil, nil
	}
	if err := CheckArgv(argv); err != nil {
		return nil, err
	}
	return argv, nil
}

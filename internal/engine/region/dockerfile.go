package region

import (
	"bytes"
	"strings"
	"unicode"
)

// The Dockerfile classifier reads lines the way BuildKit's parser does
// (moby/buildkit frontend/dockerfile/parser): lines end at \n only, with
// trailing \r dropped; a line whose first character that is not
// unicode.IsSpace (NBSP and U+2028 included) is '#' is a comment, also
// between the continuation lines of an instruction, where BuildKit drops it;
// parser directives (# syntax=, # escape=, # check=) are comments at the very
// top, before any other line; a '#' after an instruction's keyword belongs
// to its arguments. The one place a '#' line is not a comment is a
// here-document body (RUN <<EOF ... EOF), so body lines are runtime, and
// where the terminator could be read several ways the body runs to the
// latest reading.

// dockerfileName reports whether a base name is a Dockerfile's: Dockerfile,
// Containerfile, Dockerfile.* and Containerfile.* (unless the extension
// names another language: Dockerfile.md is Markdown), *.Dockerfile and
// *.Containerfile, in any case.
func dockerfileName(base string) string {
	lower := strings.ToLower(base)
	for _, name := range [...]string{"dockerfile", "containerfile"} {
		if lower == name || strings.HasPrefix(lower, name+".") || strings.HasSuffix(lower, "."+name) {
			return "dockerfile"
		}
	}
	return ""
}

// dockerLine is one physical line: [start, end) without its \n; text drops
// trailing \r and \n as BuildKit's trimNewline does.
type dockerLine struct {
	start, end, next int
	text             []byte
}

func dockerLines(src []byte) []dockerLine {
	var out []dockerLine
	for i := 0; i < len(src); {
		e := bytes.IndexByte(src[i:], '\n')
		next := len(src)
		if e < 0 {
			e = len(src)
		} else {
			e += i
			next = e + 1
		}
		out = append(out, dockerLine{start: i, end: e, next: next, text: bytes.TrimRight(src[i:e], "\r\n")})
		i = next
	}
	return out
}

// trimSpaceFunc drops leading unicode.IsSpace runes, as BuildKit does.
func trimSpaceFunc(s []byte) []byte {
	return bytes.TrimLeftFunc(s, unicode.IsSpace)
}

func classifyDockerfile(src []byte) (*Map, error) {
	b := NewBuilder(len(src))
	lines := dockerLines(src)
	esc := byte('\\')
	zone := true // still among the parser directives at the top
	for n := 0; n < len(lines); n++ {
		ln := lines[n]
		text := ln.text
		off := ln.start
		if n == 0 && bytes.HasPrefix(text, []byte("\ufeff")) {
			text, off = text[3:], off+3
		}
		trimmed := trimSpaceFunc(text)
		hash := off + len(text) - len(trimmed)
		if zone {
			if _, ok := matchAfterRemoval(trimmed, func(t []byte) (string, bool) {
				return "", bytes.HasPrefix(t, []byte("#!"))
			}); ok && n == 0 {
				// BuildKit's syntax detection skips a shebang line.
				markHashComment(b, src, hash, ln.end, Directive, "directive: shebang")
				continue
			}
			if name, value, ok := dockerDirective(trimmed); ok {
				if name == "escape" {
					if value != "\\" && value != "`" {
						w := NewBuilder(len(src))
						w.Mark(0, len(src), Runtime, "invalid escape directive at "+lineCol(src, hash))
						return w.Map("dockerfile"), nil
					}
					esc = value[0]
				}
				markHashComment(b, src, hash, ln.end, Directive, "directive: # "+name+"=")
				continue
			}
			if _, ok := matchAfterRemoval(trimmed, func(t []byte) (string, bool) {
				_, _, ok := dockerDirective(t)
				return "", ok
			}); ok {
				markHashComment(b, src, hash, ln.end, Directive, "directive: parser directive")
				continue
			}
			zone = false
		}
		if len(trimmed) == 0 {
			continue
		}
		if trimmed[0] == '#' {
			dockerComment(b, src, hash, ln.end)
			continue
		}
		// An instruction: gather its continuation lines.
		var logical []byte
		part, more := dockerContinued(trimmed, esc)
		logical = append(logical, part...)
		for more && n+1 < len(lines) {
			n++
			c := lines[n]
			ct := trimSpaceFunc(c.text)
			if len(ct) > 0 && ct[0] == '#' {
				dockerComment(b, src, c.start+len(c.text)-len(ct), c.end)
				continue
			}
			if len(ct) == 0 {
				continue
			}
			part, more = dockerContinued(c.text, esc)
			logical = append(logical, part...)
		}
		if bytes.Contains(logical, []byte("<<")) {
			n = dockerHeredocs(b, lines, n, logical)
		}
	}
	return b.Map("dockerfile"), nil
}

// dockerComment classifies the comment line from '#' at hash to end.
func dockerComment(b *Builder, src []byte, hash, end int) {
	text := src[hash:lineEnd(src[:end], hash)]
	k, why := Prose, "comment"
	if w, ok := matchAfterRemoval(text, dockerCommentDirective); ok {
		k, why = Directive, w
	}
	markHashComment(b, src, hash, end, k, why)
}

var dockerKeywords = [...]hashKeyword{
	{"hadolint", "directive: # hadolint"},
}

func dockerWordWhy(string) string { return "directive: word:" }

func dockerCommentDirective(t []byte) (string, bool) {
	if why, ok := hashDirective(t, dockerKeywords[:], dockerWordWhy); ok {
		return why, true
	}
	return hashDirective(t, commonHashKeywords[:], dockerWordWhy)
}

// dockerDirective matches BuildKit's parser directive on a line that starts
// with '#': ^#\s*([a-zA-Z][a-zA-Z0-9]*)\s*=\s*(.+?)\s*$ with \s ASCII, after
// unicode.IsSpace after the '#', for the keys BuildKit knows.
func dockerDirective(line []byte) (name, value string, ok bool) {
	if len(line) == 0 || line[0] != '#' {
		return "", "", false
	}
	s := trimSpaceFunc(line[1:])
	k := 0
	for k < len(s) && (isASCIILetter(s[k]) || (k > 0 && s[k] >= '0' && s[k] <= '9')) {
		k++
	}
	if k == 0 {
		return "", "", false
	}
	key := strings.ToLower(string(s[:k]))
	rest := bytes.TrimLeft(s[k:], " \t\n\f\r")
	if len(rest) == 0 || rest[0] != '=' {
		return "", "", false
	}
	rest = rest[1:]
	if len(rest) == 0 || bytes.IndexByte(rest, '\n') >= 0 {
		return "", "", false
	}
	switch key {
	case "syntax", "escape", "check":
	default:
		return "", "", false
	}
	v := bytes.Trim(rest, " \t\n\f\r")
	if len(v) == 0 {
		v = rest[len(rest)-1:]
	}
	return key, string(v), true
}

func isASCIILetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// dockerContinued reports whether line ends with BuildKit's continuation:
// the escape character, not itself escaped, then only blanks; part is the
// line without it.
func dockerContinued(line []byte, esc byte) (part []byte, more bool) {
	t := bytes.TrimRight(line, " \t")
	if len(t) == 0 || t[len(t)-1] != esc {
		return line, false
	}
	if len(t) >= 2 && t[len(t)-2] == esc {
		return line, false
	}
	return t[:len(t)-1], true
}

// dockerHeredocs marks the here-document bodies that follow the instruction
// ending at line n and returns the index of the last line consumed.
func dockerHeredocs(b *Builder, lines []dockerLine, n int, logical []byte) int {
	for _, cands := range heredocCandidates(logical) {
		if n+1 >= len(lines) {
			break
		}
		first := n + 1
		last := -1 // the terminator line: the latest first match among the readings
		for _, c := range cands {
			found := -1
			for m := first; m < len(lines); m++ {
				t := lines[m].text
				if c.chomp {
					t = bytes.TrimLeft(t, "\t")
				}
				if string(t) == c.name {
					found = m
					break
				}
			}
			if found < 0 {
				last = len(lines)
				break
			}
			last = max(last, found)
		}
		if last < 0 {
			continue
		}
		end := lines[len(lines)-1].next
		if last < len(lines) {
			end = lines[last].start
		}
		b.Mark(lines[first].start, end, Runtime, "here-document")
		n = min(last, len(lines)-1)
	}
	return n
}

type heredocName struct {
	name  string
	chomp bool
}

// heredocCandidates returns, for each "<<" in an instruction, the names its
// terminator may have: the word after it with quotes and backslashes
// removed (as BuildKit's shell lexer reads it), and the next word when
// blanks follow the "<<" (bash's reading; BuildKit sees no heredoc there).
// Taking the latest terminator among the readings keeps a body from ending
// early.
func heredocCandidates(line []byte) [][]heredocName {
	var out [][]heredocName
	for i := 0; i+1 < len(line); i++ {
		if line[i] != '<' || line[i+1] != '<' {
			continue
		}
		j := i + 2
		for j < len(line) && line[j] == '<' {
			j++ // "<<<" is a here-string in bash; BuildKit still sees "<<"
		}
		chomp := false
		if j < len(line) && line[j] == '-' {
			chomp = true
			j++
		}
		var cands []heredocName
		add := func(s string) {
			if s == "" {
				return
			}
			for _, c := range cands {
				if c.name == s {
					return
				}
			}
			cands = append(cands, heredocName{s, chomp})
		}
		raw, k := heredocWord(line, j)
		add(unquoteWord(raw))
		if len(raw) == 0 {
			for k < len(line) && (line[k] == ' ' || line[k] == '\t') {
				k++
			}
			raw, _ = heredocWord(line, k)
			add(unquoteWord(raw))
		}
		if len(cands) > 0 {
			out = append(out, cands)
		}
		i = j - 1
	}
	return out
}

// heredocWord returns the word starting at j: up to an unquoted blank.
func heredocWord(line []byte, j int) ([]byte, int) {
	k := j
	var quote byte
	for k < len(line) {
		c := line[k]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '\\' && k+1 < len(line):
			k++
		case c == ' ' || c == '\t':
			return line[j:k], k
		}
		k++
	}
	return line[j:k], k
}

// unquoteWord removes quotes and backslash escapes from a shell word.
func unquoteWord(w []byte) string {
	var sb strings.Builder
	var quote byte
	for k := 0; k < len(w); k++ {
		c := w[k]
		switch {
		case quote != 0 && c == quote:
			quote = 0
		case quote == 0 && (c == '\'' || c == '"'):
			quote = c
		case c == '\\' && quote != '\'' && k+1 < len(w):
			k++
			sb.WriteByte(w[k])
		default:
			sb.WriteByte(c)
		}
	}
	return sb.String()
}

package frontmatter

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// State is the tri-state outcome of looking for a front matter block.
type State int

const (
	// None means the file provably has no front matter block.
	None State = iota
	// Closed means a complete block was found and delimited.
	Closed
	// Unverifiable means the head of the file could hide a block that this parser cannot read
	// with certainty; callers must treat the file as pinned.
	Unverifiable
)

// String names the state for reports.
func (s State) String() string {
	switch s {
	case None:
		return "none"
	case Closed:
		return "closed"
	default:
		return "unverifiable"
	}
}

// headWindow bounds the bytes inspected for NUL and replacement characters, as the original did
// for its first 64 characters; a wider window costs nothing and catches more binary files.
const headWindow = 64

// Result describes the front matter of one file.
type Result struct {
	State State
	// Keys are the top-level keys read, in order of appearance, without duplicates.
	Keys []string
	// Pinned is true when any `pinned` key whose value is not false/no/off appears in the block.
	Pinned bool
	// Unreadable is true when some line of a closed block could not be accounted for; the keys
	// read so far are kept for the gate but the file must not be rewritten.
	Unreadable bool
	// Reason explains Unverifiable or Unreadable in a few words (never file content).
	Reason string
	// BOM is true when one leading U+FEFF was stripped before parsing.
	BOM bool
	// End is the byte offset just past the closing fence line's terminator (0 unless Closed).
	End int
	// EndLine is the number of lines the block occupies including both fences (0 unless Closed).
	EndLine int
}

// Refuse reports whether a file with this front matter must not be modified, and why.
// Pins refuse by intent; an unverifiable or unreadable head refuses by incapacity.
func (r Result) Refuse() (bool, string) {
	switch {
	case r.Pinned:
		return true, "pinned"
	case r.State == Unverifiable:
		return true, "front matter unverifiable: " + r.Reason
	case r.Unreadable:
		return true, "front matter unreadable: " + r.Reason
	}
	return false, ""
}

// Parse inspects the head of text for a front matter block.
func Parse(text []byte) Result {
	var r Result
	off := 0
	if bytes.HasPrefix(text, bom) {
		r.BOM = true
		off = len(bom)
		if bytes.HasPrefix(text[off:], bom) {
			return unverifiable(r, "second byte order mark")
		}
	}
	head := text[off:min(len(text), off+headWindow)]
	if bytes.IndexByte(head, 0) >= 0 {
		return unverifiable(r, "NUL byte in head")
	}
	if bytes.Contains(head, replacement) || !validPrefix(head) {
		return unverifiable(r, "undecodable head")
	}
	body := text[off:]
	// Leading blank lines before a fence are read by no common parser as front matter, but a
	// pin hidden behind them must not be missed: only a first line that is not a fence earns None.
	first, firstEnd, _ := nextLine(body, 0)
	if len(bytes.TrimSpace(first)) == 0 && firstEnd < len(body) {
		rest := skipBlankLines(body, firstEnd)
		l, _, _ := nextLine(body, rest)
		if bytes.Equal(stripInvisible(l), []byte("---")) {
			return unverifiable(r, "fence after leading blank lines")
		}
		return r
	}
	if bytes.IndexByte(first, '\r') >= 0 && bytes.HasPrefix(stripInvisible(first), []byte("---")) {
		return unverifiable(r, "bare CR in fence line")
	}
	if !bytes.HasPrefix(first, []byte("---")) {
		if isFenceLike(first) {
			return unverifiable(r, "invisible characters around fence")
		}
		return r
	}
	tail := first[3:]
	switch fenceTail(tail) {
	case tailProse:
		return r
	case tailOdd:
		return unverifiable(r, "non-ASCII fence tail")
	}
	return parseBlock(r, body, firstEnd, off)
}

var (
	bom         = []byte{0xEF, 0xBB, 0xBF}
	replacement = []byte{0xEF, 0xBF, 0xBD}
)

func unverifiable(r Result, reason string) Result {
	r.State = Unverifiable
	r.Reason = reason
	r.Keys = nil
	return r
}

// validPrefix accepts a head that is valid UTF-8 except for a rune cut at the window's end.
func validPrefix(b []byte) bool {
	for i := 0; i < len(b); {
		c, n := utf8.DecodeRune(b[i:])
		if c == utf8.RuneError && n <= 1 {
			return !utf8.FullRune(b[i:])
		}
		i += n
	}
	return true
}

// nextLine returns the line starting at off without its terminator, the offset of the next
// line, and the terminator ("\n", "\r\n" or "" at end of input).
func nextLine(b []byte, off int) ([]byte, int, string) {
	i := bytes.IndexByte(b[off:], '\n')
	if i < 0 {
		return b[off:], len(b), ""
	}
	line := b[off : off+i]
	if n := len(line); n > 0 && line[n-1] == '\r' {
		return line[:n-1], off + i + 1, "\r\n"
	}
	return line, off + i + 1, "\n"
}

func skipBlankLines(b []byte, off int) int {
	for off < len(b) {
		l, next, _ := nextLine(b, off)
		if len(bytes.TrimSpace(l)) != 0 {
			return off
		}
		off = next
	}
	return off
}

// stripInvisible drops format and control characters so that a fence disguised with a
// zero-width character is still recognised as a fence.
func stripInvisible(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); {
		c, n := utf8.DecodeRune(b[i:])
		if !invisible(c) {
			out = append(out, b[i:i+n]...)
		}
		i += n
	}
	return out
}

func invisible(c rune) bool {
	switch {
	case c == '\r' || c == '\t' || c == ' ':
		return true
	case c < 0x20 || c == 0x7f:
		return true
	case c == 0xFEFF || c == 0x00A0 || c == 0x00AD || c == 0x034F:
		return true
	case c >= 0x200B && c <= 0x200F, c >= 0x202A && c <= 0x202E, c >= 0x2060 && c <= 0x206F:
		return true
	case c >= 0xFE00 && c <= 0xFE0F, c >= 0xE0000 && c <= 0xE007F:
		return true
	}
	return false
}

// isFenceLike reports a line that reads as "---" once invisible characters are removed but is
// not literally a clean fence; such a line could be a disguised front matter opener.
func isFenceLike(line []byte) bool {
	s := stripInvisible(line)
	return bytes.Equal(s, []byte("---")) && !bytes.Equal(bytes.TrimRight(line, " \t"), []byte("---"))
}

type tailKind int

const (
	tailFence tailKind = iota
	tailProse
	tailOdd
)

// fenceTail classifies what follows "---" on the first line: nothing (or spaces) is a fence,
// printable ASCII makes it prose (a thematic break or text), anything else is suspicious.
func fenceTail(t []byte) tailKind {
	if len(bytes.Trim(t, " \t")) == 0 {
		return tailFence
	}
	for _, c := range t {
		if c >= 0x21 && c <= 0x7e {
			return tailProse
		}
	}
	return tailOdd
}

func isClose(line []byte) bool {
	t := bytes.TrimRight(line, " \t")
	return bytes.Equal(t, []byte("---")) || bytes.Equal(t, []byte("..."))
}

// parseBlock reads the lines after the opening fence up to the closing fence.
func parseBlock(r Result, body []byte, start, bomLen int) Result {
	off := start
	var lines [][]byte
	closed := false
	for off < len(body) {
		l, next, _ := nextLine(body, off)
		if bytes.IndexByte(l, '\r') >= 0 {
			return unverifiable(r, "bare CR in block")
		}
		if isClose(l) {
			closed = true
			r.End = bomLen + next
			r.EndLine = len(lines) + 2
			break
		}
		if isFenceLike(l) {
			return unverifiable(r, "invisible characters around closing fence")
		}
		lines = append(lines, l)
		off = next
	}
	if !closed {
		return unverifiable(r, "unclosed block")
	}
	r.State = Closed
	readKeys(&r, lines)
	return r
}

// readKeys accounts for every line of the block: top-level keys are collected; a line that is
// not a key, comment, sequence item, blank, block-scalar body or nested key marks the block
// unreadable. Pin detection deliberately over-approximates (any indentation, any case).
func readKeys(r *Result, lines [][]byte) {
	root := -1
	scalarIndent := -1 // indent of the key owning an open block scalar
	seen := map[string]bool{}
	for _, raw := range lines {
		line := string(raw)
		if pinLine(line) {
			r.Pinned = true
		}
		trimmed := strings.TrimLeft(line, " \t")
		if trimmed == "" {
			continue
		}
		indentPart := line[:len(line)-len(trimmed)]
		indent := len(indentPart)
		if scalarIndent >= 0 {
			if indent > scalarIndent {
				continue
			}
			scalarIndent = -1
		}
		if strings.ContainsRune(indentPart, '\t') {
			markUnreadable(r, "tab indentation")
			continue
		}
		if strings.HasPrefix(trimmed, "#") {
			continue
		}
		if trimmed == "-" || strings.HasPrefix(trimmed, "- ") {
			if root >= 0 && indent < root {
				markUnreadable(r, "sequence less indented than root")
			}
			continue
		}
		key, value, ok := splitKey(trimmed)
		if !ok {
			if root >= 0 && indent > root {
				// A more-indented plain line continues a multi-line scalar; YAML allows it,
				// and it carries no key.
				continue
			}
			markUnreadable(r, "line is not a key")
			continue
		}
		if root < 0 {
			root = indent
		}
		if indent < root {
			markUnreadable(r, "key less indented than root")
			continue
		}
		if isBlockScalar(value) {
			scalarIndent = indent
		}
		if indent != root {
			continue
		}
		if !asciiKey(key) {
			markUnreadable(r, "non-ASCII top-level key")
			continue
		}
		if !seen[key] {
			seen[key] = true
			r.Keys = append(r.Keys, key)
		}
	}
}

func markUnreadable(r *Result, reason string) {
	if !r.Unreadable {
		r.Unreadable = true
		r.Reason = reason
	}
}

// splitKey splits "key: value" at the first colon followed by whitespace or end of line. Keys
// that start with a YAML indicator are refused: they denote structures this parser does not read.
func splitKey(s string) (key, value string, ok bool) {
	if s == "" || strings.ContainsRune("{[&*!|>%@?`,]}", rune(s[0])) {
		return "", "", false
	}
	if s[0] == '"' || s[0] == '\'' {
		q := s[0]
		end := strings.IndexByte(s[1:], q)
		if end < 0 {
			return "", "", false
		}
		rest := s[end+2:]
		if !strings.HasPrefix(rest, ":") || (len(rest) > 1 && rest[1] != ' ' && rest[1] != '\t') {
			return "", "", false
		}
		return s[1 : end+1], strings.TrimSpace(rest[1:]), true
	}
	for i := 0; i < len(s); i++ {
		if s[i] != ':' {
			continue
		}
		if i+1 == len(s) || s[i+1] == ' ' || s[i+1] == '\t' {
			k := strings.TrimRight(s[:i], " \t")
			if k == "" {
				return "", "", false
			}
			return k, strings.TrimSpace(s[i+1:]), true
		}
	}
	return "", "", false
}

func isBlockScalar(v string) bool {
	if i := strings.Index(v, " #"); i >= 0 {
		v = strings.TrimSpace(v[:i])
	}
	if v == "" {
		return false
	}
	if v[0] != '|' && v[0] != '>' {
		return false
	}
	for _, c := range v[1:] {
		if c != '-' && c != '+' && (c < '1' || c > '9') {
			return false
		}
	}
	return true
}

func asciiKey(k string) bool {
	for i := 0; i < len(k); i++ {
		if k[i] < 0x20 || k[i] > 0x7e {
			return false
		}
	}
	return true
}

// pinLine reports a `pinned` key at any indentation whose value is not false/no/off. An empty
// value is YAML null; it is treated as a pin because the author clearly meant something.
func pinLine(line string) bool {
	t := strings.TrimLeft(line, " \t-")
	t = strings.Trim(t, "\"'")
	if len(t) < 6 || !strings.EqualFold(t[:6], "pinned") {
		return false
	}
	rest := strings.TrimLeft(t[6:], "\"' \t")
	if !strings.HasPrefix(rest, ":") {
		return false
	}
	v := strings.TrimSpace(rest[1:])
	if i := strings.Index(v, "#"); i >= 0 {
		v = strings.TrimSpace(v[:i])
	}
	v = strings.ToLower(strings.Trim(v, "\"' "))
	switch v {
	case "false", "no", "off", "n", "0":
		return false
	}
	return true
}

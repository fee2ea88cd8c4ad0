package region

import (
	"bytes"
	"unicode"
	"unicode/utf8"
)

// A comment that a tool would read once its invisible carriers were removed
// must be treated as that tool's directive now: the cleaner is about to remove
// those carriers. The helpers below compute what a comment would look like
// after removal. They deliberately remove more than the carrier policy does
// (every Cf, every default-ignorable, every control but tab and line breaks,
// invalid bytes, whole ANSI sequences), because matching too many directives
// only makes the tool more timid.

// asSpace reports runes the policy turns into U+0020.
func asSpace(r rune) bool {
	return r == 0x85 || r == 0x2028 || r == 0x2029 || unicode.Is(unicode.Zs, r)
}

// carrierRune reports runes the policy may delete outright.
func carrierRune(r rune) bool {
	switch {
	case r == '\t' || r == '\n' || r == '\r':
		return false // never removed: tab is text, line breaks are structure
	case r < 0x20 || (r >= 0x7f && r < 0xa0):
		return true
	case r == 0x2800 || r == 0xfffc:
		return true
	case r < 0xa0:
		return false
	}
	return unicode.In(r, unicode.Cf, unicode.Other_Default_Ignorable_Code_Point, unicode.Variation_Selector)
}

// hasCarrier reports whether withoutCarriers could change s.
func hasCarrier(s []byte) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < 0x80 {
			if c < 0x20 && c != '\t' && c != '\n' && c != '\r' || c == 0x7f {
				return true
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(s[i:])
		if (r == utf8.RuneError && size <= 1) || asSpace(r) || carrierRune(r) {
			return true
		}
		i += size
	}
	return false
}

// withoutCarriers returns s with carriers deleted and exotic spaces turned into
// U+0020. With ansi set, escape sequences (ESC [ ... final, ESC ] ... BEL or
// ST, ESC x, and their C1 forms) are deleted whole instead of only their
// control character.
func withoutCarriers(s []byte, ansi bool) []byte {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRune(s[i:])
		if r == utf8.RuneError && size <= 1 {
			i++
			continue
		}
		if ansi && (r == 0x1b || r == 0x9b || r == 0x9d) {
			i = skipEscape(s, i, r, size)
			continue
		}
		switch {
		case asSpace(r):
			out = append(out, ' ')
		case carrierRune(r):
		default:
			out = append(out, s[i:i+size]...)
		}
		i += size
	}
	return out
}

// skipEscape returns the offset after the escape sequence starting at i.
func skipEscape(s []byte, i int, r rune, size int) int {
	j := i + size
	kind := byte(0)
	switch {
	case r == 0x9b:
		kind = '['
	case r == 0x9d:
		kind = ']'
	case j < len(s) && (s[j] == '[' || s[j] == ']'):
		kind = s[j]
		j++
	case j < len(s) && s[j] >= 0x20 && s[j] < 0x7f:
		return j + 1
	default:
		return j
	}
	if kind == '[' {
		for j < len(s) {
			c := s[j]
			if c >= 0x40 && c <= 0x7e {
				return j + 1
			}
			if c < 0x20 || c >= 0x7f {
				return j // malformed: the sequence ends before this byte
			}
			j++
		}
		return j
	}
	for j < len(s) {
		if s[j] == 0x07 {
			return j + 1
		}
		if s[j] == 0x1b && j+1 < len(s) && s[j+1] == '\\' {
			return j + 2
		}
		j++
	}
	return j
}

// forms holds a comment as written and the forms it could take once its
// carriers were removed; computing them once lets every rule share them.
type forms struct {
	n int
	f [3][]byte
}

func carrierForms(s []byte) forms {
	fs := forms{n: 1}
	fs.f[0] = s
	if !hasCarrier(s) {
		return fs
	}
	fs.f[1] = withoutCarriers(s, false)
	fs.n = 2
	if bytes.IndexByte(s, 0x1b) >= 0 || bytes.Contains(s, []byte{0xc2, 0x9b}) || bytes.Contains(s, []byte{0xc2, 0x9d}) {
		fs.f[2] = withoutCarriers(s, true)
		fs.n = 3
	}
	return fs
}

// match returns the first hit of m over the forms.
func (fs *forms) match(m func([]byte) (string, bool)) (string, bool) {
	for _, s := range fs.f[:fs.n] {
		if why, ok := m(s); ok {
			return why, true
		}
	}
	return "", false
}

// matchAfterRemoval runs match on s as written and on every form s could take
// once carriers were removed, and returns the first hit.
func matchAfterRemoval(s []byte, match func([]byte) (string, bool)) (string, bool) {
	fs := carrierForms(s)
	return fs.match(match)
}

func isSpaceByte(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

func trimSpaceLeft(s []byte) []byte {
	for len(s) > 0 && isSpaceByte(s[0]) {
		s = s[1:]
	}
	return s
}

func isWordStart(c byte) bool {
	return c == '_' || (c|0x20 >= 'a' && c|0x20 <= 'z')
}

func isWordByte(c byte) bool {
	return isWordStart(c) || (c >= '0' && c <= '9') || c == '.' || c == '-'
}

// wordColon matches the seed's directive shape on a comment body (the text
// after the comment marker): \s*-?\*?-?\s*([A-Za-z_][A-Za-z0-9_.-]*)\s*:
// and returns the word. It covers "type: ignore", "pylint: disable",
// "-*- coding: utf-8 -*-", "go:build", "cspell:words". A conventional prose
// label ("Note:", "TODO:", "Deprecated:", see proseLabels) is not a
// directive: people write it for people, and no tool changes what it does
// because of one.
func wordColon(body []byte) (string, bool) {
	word, ok := labelWord(body)
	if !ok || isProseLabel(word) {
		return "", false
	}
	return string(word), true
}

// labelWord returns the word of the "word:" shape at the start of body.
func labelWord(body []byte) ([]byte, bool) {
	s := trimSpaceLeft(body)
	if len(s) > 0 && s[0] == '-' {
		s = s[1:]
	}
	if len(s) > 0 && s[0] == '*' {
		s = s[1:]
	}
	if len(s) > 0 && s[0] == '-' {
		s = s[1:]
	}
	s = trimSpaceLeft(s)
	if len(s) == 0 || !isWordStart(s[0]) {
		return nil, false
	}
	n := 1
	for n < len(s) && isWordByte(s[n]) {
		n++
	}
	word := s[:n]
	rest := trimSpaceLeft(s[n:])
	if len(rest) > 0 && rest[0] == ':' {
		return word, true
	}
	// No backtracking is needed: the word class holds neither spaces nor ':',
	// so a shorter word is always followed by a word byte.
	return nil, false
}

// proseLabels open a paragraph of a comment for its readers. Go's
// "Deprecated:" is among them: tools show its paragraph to people, so its
// text is prose (whether a comment *becomes* one is the classifier's
// business: see proseLabel).
var proseLabels = [...]string{
	"note", "notes", "nb", "todo", "fixme", "xxx", "hack", "bug", "deprecated",
	"example", "examples", "returns", "args", "raises", "see", "warning",
	"warnings", "caution", "important", "hint", "tip",
}

// isProseLabel reports whether w is a prose label written in lower case,
// upper case or with one capital (Note, NOTE, note; not nOTE).
func isProseLabel(w []byte) bool {
	if len(w) < 2 || len(w) > 10 {
		return false
	}
	upper := w[1] >= 'A' && w[1] <= 'Z'
	if upper && w[0] >= 'a' {
		return false
	}
	var low [10]byte
	for i, c := range w {
		isUp := c >= 'A' && c <= 'Z'
		if i > 0 && isUp != upper {
			return false
		}
		if c < 'A' || (c > 'Z' && c < 'a') || c > 'z' {
			return false
		}
		low[i] = c | 0x20
	}
	for _, l := range proseLabels {
		if l == string(low[:len(w)]) {
			return true
		}
	}
	return false
}

// proseLabel returns the prose label that opens a comment body ("Note:",
// "TODO(rsc):"), or "". Classifiers put it in the region's reason, so a
// carrier whose removal would make a label appear or vanish changes the
// reason and the engine keeps it: "Deprecat<ZWSP>ed:" does not silently
// become a deprecation notice that tools act on.
func proseLabel(body []byte) string {
	if w, ok := labelWord(body); ok && isProseLabel(w) {
		return string(w) + ":"
	}
	s := trimSpaceLeft(body)
	n := 0
	for n < len(s) && (s[n]|0x20 >= 'a' && s[n]|0x20 <= 'z') {
		n++
	}
	if n == 0 || n >= len(s) || s[n] != '(' || !isProseLabel(s[:n]) {
		return ""
	}
	k := bytes.IndexByte(s[n:], ')')
	if k > 1 && n+k+1 < len(s) && s[n+k+1] == ':' {
		return string(s[:n]) + "(...):"
	}
	return ""
}

// commentWhy is the reason of a prose comment: "comment", or
// "comment (Note:)" when a prose label opens it.
func commentWhy(body []byte) string {
	if l := proseLabel(body); l != "" {
		return "comment (" + l + ")"
	}
	return "comment"
}

// hasPrefixFold reports whether s starts with the ASCII word prefix, ignoring case.
func hasPrefixFold(s []byte, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		a, b := s[i], prefix[i]
		if a >= 'A' && a <= 'Z' {
			a += 'a' - 'A'
		}
		if a != b {
			return false
		}
	}
	return true
}

// lineEnd returns the offset of the first \n or \r at or after i, or len(src).
func lineEnd(src []byte, i int) int {
	for j := i; j < len(src); j++ {
		if c := src[j]; c == '\n' || c == '\r' {
			return j
		}
	}
	return len(src)
}

// afterLineBreak returns the offset just after the line break at i (\n, \r\n
// or \r); i must hold \n or \r.
func afterLineBreak(src []byte, i int) int {
	if src[i] == '\r' && i+1 < len(src) && src[i+1] == '\n' {
		return i + 2
	}
	return i + 1
}

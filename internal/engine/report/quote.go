package report

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Quote makes a file name safe to print on a line of text output. A name
// holding a control character (a newline could forge a second finding),
// a backslash or a double quote, a Unicode format character (a bidi
// override could reorder what the reader sees) or invalid UTF-8 is put in
// double quotes with C-style escapes, the way git quotes paths; any other
// name is returned as it is. JSON output never needs this.
func Quote(name string) string {
	q, changed := Escape(name, func(r rune) bool { return r == '"' || r == '\\' }, cEscape)
	if !changed {
		return name
	}
	return `"` + q + `"`
}

// Escape is the one place that decides what must not reach a terminal or a
// log raw: every rune Unsafe reports, every byte of invalid UTF-8 (passed
// as utf8.RuneError with its one raw byte) and every rune also reports is
// written by esc, in the escape syntax of the output at hand (Quote's
// C-style escapes, the percent escapes of GitHub's workflow commands, JSON's
// \u); the rest is copied. changed is false, and s returned as it is, when
// nothing needed escaping.
func Escape(s string, also func(rune) bool, esc func(b *strings.Builder, r rune, raw string)) (out string, changed bool) {
	first := escapeIndex(s, also)
	if first < 0 {
		return s, false
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:first])
	for i := first; i < len(s); {
		r, n := decode(s[i:])
		if needsEscape(r, n, also) {
			esc(&b, r, s[i:i+n])
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String(), true
}

// escapeIndex returns the offset of the first rune Escape must escape, or
// -1. Without also, printable ASCII is passed over eight bytes at a time
// (a JSON report is mostly that: a byte at a time cost 16 instructions a
// byte of "prosewash check --json" on GOROOT), else a byte at a time.
func escapeIndex(s string, also func(rune) bool) int {
	for i := 0; i < len(s); {
		if also == nil {
			if i += printablePrefix(s[i:]); i == len(s) {
				break
			}
		}
		if c := s[i]; c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f || (also != nil && also(rune(c))) {
				return i
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if needsEscape(r, n, also) {
			return i
		}
		i += n
	}
	return -1
}

// printablePrefix returns the length of the longest prefix of s in whole
// words of eight bytes that are all printable ASCII (0x20..0x7E). In each
// word, w - 0x20 borrows into a lane's high bit where the lane is below
// 0x20, w + 1 carries into it where the lane is 0x7F, and w's own high bit
// marks the lanes from 0x80: a borrow or carry across lanes happens only
// where one of those already holds, so the test is exact for the word.
func printablePrefix(s string) int {
	const lanes, high = 0x0101010101010101, 0x8080808080808080
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		if ((w-lanes*0x20)&^w|(w+lanes)|w)&high != 0 {
			break
		}
	}
	return i
}

// decode is utf8.DecodeRuneInString with a fast path for ASCII.
func decode(s string) (rune, int) {
	if s[0] < utf8.RuneSelf {
		return rune(s[0]), 1
	}
	return utf8.DecodeRuneInString(s)
}

func needsEscape(r rune, n int, also func(rune) bool) bool {
	return (r == utf8.RuneError && n <= 1) || Unsafe(r) || (also != nil && also(r))
}

// cEscape writes one rune as git's path quoting does: a backslash before
// '"' and '\', git's short form for the common controls, and octal bytes
// for the rest.
func cEscape(b *strings.Builder, r rune, raw string) {
	switch {
	case r == '"' || r == '\\':
		b.WriteByte('\\')
		b.WriteRune(r)
	case len(raw) == 1 && shortEscape(r) != 0:
		b.WriteByte('\\')
		b.WriteByte(shortEscape(r))
	default:
		for j := 0; j < len(raw); j++ {
			fmt.Fprintf(b, `\%03o`, raw[j])
		}
	}
}

// shortEscape returns git's short form for a control character, or 0.
func shortEscape(r rune) byte {
	switch r {
	case '\a':
		return 'a'
	case '\b':
		return 'b'
	case '\t':
		return 't'
	case '\n':
		return 'n'
	case '\v':
		return 'v'
	case '\f':
		return 'f'
	case '\r':
		return 'r'
	}
	return 0
}

// Unsafe reports runes that must not reach a terminal raw: controls (C0,
// DEL, C1), format characters (bidi controls, zero-width characters, tags)
// and line or paragraph separators.
func Unsafe(r rune) bool {
	if r < utf8.RuneSelf {
		return r < 0x20 || r == 0x7f
	}
	return r < 0xa0 || r == 0x2028 || r == 0x2029 || unicode.Is(unicode.Cf, r)
}

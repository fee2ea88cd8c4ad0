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
	if !needsQuote(name) {
		return name
	}
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(name); {
		r, n := utf8.DecodeRuneInString(name[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			fmt.Fprintf(&b, `\%03o`, name[i])
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case shortEscape(r) != 0:
			b.WriteByte('\\')
			b.WriteByte(shortEscape(r))
		case unsafeRune(r):
			for j := 0; j < n; j++ {
				fmt.Fprintf(&b, `\%03o`, name[i+j])
			}
		default:
			b.WriteString(name[i : i+n])
		}
		i += n
	}
	b.WriteByte('"')
	return b.String()
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

func needsQuote(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f || c == '"' || c == '\\' {
				return true
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && n <= 1) || unsafeRune(r) {
			return true
		}
		i += n
	}
	return false
}

// unsafeRune reports runes that must not reach a terminal raw: controls
// (C0, DEL, C1), format characters (bidi controls, zero-width characters,
// tags) and line or paragraph separators.
func unsafeRune(r rune) bool {
	return r < 0x20 || (r >= 0x7f && r < 0xa0) || r == 0x2028 || r == 0x2029 || unicode.Is(unicode.Cf, r)
}

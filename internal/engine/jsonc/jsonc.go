package jsonc

import (
	"bytes"
	"errors"
)

// ToJSON returns src with its comments ("//" to the end of the line, or
// "/* */") and trailing commas overwritten with spaces, line breaks kept, so
// that a strict JSON parser reads what a JSONC reader reads and every offset
// stays where it was. Strings are skipped with their escapes. A UTF-8 byte
// order mark at the start is blanked too (editors write one, VS Code and
// TypeScript read past it, encoding/json refuses it). It fails only on a
// string or comment that never ends.
func ToJSON(src []byte) ([]byte, error) {
	out := BlankBOM(src)
	blank := func(s, e int) {
		for k := s; k < e; k++ {
			if out[k] != '\n' && out[k] != '\r' {
				out[k] = ' '
			}
		}
	}
	lastComma := -1
	for i := 0; i < len(src); {
		switch c := src[i]; {
		case c == '"' || c == '\'':
			end := stringEnd(src, i)
			if end < 0 {
				return nil, errors.New("unterminated string")
			}
			i, lastComma = end, -1
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			end := i + 2
			for end < len(src) && src[end] != '\n' && src[end] != '\r' {
				end++
			}
			blank(i, end)
			i = end
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			k := bytes.Index(src[i+2:], []byte("*/"))
			if k < 0 {
				return nil, errors.New("unterminated comment")
			}
			blank(i, i+2+k+2)
			i += 2 + k + 2
		case c == ',':
			lastComma = i
			i++
		case c == '}' || c == ']':
			if lastComma >= 0 {
				out[lastComma] = ' '
			}
			lastComma = -1
			i++
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		default:
			lastComma = -1
			i++
		}
	}
	return out, nil
}

// bom is the UTF-8 byte order mark.
const bom = "\xef\xbb\xbf"

// BlankBOM returns a copy of src whose leading UTF-8 byte order mark, if
// any, is three spaces: a strict JSON parser then reads what a reader
// honouring the mark reads (RFC 8259 lets a parser ignore it), at the same
// offsets.
func BlankBOM(src []byte) []byte {
	out := append([]byte(nil), src...)
	if bytes.HasPrefix(out, []byte(bom)) {
		copy(out, "   ")
	}
	return out
}

// stringEnd returns the offset after the string whose quote is at i, or -1.
func stringEnd(src []byte, i int) int {
	q := src[i]
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case q:
			return j + 1
		case '\\':
			j++
		case '\n', '\r':
			return -1
		}
	}
	return -1
}

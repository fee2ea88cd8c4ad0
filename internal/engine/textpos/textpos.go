package textpos

import (
	"bytes"
	"encoding/binary"
	"unicode/utf8"
)

// LineCol returns the 1-based line and character column of byte offset off,
// counting \n, \r\n and \r as line ends: what editors show, whatever else a
// language may treat as a line break.
func LineCol(b []byte, off int) (line, col int) {
	c := NewCounter(b)
	return c.At(off)
}

// Counter turns byte offsets into line:col; offsets asked in increasing
// order cost one pass over the text in all, whatever the line lengths (a
// minified bundle or a source map is one line of megabytes).
type Counter struct {
	data      []byte
	pos, line int
	lineStart int
	// runes counts the characters of data[lineStart:pos].
	runes int
	// nl and cr are the offsets of the next \n and \r at or after pos
	// (len(data) when there is none; -1 before the first search).
	nl, cr int
}

// NewCounter starts a counter over b.
func NewCounter(b []byte) *Counter { return &Counter{data: b, line: 1, nl: -1, cr: -1} }

// At returns the 1-based line and character column of off (clamped to the
// text).
func (c *Counter) At(off int) (line, col int) {
	off = max(0, min(off, len(c.data)))
	if off < c.pos {
		*c = Counter{data: c.data, line: 1, nl: -1, cr: -1}
	}
	for c.pos < off {
		if c.nl < c.pos {
			c.nl = next(c.data, c.pos, '\n')
		}
		if c.cr < c.pos {
			c.cr = next(c.data, c.pos, '\r')
		}
		end := min(c.nl, c.cr)
		if end >= off {
			n := runeCount(c.data[c.pos:off])
			if off < len(c.data) && !utf8.RuneStart(c.data[off]) {
				// off splits a character: counting on from here would
				// count its two halves apart, so stay before it.
				return c.line, c.runes + n + 1
			}
			c.runes += n
			c.pos = off
			break
		}
		if c.data[end] == '\r' && end+1 < len(c.data) && c.data[end+1] == '\n' {
			// \r\n ends the line at its \n; the \r is a character of it.
			c.runes += runeCount(c.data[c.pos : end+1])
			c.pos = end + 1
			continue
		}
		c.line++
		c.pos, c.lineStart, c.runes = end+1, end+1, 0
	}
	return c.line, c.runes + 1
}

// next returns the offset of the first b in data at or after from, or
// len(data).
func next(data []byte, from int, b byte) int {
	if i := bytes.IndexByte(data[from:], b); i >= 0 {
		return from + i
	}
	return len(data)
}

// runeCount is utf8.RuneCount with ASCII passed over eight bytes at a
// time: a carrier near the end of a one-line bundle or source map has every
// byte before it counted, and a byte at a time that was 5 instructions a
// byte (14.5M of check's 25.7M on a 2.7 MB source map, cachegrind).
// Everything else is counted as utf8.RuneCount counts it, an invalid byte
// as one character.
func runeCount(b []byte) int {
	n := 0
	for len(b) > 0 {
		k := asciiWords(b)
		n, b = n+k, b[k:]
		if len(b) == 0 {
			break
		}
		size := 1
		if b[0] >= utf8.RuneSelf {
			_, size = utf8.DecodeRune(b)
		}
		n, b = n+1, b[size:]
	}
	return n
}

// asciiWords returns the length of the longest prefix of b in whole words
// of eight ASCII bytes.
func asciiWords(b []byte) int {
	i := 0
	for ; i+8 <= len(b); i += 8 {
		if binary.LittleEndian.Uint64(b[i:])&0x8080808080808080 != 0 {
			break
		}
	}
	return i
}

// FirstInvalid returns the offset of the first byte of b that does not
// start a valid UTF-8 sequence, or -1 when b is valid UTF-8: where a
// refusal of a file in another encoding points.
func FirstInvalid(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return -1
}

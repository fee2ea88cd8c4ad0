package textpos

import (
	"bytes"
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
			n := utf8.RuneCount(c.data[c.pos:off])
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
			c.runes += utf8.RuneCount(c.data[c.pos : end+1])
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

package textpos

import (
	"fmt"
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
// order cost one pass over the text in all.
type Counter struct {
	data      []byte
	pos, line int
	lineStart int
}

// NewCounter starts a counter over b.
func NewCounter(b []byte) *Counter { return &Counter{data: b, line: 1} }

// At returns the 1-based line and character column of off (clamped to the
// text).
func (c *Counter) At(off int) (line, col int) {
	if off < 0 {
		off = 0
	}
	if off > len(c.data) {
		off = len(c.data)
	}
	if off < c.pos {
		c.pos, c.line, c.lineStart = 0, 1, 0
	}
	for ; c.pos < off; c.pos++ {
		switch c.data[c.pos] {
		case '\n':
			c.line++
			c.lineStart = c.pos + 1
		case '\r':
			if c.pos+1 < len(c.data) && c.data[c.pos+1] == '\n' {
				continue
			}
			c.line++
			c.lineStart = c.pos + 1
		}
	}
	return c.line, utf8.RuneCount(c.data[c.lineStart:off]) + 1
}

// Error is a problem at a place in a file: "path:line:col: msg".
type Error struct {
	Path      string
	Line, Col int
	Msg       string
}

// Errorf places a message at byte offset off of src.
func Errorf(path string, src []byte, off int, format string, args ...any) *Error {
	line, col := LineCol(src, off)
	return &Error{Path: path, Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}
}

func (e *Error) Error() string {
	if e.Path == "" {
		return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.Path, e.Line, e.Col, e.Msg)
}

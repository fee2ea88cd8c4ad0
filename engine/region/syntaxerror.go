package region

import (
	"fmt"
	"unicode/utf8"
)

// SyntaxError is input a classifier refuses to guess about: a comment that
// never closes, a string that runs into a line end. Readers disagree on such
// input (one tool's comment is another's code), so the file is refused with
// the position instead of classified.
type SyntaxError struct {
	Path string
	// Line and Col are 1-based; lines end at \n, \r\n or \r, and Col counts
	// characters, as the positions "check" prints do.
	Line, Col int
	Reason    string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s", e.Path, e.Line, e.Col, e.Reason)
}

// syntaxErrorAt builds a SyntaxError for byte offset off of src.
func syntaxErrorAt(path string, src []byte, off int, reason string) *SyntaxError {
	off = min(max(off, 0), len(src))
	line, start := 1, 0
	for i := 0; i < off; i++ {
		switch src[i] {
		case '\n':
			line++
			start = i + 1
		case '\r':
			if i+1 < len(src) && src[i+1] == '\n' {
				continue
			}
			line++
			start = i + 1
		}
	}
	return &SyntaxError{Path: path, Line: line, Col: utf8.RuneCount(src[start:off]) + 1, Reason: reason}
}

// markLines marks [start, end) as kind k, except its \r and \n bytes, which
// are runtime: no region handed to a cleaner holds a line break.
func markLines(b *Builder, src []byte, start, end int, k Kind, why string) {
	from := start
	for i := start; i < end; i++ {
		if c := src[i]; c == '\n' || c == '\r' {
			b.Mark(from, i, k, why)
			b.Mark(i, i+1, Runtime, "line break")
			from = i + 1
		}
	}
	b.Mark(from, end, k, why)
}

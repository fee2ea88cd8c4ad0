package gate

import (
	"bytes"
	"fmt"
	"unicode/utf8"

	"github.com/prosewash/prosewash/internal/engine/textpos"
)

// NotTextError says why bytes are not text the gate can read: it compares UTF-8 text, and
// a file in another encoding (GBK, Shift JIS, Latin-1) or with a NUL byte would be read as
// words it does not hold, so nothing could be proven lost or kept.
type NotTextError struct {
	Line, Col int  // 1-based position of the first offending byte (Col in bytes)
	NUL       bool // a NUL byte, not an invalid UTF-8 sequence
}

func (e *NotTextError) Error() string {
	what := "not valid UTF-8 text"
	if e.NUL {
		what = "not text: a NUL byte"
	}
	return fmt.Sprintf("%s (line %d, byte %d)", what, e.Line, e.Col)
}

// CheckText returns a *NotTextError for bytes the gate cannot read, nil for UTF-8 text.
func CheckText(b []byte) error {
	bad := bytes.IndexByte(b, 0)
	nul := bad >= 0
	if !utf8.Valid(b) {
		if i := textpos.FirstInvalid(b); bad < 0 || i < bad {
			bad, nul = i, false
		}
	}
	if bad < 0 {
		return nil
	}
	line := bytes.Count(b[:bad], []byte{'\n'}) + 1
	col := bad - (bytes.LastIndexByte(b[:bad], '\n') + 1) + 1
	return &NotTextError{Line: line, Col: col, NUL: nul}
}

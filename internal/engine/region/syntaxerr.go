package region

import "strconv"

// syntaxErrorAt builds the RefusedError of input a classifier cannot follow
// (an unclosed block comment, an unterminated string, a YAML scanner error)
// at byte offset off, counting lines the way the language does: \n, \r\n
// and \r each end one line; the column counts bytes. The file is refused
// whole: no region of it can be trusted, so nothing is written.
func syntaxErrorAt(path string, src []byte, off int, reason string) *RefusedError {
	off = max(0, min(off, len(src)))
	line, start := 1, 0
	for i := 0; i < off; i++ {
		switch src[i] {
		case '\n':
			line, start = line+1, i+1
		case '\r':
			if i+1 < len(src) && src[i+1] == '\n' {
				continue
			}
			line, start = line+1, i+1
		}
	}
	return &RefusedError{Path: path, Pos: strconv.Itoa(line) + ":" + strconv.Itoa(off-start+1), Reason: reason}
}

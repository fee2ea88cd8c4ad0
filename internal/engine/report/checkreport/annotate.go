package checkreport

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/prosewash/prosewash/internal/engine/check"
)

// Annotate turns check's findings of one file into report findings, adding
// what needs the file's bytes: the end column, the UTF-16 columns, and
// with identities the line hash GitHub reads and prosewash's own
// fingerprint. It must run while data is valid (the walker reuses its
// buffers).
func Annotate(data []byte, fs []check.Finding, identities bool) []Finding {
	out := make([]Finding, len(fs))
	var hashes []string
	var fp *fingerprinter
	if identities && len(fs) > 0 {
		hashes = LineHashes(data)
		fp = newFingerprinter(data)
	}
	for i, f := range fs {
		x := Finding{Finding: f}
		start := lineStart(data, f.Offset)
		end := min(len(data), max(f.Offset, f.Offset+f.Len))
		if f.Len <= 0 && f.Offset < len(data) {
			_, n := utf8.DecodeRune(data[f.Offset:])
			end = f.Offset + n
		}
		x.EndCol = f.Col + utf8.RuneCount(data[min(f.Offset, len(data)):end])
		if x.EndCol == f.Col {
			x.EndCol = f.Col + 1
		}
		x.Col16 = 1 + utf16Len(data[start:min(f.Offset, len(data))])
		x.EndCol16 = x.Col16 + max(1, utf16Len(data[min(f.Offset, len(data)):end]))
		if fp != nil {
			if f.Line >= 1 && f.Line <= len(hashes) {
				x.LineHash = hashes[f.Line-1]
			}
			x.Print = fp.of(f)
		}
		out[i] = x
	}
	return out
}

// lineStart is the offset of the first byte of the line holding off: after
// the last LF or CR before it, the line ends textpos counts.
func lineStart(data []byte, off int) int {
	off = min(off, len(data))
	for i := off - 1; i >= 0; i-- {
		if data[i] == '\n' || data[i] == '\r' {
			return i + 1
		}
	}
	return 0
}

// utf16Len counts UTF-16 code units: two for a character outside the Basic
// Multilingual Plane (an emoji, a tag character), one for any other, and one
// for each byte that is not valid UTF-8 (a decoder's U+FFFD).
func utf16Len(b []byte) int {
	n := 0
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		b = b[size:]
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// fingerprinter computes prosewash's own identity of a carrier: the rule,
// the path, the code point, the text of its line without carriers or
// surrounding blanks, and which occurrence of that combination it is in the
// file. Line numbers stay out, so it survives lines added above, and two
// carriers on one line differ (GitHub's line hash does not tell them apart).
type fingerprinter struct {
	lines [][]byte
	seen  map[string]int
}

func newFingerprinter(data []byte) *fingerprinter {
	fp := &fingerprinter{seen: map[string]int{}}
	start := 0
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case '\n':
			fp.lines = append(fp.lines, data[start:i])
			start = i + 1
		case '\r':
			if i+1 < len(data) && data[i+1] == '\n' {
				continue
			}
			fp.lines = append(fp.lines, data[start:i])
			start = i + 1
		}
	}
	fp.lines = append(fp.lines, data[start:])
	return fp
}

func (fp *fingerprinter) of(f check.Finding) string {
	text := ""
	if f.Line >= 1 && f.Line <= len(fp.lines) {
		text = visible(fp.lines[f.Line-1])
	}
	key := strings.Join([]string{RuleID(f.Class), filepath.ToSlash(f.Path), f.Code, text}, "\x00")
	n := fp.seen[key]
	fp.seen[key] = n + 1
	sum := sha256.Sum256([]byte(fmt.Sprintf("%s\x00%d", key, n)))
	return hex.EncodeToString(sum[:16])
}

// visible keeps the characters a reader sees: letters, marks, digits,
// punctuation and symbols; carriers and spacing go.
func visible(line []byte) string {
	var b strings.Builder
	for len(line) > 0 {
		r, n := utf8.DecodeRune(line)
		line = line[n:]
		if r > ' ' && r != 0x7f && !(r >= 0x80 && r < 0xa1) && unicode.IsGraphic(r) && !unicode.Is(unicode.Cf, r) && !unicode.IsSpace(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

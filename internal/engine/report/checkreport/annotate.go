package checkreport

import (
	"bytes"
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
// what needs the file's bytes: the end column, and with identities what
// code scanning reads (SARIF): the UTF-16 columns, the line hash GitHub
// reads and prosewash's own fingerprint. It must run while data is valid
// (the walker reuses its buffers).
func Annotate(data []byte, fs []check.Finding, identities bool) []Finding {
	out := make([]Finding, len(fs))
	var hashes []string
	var fp *fingerprinter
	if identities && len(fs) > 0 {
		hashes = LineHashes(data)
		fp = newFingerprinter(data)
	}
	cols := col16s{data: data}
	for i, f := range fs {
		x := Finding{Finding: f}
		end := min(len(data), max(f.Offset, f.Offset+f.Len))
		if f.Len <= 0 && f.Offset < len(data) {
			_, n := utf8.DecodeRune(data[f.Offset:])
			end = f.Offset + n
		}
		x.EndCol = f.Col + utf8.RuneCount(data[min(f.Offset, len(data)):end])
		if x.EndCol == f.Col {
			x.EndCol = f.Col + 1
		}
		if fp != nil {
			x.Col16 = 1 + cols.at(f.Offset)
			x.EndCol16 = x.Col16 + max(1, utf16Len(data[min(f.Offset, len(data)):end]))
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

// col16s counts the UTF-16 code units from the start of a line to an
// offset. Offsets asked for in increasing order carry the count from one
// to the next, so a file of one long line (a minified bundle) with a
// carrier every few kilobytes costs one pass over the line, not one per
// carrier.
type col16s struct {
	data []byte
	pos  int // the offset counted up to
	col  int // the code units from the start of pos's line to pos
}

// at returns the code units from the start of off's line to off.
func (c *col16s) at(off int) int {
	off = min(max(off, 0), len(c.data))
	// The count carries only from a rune's first byte: decoding from the
	// line's start would otherwise read the bytes around pos differently.
	if off < c.pos || c.pos < len(c.data) && !utf8.RuneStart(c.data[c.pos]) {
		c.pos, c.col = lineStart(c.data, off), 0
	}
	seg := c.data[c.pos:off]
	if j := lastLineBreak(seg); j >= 0 {
		seg, c.col = seg[j+1:], 0
	}
	c.col += utf16Len(seg)
	c.pos = off
	return c.col
}

// lastLineBreak is the index of b's last LF or CR, or -1.
func lastLineBreak(b []byte) int {
	return max(bytes.LastIndexByte(b, '\n'), bytes.LastIndexByte(b, '\r'))
}

// utf16Len counts UTF-16 code units: two for a character outside the Basic
// Multilingual Plane (an emoji, a tag character), one for any other, and one
// for each byte that is not valid UTF-8 (a decoder's U+FFFD).
func utf16Len(b []byte) int {
	n := 0
	for len(b) > 0 {
		if b[0] < utf8.RuneSelf {
			n++
			b = b[1:]
			continue
		}
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

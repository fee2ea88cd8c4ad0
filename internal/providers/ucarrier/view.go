package ucarrier

import (
	"bytes"
	"unicode/utf8"
)

// view reads before, text and after as one sequence without copying them.
// Positions are virtual: [-len(before), 0) is before, [0, len(text)) is
// text, and [len(text), len(text)+len(after)) is after. The three parts are
// rune aligned, so no rune straddles two of them.
type view struct {
	before, text, after []byte
}

func (v *view) start() int { return -len(v.before) }
func (v *view) end() int   { return len(v.text) + len(v.after) }

// runeAt decodes the rune starting at p; size is 0 at the end.
func (v *view) runeAt(p int) (rune, int) {
	b := v.tail(p)
	if len(b) == 0 {
		return -1, 0
	}
	if b[0] < utf8.RuneSelf {
		return rune(b[0]), 1
	}
	return utf8.DecodeRune(b)
}

// runeBefore decodes the rune ending at p; size is 0 at the start.
func (v *view) runeBefore(p int) (rune, int) {
	var b []byte
	switch {
	case p > len(v.text):
		b = v.after[:p-len(v.text)]
	case p > 0:
		b = v.text[:p]
	case p > -len(v.before):
		b = v.before[:len(v.before)+p]
	default:
		return -1, 0
	}
	if c := b[len(b)-1]; c < utf8.RuneSelf {
		return rune(c), 1
	}
	return utf8.DecodeLastRune(b)
}

// tail returns the bytes from p to the end of the part holding p; an ANSI
// escape sequence is parsed within one part only.
func (v *view) tail(p int) []byte {
	switch {
	case p < 0:
		if p < -len(v.before) {
			return nil
		}
		return v.before[len(v.before)+p:]
	case p < len(v.text):
		return v.text[p:]
	case p-len(v.text) < len(v.after):
		return v.after[p-len(v.text):]
	}
	return nil
}

// isEscIntro reports the controls that start an escape sequence: ESC, and
// the C1 controls that introduce one in their 8-bit form: CSI (U+009B) and
// the control strings DCS (U+0090), SOS (U+0098), OSC (U+009D), PM (U+009E)
// and APC (U+009F).
func isEscIntro(r rune) bool {
	switch r {
	case 0x1B, 0x90, 0x98, 0x9B, 0x9D, 0x9E, 0x9F:
		return true
	}
	return false
}

// ansiLen returns the length of the escape sequence that starts at b[0],
// with ESC or with a C1 introducer (two bytes in UTF-8): a CSI (ESC [ or
// U+009B, then parameters, intermediates, final), a control string (OSC ESC
// ] or U+009D, DCS ESC P or U+0090, SOS ESC X or U+0098, PM ESC ^ or
// U+009E, APC ESC _ or U+009F) ended by BEL or ST (ESC \ or U+009C), an nF
// sequence (ESC intermediates final) or a two-byte escape (ESC 0x30..0x7E).
// It returns the introducer's own length when no complete sequence
// follows, so a lone introducer is removed and the visible bytes after it
// stay. A sequence never spans a line break.
func ansiLen(b []byte) int {
	n, _ := seqLen(b)
	return n
}

// seqLen is ansiLen, and whether b ends inside the sequence (open): the
// bytes after b decide whether it completes.
func seqLen(b []byte) (n int, open bool) {
	if len(b) >= 2 && b[0] == 0xC2 {
		switch b[1] {
		case 0x9B:
			return csiLen(b, 2, 2)
		case 0x90, 0x98, 0x9D, 0x9E, 0x9F:
			return stringLen(b, 2, 2)
		}
		return 2, false
	}
	if len(b) < 2 {
		return 1, len(b) == 1
	}
	switch c := b[1]; {
	case c == '[':
		return csiLen(b, 2, 1)
	case c == ']' || c == 'P' || c == 'X' || c == '^' || c == '_':
		return stringLen(b, 2, 1)
	case c >= 0x20 && c <= 0x2F:
		i := 2
		for i < len(b) && b[i] >= 0x20 && b[i] <= 0x2F {
			i++
		}
		if i < len(b) && b[i] >= 0x30 && b[i] <= 0x7E {
			return i + 1, false
		}
		return 1, i == len(b)
	case c >= 0x30 && c <= 0x7E:
		return 2, false
	}
	return 1, false
}

// csiLen parses the parameters, intermediates and final byte of a CSI
// sequence from b[i]; intro is the introducer's length, returned when the
// sequence is incomplete.
func csiLen(b []byte, i, intro int) (int, bool) {
	for i < len(b) && b[i] >= 0x30 && b[i] <= 0x3F {
		i++
	}
	for i < len(b) && b[i] >= 0x20 && b[i] <= 0x2F {
		i++
	}
	if i < len(b) && b[i] >= 0x40 && b[i] <= 0x7E {
		return i + 1, false
	}
	return intro, i == len(b)
}

// stringLen finds the end of a control string's payload from b[i]: BEL, ESC
// \ or U+009C (ST). Any other control, 7-bit or C1, ends it unfinished.
func stringLen(b []byte, i, intro int) (int, bool) {
	for ; i < len(b); i++ {
		switch x := b[i]; {
		case x == 0x07:
			return i + 1, false
		case x == 0x1B:
			if i+1 == len(b) {
				return intro, true
			}
			if b[i+1] == '\\' {
				return i + 2, false
			}
			return intro, false
		case x == 0xC2 && i+1 < len(b) && b[i+1] >= 0x80 && b[i+1] <= 0x9F:
			if b[i+1] == 0x9C {
				return i + 2, false
			}
			return intro, false
		case x < 0x20 || x == 0x7F:
			return intro, false
		}
	}
	return intro, true
}

// cutAtEnd reports whether the sequence starting at tail[0], which runs to
// the end of its region (seqLen says open), goes on into after, the file
// beyond the region up to and with its line break: complete there, or still
// open where the context ends. Either way removing the part in the region
// would leave the rest half a sequence, so it is kept whole.
func cutAtEnd(tail, after []byte) bool {
	if len(after) == 0 {
		return false
	}
	if nl := bytes.IndexByte(after, '\n'); nl >= 0 {
		after = after[:nl+1]
	}
	n, open := seqLen(append(tail[:len(tail):len(tail)], after...))
	return open || n > len(tail)
}

// leadIn returns how many bytes at the start of text belong to an escape
// sequence that begins before the region, on the same line: they are kept
// (reported, never removed), since the sequence's start is not the
// region's to change. It is 0 when no sequence runs over the region's
// start.
func leadIn(before, text []byte) int {
	line := before[bytes.LastIndexByte(before, '\n')+1:]
	if bytes.IndexByte(line, 0x1B) < 0 && bytes.IndexByte(line, 0xC2) < 0 {
		return 0
	}
	for j := 0; j < len(line); {
		if !startsSeq(line[j:]) {
			j++
			continue
		}
		n, open := seqLen(line[j:])
		if !open {
			j += n
			continue
		}
		m, open := seqLen(append(line[j:len(line):len(line)], text...))
		if open {
			return len(text)
		}
		return max(0, m-(len(line)-j))
	}
	return 0
}

// startsSeq reports whether b starts with ESC or a C1 introducer (see
// isEscIntro).
func startsSeq(b []byte) bool {
	if b[0] == 0x1B {
		return true
	}
	return len(b) >= 2 && b[0] == 0xC2 && isEscIntro(rune(b[1]))
}

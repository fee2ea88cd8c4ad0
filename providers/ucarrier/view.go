package ucarrier

import "unicode/utf8"

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

// ansiLen returns the length of the escape sequence that starts with the ESC
// at b[0]: a CSI (ESC [ parameters intermediates final), a control string
// (OSC ESC ], DCS ESC P, SOS ESC X, PM ESC ^, APC ESC _) ended by BEL or
// ST (ESC \), an nF sequence (ESC intermediates final) or a two-byte
// escape (ESC 0x30..0x7E). It returns 1 when no complete sequence follows, so
// a lone ESC is removed and the visible bytes after it stay. A sequence never
// spans a line break.
func ansiLen(b []byte) int {
	if len(b) < 2 {
		return 1
	}
	switch c := b[1]; {
	case c == '[':
		i := 2
		for i < len(b) && b[i] >= 0x30 && b[i] <= 0x3F {
			i++
		}
		for i < len(b) && b[i] >= 0x20 && b[i] <= 0x2F {
			i++
		}
		if i < len(b) && b[i] >= 0x40 && b[i] <= 0x7E {
			return i + 1
		}
	case c == ']' || c == 'P' || c == 'X' || c == '^' || c == '_':
		for i := 2; i < len(b); i++ {
			switch x := b[i]; {
			case x == 0x07:
				return i + 1
			case x == 0x1B:
				if i+1 < len(b) && b[i+1] == '\\' {
					return i + 2
				}
				return 1
			case x < 0x20 || x == 0x7F:
				return 1
			}
		}
	case c >= 0x20 && c <= 0x2F:
		i := 2
		for i < len(b) && b[i] >= 0x20 && b[i] <= 0x2F {
			i++
		}
		if i < len(b) && b[i] >= 0x30 && b[i] <= 0x7E {
			return i + 1
		}
	case c >= 0x30 && c <= 0x7E:
		return 2
	}
	return 1
}

package walk

import (
	"encoding/binary"
	"math/bits"
)

// SWAR constants: one copy of a byte value in every lane of a uint64.
const (
	lanes = 0x0101010101010101
	high  = 0x8080808080808080
)

// Plain reports whether data can hold no invisible carrier at all: every
// byte is printable ASCII (0x20..0x7E) or tab, LF or CR. It is the fast path
// that lets a caller skip classification for most source files; a false
// result only means the file needs a real scan.
func Plain(data []byte) bool {
	return IndexSpecial(data) < 0
}

// IndexSpecial returns the index of the first byte of data that is not
// printable ASCII, tab, LF or CR (so a control, DEL, or any byte of a
// multi-byte UTF-8 sequence), or -1. A scanner looking for carriers can jump
// from one such byte to the next instead of decoding every rune: all
// carriers start at one.
//
// It tests eight bytes per step with branch-free arithmetic: a lane's high
// bit marks bytes >= 0x80; for the remaining 7-bit lanes, adding constants
// without carries between lanes flags bytes below 0x20, DEL, and the three
// allowed controls.
func IndexSpecial(data []byte) int {
	i := 0
	for ; len(data)-i >= 32; i += 32 {
		a := binary.LittleEndian.Uint64(data[i:])
		b := binary.LittleEndian.Uint64(data[i+8:])
		c := binary.LittleEndian.Uint64(data[i+16:])
		d := binary.LittleEndian.Uint64(data[i+24:])
		if (a|b|c|d)&high != 0 || special(a)|special(b)|special(c)|special(d) != 0 {
			break
		}
	}
	for ; len(data)-i >= 8; i += 8 {
		w := binary.LittleEndian.Uint64(data[i:])
		if m := w&high | special(w); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	for ; i < len(data); i++ {
		if c := data[i]; c >= 0x7f || c < 0x20 && c != '\t' && c != '\n' && c != '\r' {
			return i
		}
	}
	return -1
}

// special returns a mask with the high bit set in every lane of w that holds a
// control character other than tab, LF and CR, or DEL. Lanes with the high
// bit set in w give meaningless results; the caller tests those separately.
func special(w uint64) uint64 {
	low := w & ^uint64(high)
	// A lane's high bit is set iff its byte is >= 0x20 ...
	printable := (low + lanes*(0x80-0x20)) & high
	// ... and iff it is 0x7f.
	del := (low + lanes) & high
	ctl := ^printable & high
	if ctl == 0 {
		return del
	}
	allowed := eqMask(low, '\t') | eqMask(low, '\n') | eqMask(low, '\r')
	return del | ctl&^allowed
}

// eqMask returns the high bit of every lane of low (all lanes < 0x80) that
// equals c: the xor is zero only there, and adding 0x7f sets the high bit of
// every non-zero lane without carrying into the next.
func eqMask(low uint64, c byte) uint64 {
	return ^((low ^ lanes*uint64(c)) + lanes*0x7f) & high
}

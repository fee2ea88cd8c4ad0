package walk

import "encoding/binary"

// SWAR constants: one copy of a byte value in every lane of a uint64.
const (
	lanes = 0x0101010101010101
	high  = 0x8080808080808080
)

// Plain reports whether data can hold no invisible carrier at all: every
// byte is printable ASCII (0x20..0x7E) or tab, LF or CR. It is the fast path
// that lets a caller skip classification for most source files; a false
// result only means the file needs a real scan.
//
// It tests eight bytes per step with branch-free arithmetic: a lane's high
// bit marks bytes >= 0x80; for the remaining 7-bit lanes, adding constants
// without carries between lanes flags bytes below 0x20, DEL, and the three
// allowed controls.
func Plain(data []byte) bool {
	for len(data) >= 32 {
		a := binary.LittleEndian.Uint64(data)
		b := binary.LittleEndian.Uint64(data[8:])
		c := binary.LittleEndian.Uint64(data[16:])
		d := binary.LittleEndian.Uint64(data[24:])
		if (a|b|c|d)&high != 0 || special(a)|special(b)|special(c)|special(d) != 0 {
			return false
		}
		data = data[32:]
	}
	for len(data) >= 8 {
		w := binary.LittleEndian.Uint64(data)
		if w&high != 0 || special(w) != 0 {
			return false
		}
		data = data[8:]
	}
	for _, c := range data {
		if c >= 0x7f || c < 0x20 && c != '\t' && c != '\n' && c != '\r' {
			return false
		}
	}
	return true
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

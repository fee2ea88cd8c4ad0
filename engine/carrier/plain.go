package carrier

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
func IndexSpecial(data []byte) int {
	i := 0
	for ; len(data)-i >= 32; i += 32 {
		a := binary.LittleEndian.Uint64(data[i:])
		b := binary.LittleEndian.Uint64(data[i+8:])
		c := binary.LittleEndian.Uint64(data[i+16:])
		d := binary.LittleEndian.Uint64(data[i+24:])
		if special(a)|special(b)|special(c)|special(d) != 0 {
			break
		}
	}
	for ; len(data)-i >= 8; i += 8 {
		if m := special(binary.LittleEndian.Uint64(data[i:])); m != 0 {
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

// special returns a mask with the high bit set in every lane (byte) of w
// that IndexSpecial looks for. It handles eight bytes with a few additions:
// for the low seven bits of a lane, adding 0x80-n sets the lane's high bit
// exactly when the lane is >= n, and never carries into the next lane. A lane
// is special when its own high bit is set, or it is below 0x20 but not in
// 9..10 (tab, LF) or 13 (CR), or it is 0x7f.
func special(w uint64) uint64 {
	low := w &^ high
	ge9 := low + lanes*(0x80-9)
	ge11 := low + lanes*(0x80-11)
	ge13 := low + lanes*(0x80-13)
	ge14 := low + lanes*(0x80-14)
	ge32 := low + lanes*(0x80-32)
	del := low + lanes*1
	return (w | ^ge9 | ge11&^ge13 | ge14&^ge32 | del) & high
}

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
// carriers start at one. On amd64 the bulk of data is scanned with SSE2,
// 64 bytes a step (plain_amd64.s); elsewhere, and for the tail, eight bytes
// at a time in a uint64 (indexSpecialWords).
func IndexSpecial(data []byte) int {
	// Text in a language written with accents or another script holds
	// runs of a few ASCII bytes between its non-ASCII letters, and a
	// scanner calls this once a run: a first word that holds a special
	// byte answers without the vector call, whose set-up and processor
	// test cost more than the word (check on the npm corpus: 222M
	// instructions, 216M with the word; four words first made it 222M
	// again).
	if len(data) >= 8 {
		w := binary.LittleEndian.Uint64(data)
		if m := (w | control(w)) & high; m != 0 {
			return bits.TrailingZeros64(m) >> 3
		}
	}
	n := vectorPrefix(len(data))
	i := 0
	// Input shorter than one block (a short string, a word between two
	// non-ASCII letters) has no vector part: the call would cost more
	// than its scan.
	if n > 0 {
		if i = indexSpecialVector(data[:n]); i < n {
			return i
		}
	}
	if j := indexSpecialWords(data[i:]); j >= 0 {
		return i + j
	}
	return -1
}

// indexSpecialWords is IndexSpecial eight bytes at a time, in portable Go.
func indexSpecialWords(data []byte) int {
	// d shrinks from the front: fixed offsets into it need no bounds checks.
	d := data
	for len(d) >= 32 {
		a := binary.LittleEndian.Uint64(d[0:8])
		b := binary.LittleEndian.Uint64(d[8:16])
		c := binary.LittleEndian.Uint64(d[16:24])
		e := binary.LittleEndian.Uint64(d[24:32])
		if (a|b|c|e|control(a)|control(b)|control(c)|control(e))&high != 0 {
			break
		}
		d = d[32:]
	}
	for len(d) >= 8 {
		w := binary.LittleEndian.Uint64(d[0:8])
		if m := (w | control(w)) & high; m != 0 {
			return len(data) - len(d) + bits.TrailingZeros64(m)>>3
		}
		d = d[8:]
	}
	for i, c := range d {
		if c >= 0x7f || c < 0x20 && c != '\t' && c != '\n' && c != '\r' {
			return len(data) - len(d) + i
		}
	}
	return -1
}

// control sets the high bit of every lane (byte) of w below 0x80 that
// IndexSpecial looks for: below 0x20 but not tab (9), LF (10) or CR (13),
// or 0x7f; lanes at or above 0x80 get an arbitrary high bit (w's own high
// bit marks them). For the low seven bits x of a lane, x + (0x80-n) sets
// the lane's high bit exactly when x >= n, and (x^n) + 0x7f exactly when
// x != n, never carrying into the next lane: a control is a lane neither
// >= 0x20 nor in 9..10, and not 13; 0x7f is x + 1 reaching 0x80. Eleven
// operations for eight bytes.
func control(w uint64) uint64 {
	x := w &^ high
	ge32 := x + lanes*(0x80-0x20)
	tabLF := (x + lanes*(0x80-9)) &^ (x + lanes*(0x80-11))
	notCR := (x ^ lanes*'\r') + lanes*0x7f
	del := x + lanes*1
	return ^(ge32|tabLF)&notCR | del
}

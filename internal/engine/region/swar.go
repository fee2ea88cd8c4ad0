package region

import (
	"encoding/binary"
	"math/bits"
)

// SWAR constants: one copy of a byte value in every lane of a uint64.
const (
	swarLanes = 0x0101010101010101
	swarHigh  = 0x8080808080808080
)

// jsStringStop returns the index of the first byte of s that ends or
// interrupts a string literal quoted with q (q itself, a backslash, LF or
// CR), or len(s). It looks at eight bytes at a time: string literals are
// where JSON files and bundles spend their bytes.
func jsStringStop(s []byte, q byte) int {
	qq, bs, lf, cr := swarLanes*uint64(q), swarLanes*uint64('\\'), swarLanes*uint64('\n'), swarLanes*uint64('\r')
	i := 0
	for ; len(s)-i >= 8; i += 8 {
		w := binary.LittleEndian.Uint64(s[i:])
		// zero lanes of w^x are the lanes equal to x; the lowest flagged
		// lane of each term is exact (only lanes above a true zero can be
		// flagged falsely), so the lowest of all is the first stop.
		if m := swarZero(w^qq) | swarZero(w^bs) | swarZero(w^lf) | swarZero(w^cr); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	for ; i < len(s); i++ {
		switch s[i] {
		case q, '\\', '\n', '\r':
			return i
		}
	}
	return len(s)
}

// swarZero sets the high bit of the lowest zero lane of v (and possibly of
// lanes above it), and of no lane when none is zero.
func swarZero(v uint64) uint64 {
	return (v - swarLanes) &^ v & swarHigh
}

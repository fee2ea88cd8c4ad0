package region

import (
	"math/rand"
	"testing"
)

// jsStringStop agrees with a byte-by-byte search at every length and
// alignment, over bytes that mix the stops with their SWAR neighbours
// (values one apart, high bytes).
func TestJSStringStop(t *testing.T) {
	alphabet := []byte{'a', '"', '\'', '\\', '\n', '\r', 0, 1, '\t', 0x0b, 0x0e, '[', ']', '#', '&', '(', 0x80, 0xa2, 0xdc, 0xff, 0x5b, 0x5d, 0x21, 0x23}
	rng := rand.New(rand.NewSource(1))
	for round := 0; round < 20000; round++ {
		s := make([]byte, rng.Intn(40))
		for i := range s {
			if rng.Intn(3) == 0 {
				s[i] = alphabet[rng.Intn(len(alphabet))]
			} else {
				s[i] = byte(rng.Intn(256))
			}
		}
		q := []byte{'"', '\''}[rng.Intn(2)]
		want := len(s)
		for i, c := range s {
			if c == q || c == '\\' || c == '\n' || c == '\r' {
				want = i
				break
			}
		}
		if got := jsStringStop(s, q); got != want {
			t.Fatalf("jsStringStop(%q, %q) = %d, want %d", s, q, got, want)
		}
	}
}

package ucarrier

import (
	"testing"
	"unicode/utf8"
)

// nextSpecialRef is nextSpecial a character at a time: the first control
// or DEL, invalid byte or candidate at or after i.
func nextSpecialRef(text []byte, i int) int {
	for i < len(text) {
		r, size := utf8.DecodeRune(text[i:])
		if r < utf8.RuneSelf && !isPlain(byte(r)) || size == 1 && r == utf8.RuneError || isCandidate(r) {
			return i
		}
		i += size
	}
	return len(text)
}

// TestNextSpecialEveryShortSequence puts every one-, two- and three-byte
// sequence (valid or not: overlong forms, surrogates, cut-short and stray
// continuation bytes) and every four-byte sequence led by F0 9F (the
// emoji plane nextSpecial passes over) between plain words: the inline
// decoding finds what decoding each character finds.
func TestNextSpecialEveryShortSequence(t *testing.T) {
	check := func(seq ...byte) {
		text := append(append([]byte("ab "), seq...), " cd"...)
		if got, want := nextSpecial(text, 0), nextSpecialRef(text, 0); got != want {
			t.Fatalf("nextSpecial(%q) = %d, want %d", text, got, want)
		}
	}
	for a := range 256 {
		check(byte(a))
		for b := range 256 {
			check(byte(a), byte(b))
			if a >= 0xE0 && a < 0xF0 || a == 0xF0 && b == 0x9F {
				for c := range 256 {
					check(byte(a), byte(b), byte(c))
					if a == 0xF0 {
						check(byte(a), byte(b), byte(c), 0xBF)
						check(byte(a), byte(b), byte(c), 0x80)
					}
				}
			}
		}
	}
}

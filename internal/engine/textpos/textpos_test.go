package textpos

import (
	"math/rand"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestLineCol(t *testing.T) {
	b := []byte("ab\r\nc\u00e9d\re\nf\u2028g")
	tests := []struct{ off, line, col int }{
		{0, 1, 1}, {2, 1, 3}, {4, 2, 1}, {5, 2, 2}, {7, 2, 3}, {9, 3, 1}, {11, 4, 1}, {12, 4, 2}, {15, 4, 3},
		{-1, 1, 1}, {99, 4, 4},
	}
	for _, tc := range tests {
		if l, c := LineCol(b, tc.off); l != tc.line || c != tc.col {
			t.Errorf("offset %d: got %d:%d, want %d:%d", tc.off, l, c, tc.line, tc.col)
		}
	}
}

// A counter asked in any order answers as LineCol does.
func TestCounterAgreesWithLineCol(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	alphabet := []string{"a", "\n", "\r", "\r\n", "é", "中", "\u2028"}
	for round := 0; round < 200; round++ {
		var b []byte
		for i := rng.Intn(40); i > 0; i-- {
			b = append(b, alphabet[rng.Intn(len(alphabet))]...)
		}
		c := NewCounter(b)
		for k := 0; k < 20; k++ {
			off := rng.Intn(len(b) + 1)
			l1, c1 := c.At(off)
			l2, c2 := LineCol(b, off)
			if l1 != l2 || c1 != c2 {
				t.Fatalf("%q at %d: counter %d:%d, LineCol %d:%d", b, off, l1, c1, l2, c2)
			}
		}
	}
}

// The counter answers as a fresh count from the line start does, whatever
// the order and the bytes (halves of characters, lone \r, \r\n, invalid
// UTF-8).
func TestCounterAgreesWithFreshCount(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	alphabet := []string{"a", "\n", "\r", "\r\n", "é", "中", "\u2028", "\xff", "\xe4\xb8"}
	for round := 0; round < 500; round++ {
		var b []byte
		for i := rng.Intn(60); i > 0; i-- {
			b = append(b, alphabet[rng.Intn(len(alphabet))]...)
		}
		c := NewCounter(b)
		off := 0
		for k := 0; k < 30; k++ {
			if rng.Intn(4) == 0 {
				off = rng.Intn(len(b) + 1)
			} else {
				off = min(len(b), off+rng.Intn(6))
			}
			l1, c1 := c.At(off)
			l2, c2 := naiveLineCol(b, off)
			if l1 != l2 || c1 != c2 {
				t.Fatalf("%q at %d: counter %d:%d, fresh count %d:%d", b, off, l1, c1, l2, c2)
			}
		}
	}
}

// naiveLineCol is the definition: lines end at \n, \r\n and a lone \r; the
// column counts the characters (utf8.RuneCount) from the line start.
func naiveLineCol(b []byte, off int) (line, col int) {
	line, start := 1, 0
	for i := 0; i < off; i++ {
		if b[i] == '\n' || b[i] == '\r' && (i+1 >= len(b) || b[i+1] != '\n') {
			line, start = line+1, i+1
		}
	}
	return line, utf8.RuneCount(b[start:off]) + 1
}

// BenchmarkCounterOneLine asks for positions across a 2 MB single-line
// file (a minified bundle or a source map), as check does for each carrier
// in it: the cost must be one pass, not one pass per position.
func BenchmarkCounterOneLine(b *testing.B) {
	data := []byte(strings.Repeat("var a=\"é\";", 200_000))
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		c := NewCounter(data)
		for off := 0; off < len(data); off += 2000 {
			c.At(off)
		}
	}
}

// TestRuneCountAgreesWithUTF8 puts every byte value at every position of
// texts that fill whole words and a tail, ASCII and not, and counts every
// prefix: the word skip counts what utf8.RuneCount counts, an invalid byte
// or a character cut short included.
func TestRuneCountAgreesWithUTF8(t *testing.T) {
	for _, base := range []string{strings.Repeat("abcdefgh", 3) + "xyz", "é€" + strings.Repeat("a", 17) + "😀"} {
		for pos := range len(base) {
			for c := range 256 {
				b := []byte(base)
				b[pos] = byte(c)
				for end := range len(b) + 1 {
					if got, want := runeCount(b[:end]), utf8.RuneCount(b[:end]); got != want {
						t.Fatalf("runeCount(%q) = %d, want %d", b[:end], got, want)
					}
				}
			}
		}
	}
}

// FuzzFirstInvalid holds FirstInvalid to what utf8.Valid says: -1 exactly
// for valid text, otherwise an offset before which the text is valid and
// from which no prefix is.
func FuzzFirstInvalid(f *testing.F) {
	for _, s := range []string{"", "abc", "é", "a\x80", "\xff", "ok\xe2\x82", "日本\xc6\xab"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		i := FirstInvalid(b)
		if i < 0 {
			if !utf8.Valid(b) {
				t.Fatalf("FirstInvalid(%q) = -1 for invalid text", b)
			}
			return
		}
		if i >= len(b) || !utf8.Valid(b[:i]) {
			t.Fatalf("FirstInvalid(%q) = %d: the text before it is not valid", b, i)
		}
		for j := i + 1; j <= len(b) && j <= i+utf8.UTFMax; j++ {
			if utf8.Valid(b[i:j]) {
				t.Fatalf("FirstInvalid(%q) = %d, but %q from there is valid", b, i, b[i:j])
			}
		}
	})
}

package textpos

import (
	"math/rand"
	"testing"
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

func TestError(t *testing.T) {
	err := Errorf("a.ts", []byte("x\ny = `"), 6, "unterminated template literal")
	if got := err.Error(); got != "a.ts:2:5: unterminated template literal" {
		t.Fatalf("got %q", got)
	}
}

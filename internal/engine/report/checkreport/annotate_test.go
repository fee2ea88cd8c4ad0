package checkreport

import (
	"math/rand/v2"
	"sort"
	"testing"
	"unicode/utf16"
)

// col16Oracle is the UTF-16 column of off from first principles: the
// line's text before off, decoded as Go decodes strings (one U+FFFD per
// invalid byte), encoded as UTF-16.
func col16Oracle(data []byte, off int) int {
	start := 0
	for i := off - 1; i >= 0; i-- {
		if data[i] == '\n' || data[i] == '\r' {
			start = i + 1
			break
		}
	}
	return len(utf16.Encode([]rune(string(data[start:off]))))
}

// TestCol16sMatchesTheOracle asks col16s for offsets in increasing order
// (and some going back) anywhere in random text, valid UTF-8 or not, on
// long lines and short, mid-rune offsets included, and compares every
// answer with the oracle.
func TestCol16sMatchesTheOracle(t *testing.T) {
	pieces := []string{"a", "bc", " ", "\n", "\r", "\r\n", "é", "€", "😀", "\U000E0041", "\u200b", "\xff", "\xe2\x82", "\x80", "\xf0\x9f", "\t"}
	rng := rand.New(rand.NewPCG(1, 2))
	for round := 0; round < 2000; round++ {
		var data []byte
		for n := rng.IntN(200); n > 0; n-- {
			data = append(data, pieces[rng.IntN(len(pieces))]...)
		}
		offs := make([]int, rng.IntN(20))
		for i := range offs {
			offs[i] = rng.IntN(len(data) + 1)
		}
		if rng.IntN(4) > 0 {
			sort.Ints(offs)
		}
		c := col16s{data: data}
		for _, off := range offs {
			if got, want := c.at(off), col16Oracle(data, off); got != want {
				t.Fatalf("data %q, offsets %v: at(%d) = %d, want %d", data, offs, off, got, want)
			}
		}
	}
}

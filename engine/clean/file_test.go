package clean

import (
	"bytes"
	"math/rand"
	"testing"
	"unicode/utf8"

	"github.com/prosewash/prosewash/engine/carrier"
)

func TestAroundIsRuneAligned(t *testing.T) {
	b := []byte("\u4e2d\u6587 text \u0641\u0627\u0631\u0633\u06cc")
	for start := 0; start <= len(b); start++ {
		for end := start; end <= len(b); end++ {
			if !utf8.RuneStart(at(b, start)) || !utf8.RuneStart(at(b, end)) {
				continue
			}
			for n := 0; n < 8; n++ {
				before, after := around(b, start, end, n)
				if !utf8.Valid(before) || !utf8.Valid(after) || len(before) > n || len(after) > n {
					t.Fatalf("around(%d,%d,%d) = %q %q", start, end, n, before, after)
				}
			}
		}
	}
}

func at(b []byte, i int) byte {
	if i >= len(b) {
		return 'x'
	}
	return b[i]
}

func TestPlain(t *testing.T) {
	for s, want := range map[string]bool{
		"plain text\tand\r\nlines": true,
		"":                         true,
		"caf\u00e9":                false,
		"esc \x1b[31m":             false,
		"del \x7f":                 false,
		"ff \f":                    false,
		"nul \x00":                 false,
	} {
		if carrier.Plain([]byte(s)) != want {
			t.Errorf("Plain(%q) != %v", s, want)
		}
	}
}

// randomSplices cuts old into disjoint spans and gives each new text.
func randomSplices(r *rand.Rand, old []byte) []splice {
	var sp []splice
	pos := 0
	for pos < len(old) && r.Intn(4) != 0 {
		start := pos + r.Intn(len(old)-pos+1)
		end := start + r.Intn(len(old)-start+1)
		text := make([]byte, r.Intn(6))
		r.Read(text)
		sp = append(sp, splice{start: start, end: end, text: text})
		pos = end
		if end == start {
			pos++
		}
	}
	return sp
}

// FuzzOutsideProof shows the proof accepts every honest splice and catches
// any change to a byte outside the spliced spans.
func FuzzOutsideProof(f *testing.F) {
	f.Add([]byte("# comment\u200b\nx = 1\n"), int64(1))
	f.Add([]byte(""), int64(2))
	f.Add([]byte("abc"), int64(3))
	f.Fuzz(func(t *testing.T, old []byte, seed int64) {
		r := rand.New(rand.NewSource(seed))
		sp := randomSplices(r, old)
		cand := applySplices(old, sp)
		if err := outsideUnchanged(old, cand, sp); err != nil {
			t.Fatalf("honest splice rejected: %v", err)
		}
		// Flip one byte that came from outside the spans: must be caught.
		var outside []int
		shift, pos := 0, 0
		for _, s := range sp {
			for i := pos; i < s.start; i++ {
				outside = append(outside, i+shift)
			}
			shift += len(s.text) - (s.end - s.start)
			pos = s.end
		}
		for i := pos; i < len(old); i++ {
			outside = append(outside, i+shift)
		}
		if len(outside) == 0 {
			return
		}
		bad := bytes.Clone(cand)
		bad[outside[r.Intn(len(outside))]] ^= 0x20
		if err := outsideUnchanged(old, bad, sp); err == nil {
			t.Fatal("a changed outside byte passed the proof")
		}
		// Dropping or adding a byte anywhere outside is caught too.
		i := outside[r.Intn(len(outside))]
		if err := outsideUnchanged(old, append(bytes.Clone(cand[:i]), cand[i+1:]...), sp); err == nil {
			t.Fatal("a dropped outside byte passed the proof")
		}
	})
}

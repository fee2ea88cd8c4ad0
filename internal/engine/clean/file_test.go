package clean

import (
	"bytes"
	"math/rand"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/prosewash/prosewash/internal/engine/carrier"
	"github.com/prosewash/prosewash/internal/engine/region"
)

func TestAroundIsRuneAligned(t *testing.T) {
	b := []byte("\u4e2d\u6587 text \u0641\u0627\u0631\u0633\u06cc")
	for start := 0; start <= len(b); start++ {
		for end := start; end <= len(b); end++ {
			if !utf8.RuneStart(at(b, start)) || !utf8.RuneStart(at(b, end)) {
				continue
			}
			for n := 0; n < 8; n++ {
				before, after := around(b, start, end, n, n)
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

func TestParagraphAround(t *testing.T) {
	for _, tc := range []struct {
		src           string // the region is the part between [ and ]
		before, after string
	}{
		{"one\ntwo [x] three\nfour\n\nnext", "one\ntwo ", " three\nfour\n"},
		{"prev\n\n[x]\n\nnext", "", "\n"},
		{"prev\n \t\nline [x] end", "line ", " end"},
		{"a\r\n\r\nb[x]c\r\nd\r\n\r\ne", "b", "c\r\nd\r\n"},
		{"a\r\nb[x]", "a\r\nb", ""},
		{"[x]", "", ""},
	} {
		src := strings.Replace(strings.Replace(tc.src, "[", "", 1), "]", "", 1)
		start := strings.Index(tc.src, "[")
		end := strings.Index(tc.src, "]") - 1
		before, after := paragraphAround([]byte(src), start, end, 1024)
		if string(before) != tc.before || string(after) != tc.after {
			t.Errorf("paragraphAround(%q) = %q, %q; want %q, %q", tc.src, before, after, tc.before, tc.after)
		}
	}
	// The cap holds, on rune boundaries.
	long := strings.Repeat("\u05e9", 2000) + "x" + strings.Repeat("\u05e9", 2000)
	before, after := paragraphAround([]byte(long), 4000, 4001, 1024)
	if len(before) > 1024 || len(after) > 1024 || len(before) < 1020 || !utf8.Valid(before) || !utf8.Valid(after) {
		t.Fatalf("capped context: %d and %d bytes", len(before), len(after))
	}
}

// randomMap cuts b into regions of random kinds, as a classifier would.
func randomMap(r *rand.Rand, b []byte) *region.Map {
	m := &region.Map{Size: len(b)}
	for pos := 0; pos < len(b); {
		end := pos + 1 + r.Intn(len(b)-pos)
		m.Regions = append(m.Regions, region.Region{Start: pos, End: end, Kind: region.Kind(r.Intn(3))})
		pos = end
	}
	return m
}

// FuzzOutsideProof shows the proof accepts every honest candidate and
// catches any changed, dropped or added byte outside the regions sent,
// and a candidate whose sent region is not the text the provider returned.
// It never sees the splices the engine builds the candidate from.
func FuzzOutsideProof(f *testing.F) {
	f.Add([]byte("# comment\u200b\nx = 1\n"), int64(1))
	f.Add([]byte(""), int64(2))
	f.Add([]byte("abc"), int64(3))
	f.Add([]byte("aaaaaaaa"), int64(4))     // repeated bytes: a shifted gap still compares equal
	f.Add([]byte("a\nb\nc\nd\n"), int64(5)) // a check of gap lengths only passes a flipped byte
	f.Add([]byte("xyxyxyxyxy"), int64(6))
	f.Fuzz(func(t *testing.T, old []byte, seed int64) {
		r := rand.New(rand.NewSource(seed))
		m := randomMap(r, old)
		var sent []region.Region
		var texts [][]byte
		var cand []byte
		var outside []int // candidate offsets of bytes from regions not sent
		for _, rg := range m.Regions {
			if rg.Kind == region.Prose {
				text := make([]byte, r.Intn(6))
				r.Read(text)
				sent = append(sent, rg)
				texts = append(texts, text)
				cand = append(cand, text...)
				continue
			}
			for i := rg.Start; i < rg.End; i++ {
				outside = append(outside, len(cand)+i-rg.Start)
			}
			cand = append(cand, old[rg.Start:rg.End]...)
		}
		if err := provenOutside(old, cand, m, sent, texts); err != nil {
			t.Fatalf("honest candidate rejected: %v", err)
		}
		// An added byte anywhere is caught, outside or at the end.
		at := r.Intn(len(cand) + 1)
		added := append(append(bytes.Clone(cand[:at]), 'X'), cand[at:]...)
		if err := provenOutside(old, added, m, sent, texts); err == nil {
			t.Fatalf("an added byte at %d passed the proof", at)
		}
		if len(sent) > 0 {
			// A sent region whose text is not what the provider said.
			k := r.Intn(len(sent))
			bad := append(bytes.Clone(texts[k]), 'Y')
			texts2 := append([][]byte(nil), texts...)
			texts2[k] = bad
			if err := provenOutside(old, cand, m, sent, texts2); err == nil {
				t.Fatal("a region differing from the provider's text passed the proof")
			}
		}
		if len(outside) == 0 {
			return
		}
		i := outside[r.Intn(len(outside))]
		flipped := bytes.Clone(cand)
		flipped[i] ^= 0x20
		if err := provenOutside(old, flipped, m, sent, texts); err == nil {
			t.Fatal("a changed outside byte passed the proof")
		}
		dropped := append(bytes.Clone(cand[:i]), cand[i+1:]...)
		if err := provenOutside(old, dropped, m, sent, texts); err == nil {
			t.Fatal("a dropped outside byte passed the proof")
		}
		// A region that was not sent is not the provider's to change,
		// even when it is given the same length.
		rg := m.Regions[r.Intn(len(m.Regions))]
		if rg.Kind != region.Prose && rg.Len() > 0 {
			swapped := bytes.Clone(cand)
			// Find rg in the candidate and change its first byte.
			pos := 0
			for _, x := range m.Regions {
				if x == rg {
					break
				}
				pos += x.Len()
				if x.Kind == region.Prose {
					for j, s := range sent {
						if s == x {
							pos += len(texts[j]) - x.Len()
						}
					}
				}
			}
			swapped[pos] ^= 0x01
			if err := provenOutside(old, swapped, m, sent, texts); err == nil {
				t.Fatal("a region not sent was changed and passed the proof")
			}
		}
	})
}

package clean

import (
	"bytes"
	"fmt"
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

// provenOutside is the fuzz target's oracle, written apart from
// candidate: it walks the map of the input and requires every region that
// was not sent to appear unchanged where it must now sit, and every sent
// region (matched by its bounds) to appear as the text the provider
// returned for it. A changed, dropped or added byte anywhere fails it; the
// fuzz target shows that too, so the oracle cannot pass everything.
func provenOutside(in, cand []byte, m *region.Map, sent []region.Region, texts [][]byte) error {
	if len(sent) != len(texts) {
		return fmt.Errorf("%d regions sent, %d texts", len(sent), len(texts))
	}
	pos, j := 0, 0
	for _, r := range m.Regions {
		want := in[r.Start:r.End]
		what := "byte %d outside the cleaned regions changed"
		if j < len(sent) && sent[j].Start == r.Start && sent[j].End == r.End {
			want, what = texts[j], "region at byte %d is not the text the provider returned"
			j++
		}
		if pos+len(want) > len(cand) || !bytes.Equal(cand[pos:pos+len(want)], want) {
			return fmt.Errorf(what, r.Start+mismatch(cand[pos:], want))
		}
		pos += len(want)
	}
	if j != len(sent) {
		return fmt.Errorf("sent region %d-%d is not a region of the map", sent[j].Start, sent[j].End)
	}
	if pos != len(cand) {
		return fmt.Errorf("%d bytes added after the end of the input", len(cand)-pos)
	}
	return nil
}

// mismatch returns the first index where got and want differ.
func mismatch(got, want []byte) int {
	for i := range want {
		if i >= len(got) || got[i] != want[i] {
			return i
		}
	}
	return len(want)
}

// corruptMap breaks m or sent in the way mode names, as a buggy
// classifier or engine could; it reports false when m is too small for it.
func corruptMap(r *rand.Rand, m *region.Map, sent []region.Region, mode uint8) ([]region.Region, bool) {
	n := len(m.Regions)
	switch mode % 6 {
	case 1: // a gap or an overlap: one boundary moves on one side only
		if n < 2 {
			return sent, false
		}
		k := 1 + r.Intn(n-1)
		m.Regions[k].Start += 1 - 2*r.Intn(2)
	case 2: // the map stops before the end of the input
		if n < 1 {
			return sent, false
		}
		m.Regions = m.Regions[:n-1]
	case 3: // the last region runs past the end of the input
		if n < 1 {
			return sent, false
		}
		m.Regions[n-1].End++
	case 4: // a sent region that is not a region of the map
		return append(sent, region.Region{Start: m.Size, End: m.Size + 1, Kind: region.Prose}), true
	case 5: // sent regions out of order
		if len(sent) < 2 {
			return sent, false
		}
		sent = append([]region.Region(nil), sent...)
		sent[0], sent[1] = sent[1], sent[0]
	default:
		return sent, false
	}
	return sent, true
}

// FuzzOutsideProof holds candidate, which builds every transform's
// output, to an oracle of its own (provenOutside): on arbitrary maps and
// provider texts the output is exactly the input with the sent regions
// replaced, and its splices rebuild it; on a map that does not partition
// the input, or sent regions that are not its regions in order (mode
// 1..5), it builds nothing and fails. The oracle is shown to catch any
// changed, dropped or added byte outside the regions sent, and a sent
// region that is not the provider's text.
func FuzzOutsideProof(f *testing.F) {
	f.Add([]byte("# comment\u200b\nx = 1\n"), int64(1), uint8(0))
	f.Add([]byte(""), int64(2), uint8(0))
	f.Add([]byte("abc"), int64(3), uint8(0))
	f.Add([]byte("aaaaaaaa"), int64(4), uint8(0))     // repeated bytes: a shifted gap still compares equal
	f.Add([]byte("a\nb\nc\nd\n"), int64(5), uint8(0)) // a check of gap lengths only passes a flipped byte
	f.Add([]byte("xyxyxyxyxy"), int64(6), uint8(0))
	for mode := uint8(1); mode < 6; mode++ {
		for seed := int64(0); seed < 4; seed++ {
			f.Add([]byte("# one\u200b\nx = 1 # two\nthree four five\n"), seed, mode)
		}
	}
	f.Fuzz(func(t *testing.T, old []byte, seed int64, mode uint8) {
		r := rand.New(rand.NewSource(seed))
		m := randomMap(r, old)
		var sent []region.Region
		var texts [][]byte
		for _, rg := range m.Regions {
			if rg.Kind == region.Prose {
				text := make([]byte, r.Intn(6))
				r.Read(text)
				sent = append(sent, rg)
				texts = append(texts, text)
			}
		}
		if bad, ok := corruptMap(r, m, sent, mode); ok {
			for len(texts) < len(bad) {
				texts = append(texts, nil)
			}
			if cand, _, err := candidate(old, m, bad, texts); err == nil {
				t.Fatalf("mode %d: a broken map or sent list built %q from %q", mode%6, cand, old)
			}
			return
		}
		cand, sp, err := candidate(old, m, sent, texts)
		if err != nil {
			t.Fatalf("an honest map refused: %v", err)
		}
		if err := provenOutside(old, cand, m, sent, texts); err != nil {
			t.Fatalf("the candidate is not the input with the sent regions replaced: %v", err)
		}
		if got := applySplices(old, sp); !bytes.Equal(got, cand) {
			t.Fatalf("the splices build %q, the candidate is %q", got, cand)
		}
		var outside []int // candidate offsets of bytes from regions not sent
		pos := 0
		j := 0
		for _, rg := range m.Regions {
			if j < len(sent) && sent[j] == rg {
				pos += len(texts[j])
				j++
				continue
			}
			for i := rg.Start; i < rg.End; i++ {
				outside = append(outside, pos+i-rg.Start)
			}
			pos += rg.Len()
		}
		// The oracle can fail: an added byte anywhere is caught, outside
		// or at the end.
		at := r.Intn(len(cand) + 1)
		added := append(append(bytes.Clone(cand[:at]), 'X'), cand[at:]...)
		if err := provenOutside(old, added, m, sent, texts); err == nil {
			t.Fatalf("an added byte at %d passed the oracle", at)
		}
		if len(sent) > 0 {
			// A sent region whose text is not what the provider said.
			k := r.Intn(len(sent))
			texts2 := append([][]byte(nil), texts...)
			texts2[k] = append(bytes.Clone(texts[k]), 'Y')
			if err := provenOutside(old, cand, m, sent, texts2); err == nil {
				t.Fatal("a region differing from the provider's text passed the oracle")
			}
		}
		if len(outside) == 0 {
			return
		}
		i := outside[r.Intn(len(outside))]
		flipped := bytes.Clone(cand)
		flipped[i] ^= 0x20
		if err := provenOutside(old, flipped, m, sent, texts); err == nil {
			t.Fatal("a changed outside byte passed the oracle")
		}
		dropped := append(bytes.Clone(cand[:i]), cand[i+1:]...)
		if err := provenOutside(old, dropped, m, sent, texts); err == nil {
			t.Fatal("a dropped outside byte passed the oracle")
		}
	})
}

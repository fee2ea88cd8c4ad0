package ucarrier

import (
	"bytes"
	"math/rand"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/prosewash/prosewash/internal/engine/carrier"
)

// Silent reports that text holds no character that could start a carrier:
// the promise a region without Specials makes, read on the region alone.
func Silent(text []byte) bool {
	return nextSpecial(text, 0) == len(text)
}

// TestSilentMeansNothing holds Silent to its promise, which lets check's
// engine skip regions: a text it calls silent gets no finding and comes
// back unchanged in every language, profile and position, whatever its
// neighbours hold (carriers included). Texts mix the scripts of real
// runtime regions (Latin with accents, Cyrillic, CJK, Devanagari, emoji)
// with, now and then, a carrier, so both answers are exercised.
func TestSilentMeansNothing(t *testing.T) {
	quiet := []string{"a", "Z", " ", "\t", "\n", "\r\n", "é", "ß", "Ж", "щ", "中", "文", "न", "म", "😀", "👍🏽", "\"", "\\", "/*", "#", "ſ", "\u2013", "\u00ab"}
	loud := []string{"\u200b", "\u00a0", "\u202f", "\u2028", "\u0085", "\ufeff", "\u202e", "\x1b[31m", "\u009b", "\U000E0041", "\ufe0f", "\u2060", "\x7f", "\xff", "\u00ad"}
	langs := []string{"text", "markdown", "python", "go", "shell", "toml", "dockerfile", "javascript", "typescript", "json", "jsonc", "yaml", "rust", "html", "css", "scss", "less"}
	rng := rand.New(rand.NewSource(1))
	pick := func(loudness float64, n int) []byte {
		var sb strings.Builder
		for range n {
			if rng.Float64() < loudness {
				sb.WriteString(loud[rng.Intn(len(loud))])
			} else {
				sb.WriteString(quiet[rng.Intn(len(quiet))])
			}
		}
		return []byte(sb.String())
	}
	silent, heard := 0, 0
	for range 4000 {
		text := pick(0.02, rng.Intn(40))
		before, after := pick(0.3, rng.Intn(8)), pick(0.3, rng.Intn(8))
		opt := Options{Lang: langs[rng.Intn(len(langs))], FileStart: rng.Intn(2) == 0}
		if rng.Intn(2) == 0 {
			opt.Profile = carrier.Strict
		}
		out, fs := Clean(before, text, after, opt)
		if !Silent(text) {
			if len(fs) > 0 {
				heard++
			}
			continue
		}
		silent++
		if len(fs) > 0 || !bytes.Equal(out, text) {
			t.Fatalf("Silent(%+q) but Clean (%s, before %+q, after %+q) finds %v, returns %+q", text, opt.Lang, before, after, fs, out)
		}
	}
	if silent < 1000 || heard < 200 {
		t.Fatalf("the texts do not exercise both answers: %d silent, %d with findings", silent, heard)
	}
	for _, s := range []string{"\ufeffa", "a\u200bb", "\x00", "\xc3"} {
		if Silent([]byte(s)) {
			t.Errorf("Silent(%+q) = true", s)
		}
	}
}

// TestSpecialsAgreeWithSilent holds Specials to Silent: for every region
// of a text between two character starts, Silent(region) exactly when no
// offset Specials finds in the whole text lies in it. Texts mix quiet
// scripts, carriers and bytes that are not valid UTF-8 (a cut sequence, a
// stray continuation byte), where the two scans must still agree.
func TestSpecialsAgreeWithSilent(t *testing.T) {
	units := []string{"a", " ", "\t", "\n", "é", "Ж", "中", "न", "😀", "\u00a0", "\u200b", "\ufeff", "\x1b", "\x7f", "\u2028",
		"\U000E0041", "\xff", "\xe4\xb8", "\x80", "\xc3", "\xed\xa0\x80", "\xf0\x9f\x98", "\xef\xbf\xbd", strings.Repeat("x", 40)}
	rng := rand.New(rand.NewSource(2))
	checked := [2]int{}
	for range 3000 {
		var sb strings.Builder
		for range rng.Intn(24) {
			sb.WriteString(units[rng.Intn(len(units))])
		}
		text := []byte(sb.String())
		specials, ok := Specials(text)
		if !ok {
			t.Fatalf("Specials(%+q) gives up on a short text", text)
		}
		for k := 1; k < len(specials); k++ {
			if specials[k] <= specials[k-1] {
				t.Fatalf("Specials(%+q) = %v, not ascending", text, specials)
			}
		}
		for s := 0; s <= len(text); s++ {
			if s < len(text) && !utf8.RuneStart(text[s]) {
				continue
			}
			for e := s; e <= len(text); e++ {
				if e < len(text) && !utf8.RuneStart(text[e]) {
					continue
				}
				none := true
				for _, o := range specials {
					none = none && (o < s || o >= e)
				}
				if got := Silent(text[s:e]); got != none {
					t.Fatalf("Silent(%+q) = %v, but Specials(%+q) = %v says %v for [%d, %d)", text[s:e], got, text, specials, none, s, e)
				}
				checked[boolIndex(none)]++
			}
		}
	}
	if checked[0] < 1000 || checked[1] < 1000 {
		t.Fatalf("the texts do not exercise both answers: %v", checked)
	}
}

func boolIndex(b bool) int {
	if b {
		return 1
	}
	return 0
}

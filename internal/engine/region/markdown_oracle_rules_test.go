package region

import (
	"bytes"
	"regexp"
	"unicode"
	"unicode/utf8"
)

// The oracle's own readings of the rules the scanner adds to CommonMark
// (front matter, GFM's bare URLs and table delimiter rows, comments that
// would close early), written from the specifications and independently of
// the scanner's code: if the scanner's version drifts bolder (a scheme
// dropped, a delimiter character forgotten), the differential tests see it.
// The scanner's versions may err long (more runtime); these must not.

// oracleStrip removes what a carrier policy could remove or turn into a
// plain space, by Unicode category: format characters, controls but tab
// and line breaks, variation selectors, other default-ignorables; spaces
// become U+0020.
func oracleStrip(b []byte) []byte {
	var out []byte
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		switch {
		case r == '\t' || r == '\n' || r == '\r':
			out = append(out, b[:n]...)
		case r == utf8.RuneError && n == 1:
		case unicode.Is(unicode.Zs, r), r == 0x2028, r == 0x2029:
			out = append(out, ' ')
		case unicode.In(r, unicode.Cf, unicode.Cc, unicode.Variation_Selector, unicode.Other_Default_Ignorable_Code_Point):
		default:
			out = append(out, b[:n]...)
		}
		b = b[n:]
	}
	return out
}

// oracleFrontMatter reads Jekyll/Hugo front matter: a first line "---"
// (YAML) or "+++" (TOML), after an optional byte order mark, closed by the
// same line (or "..." for YAML). It returns the offset after the closing
// line's break.
func oracleFrontMatter(src []byte) (int, fmState) {
	breaks := regexp.MustCompile(`\r\n|\r|\n`).FindAllIndex(src, -1)
	type line struct {
		text []byte
		next int
	}
	var lines []line
	start := 0
	for _, b := range breaks {
		lines = append(lines, line{src[start:b[0]], b[1]})
		start = b[1]
	}
	if start < len(src) {
		lines = append(lines, line{src[start:], len(src)})
	}
	if len(lines) < 2 {
		return 0, fmNone
	}
	first := string(bytes.TrimRight(bytes.TrimPrefix(lines[0].text, []byte("\ufeff")), " \t"))
	closers := map[string]bool{}
	switch first {
	case "---":
		closers["---"], closers["..."] = true, true
	case "+++":
		closers["+++"] = true
	default:
		return 0, fmNone
	}
	for _, l := range lines[1:] {
		if closers[string(bytes.TrimRight(l.text, " \t"))] {
			return l.next, fmFound
		}
	}
	return 0, fmUnterminated
}

// GFM extended autolinks (spec 0.29-gfm, 6.9): a scheme (http://, https://,
// ftp://) or "www." at the start of a line, after whitespace or after one
// of * _ ~ (, running to whitespace or '<'; trailing ? ! . , : * _ ~ are not
// part of it, nor an unmatched ')', nor an entity reference's ';'.
var (
	gfmAutolinkStart = regexp.MustCompile(`(?i)(?:^|[\s*_~(])((?:https?://|ftp://|www\.)[^\s<]*)`)
	gfmEntityEnd     = regexp.MustCompile(`&[A-Za-z0-9]+;$`)
)

// oracleBareURLs returns the spans of src[start:stop] that GFM would link.
func oracleBareURLs(src []byte, start, stop int) [][2]int {
	if start < 0 || stop > len(src) || start >= stop {
		return nil
	}
	line := src[start:stop]
	var out [][2]int
	for _, m := range gfmAutolinkStart.FindAllSubmatchIndex(line, -1) {
		from, to := m[2], m[3]
		for to > from {
			last := line[to-1]
			switch {
			case bytes.IndexByte([]byte("?!.,:*_~"), last) >= 0:
				to--
				continue
			case last == ')' && bytes.Count(line[from:to], []byte(")")) > bytes.Count(line[from:to], []byte("(")):
				to--
				continue
			case last == ';':
				if loc := gfmEntityEnd.FindIndex(line[from:to]); loc != nil {
					to = from + loc[0]
					continue
				}
			}
			break
		}
		if to > from {
			out = append(out, [2]int{start + from, start + to})
		}
	}
	return out
}

// gfmDelimiterRow is a GFM table delimiter row (spec 0.29-gfm, 4.10): cells
// of hyphens with optional colons, separated by pipes, with optional
// leading and trailing pipes; a single cell needs a pipe.
var gfmDelimiterRow = regexp.MustCompile(`^[ \t]*(?:\|[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?|:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)+\|?)[ \t]*[\r\n]*$`)

// oracleTableDelimiter reports whether the line is a delimiter row now or
// once its carriers are gone.
func oracleTableDelimiter(src []byte, start, stop int) bool {
	if start < 0 || stop > len(src) || start >= stop {
		return false
	}
	line := src[start:stop]
	return gfmDelimiterRow.Match(line) || gfmDelimiterRow.Match(oracleStrip(line))
}

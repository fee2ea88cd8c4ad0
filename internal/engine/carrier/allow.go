package carrier

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// Allow is one entry of [clean] allow: carriers from Lo to Hi (one code
// point when equal) that people mean to keep, in every file or in the files
// matching Glob (a doublestar pattern relative to the project root).
type Allow struct {
	Lo, Hi rune
	Glob   string
}

// ParseAllow reads an allow entry: "U+00A0", a range "U+FE00..U+FE0F", either
// optionally followed by " in GLOB".
func ParseAllow(s string) (Allow, error) {
	var a Allow
	spec := strings.TrimSpace(s)
	if i := strings.Index(spec, " in "); i >= 0 {
		a.Glob = strings.TrimSpace(spec[i+len(" in "):])
		spec = strings.TrimSpace(spec[:i])
		if a.Glob == "" {
			return a, fmt.Errorf("%q: empty path pattern after \"in\"", s)
		}
		if !doublestar.ValidatePattern(a.Glob) {
			return a, fmt.Errorf("%q: %q is not a valid doublestar pattern", s, a.Glob)
		}
	}
	lo, hi, ok := strings.Cut(spec, "..")
	var err error
	if a.Lo, err = parseCodePoint(lo); err != nil {
		return a, fmt.Errorf("%q: %w", s, err)
	}
	a.Hi = a.Lo
	if ok {
		if a.Hi, err = parseCodePoint(hi); err != nil {
			return a, fmt.Errorf("%q: %w", s, err)
		}
		if a.Hi < a.Lo {
			return a, fmt.Errorf("%q: range ends before it starts", s)
		}
	}
	return a, nil
}

// parseCodePoint reads "U+XXXX" (4 to 6 hex digits).
func parseCodePoint(s string) (rune, error) {
	s = strings.TrimSpace(s)
	if len(s) < 6 || len(s) > 8 || (s[:2] != "U+" && s[:2] != "u+") {
		return 0, fmt.Errorf("want a code point written U+XXXX, got %q", s)
	}
	n, err := strconv.ParseUint(s[2:], 16, 32)
	if err != nil || n > 0x10FFFF {
		return 0, fmt.Errorf("want a code point written U+XXXX, got %q", s)
	}
	return rune(n), nil
}

// Covers reports whether the entry keeps r in the file at rel (a
// project-relative, '/'-separated path).
func (a Allow) Covers(r rune, rel string) bool {
	if r < a.Lo || r > a.Hi {
		return false
	}
	if a.Glob == "" {
		return true
	}
	ok, _ := doublestar.Match(a.Glob, rel)
	return ok
}

func (a Allow) String() string {
	s := fmt.Sprintf("U+%04X", a.Lo)
	if a.Hi != a.Lo {
		s += fmt.Sprintf("..U+%04X", a.Hi)
	}
	if a.Glob != "" {
		s += " in " + a.Glob
	}
	return s
}

// KeepMarker is the text that, followed by code points, keeps those
// carriers on its own line and the next one: "prosewash: keep U+200B U+00A0".
const KeepMarker = "prosewash: keep"

// ParseKeepMarker returns the code points a keep marker at the start of s
// names: "U+XXXX" words separated by spaces or commas, up to the first word
// that is not one.
func ParseKeepMarker(s []byte) []rune {
	var out []rune
	rest := string(s)
	for {
		rest = strings.TrimLeft(rest, " \t,")
		end := strings.IndexAny(rest, " \t,")
		word := rest
		if end >= 0 {
			word = rest[:end]
		}
		// A code point may be followed by prose punctuation: "U+00A0)".
		word = strings.TrimRight(word, ".;:)]}'\"`")
		r, err := parseCodePoint(word)
		if err != nil {
			return out
		}
		out = append(out, r)
		if end < 0 {
			return out
		}
		rest = rest[end:]
	}
}

package gate

import (
	"strings"
	"unicode"
)

// A name often becomes the first part of a hyphenated compound when a summariser writes a
// noun out: "CORS korrekt" said "korrekte CORS-Konfiguration", "CORS on every route" said "the
// CORS-related headers on every route". The compound is one word to the gate, so the name would read as lost.
// A name is kept by a counterpart word of two parts or more whose first part is the name.

// nameInCompound reports a name a counterpart says as the first part of a hyphenated word.
func nameInCompound(t Token, to []*stmt) bool {
	if t.Type != TypeName || strings.Contains(t.Value, "-") {
		return false
	}
	for _, u := range to {
		words := strings.FieldsFunc(strings.ToLower(u.key), func(r rune) bool {
			return r != '-' && !unicode.IsLetter(r) && !unicode.IsDigit(r)
		})
		for _, w := range words {
			if head, rest, ok := strings.Cut(w, "-"); ok && head == t.Value && strings.Trim(rest, "-") != "" {
				return true
			}
		}
	}
	return false
}

// abbreviatedCompound reports two hyphenated names of the same parts, each part kept or said
// in full where the other abbreviates it ("Git-Repo" and "Git-Repository"): one name.
func abbreviatedCompound(a, b string) bool {
	pa, pb := compoundParts(a), compoundParts(b)
	if len(pa) < 2 || len(pa) != len(pb) || a == b {
		return false
	}
	for i := range pa {
		if pa[i] != pb[i] && !prefixOf(pa[i], pb[i]) {
			return false
		}
	}
	return true
}

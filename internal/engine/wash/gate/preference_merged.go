package gate

import (
	"strings"
	"unicode"
)

// A clause a preference joiner opens ("而非 FFI", ", rather than a wrapper", ", а не вручную")
// is often joined to the clause before it by a summariser: "通过调用 CLI 工具实现，而非 FFI" said
// "通过调用 CLI 工具而非 FFI 实现". The joiner then weighs a pair inside the merged clause, whose
// own rule reads plain, and the original clause's preference would read as lost. It is kept
// when a counterpart clause holds the same joiner inside it (not at its start) followed by the
// same words the original clause put after it, and no negation of its own: the same side is
// still the one not chosen.

// joinerMerged reports a clause opened by a preference joiner that a counterpart states inside
// itself, with the same words after the joiner.
func joinerMerged(cl clauseInfo, matches []clauseInfo) bool {
	if !prefJoiner(cl.modal) {
		return false
	}
	rest, ok := strings.CutPrefix(strings.TrimLeftFunc(cl.text, notWordRune), cl.modal)
	rest = strings.TrimFunc(rest, notWordRune)
	if !ok || rest == "" {
		return false
	}
	for _, m := range matches {
		i := strings.Index(m.text, cl.modal)
		if i > 0 && m.level >= 0 && strings.HasPrefix(strings.TrimLeftFunc(m.text[i+len(cl.modal):], notWordRune), rest) {
			return true
		}
	}
	return false
}

// notWordRune reports a rune that is neither a letter nor a digit: the punctuation and spaces
// around a clause.
func notWordRune(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }

// prefJoiner reports a preference joiner of any language (prefText).
func prefJoiner(w string) bool {
	x := slex()
	if _, ok := x.pref[w]; ok {
		return true
	}
	for _, e := range x.cjkPref {
		if e.text == w {
			return true
		}
	}
	return false
}

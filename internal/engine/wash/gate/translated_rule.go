package gate

import (
	"unicode"
	"unicode/utf8"
)

// translatedRuleKept reports a removed statement's rule that the result states in another
// script: "(не tabs, не 4 spaces)" said "(не табы и не 4 пробела)". Its numbers and code
// spans, one at least, are all in a counterpart clause of the same direction, and each of its
// other stems is written in Latin letters where that clause's other stems are not, as many of
// them: a translation, whose words no stem shares.
func translatedRuleKept(cl clauseInfo, rc []clauseInfo) bool {
	fixed, words := splitLiteral(cl.stems)
	if len(fixed) == 0 || len(words) == 0 || !allLatin(words) {
		return false
	}
	for _, u := range rc {
		if sign(effLevel(u.level)) != sign(effLevel(cl.level)) || shared(fixed, u.stems) < len(fixed) {
			continue
		}
		_, uw := splitLiteral(u.stems)
		if len(uw) == len(words) && noneLatin(uw) {
			return true
		}
	}
	return false
}

// splitLiteral parts stems into numbers and code spans (the same in any language) and words.
func splitLiteral(stems []string) (fixed, words []string) {
	for _, s := range stems {
		r, _ := utf8.DecodeRuneInString(s)
		if r == '`' || unicode.IsDigit(r) {
			fixed = append(fixed, s)
		} else {
			words = append(words, s)
		}
	}
	return fixed, words
}

func allLatin(words []string) bool {
	for _, w := range words {
		if !latinWord(w) {
			return false
		}
	}
	return true
}

func noneLatin(words []string) bool {
	for _, w := range words {
		if latinWord(w) {
			return false
		}
	}
	return true
}

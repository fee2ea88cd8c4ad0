package gate

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Japanese says "no X" as a noun, "変更なし" (no change), and as a verb, "変更しない" (not
// changing). The gate reads the verb's negation as a rule and the noun's "なし" as none, so a
// rewording from one to the other reads as a prohibition added. A plain clause saying "Xなし"
// is kept by a counterpart saying the same X negated as a verb ("Xしない", "Xせず", "Xしません").

// nominalNegationText are the noun forms of "no X" and the verb forms that say it.
func nominalNegationText() (nouns, verbs []string) {
	return []string{"なし", "無し"}, []string{"しない", "せず", "しません"}
}

// nominalNegation reports a plain clause saying "Xなし" whose counterpart says "Xしない".
func nominalNegation(cl clauseInfo, matches []clauseInfo) bool {
	nouns, verbs := nominalNegationText()
	for _, n := range nouns {
		for rest := cl.text; ; {
			i := strings.Index(rest, n)
			if i < 0 {
				break
			}
			if head := kanjiBefore(rest[:i]); head != "" && verbNegated(head, verbs, matches) {
				return true
			}
			rest = rest[i+len(n):]
		}
	}
	return false
}

// kanjiBefore returns the run of Han characters text ends with.
func kanjiBefore(text string) string {
	i := len(text)
	for i > 0 {
		r, n := utf8.DecodeLastRuneInString(text[:i])
		if !unicode.Is(unicode.Han, r) {
			break
		}
		i -= n
	}
	return text[i:]
}

// verbNegated reports a negated counterpart saying head followed by one of verbs.
func verbNegated(head string, verbs []string, matches []clauseInfo) bool {
	for _, m := range matches {
		if m.level >= 0 {
			continue
		}
		for _, v := range verbs {
			if strings.Contains(m.text, head+v) {
				return true
			}
		}
	}
	return false
}

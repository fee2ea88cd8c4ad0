package gate

import (
	"strings"
	"unicode"
)

// German "bei" opens a condition that is a noun phrase, not a clause: "Bei Architektur-Aufgaben
// zusätzlich .ctx/architecture/ einbeziehen" (for architecture tasks, also include …). Its
// words are those up to its noun, which German writes with a capital, and the nouns right
// after it; the words after them are the rule's, which a rewrite dropping the condition keeps.

// beiPhraseWords returns the stems of the noun phrase a German "bei" of part k opens, when
// the clause as written shows where its noun ends; ok is false otherwise.
func beiPhraseWords(c *clauseInfo, k int) ([]string, bool) {
	p := c.parts[k]
	if p.kind != condIf || p.from >= len(c.toks) || c.toks[p.from].text != "bei" || p.at != p.from+1 {
		return nil, false
	}
	fields := strings.Fields(c.text)
	at := -1
	for i, f := range fields {
		if strings.EqualFold(strings.Trim(f, "*_,;:()"), "bei") {
			at = i
			break
		}
	}
	if at < 0 {
		return nil, false
	}
	n := nounPhraseLen(fields[at+1:])
	if n == 0 || p.at+n > len(c.toks) {
		return nil, false
	}
	w := clauseStems(c.toks[p.at : p.at+n])
	return w, len(w) > 0
}

// nounPhraseLen counts the written words up to the first capitalised one and the capitalised
// ones right after it; 0 when no capitalised word comes within three words or one ends a field
// with punctuation before it.
func nounPhraseLen(fields []string) int {
	for i, f := range fields {
		if i >= 3 {
			return 0
		}
		if !capitalised(f) {
			if strings.ContainsAny(f, ",;:") {
				return 0
			}
			continue
		}
		n := i + 1
		for n < len(fields) && capitalised(fields[n]) && !strings.ContainsAny(fields[n-1], ",;:") {
			n++
		}
		return n
	}
	return 0
}

func capitalised(f string) bool {
	for _, r := range f {
		return unicode.IsUpper(r)
	}
	return false
}

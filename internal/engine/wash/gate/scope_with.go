package gate

import "strings"

// A "with" phrase after a noun every case of which a rule names narrows it to the cases that
// have the thing: "`mocker.patch(\"time.sleep\")` em toda função com paginação" (in every
// function with pagination), "every endpoint with a body", "jede Funktion mit Seitenabruf". A
// summary dropping the phrase keeps "every function" and widens the rule to all of them.

// withText are the prepositions of such a phrase.
const withText = "with mit avec con com с"

// quantifiedWithPhrases returns the "with" phrases that follow, within two words, a word of
// every case (all, every, toda, каждый) in cl.
func quantifiedWithPhrases(cl clauseInfo) []leadPhrase {
	x := slex()
	var out []leadPhrase
	for i, t := range cl.toks {
		if t.kind != tWord || !x.allWord[t.text] && !x.every[t.text] {
			continue
		}
		for k := i + 1; k < min(len(cl.toks), i+4); k++ {
			w := cl.toks[k]
			if w.kind != tWord || !withWord(w.text) {
				continue
			}
			if lp, ok := phraseAfter(cl, k+1, scopeWordsMost); ok && k > i+1 {
				lp.text = w.text + " " + lp.text
				out = append(out, lp)
			}
			break
		}
	}
	return out
}

// withWord reports a preposition of withText.
func withWord(w string) bool {
	for _, f := range strings.Fields(withText) {
		if f == w {
			return true
		}
	}
	return false
}

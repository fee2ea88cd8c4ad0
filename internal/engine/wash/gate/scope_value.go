package gate

// A scope preposition right after a value says what the value is for: "Mínimo 95% para el
// sistema de tracking", "at least 80% for the parser", "90 % für den Kern", "≤ 200 ms для
// ответа API". A summary dropping the phrase makes the value hold for everything; the value
// itself is kept, so only the phrase shows what was lost.

// valueScopes returns the scope phrases that follow a number in cl.
func valueScopes(cl clauseInfo) []leadPhrase {
	x := slex()
	var out []leadPhrase
	for i := 1; i < len(cl.toks); i++ {
		t := cl.toks[i]
		if t.kind != tWord || !x.scope[t.text] || !afterValue(cl.toks, i) {
			continue
		}
		if lp, ok := phraseAfter(cl, i+1, scopeWordsMost); ok && !purposeOrPointer(x, cl.toks[i+1:], lp) {
			lp.text = t.text + " " + lp.text
			out = append(out, lp)
		}
	}
	return out
}

// afterValue reports a number, or a number and its unit word, right before toks[i].
func afterValue(toks []ctok, i int) bool {
	if toks[i-1].kind == tNum {
		return true
	}
	return i >= 2 && toks[i-2].kind == tNum && toks[i-1].kind == tWord && unitName(slex(), toks[i-1].text) != ""
}

// purposeOrPointer reports a phrase that is a purpose ("para evitar …", "pour garantir …": its
// first word a rule word or a verb of purpose) or a pointer to more ("for details"), not a scope.
func purposeOrPointer(x *stmtLexicon, after []ctok, lp leadPhrase) bool {
	if len(lp.stems) == 0 || len(after) == 0 {
		return true
	}
	first := after[0].text
	return x.modal[first] != 0 || smallSets().purpose[first] || x.scopeNot[lp.stems[0]]
}

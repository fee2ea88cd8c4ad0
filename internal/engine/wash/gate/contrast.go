package gate

// "Bound the test itself and not production behaviour", "acotan el propio test y no el
// comportamiento": a negation right after "and" in mid-clause opens a contrast, a clause of its
// own, as it does after a comma ("…, not production behaviour"). Read into the clause before it,
// it turned that clause's rule round ("aceptables" read as "aceptables no") when a summary merged
// two sentences with it.

// contrastText are the conjunction and negation pairs, one per language, that open a contrast.
const contrastText = "and_not y_no et_non et_pas und_nicht e_não и_не"

// contrastNegation reports a negation w that follows a conjunction after words of the clause:
// the clause ends before the conjunction.
func contrastNegation(toks []ctok, w string) bool {
	n := len(toks)
	return n >= 2 && toks[n-1].kind == tWord && smallSets().contrast[toks[n-1].text+"_"+w]
}

package gate

// A contrast "X, not Y" is often said the other way round: "вынесено, а не переписано" said
// "не переписано, а вынесено", "moved, not rewritten" said "not rewritten but moved",
// "verschoben, nicht umgeschrieben" said "nicht umgeschrieben, sondern verschoben". The words
// trade clauses, which reads as a regrouping (a binding swap), but each keeps its negation:
// what was negated still is, and nothing else moved. Words that trade clauses are a contrast
// said the other way round when they move between two adjacent clauses only, one of them at
// least after a negation and one at least after none, and every content word of the statement
// keeps whether a negation stands before it.

// contrastRegrouped reports a statement whose counterpart says its contrast the other way round.
func contrastRegrouped(oc, uc []clauseInfo) bool {
	ou, uu := diffUnits(oc), diffUnits(uc)
	on, uclause, un := negatedWords(ou), map[string]int{}, negatedWords(uu)
	for _, u := range uu {
		if _, ok := uclause[u.key]; u.content() && !ok {
			uclause[u.key] = u.clause
		}
	}
	lo, hi, neg, plain := -1, -1, false, false
	seen := map[string]bool{}
	for _, u := range ou {
		if !u.content() || seen[u.key] {
			continue
		}
		seen[u.key] = true
		if on[u.key] != un[u.key] {
			return false
		}
		to, ok := uclause[u.key]
		if !ok || to == u.clause {
			continue
		}
		if lo < 0 {
			lo, hi = min(u.clause, to), max(u.clause, to)
		}
		if min(u.clause, to) != lo || max(u.clause, to) != hi || hi != lo+1 {
			return false
		}
		neg, plain = neg || on[u.key], plain || !on[u.key]
	}
	return neg && plain
}

// negatedWords marks the content words a negation word stands right before.
func negatedWords(us []dunit) map[string]bool {
	x := slex()
	out := map[string]bool{}
	for i := 1; i < len(us); i++ {
		if us[i].content() && x.modal[us[i-1].key] < 0 {
			out[us[i].key] = true
		}
	}
	return out
}

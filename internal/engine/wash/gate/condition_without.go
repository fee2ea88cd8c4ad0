package gate

// A "without X" phrase takes a case out of what it qualifies: "production deployments without
// confirmation" are out of scope, deployments with it are not; "ohne Rückfrage", "sans
// validation", "без подтверждения". The phrase is a condition of its clause (condWithout),
// whether or not the clause says a rule word: a result that drops it widens the statement to
// every case. It is kept by a counterpart that still says a "without", in whatever words
// ("without requesting additional permission" said "without asking again"), or says it as an
// exception, a condition or a restriction ("unless confirmed", "only after confirmation").
const condWithout = "without"

// condCompatible reports a counterpart's condition kinds that can keep a condition of kind:
// its own, or for a "without", an exception, a condition or a restriction.
func condCompatible(kind string, conds []string) bool {
	if containsStr(conds, kind) {
		return true
	}
	if kind != condWithout {
		return false
	}
	return containsStr(conds, condExcept) || containsStr(conds, condIf) || containsStr(conds, condOnly)
}

// withoutSaid reports a counterpart clause saying a "without".
func withoutSaid(uc []clauseInfo) bool {
	for _, u := range uc {
		if u.without {
			return true
		}
	}
	return false
}

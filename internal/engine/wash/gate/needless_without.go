package gate

import "strings"

// "No X needed" and "without X" say one thing: "## Ausnahmen (kein .ctx nötig)" said "##
// Ausnahmen (ohne .ctx)", "(no token required)" said "(without a token)". The first reads as a
// prohibition of the need word's clause and the second as a condition, so the rule would read
// as lost. A negated clause whose words are a need word and the rest is kept by a counterpart
// clause saying a "without" over all of the rest.

// needText gives, per language, the words saying a thing is needed. It is read only when a
// rule seems lost, so it is built there, not at start-up.
func needText() []string {
	return []string{
		"needed required necessary",               // en
		"nötig notwendig erforderlich benötigt",   // de
		"nécessaire requis requise",               // fr
		"necesario necesaria requerido requerida", // es
		"necessário necessária exigido exigida",   // pt
		"нужен нужна нужно нужны требуется необходим необходимо", // ru
	}
}

// needlessWithout reports a negated need ("kein .ctx nötig") a counterpart says as a "without"
// over the same words ("ohne .ctx").
func needlessWithout(cl clauseInfo, uc []clauseInfo) bool {
	if cl.level >= 0 {
		return false
	}
	var rest []string
	needs := 0
	stems := stemSet(strings.Join(needText(), " "))
	for _, st := range cl.stems {
		if stems[st] {
			needs++
		} else {
			rest = append(rest, st)
		}
	}
	if needs == 0 || len(rest) == 0 {
		return false
	}
	for _, u := range uc {
		if u.without && shared(rest, u.stems) == len(rest) {
			return true
		}
	}
	return false
}

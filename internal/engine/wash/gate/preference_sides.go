package gate

import "strings"

// A substitution ("A statt B", "Statt B A", "A instead of B", "A вместо B") states two rules
// at once: A is done, B is not. Its joiner gives the clause the level of a preference, which is
// right for the pair and wrong for each side: "Keine Magic Numbers — Konstanten definieren" said
// "Statt Magic Numbers Konstanten definieren" keeps the prohibition (Magic Numbers are the side
// not chosen) and the plain rule (Konstanten definieren is the side chosen). So a counterpart
// whose only rule word is such a joiner is read, against an original clause, from the side that
// clause's words stand on: the rejected side as a prohibition, the chosen side as a plain rule.
// The side is told by the word next to the joiner on the rejected side (after "statt" and
// "instead of", before "in favor of"), which is the rejected side's first word wherever the
// joiner stands. Joiners inside a run of Chinese or Japanese are left as they are.

// preferenceSides returns matches with each substitution read from cl's side (see above). The
// chosen side reads as plain only when a prohibition of oc forbade the rejected one: "Keep
// commits small" said "Keep commits small instead of large" adds a preference of its own.
func preferenceSides(cl clauseInfo, oc, matches []clauseInfo) []clauseInfo {
	out := append([]clauseInfo(nil), matches...)
	for i, m := range out {
		if m.mixed || !preferenceOnly(m) {
			continue
		}
		next, ok := rejectedNeighbour(m)
		if !ok {
			continue
		}
		rejected := containsStr(cl.stems, next)
		switch {
		case cl.level < 0 && rejected:
			m.level, m.weak = -3, false
		case cl.level >= 0 && !rejected && !m.without && saidAt(next, oc, func(l int) bool { return l < 0 }):
			m.level, m.weak = 0, false
		default:
			continue
		}
		out[i] = m
	}
	return out
}

// rejectedNeighbour returns the stem next to a clause's preference joiner on the side it does not
// choose: the first after a joiner choosing the first side ("statt", "instead of"), the last
// before one choosing the second ("in favor of").
func rejectedNeighbour(m clauseInfo) (string, bool) {
	x := slex()
	for _, w := range m.negWords {
		dir, ok := x.pref[w]
		if !ok {
			continue
		}
		at, n := joinerAt(m.toks, strings.Fields(w))
		if at < 0 {
			continue
		}
		var side []string
		if dir > 0 {
			side = clauseStems(m.toks[at+n:])
		} else {
			side = clauseStems(m.toks[:at])
		}
		if len(side) == 0 {
			return "", false
		}
		if dir > 0 {
			return side[0], true
		}
		return side[len(side)-1], true
	}
	return "", false
}

// joinerAt returns the token index where the words of a joiner start in toks, and their count;
// -1 when they are not there as words.
func joinerAt(toks []ctok, words []string) (int, int) {
	for i := 0; i+len(words) <= len(toks); i++ {
		match := true
		for k, w := range words {
			if toks[i+k].kind != tWord || toks[i+k].text != w {
				match = false
				break
			}
		}
		if match {
			return i, len(words)
		}
	}
	return -1, 0
}

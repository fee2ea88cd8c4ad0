package gate

import "strings"

// A bound written in words before a number ("no more than 5", "не менее 80%", "nicht mehr als
// 3") is part of the value (qualifierText), not a rule of the clause: its negation word does
// not make the clause a prohibition, so "Keep no more than 5 replicas" and "Keep ≤ 5 replicas"
// say the same thing.

// boundWordsAt returns how many words of a bound phrase start at words[i] and stand right
// before a number of toks, or 0.
func boundWordsAt(x *stmtLexicon, words []string, toks []ctok, i int) int {
	for _, e := range x.qualBefore {
		if e.lang == "cjk" {
			continue
		}
		n := strings.Count(e.text, " ") + 1
		if i+n >= len(toks) || toks[i+n].kind != tNum || strings.Join(words[i:i+n], " ") != e.text {
			continue
		}
		return n
	}
	return 0
}

// withoutBoundAfter leaves out of a statement's diff units the words of a bound written after
// a number ("20 or later", "80% и более"): the values pass compares the bound with the number,
// and "or later" is no item of a list.
func withoutBoundAfter(us []dunit) []dunit {
	out := us[:0]
	for k := 0; k < len(us); k++ {
		out = append(out, us[k])
		if us[k].kind == tNum {
			k += boundAfterUnits(us[k+1:])
		}
	}
	return out
}

// boundAfterUnits returns how many units at the start of us are a word bound after a number
// (boundAfterText), or 0.
func boundAfterUnits(us []dunit) int {
	if len(us) == 0 || us[0].kind != tWord {
		return 0
	}
	for _, e := range slex().qualAfter {
		if e.lang == "" || isCJKLang(e.lang) {
			continue
		}
		words := strings.Fields(e.text)
		if len(words) > len(us) || words[0] != us[0].key {
			continue
		}
		n := 0
		for n < len(words) && us[n].key == words[n] && us[n].clause == us[0].clause {
			n++
		}
		if n == len(words) {
			return n
		}
	}
	return 0
}

package gate

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// A negated opposite is redundant: "sofort fixen, nicht ignorieren", "keep the logs, don't
// delete them", "修复，不要忽略" say X and then that its opposite is not done, which X already
// says. The negated half left out loses no rule while X stays, in the original and, not negated,
// in the result, and the half says nothing but the opposite and what X's clause in the result
// says (its object). "Fix lint errors, don't ignore warnings" said "Fix lint errors" loses the
// warnings, and "fix it, don't ignore it" said "ignore it" keeps no X: both still drop.

// actionPair is one pair of opposite actions of oppositeActionText: each side's forms, by the
// prefix of a word (Latin, Cyrillic, Hangul) or a text inside a run of Chinese or Japanese.
type actionPair struct{ a, b []string }

// buildOpposites reads oppositeActionText.
func buildOpposites() []actionPair {
	var out []actionPair
	for _, pairs := range oppositeActionText() {
		for _, p := range strings.Fields(pairs) {
			a, b, _ := strings.Cut(p, "|")
			out = append(out, actionPair{strings.Split(a, "/"), strings.Split(b, "/")})
		}
	}
	return out
}

// redundantOpposite reports a negated clause cl of oc that only denies the opposite of an
// action another clause of oc does, which the result still does.
func redundantOpposite(cl clauseInfo, oc, uc []clauseInfo) bool {
	if !saysNegation(cl) {
		return false
	}
	for _, p := range slex().opposite {
		for _, side := range [2][2][]string{{p.a, p.b}, {p.b, p.a}} {
			do, anti := side[0], side[1]
			antiStems, ok := actionStems(cl, anti)
			if !ok || !doneBy(do, oc) {
				continue
			}
			rest := cl.stems
			for _, st := range append(antiStems, ruleWordStems(cl)...) {
				rest = without(rest, st)
			}
			for _, u := range uc {
				if _, says := actionStems(u, do); says && !saysNegation(u) && shared(rest, u.stems) == len(rest) {
					return true
				}
			}
		}
	}
	return false
}

// doneBy reports a clause of cls that does one of the forms, not negated.
func doneBy(forms []string, cls []clauseInfo) bool {
	for _, c := range cls {
		if _, ok := actionStems(c, forms); ok && !saysNegation(c) {
			return true
		}
	}
	return false
}

// actionStems returns the stems of cl that say one of the forms: a word starting with a Latin,
// Cyrillic or Hangul form, the characters of a Chinese or Japanese form inside a run.
func actionStems(cl clauseInfo, forms []string) ([]string, bool) {
	var out []string
	for _, f := range forms {
		r, _ := utf8.DecodeRuneInString(f)
		cjk := unicode.Is(unicode.Han, r) || unicode.In(r, unicode.Hiragana, unicode.Katakana)
		for _, t := range cl.toks {
			switch {
			case cjk && t.kind == tCJK && strings.Contains(t.text, f):
				out = append(out, cjkUnits(f)...)
			case t.kind == tWord && strings.HasPrefix(elided(t.text), f):
				out = append(out, wordStem(elided(t.text)))
			case t.kind == tHangul && strings.HasPrefix(t.text, f):
				out = append(out, hangulStem(t.text))
			}
		}
	}
	return out, len(out) > 0
}

// saysNegation reports a negation among cl's rule words ("not", "nicht", "不要", "않고"), not a
// verb of omission alone ("skip the tests" leaves them out; it denies nothing).
func saysNegation(cl clauseInfo) bool {
	x := slex()
	for _, w := range cl.negWords {
		if x.modal[w] < 0 && !x.omission[w] {
			return true
		}
		for _, e := range x.cjkModal {
			if e.text == w && e.level < 0 {
				return true
			}
		}
	}
	return false
}

// ruleWordStems returns the stems of cl's Korean rule words, which its stems keep ("마세요" of
// "무시하지 마세요").
func ruleWordStems(cl clauseInfo) []string {
	var out []string
	for _, t := range cl.toks {
		if t.kind == tHangul && containsStr(cl.negWords, t.text) {
			out = append(out, hangulStem(t.text))
		}
	}
	return out
}

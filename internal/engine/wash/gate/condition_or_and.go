package gate

import (
	"fmt"
	"strings"
)

// The alternatives of a condition or a threshold are joined by "or": "only for complex tasks
// (3+ steps or architectural impact)" holds for either. Said with "and" ("3+ steps and
// architectural impact"), both are needed, and the rule covers fewer cases. So in a statement
// that carries a condition, or in a clause that carries a number, an "or" whose two neighbours
// a counterpart keeps around an "and" of the same language is a condition drop. The words are
// per language; in Chinese and Japanese they are matched inside a run of text, with the
// characters either side of them.

// orAndText gives, per language, the words of "or" and, after "|", the words of "and" they
// may be exchanged for.
func orAndText() []string {
	return []string{
		"or|and", "oder|und", "ou|et", "o u|y e", "ou|e", "или либо|и", // en de fr es pt ru
		"또는 혹은 이나|및 그리고", "或 或者|和 且 并且 与 及", "または もしくは|かつ および 及び",
	}
}

// orAndPairs maps each "or" word to the "and" words of its language.
func orAndPairs() map[string][]string {
	out := map[string][]string{}
	for _, e := range orAndText() {
		ors, ands, _ := strings.Cut(e, "|")
		for _, o := range strings.Fields(ors) {
			out[o] = append(out[o], strings.Fields(ands)...)
		}
	}
	return out
}

// orAndPass reports an "or" of a condition or threshold that the counterparts say as "and".
func (c *stmtCompare) orAndPass(s, u *stmt, oc, uc []clauseInfo) {
	conditional := false
	for _, cl := range oc {
		conditional = conditional || len(cl.conds) > 0
	}
	pairs := smallSets().orAnd
	for _, cl := range oc {
		if !conditional && !hasNumber(cl) {
			continue
		}
		if a, b, and, ok := orSaidAnd(cl, oc, conditionalClauses(uc), pairs); ok {
			c.drop(Token{TypeCondition, a + " or " + b}, s, u,
				fmt.Sprintf("alternatives %q or %q now both required (%q)", a, b, and))
			return
		}
	}
}

// conditionalClauses returns the clauses of cls that carry a condition or a number: an "and"
// elsewhere ("If there are risks or assumptions, state them" said "State risks and
// assumptions") joins what the rule is about, no condition.
func conditionalClauses(cls []clauseInfo) []clauseInfo {
	var out []clauseInfo
	for _, cl := range cls {
		if len(cl.conds) > 0 || hasNumber(cl) {
			out = append(out, cl)
		}
	}
	return out
}

// hasNumber reports a clause holding a number: a threshold.
func hasNumber(cl clauseInfo) bool {
	for _, t := range cl.toks {
		if t.kind == tNum {
			return true
		}
	}
	return false
}

// orSaidAnd finds an "or" of clause cl whose neighbours a conditional counterpart clause joins by an "and"
// the original never says between them: the two neighbours and the "and" word.
func orSaidAnd(cl clauseInfo, oc, uc []clauseInfo, pairs map[string][]string) (a, b, and string, ok bool) {
	for i := 1; i+1 < len(cl.toks); i++ {
		t := cl.toks[i]
		if t.kind != tWord && t.kind != tHangul {
			continue
		}
		for _, w := range pairs[t.text] {
			win := [3]string{cl.toks[i-1].text, w, cl.toks[i+1].text}
			if tokWindow(uc, win) && !tokWindow(oc, win) {
				return win[0], win[2], w, true
			}
		}
	}
	for _, t := range cl.toks {
		if t.kind != tCJK {
			continue
		}
		if a, b, and, ok := cjkOrSaidAnd(t.text, oc, uc, pairs); ok {
			return a, b, and, ok
		}
	}
	return "", "", "", false
}

// cjkOrSaidAnd is orSaidAnd inside a run of Chinese or Japanese: the two characters either
// side of the "or" kept around an "and".
func cjkOrSaidAnd(run string, oc, uc []clauseInfo, pairs map[string][]string) (a, b, and string, ok bool) {
	for o, ands := range pairs {
		k := strings.Index(run, o)
		if k <= 0 || !isCJKText(o) {
			continue
		}
		before, after := lastRunes(run[:k], 2), firstRunes(run[k+len(o):], 2)
		if after == "" {
			continue
		}
		for _, w := range ands {
			if pat := before + w + after; runSays(uc, pat) && !runSays(oc, pat) {
				return before, after, w, true
			}
		}
	}
	return "", "", "", false
}

// isCJKText reports a word written in Han or kana.
func isCJKText(w string) bool {
	for _, r := range w {
		return r >= 0x3040
	}
	return false
}

func lastRunes(s string, n int) string {
	r := []rune(s)
	return string(r[max(0, len(r)-n):])
}

func firstRunes(s string, n int) string {
	r := []rune(s)
	return string(r[:min(n, len(r))])
}

// tokWindow reports three consecutive words of cls.
func tokWindow(cls []clauseInfo, win [3]string) bool {
	for _, cl := range cls {
		for i := 0; i+2 < len(cl.toks); i++ {
			if cl.toks[i].text == win[0] && cl.toks[i+1].text == win[1] && cl.toks[i+2].text == win[2] {
				return true
			}
		}
	}
	return false
}

// runSays reports a run of Chinese or Japanese text of cls holding pat.
func runSays(cls []clauseInfo, pat string) bool {
	for _, cl := range cls {
		for _, t := range cl.toks {
			if t.kind == tCJK && strings.Contains(t.text, pat) {
				return true
			}
		}
	}
	return false
}

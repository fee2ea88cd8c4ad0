package gate

import (
	"fmt"
	"slices"
	"strings"
)

// A parenthesis that opens with a requirement word states a precondition of what it follows:
// "**Playwright E2E** (requires running containers):", "Backup (erfordert Root-Rechte)". A
// summary dropping it keeps every other word, and the words it drops are no values, so only
// the parenthesis itself can say that the condition went missing.

// parenConditionPass reports a parenthetical precondition of s that no counterpart sentence
// says: two thirds of its words after the requirement word.
func (c *stmtCompare) parenConditionPass(s, u *stmt, oc, uc []clauseInfo) {
	for _, cl := range oc {
		words, ok := parenCondition(cl)
		if !ok || parenConditionSaid(words, uc) {
			continue
		}
		text := strings.TrimRight(strings.TrimSpace(cl.text), ":,;.")
		c.drop(Token{TypeCondition, ruleKey(cl)}, s, u, fmt.Sprintf("condition %q missing", text))
		return
	}
}

// parenCondition returns the stems of a clause that is a parenthesis opening with a
// requirement word, without that word.
func parenCondition(cl clauseInfo) ([]string, bool) {
	if !strings.HasPrefix(strings.TrimSpace(cl.text), "(") || len(cl.toks) < 2 {
		return nil, false
	}
	t := cl.toks[0]
	if t.kind != tWord || !smallSets().requires[t.text] {
		return nil, false
	}
	words := clauseStems(cl.toks[1:])
	return words, len(words) > 0
}

// parenConditionSaid reports counterpart clauses saying two thirds of words: in one sentence,
// or, for a compound, each of its parts anywhere in them (a merged line says
// "Windows-Umgebung" and "Linux-Umgebung" as "Windows- bzw. Linux-Umgebung").
func parenConditionSaid(words []string, uc []clauseInfo) bool {
	var parts []string
	for _, u := range uc {
		if shared(words, u.sentStems) >= need(len(words)) {
			return true
		}
		for _, st := range u.stems {
			parts = append(parts, strings.Split(st, "-")...)
		}
	}
	n := 0
	for _, w := range words {
		if allParts(w, parts) {
			n++
		}
	}
	return n > 0 && n >= need(len(words))
}

// allParts reports a hyphenated compound each of whose parts is a part of parts, or starts
// with one of four letters or more (Windows, window).
func allParts(w string, parts []string) bool {
	ps := strings.Split(w, "-")
	if len(ps) < 2 {
		return false
	}
	for _, p := range ps {
		if p != "" && !slices.ContainsFunc(parts, func(q string) bool { return q == p || len(q) >= 4 && strings.HasPrefix(p, q) }) {
			return false
		}
	}
	return true
}

package gate

import (
	"fmt"
	"slices"
	"strings"
)

// contrastFlipPass reports a contrast "A, not B" the result says the other way round, "B, not
// A" ("Pourquoi, pas quoi" said "Quoi, pas pourquoi", "Warum, nicht was"): each side's words
// are kept, so no rule word is lost and the words of A and B may be function words (quoi, was)
// the word diff passes over; the negation now governs what the original asked for.
func (c *stmtCompare) contrastFlipPass(s, u *stmt, oc, uc []clauseInfo) {
	oa, ob, ok := contrastSides(oc)
	if !ok {
		return
	}
	ua, ub, ok := contrastSides(uc)
	if !ok || !slices.Equal(oa, ub) || !slices.Equal(ob, ua) {
		return
	}
	c.drop(Token{TypePolarity, ruleKey(oc[len(oc)-1])}, s, u, fmt.Sprintf("%q, not %q said the other way round", strings.Join(oa, " "), strings.Join(ob, " ")))
}

// contrastSides reads a statement's last sentence as a contrast: a plain clause, then a clause
// after its comma that opens with its negation; it returns the words of each, the negation left
// out, sorted.
func contrastSides(cls []clauseInfo) (a, b []string, ok bool) {
	if len(cls) < 2 {
		return nil, nil, false
	}
	p, n := cls[len(cls)-2], cls[len(cls)-1]
	if p.sentence != n.sentence || !n.comma || n.level >= 0 || p.level != 0 || p.modal != "" || len(n.toks) == 0 || !slices.Contains(n.negWords, n.toks[0].text) {
		return nil, nil, false
	}
	a, b = clauseWordList(p.toks, nil), clauseWordList(n.toks[1:], n.negWords)
	return a, b, len(a) > 0 && len(b) > 0 && len(a) <= 3 && len(b) <= 3
}

// clauseWordList returns the words and code of toks, those of skip left out, sorted.
func clauseWordList(toks []ctok, skip []string) []string {
	var out []string
	for _, t := range toks {
		if (t.kind == tWord || t.kind == tCode || t.kind == tHangul || t.kind == tCJK) && !slices.Contains(skip, t.text) {
			out = append(out, t.text)
		}
	}
	slices.Sort(out)
	return out
}

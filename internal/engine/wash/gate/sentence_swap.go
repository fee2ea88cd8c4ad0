package gate

import (
	"fmt"
	"slices"
	"strings"
)

// The transposition pass: two content spans of an aligned statement that trade places, the
// rest kept ("Prefer small edits to wide rewrites" said "Prefer wide rewrites to small edits",
// 나쁜 예 → 좋은 예 said 좋은 예 → 나쁜 예, "disallowed in production code but allowed in test
// files" said the other way round). Order is a fact only where the text makes it one: two items
// of a list, joined by a coordinator or a comma ("lint and tests", "A, B, C"), may trade places
// freely.

// swapPass reports a statement whose one counterpart makes two of its content spans trade
// places, when no other pass has reported the statement.
func (c *stmtCompare) swapPairPass(s, u *stmt, oc, uc []clauseInfo) {
	if c.dropped(s) || len(c.mergedInto(u)) > 1 {
		return
	}
	ou, uu := diffUnits(oc), diffUnits(uc)
	first, second, moved, ok := transposition(swapHunks(diffHunks(ou, uu), ou), ou)
	if !ok || listItems(ou, first, second) || moved && !orderedMove(ou, uu, first, second) {
		return
	}
	a, b := unitsText(trimSpan(ou[first[0]:first[1]])), unitsText(trimSpan(ou[second[0]:second[1]]))
	if moved || orderBetween(ou, first, second) {
		if !c.cfg.skipType[TypeOrder] {
			c.drop(Token{TypeOrder, a + ", " + b}, s, u, fmt.Sprintf("order of %s, %s reversed", a, b))
		}
		return
	}
	if !c.cfg.noBinding && !c.cfg.skipType[TypeBindingSwap] {
		c.drop(Token{TypeBindingSwap, a + " / " + b}, s, u, fmt.Sprintf("%s and %s trade places", a, b))
	}
}

// transposition reads two hunks that make two spans of the original trade places: either each
// says what the other said (A … B became B … A, the words between kept: a crossing), or one
// span deleted is inserted again beyond its neighbour (A B became B A: a move). It returns the
// two spans as ranges of ou, in order, and whether it was a move.
func transposition(hs []hunk, ou []dunit) (first, second [2]int, moved, ok bool) {
	if len(hs) != 2 {
		return first, second, false, false
	}
	h1, h2 := hs[0], hs[1]
	switch {
	case len(h1.del) > 0 && len(h1.ins) > 0 && len(h2.del) > 0 && len(h2.ins) > 0:
		if !sameContent(h1.del, h2.ins) || !sameContent(h1.ins, h2.del) || !hasContent(h1.del) || !hasContent(h2.del) {
			return first, second, false, false
		}
		return [2]int{h1.at, h1.at + len(h1.del)}, [2]int{h2.at, h2.at + len(h2.del)}, false, true
	case len(h1.del) > 0 && len(h1.ins) == 0 && len(h2.del) == 0 && len(h2.ins) > 0 && sameContent(h1.del, h2.ins):
		// The span at h1 moved right, past the words up to h2.
		return [2]int{h1.at, h1.at + len(h1.del)}, [2]int{h1.at + len(h1.del), h2.at}, true, hasContent(h1.del) && hasContent(ou[h1.at+len(h1.del):h2.at])
	case len(h1.del) == 0 && len(h1.ins) > 0 && len(h2.del) > 0 && len(h2.ins) == 0 && sameContent(h2.del, h1.ins):
		// The span at h2 moved left, before the words from h1.
		return [2]int{h1.at, h2.at}, [2]int{h2.at, h2.at + len(h2.del)}, true, hasContent(h2.del) && hasContent(ou[h1.at:h2.at])
	}
	return first, second, false, false
}

// swapHunks leaves out of a statement's hunks those that cannot hide a swap: an article or
// another function word added or dropped ("os `AGENTS.md` mais gerais"), and, beside a crossing
// of two spans, a word of one span exchanged for a word of the other where the statement
// repeats it ("函数定义的开括号…与语句同行" said "控制语句的开括号…与定义同行": the echo of
// the swapped subjects).
func swapHunks(hs []hunk, ou []dunit) []hunk {
	var out []hunk
	for _, h := range hs {
		if hasContent(h.del) || hasContent(h.ins) {
			out = append(out, h)
		}
	}
	if len(out) != 3 {
		return out
	}
	for k := range out {
		rest := append(append([]hunk(nil), out[:k]...), out[k+1:]...)
		first, second, moved, ok := transposition(rest, ou)
		if !ok || moved {
			continue
		}
		a, b := ou[first[0]:first[1]], ou[second[0]:second[1]]
		if within(out[k].del, a) && within(out[k].ins, b) || within(out[k].del, b) && within(out[k].ins, a) {
			return rest
		}
	}
	return out
}

// within reports units whose content units are all words of span, one content unit at least.
func within(us, span []dunit) bool {
	n := 0
	for _, u := range us {
		if !u.content() {
			continue
		}
		n++
		if !anyUnit(span, u.same) {
			return false
		}
	}
	return n > 0
}

// orderedMove reports a move that changes what the statement says: the two spans were joined
// by a word of order (an arrow, "before", "over": 나쁜 예 → 좋은 예), or each span changed its
// endings as it moved (Russian "небольшие правки широким переписываниям" said "широкие
// переписывания небольшим правкам": the cases, and so the roles, traded places). A move of
// words in their own forms is word order, which many languages leave free ("Не устанавливайте
// пакеты" said "Пакеты не устанавливайте", "never silently ignore" said "never ignore silently").
func orderedMove(ou, uu []dunit, first, second [2]int) bool {
	return orderBetween(ou, first, second) || reinflected(ou[first[0]:first[1]], uu) && reinflected(ou[second[0]:second[1]], uu)
}

// orderBetween reports a word of order between two spans ("staging before prod"): spans that
// trade places across it reverse an order, whether they moved or crossed.
func orderBetween(ou []dunit, first, second [2]int) bool {
	for i := lastContent(ou, first) + 1; i < firstContent(ou, second); i++ {
		if ou[i].order {
			return true
		}
	}
	return false
}

// reinflected reports a span of the original whose content words the result says with other
// endings (one stem, another form). A word the result still says in its own form kept its
// ending, whatever word of its stem stands elsewhere: "Commit messages: Conventional Commits"
// said "Conventional Commits for commit messages" is a label and its value reordered.
func reinflected(span, uu []dunit) bool {
	for _, u := range span {
		if !u.content() || anyUnit(uu, func(v dunit) bool { return v.key == u.key }) {
			continue
		}
		for _, v := range uu {
			if v.content() && v.stem != "" && v.stem == u.stem && v.key != u.key {
				return true
			}
		}
	}
	return false
}

// sameContent reports two unit lists with the same content units in the same order.
func sameContent(a, b []dunit) bool {
	var ac, bc []dunit
	for _, u := range a {
		if u.content() {
			ac = append(ac, u)
		}
	}
	for _, u := range b {
		if u.content() {
			bc = append(bc, u)
		}
	}
	if len(ac) != len(bc) {
		return false
	}
	for i := range ac {
		if !ac[i].same(bc[i]) {
			return false
		}
	}
	return true
}

// listItems reports two spans that are items of one list: after the first span (its function
// words, and the words the second span has after it too, passed over) comes a coordinator or
// the end of its clause, and before the second span the same ("API 문서 및 CLI 문서": each item
// is a name and the head both share). "Run lint and tests" may say "Run tests and lint"; "A
// wins over B" may not say "B wins over A".
func listItems(ou []dunit, first, second [2]int) bool {
	i, j := lastContent(ou, first), lastContent(ou, second)
	fi, fj := firstContent(ou, first), firstContent(ou, second)
	return joined(ou, i, j, 1) && joined(ou, fj, fi, -1)
}

// joined walks from unit i in direction dir, over function words and the words that also
// follow (or precede) unit j, and reports whether it reaches a coordinator or a clause's end
// before a content or ordering word.
func joined(ou []dunit, i, j, dir int) bool {
	for k := 1; ; k++ {
		a := i + dir*k
		if a < 0 || a >= len(ou) || ou[a].coord || ou[a].clause != ou[i].clause {
			return true
		}
		if ou[a].rule || ou[a].order {
			return false
		}
		if b := j + dir*k; b >= 0 && b < len(ou) && ou[a].same(ou[b]) || !ou[a].content() {
			continue
		}
		return false
	}
}

// firstContent and lastContent are the first and last content units of a span.
func firstContent(ou []dunit, r [2]int) int {
	for i := r[0]; i < r[1]; i++ {
		if ou[i].content() {
			return i
		}
	}
	return r[0]
}

func lastContent(ou []dunit, r [2]int) int {
	for i := r[1] - 1; i >= r[0]; i-- {
		if ou[i].content() {
			return i
		}
	}
	return r[1] - 1
}

// trimSpan leaves out a span's leading and trailing function words, for a message.
func trimSpan(us []dunit) []dunit {
	for len(us) > 0 && !us[0].content() {
		us = us[1:]
	}
	for len(us) > 0 && !us[len(us)-1].content() {
		us = us[:len(us)-1]
	}
	return us
}

// modifiersReordered reports two modifiers of one head that trade places across a comma
// ("Nomes em inglês, descritivos" said "Nomes descritivos, em inglês"): on each side the
// regrouping changed two clauses, one the head with a modifier, the other a bare modifier of
// one word, which the other side's head clause says, every word in its own form. That is free
// word order; words trading places between two subjects ("Cast = async, Call = sync") are a
// swap.
func modifiersReordered(oc, uc []clauseInfo) bool {
	co, cu := changedClauses(oc, uc), changedClauses(uc, oc)
	oh, ob, ok1 := headAndModifier(co)
	uh, ub, ok2 := headAndModifier(cu)
	return ok1 && ok2 && oh.stems[0] == uh.stems[0] && containsStr(uh.stems, ob) && containsStr(oh.stems, ub) &&
		slices.Equal(writtenWords(co), writtenWords(cu)) && (withPreposition(co, ob) || withPreposition(cu, ub))
}

// withPreposition reports that the bare modifier w stands in its clause with a function word (a
// preposition: "em inglês", "in English"): a phrase that qualifies the head wherever it
// stands.
func withPreposition(cls []clauseInfo, w string) bool {
	for _, cl := range cls {
		if len(cl.stems) == 1 && cl.stems[0] == w {
			return len(writtenWords([]clauseInfo{cl})) > 1
		}
	}
	return false
}

// writtenWords are the words of clauses as written, sorted: words moved in their own forms say
// the same; one whose ending changed as it moved took another role (see orderedMove).
func writtenWords(cls []clauseInfo) []string {
	var out []string
	for _, cl := range cls {
		for _, t := range cl.toks {
			if t.kind == tWord || t.kind == tHangul || t.kind == tCJK {
				out = append(out, t.text)
			}
		}
	}
	slices.Sort(out)
	return out
}

// headAndModifier splits two changed clauses into the head clause (two words or more) and
// the bare modifier (one word).
func headAndModifier(cls []clauseInfo) (clauseInfo, string, bool) {
	if len(cls) != 2 {
		return clauseInfo{}, "", false
	}
	h, m := cls[0], cls[1]
	if len(h.stems) == 1 {
		h, m = m, h
	}
	return h, m.stems[0], len(h.stems) >= 2 && len(m.stems) == 1
}

// changedClauses are the clauses of a with content whose words no clause of b says alone.
func changedClauses(a, b []clauseInfo) []clauseInfo {
	bags := map[string]bool{}
	for _, cl := range b {
		bags[strings.Join(sortedStems(cl), " ")] = true
	}
	var out []clauseInfo
	for _, cl := range a {
		if len(cl.stems) > 0 && !bags[strings.Join(sortedStems(cl), " ")] {
			out = append(out, cl)
		}
	}
	return out
}

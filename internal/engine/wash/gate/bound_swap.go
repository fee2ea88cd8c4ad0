package gate

import (
	"fmt"
	"strings"
)

// A condensed line may keep every word and still trade what two items are bound to: "Call
// `a()` (full logout) or `b()` (session swap)" said "Call `a()` (session swap) or `b()` (full
// logout)", "на русском для логики, на английском для деталей" said the other way round. The
// diff of such a pair reads as words moved, not as two spans crossing, so the transposition
// pass cannot see it. Read by the places of the words instead: two words, each said once on
// each side, trade sides of a third word both sides keep between them. A word moved next to
// its own partner (free word order, a clause put first) crosses no kept word the other one
// crosses back, so it is no swap.

// boundSwapMaxUnits bounds the statements read: the search is cubic in their words.
const boundSwapMaxUnits = 80

// boundSwapPass reports a statement whose one counterpart makes two of its content words
// trade sides of a word kept between them, when no other pass has reported the statement.
func (c *stmtCompare) boundSwapPass(s, u *stmt, oc, uc []clauseInfo) {
	if c.cfg.noBinding || c.cfg.skipType[TypeBindingSwap] || c.dropped(s) || len(c.mergedInto(u)) > 1 {
		return
	}
	x, y, q, ok := boundSwap(contentPlaces(diffUnits(oc)), contentPlaces(diffUnits(uc)))
	if !ok {
		return
	}
	c.drop(Token{TypeBindingSwap, x + " / " + y}, s, u, fmt.Sprintf("%s and %s trade places around %s", x, y, q))
}

// place is a content word of a statement: its identity (a stem, else its folded form) with
// how many times the statement said it before, its text and its index among the content words.
type place struct {
	id   string
	nth  int
	text string
	at   int
}

// contentPlaces lists the content words of units in order, numbering repeats; a coordinator
// (및, and) joins items and binds none.
func contentPlaces(us []dunit) []place {
	seen := map[string]int{}
	var out []place
	for _, u := range us {
		if !u.content() || u.coord {
			continue
		}
		id := u.stem
		if id == "" {
			id = u.key
		}
		out = append(out, place{id: id, nth: seen[id], text: u.text, at: len(out)})
		seen[id]++
	}
	return out
}

// boundSwap finds words x and y of o of one kind (two code spans, two words), each said once
// in o and once in r, x before y in o and after it in r, and a word q both sides keep between
// them, said once too: x and y crossed q in opposite directions. A word both sides keep before them, the head
// the two items hang from, must stay first: a sentence turned round ("User entscheidet: wann"
// said "Wann …, entscheidet der User", "在 `a/` 中注册 b" said "b 注册在 `a/` 中") moves its
// subject, not what two items are bound to.
func boundSwap(o, r []place) (x, y, q string, ok bool) {
	if len(o) > boundSwapMaxUnits || len(r) > boundSwapMaxUnits {
		return "", "", "", false
	}
	where := map[[2]any]int{}
	count := map[string]int{}
	for _, p := range r {
		where[[2]any{p.id, p.nth}] = p.at
		count[p.id]++
	}
	once := func(p place) bool { return count[p.id] == 1 && p.nth == 0 && onceIn(o, p.id) }
	for i, a := range o {
		if !once(a) {
			continue
		}
		for _, b := range o[i+1:] {
			ra, rb := where[[2]any{a.id, 0}], where[[2]any{b.id, 0}]
			if a.id == b.id || !once(b) || rb >= ra || isCode(a.text) != isCode(b.text) {
				continue
			}
			if _, head := keptBetween(o[:i], where, -1, rb); !head {
				continue
			}
			if !tookSlot(o, r, b.at, ra) || !tookSlot(o, r, a.at, rb) {
				continue
			}
			if k, found := keptBetween(onlyOnce(o[i+1:b.at], o, count), where, rb, ra); found {
				return a.text, b.text, k, true
			}
		}
	}
	return "", "", "", false
}

// tookSlot reports that the word at r[to] stands where o[from] stood: a neighbour of the one
// in o (a word or an end of the statement) is a neighbour of the other in r. Two items that
// traded what they are bound to each took the other's place; a sentence recast from passive to
// active ("they are read by customers, so write them plainly" said "write plainly: customers
// read them") moves its words to places neither had.
func tookSlot(o, r []place, from, to int) bool {
	for _, m := range neighbours(o, from) {
		for _, n := range neighbours(r, to) {
			if m == n {
				return true
			}
		}
	}
	return false
}

// neighbours are the identities of the words either side of ps[i], "^" and "$" for the ends.
func neighbours(ps []place, i int) [2]string {
	nb := [2]string{"^", "$"}
	if i > 0 {
		nb[0] = ps[i-1].id
	}
	if i+1 < len(ps) {
		nb[1] = ps[i+1].id
	}
	return nb
}

// keptBetween returns a word of span whose counterpart in r stands strictly between from and to.
func keptBetween(span []place, where map[[2]any]int, from, to int) (string, bool) {
	for _, p := range span {
		if at, ok := where[[2]any{p.id, p.nth}]; ok && at > from && at < to {
			return p.text, true
		}
	}
	return "", false
}

// onlyOnce returns the words of span said once in o and once in r (count): a word the
// statement repeats is the head its list items share ("API 문서 및 CLI 문서" said "CLI 문서 및
// API 문서"), and items of a list may trade places.
func onlyOnce(span, o []place, count map[string]int) []place {
	var out []place
	for _, p := range span {
		if count[p.id] == 1 && onceIn(o, p.id) {
			out = append(out, p)
		}
	}
	return out
}

// onceIn reports a word said once in ps.
func onceIn(ps []place, id string) bool {
	n := 0
	for _, p := range ps {
		if p.id == id {
			n++
		}
	}
	return n == 1
}

// isCode reports a code span.
func isCode(text string) bool { return strings.HasPrefix(text, "`") }

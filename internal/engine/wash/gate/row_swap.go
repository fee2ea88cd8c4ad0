package gate

import (
	"fmt"
	"sort"
	"strings"
)

// Two statements of a list or a table may keep their words and trade what they bind: the
// naming list's "PascalCase - classes" and "SCREAMING_SNAKE_CASE - constants" said "PascalCase -
// constants" and "SCREAMING_SNAKE_CASE - classes", or two table rows exchanging their uses. Each
// statement alone still says words of its own, so per statement nothing was lost; the pair is a
// binding swap.

// rowSwapWindow is how many statements apart two siblings may stand.
const rowSwapWindow = 8

// rowSwapPass reports two sibling statements of the original (list items or table rows of one
// section) whose counterparts each say some words only the one said and some only the other
// said, each of those words in one counterpart only.
func (c *stmtCompare) rowSwapPass() {
	if c.cfg.noBinding || c.cfg.skipType[TypeBindingSwap] {
		return
	}
	for i, s := range c.o.stmts {
		if !c.swapCandidate(s) {
			continue
		}
		for _, t := range c.o.stmts[i+1 : min(len(c.o.stmts), i+1+rowSwapWindow)] {
			if t.sect != s.sect || t.kind != s.kind || t.item != s.item || !c.swapCandidate(t) {
				continue
			}
			if note, ok := c.rowsSwapped(s, t); ok {
				c.drop(Token{TypeBindingSwap, shortKey(s) + "<->" + shortKey(t)}, s, c.a.to[s.id][0], note)
				break
			}
		}
	}
}

// swapCandidate reports a statement the result rewrote: neither kept nor a repeat removed.
func (c *stmtCompare) swapCandidate(s *stmt) bool {
	return !c.a.same[s.id] && !c.a.repeat[s.id] && len(c.a.to[s.id]) > 0
}

// rowsSwapped reports s and t whose words are split between two result statements u and v, the
// only ones of s's section saying both words only s says (a) and words only t says (b): no word
// of a or b in both. Alignment cannot tell which is whose (a row keeps its key and takes the
// other's gloss), so the two are found by their words. It returns the words u and v took
// from each other's original, for the message.
func (c *stmtCompare) rowsSwapped(s, t *stmt) (string, bool) {
	ss, ts := c.o.stemsOf(s), c.o.stemsOf(t)
	a, b := minus(ss, ts), minus(ts, ss)
	both := c.sayingBoth(s.sect, a, b)
	if len(both) != 2 {
		return "", false
	}
	u, v := both[0], both[1]
	us, vs := c.r.stemsOf(u), c.r.stemsOf(v)
	au, av, bu, bv := inter(a, us), inter(a, vs), inter(b, us), inter(b, vs)
	if shared(au, av) > 0 || shared(bu, bv) > 0 || !c.ownPair(s, t, u, v) {
		return "", false
	}
	return fmt.Sprintf("result line %d says %q of line %d, result line %d says %q of line %d",
		u.firstLine(), strings.Join(bu, " "), t.firstLine(), v.firstLine(), strings.Join(av, " "), s.firstLine()), true
}

// sayingBoth returns the result statements of section sect that say a word of a and a word of
// b, in order; nil when more than two do.
func (c *stmtCompare) sayingBoth(sect string, a, b []string) []*stmt {
	if len(a) == 0 || len(b) == 0 {
		return nil
	}
	seen := map[*stmt]bool{}
	var out []*stmt
	for _, st := range a {
		for _, u := range c.stemIndex()[st] {
			if seen[u] || u.sect != sect {
				continue
			}
			seen[u] = true
			if shared(b, c.r.stemsOf(u)) > 0 {
				out = append(out, u)
			}
		}
	}
	if len(out) > 2 {
		return nil
	}
	sort.Slice(out, func(i, j int) bool { return out[i].id < out[j].id })
	return out
}

// ownPair reports result statements u and v that no original statement but s and t is aligned
// with: no third statement was merged into either.
func (c *stmtCompare) ownPair(s, t, u, v *stmt) bool {
	for _, w := range []*stmt{u, v} {
		for _, o := range c.mergedInto(w) {
			if o != s && o != t {
				return false
			}
		}
	}
	return true
}

// minus returns the strings of a that b lacks.
func minus(a, b []string) []string {
	var out []string
	for _, x := range a {
		if !containsStr(b, x) {
			out = append(out, x)
		}
	}
	return out
}

// inter returns the strings of a that b holds.
func inter(a, b []string) []string {
	var out []string
	for _, x := range a {
		if containsStr(b, x) {
			out = append(out, x)
		}
	}
	return out
}

// stemIndex returns the result's statements by their stems, built on first use.
func (c *stmtCompare) stemIndex() map[string][]*stmt {
	if c.byStem == nil {
		c.byStem = map[string][]*stmt{}
		for _, u := range c.r.stmts {
			for _, st := range c.r.stemsOf(u) {
				c.byStem[st] = append(c.byStem[st], u)
			}
		}
	}
	return c.byStem
}

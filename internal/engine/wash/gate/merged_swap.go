package gate

import (
	"fmt"
	"strings"
)

// Several list items or table rows condensed into one line keep their words and may still trade
// what they are bound to: "- **MINOR**: feature" and "- **PATCH**: fix" said "MINOR = fix,
// PATCH = feature", two nested targets "`dev` (local runtime)" and "`prod` (web server)" put in
// their parent's line with each runtime after the other target. Each original statement opens
// with its head (the label, key or name the rest is said of); in the merged line the words after
// a head up to the next one are what the line binds to it. Two statements each of whose own
// words (said by no other statement merged there) now stand mostly after the other's head
// traded their bindings. A head said after its words ("feature → MINOR") moves no word of the other's.

// mergedSwapPass reports, for each result statement several rewritten statements were merged
// into, two of them that traded their own words' heads.
func (c *stmtCompare) mergedSwapPass() {
	if c.cfg.noBinding || c.cfg.skipType[TypeBindingSwap] {
		return
	}
	for _, u := range c.r.stmts {
		src := c.mergedRewritten(u)
		if len(src) < 2 {
			continue
		}
		if s, t, note, ok := c.mergedSwap(src, u); ok {
			c.drop(Token{TypeBindingSwap, shortKey(s) + "<->" + shortKey(t)}, s, u, note)
		}
	}
}

// mergedRewritten returns the original statements merged into u that the result rewrote, or
// nil when u is the counterpart of fewer than two.
func (c *stmtCompare) mergedRewritten(u *stmt) []*stmt {
	var out []*stmt
	for _, s := range c.mergedInto(u) {
		if c.swapCandidate(s) && len(c.a.to[s.id]) == 1 {
			out = append(out, s)
		}
	}
	return out
}

// boundOwn is one merged statement read for its bindings: its head and the words only it says.
type boundOwn struct {
	s          *stmt
	head, text string // the head's identity and its text
	own        []string
	ownText    []string // the own words as written, for the message
}

// movedTo returns the own words of b that stand after head, as written.
func (b boundOwn) movedTo(owner map[string]string, head string) string {
	var out []string
	for i, id := range b.own {
		if owner[id] == head {
			out = append(out, b.ownText[i])
		}
	}
	return strings.Join(out, " ")
}

// mergedSwap finds two statements of src most of whose own words stand after the other's
// head in u. It returns them and the message.
func (c *stmtCompare) mergedSwap(src []*stmt, u *stmt) (s, t *stmt, note string, ok bool) {
	rp := contentPlaces(diffUnits(c.r.clausesOf(u)))
	items := c.boundItems(src, rp)
	if items == nil {
		return nil, nil, "", false
	}
	owner := headOwners(rp, items)
	for i, a := range items {
		for _, b := range items[i+1:] {
			if boundTo(a.own, owner, b.head) && boundTo(b.own, owner, a.head) {
				note = fmt.Sprintf("%s now reads %q of line %d, %s %q of line %d", b.text, a.movedTo(owner, b.head),
					a.s.firstLine(), a.text, b.movedTo(owner, a.head), b.s.firstLine())
				return a.s, b.s, note, true
			}
		}
	}
	return nil, nil, "", false
}

// boundItems reads each statement of src for its head (its first content word, said once in
// the merged line rp) and its own words (said once there, by it only); nil when two heads are
// one word or a head is missing.
func (c *stmtCompare) boundItems(src []*stmt, rp []place) []boundOwn {
	inR := map[string]int{}
	for _, p := range rp {
		inR[p.id]++
	}
	per := make([][]place, len(src))
	said := map[string]int{}
	for i, s := range src {
		per[i] = contentPlaces(diffUnits(c.o.clausesOf(s)))
		for _, id := range distinctIDs(per[i]) {
			said[id]++
		}
	}
	var out []boundOwn
	heads := map[string]bool{}
	for i, s := range src {
		if len(per[i]) == 0 || inR[per[i][0].id] != 1 || heads[per[i][0].id] {
			return nil
		}
		b := boundOwn{s: s, head: per[i][0].id, text: per[i][0].text}
		heads[b.head] = true
		for _, p := range per[i][1:] {
			if said[p.id] == 1 && inR[p.id] == 1 && p.nth == 0 {
				b.own = append(b.own, p.id)
				b.ownText = append(b.ownText, p.text)
			}
		}
		out = append(out, b)
	}
	return out
}

// distinctIDs returns the identities of ps, each once.
func distinctIDs(ps []place) []string {
	var out []string
	for _, p := range ps {
		if !containsStr(out, p.id) {
			out = append(out, p.id)
		}
	}
	return out
}

// headOwners maps each word of the merged line rp to the head of items standing nearest
// before it; words before the first head belong to none.
func headOwners(rp []place, items []boundOwn) map[string]string {
	heads := map[string]bool{}
	for _, b := range items {
		heads[b.head] = true
	}
	owner := map[string]string{}
	cur := ""
	for _, p := range rp {
		if heads[p.id] {
			cur = p.id
			continue
		}
		owner[p.id] = cur
	}
	return owner
}

// boundTo reports own words most of which (more than half) stand after head: the key or
// version said with a head ("Minor (1.X.0)") stays with it, what it is bound to moved.
func boundTo(own []string, owner map[string]string, head string) bool {
	n := 0
	for _, id := range own {
		if owner[id] == head {
			n++
		}
	}
	return 2*n > len(own)
}

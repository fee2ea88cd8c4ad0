package gate

import (
	"fmt"
)

// The dropped-item pass: an aligned statement that says what its original said except one item
// of a coordinated list ("source code, comments, commit messages, and PR descriptions" said
// without "commit messages"; "A und B" said "A"), when no other statement of the result states
// that item. A list of examples ("e.g. …", "such as …") may be cut short freely.

// itemMaxUnits is the longest item, in content units, the pass reads as one list item.
const itemMaxUnits = 4

// droppedItemPass reports the list item a statement's one counterpart leaves out.
func (c *stmtCompare) droppedItemPass(s, u *stmt, oc []clauseInfo, uc []clauseInfo) {
	if c.dropped(s) || len(c.mergedInto(u)) > 1 || c.cfg.skipType[TypeName] {
		return
	}
	ou := diffUnits(oc)
	hs := diffHunks(ou, diffUnits(uc))
	if len(hs) != 1 || len(hs[0].ins) > 0 || exampleList(ou) {
		return
	}
	h := hs[0]
	if !listItem(ou, h.at, h.at+len(h.del)) || c.statedElsewhere(trimSpan(h.del), u) {
		return
	}
	item := unitsText(trimSpan(h.del))
	c.drop(Token{TypeName, item}, s, u, fmt.Sprintf("list item %q dropped", item))
}

// listItem reports a span of ou that is one item of a list: it opens with a coordinator and
// ends its clause or meets the next coordinator ("…, und die Prüfungen", "・ロールバック手順を"),
// or it is a whole clause of the list followed by a clause opening with a coordinator ("…,
// commit messages, and PR descriptions").
func listItem(ou []dunit, from, to int) bool {
	span := ou[from:to]
	n := countContent(span)
	if n == 0 || n > itemMaxUnits || itemRule(span) {
		return false
	}
	end := to == len(ou) || ou[to].coord || ou[to].clause != ou[to-1].clause || !ou[to].content() && !ou[to].rule
	if span[0].coord && end {
		return true
	}
	whole := (from == 0 || ou[from-1].clause != span[0].clause) && (to == len(ou) || ou[to].clause != ou[to-1].clause)
	return whole && from > 0 && to < len(ou) && (ou[to].coord || listGoesOn(ou, to))
}

// listGoesOn reports clauses from ou[at] on that are short items of a list, up to the
// coordinator that ends it, opening a clause or after its first item: "Commit, push, publish,
// release, open a PR, or send a message" and "Compila, firma, empaqueta, sube o anuncia"
// without their third item leave out an item of the list.
func listGoesOn(ou []dunit, at int) bool {
	for at < len(ou) {
		end := at
		for end < len(ou) && ou[end].clause == ou[at].clause {
			end++
		}
		for k := at; k < end; k++ {
			if ou[k].coord {
				return countContent(ou[at:k]) <= itemMaxUnits && !itemRule(ou[at:k])
			}
		}
		if n := countContent(ou[at:end]); n == 0 || n > itemMaxUnits || itemRule(ou[at:end]) {
			return false
		}
		at = end
	}
	return false
}

// itemRule reports a rule word among the units of an item, a function word that only bounds
// a number ("de" of "menos de", "at" of "at most") aside: "e certifique-se de que passam" is an
// item, its "de" no rule.
func itemRule(us []dunit) bool {
	return anyUnit(us, func(u dunit) bool { return u.rule && !(u.fn && boundOnly(u.key)) })
}

// boundOnly reports a word of a number's bound that is no other rule word of the lexicons.
func boundOnly(k string) bool {
	x := slex()
	return qualifierWords()[k] && x.modal[k] == 0 && x.cond[k] == "" && !x.isSeqWord(k) && lex().marker[k] == ""
}

// exampleList reports a statement that gives examples: its lists may be cut short.
func exampleList(ou []dunit) bool {
	w := smallSets().examples
	for _, u := range ou {
		if w[u.key] {
			return true
		}
	}
	return false
}

// statedElsewhere reports an item whose content another statement of the result states.
func (c *stmtCompare) statedElsewhere(item []dunit, u *stmt) bool {
	var want []string
	for _, x := range item {
		if x.content() {
			want = append(want, x.key)
		}
	}
	for _, v := range c.r.stmts {
		if v == u {
			continue
		}
		vu := diffUnits(c.r.clausesOf(v))
		all := true
		for _, w := range want {
			found := false
			for _, y := range vu {
				if y.key == w || y.stem != "" && y.stem == wordStem(w) {
					found = true
					break
				}
			}
			if !found {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	return false
}

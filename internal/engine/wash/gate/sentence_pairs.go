package gate

import (
	"strings"
)

// Pairs, the sentence reader's fourth stage: ordered pairs ("prefer `a` over `b`") and
// bindings ("`a` in `b`") of a sentence's operands.

// pairFact is an ordered pair: first is the chosen or first-named operand. With rel "in" it
// is a binding of two code spans instead: "`a` in `b`" (`vi.stubEnv()` in `beforeEach`).
type pairFact struct {
	first, second string
	rel           string  // "" for an ordered pair, "in" for a binding
	line          int     // line index in its document
	at            lineKey // its distinct line (set by the inventory)
}

func (p pairFact) key() string {
	if p.rel != "" {
		return p.first + " " + p.rel + " " + p.second
	}
	return p.first + " > " + p.second
}

// pairs records ordered pairs: an operand (code span or name) shortly before a joiner and one
// shortly after it.
func pairs(it []item, name []string, l *lexicon, out *sentenceFacts) {
	ps := pairSentence{it: it, name: name, l: l}
	for i := 0; i < len(it); i++ {
		// A binding: two code spans joined by nothing but "in" ("`a` in `b`").
		if ps.binding(i) {
			out.pairs = append(out.pairs, pairFact{first: ps.operand(i - 1), second: ps.operand(i + 1), rel: "in", line: it[i].line})
			continue
		}
		dir, width := ps.joiner(i)
		if dir == 0 {
			continue
		}
		left, right := ps.operands(i, width)
		for _, a := range left {
			for _, b := range right {
				if a == b {
					continue
				}
				if dir < 0 {
					a, b = b, a
				}
				out.pairs = append(out.pairs, pairFact{first: a, second: b, line: it[i].line})
			}
		}
		i += width - 1
	}
}

// pairSentence is a sentence read for ordered pairs, with the name key of each name item.
type pairSentence struct {
	it   []item
	name []string
	l    *lexicon
}

// operand returns item i as an operand of a pair (a code span, a quote, a name), or "".
func (ps pairSentence) operand(i int) string {
	switch x := ps.it[i]; {
	case x.kind == itemCode:
		return "`" + x.text + "`"
	case x.kind == itemQuote:
		return `"` + x.text + `"`
	case ps.name[i] != "":
		return ps.name[i]
	}
	return ""
}

// binding reports a binder word at i between two different code spans ("`a` in `b`").
func (ps pairSentence) binding(i int) bool {
	it := ps.it
	x := it[i]
	return x.kind == itemWord && ps.l.binder[strings.ToLower(x.text)] && i > 0 && i+1 < len(it) &&
		it[i-1].kind == itemCode && it[i+1].kind == itemCode && it[i-1].text != it[i+1].text
}

// joiner returns the direction of the joiner at i (0 for none) and how many items it takes.
func (ps pairSentence) joiner(i int) (dir, width int) {
	it := ps.it
	switch x := it[i]; x.kind {
	case itemMarker:
		return x.dir, 1
	case itemWord:
		lw := strings.ToLower(x.text)
		if i+1 < len(it) && it[i+1].kind == itemWord {
			if d := ps.l.joiner[lw+" "+strings.ToLower(it[i+1].text)]; d != 0 {
				return d, 2
			}
		}
		return ps.l.joiner[lw], 1
	}
	return 0, 1
}

// operands finds the operands on each side of the joiner at i (width items). Operands are
// looked for within six content words on each side; a sequence ("before", "after") takes only
// the nearest operand on each side: "run `a` after `b` and before `c`" says nothing of `b` and
// `c`.
func (ps pairSentence) operands(i, width int) (left, right []string) {
	it := ps.it
	most := 3
	if x := strings.ToLower(it[i].text); x == "before" || x == "after" {
		most = 1
	}
	for j, n := i-1, 0; j >= 0 && n < 6 && len(left) < most && it[j].kind != itemStop; j-- {
		if o := ps.operand(j); o != "" {
			left = append(left, o)
		} else if ps.content(it[j]) {
			n++
		}
	}
	for j, n := i+width, 0; j < len(it) && n < 6 && len(right) < most && it[j].kind != itemStop; j++ {
		if o := ps.operand(j); o != "" {
			right = append(right, o)
		} else if ps.content(it[j]) {
			n++
		}
	}
	return left, right
}

// content reports a content word: a word that is no function word, or CJK content.
func (ps pairSentence) content(x item) bool {
	return x.kind == itemWord && !ps.l.stop[strings.ToLower(x.text)] || x.kind == itemCJK
}

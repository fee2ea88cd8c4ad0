package gate

import "fmt"

// A first-word may lead a whole clause in which one code operand comes before the rest
// ("сначала обновляйте файлы в `docs/*` и держите синхронизированными `*.ru.md`": docs first,
// the translations kept in step after). The clause is one segment, so no sequence of segments
// is there to compare; its first operand is. A result whose sequence puts that operand in a
// later step, and another operand of the clause in the first, has reversed the order.

// firstOperand returns the first code span after the first-word of a clause of cls marked
// first, and that clause's other code spans; ok is false when no such clause has two.
func firstOperand(cls []clauseInfo) (first string, others []string, ok bool) {
	for _, cl := range cls {
		if cl.seq != seqFirst || cl.seqAt >= len(cl.toks) {
			continue
		}
		for _, t := range cl.toks[cl.seqAt:] {
			if t.kind != tCode {
				continue
			}
			if first == "" {
				first = "`" + t.text + "`"
			} else {
				others = append(others, "`"+t.text+"`")
			}
		}
		return first, others, first != "" && len(others) > 0
	}
	return "", nil, false
}

// firstOperandPass reports the first operand of a first-marked clause that the counterpart's
// sequence says in a later step, with another operand of the clause in its first step.
func (c *stmtCompare) firstOperandPass(s, u *stmt, oc, uc []clauseInfo) {
	if len(markedSegments(oc)) >= 2 {
		return // a sequence of steps of its own: sequencePass compares it
	}
	first, others, ok := firstOperand(oc)
	segs := markedSegments(uc)
	if !ok || len(segs) < 2 || containsStr(segs[0], first) {
		return
	}
	for _, o := range others {
		if !containsStr(segs[0], o) {
			continue
		}
		for _, seg := range segs[1:] {
			if containsStr(seg, first) {
				c.drop(Token{TypeOrder, first + " before " + o}, s, u, fmt.Sprintf("order of %s, %s reversed: %s now comes first", first, o, o))
				return
			}
		}
	}
}

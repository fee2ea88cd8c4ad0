package gate

// A file often states one rule twice: once as a rule of its own ("에이전트 세션 내에서 `npm run
// build`를 실행하지 마세요") and once as a note beside the command in a table ("| `npm run build` |
// 프로덕션 빌드 – 에이전트 세션 중에 실행하지 마세요 |"). A summariser keeps the rule and cuts the
// note. A rule cut from an aligned statement is kept when another statement the result keeps
// unchanged from the original says it about the same subject: one of the statement's code spans,
// and the rule in one clause, in its direction and at least as strong, with most of its words.

// ruleSaidAgain reports rule cl of statement s, cut from its counterpart u, that an unchanged
// statement of the result states about one of s's code spans.
func (c *stmtCompare) ruleSaidAgain(cl clauseInfo, s, u *stmt) bool {
	var codes []string
	for _, t := range s.facts {
		if t.Type == TypeCode {
			codes = append(codes, t.Value)
		}
	}
	if len(codes) == 0 || len(cl.stems) == 0 {
		return false
	}
	seen := map[*stmt]bool{u: true}
	for _, st := range cl.stems {
		for _, v := range c.stemIndex()[st] {
			if seen[v] {
				continue
			}
			seen[v] = true
			if c.o.lines[c.r.keys[v.lines[0]]] != nil && saysCode(v, codes) && ruleKept(cl, c.r.clausesOf(v)) {
				return true
			}
		}
	}
	return false
}

// saysCode reports a statement holding one of codes among its facts.
func saysCode(v *stmt, codes []string) bool {
	for _, t := range v.facts {
		if t.Type == TypeCode && containsStr(codes, t.Value) {
			return true
		}
	}
	return false
}

// ruleCutSaidAgain reports a clause cut whole from counterpart u (no clause of uc carries it)
// whose rule, with its condition, another statement says again (ruleSaidAgain): its condition
// went with it and is said there too.
func (c *stmtCompare) ruleCutSaidAgain(cl clauseInfo, s, u *stmt, uc []clauseInfo) bool {
	return cl.modal != "" && overlapping(cl, uc) == nil && c.ruleSaidAgain(cl, s, u)
}

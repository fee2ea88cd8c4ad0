package gate

// A clause that is its rule word alone leads what follows it: "ANTES de responder, DEBES:",
// "Before you answer, you MUST:", "必须：" put the steps after them under an obligation. It has
// no content words of its own to align by, so it is compared with the clauses of its
// counterpart that are a rule word alone too: the word written in its place must bind as
// strongly and in the same direction ("DEBES:" said "conviene:" is must → advisable). A
// counterpart with no such clause says its rule elsewhere, and the other passes judge it.

// bareRulePass reports a bare rule clause cl whose bare counterparts weaken or flip it.
func (c *stmtCompare) bareRulePass(s, u *stmt, cl clauseInfo, uc []clauseInfo) {
	if cl.modal == "" || len(cl.stems) > 0 {
		return
	}
	var bare []clauseInfo
	for _, m := range uc {
		if m.modal != "" && len(m.stems) == 0 {
			bare = append(bare, m)
		}
	}
	if len(bare) == 0 {
		return
	}
	kept, flipped, weaker := ruleMatched(cl, bare)
	c.ruleVerdict(s, u, cl, bare, kept, flipped, weaker)
}

package gate

// A statement removed because another statement of the file, in any section, already says it
// ("8. Если задача заблокирована: добавьте пометку `⚠ blocked: причина, дата`." beside "4. Если
// блок/зависимость: добавь под задачей пометку `⚠ blocked: причина, дата`, …" of another list;
// a second pointer to the same guidelines file) is a repeat removed, not a drop, though it is no
// near copy (nearRepeat). Only a whole statement qualifies, and only when one statement the
// result keeps unchanged says every one of its facts and half its content stems; its rules must
// still be restated. A fact dropped from a statement that stays is compared with its
// counterpart, never with a repeat elsewhere.

// repeatShare is the share of a removed statement's content stems its repeat must say.
const repeatShare = alignMinShare

// repeatOf returns the result's copy of an unchanged statement, anywhere in the file, that says
// every fact of the removed statement s and repeatShare of its stems, or nil. A section the
// result wrote something new in has no repeat removed: the statement may have been replaced.
func (c *stmtCompare) repeatOf(s *stmt) *stmt {
	if len(s.facts) == 0 || c.a.rewritten[s.sect] {
		return nil
	}
	c.keptIndex()
	stems := c.o.stemsOf(s)
	for _, cand := range c.kept[s.facts[0].Key()] {
		if cand.id == s.id || !hasAllFacts(cand, s) || len(c.a.to[cand.id]) != 1 {
			continue
		}
		if float64(shared(stems, c.o.stemsOf(cand))) >= repeatShare*float64(len(stems)) {
			return c.a.to[cand.id][0]
		}
	}
	return nil
}

// repeatSays reports a fact of a removed statement that its repeat says.
func (c *stmtCompare) repeatSays(rep *stmt, t Token, aliases map[string][]string) bool {
	if rep == nil {
		return false
	}
	if c.repFacts == nil {
		c.repFacts = map[int]*factSet{}
	}
	fs := c.repFacts[rep.id]
	if fs == nil {
		fs = c.factsOf([]*stmt{rep})
		c.repFacts[rep.id] = fs
	}
	return keptFact(t, fs, aliases)
}

// repeatRules reports a rule of a removed statement that its repeat restates.
func (c *stmtCompare) repeatRules(rep *stmt, cl clauseInfo) bool {
	return rep != nil && ruleKept(cl, c.r.clausesOf(rep))
}

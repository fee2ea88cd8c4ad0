package gate

import "fmt"

// hedgedConditionPass reports a hedge the result puts on a clause that is a condition and
// nothing else: "## Avant de considérer que tu as terminé :" said "## Si besoin, avant de
// considérer que tu as terminé :", "Before you push:" said "If needed, before you push:". The
// rule such a clause leads is the next clause's, or the list under its heading, so the rule
// pass passes over it; a hedge ("si besoin", "if needed", 必要时) put on it now leaves that whole
// rule to judgement. A hedge the original statement already said is no change.
func (c *stmtCompare) hedgedConditionPass(s, u *stmt, cl clauseInfo, oc, uc []clauseInfo) {
	ms := overlapping(cl, uc)
	if len(ms) == 0 {
		return
	}
	m := best(cl, ms)
	if m.level != 1 || m.modal == "" || m.mixed {
		return
	}
	for _, o := range oc {
		if o.level == 1 {
			return
		}
	}
	c.drop(Token{TypeModality, ruleKey(cl)}, s, u, fmt.Sprintf("plain → %s on the condition %q", levelWord(m), cl.text))
}

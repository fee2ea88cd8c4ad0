package gate

import (
	"fmt"
	"strings"
)

// permittedPass reports what a prohibition of the original forbade that the result now permits
// in a clause of its own: "Nenhum arquivo temporário ou sensível" said "Nenhum arquivo sensível
// (temporários podem ir)", "No temporary or secret files" said "No secret files (temporary ones
// may stay)". The prohibition itself survives, so the rule pass keeps it; the item taken out of
// it now sits under a permission ("may", "podem", "можно") that no clause of the original gave
// it, and no prohibition of the result still covers it.
func (c *stmtCompare) permittedPass(s, u *stmt, oc, uc []clauseInfo) {
	for _, cl := range oc {
		if cl.level >= 0 || cl.mixed || cl.relNeg || !saysNegation(cl) {
			// a verb of omission ("会…跳过": it skips) describes; it forbids nothing
			continue
		}
		for _, m := range uc {
			if st := newlyPermitted(cl, m, oc, uc); len(st) > 0 {
				c.drop(Token{TypePolarity, ruleKey(cl)}, s, u, fmt.Sprintf("%s forbidden → permitted (%q)", strings.Join(st, ", "), m.text))
				return
			}
		}
	}
}

// newlyPermitted returns the stems of prohibition cl that permission m says, when they are half
// of m's and neither a permission of oc nor a prohibition of uc says them.
func newlyPermitted(cl, m clauseInfo, oc, uc []clauseInfo) []string {
	if m.level != 1 || m.mixed || len(m.stems) == 0 || saysNegation(m) {
		// "不用动…跳过": a negated verb of omission reads as a permission, and permits nothing
		return nil
	}
	var out []string
	for _, st := range m.stems {
		if containsStr(cl.stems, st) && !saidAt(st, oc, func(l int) bool { return l > 0 }) && !saidAt(st, uc, func(l int) bool { return l < 0 }) {
			out = append(out, st)
		}
	}
	if 2*len(out) < len(m.stems) {
		return nil
	}
	return out
}

// saidAt reports a clause of cls whose level passes ok and whose stems hold st.
func saidAt(st string, cls []clauseInfo, ok func(int) bool) bool {
	for _, c := range cls {
		if ok(c.level) && containsStr(c.stems, st) {
			return true
		}
	}
	return false
}

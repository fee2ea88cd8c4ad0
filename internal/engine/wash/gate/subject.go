package gate

// A list item rewritten so far that it shares too few words to align ("Типизация везде где
// возможно" said "Типизация только в публичных API": typing everywhere possible, said typing
// only in public APIs) still names what it speaks of first. When the result's section holds one
// new statement opening with the same content word, that statement is the one the scope and
// the conditions of the removed one are compared with, as a statement cut down to its code is
// compared with the one holding its code (anchoredPass).

// subjectAnchor returns the only result statement of s's section that is no copy of an
// original statement and whose first content stem is s's, or nil.
func (c *stmtCompare) subjectAnchor(s *stmt) *stmt {
	stems := c.o.stemsOf(s)
	if len(stems) == 0 {
		return nil
	}
	okeys := c.o.anchorsOf().keys
	var found *stmt
	for _, u := range c.r.stmts {
		if u.sect != s.sect || okeys[u.key] {
			continue
		}
		if us := c.r.stemsOf(u); len(us) == 0 || us[0] != stems[0] {
			continue
		}
		if found != nil {
			return nil
		}
		found = u
	}
	return found
}

package gate

import (
	"strings"

	"github.com/prosewash/prosewash/internal/engine/wash/mdline"
)

// removedItemPass reports a list item or table row removed from a list or table the result
// keeps, whose words its section no longer says: "- Оптимизация запросов" cut from the cases an
// agent is called for, a "| Sécurité | … |" row cut from what a review checks. droppedPass judges
// a removed statement by its values, names and rules; an item with none of them is still a fact
// of its list. An item whose words another statement of the section says (a merge, a repeat) is
// no loss, nor is a table's header row (a table turned into a list drops it).
func (c *stmtCompare) removedItemPass(s *stmt) {
	stems := c.o.stemsOf(s)
	if len(stems) == 0 || len(s.facts) > 0 || c.cfg.skipType[TypeName] || !c.listKept(s) || c.nearRepeat(s) || c.slotRewritten(s) {
		return
	}
	x := c.scopeClauses(s.sect)
	said := 0
	for _, st := range stems {
		if len(x.byStem[st]) > 0 {
			said++
		}
	}
	if said >= need(len(stems)) {
		return
	}
	c.drop(Token{TypeName, strings.ToLower(s.text())}, s, nil, "item not said elsewhere in its section")
}

// slotRewritten reports a new result statement (one no original statement aligns with) in the
// place of removed item s, next to the result's copy of a neighbour: the item was reworded past
// recognition ("Тестируйте с нулевой конфигурацией" said "Проверяйте, что всё работает вообще
// без конфигурации"), which the words of the section cannot judge.
func (c *stmtCompare) slotRewritten(s *stmt) bool {
	for _, d := range []int{-1, 1} {
		id := s.id + d
		if id < 0 || id >= len(c.o.stmts) || len(c.a.to[id]) == 0 {
			continue
		}
		to := c.a.to[id]
		at := to[len(to)-1].id - d // the result statement on s's side of the neighbour's copy
		if d > 0 {
			at = to[0].id - d
		}
		if at >= 0 && at < len(c.r.stmts) && c.r.stmts[at].sect == s.sect && len(c.mergedInto(c.r.stmts[at])) == 0 {
			return true
		}
	}
	return false
}

// listKept reports a list item or table row next to an item of the same list or table that
// the result keeps: the list survives without it. A whole list removed is judged by its facts.
func (c *stmtCompare) listKept(s *stmt) bool {
	row := s.kind == mdline.TableRow
	if !s.item && !row || row && (s.id == 0 || c.o.stmts[s.id-1].kind != mdline.TableRow) {
		return false // not an item, or a table's header row
	}
	for _, id := range []int{s.id - 1, s.id + 1} {
		if id < 0 || id >= len(c.o.stmts) {
			continue
		}
		n := c.o.stmts[id]
		if n.sect != s.sect || n.indent != s.indent || n.item != s.item || (n.kind == mdline.TableRow) != row {
			continue
		}
		if c.a.same[n.id] || c.a.to[n.id] != nil {
			return true
		}
	}
	return false
}

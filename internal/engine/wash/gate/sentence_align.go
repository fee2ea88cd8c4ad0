package gate

import (
	"slices"
)

// Alignment of rules, the sentence reader's last stage: finding, among the rules and clauses
// of the other side, those a rule survives in or is contradicted by.

// need is how many of n words a rewording must keep: two thirds, rounded up.
func need(n int) int { return (2*n + 2) / 3 }

// polIndex finds, among an inventory's polarity facts and clauses, those a rule of the other
// side survives in or is contradicted by. Both lookups go through a stem index: a file with
// thousands of rules must not compare every pair.
type polIndex struct {
	facts   []polFact
	clauses []clauseFact
	byStem  map[string][]int // stem -> facts whose sentence holds it
	clStem  map[string][]int // stem -> clauses holding it
}

func newPolIndex(facts []polFact, clauses []clauseFact) *polIndex {
	x := &polIndex{facts: facts, clauses: clauses, byStem: map[string][]int{}, clStem: map[string][]int{}}
	for i, f := range facts {
		for _, s := range f.sent {
			x.byStem[s] = append(x.byStem[s], i)
		}
	}
	for i, c := range clauses {
		for _, s := range c.stems {
			x.clStem[s] = append(x.clStem[s], i)
		}
	}
	return x
}

// keeps reports whether some fact of the index keeps f: the same class, in a sentence carrying at
// least two thirds of the words f's rule word governed. The other side is read by sentence,
// since a summary may regroup a rule's words around its rule words; a word regrouped into a
// clause no rule word governs is caught by contradicting.
func (x *polIndex) keeps(f polFact) bool {
	if len(f.stems) == 0 {
		return slices.ContainsFunc(x.facts, func(g polFact) bool { return g.class == f.class })
	}
	count := map[int]int{}
	for _, s := range f.stems {
		for _, i := range x.byStem[s] {
			count[i]++
		}
	}
	for i, n := range count {
		if n >= need(len(f.stems)) && x.facts[i].class == f.class {
			return true
		}
	}
	return false
}

// contradicting counts the clauses that carry most of f's words without f's class: the rule
// stripped of its rule word ("never silently ignore" become "silently ignore when harmless") or
// given another ("never" become "always"). A rule of one word is not checked: a plain mention
// of that word elsewhere is no contradiction.
func (x *polIndex) contradicting(f polFact) int {
	if len(f.stems) < 2 {
		return 0
	}
	bit := classBit(f.class)
	count := map[int]int{}
	for _, s := range f.stems {
		for _, i := range x.clStem[s] {
			count[i]++
		}
	}
	n := 0
	for i, h := range count {
		// The clause must be about the rule: its words mostly the rule's, not a longer clause
		// that happens to share some of them.
		if h >= max(2, need(len(f.stems))) && 2*h >= len(x.clauses[i].stems) && x.clauses[i].classes&bit == 0 {
			n++
		}
	}
	return n
}

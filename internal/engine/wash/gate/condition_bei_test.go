package gate

import (
	"strings"
	"testing"
)

// TestBeiConditionClasses: a German "bei" condition is its noun phrase; dropping it while the
// rule is kept is a condition drop, saying it with another preposition is not.
func TestBeiConditionClasses(t *testing.T) {
	for _, c := range []editClass{
		{"bei phrase dropped", TypeCondition, "- Bei Schema-Änderungen zusätzlich die Migrationen prüfen", "- Zusätzlich die Migrationen prüfen"},
		{"bei phrase with adjective dropped", TypeCondition, "- Bei größeren Refactorings vorher einen Plan schreiben", "- Vorher einen Plan schreiben"},
		{"bei phrase said with für", "", "- Bei Schema-Änderungen zusätzlich die Migrationen prüfen", "- Für Schema-Änderungen auch die Migrationen prüfen"},
	} {
		t.Run(c.name, func(t *testing.T) { checkEditClasses(t, []editClass{c}) })
	}
}

// TestNounPhraseLen: the words up to the first capitalised one and the capitalised ones right
// after it, none when no noun comes soon or punctuation ends the phrase first.
func TestNounPhraseLen(t *testing.T) {
	for _, c := range []struct {
		text string
		want int
	}{
		{"Architektur-Aufgaben zusätzlich .ctx/ einbeziehen", 1},
		{"größeren Refactorings vorher planen", 2},
		{"Pull Requests immer Tests", 2},
		{"jedem, auch kleinen Fix", 0},
		{"allen drei kleinen Dingen", 0},
	} {
		t.Run(c.text, func(t *testing.T) {
			if got := nounPhraseLen(strings.Fields(c.text)); got != c.want {
				t.Errorf("nounPhraseLen = %d, want %d", got, c.want)
			}
		})
	}
}

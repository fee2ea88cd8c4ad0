package gate

import (
	"fmt"
	"testing"
)

// TestSequenceEndsClasses: steps a sequence word marks, reversed while their shared lead and
// tail stay in place, are a reversed order; the same steps reworded in their order are not.
func TestSequenceEndsClasses(t *testing.T) {
	for _, c := range []editClass{
		{"tail kept on the last step", TypeOrder, "- Releases: tag the commit, then publish without manual steps",
			"- Releases: publish the package first, then tag the commit without manual steps"},
		{"lead kept on the first step", TypeOrder, "- **Revue** : lire le diff d'abord, puis les tests.",
			"- **Revue** : lire les tests, puis le diff."},
		{"german lead and tail", TypeOrder, "- Deploy: Migrationen zuerst einspielen, dann Dienste neu starten ohne Ausfall",
			"- Deploy: Dienste zuerst neu starten, dann Migrationen einspielen ohne Ausfall"},
		{"steps reworded in order", "", "- Releases: tag the commit, then publish without manual steps",
			"- Releases: tag the commit first, then publish it without manual steps"},
		{"french steps reworded in order", "", "- **Revue** : lire le diff d'abord, puis les tests.",
			"- **Revue** : lire d'abord le diff, ensuite les tests."},
	} {
		t.Run(c.name, func(t *testing.T) { checkEditClasses(t, []editClass{c}) })
	}
}

// TestWithoutEnds: the stems the first steps share and those the last steps share are
// stripped, each only where both steps keep stems of their own.
func TestWithoutEnds(t *testing.T) {
	for _, c := range []struct {
		name         string
		o, u, o2, u2 [][]string
	}{
		{"lead and tail", [][]string{{"lead", "a"}, {"b", "tail"}}, [][]string{{"lead", "b"}, {"a", "tail"}},
			[][]string{{"a"}, {"b"}}, [][]string{{"b"}, {"a"}}},
		{"a step that is all lead is kept", [][]string{{"lead"}, {"b"}}, [][]string{{"lead", "b"}, {"a"}},
			[][]string{{"lead"}, {"b"}}, [][]string{{"lead", "b"}, {"a"}}},
		{"nothing shared", [][]string{{"a"}, {"b"}}, [][]string{{"b"}, {"a"}},
			[][]string{{"a"}, {"b"}}, [][]string{{"b"}, {"a"}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			o, u := withoutEnds(c.o, c.u)
			if fmt.Sprint(o, u) != fmt.Sprint(c.o2, c.u2) {
				t.Errorf("withoutEnds = %v %v, want %v %v", o, u, c.o2, c.u2)
			}
		})
	}
}

package gate

import (
	"strings"
	"testing"
)

// TestContrastEntries: each conjunction and negation of contrastText, in mid-clause, opens a
// clause of its own: the clause before it keeps no negation.
func TestContrastEntries(t *testing.T) {
	for _, e := range strings.Fields(contrastText) {
		conj, neg, _ := strings.Cut(e, "_")
		cls := readClauses([]stmtLine{{text: "alpha beta " + conj + " " + neg + " gamma"}}, false)
		if len(cls) != 2 || strings.Contains(" "+cls[0].text+" ", " "+neg+" ") {
			t.Errorf("%s: clauses %q, want %q cut before %q", e, clauseTexts(cls), conj, neg)
		}
	}
}

func clauseTexts(cls []clauseInfo) []string {
	var out []string
	for _, c := range cls {
		out = append(out, c.text)
	}
	return out
}

// TestContrastClasses: "X and not Y" said for "X instead of Y" (or "X, not Y") keeps the rule of
// X; a rule turned round still blocks.
func TestContrastClasses(t *testing.T) {
	checkEditClasses(t, []editClass{
		{"en and not", "", "Mocks are acceptable in unit tests when they stand in for the network instead of the database.", "Mocks are acceptable in unit tests when they stand in for the network and not the database."},
		{"es y no", "", "Los mocks son aceptables en tests unitarios cuando reemplazan la red en lugar de la base de datos.", "Los mocks son aceptables en tests unitarios cuando reemplazan la red y no la base de datos."},
		{"pt e não", "", "Mocks são aceitáveis em testes quando substituem a rede em vez do banco de dados.", "Mocks são aceitáveis em testes quando substituem a rede e não o banco de dados."},
		{"fr et non", "", "Les mocks sont acceptables dans les tests quand ils remplacent le réseau au lieu de la base.", "Les mocks sont acceptables dans les tests quand ils remplacent le réseau et non la base."},
		{"rule turned round", TypePolarity, "Mocks are acceptable in unit tests.", "Mocks are not acceptable in unit tests."},
	})
}

package gate

import "testing"

// TestQuantifiedWithClasses: a "with" phrase after a noun of every case narrows the rule;
// dropping it widens the rule to every case, saying it as a relative clause keeps it, and a
// "with" right after the quantifier qualifies nothing.
func TestQuantifiedWithClasses(t *testing.T) {
	for _, c := range []editClass{
		{"english with phrase dropped", TypeCondition, "- Validate every endpoint with a request body.", "- Validate every endpoint."},
		{"portuguese com phrase dropped", TypeCondition, "- Registrar log em toda rota com autenticação.", "- Registrar log em toda rota."},
		{"russian с phrase dropped", TypeCondition, "- Мокать каждую функцию с сетевым доступом.", "- Мокать каждую функцию."},
		{"with phrase said as a relative clause", "", "- Validate every endpoint with a request body.", "- Validate each endpoint that has a request body."},
	} {
		t.Run(c.name, func(t *testing.T) { checkEditClasses(t, []editClass{c}) })
	}
}

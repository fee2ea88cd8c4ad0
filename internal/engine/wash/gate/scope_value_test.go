package gate

import "testing"

// TestValueScopeClasses: a scope phrase right after a value (a number, or a number and its
// unit) says what the value is for; dropping it is a condition drop, moving or shortening it
// is not, and a purpose or a pointer after a value is no scope.
func TestValueScopeClasses(t *testing.T) {
	for _, c := range []editClass{
		{"english scope dropped", TypeCondition, "- Coverage: at least 80% for the parser package", "- Coverage: at least 80%"},
		{"spanish scope dropped", TypeCondition, "- Cobertura: mínimo 90% para el módulo de pagos", "- Cobertura: mínimo 90%"},
		{"german scope after a unit dropped", TypeCondition, "- Timeout: 30 Sekunden für den Import-Job", "- Timeout: 30 Sekunden"},
		{"russian scope dropped", TypeCondition, "- Покрытие: не ниже 85% для ядра платформы", "- Покрытие: не ниже 85%"},
		{"scope moved before the value", "", "- Coverage: at least 80% for the parser package", "- Coverage: parser package at least 80%"},
		{"scope shortened", "", "- Cobertura: mínimo 90% para el módulo de pagos", "- Cobertura: mínimo 90% (pagos)"},
		{"pointer after a value", "", "- Límite: 100 MB para más detalles ver la guía", "- Límite: 100 MB"},
	} {
		t.Run(c.name, func(t *testing.T) { checkEditClasses(t, []editClass{c}) })
	}
}

package gate

import "testing"

// TestWithoutConditionClasses: a "without X" phrase (withoutText) dropped from its statement,
// a rule's or not, is a missing condition; said again with other words after a "without", or
// as an exception, it is kept.
func TestWithoutConditionClasses(t *testing.T) {
	for _, c := range []editClass{
		{"en dropped from a list", TypeCondition, "Not our job: DNS settings, schema changes without review", "Not our job: DNS settings, schema changes"},
		{"en paraphrased", "", "Not our job: the DNS settings, and any schema change made without requesting approval", "Not our job: DNS settings or schema changes without asking"},
		{"en as an exception", "", "Never merge schema changes without a review.", "Never merge schema changes unless reviewed."},
		{"de ohne dropped", TypeCondition, "Nicht erlaubt: Änderungen am Schema ohne Review.", "Nicht erlaubt: Änderungen am Schema."},
		{"fr sans dropped", TypeCondition, "Hors périmètre : les migrations sans validation du DBA.", "Hors périmètre : les migrations."},
		{"es sin dropped", TypeCondition, "Fuera de alcance: cambios de esquema sin revisión.", "Fuera de alcance: cambios de esquema."},
		{"pt sem dropped", TypeCondition, "Fora do escopo: mudanças de esquema sem revisão.", "Fora do escopo: mudanças de esquema."},
		{"ru без dropped", TypeCondition, "Вне задачи: изменения схемы без ревью.", "Вне задачи: изменения схемы."},
	} {
		t.Run(c.name, func(t *testing.T) { checkEditClasses(t, []editClass{c}) })
	}
}

package gate

import "testing"

// TestParenConditionClasses: a parenthesis opening with a requirement word is a precondition
// in any spaced-script language; dropping it is a condition drop, rewording it or merging two
// of them into one compound phrase is not.
func TestParenConditionClasses(t *testing.T) {
	for _, c := range []editClass{
		{"english requirement dropped", TypeCondition, "**Load tests** (requires a seeded database):", "**Load tests**:"},
		{"german requirement dropped", TypeCondition, "- Backup-Skript ausführen (erfordert Root-Rechte)", "- Backup-Skript ausführen"},
		{"spanish requirement dropped", TypeCondition, "- Pruebas de extremo a extremo (requiere Docker en marcha)", "- Pruebas de extremo a extremo"},
		{"russian requirement dropped", TypeCondition, "- Интеграционные тесты (требуют запущенной базы)", "- Интеграционные тесты"},
		{"requirement reworded", "", "**Load tests** (requires a seeded database):", "**Load tests** (need the database seeded):"},
		{"two requirements merged into a compound", "", "- Server-Paket (braucht Linux-Umgebung)\n- Desktop-Paket (braucht Windows-Umgebung)",
			"- Server- und Desktop-Paket (brauchen jeweils eine Linux- bzw. Windows-Umgebung)"},
	} {
		t.Run(c.name, func(t *testing.T) { checkEditClasses(t, []editClass{c}) })
	}
}

// TestAllParts: a compound is said when each of its parts is, a part also by a stem it starts
// with.
func TestAllParts(t *testing.T) {
	for _, c := range []struct {
		w     string
		parts []string
		want  bool
	}{
		{"windows-umgebung", []string{"window", "linux", "umgebung"}, true},
		{"windows-umgebung", []string{"window", "linux"}, false},
		{"root-rechte", []string{"root", "rechte"}, true},
		{"umgebung", []string{"umgebung"}, false},
		{"ab-test", []string{"a", "test"}, false},
	} {
		t.Run(c.w, func(t *testing.T) {
			if got := allParts(c.w, c.parts); got != c.want {
				t.Errorf("allParts(%q, %q) = %v, want %v", c.w, c.parts, got, c.want)
			}
		})
	}
}

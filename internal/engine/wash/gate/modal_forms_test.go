package gate

import "testing"

// TestModalFormEndings: each ending of latinModalEndings, the Cyrillic endings and the accent
// fold read a form modalText does not list as the entry it inflects; a short verb form and a
// word that is no modality word are read as nothing.
func TestModalFormEndings(t *testing.T) {
	for _, c := range []struct {
		word  string
		level int
	}{
		{"obligatoires", 3},  // fr -es
		{"recomendados", 2},  // es -os
		{"recomendadas", 2},  // es -as
		{"autorisée", 1},     // fr -ée, accent kept
		{"autorisees", 1},    // fr -ees, accent dropped
		{"obligatoire", 3},   // fr -e (the entry itself)
		{"obrigatorio", 3},   // pt -o, accent dropped
		{"obligatoria", 3},   // es -a
		{"interdits", -3},    // fr -s
		{"recommande", 2},    // fr, accent dropped
		{"erforderliche", 3}, // de -e
		{"обязательны", 3},   // ru -ы
		{"обязательна", 3},   // ru -а
		{"желательны", 2},    // ru
		{"запрещены", -3},    // ru
		{"pouvons", 0},       // a verb form of no entry
		{"debes", 0},         // too short to read as a form
		{"documentation", 0}, // no modality word
		{"tests", 0},         // too short
	} {
		t.Run(c.word, func(t *testing.T) {
			if got, _ := modalForm(c.word); got != c.level {
				t.Errorf("modalForm(%q) = %d, want %d", c.word, got, c.level)
			}
		})
	}
}

// TestModalFormClasses: a rule moved down the scale in an inflected or unaccented form is a
// modality drop; the same level in another form is none.
func TestModalFormClasses(t *testing.T) {
	checkEachClass(t, []editClass{
		{"fr obligatoire → recommande", TypeModality, "- Les migrations Alembic sont obligatoires pour chaque changement de base.", "- Les migrations Alembic sont recommandees pour chaque changement de base."},
		{"fr obligatoire → obligatoires", "", "- Une revue de code est obligatoire pour chaque merge request.", "- Les revues de code sont obligatoires pour chaque merge request."},
		{"es obligatorio → recomendada", TypeModality, "- La cobertura de tests es obligatoria en los módulos de pago.", "- La cobertura de tests es recomendada en los módulos de pago."},
		{"pt obrigatório → recomendadas", TypeModality, "- Revisões de segurança são obrigatórias antes do deploy.", "- Revisões de segurança são recomendadas antes do deploy."},
		{"ru обязательны → желательна", TypeModality, "- Аннотации типов обязательны во всех публичных функциях.", "- Аннотация типов желательна во всех публичных функциях."},
		{"ru обязательна → обязательны", "", "- Проверка линтером обязательна перед каждым коммитом.", "- Проверки линтером обязательны перед каждым коммитом."},
	})
}

// checkEachClass runs each edit class as a test of its own.
func checkEachClass(t *testing.T, cases []editClass) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { checkEditClasses(t, []editClass{c}) })
	}
}

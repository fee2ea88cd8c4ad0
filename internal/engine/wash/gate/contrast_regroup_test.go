package gate

import "testing"

// TestContrastRegrouped: a contrast "X, not Y" said "not Y, X" passes, each word keeping its
// negation; the negation moved to the other word, or two words traded between clauses with no
// negation, block.
func TestContrastRegrouped(t *testing.T) {
	const ru = "Поэтому конфиг скопирован, а не сгенерирован: он не устаревает.\n"
	const de = "Deshalb wird die Datei verlinkt, nicht kopiert: sie veraltet nie.\n"
	for _, c := range []editClass{
		{"ru contrast said the other way round", "", ru, "Поэтому конфиг не сгенерирован, а скопирован: он не устаревает.\n"},
		{"de contrast said the other way round", "", de, "Deshalb wird die Datei nicht kopiert, verlinkt: sie veraltet nie.\n"},
		{"ru negation moved to the other word", TypeBindingSwap, ru, "Поэтому конфиг сгенерирован, а не скопирован: он не устаревает.\n"},
		{"en values traded between clauses", TypeBindingSwap, "Staging = manual deploys, production = automatic deploys.\n", "Staging = automatic deploys, production = manual deploys.\n"},
	} {
		t.Run(c.name, func(t *testing.T) { checkEditClasses(t, []editClass{c}) })
	}
}

package gate

import "testing"

// TestPreferenceSidesClasses: a prohibition and a plain rule merged into a substitution ("A
// statt B", "Statt B A", "A instead of B", "A au lieu de B") keep their levels on their sides;
// the sides swapped, the prohibition is flipped; a rejected side no prohibition of the original
// forbade is a preference added, which weakens the plain rule.
func TestPreferenceSidesClasses(t *testing.T) {
	checkEachClass(t, []editClass{
		{"de statt leading", "", "- Kein Hardcoding im Code — Config-Dateien nutzen", "- Statt Hardcoding im Code Config-Dateien nutzen"},
		{"de statt between", "", "- Kein Hardcoding im Code — Config-Dateien nutzen", "- Config-Dateien nutzen statt Hardcoding im Code"},
		{"de statt sides swapped", TypePolarity, "- Keine Config-Dateien — Hardcoding im Code nutzen", "- Statt Hardcoding im Code Config-Dateien nutzen"},
		{"en instead of", "", "- No hard-coded paths — read environment variables", "- Read environment variables instead of hard-coded paths"},
		{"en instead of sides swapped", TypePolarity, "- No hard-coded paths — read environment variables", "- Use hard-coded paths instead of environment variables"},
		{"fr au lieu de", "", "- Pas de chemins codés en dur — lire les variables d'environnement", "- Lire les variables d'environnement au lieu de chemins codés en dur"},
		{"es en lugar de", "", "- Nada de rutas fijas — leer variables de entorno", "- Leer variables de entorno en lugar de rutas fijas"},
		{"en a rejected side of its own", TypeModality, "- Read environment variables.", "- Read environment variables instead of config files."},
		{"de lieber still weaker", TypeModality, "- Kein Hardcoding im Code — Config-Dateien nutzen", "- Lieber Config-Dateien nutzen statt Hardcoding im Code"},
	})
}

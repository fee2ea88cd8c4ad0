package gate

import "testing"

// TestNeedlessWithout: "no X needed" said "without X" keeps its rule, in each language of
// needText that has a "without"; "X needed", or "without" over other words, blocks.
func TestNeedlessWithout(t *testing.T) {
	const de = "## Schnelle Fixes (kein Review nötig)\n\n- Tippfehler.\n"
	for _, c := range []editClass{
		{"de kein X nötig as ohne X", "", de, "## Schnelle Fixes (ohne Review)\n\n- Tippfehler.\n"},
		{"en no X required as without X", "", "## Local runs (no token required)\n\n- `make dev`.\n", "## Local runs (without a token)\n\n- `make dev`.\n"},
		{"fr pas de X nécessaire as sans X", "", "## Essais locaux (pas de jeton nécessaire)\n\n- `make dev`.\n", "## Essais locaux (sans jeton)\n\n- `make dev`.\n"},
		{"es X no necesario as sin X", "", "## Pruebas locales (token no necesario)\n\n- `make dev`.\n", "## Pruebas locales (sin token)\n\n- `make dev`.\n"},
		{"pt X não necessário as sem X", "", "## Testes locais (token não necessário)\n\n- `make dev`.\n", "## Testes locais (sem token)\n\n- `make dev`.\n"},
		{"ru X не нужен as без X", "", "## Локальный запуск (токен не нужен)\n\n- `make dev`.\n", "## Локальный запуск (без токена)\n\n- `make dev`.\n"},
		{"de need said, its negation dropped", TypePolarity, de, "## Schnelle Fixes (Review nötig)\n\n- Tippfehler.\n"},
		{"de without over another word", TypePolarity, de, "## Schnelle Fixes (ohne Tests)\n\n- Tippfehler.\n"},
	} {
		t.Run(c.name, func(t *testing.T) { checkEditClasses(t, []editClass{c}) })
	}
}

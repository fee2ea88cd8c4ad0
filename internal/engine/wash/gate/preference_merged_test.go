package gate

import "testing"

// TestPreferenceJoinerMerged: a clause a preference joiner opens, joined into the clause before
// it with the same words after the joiner, keeps its preference; the two sides traded, or another side
// rejected, block.
func TestPreferenceJoinerMerged(t *testing.T) {
	const zh = "- 所有请求都通过网关转发，而非直连。这样便于审计。\n"
	const ru = "- Конфиг читается из файла `app.toml`, а не из переменных окружения.\n"
	for _, c := range []editClass{
		{"zh joiner merged into the clause before", "", zh, "- 所有请求都通过网关而非直连转发，便于审计。\n"},
		{"ru joiner merged into the clause before", "", ru, "- Конфиг читается из `app.toml` а не из переменных окружения.\n"},
		{"zh sides traded", TypePolarity, zh, "- 所有请求都通过直连而非网关转发，便于审计。\n"},
		{"ru rejected side changed", TypePolarity, ru, "- Конфиг читается из `app.toml` а не из флагов командной строки.\n"},
	} {
		t.Run(c.name, func(t *testing.T) { checkEditClasses(t, []editClass{c}) })
	}
}

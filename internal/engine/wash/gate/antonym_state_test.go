package gate

import "testing"

// TestStateAntonymClasses: a state exchanged for its opposite (kept ↔ translated, deprecated ↔
// usable or recommended, wait ↔ go straight on) is a polarity drop in each language that lists
// the pair; the aspect words 已 (already) and 仍 (still) dropped or added change no state.
func TestStateAntonymClasses(t *testing.T) {
	checkEachClass(t, []editClass{
		{"en keep → translate", TypePolarity, "- Keep the product names in the UI strings as they are.", "- Translate the product names in the UI strings."},
		{"en deprecated → recommended", TypePolarity, "- The `legacy-sync` command is deprecated for new projects.", "- The `legacy-sync` command is recommended for new projects."},
		{"fr conserver → traduire", TypePolarity, "- Conserver les noms de produits dans les chaînes de l'interface.", "- Traduire les noms de produits dans les chaînes de l'interface."},
		{"pt permitido → proibido", TypePolarity, "- O uso de `sudo` é permitido nos scripts de instalação.", "- O uso de `sudo` é proibido nos scripts de instalação."},
		{"zh 废弃 → 可使用", TypePolarity, "- `legacy-sync` 命令已废弃，改用 `sync`。", "- `legacy-sync` 命令仍可使用，也可用 `sync`。"},
		{"zh 已 dropped", "", "- `legacy-sync` 命令已废弃，改用 `sync`。", "- `legacy-sync` 命令废弃，改用 `sync`。"},
		{"ja 待つ → そのまま", TypePolarity, "- 依存の更新は提案し、適用は待つ。", "- 依存の更新は提案し、そのまま適用する。"},
	})
}

package gate

import "testing"

// TestTranspositionClasses: two content spans of a statement that trade places, the rest kept,
// are a drop: a crossing (each span now says what the other said: a binding swap), a move
// across an order word (→, over), or a move that carries each span's case endings with it (the
// roles traded places). Items of a list reordered, and words moved in their own forms (free
// word order, an adverb after its verb), are none.
func TestTranspositionClasses(t *testing.T) {
	checkEditClasses(t, []editClass{
		{"crossing", TypeBindingSwap, "Logs go to the collector in the cluster and to the console on laptops.",
			"Logs go to the console in the cluster and to the collector on laptops."},
		{"de crossing across clauses", TypeBindingSwap, "Hotfixes landen im Wartungszweig, neue Funktionen im Hauptzweig.",
			"Hotfixes landen im Hauptzweig, neue Funktionen im Wartungszweig."},
		{"ko arrow", TypeOrder, "- 배포 순서: 스테이징 서버 → 운영 서버", "- 배포 순서: 운영 서버 → 스테이징 서버"},
		{"ru roles by case endings", TypeOrder, "Предпочитайте короткие функции длинным методам.", "Предпочитайте длинные методы коротким функциям."},
		{"list items reordered", "", "Run lint and tests before pushing a branch.", "Run tests and lint before pushing a branch."},
		{"es list reordered", "", "Documenta la API y la CLI en cada versión.", "Documenta la CLI y la API en cada versión."},
		{"ko list reordered", "", "변경 시 API 문서 및 CLI 문서를 함께 업데이트합니다.", "변경 시 CLI 문서 및 API 문서를 함께 업데이트합니다."},
		{"crossing, en", TypeBindingSwap, "Staging pulls images from the mirror and production pulls them from the registry directly.",
			"Staging pulls images from the registry and production pulls them from the mirror directly."},
		{"ru free word order", "", "Не запускайте миграции вручную на проде.", "Миграции вручную на проде не запускайте."},
		{"adverb after its verb", "", "Never silently drop errors from the worker.", "Never drop errors silently from the worker."},
	})
}

// TestRegroupedModifierClasses: words that trade places between two clauses, each with its own
// subject, are a binding swap; two modifiers of one head reordered across a comma are free word
// order.
func TestRegroupedModifierClasses(t *testing.T) {
	checkEditClasses(t, []editClass{
		{"subjects trade their values", TypeBindingSwap, "Staging = manual deploys, production = automatic deploys.", "Staging = automatic deploys, production = manual deploys."},
		{"subjects trade their roles", TypeBindingSwap, "The maintainer tags releases, CI builds the binaries.", "CI tags releases, the maintainer builds the binaries."},
		{"en modifiers reordered", "", "Commit messages in English, imperative.", "Commit messages imperative, in English."},
		{"de modifiers reordered", "", "Variablennamen auf Englisch, sprechend.", "Variablennamen sprechend, auf Englisch."},
		{"es modifiers reordered", "", "Nombres de ramas en minúsculas, descriptivos.", "Nombres de ramas descriptivos, en minúsculas."},
	})
}

// TestLabelValueReorderClasses: a label and its value reordered ("Label: value" said "value for
// label") is no order change when a word of one shares its stem with a word of the other, each
// still said in its own form; roles traded by their case endings still block.
func TestLabelValueReorderClasses(t *testing.T) {
	for _, c := range []editClass{
		{"en label after its value", "", "- Branch names: feature branches (`feature/<topic>`)", "- Feature branches for branch names (`feature/<topic>`)"},
		{"es label after its value", "", "- Mensajes de commit: Conventional Commits (`fix: …`)", "- Conventional Commits para los mensajes de commit (`fix: …`)"},
		{"ru roles traded by their endings", TypeOrder, "Предпочитайте короткие функции длинным методам.", "Предпочитайте длинные методы коротким функциям."},
	} {
		t.Run(c.name, func(t *testing.T) { checkEditClasses(t, []editClass{c}) })
	}
}

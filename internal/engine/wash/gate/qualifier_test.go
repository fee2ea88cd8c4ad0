package gate

import "testing"

// TestCodeScopeClasses: a scope phrase right after a code span ("`X` for CI builds", "`X` для
// страниц") says where the value applies; dropped, it is a condition drop, while a rewording
// that keeps a word of it, or a pointer to more ("`X` for details"), is none.
func TestCodeScopeClasses(t *testing.T) {
	checkEditClasses(t, []editClass{
		{"code scope dropped", TypeCondition, "- Install with `--frozen-lockfile` for release builds so the lockfile stays pinned.", "- Install with `--frozen-lockfile` so the lockfile stays pinned."},
		{"code scope kept", "", "- Install with `--frozen-lockfile` for release builds so the lockfile stays pinned.", "- Release builds install with `--frozen-lockfile` so the lockfile stays pinned."},
		{"ru code scope dropped", TypeCondition, "- Имена файлов: `PascalCase.vue` для страниц", "- Имена файлов: `PascalCase.vue`"},
		{"ru code scope kept", "", "- Имена файлов: `PascalCase.vue` для страниц", "- Страницы: `PascalCase.vue`"},
		{"a pointer is no scope", "", "- Read `docs/setup.md` for details.", "- Read `docs/setup.md`."},
	})
}

package gate

import "testing"

// TestBoundSwapClasses: two items of one kind that trade what they are bound to inside one
// statement, the words between kept, are a binding swap in any language; items reordered with
// their partners, a sentence turned round and a word moved next to its own partner are not.
func TestBoundSwapClasses(t *testing.T) {
	for _, c := range []editClass{
		{"two glosses traded", TypeBindingSwap, "Run `make fast` (unit tests) or `make full` (integration suite).",
			"Run `make fast` (integration suite) or `make full` (unit tests)."},
		{"two code spans traded", TypeBindingSwap, "- Reads go through `cacheGet`. The handler `storeWrite` persists every change.",
			"- Reads go through `storeWrite`; the handler `cacheGet` persists every change."},
		{"two values traded, verb moved", TypeBindingSwap, "- Logs: Der Server schreibt JSON, der Client braucht Text",
			"- Logs: Der Server schreibt Text, während der Client JSON braucht"},
		{"russian languages traded", TypeBindingSwap, "- Документация на немецком для клиентов, на английском для разработчиков.",
			"- Документация: на английском для клиентов, на немецком для разработчиков."},
		{"two kinds' cases traded", TypeBindingSwap, "- Tables: snake_case (`user_roles`), enums: SCREAMING_CASE (`ROLE_ADMIN`)",
			"- Tables: SCREAMING_CASE, enums: snake_case (`user_roles`, `ROLE_ADMIN`)"},
		{"items reordered with their partners", "", "- Tables: snake_case (`user_roles`), enums: SCREAMING_CASE (`ROLE_ADMIN`)",
			"- Enums: SCREAMING_CASE (`ROLE_ADMIN`), tables: snake_case (`user_roles`)"},
		{"subject put last", "", "Das Team entscheidet: wann und ob released wird", "Ob und wann released wird, entscheidet das Team"},
		{"object put first", "", "在 `src/routes/` 目录中定义 handlers，启动时加载", "handlers 定义在 `src/routes/` 目录中，启动时加载"},
		{"list items sharing a repeated head", "", "- Update the API docs and the CLI docs together.", "- Update the CLI docs and the API docs together."},
		{"passive recast as active", "", "Keep the summary short: it is read by managers, not by engineers, so write it clearly.",
			"Keep the summary short and clear: managers read it, not engineers."},
		{"word moved to its partner", "", "Run `make fast` quickly (unit tests) or `make full` (integration suite).",
			"Quickly run `make fast` (unit tests) or `make full` (integration suite)."},
	} {
		t.Run(c.name, func(t *testing.T) { checkEditClasses(t, []editClass{c}) })
	}
}

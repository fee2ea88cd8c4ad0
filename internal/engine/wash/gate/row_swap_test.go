package gate

import "testing"

// TestRowSwapClasses: two list items or table rows that keep their keys and trade what they
// bind are a binding swap; items reordered whole, or each reworded in its own words, are none.
func TestRowSwapClasses(t *testing.T) {
	const table = "| Tool | Purpose |\n|---|---|\n| **ruff** | linting and import sorting |\n| **mypy** | static type checking |\n"
	for _, c := range []editClass{
		{"list glosses traded", TypeBindingSwap, "- **camelCase** - переменные\n- **kebab-case** - имена файлов\n- **UPPER_CASE** - флаги",
			"- **camelCase** - имена файлов\n- **kebab-case** - переменные\n- **UPPER_CASE** - флаги"},
		{"table cells traded", TypeBindingSwap, table,
			"| Tool | Purpose |\n|---|---|\n| **ruff** | static type checking |\n| **mypy** | linting and import sorting |\n"},
		{"items reordered whole", "", "- **camelCase** - переменные\n- **kebab-case** - имена файлов",
			"- **kebab-case** - имена файлов\n- **camelCase** - переменные"},
		{"rows reworded in their own words", "", table,
			"| Tool | Purpose |\n|---|---|\n| **ruff** | linting, import sorting |\n| **mypy** | type checking |\n"},
	} {
		t.Run(c.name, func(t *testing.T) { checkEditClasses(t, []editClass{c}) })
	}
}

package gate

import (
	"strings"
	"testing"
)

// toggleDoc is a file whose author closes each block with "```text" as well as opening it:
// CommonMark (and goldmark) read everything after the first block's opener as code.
const toggleDoc = "# Guide\n\n```text\nmake setup\n```text\n\n## Naming\n\n" +
	"- **Types:** `PascalCase`\n- **Functions:** `camelCase`\n- Keep at most 3 arguments per function.\n\n" +
	"```bash\nnpm run build\n```text\n\n## Review\n\n- Two approvals before merging.\n"

// TestToggledFenceClasses: in a file whose fences toggle, the lines between a closing "```text"
// and the next fence are the author's Markdown: two bullets merged there pass, a number changed
// there is a number drop, and a code line inside a toggled block changed is still a code drop.
func TestToggledFenceClasses(t *testing.T) {
	for _, c := range []struct{ name, typ, old, new string }{
		{"bullets merged", "", "- **Types:** `PascalCase`\n- **Functions:** `camelCase`\n", "- **Types:** `PascalCase`; **Functions:** `camelCase`\n"},
		{"a number changed", TypeNumber, "at most 3 arguments", "at most 5 arguments"},
		{"a code line changed", TypeFenced, "npm run build\n", "npm run dev\n"},
	} {
		if !strings.Contains(toggleDoc, c.old) {
			t.Fatalf("%s: %q not in the document", c.name, c.old)
		}
		drops := Check([]byte(toggleDoc), []byte(strings.Replace(toggleDoc, c.old, c.new, 1)))
		switch {
		case c.typ == "" && len(drops) > 0:
			t.Errorf("%s: honest edit blocked: %v", c.name, drops)
		case c.typ != "" && !hasType(drops, c.typ):
			t.Errorf("%s: not blocked by %s; drops %v", c.name, c.typ, drops)
		}
	}
}

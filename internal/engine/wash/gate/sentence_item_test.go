package gate

import "testing"

// TestDroppedItemClasses: one item left out of a coordinated list in an otherwise unchanged
// statement is a drop, unless another statement of the result states it or the list gives
// examples.
func TestDroppedItemClasses(t *testing.T) {
	checkEditClasses(t, []editClass{
		{"comma list", TypeName, "Tag releases for the CLI, the SDK, and the docs site.", "Tag releases for the CLI, and the docs site."},
		{"de und", TypeName, "Das Changelog nennt neue Funktionen und behobene Fehler.", "Das Changelog nennt neue Funktionen."},
		{"ja nakaguro", TypeName, "PR には目的・変更点・確認手順を書く。", "PR には目的・変更点を書く。"},
		{"ru и", TypeName, "В описании PR укажи цель и способ проверки.", "В описании PR укажи цель."},
		{"examples cut short", "", "Use a formatter such as gofmt, prettier or black.", "Use a formatter such as gofmt or prettier."},
		{"item said by another statement", "", "Lint and benchmark every change.\n\nBenchmark every change before pushing.", "Lint every change.\n\nBenchmark every change before pushing."},
	})
}

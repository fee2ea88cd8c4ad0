package gate

import "testing"

// TestRuleSaidAgain: a rule cut from a table row's note is kept when an unchanged statement
// says it about the same command; cut with no such statement, with one about another command,
// or with one that says it more weakly, it blocks.
func TestRuleSaidAgain(t *testing.T) {
	const koRule = "* 에이전트 세션 내에서 `npm run build`를 실행하지 마세요.\n\n"
	const koRow = "| 명령 | 설명 |\n|---|---|\n| `npm run build` | 프로덕션 빌드 – 에이전트 세션 중에 실행하지 마세요 |\n"
	const koCut = "| 명령 | 설명 |\n|---|---|\n| `npm run build` | 프로덕션 빌드 |\n"
	const enRule = "- Never run `make deploy` from a laptop.\n\n"
	const enRow = "| Command | What |\n|---|---|\n| `make deploy` | ships the site; never run it from a laptop |\n"
	const enCut = "| Command | What |\n|---|---|\n| `make deploy` | ships the site |\n"
	for _, c := range []editClass{
		{"ko note cut, the rule said above", "", koRule + koRow, koRule + koCut},
		{"en note cut, the rule said above", "", enRule + enRow, enRule + enCut},
		{"en note cut, said nowhere else", TypePolarity, enRow, enCut},
		{"en note cut, the rule said of another command", TypePolarity, "- Never run `make release` from a laptop.\n\n" + enRow, "- Never run `make release` from a laptop.\n\n" + enCut},
		{"en note cut, the rule above weakened with it", TypeModality, enRule + enRow, "- Avoid running `make deploy` from a laptop.\n\n" + enCut},
	} {
		t.Run(c.name, func(t *testing.T) { checkEditClasses(t, []editClass{c}) })
	}
}

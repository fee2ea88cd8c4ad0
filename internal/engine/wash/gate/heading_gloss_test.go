package gate

import "testing"

// TestHeadingGlossClasses: a heading's translation in another script, in parentheses, dropped
// with the heading otherwise kept, passes; a scope in parentheses (a platform with a condition,
// names with inner capitals), a gloss dropped along with a changed heading, and a gloss in the
// heading's own script block.
func TestHeadingGlossClasses(t *testing.T) {
	body := "\n\n- 전역 변수를 쓰지 마세요.\n"
	for _, c := range []editClass{
		{"Korean heading, English gloss", "", "## 금지 규칙 (Forbidden Rules)" + body, "## 금지 규칙" + body},
		{"Russian heading, English gloss", "", "## Правила сборки (Build Rules)\n\n- Собирать через `make`.\n", "## Правила сборки\n\n- Собирать через `make`.\n"},
		{"English heading, Japanese gloss", "", "## Release Steps (リリース手順)\n\n- Tag with `git tag`.\n", "## Release Steps\n\n- Tag with `git tag`.\n"},
		{"platform scope with a condition", TypeCondition, "## 빌드 (Windows Only)\n\n- `build.cmd` 실행.\n", "## 빌드\n\n- `build.cmd` 실행.\n"},
		{"names with inner capitals", TypeName, "## 빌드 (Windows, macOS)\n\n- `build.sh` 실행.\n", "## 빌드\n\n- `build.sh` 실행.\n"},
		{"gloss dropped and rule changed", TypePolarity, "## 금지 규칙 (Forbidden Rules)" + body, "## 권장 규칙" + body},
	} {
		t.Run(c.name, func(t *testing.T) { checkEditClasses(t, []editClass{c}) })
	}
}

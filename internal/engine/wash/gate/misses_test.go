package gate

import "testing"

// TestKoreanConditionNegationClasses: a Korean condition word ends its condition ("배포 시"), so
// a negation after it is the rule's: "배포 시 바로 머지하지 않고" said "배포 시 바로 머지하고" is
// flipped. A negation inside the condition stays the condition's.
func TestKoreanConditionNegationClasses(t *testing.T) {
	checkEditClasses(t, []editClass{
		{"negation after 시 dropped", TypePolarity, "- 배포 시 바로 머지하지 않고, 리뷰어 승인 후 머지합니다.", "- 배포 시 바로 머지하고, 리뷰어 승인 후 알립니다."},
		{"negation after 경우 dropped", TypePolarity, "- 테스트 실패 경우 재시도하지 않고 원인을 기록합니다.", "- 테스트 실패 경우 재시도하고 원인을 기록합니다."},
		{"negation after 시 kept", "", "- 배포 시 바로 머지하지 않고, 리뷰어 승인 후 머지합니다.", "- 배포 시 바로 머지하지 않고 리뷰어 승인 후 머지합니다."},
	})
}

// TestCommandFlagClasses: a command-line option written in prose ("mypy --strict") is a named
// value of the command; dropped, it is a name drop. The option kept, or a dash set off by
// spaces, is none.
func TestCommandFlagClasses(t *testing.T) {
	checkEditClasses(t, []editClass{
		{"ja option dropped", TypeName, "- 確認: pytest --strict-markers で警告ゼロ", "- 確認: pytest で警告ゼロ"},
		{"en option dropped", TypeName, "Before a release, run the linter with --fix and commit the result.", "Before a release, run the linter and commit the result."},
		{"option kept", "", "Before a release, run the linter with --fix and commit the result.", "Before a release, run the linter with --fix, then commit the result."},
		{"spaced dash", "", "Keep rules short -- one line, plain words.", "Keep rules short -- one line and plain words."},
	})
}

// TestSwapBesideEchoClasses: two spans that trade places are a binding swap (across a before
// word, "antes", a reversed order) even when the result also adds an article ("os") or exchanges, where the statement repeats one of them, a
// word of one span for a word of the other (the echo of the swapped subjects); a statement that
// only adds the article is none.
func TestSwapBesideEchoClasses(t *testing.T) {
	checkEditClasses(t, []editClass{
		{"pt swap with article added", TypeOrder, "Testes de integração rodam antes dos testes unitários.", "Os testes unitários rodam antes dos testes de integração."},
		{"zh swap with echo", TypeBindingSwap, "接口文档放在 docs 目录，示例代码放在 examples 目录并与代码同步。", "示例代码放在 docs 目录，接口文档放在 examples 目录并与文档同步。"},
		{"pt article only", "", "Testes de integração rodam antes dos testes unitários.", "Os testes de integração rodam antes dos testes unitários."},
	})
}

// TestContrastFlipClasses: a contrast "A, not B" said "B, not A" is a polarity drop even when
// its words are function words (was, quoi); the contrast kept, or said with another negation,
// is none.
func TestContrastFlipClasses(t *testing.T) {
	checkEditClasses(t, []editClass{
		{"de warum/was", TypePolarity, "| Commit-Text | Warum, nicht was |", "| Commit-Text | Was, nicht warum |"},
		{"en flipped", TypePolarity, "- Comments: intent, not mechanics", "- Comments: mechanics, not intent"},
		{"es flipped", TypePolarity, "- Revisar: comportamiento, no estilo", "- Revisar: estilo, no comportamiento"},
		{"en kept", "", "- Comments: intent, not mechanics", "- Comments: the intent, not mechanics"},
	})
}

// TestTaskStatusClasses: a task's state, stated by its task box or leading mark, is a fact of
// it: "[x]" said "[ ]", "✅" said "🚧" is a polarity drop; the state kept while the words are
// reworded, or said by the other mark of the same state, is none.
func TestTaskStatusClasses(t *testing.T) {
	checkEditClasses(t, []editClass{
		{"box done → open", TypePolarity, "- [x] Экспорт отчётов в CSV\n- [ ] Импорт из Excel\n", "- [ ] Экспорт отчётов в CSV\n- [ ] Импорт из Excel\n"},
		{"mark done → doing", TypePolarity, "- ✅ Login page\n- 🚧 Billing page\n", "- 🚧 Login page\n- 🚧 Billing page\n"},
		{"same state, other mark", "", "- ✅ Login page\n- 🚧 Billing page\n", "- [x] Login page\n- 🚧 Billing page\n"},
	})
}

// TestDeniedExceptionClasses: a Korean exception word denied right after it ("예외 없음": no
// exception) states that the rule holds for every case, so an exception the original made
// ("…는 제외합니다") said that way is lost; the exception restated is none.
func TestDeniedExceptionClasses(t *testing.T) {
	checkEditClasses(t, []editClass{
		{"예외 → 예외 없음", TypeCondition, "- **예외**: 감사 규정상 영문 로그가 필수적인 모듈은 제외합니다.", "- **예외 없음**: 감사 규정상 영문 로그가 필수적인 모듈도 한글 로그를 씁니다."},
		{"예외 kept", "", "- **예외**: 감사 규정상 영문 로그가 필수적인 모듈은 제외합니다.", "- **예외**: 감사 규정상 영문 로그가 필수적인 모듈은 제외."},
	})
}

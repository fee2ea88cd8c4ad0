package gate

import "testing"

// TestHangulConditionClasses: a Korean condition dropped while the rule it leads is kept is a
// condition drop, read by the words before its condition word; the condition said with other
// words for its rule, or with the words before its word kept, is none.
func TestHangulConditionClasses(t *testing.T) {
	for _, c := range []editClass{
		{"경우 condition dropped", TypeCondition, "- 가능한 경우 테스트는 소스 파일 옆에 둡니다.", "- 테스트는 소스 파일 옆에 둡니다."},
		{"때 condition dropped", TypeCondition, "- 배포할 때 변경 로그를 갱신합니다.", "- 변경 로그를 갱신합니다."},
		{"경우 condition kept, rule reworded", "", "- 가능한 경우 테스트는 소스 파일 옆에 둡니다.", "- 가능한 경우, 테스트를 소스 파일 옆에 둡니다."},
	} {
		t.Run(c.name, func(t *testing.T) { checkEditClasses(t, []editClass{c}) })
	}
}

// TestHangulConditionText: a message names a Korean condition by the words up to its word.
func TestHangulConditionText(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"가능한 경우 테스트는 소스 파일 옆에 둡니다.", "가능한 경우"},
		{"배포할 때 변경 로그를 갱신합니다.", "배포할 때"},
	} {
		t.Run(c.text, func(t *testing.T) {
			inv := Inventory([]byte(c.text + "\n"))
			cls := inv.clausesOf(inv.stmts[0])
			if got, ok := hangulConditionText(cls[0], condIf); !ok || got != c.want {
				t.Errorf("hangulConditionText = %q, %v; want %q", got, ok, c.want)
			}
		})
	}
}

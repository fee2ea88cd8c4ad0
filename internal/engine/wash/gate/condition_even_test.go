package gate

import "testing"

// TestEvenConditionClasses: an "even" or "also" case of a rule (evenText), in each language,
// dropped or said as a plain case is a missing condition; restated with another even-phrase it
// is kept.
func TestEvenConditionClasses(t *testing.T) {
	for _, c := range []editClass{
		{"en dropped", TypeCondition, "Secrets are masked in logs, even in debug mode.", "Secrets are masked in logs."},
		{"en restated", "", "Secrets are masked in logs, even when running in debug mode.", "Secrets stay masked in logs even in debug mode."},
		{"de dropped", TypeCondition, "Pushes auf main sind gesperrt, auch im Notfall.", "Pushes auf main sind gesperrt."},
		{"fr dropped", TypeCondition, "Les secrets restent masqués, même en mode debug.", "Les secrets restent masqués."},
		{"es dropped", TypeCondition, "Los secretos se ocultan, incluso en modo debug.", "Los secretos se ocultan."},
		{"pt dropped", TypeCondition, "Os segredos ficam ocultos, mesmo em modo debug.", "Os segredos ficam ocultos."},
		{"ru dropped", TypeCondition, "Секреты скрываются в логах, даже в режиме отладки.", "Секреты скрываются в логах."},
		{"zh dropped", TypeCondition, "即使赶时间，也必须运行测试。", "必须运行测试。"},
		{"ja plain case", TypeCondition, "障害対応時もレビューを受けること。", "障害対応時はレビューを受けること。"},
		{"ko dropped", TypeCondition, "- 긴급한 경우에도 리뷰를 받을 것.", "- 리뷰를 받을 것."},
	} {
		t.Run(c.name, func(t *testing.T) { checkEditClasses(t, []editClass{c}) })
	}
}

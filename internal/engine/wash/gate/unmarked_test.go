package gate

import "testing"

// TestUnmarkedClasses: after a condition, modality or preference word of two runes (場合,
// 优先, 必须), the words of a Chinese or Japanese run are content: one exchanged for another is
// a drop, the statement unchanged there is none.
func TestUnmarkedClasses(t *testing.T) {
	for _, c := range []editClass{
		{"ja after 場合", TypeName, "競合する場合はローカル設定の値を優先する。", "競合する場合はグローバル設定の値を優先する。"},
		{"zh after 优先", TypeName, "- 冲突时优先采用本地配置的值。", "- 冲突时优先采用远程配置的值。"},
		{"ja reworded around the mark", "", "競合する場合はローカル設定の値を優先する。", "競合する場合は、ローカル設定の値を優先する。"},
	} {
		t.Run(c.name, func(t *testing.T) { checkEditClasses(t, []editClass{c}) })
	}
}

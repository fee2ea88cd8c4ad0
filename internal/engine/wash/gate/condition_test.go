package gate

import "testing"

// TestConditionRestatedClasses: an "if" condition a summary restates without its condition
// word keeps its content words, read past an elided French pronoun ("t'as" is "as") and a
// Chinese determiner (某, "some"); the condition dropped still blocks.
func TestConditionRestatedClasses(t *testing.T) {
	checkEditClasses(t, []editClass{
		{"fr elided pronoun", "", "- Si t'as une question, tu la poses tout de suite.", "- Pose ta question tout de suite."},
		{"fr condition dropped", TypeCondition, "- Si t'as un doute, demande avant de supprimer.", "- Demande avant de supprimer."},
		{"zh determiner", "", "- 如果某个文件太长，不要删除它。", "- 不要删除过长的文件。"},
		{"zh condition dropped", TypeCondition, "- 如果某个文件太长，不要删除它。", "- 不要删除它。"},
	})
}

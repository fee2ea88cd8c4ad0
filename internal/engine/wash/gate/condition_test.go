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

// TestConditionContentClasses: a condition restated without its word is kept when its sentence
// still carries its content: a number the statement says in words ("twice" for 2), a word of
// each alternative of an "or" condition. A number said in words elsewhere does not keep a
// condition whose other words are gone, nor does a condition that lost an alternative.
func TestConditionContentClasses(t *testing.T) {
	checkEditClasses(t, []editClass{
		{"number said in words", "", "Roll back after 3 timeouts. If the deploy times out three times, page on-call.", "Roll back on repeated timeouts. If the deploy times out three times, page on-call."},
		{"only the number left", TypeCondition, "Roll back after 3 timeouts. Retry three times.", "Roll back. Retry three times."},
		{"each alternative kept", "", "- When writing migrations or editing the schema, run the checker.", "- For migrations and the schema, run the checker."},
		{"an alternative lost", TypeCondition, "- When writing migrations or editing the schema, run the checker.", "- For migrations, run the checker."},
		{"ru each alternative kept", "", "- При правке миграций или изменении схемы запускай проверку.", "- Для миграций и схемы запускай проверку."},
		{"ru an alternative lost", TypeCondition, "- При правке миграций или изменении схемы запускай проверку.", "- Для миграций запускай проверку."},
	})
}

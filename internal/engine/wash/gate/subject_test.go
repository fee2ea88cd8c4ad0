package gate

import "testing"

// TestSubjectAnchorClasses: a list item rewritten too far to align is compared, for its scope
// and conditions, with the one new item of its section that opens with its first content word:
// "everywhere" narrowed to "only in public APIs" blocks; a new item of the same subject with no
// scope of its own, in place of one without any, adds no drop.
func TestSubjectAnchorClasses(t *testing.T) {
	checkEditClasses(t, []editClass{
		{"narrowed in a rewrite", TypeCondition, "- Docstrings everywhere it is possible\n- Keep commits small", "- Docstrings only in public APIs\n- Keep commits small"},
		{"ru narrowed in a rewrite", TypeCondition, "- Логирование везде где возможно\n- Коммиты маленькие", "- Логирование только в публичных обработчиках\n- Коммиты маленькие"},
		{"no scope either side", "", "- Docstrings explain the reason behind the code\n- Keep commits small", "- Docstrings in plain English\n- Keep commits small"},
	})
}

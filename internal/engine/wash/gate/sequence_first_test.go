package gate

import "testing"

// TestFirstOperandClasses: the first code operand of a clause a first-word leads, put in a
// later step of the result's sequence behind another operand of the clause, is a reversed
// order; the same sequence with it first is none.
func TestFirstOperandClasses(t *testing.T) {
	for _, c := range []editClass{
		{"en first operand moved", TypeOrder, "- First edit `schema.sql` and keep `models.py` in sync with it.", "- First edit `models.py`, then `schema.sql`."},
		{"en first operand kept", "", "- First edit `schema.sql` and keep `models.py` in sync with it.", "- First edit `schema.sql`, then sync `models.py`."},
		{"ru first operand moved", TypeOrder, "- Сначала правьте `schema.sql` и держите `models.py` в согласии с ним.", "- Сначала правьте `models.py`, затем `schema.sql`."},
	} {
		t.Run(c.name, func(t *testing.T) { checkEditClasses(t, []editClass{c}) })
	}
}

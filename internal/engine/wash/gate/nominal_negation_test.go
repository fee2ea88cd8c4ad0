package gate

import "testing"

// TestNominalNegation: Japanese "Xなし" (no X) said as the verb "Xしない" or "Xせず" keeps its
// meaning; a negation put on a verb the original did not negate, or on another word, blocks.
func TestNominalNegation(t *testing.T) {
	const ja = "- 対応方針: 修正なし、既存の手順を継続。\n"
	for _, c := range []editClass{
		{"なし said しない", "", ja, "- 対応方針: 修正しない、既存の手順を継続する。\n"},
		{"なし said せず", "", ja, "- 対応方針: 修正せず、既存の手順を継続する。\n"},
		{"a plain verb negated", TypePolarity, "- 対応方針: 修正する、既存の手順を継続。\n", "- 対応方針: 修正しない、既存の手順を継続する。\n"},
		{"another word negated", TypePolarity, ja, "- 対応方針: 修正なし、既存の手順を継続しない。\n"},
	} {
		t.Run(c.name, func(t *testing.T) { checkEditClasses(t, []editClass{c}) })
	}
}

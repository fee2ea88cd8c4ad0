package gate

import "testing"

// TestHedgedConditionClasses: a hedge put on a clause that is only a condition (a heading or a
// lead over the rule it opens) is a modality drop in each language; the condition reworded
// without one, or a hedge the original already said, is none.
func TestHedgedConditionClasses(t *testing.T) {
	checkEachClass(t, []editClass{
		{"fr si besoin on a heading", TypeModality, "## Avant de pousser la branche :", "## Si besoin, avant de pousser la branche :"},
		{"en if needed on a lead", TypeModality, "Before you push the branch:", "If needed, before you push the branch:"},
		{"es si hace falta on a lead", TypeModality, "Antes de subir la rama:", "Si hace falta, antes de subir la rama:"},
		{"en lead reworded", "", "Before you push the branch:", "Before pushing the branch:"},
		{"en hedge already said", "", "Before you push the branch, if needed, rebase it.", "If needed, before you push the branch, rebase it."},
	})
}

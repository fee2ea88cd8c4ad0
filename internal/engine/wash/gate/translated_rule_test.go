package gate

import "testing"

// TestTranslatedRuleClasses: a removed statement's rule said again in another script, with its
// numbers and code kept, is kept; its number changed, it is still a drop.
func TestTranslatedRuleClasses(t *testing.T) {
	checkEachClass(t, []editClass{
		{"ru rule translated", "", "- **Nesting depth 3** (не 5 levels)", "- **Глубина вложенности 3** (не 5 уровней)"},
		{"ru number changed", TypePolarity, "- **Nesting depth 3** (не 5 levels)", "- **Глубина вложенности 3** (не 6 уровней)"},
	})
}

// TestTranslatedRuleKept: the script test itself, on clauses read directly.
func TestTranslatedRuleKept(t *testing.T) {
	cl := clauseInfo{level: -3, stems: []string{"120", "chars"}}
	for _, c := range []struct {
		name string
		u    clauseInfo
		kept bool
	}{
		{"cyrillic words", clauseInfo{level: -3, stems: []string{"120", "символ"}}, true},
		{"latin words", clauseInfo{level: -3, stems: []string{"120", "lines"}}, false},
		{"other number", clauseInfo{level: -3, stems: []string{"80", "символ"}}, false},
		{"other direction", clauseInfo{level: 0, stems: []string{"120", "символ"}}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := translatedRuleKept(cl, []clauseInfo{c.u}); got != c.kept {
				t.Errorf("translatedRuleKept = %v, want %v", got, c.kept)
			}
		})
	}
}

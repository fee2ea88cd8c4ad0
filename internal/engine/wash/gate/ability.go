package gate

import (
	"strings"
	"unicode/utf8"
)

// abilityRestated reports a plain clause naming an ability with a noun ("Тестируемость без
// CLI", "Testability without a CLI", "Testbarkeit ohne CLI") that its counterpart m says with
// a permission word and the noun's verb ("тестировать можно без CLI", "can be tested without
// a CLI"): the "can" restates the ability the noun named; it weakens no rule.
func abilityRestated(cl, m clauseInfo) bool {
	if cl.modal != "" || m.modal == "" || m.level != 1 {
		return false
	}
	for _, t := range cl.toks {
		if t.kind != tWord {
			continue
		}
		if root := abilityRoot(t.text); root != "" && saysRoot(m, root) {
			return true
		}
	}
	return false
}

// abilityRoot returns the first five letters (four at least) of an ability noun's root
// ("тести" of "тестируемость", "test" of "testability"), or "" for another word.
func abilityRoot(w string) string {
	for _, end := range smallSets().ability {
		root, ok := strings.CutSuffix(w, end)
		if !ok {
			continue
		}
		if r := []rune(root); len(r) >= 4 {
			return string(r[:min(5, len(r))])
		}
	}
	return ""
}

// saysRoot reports a word of cl holding root ("getestet" holds "test").
func saysRoot(cl clauseInfo, root string) bool {
	for _, t := range cl.toks {
		if t.kind == tWord && utf8.RuneCountInString(t.text) > utf8.RuneCountInString(root) && strings.Contains(t.text, root) {
			return true
		}
	}
	return false
}

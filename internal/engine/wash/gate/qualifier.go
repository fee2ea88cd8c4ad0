package gate

import "fmt"

// A value a statement binds to a scope ("`kebab-case.ts` или `PascalCase.tsx` для компонентов":
// PascalCase for components; "`--frozen-lockfile` for CI") says where it applies. The scope
// phrase after the code span is no leading scope of the rule (scopeMark), so dropping it went
// unseen: the value then reads as applying everywhere. The counterpart must say a word of it.

// codeScope is a scope phrase right after a code span: its text for a message and its stems.
type codeScope struct {
	text  string
	words []string
}

// codeScopeMost is how many content words after its preposition a code span's scope holds.
const codeScopeMost = 3

// codeScopes returns the scope phrases that follow a code span directly: a scope preposition
// (scopeText) and the content words after it, up to the next code span, at most codeScopeMost.
func codeScopes(cl clauseInfo) []codeScope {
	x := slex()
	var out []codeScope
	for i := 0; i+2 < len(cl.toks); i++ {
		p := cl.toks[i+1]
		if cl.toks[i].kind != tCode || p.kind != tWord || !x.scope[p.text] || x.scopeNot[wordStem(cl.toks[i+2].text)] {
			continue
		}
		end := i + 2
		for end < len(cl.toks) && end < i+2+codeScopeMost && cl.toks[end].kind == tWord {
			end++
		}
		if words := clauseStems(cl.toks[i+2 : end]); len(words) > 0 {
			out = append(out, codeScope{text: wordsAt(cl.toks, i+1, end-i-1), words: words})
		}
	}
	return out
}

// codeScopePass reports a code span's scope phrase of which the counterparts say no word.
func (c *stmtCompare) codeScopePass(s, u *stmt, oc, uc []clauseInfo) {
	var ustems []string
	for _, v := range uc {
		ustems = append(ustems, v.stems...)
	}
	for _, cl := range oc {
		for _, sc := range codeScopes(cl) {
			if shared(sc.words, ustems) == 0 {
				c.drop(Token{TypeCondition, ruleKey(cl)}, s, u, fmt.Sprintf("scope %q missing", sc.text))
			}
		}
	}
}

package gate

import "strings"

// A Korean condition word ends its condition: "실용적인 경우 스타일은 … 배치합니다" (where
// practical, put the styles …) speaks of 실용적인, the words before 경우, as "파일 생성 시"
// speaks of 파일 생성. The words a condition part holds are those after its word, the rule's,
// which a rewrite dropping the condition keeps; so a counterpart must also say one word at
// least of those before it.

// hangulConditionWords returns the stems before the Korean condition word of p, back to the
// previous condition of cl; ok is false for a word of another script or none before it.
func hangulConditionWords(cl clauseInfo, p condPart) ([]string, bool) {
	if p.at <= p.from || p.from >= len(cl.toks) || !isHangulWord(cl.toks[p.from].text) {
		return nil, false
	}
	start := 0
	for _, q := range cl.parts {
		if q.at <= p.from && q.at > start {
			start = q.at
		}
	}
	w := clauseStems(cl.toks[start:p.from])
	return w, len(w) > 0
}

// hangulConditionSaid reports a Korean condition whose words before its word a counterpart
// sentence says, one at least; true for any other condition.
func hangulConditionSaid(cl clauseInfo, p condPart, uc []clauseInfo) bool {
	w, ok := hangulConditionWords(cl, p)
	if !ok {
		return true
	}
	for _, u := range uc {
		if shared(w, u.sentStems) > 0 {
			return true
		}
	}
	return false
}

// hangulConditionText returns, for a message, a clause's first condition of kind when its word
// is Korean: the text up to the word and the word ("실용적인 경우").
func hangulConditionText(cl clauseInfo, kind string) (string, bool) {
	p, ok := partOf(cl, kind)
	if !ok {
		return "", false
	}
	if _, ok := hangulConditionWords(cl, p); !ok {
		return "", false
	}
	w := cl.toks[p.from].text
	k := strings.Index(cl.text, w)
	if k < 0 {
		return "", false
	}
	return strings.TrimSpace(cl.text[:k+len(w)]), true
}

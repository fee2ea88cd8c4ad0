package gate

import (
	"strings"
	"unicode"

	"github.com/prosewash/prosewash/internal/engine/wash/mdline"
)

// A heading written in one script often carries its translation in another in parentheses:
// "## 금지 패턴 (Forbidden Patterns)", "## Запреты (Prohibitions)". The parenthesis is an alias
// of the heading, not a scope of its section, and a summariser drops it. A heading's closing
// parenthesis is a gloss when its letters are all of another script than the rest of the
// heading (Latin against any other), it has two words at least if Latin ("(Windows)" may be a
// platform), each a plain word (no digit, no
// inner capital, no tool or language name: "(Windows, macOS)" is a scope), and it says the same
// rule as the rest (both forbid, or neither does) with no condition ("(Windows Only)" is one).
// Dropping such a gloss, the heading otherwise unchanged, is no change.

// glossDropped reports an original heading whose one counterpart is itself without its gloss.
func (c *stmtCompare) glossDropped(s *stmt) bool {
	to := c.a.to[s.id]
	if s.kind != mdline.Heading || len(to) != 1 || to[0].kind != mdline.Heading {
		return false
	}
	head, gloss, ok := cutGloss(s.key)
	if !ok || head != to[0].key || !plainGloss(head, gloss) {
		return false
	}
	cls := c.o.clausesOf(s)
	if len(cls) < 2 {
		return false
	}
	g, rest := cls[len(cls)-1], cls[len(cls)-2]
	return len(g.conds) == 0 && g.level == rest.level
}

// cutGloss splits a heading's text at its closing parenthesis: "금지 패턴 (Forbidden Patterns)"
// is "금지 패턴" and "Forbidden Patterns".
func cutGloss(key string) (head, gloss string, ok bool) {
	body, closed := strings.CutSuffix(key, ")")
	i := strings.LastIndex(body, " (")
	if !closed || i <= 0 {
		return "", "", false
	}
	return strings.TrimSpace(body[:i]), strings.TrimSpace(body[i+2:]), true
}

// plainGloss reports a gloss of plain words in another script than head, two at least in Latin.
func plainGloss(head, gloss string) bool {
	hs, gs := scriptOf(head), scriptOf(gloss)
	if hs == 0 || gs == 0 || hs == gs {
		return false
	}
	words := strings.Fields(gloss)
	if gs == scriptLatin && len(words) < 2 {
		return false // one Latin word may be a platform: "(Windows)"
	}
	for _, w := range words {
		if !plainWord(w) {
			return false
		}
	}
	return true
}

// plainWord reports a word of letters only, capitalised at most on its first letter, that is
// no tool or language name.
func plainWord(w string) bool {
	for i, r := range []rune(w) {
		if !unicode.IsLetter(r) || i > 0 && unicode.IsUpper(r) {
			return false
		}
	}
	low := strings.ToLower(w)
	return !lex().tools[low] && langOf(low) == ""
}

// Scripts scriptOf tells apart.
const (
	scriptLatin = 1 + iota
	scriptOther
)

// scriptOf returns the script all the letters of text are written in (Latin or another), or 0
// for none or a mix.
func scriptOf(text string) int {
	out := 0
	for _, r := range text {
		if !unicode.IsLetter(r) {
			continue
		}
		s := scriptOther
		if unicode.Is(unicode.Latin, r) {
			s = scriptLatin
		}
		if out != 0 && out != s {
			return 0
		}
		out = s
	}
	return out
}

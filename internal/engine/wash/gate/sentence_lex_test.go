package gate

import (
	"strings"
	"testing"
)

// lexText lexes one prose line as the inventory hands it to the sentence reader: code spans and
// quotes found and masked first.
func lexText(s string) []item {
	_, sc := lineTokens(s, 0, func(Token) {}, checks{})
	return lexLine(nil, paraLine{text: sc.masked, codes: sc.codes, quotes: sc.quotes})
}

// readSentences reads one prose line as a paragraph of its own.
func readSentences(s string) sentenceFacts {
	_, sc := lineTokens(s, 0, func(Token) {}, checks{})
	return readParagraph([]paraLine{{text: sc.masked, codes: sc.codes, quotes: sc.quotes}}, checks{})
}

// itemString writes items compactly: words as themselves, code as `x`, CJK content in [],
// markers in <>, stops as |, commas as ",", soft clause starts as ~.
func itemString(items []item) string {
	var b []string
	for _, x := range items {
		switch x.kind {
		case itemWord:
			w := x.text
			if x.label {
				w += "^"
			}
			b = append(b, w)
		case itemCode:
			b = append(b, "`"+x.text+"`")
		case itemCJK:
			b = append(b, "["+x.text+"]")
		case itemMarker:
			b = append(b, "<"+x.text+">")
		case itemStop:
			b = append(b, "|")
		case itemComma:
			b = append(b, ",")
		case itemSoft:
			b = append(b, "~")
		case itemQuote:
			b = append(b, `"`+x.text+`"`)
		}
	}
	return strings.Join(b, " ")
}

func TestLexLineItems(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		// a code span comes back at its place; a comma breaks a clause, a full stop a sentence
		{"Run `make lint`, then commit. Done", "Run `make lint` , then commit | Done"},
		// an abbreviation's full stop and one before a lowercase word end no sentence
		{"Use tools, e.g. ruff and approx. five checks.", "Use tools , e.g ruff and approx five checks |"},
		// a comma inside parentheses breaks no clause; a dash starts one
		{"Keep logs (errors, warnings) — drop traces", "Keep logs errors warnings ~ , drop traces"},
		// a bold label ending with a colon marks its words as a label's; its colon, inside
		// the emphasis or after it, starts the value as a clause
		{"**Build Tool:** use Vite", "Build^ Tool^ ~ use Vite"},
		{"**Build Tool**: use Vite", "Build^ Tool^ ~ use Vite"},
		// a colon the next word touches is no label's
		{"**Build Tool:**use Vite", "Build^ Tool^ use Vite"},
		// joiners inside a word keep it whole
		{"Never force-push to next.js or c++ repos", "Never force-push to next.js or c++ repos"},
		// Chinese text splits into content and rule markers; its full stop ends the sentence
		{"不要使用全局变量。", "<不要> [使用全局变量] |"},
	} {
		if got := itemString(lexText(c.in)); got != c.want {
			t.Errorf("lexLine(%q)\n got %s\nwant %s", c.in, got, c.want)
		}
	}
}

func TestLexLineTableCellsAndTags(t *testing.T) {
	_, sc := lineTokens("| Timeout | 30 s |", 0, func(Token) {}, checks{})
	got := itemString(lexLine(nil, paraLine{text: sc.masked, codes: sc.codes, table: true}))
	if strings.Count(got, "|") < 3 {
		t.Errorf("a table row's cell bars end sentences: %s", got)
	}
	if got := itemString(lexText("[hard] Never push")); got != "hard ~ Never push" {
		t.Errorf("a tag opening a line starts a sentence after it: %s", got)
	}
}

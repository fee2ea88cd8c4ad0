package gate

import (
	"strings"
)

// The sentence reader runs over prose paragraphs after the line-local classes have blanked what
// they recognised. It finds three classes that need more than one line or one word of context:
// named values (a capitalised word is a name in mid-sentence, not at a sentence start), polarity
// facts (a rule word and the content words it governs) and ordered pairs (two operands joined by
// "over", "instead of", "not"...). It is lexical and deterministic: no model, no dictionary
// beyond the word lists in lexicon.go.
//
// It runs in stages, a file each: lexing (sentence_lex.go: a paragraph's lines into items),
// names (sentence_names.go), polarity (sentence_polarity.go: rule words and the clauses they
// govern), pairs (sentence_pairs.go: ordered pairs and bindings) and the alignment of rules
// with the other side's (sentence_align.go).

// sentenceFacts are what the reader found in one paragraph.
type sentenceFacts struct {
	names   []lineTok // per-line name tokens
	pol     []polFact
	pairs   []pairFact
	clauses []clauseFact
}

type lineTok struct {
	line int
	tok  Token
}

// readParagraph lexes the lines of one paragraph and reads its sentences.
func readParagraph(lines []paraLine, cfg checks) sentenceFacts {
	var items []item
	for _, pl := range lines {
		items = lexLine(items, pl)
	}
	var out sentenceFacts
	start := 0
	var prev []item
	for i := 0; i <= len(items); i++ {
		if i < len(items) && items[i].kind != itemStop {
			continue
		}
		if i > start {
			readSentence(items[start:i], prev, cfg, &out)
			prev = items[start:i]
		}
		start = i + 1
	}
	return out
}

// lineOpeners counts the words opening the lines of a sentence. Lines opening with one word
// ("Проверьте X для ...\nПроверьте Y для ...") are parallel sentences written without marks:
// the word is capitalised as a sentence's first is, no name. A word opening one line may be a
// name a wrapped paragraph carried over ("в сервис\nGraylog через UDP").
func lineOpeners(it []item) map[string]int {
	var out map[string]int
	if len(it) == 0 || it[0].line == it[len(it)-1].line {
		return nil // one line: no second opener
	}
	for i, x := range it {
		if x.kind == itemWord && lineStart(it, i) {
			if out == nil {
				out = map[string]int{}
			}
			out[x.text]++
		}
	}
	return out
}

// lineStart reports the first item of a line.
func lineStart(it []item, i int) bool { return i == 0 || it[i-1].line != it[i].line }

// readSentence finds the names, polarity facts and ordered pairs of one sentence.
func readSentence(it, prev []item, cfg checks, out *sentenceFacts) {
	l := lex()
	german := germanSentence(it)
	titleCase := isTitleCase(it) && !german
	name := make([]string, len(it)) // lowercased name of each name item
	openers := lineOpeners(it)
	start := true
	value := -1 // items up to this index are the words of a line's "Key: value" value
	for i, x := range it {
		switch x.kind {
		case itemSoft, itemComma:
			if x.kind == itemSoft {
				// After a label's colon a short value is a list of names ("Icons: Lucide
				// React", "State: Pinia"), a longer one a sentence ("Fix: Move the export").
				start = x.text != ":" || clauseWords(it[i+1:]) > 4
				if x.text == ":" {
					value = keyValue(it, i)
				}
			}
			continue
		case itemWord:
			lw := strings.ToLower(x.text)
			named := start && x.glossed && i > 0 && it[i-1].text == ":" // "Serveur : Express (rendu Pug)"
			n := nameOf(x.text, lw, start && !named || openers[x.text] >= 2 && lineStart(it, i), titleCase || x.label, it, i)
			if n == "" && i <= value && !l.stop[lw] && hasLetterOrDigit(lw) {
				// The value of a "Quote style: single quotes" line is a named value in any case.
				n = trimPossessive(lw)
			}
			if n != "" && (german && germanNoun(it, i) || ruleWord(lw)) {
				n = ""
			}
			if n != "" && !cfg.skipType[TypeName] {
				name[i] = n
				out.names = append(out.names, lineTok{x.line, Token{TypeName, n}})
			}
		case itemCJK:
			if !cfg.skipType[TypeName] {
				for _, n := range cjkNames(x.text) {
					out.names = append(out.names, lineTok{x.line, Token{TypeName, n}})
				}
			}
		}
		start = false
	}
	if !cfg.skipType[TypePolarity] {
		polarity(it, prev, out)
	}
	if !cfg.skipType[TypeOrder] {
		pairs(it, name, l, out)
	}
}

package gate

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Lexing, the sentence reader's first stage: a paragraph's masked lines become items (words,
// code spans, CJK content and markers, sentence and clause breaks), with bold labels and
// headings marked so their capitals are read as a title's.

type itemKind uint8

const (
	itemWord   itemKind = iota // a Latin-script word (letters, digits, internal - . ' + #)
	itemCode                   // an inline code span
	itemCJK                    // a run of Han or katakana text (content)
	itemMarker                 // a polarity marker found inside CJK text
	itemStop                   // a sentence end: . ! ? and their CJK forms, a table cell bar
	itemSoft                   // a clause start for capitalisation: an opening quote or a dash
	itemComma                  // a comma or semicolon: a clause break inside the sentence
	itemQuote                  // the opening of a quoted span (an operand of ordered pairs); its words follow
)

type item struct {
	kind itemKind
	text string // as written (code: the span's content)
	line int    // index of the line in the document
	// class and dir describe a CJK marker or joiner found inside CJK text.
	class string
	dir   int
	// label marks a word of a bold label ("**Chat Components**:", "**Memory System**"): its
	// capitals are a title's, not a name's.
	label bool
	// glossed marks a word a parenthesis follows ("Express (rendu Pug)"): after a label's
	// colon it names the value its gloss describes.
	glossed bool
}

// paraLine is one line of a paragraph handed to the sentence reader.
type paraLine struct {
	idx    int    // line index in the document
	text   []byte // masked line
	codes  []codeSpan
	quotes []codeSpan
	from   int  // first byte after the line's block prefix (list marker, heading hashes, "> ")
	table  bool // a table row: cell bars end sentences
	// heading: its capitals are a title's, as in a bold label ("## Build Commands").
	heading bool
	item    bool // the line opens a list item
}

// lexLine appends the items of one line. Code spans were blanked in text; they come back as
// items at their place.
func lexLine(items []item, pl paraLine) []item {
	m := pl.text
	ci, qi := 0, 0
	depth := 0 // parentheses: a comma inside "(e.g., at x)" breaks no clause
	bold := -1 // index of the first item inside an open "**" span
	for i := pl.from; i < len(m); {
		for ci < len(pl.codes) && pl.codes[ci].start < i {
			ci++
		}
		for qi < len(pl.quotes) && pl.quotes[qi].start < i {
			qi++
		}
		if qi < len(pl.quotes) && pl.quotes[qi].start == i {
			items = append(items, item{kind: itemQuote, text: pl.quotes[qi].text, line: pl.idx})
		}
		if ci < len(pl.codes) && pl.codes[ci].start == i {
			items = append(items, item{kind: itemCode, text: pl.codes[ci].text, line: pl.idx})
			i = pl.codes[ci].end
			ci++
			continue
		}
		if i+1 < len(m) && m[i] == '*' && m[i+1] == '*' {
			if bold < 0 {
				bold = len(items)
			} else {
				markLabel(items[bold:], m, i)
				bold = -1
			}
			i += 2
			continue
		}
		r, n := utf8.DecodeRune(m[i:])
		switch {
		case isCJK(r):
			j := i
			for j < len(m) {
				r2, n2 := utf8.DecodeRune(m[j:])
				if !isCJK(r2) {
					break
				}
				j += n2
			}
			items = splitCJK(items, string(m[i:j]), pl.idx, len(items) == 0 || items[len(items)-1].kind >= itemStop)
			i = j
		case r < 0x80 && isWordByte(byte(r)) || r >= 0x80 && unicode.IsLetter(r):
			j := i + n
			hangul := isHangul(r)
			for j < len(m) {
				r2, n2 := utf8.DecodeRune(m[j:])
				if unicode.IsLetter(r2) && isHangul(r2) != hangul {
					break // "API에": a Korean particle glued to a Latin name is no part of it
				}
				if r2 < 0x80 && isWordByte(byte(r2)) || r2 >= 0x80 && unicode.IsLetter(r2) && !isCJK(r2) || unicode.Is(unicode.Mn, r2) {
					j += n2
					continue
				}
				// Joiners inside a word: force-push, next.js, don't, c++, c#.
				if strings.ContainsRune("-.'\u2019", r2) && j+n2 < len(m) {
					r3, _ := utf8.DecodeRune(m[j+n2:])
					if r3 < 0x80 && isWordByte(byte(r3)) || r3 >= 0x80 && unicode.IsLetter(r3) && !isCJK(r3) {
						j += n2
						continue
					}
				}
				if (r2 == '+' || r2 == '#') && j-i <= 2 {
					k := j
					for k < len(m) && (m[k] == '+' || m[k] == '#') {
						k++
					}
					if k == len(m) || !isWordByte(m[k]) {
						j = k
					}
				}
				break
			}
			if w := lexWord(m, i, j); w != "" {
				items = append(items, item{kind: itemWord, text: w, line: pl.idx, label: pl.heading})
			}
			i = j
		default:
			switch {
			case r == '!' || r == '?' || r == '\u3002' || r == '\uff01' || r == '\uff1f':
				items = append(items, item{kind: itemStop, line: pl.idx})
			case r == '.':
				if sentenceEnd(m, i, items) {
					items = append(items, item{kind: itemStop, line: pl.idx})
				}
			case r == '|' && pl.table:
				items = append(items, item{kind: itemStop, line: pl.idx})
			case r == ':' && labelColon(m, i):
				// "Fix: Move the export": a label's value starts like a sentence (but see
				// readSentence for short values).
				items = append(items, item{kind: itemSoft, text: ":", line: pl.idx})
			case r == ']' && tagAt(m, pl.from, i):
				// "[hard] Никогда не ...": a tag opening the line; a sentence starts after it
				items = append(items, item{kind: itemSoft, line: pl.idx})
			case r == '(' || r == '\uff08':
				markGlossed(items, m, i, pl.idx)
				depth++
			case r == ')' || r == '\uff09':
				depth = max(0, depth-1)
			case (r == ',' || r == ';' || r == '\u3001' || r == '\uff0c' || r == '\uff1b') && depth == 0:
				items = append(items, item{kind: itemComma, line: pl.idx})
			case r == '"' || r == '\u201c' || r == '\u300c':
				items = append(items, item{kind: itemSoft, line: pl.idx})
			case r == '\u2014' || r == '\u2013' || r == '-' && i > 0 && m[i-1] == ' ' && i+1 < len(m) && m[i+1] == ' ':
				// A dash starts a clause as a semicolon does ("No `console.*` — use `logger`").
				items = append(items, item{kind: itemSoft, line: pl.idx})
				if depth == 0 {
					items = append(items, item{kind: itemComma, text: "\u2014", line: pl.idx})
				}
			}
			i += n
		}
	}
	return items
}

// markGlossed marks the word before the parenthesis at i as glossed when a space alone parts
// them on the same line ("Express (rendu Pug)").
func markGlossed(items []item, m []byte, i, line int) {
	if k := len(items) - 1; k >= 0 && items[k].kind == itemWord && items[k].line == line && i > 0 && m[i-1] == ' ' {
		items[k].glossed = true
	}
}

// labelColon reports a colon that ends a label: followed by a space or the line's end, past
// the emphasis that may close over it ("Telegram: grammy", "**Telegram:** grammy").
func labelColon(m []byte, i int) bool {
	j := i + 1
	for j < len(m) && (m[j] == '*' || m[j] == '_') {
		j++
	}
	return j == len(m) || m[j] == ' '
}

// tagAt reports a "[tag]" closing at i that opens the line's text at from or a sentence
// ("указания. [hard] Настоящие ..."), with no link target after it.
func tagAt(m []byte, from, i int) bool {
	j := bytes.LastIndexByte(m[from:i], '[')
	if j < 0 || i+1 < len(m) && (m[i+1] == '(' || m[i+1] == '[') {
		return false
	}
	j += from
	k := j
	for k > from && (m[k-1] == ' ' || m[k-1] == '*') {
		k--
	}
	return k == from || strings.IndexByte(".!?:", m[k-1]) >= 0
}

// markLabel marks the words of a bold span that closes at i as a label when the span ends with
// a colon (inside or right after it) or all its words are capitalised.
func markLabel(span []item, m []byte, i int) {
	colon := i > 0 && m[i-1] == ':' || i+2 < len(m) && m[i+2] == ':'
	words, caps := 0, 0
	for _, x := range span {
		if x.kind != itemWord {
			continue
		}
		words++
		if r, _ := utf8.DecodeRuneInString(x.text); unicode.IsUpper(r) {
			caps++
		}
	}
	if !colon && (words < 2 || caps < words) {
		return
	}
	for k := range span {
		span[k].label = true
	}
}

// sentenceEnd decides whether the full stop at i ends a sentence: it must be followed by a space,
// a closing mark or the end of the line, must not end an abbreviation (e.g., etc.), and the next
// word must not start in lower case ("approx. 5 minutes").
func sentenceEnd(m []byte, i int, items []item) bool {
	if i+1 < len(m) && !strings.ContainsRune(" \t)]*_\"'\u201d", rune(m[i+1])) {
		return false
	}
	if len(items) > 0 && items[len(items)-1].kind == itemWord && lex().abbrev[strings.ToLower(items[len(items)-1].text)] {
		return false
	}
	for j := i + 1; j < len(m); j++ {
		r, _ := utf8.DecodeRune(m[j:])
		if unicode.IsLetter(r) {
			return !unicode.IsLower(r)
		}
		if r != ' ' && r != '\t' && !strings.ContainsRune(")]*_\"'\u201d", r) {
			break
		}
	}
	return true
}

// isCJK reports Han, hiragana and katakana (Japanese and Chinese write words without spaces).
func isCJK(r rune) bool {
	return r >= 0x3040 && r <= 0x30ff || unicode.Is(unicode.Han, r) || r == 0x30fc
}

// splitCJK splits a run of Chinese or Japanese text into markers, joiners and content: Han and
// katakana runs are content; hiragana outside markers is grammar (particles, endings).
func splitCJK(items []item, s string, line int, clauseStart bool) []item {
	l := lex()
	content := func(t string) {
		var b strings.Builder
		flush := func() {
			if b.Len() > 0 {
				items = append(items, item{kind: itemCJK, text: b.String(), line: line})
				b.Reset()
			}
		}
		for _, r := range t {
			if r >= 0x3040 && r <= 0x309f {
				flush()
				continue
			}
			if b.Len() > 0 {
				prev, _ := utf8.DecodeLastRuneInString(b.String())
				if unicode.Is(unicode.Han, prev) != unicode.Is(unicode.Han, r) {
					flush()
				}
			}
			b.WriteRune(r)
		}
		flush()
	}
	last := 0
	for i := 0; i < len(s); {
		skipped := false
		for _, w := range l.cjkNotMarker {
			if strings.HasPrefix(s[i:], w) {
				i += len(w)
				skipped = true
				break
			}
		}
		if skipped {
			continue
		}
		found := false
		for _, mk := range l.cjk {
			if !strings.HasPrefix(s[i:], mk.text) || mk.clauseStart && !(i == 0 && clauseStart) {
				continue
			}
			content(s[last:i])
			items = append(items, item{kind: itemMarker, text: mk.text, class: mk.class, dir: l.joiner[mk.text], line: line})
			i += len(mk.text)
			last = i
			found = true
			break
		}
		if found {
			continue
		}
		if d, ok := cjkJoiner(s[i:]); ok {
			content(s[last:i])
			items = append(items, item{kind: itemMarker, text: d, dir: l.joiner[d], line: line})
			i += len(d)
			last = i
			continue
		}
		_, n := utf8.DecodeRuneInString(s[i:])
		i += n
	}
	content(s[last:])
	return items
}

// cjkJoiner finds a CJK pair joiner that is not also a polarity marker ("より", "比").
func cjkJoiner(s string) (string, bool) {
	for _, j := range []string{"の代わりに", "優先于", "而不用", "胜过", "より"} {
		if strings.HasPrefix(s, j) {
			return j, true
		}
	}
	return "", false
}

// lexWord is the word m[i:j] as the gate compares it: typographic apostrophes made plain,
// underscores of emphasis trimmed, and the two hyphens of a command-line option kept ("mypy
// --strict": the option is a name, see cliFlag).
func lexWord(m []byte, i, j int) string {
	w := strings.Trim(strings.ReplaceAll(string(m[i:j]), "\u2019", "'"), "_")
	if w != "" && flagAt(m, i) {
		w = "--" + w
	}
	return w
}

// flagAt reports a word at m[i] written right after two hyphens that open it: "--strict",
// not the "a--b" of a joined word or the dash of "---".
func flagAt(m []byte, i int) bool {
	return i >= 2 && m[i-1] == '-' && m[i-2] == '-' && (i == 2 || m[i-3] == ' ' || m[i-3] == '(')
}

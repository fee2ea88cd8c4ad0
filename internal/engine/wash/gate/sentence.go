package gate

import (
	"bytes"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The sentence reader runs over prose paragraphs after the line-local classes have blanked what
// they recognised. It finds three classes that need more than one line or one word of context:
// named values (a capitalised word is a name in mid-sentence, not at a sentence start), polarity
// facts (a rule word and the content words it governs) and ordered pairs (two operands joined by
// "over", "instead of", "not"...). It is lexical and deterministic: no model, no dictionary
// beyond the word lists in lexicon.go.

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

// sentenceFacts are what the reader found in one paragraph.
type sentenceFacts struct {
	names   []lineTok // per-line name tokens
	pol     []polFact
	pairs   []pairFact
	clauses []clauseFact
}

// clauseFact is a clause group of a sentence with the polarity classes its rule words carry
// (none for a plain statement) and its content stems. A rule whose words reappear in a clause
// without its class has been stripped or flipped there.
type clauseFact struct {
	classes uint8
	stems   []string
	line    int
}

// classBit is a polarity class's bit in clauseFact.classes.
func classBit(class string) uint8 {
	switch class {
	case polNot:
		return 1
	case polOnly:
		return 2
	case polExcept:
		return 4
	case polMust:
		return 8
	case polPrefer:
		return 16
	}
	return 0
}

type lineTok struct {
	line int
	tok  Token
}

// polFact is one polarity fact: a rule word's class and the content words it governs.
type polFact struct {
	tok   Token
	class string
	stems []string // distinct stems of the governed words
	sent  []string // distinct stems of the whole sentence
	line  int      // line index of the marker
}

// pairFact is an ordered pair: first is the chosen or first-named operand. With rel "in" it
// is a binding of two code spans instead: "`a` in `b`" (`vi.stubEnv()` in `beforeEach`).
type pairFact struct {
	first, second string
	rel           string  // "" for an ordered pair, "in" for a binding
	line          int     // line index in its document
	at            lineKey // its distinct line (set by the inventory)
}

func (p pairFact) key() string {
	if p.rel != "" {
		return p.first + " " + p.rel + " " + p.second
	}
	return p.first + " > " + p.second
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
			for j < len(m) {
				r2, n2 := utf8.DecodeRune(m[j:])
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
			w := strings.Trim(strings.ReplaceAll(string(m[i:j]), "\u2019", "'"), "_")
			if w != "" {
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
			case r == ':' && (i+1 == len(m) || m[i+1] == ' '):
				// "Fix: Move the export": a label's value starts like a sentence (but see
				// readSentence for short values).
				items = append(items, item{kind: itemSoft, text: ":", line: pl.idx})
			case r == ']' && tagAt(m, pl.from, i):
				// "[hard] Никогда не ...": a tag opening the line; a sentence starts after it
				items = append(items, item{kind: itemSoft, line: pl.idx})
			case r == '(' || r == '\uff08':
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

// readSentence finds the names, polarity facts and ordered pairs of one sentence.
func readSentence(it, prev []item, cfg checks, out *sentenceFacts) {
	l := lex()
	german := germanSentence(it)
	titleCase := isTitleCase(it) && !german
	name := make([]string, len(it)) // lowercased name of each name item
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
			n := nameOf(x.text, lw, start, titleCase || x.label, it, i)
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

// ruleWord reports a modality or condition word of the statement lexicon: "Никогда" or
// "Immer" capitalised after a label is the rule's word, not a name.
func ruleWord(lw string) bool {
	x := slex()
	_, modal := x.modal[lw]
	_, cond := x.cond[lw]
	return modal || cond
}

// germanSentence reports a sentence with two German function words (one in a sentence of
// at most six words: "Retry mit Exponential Backoff").
func germanSentence(it []item) bool {
	x := slex()
	words, marks := 0, 0
	for _, w := range it {
		if w.kind != itemWord {
			continue
		}
		words++
		if x.deMark[strings.ToLower(w.text)] {
			marks++
		}
	}
	return marks >= 2 || marks == 1 && words <= 6
}

// germanNoun reports a capitalised word of a German sentence that is a noun: it has an
// umlaut or a noun's ending, or a determiner stands before it (an adjective between them).
func germanNoun(it []item, i int) bool {
	x := slex()
	w := it[i].text
	r, _ := utf8.DecodeRuneInString(w)
	if !unicode.IsUpper(r) || strings.ToUpper(w) == w {
		return false
	}
	lw := strings.ToLower(w)
	if strings.ContainsAny(lw, "äöüß") {
		return true
	}
	for _, e := range x.deNounEnd {
		if lw == e || strings.HasSuffix(lw, e) && len(lw) > len(e)+1 {
			return true
		}
	}
	prev := func(k int) string {
		if k < 0 || it[k].kind != itemWord {
			return ""
		}
		return strings.ToLower(it[k].text)
	}
	if p := prev(i - 1); x.deArticle[p] {
		return true
	} else if p != "" && p == it[i-1].text && x.deArticle[prev(i-2)] {
		return true // "einem natürlichen Pausenpunkt"
	}
	return false
}

// keyValue returns the index of the last item of the value when the colon at i ends the key of a
// "Key: value" line ("- Quote style: single quotes", "Line length: 100 characters"): one to
// four words open the line before it and one to three words, no rule word and no code, end the
// line after it. Otherwise it returns -1.
func keyValue(it []item, i int) int {
	line := it[i].line
	k := i - 1
	for k >= 0 && it[k].line == line {
		if it[k].kind != itemWord {
			return -1
		}
		k--
	}
	if key := i - 1 - k; key < 1 || key > 4 || k >= 0 && it[k].kind != itemStop && it[k].kind != itemComma && it[k].line == line {
		return -1
	}
	l := lex()
	last, words := -1, 0
	for j := i + 1; j < len(it) && it[j].line == line; j++ {
		x := it[j]
		if x.kind == itemStop || x.kind == itemComma && x.text == "" {
			break
		}
		if x.kind != itemWord || l.marker[strings.ToLower(x.text)] != "" {
			return -1
		}
		words++
		last = j
	}
	if words < 1 || words > 3 {
		return -1
	}
	return last
}

// cjkLanguages are language names written in Chinese or Japanese: named values like "German"
// ("PR 标题始终使用英文": titles always in English).
var cjkLanguages = []string{"简体中文", "繁体中文", "繁體中文", "中文", "汉语", "漢語", "中国語", "英文", "英语", "英語",
	"日文", "日语", "日本語", "韩文", "韩语", "韓国語", "德语", "德文", "法语", "法文", "西班牙语", "俄语",
	"ドイツ", "フランス", "スペイン", "ロシア"}

// cjkNames returns the language names a run of CJK content holds.
func cjkNames(s string) []string {
	var out []string
	for _, n := range cjkLanguages {
		if strings.Contains(s, n) && !slices.ContainsFunc(out, func(o string) bool { return strings.Contains(o, n) }) {
			out = append(out, n)
		}
	}
	return out
}

// lineWords returns the words of one masked prose line, lowercased (for lenient name matching).
func lineWords(pl paraLine) []string {
	var out []string
	for _, x := range lexLine(nil, pl) {
		if x.kind == itemWord {
			out = append(out, trimPossessive(strings.ToLower(x.text)))
		}
	}
	return out
}

// clauseWords counts the words before the next clause or sentence break.
func clauseWords(it []item) int {
	n := 0
	for _, x := range it {
		if x.kind == itemComma && x.text == "" || x.kind == itemStop {
			break // a dash does not end a label's value: "Standard Go conventions — PascalCase ..."
		}
		if x.kind == itemWord {
			n++
		}
	}
	return n
}

func trimPossessive(w string) string {
	if strings.HasSuffix(w, "'s") && len(w) > 3 {
		return w[:len(w)-2]
	}
	return w
}

// isTitleCase reports a sentence with most words capitalised (a heading, a table header): its
// capitals mark a title, not names.
func isTitleCase(it []item) bool {
	words, caps := 0, 0
	for _, x := range it {
		if x.kind == itemCJK || x.kind == itemMarker {
			return false // a few Latin names in Chinese or Japanese text are names
		}
		if x.kind != itemWord {
			continue
		}
		r, _ := utf8.DecodeRuneInString(x.text)
		if !unicode.IsLetter(r) {
			continue
		}
		words++
		if unicode.IsUpper(r) {
			caps++
		}
	}
	return words >= 4 && caps*5 >= words*3
}

// nameOf decides whether a word is a named value and returns its key (lowercase), or "".
func nameOf(w, lw string, start, titleCase bool, it []item, i int) string {
	l := lex()
	base := trimPossessive(lw)
	if l.marker[base] != "" || l.stop[base] {
		return ""
	}
	if l.tools[base] {
		return base
	}
	hasDigit, hasLetter, upperInside, lower := false, false, false, false
	for k, r := range w {
		switch {
		case r >= '0' && r <= '9':
			hasDigit = true
		case unicode.IsLetter(r):
			hasLetter = true
			if unicode.IsUpper(r) && k > 0 {
				upperInside = true
			}
			if unicode.IsLower(r) {
				lower = true
			}
		}
	}
	first, _ := utf8.DecodeRuneInString(w)
	switch {
	case hasDigit && hasLetter && len(w) >= 2 && unicode.IsLetter(first):
		return base // C17, ES2022, sha256, arm64
	case hasDigit && hasLetter && len(w) >= 3:
		return base // 0o644, 0x1f, a 3f2a9c hash: digits glued to letters are no number
	case upperInside && lower:
		if l.emphasis[base] {
			return ""
		}
		return base // TypeScript, GitHub, macOS, useEffect
	case !lower && hasLetter && unicode.IsUpper(first):
		// All capitals: an acronym (API, JSON, CI) unless it is emphasis (NEVER, IMPORTANT).
		if n := utf8.RuneCountInString(w); n >= 2 && n <= 5 && !l.emphasis[base] {
			return base
		}
		return ""
	case unicode.IsUpper(first) && strings.Contains(w, ".") && !l.emphasis[base]:
		return base // Next.js, Node.js, Socket.IO
	case unicode.IsUpper(first) && !start && !titleCase && !l.emphasis[base]:
		return base // Vite, German, Postgres in mid-sentence
	}
	// A lowercase tool-shaped word (next.js, vue-router) right after "use", "prefer", "switch
	// to"..., or before "for" ("esbuild for the library").
	if strings.ContainsAny(w, ".-+#") && hasLetter && unicode.IsLower(first) {
		if i > 0 && it[i-1].kind == itemWord && l.useVerbs[strings.ToLower(it[i-1].text)] ||
			i > 1 && it[i-1].kind == itemWord && (it[i-1].text == "to" || it[i-1].text == "the") && it[i-2].kind == itemWord && l.useVerbs[strings.ToLower(it[i-2].text)] ||
			i+1 < len(it) && it[i+1].kind == itemWord && strings.EqualFold(it[i+1].text, "for") {
			return base
		}
	}
	return ""
}

// polarity turns the rule words of a sentence into facts. A sentence is cut into clauses at
// commas and semicolons; a rule word governs the content words of its clause ("ONLY use pnpm,
// NEVER npm" is only(use pnpm) and not(npm)), split between two rule words sharing a clause. A
// clause holding a rule word and nothing else ("Never, under any circumstances, force-push
// main") governs the unmarked clauses after it, else those before it. A rule word directly
// followed by another gives way to it ("must never" is a prohibition).
func polarity(it, prev []item, out *sentenceFacts) {
	type mark struct {
		at, end int // item range of the marker (two words for "do not")
		class   string
		line    int
		text    string // lowercased ("do not")
	}
	l := lex()
	var marks []mark
	for i := 0; i < len(it); i++ {
		x := it[i]
		if x.kind == itemMarker && x.class != "" {
			marks = append(marks, mark{i, i + 1, x.class, x.line, x.text})
			continue
		}
		if x.kind != itemWord {
			continue
		}
		lw := strings.ToLower(x.text)
		if i+1 < len(it) && it[i+1].kind == itemWord {
			two := lw + " " + strings.ToLower(it[i+1].text)
			if c := l.marker2[two]; c != "" {
				marks = append(marks, mark{i, i + 2, c, x.line, two})
				i++
				continue
			}
		}
		if c := l.marker[lw]; c != "" {
			marks = append(marks, mark{i, i + 1, c, x.line, lw})
		}
	}
	// A rule word directly followed by another gives way to it ("must never" is a
	// prohibition), except that a negation of a verb of omission is an obligation ("never skip
	// the tests", "do not omit") and a negated obligation is no obligation ("no need to", "not
	// required", "don't have to"): it stays a negation.
	kept := marks[:0]
	for k := 0; k < len(marks); k++ {
		mk := marks[k]
		if k+1 < len(marks) && marks[k+1].at == mk.end {
			next := &marks[k+1]
			switch {
			case mk.class == polNot && next.class == polNot && l.omission[next.text]:
				next.class = polMust
			case mk.class == polNot && next.class == polMust:
				next.class = polNot
			}
			next.at = mk.at
			continue
		}
		kept = append(kept, mk)
	}
	marks = kept
	inMark := make([]bool, len(it))
	for _, mk := range marks {
		for j := mk.at; j < mk.end; j++ {
			inMark[j] = true
		}
	}
	// Each item's shown form and stems, computed once: clauses and facts gather them.
	shownOf, stemsOf := itemWords(it)
	for j := range inMark {
		if inMark[j] {
			shownOf[j], stemsOf[j] = "", nil
		}
	}
	words := func(a, b int) ([]string, []string) { return gather(shownOf[a:b], stemsOf[a:b]) }
	// Clauses, as item ranges. A clause opening with "and", "or" or "nor" continues the one
	// before it: "PREFER a over b, and c over d" is one rule.
	type clause struct {
		a, b  int
		marks []int // indexes into marks
		empty bool  // no content word
	}
	var cl []clause
	start := 0
	for i := 0; i <= len(it); i++ {
		if i < len(it) && it[i].kind != itemComma {
			continue
		}
		if len(cl) > 0 && start < len(it) && it[start].kind == itemWord {
			switch strings.ToLower(it[start].text) {
			case "and", "or", "nor":
				cl[len(cl)-1].b = i
				start = i + 1
				continue
			}
		}
		cl = append(cl, clause{a: start, b: i})
		start = i + 1
	}
	for ci := range cl {
		c := &cl[ci]
		for k, mk := range marks {
			if mk.at >= c.a && mk.at < c.b {
				c.marks = append(c.marks, k)
			}
		}
		_, st := words(c.a, c.b)
		c.empty = len(st) == 0
	}
	// Group each marked clause with the unmarked clauses it governs; the rest stand alone.
	type group struct {
		a, b    int
		classes uint8
	}
	var groups []group
	taken := make([]bool, len(cl))
	for ci, c := range cl {
		if len(c.marks) == 0 {
			continue
		}
		if c.empty && c.a < len(it) && it[c.a].kind == itemWord && conditional[strings.ToLower(it[c.a].text)] {
			// "if you don't, automation adds it": the rule word belongs to an elliptical
			// condition; it governs nothing and takes no clause after it.
			taken[ci] = true
			continue
		}
		g := group{a: c.a, b: c.b}
		for _, k := range c.marks {
			g.classes |= classBit(marks[k].class)
		}
		taken[ci] = true
		if c.empty {
			j := ci + 1
			for j < len(cl) && len(cl[j].marks) == 0 {
				g.b = cl[j].b
				taken[j] = true
				j++
			}
			if j == ci+1 {
				for j = ci - 1; j >= 0 && len(cl[j].marks) == 0 && !taken[j]; j-- {
					g.a = cl[j].a
					taken[j] = true
				}
			}
		}
		groups = append(groups, g)
	}
	_, sent := words(0, len(it))
	for _, g := range groups {
		_, st := words(g.a, g.b)
		out.clauses = append(out.clauses, clauseFact{classes: g.classes, stems: st, line: it[g.a].line})
	}
	for ci, c := range cl {
		if !taken[ci] {
			if _, st := words(c.a, c.b); len(st) >= 2 {
				out.clauses = append(out.clauses, clauseFact{stems: st, line: it[c.a].line})
			}
		}
	}
	for _, g := range groups {
		var ks []int
		for k, mk := range marks {
			if mk.at >= g.a && mk.at < g.b {
				ks = append(ks, k)
			}
		}
		for n, k := range ks {
			a, b := g.a, g.b
			if n > 0 {
				a = marks[ks[n-1]].end
			}
			if n+1 < len(ks) {
				b = marks[ks[n+1]].at
			}
			shown, stems := words(a, b)
			if len(stems) < 2 && len(prev) > 0 {
				// "Do not re-flag." after the finding it is about: a bare rule takes the
				// sentence before it as its subject, so each such rule stays its own.
				ps, pst := gather(itemWords(prev))
				shown = append(append(shown, "|"), ps...)
				stems = append(stems, pst...)
			}
			mk := marks[k]
			out.pol = append(out.pol, polFact{
				tok:   Token{TypePolarity, mk.class + "(" + strings.Join(shown, " ") + ")"},
				class: mk.class, stems: stems, sent: sent, line: mk.line,
			})
		}
	}
}

// conditional are the words opening a condition clause.
var conditional = map[string]bool{"if": true, "when": true, "whether": true, "unless": true}

// gather collects the content words of a run of items (see itemWords), as shown and as distinct
// stems.
func gather(shownOf []string, stemsOf [][]string) ([]string, []string) {
	var shown, stems []string
	for j := range shownOf {
		if shownOf[j] == "" {
			continue
		}
		shown = append(shown, shownOf[j])
		for _, w := range stemsOf[j] {
			if !slices.Contains(stems, w) {
				stems = append(stems, w)
			}
		}
	}
	return shown, stems
}

// itemWords returns, per item, its shown form and stems when it is a content word (a word that
// is neither a function word nor a rule word, a code span, CJK content), else "" and nil.
func itemWords(items []item) ([]string, [][]string) {
	l := lex()
	shown := make([]string, len(items))
	stems := make([][]string, len(items))
	for j, x := range items {
		switch x.kind {
		case itemWord:
			lw := trimPossessive(strings.ToLower(x.text))
			if l.stop[lw] || l.marker[lw] != "" || !hasLetterOrDigit(lw) {
				continue
			}
			shown[j], stems[j] = lw, []string{stem(lw)}
		case itemCode:
			shown[j], stems[j] = "`"+x.text+"`", []string{x.text}
		case itemCJK:
			shown[j], stems[j] = x.text, cjkGrams(x.text)
		}
	}
	return shown, stems
}

// pairs records ordered pairs: an operand (code span or name) shortly before a joiner and one
// shortly after it.
func pairs(it []item, name []string, l *lexicon, out *sentenceFacts) {
	operand := func(i int) string {
		switch {
		case it[i].kind == itemCode:
			return "`" + it[i].text + "`"
		case it[i].kind == itemQuote:
			return `"` + it[i].text + `"`
		case name[i] != "":
			return name[i]
		}
		return ""
	}
	for i := 0; i < len(it); i++ {
		// A binding: two code spans joined by nothing but "in" ("`a` in `b`").
		if x := it[i]; x.kind == itemWord && l.binder[strings.ToLower(x.text)] && i > 0 && i+1 < len(it) &&
			it[i-1].kind == itemCode && it[i+1].kind == itemCode && it[i-1].text != it[i+1].text {
			out.pairs = append(out.pairs, pairFact{first: operand(i - 1), second: operand(i + 1), rel: "in", line: x.line})
			continue
		}
		dir, width := 0, 1
		switch x := it[i]; x.kind {
		case itemMarker:
			dir = x.dir
		case itemWord:
			lw := strings.ToLower(x.text)
			if i+1 < len(it) && it[i+1].kind == itemWord {
				if d := l.joiner[lw+" "+strings.ToLower(it[i+1].text)]; d != 0 {
					dir, width = d, 2
				}
			}
			if dir == 0 {
				dir = l.joiner[lw]
			}
		}
		if dir == 0 {
			continue
		}
		// Operands are looked for within six content words on each side; a sequence ("before",
		// "after") takes only the nearest operand on each side: "run `a` after `b` and before
		// `c`" says nothing of `b` and `c`.
		content := func(x item) bool {
			return x.kind == itemWord && !l.stop[strings.ToLower(x.text)] || x.kind == itemCJK
		}
		most := 3
		if x := strings.ToLower(it[i].text); x == "before" || x == "after" {
			most = 1
		}
		var left, right []string
		for j, n := i-1, 0; j >= 0 && n < 6 && len(left) < most && it[j].kind != itemStop; j-- {
			if o := operand(j); o != "" {
				left = append(left, o)
			} else if content(it[j]) {
				n++
			}
		}
		for j, n := i+width, 0; j < len(it) && n < 6 && len(right) < most && it[j].kind != itemStop; j++ {
			if o := operand(j); o != "" {
				right = append(right, o)
			} else if content(it[j]) {
				n++
			}
		}
		for _, a := range left {
			for _, b := range right {
				if a == b {
					continue
				}
				if dir < 0 {
					a, b = b, a
				}
				out.pairs = append(out.pairs, pairFact{first: a, second: b, line: it[i].line})
			}
		}
		i += width - 1
	}
}

// cjkGrams splits CJK content into comparable units: katakana words whole, Han text character
// by character (each is a morpheme; Chinese and Japanese mark no word boundaries, and a summary
// drops function characters and shortens compounds: 使用方法 becomes 用法), function characters
// left out.
func cjkGrams(s string) []string {
	rs := []rune(s)
	if len(rs) == 0 {
		return nil
	}
	if !unicode.Is(unicode.Han, rs[0]) {
		return []string{s}
	}
	var out []string
	for _, r := range rs {
		if !strings.ContainsRune(hanFunction, r) {
			out = append(out, string(r))
		}
	}
	return out
}

// hanFunction are Han characters that are grammar rather than content (particles, pronouns,
// measure words, common prepositions).
const hanFunction = "的了地得着过和与在是就都也又把被将对从向于以及或而并等之其该这那个些时后中上下里来去能会要有为"

// stem folds English inflections so rewording keeps a rule's words: tests/test,
// skipped/skipping/skip, uses/used/use. It is deliberately crude and only ever compared with
// itself.
func stem(w string) string {
	if len(w) < 4 || !isASCIIWord(w) {
		return w
	}
	switch {
	case len(w) >= 6 && strings.HasSuffix(w, "ly"):
		w = w[:len(w)-2] // locally, silently
	case len(w) >= 5 && strings.HasSuffix(w, "ing"):
		w = w[:len(w)-3]
	case strings.HasSuffix(w, "ied"), strings.HasSuffix(w, "ies"):
		w = w[:len(w)-3] + "i"
	case strings.HasSuffix(w, "ed") && w[len(w)-3] != 'e':
		w = w[:len(w)-2]
	case strings.HasSuffix(w, "es") && len(w) >= 5 && strings.ContainsRune("sxzh", rune(w[len(w)-3])):
		w = w[:len(w)-2]
	case strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		w = w[:len(w)-1]
	}
	if len(w) > 3 && (strings.HasSuffix(w, "e") || strings.HasSuffix(w, "y")) {
		if w[len(w)-1] == 'y' {
			w = w[:len(w)-1] + "i"
		} else {
			w = w[:len(w)-1]
		}
	}
	if n := len(w); n > 3 && w[n-1] == w[n-2] && !strings.ContainsRune("aeiou", rune(w[n-1])) {
		w = w[:n-1]
	}
	return w
}

func isASCIIWord(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] >= 0x80 {
			return false
		}
	}
	return true
}

// need is how many of n words a rewording must keep: two thirds, rounded up.
func need(n int) int { return (2*n + 2) / 3 }

// polIndex finds, among an inventory's polarity facts and clauses, those a rule of the other
// side survives in or is contradicted by. Both lookups go through a stem index: a file with
// thousands of rules must not compare every pair.
type polIndex struct {
	facts   []polFact
	clauses []clauseFact
	byStem  map[string][]int // stem -> facts whose sentence holds it
	clStem  map[string][]int // stem -> clauses holding it
}

func newPolIndex(facts []polFact, clauses []clauseFact) *polIndex {
	x := &polIndex{facts: facts, clauses: clauses, byStem: map[string][]int{}, clStem: map[string][]int{}}
	for i, f := range facts {
		for _, s := range f.sent {
			x.byStem[s] = append(x.byStem[s], i)
		}
	}
	for i, c := range clauses {
		for _, s := range c.stems {
			x.clStem[s] = append(x.clStem[s], i)
		}
	}
	return x
}

// keeps reports whether some fact of the index keeps f: the same class, in a sentence carrying at
// least two thirds of the words f's rule word governed. The other side is read by sentence,
// since a summary may regroup a rule's words around its rule words; a word regrouped into a
// clause no rule word governs is caught by contradicting.
func (x *polIndex) keeps(f polFact) bool {
	if len(f.stems) == 0 {
		return slices.ContainsFunc(x.facts, func(g polFact) bool { return g.class == f.class })
	}
	count := map[int]int{}
	for _, s := range f.stems {
		for _, i := range x.byStem[s] {
			count[i]++
		}
	}
	for i, n := range count {
		if n >= need(len(f.stems)) && x.facts[i].class == f.class {
			return true
		}
	}
	return false
}

// contradicting counts the clauses that carry most of f's words without f's class: the rule
// stripped of its rule word ("never silently ignore" become "silently ignore when harmless") or
// given another ("never" become "always"). A rule of one word is not checked: a plain mention
// of that word elsewhere is no contradiction.
func (x *polIndex) contradicting(f polFact) int {
	if len(f.stems) < 2 {
		return 0
	}
	bit := classBit(f.class)
	count := map[int]int{}
	for _, s := range f.stems {
		for _, i := range x.clStem[s] {
			count[i]++
		}
	}
	n := 0
	for i, h := range count {
		// The clause must be about the rule: its words mostly the rule's, not a longer clause
		// that happens to share some of them.
		if h >= max(2, need(len(f.stems))) && 2*h >= len(x.clauses[i].stems) && x.clauses[i].classes&bit == 0 {
			n++
		}
	}
	return n
}

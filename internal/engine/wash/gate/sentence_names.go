package gate

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Names, the sentence reader's second stage: which words of a sentence are named values (a
// tool, language, product or version name) and how they are keyed.

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
// line after it, the first no function word ("Im Zweifel: Als Personalunion einstufen" is a
// sentence). Otherwise it returns -1.
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
	if i+1 < len(it) && slex().stop[strings.ToLower(it[i+1].text)] {
		return -1
	}
	l := lex()
	last, words := -1, 0
	for j := i + 1; j < len(it) && it[j].line == line; j++ {
		x := it[j]
		if x.kind == itemStop || x.kind == itemComma && x.text == "" {
			break
		}
		if x.kind != itemWord || l.marker[strings.ToLower(x.text)] != "" || hangulRuleWord(x.text) {
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

// hangulRuleWord reports a Korean word carrying a modality on its stem ("피하고", "금지됨"):
// a value holding one is a rule ("명확성: 모호한 표현을 피하고"), as a marker word makes an
// English one ("Clarity: avoid vague wording"), not a list of names.
func hangulRuleWord(w string) bool {
	if !isHangulWord(w) {
		return false
	}
	_, modal := hangulModal([]string{w}, 0, 1)
	return modal
}

// hangulNounParticles are the Korean particles a noun takes on without changing what it names
// (case, topic and the comitative ones), longest first: "표현을" is the name "표현".
var hangulNounParticles = []string{"에서는", "으로는", "에서", "에는", "으로", "로는", "에게", "을", "를", "이", "가", "은", "는", "의", "에", "로", "와", "과"}

// hangulBare returns a Korean word of three syllables or more without the noun particle it
// ends with; other words as they are. A word of two may be a noun ending like a particle
// (통과, 결과, 정의, 경로, 추가), more often than a noun of one with its particle ("표로").
func hangulBare(w string) string {
	if !isHangulWord(w) || utf8.RuneCountInString(w) < 3 {
		return w
	}
	for _, p := range hangulNounParticles {
		if stem, ok := strings.CutSuffix(w, p); ok && stem != "" {
			return stem
		}
	}
	return w
}

// acronymSpelled reports a name s writes as an acronym ("VS") that a result statement spells out
// ("Visual Studio"): words in a row, none a stop word, whose initials are its letters.
func (c *stmtCompare) acronymSpelled(t Token, s *stmt, to []*stmt) bool {
	if t.Type != TypeName || !acronym(strings.ToUpper(t.Value)) || !strings.Contains(s.text(), strings.ToUpper(t.Value)) {
		return false
	}
	for _, u := range to {
		for _, cl := range c.r.clausesOf(u) {
			if spellsAcronym(cl.toks, t.Value) {
				return true
			}
		}
	}
	return false
}

// spellsAcronym reports a run of words of toks whose initials are the letters of acr, each
// word longer than its initial and no stop word.
func spellsAcronym(toks []ctok, acr string) bool {
	letters := []rune(acr)
	n := len(letters)
	for i := 0; i+n <= len(toks); i++ {
		k := 0
		for k < n {
			w := toks[i+k]
			r, size := utf8.DecodeRuneInString(w.text)
			if w.kind != tWord || len(w.text) <= size || r != letters[k] || lex().stop[w.text] || slex().stop[w.text] {
				break
			}
			k++
		}
		if k == n {
			return true
		}
	}
	return false
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
		if !unicode.IsLetter(r) || acronym(x.text) {
			continue // an acronym's capitals are not a title's ("Serveur HTTP : Express (rendu Pug + API JSON)")
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
	if cliFlag(w) {
		return base // "mypy --strict": the option is part of the command
	}
	sh := shapeOf(w)
	if named, decided := sh.name(w, base, start, titleCase); decided {
		return named
	}
	if toolAfterVerb(w, sh, it, i) {
		return base
	}
	return ""
}

// cliFlag reports a command-line option written in prose: two hyphens and a letter
// ("--strict", "--no-verify"); a dash set off by spaces is punctuation, not a word.
func cliFlag(w string) bool {
	rest, ok := strings.CutPrefix(w, "--")
	r, _ := utf8.DecodeRuneInString(rest)
	return ok && len(rest) >= 2 && unicode.IsLetter(r)
}

// wordShape is what the letters of a word are: digits, letters, a capital after the first
// letter, a lowercase letter.
type wordShape struct {
	digit, letter, upperInside, lower bool
}

func shapeOf(w string) wordShape {
	var sh wordShape
	for k, r := range w {
		switch {
		case r >= '0' && r <= '9':
			sh.digit = true
		case unicode.IsLetter(r):
			sh.letter = true
			if unicode.IsUpper(r) && k > 0 {
				sh.upperInside = true
			}
			if unicode.IsLower(r) {
				sh.lower = true
			}
		}
	}
	return sh
}

// name decides a word by its shape: it returns the key and true when the shape makes the word
// a name or rules it out, false when the shape leaves it open.
func (sh wordShape) name(w, base string, start, titleCase bool) (string, bool) {
	emphasis := lex().emphasis[base]
	first, _ := utf8.DecodeRuneInString(w)
	switch {
	case sh.digit && sh.letter && len(w) >= 2 && unicode.IsLetter(first):
		return base, true // C17, ES2022, sha256, arm64
	case sh.digit && sh.letter && len(w) >= 3:
		return base, true // 0o644, 0x1f, a 3f2a9c hash: digits glued to letters are no number
	case sh.upperInside && sh.lower:
		if emphasis {
			return "", true
		}
		return base, true // TypeScript, GitHub, macOS, useEffect
	case !sh.lower && sh.letter && unicode.IsUpper(first):
		// All capitals: an acronym (API, JSON, CI) unless it is emphasis (NEVER, IMPORTANT).
		if n := utf8.RuneCountInString(w); n >= 2 && n <= 5 && !emphasis {
			return base, true
		}
		return "", true
	case unicode.IsUpper(first) && strings.Contains(w, ".") && !emphasis:
		return base, true // Next.js, Node.js, Socket.IO
	case unicode.IsUpper(first) && !start && !titleCase && !emphasis:
		return base, true // Vite, German, Postgres in mid-sentence
	}
	return "", false
}

// toolAfterVerb reports a lowercase tool-shaped word (next.js, vue-router) right after "use",
// "prefer", "switch to"..., or before "for" ("esbuild for the library").
func toolAfterVerb(w string, sh wordShape, it []item, i int) bool {
	first, _ := utf8.DecodeRuneInString(w)
	if !strings.ContainsAny(w, ".-+#") || !sh.letter || !unicode.IsLower(first) {
		return false
	}
	l := lex()
	word := func(k int) string {
		if k < 0 || k >= len(it) || it[k].kind != itemWord {
			return ""
		}
		return it[k].text
	}
	p1, p2 := word(i-1), word(i-2)
	return p1 != "" && l.useVerbs[strings.ToLower(p1)] ||
		(p1 == "to" || p1 == "the") && p2 != "" && l.useVerbs[strings.ToLower(p2)] ||
		strings.EqualFold(word(i+1), "for")
}

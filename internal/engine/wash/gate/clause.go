package gate

import (
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// The clause reader is the statement stage's lexer: it cuts a statement's text into sentences and
// clauses and reads, per clause, its modality level, its negation, its conditions, its place in
// a sequence and its content stems, from the lexicon of langs.go. It reads raw line text (code
// spans kept as operands), so it can run on any statement on demand: only statements a rewrite
// changed are read.

// Token kinds of the clause reader.
const (
	tWord   uint8 = iota // a Latin, Cyrillic or other spaced-script word, lowercased
	tHangul              // a Korean word (particles attached)
	tCJK                 // a run of Han, kana or katakana text
	tCode                // an inline code span
	tNum                 // a run of digits (with . , separators)
	tArrow               // →, ->, ⇒: a step of a chain
	tColon               // a colon ending a lead ("Order:")
)

// ctok is one token of a clause.
type ctok struct {
	kind uint8
	text string // lowercased words; code and CJK as written
}

// clauseInfo is what the clause reader found in one clause.
type clauseInfo struct {
	toks     []ctok
	text     string // as written, for messages
	sentence int    // index of its sentence in the statement
	level    int    // modality: +3..-3, 0 for none (an assertion or imperative)
	weak     bool   // a modality word other than the strongest of its direction
	conds    []string
	// condWords are the stems of a condition of kind "if" without its rule: the words after the
	// condition word (before it in Chinese, Japanese and Korean).
	condWords []string
	// parts are the clause's conditions one by one, each with its own words: "lance les linters
	// après un changement non trivial avant de considérer la tâche terminée" holds two.
	parts []condPart
	seq   int // seqFirst/Then/Last, or -1
	// seqSegs are the parts of the clause its sequence word orders: the words from the word on
	// ("…: 先设计测试用例" is 设计测试用例, not the lead before it), or, with the word inside a
	// run of Japanese ("確認を取ってから実行"), the words before it and the words after it.
	seqSegs   [][]string
	seqAt     int    // the token holding the sequence word
	seqWord   string // the sequence word of a run of Chinese or Japanese
	lead      bool
	comma     bool // the clause follows a comma of its sentence (a list goes on)
	stems     []string
	sentStems []string // the stems of the clause's whole sentence
	negWords  []string // the modality words read, for messages
	modal     string
	always    bool // a binding word of frequency (always, immer, 항상)
	reason    bool // the clause opens with a reason or purpose ("so ...", "damit ...")
	mixed     bool // both a binding and a forbidding word: two rules in one clause
	without   bool // a word leaving out what it governs (without, ohne, без)
	// relNeg marks a negation inside a relative clause ("edits that don't change X"): it
	// negates the edits' description, not the rule, whose level without it is coreLevel.
	relNeg    bool
	coreLevel int
	coreWeak  bool
	all       bool // a word of every case (all, alle, 모든: scopeAllText)
	pt        bool // the clause's sentence is Portuguese (portugueseSentence)
}

// condPart is one condition of a clause: its kind, the stems it speaks of (after its word, up
// to the next condition word; before it in Chinese, Japanese and Korean) and whether a negation
// sits inside it ("if the checks were not run").
type condPart struct {
	kind  string
	words []string
	neg   bool
	all   bool // a scope of every case ("for all packages")
	end   int  // a scope's end: its first modality or condition word ("Für X immer ..."), 0 for none
	from  int  // token range of the condition word (Latin and Cyrillic)
	at    int
}

// stmtLexicon is the compiled statement lexicon (see langs.go).
type stmtLexicon struct {
	modal       map[string]int // phrase -> level
	cond        map[string]string
	seq         map[string]int
	lead        map[string]bool
	antonym     map[string][]antonym
	number      map[string]string
	unit        map[string]string
	langName    map[string]string // exact form -> canonical language
	langStem    []langStem        // Russian and Korean stems of language names
	omission    map[string]bool
	stop        map[string]bool
	cjkModal    []cjkEntry // Chinese and Japanese entries, longest first
	cjkCond     []cjkEntry
	cjkSeq      []cjkEntry
	cjkNumber   []cjkEntry
	every       map[string]bool
	listNeg     map[string]bool
	scriptUnits []cjkEntry // unit words of Chinese, Japanese and Korean, longest first
	perWord     map[string]bool
	allWord     map[string]bool
	descriptive map[string]bool
	pronoun     map[string]bool
	always      map[string]bool
	antonymStem map[string][]antonym // antonyms by stem
	reason      map[string]bool
	quantity    map[string]bool
	pref        map[string]int // preference joiners (see prefText)
	chain       map[string]bool
	without     map[string]bool
	portuguese  map[string]bool // words marking a Portuguese sentence (portugueseText)
	ptNotRule   map[string]bool // lexicon words that are no rule in Portuguese (portugueseNotRule)
	scope       map[string]bool
	scopeNot    map[string]bool
	scopeAll    map[string]bool
	cjkAnt      []string        // see cjkAntonymWords
	opposite    []actionPair    // see oppositeActionText
	genericAct  map[string]bool // stems of genericActText
	before      map[string]bool // beforeText
	// qualBefore and qualAfter are the words bounding a number (see qualifierText), longest
	// first: "at most" before it, 以内 after it.
	qualBefore, qualAfter []cjkEntry
	cjkPref               []cjkEntry
	jaModal               map[string]bool // Japanese modality entries, to tell them from Chinese ones
	zhModal               map[string]bool
	maxWords              int
	// German nouns (see germanMarkText)
	deMark, deArticle map[string]bool
	deNounEnd         []string
}

type antonym struct{ other, typ string }

type cjkEntry struct {
	text  string
	level int
	kind  string
	lang  string
}

type langStem struct{ stem, lang string }

// omissionText are verbs of leaving something out: negated ("never skip the tests"), they make an
// obligation, not a prohibition.
var omissionText = "skip skips skipped skipping omit omits omitted omitting ignore ignores ignored leave_out exclude " +
	"überspringen auslassen weglassen ignorieren sauter omettre ignorer saltar omitir ignorar pular " +
	"omite omita omitan salta salte salten ignora ignoren pule pulem omitam ignorem " +
	"пропускать пропускай пропускайте игнорировать 跳过 忽略 省略 スキップ 無視 생략 건너뛰 무시"

var slex = sync.OnceValue(buildStmtLexicon)

func buildStmtLexicon() *stmtLexicon {
	x := &stmtLexicon{
		modal: map[string]int{}, cond: map[string]string{}, seq: map[string]int{}, lead: map[string]bool{},
		antonym: map[string][]antonym{}, number: map[string]string{}, unit: map[string]string{},
		langName: map[string]string{}, omission: map[string]bool{}, stop: map[string]bool{}, every: set(everyText), listNeg: set(listNegText), perWord: set(perText), allWord: set(allText), pronoun: set(pronounText), antonymStem: map[string][]antonym{}, reason: phrases(reasonText), quantity: set(quantityText), descriptive: set(descriptiveText),
		always: phrases(alwaysText), chain: set(chainText), without: set(withoutText),
		portuguese: set(portugueseText), ptNotRule: set(portugueseNotRule),
		scope: set(scopeText), scopeNot: stemSet(scopeNotText), scopeAll: set(scopeAllText),
	}
	x.addModal()
	x.addConditions()
	x.addSequence()
	x.addPreferences()
	for _, words := range seqLeadText() {
		for _, w := range strings.Fields(words) {
			x.lead[w] = true
		}
	}
	x.addAntonyms()
	x.cjkAnt = x.buildCJKAntonymWords()
	x.opposite = buildOpposites()
	x.genericAct, x.before = stemSet(genericActText), set(beforeText)
	x.addNumbers()
	x.qualBefore, x.qualAfter = buildQualifiers()
	x.addUnits()
	x.addLanguageNames()
	x.addStopWords()
	x.deMark, x.deArticle = set(germanMarkText), set(germanArticleText)
	x.deNounEnd = strings.Fields(germanNounEndText)
	x.jaModal, x.zhModal = map[string]bool{}, map[string]bool{}
	for _, e := range x.cjkModal {
		if e.lang == "ja" {
			x.jaModal[e.text] = true
		} else {
			x.zhModal[e.text] = true
		}
	}
	for _, l := range []*[]cjkEntry{&x.cjkModal, &x.cjkCond, &x.cjkSeq, &x.cjkNumber, &x.cjkPref, &x.scriptUnits} {
		longestFirst(*l)
	}
	return x
}

// longestFirst sorts entries longest first, then by text, so a longer entry is read before
// a shorter one it starts with.
func longestFirst(e []cjkEntry) {
	sort.SliceStable(e, func(i, j int) bool {
		if len(e[i].text) != len(e[j].text) {
			return len(e[i].text) > len(e[j].text)
		}
		return e[i].text < e[j].text
	})
}

// phrase turns a lexicon entry into the phrase it matches: "_" joins the words of a phrase.
func phrase(w string) string { return strings.ReplaceAll(w, "_", " ") }

// isCJKLang reports the languages written without spaces, whose entries are matched inside a
// run of text rather than by word.
func isCJKLang(lang string) bool { return lang == "zh" || lang == "ja" }

// addWords notes the length in words of a phrase entry: the clause reader looks that far ahead.
func (x *stmtLexicon) addWords(w string) {
	if n := strings.Count(w, "_") + 1; n > x.maxWords {
		x.maxWords = n
	}
}

// addModal reads modalText: a level per phrase.
func (x *stmtLexicon) addModal() {
	for lang, levels := range modalText() {
		for level, words := range levels {
			for _, w := range strings.Fields(words) {
				if isCJKLang(lang) {
					x.cjkModal = append(x.cjkModal, cjkEntry{text: w, level: level, lang: lang})
					continue
				}
				x.modal[phrase(w)] = level
				x.addWords(w)
			}
		}
	}
}

// addConditions reads condText: a condition kind per phrase.
func (x *stmtLexicon) addConditions() {
	for lang, kinds := range condText() {
		for kind, words := range kinds {
			x.addConditionWords(lang, kind, words)
		}
	}
	for lang, words := range evenText() {
		x.addConditionWords(lang, condEven, words)
	}
	x.addConditionWords("", condWithout, withoutText)
}

// addConditionWords reads the phrases of one condition kind of one language.
func (x *stmtLexicon) addConditionWords(lang, kind, words string) {
	for _, w := range strings.Fields(words) {
		if isCJKLang(lang) {
			x.cjkCond = append(x.cjkCond, cjkEntry{text: w, kind: kind, lang: lang})
			continue
		}
		x.cond[phrase(w)] = kind
		x.addWords(w)
	}
}

// addSequence reads seqText: a rank (first, then, last) per phrase.
func (x *stmtLexicon) addSequence() {
	for lang, ranks := range seqText() {
		for rank, words := range ranks {
			for _, w := range strings.Fields(words) {
				if isCJKLang(lang) {
					x.cjkSeq = append(x.cjkSeq, cjkEntry{text: w, level: rank})
					continue
				}
				x.seq[phrase(w)] = rank
				x.addWords(w)
			}
		}
	}
}

// addPreferences reads prefText: "word=1" or "word=-1", the side a preference joiner prefers.
func (x *stmtLexicon) addPreferences() {
	x.pref = map[string]int{}
	for lang, pairs := range prefText() {
		for _, p := range strings.Fields(pairs) {
			w, d, _ := strings.Cut(p, "=")
			dir := 1
			if d == "-1" {
				dir = -1
			}
			if isCJKLang(lang) {
				x.cjkPref = append(x.cjkPref, cjkEntry{text: w, level: dir})
				continue
			}
			x.pref[phrase(w)] = dir
			x.addWords(w)
		}
	}
}

// addAntonyms reads antonymText: "a|b" a polarity antonym, "a|b|order" an order one, each
// both ways, by word and by stem.
func (x *stmtLexicon) addAntonyms() {
	for _, pairs := range antonymText() {
		for _, p := range strings.Fields(pairs) {
			f := strings.Split(p, "|")
			typ := TypePolarity
			if len(f) == 3 {
				typ = TypeOrder
			}
			x.antonym[f[0]] = append(x.antonym[f[0]], antonym{f[1], typ})
			x.antonym[f[1]] = append(x.antonym[f[1]], antonym{f[0], typ})
			x.antonymStem[wordStem(f[0])] = append(x.antonymStem[wordStem(f[0])], antonym{f[1], typ})
			x.antonymStem[wordStem(f[1])] = append(x.antonymStem[wordStem(f[1])], antonym{f[0], typ})
		}
	}
}

// addNumbers reads numberText: number words and their values.
func (x *stmtLexicon) addNumbers() {
	for lang, pairs := range numberText() {
		for _, p := range strings.Fields(pairs) {
			w, v, _ := strings.Cut(p, "=")
			if isCJKLang(lang) {
				x.cjkNumber = append(x.cjkNumber, cjkEntry{text: w, kind: v})
				continue
			}
			x.number[phrase(w)] = v
			x.addWords(w)
		}
	}
}

// addUnits reads unitText: unit words and their canonical units (Chinese, Japanese and Korean
// ones also matched inside text).
func (x *stmtLexicon) addUnits() {
	for lang, pairs := range unitText() {
		for _, p := range strings.Fields(pairs) {
			w, u, _ := strings.Cut(p, "=")
			x.unit[w] = u
			if isCJKLang(lang) || lang == "ko" {
				x.scriptUnits = append(x.scriptUnits, cjkEntry{text: w, kind: u})
			}
		}
	}
}

// addLanguageNames reads langNameText: exact forms, and the stems of Russian and Korean forms
// (which inflect).
func (x *stmtLexicon) addLanguageNames() {
	for canon, forms := range langNameText() {
		for _, f := range strings.Fields(forms) {
			r, _ := utf8.DecodeRuneInString(f)
			if unicode.Is(unicode.Cyrillic, r) && !strings.HasPrefix(f, "по-") || unicode.Is(unicode.Hangul, r) {
				x.langStem = append(x.langStem, langStem{f, canon})
				continue
			}
			x.langName[f] = canon
		}
	}
}

// addStopWords reads the verbs of omission and the function words.
func (x *stmtLexicon) addStopWords() {
	for _, w := range strings.Fields(omissionText) {
		x.omission[phrase(w)] = true
	}
	for _, w := range strings.Fields(stopText) {
		x.stop[w] = true
	}
	for _, words := range stopText2() {
		for _, w := range strings.Fields(words) {
			x.stop[w] = true
		}
	}
}

// buildQualifiers reads qualifierText and qualifierAfterText, longest entries first so "at most"
// is read before "most" could be and 以内に before 以内.
func buildQualifiers() (before, after []cjkEntry) {
	for lang, pairs := range qualifierText() {
		for _, p := range strings.Fields(pairs) {
			w, q, _ := strings.Cut(p, "=")
			kind := "word"
			if lang == "zh" || lang == "ja" {
				kind = "cjk"
			}
			before = append(before, cjkEntry{text: strings.ReplaceAll(w, "_", " "), kind: q, lang: kind})
		}
	}
	for _, p := range strings.Fields(qualifierAfterText) {
		w, q, _ := strings.Cut(p, "=")
		after = append(after, cjkEntry{text: w, kind: q})
	}
	for lang, words := range boundAfterText() {
		for _, w := range strings.Fields(words) {
			after = append(after, cjkEntry{text: strings.ReplaceAll(w, "_", " "), kind: "≥", lang: lang})
		}
	}
	longestFirst(before)
	longestFirst(after)
	return before, after
}

// isHangul reports a Korean syllable or jamo.
func isHangul(r rune) bool { return unicode.Is(unicode.Hangul, r) }

// stmtLine is one line of a statement for the clause reader: its text after the block prefix
// and its code spans (offsets in text).
type stmtLine struct {
	text  string
	codes []codeSpan
}

// readClauses cuts a statement's lines into clauses; pt marks a statement of a Portuguese file
// (its "no" is "in the", see Inv.portuguese).
func readClauses(lines []stmtLine, pt bool) []clauseInfo {
	var out []clauseInfo
	cur := clauseInfo{seq: -1}
	var raw strings.Builder
	sentence, depth := 0, 0
	end := func(brk int) {
		if len(cur.toks) > 0 {
			cur.text = strings.TrimSpace(raw.String())
			cur.sentence = sentence
			out = append(out, cur)
		}
		cur = clauseInfo{seq: -1, comma: brk == breakComma}
		raw.Reset()
		if brk == breakSentence {
			sentence++
		}
	}
	for _, ln := range lines {
		clauseTokens(ln, &cur, &raw, &depth, end)
	}
	end(breakSentence)
	markPortuguese(out, pt)
	for i := range out {
		analyseClause(&out[i])
	}
	inheritHedges(out)
	continueScopes(out)
	for i := 0; i < len(out); {
		j := i
		var st []string
		for j < len(out) && out[j].sentence == out[i].sentence {
			for _, s := range out[j].stems {
				if !containsStr(st, s) {
					st = append(st, s)
				}
			}
			j++
		}
		for k := i; k < j; k++ {
			out[k].sentStems = st
		}
		i = j
	}
	return out
}

// clauseTokens appends the tokens of one line to the clause being read, ending clauses at
// commas, semicolons, dashes and sentence ends outside parentheses.
func clauseTokens(ln stmtLine, cur *clauseInfo, raw *strings.Builder, depth *int, end func(int)) {
	s := ln.text
	ci := 0
	if raw.Len() > 0 {
		raw.WriteByte(' ')
	}
	for i := 0; i < len(s); {
		if ci < len(ln.codes) && ln.codes[ci].start == i {
			cur.toks = append(cur.toks, ctok{tCode, ln.codes[ci].text})
			raw.WriteString(s[i:ln.codes[ci].end])
			i = ln.codes[ci].end
			ci++
			continue
		}
		for ci < len(ln.codes) && ln.codes[ci].start < i {
			ci++
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		j := i + n
		switch {
		case isCJK(r):
			for j < len(s) {
				r2, n2 := utf8.DecodeRuneInString(s[j:])
				if !isCJK(r2) {
					break
				}
				j += n2
			}
			cur.toks = append(cur.toks, ctok{tCJK, s[i:j]})
		case isHangul(r):
			for j < len(s) {
				r2, n2 := utf8.DecodeRuneInString(s[j:])
				if !isHangul(r2) {
					break
				}
				j += n2
			}
			cur.toks = append(cur.toks, ctok{tHangul, s[i:j]})
		case r >= '0' && r <= '9':
			for j < len(s) && (s[j] >= '0' && s[j] <= '9' || (s[j] == '.' || s[j] == ',') && j+1 < len(s) && s[j+1] >= '0' && s[j+1] <= '9') {
				j++
			}
			cur.toks = append(cur.toks, ctok{tNum, s[i:j]})
		case unicode.IsLetter(r):
			for j < len(s) {
				r2, n2 := utf8.DecodeRuneInString(s[j:])
				if unicode.IsLetter(r2) && !isCJK(r2) && !isHangul(r2) || unicode.IsDigit(r2) || unicode.Is(unicode.Mn, r2) || r2 == '_' {
					j += n2
					continue
				}
				if strings.ContainsRune("-'’", r2) && j+n2 < len(s) {
					if r3, _ := utf8.DecodeRuneInString(s[j+n2:]); unicode.IsLetter(r3) && !isCJK(r3) {
						j += n2
						continue
					}
				}
				break
			}
			w := strings.ToLower(strings.ReplaceAll(s[i:j], "’", "'"))
			if strings.HasPrefix(w, "http") && j < len(s) && s[j] == ':' {
				for j < len(s) && s[j] != ' ' && s[j] != ')' {
					j++
				}
				break
			}
			if slex().reason[w] && !endsPhrase(cur.toks, w) {
				if len(cur.toks) > 0 {
					end(breakClause) // "..., so the docs always describe": a rationale of its own
				}
				cur.reason = true // also after a comma: "(..., so nothing to install)"
			}
			if contrastNegation(cur.toks, w) {
				cur.toks = cur.toks[:len(cur.toks)-1] // "… and not X": the "and" joins two clauses
				end(breakComma)
			}
			cur.toks = append(cur.toks, ctok{tWord, w})
		default:
			if stop := clauseBreak(s, i, r, *depth); stop != 0 {
				raw.WriteString(s[i:j])
				end(stop)
				i = j
				continue
			}
			switch {
			case r == '(' || r == '（':
				// A parenthesis is a clause of its own ("(it does not need to be removed)").
				end(breakClause)
				*depth++
			case r == ')' || r == '）':
				raw.WriteString(s[i:j])
				end(breakClause)
				*depth = max(0, *depth-1)
				i = j
				continue
			case r == '[':
				*depth++
			case r == ']':
				*depth = max(0, *depth-1)
			case r == '→' || r == '⇒' || r == '-' && j < len(s) && s[j] == '>' || spacedChevron(s, i, j, r):
				cur.toks = append(cur.toks, ctok{kind: tArrow})
				if r == '-' {
					j++
				}
			case (r == ':' || r == '：') && len(cur.toks) > 0:
				cur.toks = append(cur.toks, ctok{kind: tColon})
			}
		}
		raw.WriteString(s[i:j])
		i = j
	}
}

// spacedChevron reports a ">" or "<" (or its full-width form) with a space on each side and no
// number after it: a step of a chain ("on-call > team lead > director"), not a comparison
// ("coverage > 80").
func spacedChevron(s string, i, j int, r rune) bool {
	if r != '>' && r != '<' && r != '＞' || i == 0 || s[i-1] != ' ' || j+1 >= len(s) || s[j] != ' ' {
		return false
	}
	return s[j+1] < '0' || s[j+1] > '9'
}

// continueScopes carries a scope cut short by a comma over the clause after it when a third
// clause follows in the sentence: "For simple, non-code changes like documentation, skip X" is
// one scope, "simple, non-code changes like documentation", before its rule. (With two clauses,
// "For migrations, run X", the second is the rule.)
func continueScopes(out []clauseInfo) {
	for i := 0; i+2 < len(out); i++ {
		if out[i+1].sentence != out[i].sentence || out[i+2].sentence != out[i].sentence || !out[i+1].comma || !out[i+2].comma || out[i+1].modal != "" {
			continue
		}
		for k, p := range out[i].parts {
			if p.kind == condScope && len(p.words) <= 1 {
				out[i].parts[k].words = append(append([]string(nil), p.words...), out[i+1].stems...)
			}
		}
	}
}

// inheritHedges carries a preference or a permission over the clauses of its sentence that follow
// it without a modality word of their own ("PREFER integration tests, e.g., at `it/...` over unit
// tests"): a list after "prefer" is preferred. A negation is not carried: "never X, use Y".
func inheritHedges(out []clauseInfo) {
	for i := 1; i < len(out); i++ {
		p := out[i-1]
		if out[i].sentence != p.sentence || !out[i].comma || out[i].modal != "" {
			continue
		}
		switch {
		case p.level > 0 && p.level < 3:
			out[i].level, out[i].weak, out[i].modal = p.level, true, p.modal
		case p.level < 0 && len(out[i].stems) <= 2 && listNegation(p):
			// "ни в ответах, ни в заметках, логах": the list goes on under its negation
			out[i].level, out[i].modal = p.level, p.modal
		}
	}
}

// markPortuguese marks the clauses of each Portuguese sentence (all of them in a Portuguese
// file), whose "no" is a preposition.
func markPortuguese(out []clauseInfo, file bool) {
	for i := 0; i < len(out); {
		j, pt := i, file
		for ; j < len(out) && out[j].sentence == out[i].sentence; j++ {
			pt = pt || portugueseClause(out[j].toks)
		}
		for k := i; k < j; k++ {
			out[k].pt = pt
		}
		i = j
	}
}

// portugueseClause reports a word only Portuguese writes among the nine languages.
func portugueseClause(toks []ctok) bool {
	for _, t := range toks {
		if t.kind == tWord && portugueseWord(t.text) {
			return true
		}
	}
	return false
}

// portugueseWord reports a word only Portuguese writes among the nine languages: one with ã or
// õ, or a word of portugueseText.
func portugueseWord(w string) bool {
	return slex().portuguese[w] || strings.ContainsAny(w, "ãõ")
}

// endsPhrase reports a word that ends a condition or modality phrase begun by the clause's
// last words ("es sei" + "denn": unless, not "because").
func endsPhrase(toks []ctok, w string) bool {
	x := slex()
	p := w
	for k := len(toks) - 1; k >= 0 && k >= len(toks)-3; k-- {
		if toks[k].kind != tWord {
			break
		}
		p = toks[k].text + " " + p
		if _, ok := x.cond[p]; ok {
			return true
		}
		if _, ok := x.modal[p]; ok {
			return true
		}
	}
	return false
}

// listNegation reports a clause negated by a word that negates a list's items one by one (ни,
// nor, ni, nem, noch), which the rest of the list carries on without repeating.
func listNegation(cl clauseInfo) bool {
	for _, w := range cl.negWords {
		if slex().listNeg[w] {
			return true
		}
	}
	return false
}

// Clause breaks: a comma continues a list, a semicolon or dash starts a new clause, a full stop a
// new sentence.
const (
	breakNone = iota
	breakComma
	breakClause
	breakSentence
)

// clauseBreak classifies the punctuation at i.
func clauseBreak(s string, i int, r rune, depth int) int {
	switch {
	case r == '!' || r == '?' || r == '。' || r == '！' || r == '？':
		return breakSentence
	case r == '.':
		if i+1 == len(s) || s[i+1] == ' ' || s[i+1] == '*' || s[i+1] == ')' {
			return breakSentence
		}
	case r == '|' || r == ';' || r == '；':
		return breakClause
	case r == ',' || r == '，' || r == '、':
		if depth > 0 && abbrevBefore(s, i) {
			return breakNone // "(e.g., at x)"
		}
		return breakComma
	case depth > 0:
		return breakNone
	case r == '—' || r == '–':
		return breakClause
	case r == '-' && i > 0 && s[i-1] == ' ' && i+1 < len(s) && s[i+1] == ' ':
		return breakClause
	}
	return breakNone
}

// abbrevBefore reports an abbreviation ending right before i ("e.g.", "i.e.", "z.B.").
func abbrevBefore(s string, i int) bool {
	j := i
	for j > 0 && (s[j-1] == '.' || s[j-1] >= 'a' && s[j-1] <= 'z' || s[j-1] >= 'A' && s[j-1] <= 'Z') {
		j--
	}
	w := strings.ToLower(strings.TrimRight(s[j:i], "."))
	return lex().abbrev[w] || w == "z.b" || w == "d.h" || w == "p.ex" || w == "ex"
}

// analyseClause reads a clause's modality, conditions, sequence mark and stems.
func analyseClause(c *clauseInfo) {
	x := slex()
	words := clauseWordsOf(c.toks)
	m := clauseMarks{}
	c.scopeMark(x, words)
	c.wordMarks(x, words, &m)
	c.wordConditionWords()
	c.scriptMarks(x, &m)
	c.lead = leadsOrder(x, c.toks)
	if len(words) >= 2 && x.reason[words[0]+" "+words[1]] {
		c.reason = true // "..., para que the release works": a purpose
	}
	if w := leadingOther(x, c.toks); w != "" && len(m.levels) == 0 {
		// ", 而不是完全拒绝任务", ", а не через шелл": the side not chosen is discouraged
		m.levels = append(m.levels, -2)
		m.core = append(m.core, -2)
		c.negWords = append(c.negWords, w)
	}
	c.level, c.weak = combineLevels(m.levels, m.omission)
	if c.relNeg = m.rel; m.rel {
		c.coreLevel, c.coreWeak = combineLevels(m.core, m.omission)
	}
	hasPos, hasNeg := false, false
	for _, l := range m.levels {
		hasPos = hasPos || l >= 2
		hasNeg = hasNeg || l <= -2
	}
	c.mixed = hasPos && hasNeg
	if len(c.negWords) > 0 {
		c.modal = strings.Join(c.negWords, " ")
	}
	c.stems = clauseStems(c.toks)
	c.seqSegs = seqSegments(c)
	c.all = saysAll(c.toks)
	for _, t := range c.toks {
		c.without = c.without || (t.kind == tWord || t.kind == tHangul) && x.without[t.text]
	}
}

// scopeMark records a scope phrase opening the clause (after a label's colon): a scope
// preposition with a content word after it that is no pointer to more and not the project
// itself (see scopeText), nor a negation or a verb of purpose ("para no bloquear", "pour
// éviter les conflits": in order not to block, to avoid conflicts), which make it a purpose. Its words run to the next condition, as an "if"'s do.
func (c *clauseInfo) scopeMark(x *stmtLexicon, words []string) {
	first := 0
	for k := 1; k < min(5, len(c.toks)); k++ {
		if c.toks[k].kind == tColon {
			first = k + 1
			break
		}
	}
	if first >= len(words) || !x.scope[words[first]] {
		return
	}
	for _, w := range words[first+1:] {
		if x.modal[w] < 0 || smallSets().purpose[w] {
			c.reason = true // "para no bloquear", "pour éviter X": a purpose, the rule's reason
			return
		}
		if w == "" || x.stop[w] || lex().stop[w] || x.scopeAll[w] {
			continue
		}
		if x.scopeNot[wordStem(w)] {
			return
		}
		break
	}
	c.addCondition(condScope, first, 1)
	for k := first + 1; k < len(words); k++ {
		if n, level, kind, _, _ := matchWords(x, words, k); n > 0 && (level != 0 || kind != "") {
			c.parts[len(c.parts)-1].end = k // "Für Datenbankänderungen immer …": the rule starts
			break
		}
	}
}

// saysAll reports a word of every case among toks (scopeAllText).
func saysAll(toks []ctok) bool {
	for _, t := range toks {
		if slex().scopeAll[t.text] {
			return true
		}
	}
	return false
}

// stemSet is the set of the stems of a list's words.
func stemSet(words string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.Fields(words) {
		out[wordStem(w)] = true
	}
	return out
}

// clauseMarks are the modality levels a clause's words carry and whether a verb of omission
// is among them.
type clauseMarks struct {
	levels   []int
	omission bool
	// core are the levels but those of negations inside a relative clause ("edits that don't
	// change X"), rel whether there was one.
	core []int
	rel  bool
}

// wordMarks reads the lexicon phrases of a clause's spaced-script words: modality, conditions,
// sequence, omission.
func (c *clauseInfo) wordMarks(x *stmtLexicon, words []string, m *clauseMarks) {
	lastIf := -10
	for i := 0; i < len(words); i++ {
		if b := boundWordsAt(x, words, c.toks, i); b > 0 {
			i += b - 1 // "no more than 5": the value's bound, no rule (bound_words.go)
			continue
		}
		n, level, kind, rank, omit := matchWords(x, words, i)
		if n == 0 {
			continue
		}
		if level < 0 && i-lastIf <= 3 {
			// "if you don't", "if not", "wenn nicht": the negation belongs to the condition.
			level = 0
			if len(c.parts) > 0 {
				c.parts[len(c.parts)-1].neg = true
			}
		}
		if kind == condIf && !isHangulWord(words[i]) {
			// a Korean condition word ends its condition ("파일 생성 시"): a negation after it
			// belongs to the rule ("시 즉시 커밋하지 않고")
			lastIf = i + n - 1
		}
		p := strings.Join(words[i:i+n], " ")
		if c.pt && x.ptNotRule[p] {
			continue // "no último commit": in the last commit
		}
		if level != 0 {
			m.levels = append(m.levels, level)
			c.negWords = append(c.negWords, p)
			c.always = c.always || x.always[p]
			if level < 0 && relativeNegation(words, i) {
				m.rel = true
			} else {
				m.core = append(m.core, level)
			}
		}
		if kind != "" {
			c.addCondition(kind, i, n)
		}
		if rank >= 0 && c.seq < 0 {
			c.seq, c.seqAt = rank, i
		}
		if omit {
			m.omission = true
			c.negWords = append(c.negWords, p)
		}
		i += n - 1
	}
}

// addCondition records a condition word of kind at words i to i+n.
func (c *clauseInfo) addCondition(kind string, i, n int) {
	c.parts = append(c.parts, condPart{kind: kind, from: i, at: i + n})
	if !containsStr(c.conds, kind) {
		c.conds = append(c.conds, kind)
		if kind == condIf {
			c.condWords = clauseStems(c.toks[i+n:])
		}
	}
}

// wordConditionWords gives each condition of spaced-script words the words it speaks of: those
// up to the next condition.
func (c *clauseInfo) wordConditionWords() {
	for k := range c.parts {
		end := partEnd(c, k)
		c.parts[k].words = clauseStems(c.toks[c.parts[k].at:end])
		if w, ok := beiPhraseWords(c, k); ok {
			c.parts[k].words = w
		}
		if c.parts[k].kind == condScope {
			c.parts[k].all = saysAll(c.toks[c.parts[k].at:end])
			c.parts[k].words = scopeWords(c.toks[c.parts[k].at:end])
		}
	}
}

// partEnd is where the words of the clause's k-th condition end: at the next condition, or at
// a scope's end.
func partEnd(c *clauseInfo, k int) int {
	end := len(c.toks)
	if k+1 < len(c.parts) {
		end = c.parts[k+1].from
	}
	if e := c.parts[k].end; e > 0 && e < end {
		end = e
	}
	return end
}

// scriptMarks reads the marks inside runs of Chinese and Japanese text and the condition
// endings of Korean words; a condition there speaks of the words before it.
func (c *clauseInfo) scriptMarks(x *stmtLexicon, m *clauseMarks) {
	// A clause with kana is Japanese, its runs of Han too ("**説明不要**: …は不要"): 不要 is "do
	// not" in Chinese, "not needed" in Japanese.
	ja := false
	for _, t := range c.toks {
		ja = ja || t.kind == tCJK && hasKana(t.text)
	}
	for i, t := range c.toks {
		switch t.kind {
		case tCJK:
			had, hadSeq := append([]string(nil), c.conds...), c.seq
			cjkMarks(x, t.text, ja, c, &m.levels, &m.omission)
			if hadSeq < 0 && c.seq >= 0 {
				c.seqAt = i
			}
			for _, k := range c.conds[len(had):] {
				c.parts = append(c.parts, condPart{kind: k, words: clauseStems(c.toks[:i+1])})
			}
			if !containsStr(had, condIf) && containsStr(c.conds, condIf) {
				c.condWords = clauseStems(c.toks[:i+1])
			}
		case tHangul:
			c.hangulCondition(i)
		}
		if t.kind == tCJK {
			c.zhScope(t.text)
		}
	}
	c.hangulScope()
}

// zhScope records a Chinese time or case phrase "在…后", "在…时", "在…前" (在获批后: once
// approved) inside a run as a scope of the rule, with the words between.
func (c *clauseInfo) zhScope(s string) {
	k := strings.Index(s, "在")
	if k < 0 || hasKana(s) {
		return
	}
	rest := s[k+len("在"):]
	for _, end := range []string{"之后", "以后", "之前", "以前", "后", "时", "前"} {
		e := strings.Index(rest, end)
		if e <= 0 || utf8.RuneCountInString(rest[:e]) > 8 {
			continue
		}
		if phrase := rest[:e+len(end)]; unmarked(slex(), phrase) != phrase {
			return // 在必要时: a modality or condition word of the lexicon, read as such
		}
		c.scopePart(clauseStems([]ctok{{tCJK, rest[:e]}}), strings.Contains(rest[:e], "所有") || strings.Contains(rest[:e], "全部"))
		return
	}
}

// hangulScope records a Korean phrase opening the clause and ending with a locative particle
// ("공개 API에 …": for the public API) as a scope of the rule, with its words.
func (c *clauseInfo) hangulScope() {
	for k := 0; k < min(4, len(c.toks)); k++ {
		t := c.toks[k]
		if t.kind != tHangul {
			continue
		}
		for _, end := range hangulScopeEnds {
			head, ok := strings.CutSuffix(t.text, end)
			if !ok || k == 0 && head == "" {
				continue
			}
			toks := append(append([]ctok(nil), c.toks[:k]...), ctok{tHangul, head})
			if k+1 < len(c.toks) {
				c.scopePart(clauseStems(toks), saysAll(toks))
			}
			return
		}
	}
}

// scopePart adds a scope condition with its words.
func (c *clauseInfo) scopePart(words []string, all bool) {
	if len(words) == 0 {
		return
	}
	c.parts = append(c.parts, condPart{kind: condScope, words: words, all: all})
	if !containsStr(c.conds, condScope) {
		c.conds = append(c.conds, condScope)
	}
}

// hangulCondition records the condition a Korean word at token i ends with, if any.
func (c *clauseInfo) hangulCondition(i int) {
	k := hangulCond(c.toks[i].text)
	if k == "" {
		return
	}
	c.parts = append(c.parts, condPart{kind: k, words: clauseStems(c.toks[:i+1])})
	if !containsStr(c.conds, k) {
		c.conds = append(c.conds, k)
		if k == condIf {
			c.condWords = clauseStems(c.toks[:i+1])
		}
	}
}

// leadsOrder reports a clause opening with a lead word of order right before its first colon
// ("Order:", "[default] Порядок:", 顺序：).
func leadsOrder(x *stmtLexicon, toks []ctok) bool {
	for k := 1; k < min(4, len(toks)); k++ {
		if toks[k].kind == tColon {
			if (toks[k-1].kind == tWord || toks[k-1].kind == tHangul) && x.lead[toks[k-1].text] {
				return true
			}
			break
		}
	}
	return len(toks) >= 2 && toks[1].kind == tColon && toks[0].kind == tCJK && x.lead[toks[0].text]
}

// seqSegments returns the parts of a clause its sequence word orders (clauseInfo.seqSegs).
func seqSegments(c *clauseInfo) [][]string {
	if c.seq < 0 {
		return nil
	}
	t := c.toks[c.seqAt]
	if k := strings.Index(t.text, c.seqWord); t.kind == tCJK && c.seqWord != "" && k > 0 {
		before := append(append([]ctok(nil), c.toks[:c.seqAt]...), ctok{tCJK, t.text[:k]})
		after := append([]ctok{{tCJK, t.text[k+len(c.seqWord):]}}, c.toks[c.seqAt+1:]...)
		if b, a := clauseStems(before), clauseStems(after); len(b) > 0 && len(a) > 0 {
			return [][]string{b, a}
		}
	}
	if seg := clauseStems(c.toks[c.seqAt:]); len(seg) > 0 {
		return [][]string{seg}
	}
	return [][]string{c.stems}
}

// leadingOther returns the preference joiner a clause opens with when the side after it is the
// one not chosen ("а не", "而不是"), or "".
func leadingOther(x *stmtLexicon, toks []ctok) string {
	if len(toks) == 0 {
		return ""
	}
	if toks[0].kind == tCJK {
		for _, e := range x.cjkPref {
			if e.level > 0 && strings.HasPrefix(toks[0].text, e.text) {
				return e.text
			}
		}
		return ""
	}
	words := clauseWordsOf(toks)
	for k := min(3, len(words)); k >= 2; k-- {
		// a phrase ("а не", "em vez de"): a single word ("over", "sobre") opens other clauses too
		p := strings.Join(words[:k], " ")
		if _, modal := x.modal[p]; x.pref[p] > 0 && !modal && !strings.Contains(p, "  ") {
			return p
		}
	}
	return ""
}

// clauseWordsOf returns the word tokens of a clause (Latin, Cyrillic, Hangul), with "" standing
// for any other token so phrases never match across an operand.
func clauseWordsOf(toks []ctok) []string {
	out := make([]string, len(toks))
	for i, t := range toks {
		if t.kind == tWord || t.kind == tHangul {
			out[i] = t.text
		}
	}
	return out
}

// matchWords matches the longest lexicon phrase at words[i]: its length in words, and what it
// is (a modality level, a condition kind, a sequence rank, an omission verb).
func matchWords(x *stmtLexicon, words []string, i int) (n, level int, kind string, rank int, omit bool) {
	rank = -1
	if words[i] == "" {
		return 0, 0, "", -1, false
	}
	for k := min(x.maxWords, len(words)-i); k >= 1; k-- {
		p := strings.Join(words[i:i+k], " ")
		if k > 1 && strings.Contains(p, "  ") || strings.HasPrefix(p, " ") {
			continue
		}
		l, isModal := x.modal[p]
		if !isModal && k == 1 {
			l, isModal = modalForm(p) // "obligatoires", "recommande", "обязательны"
		}
		if _, isPref := x.pref[p]; isPref && !isModal && k > 1 {
			// "а не", "rather than": a preference's joiner, whose "не" negates no rule
			return k, 0, "", -1, false
		}
		kd, isCond := x.cond[p]
		rk, isSeq := x.seq[p]
		om := x.omission[p]
		if !isModal && isHangulWord(words[i]) {
			l, isModal = hangulModal(words, i, k)
		}
		if isModal || isCond || isSeq || om {
			if !isSeq {
				rk = -1
			}
			return k, l, kd, rk, om
		}
	}
	if frenchNePlus(words, i) {
		return 1, -3, "", -1, false // "ne plus commenter": no longer
	}
	return 0, 0, "", -1, false
}

func isHangulWord(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	return isHangul(r)
}

// hangulModal reads Korean modality on word stems: a word starting with a modality word
// (금지됨, 허용된다, 필수적), and "-해도 됨/된다" (may).
func hangulModal(words []string, i, k int) (int, bool) {
	w := words[i]
	if k == 2 && i+1 < len(words) && strings.HasSuffix(w, "도") && (strings.HasPrefix(words[i+1], "됨") || strings.HasPrefix(words[i+1], "된다") || strings.HasPrefix(words[i+1], "돼")) {
		return 1, true
	}
	if k != 1 {
		return 0, false
	}
	for _, e := range []struct {
		stem  string
		level int
	}{{"금지", -3}, {"허용", 1}, {"필수", 3}, {"권장", 2}, {"절대", -3}, {"않", -3}, {"반드시", 3}, {"항상", 3}, {"피해", -2}, {"피하", -2}, {"없", -3}} {
		if strings.HasPrefix(w, e.stem) {
			return e.level, true
		}
	}
	return 0, false
}

// hangulCond reads a Korean condition on a word's ending: "-면" (if), "-만" (only).
func hangulCond(w string) string {
	switch {
	case utf8.RuneCountInString(w) >= 2 && strings.HasSuffix(w, "면") && !containsStr([]string{"화면", "측면", "전면", "표면", "방면", "반면", "이면"}, w):
		return condIf
	case utf8.RuneCountInString(w) >= 2 && strings.HasSuffix(w, "만") && !containsStr([]string{"하지만", "이지만", "지만"}, w) && !strings.HasSuffix(w, "지만"):
		return condOnly
	case strings.HasPrefix(w, "제외") || strings.HasPrefix(w, "예외"):
		return condExcept
	}
	return ""
}

// cjkMarks reads modality, conditions and sequence marks inside a run of Chinese or Japanese.
func cjkMarks(x *stmtLexicon, s string, ja bool, c *clauseInfo, levels *[]int, omission *bool) {
	for _, w := range slex().cjkOmission() {
		if strings.Contains(s, w) {
			*omission = true
		}
	}
	rest := s
	for _, w := range lex().cjkNotMarker {
		rest = strings.ReplaceAll(rest, w, "　")
	}
	for _, e := range x.cjkPref {
		// 而不是 and ではなく join a preference's sides: the 不 or ない in them negates no rule
		rest = strings.ReplaceAll(rest, e.text, "　")
	}
	taken := rest
	for _, e := range x.cjkModal {
		if e.lang == "zh" && ja && x.jaModal[e.text] || e.lang == "ja" && !ja && x.zhModal[e.text] {
			continue // 不要 is "do not" in Chinese, "not needed" in Japanese
		}
		if strings.Contains(taken, e.text) {
			*levels = append(*levels, e.level)
			c.negWords = append(c.negWords, e.text)
			c.always = c.always || x.always[e.text]
			taken = strings.ReplaceAll(taken, e.text, "　")
		}
	}
	if ja && jaZuNegation(taken) {
		*levels = append(*levels, -3) // 読み込まず: without reading
		c.negWords = append(c.negWords, "ず")
	}
	for _, e := range x.cjkCond {
		if strings.Contains(taken, e.text) && !containsStr(c.conds, e.kind) {
			c.conds = append(c.conds, e.kind)
		}
	}
	for _, e := range x.cjkSeq {
		if c.seq < 0 && strings.Contains(taken, e.text) {
			c.seq, c.seqWord = e.level, e.text
		}
	}
}

// hasKana reports hiragana or katakana: Japanese, not Chinese.
func hasKana(s string) bool {
	for _, r := range s {
		if r >= 0x3040 && r <= 0x30ff {
			return true
		}
	}
	return false
}

// cjkOmission returns the Chinese and Japanese verbs of omission.
func (x *stmtLexicon) cjkOmission() []string {
	var out []string
	for w := range x.omission {
		if r, _ := utf8.DecodeRuneInString(w); isCJK(r) {
			out = append(out, w)
		}
	}
	sort.Strings(out)
	return out
}

// combineLevels turns the modality words of a clause into its level: a negation wins and keeps
// its strongest form; a negated verb of omission is an obligation ("never skip"), a plain one a
// prohibition ("skip the tests"); otherwise the
// weakest explicit word decides ("always, if possible" permits). weak reports an explicit word
// below the strongest of its direction.
func combineLevels(levels []int, omission bool) (int, bool) {
	if len(levels) == 0 {
		if omission {
			return -3, false // "skip the tests": leave them out
		}
		return 0, false
	}
	if omission {
		// A verb of omission turns the rule round: "never skip" binds, "you can skip" permits
		// leaving out.
		l, w := combineLevels(levels, false)
		return -l, w
	}
	neg := 0
	pos := 0
	for _, l := range levels {
		switch {
		case l < 0 && l < neg:
			neg = l
		case l > 0 && (pos == 0 || l < pos):
			pos = l
		}
	}
	if neg < 0 {
		return neg, neg > -3
	}
	return pos, pos < 3
}

// clauseStems returns a clause's distinct content stems: words that are not function or rule
// words, stemmed; code spans and numbers as written; Chinese and Japanese characters.
func clauseStems(toks []ctok) []string {
	x := slex()
	var out []string
	add := func(s string) {
		if s != "" && !containsStr(out, s) {
			out = append(out, s)
		}
	}
	for _, t := range toks {
		switch t.kind {
		case tWord:
			w := elided(t.text)
			if x.stop[w] || lex().stop[w] || x.modal[t.text] != 0 || x.cond[t.text] != "" || x.isSeqWord(t.text) || isModalForm(t.text) {
				continue
			}
			add(wordStem(w))
		case tHangul:
			add(hangulStem(t.text))
		case tCode:
			add("`" + t.text + "`")
		case tNum:
			add(t.text)
		case tCJK:
			for _, g := range cjkUnits(unmarked(x, t.text)) {
				add(g)
			}
		}
	}
	return out
}

// isSeqWord reports a sequence word or a preference joiner (d'abord, ensuite, statt): it
// orders the clause's content, it is none of it.
func (x *stmtLexicon) isSeqWord(w string) bool {
	_, seq := x.seq[w]
	_, pref := x.pref[w]
	return seq || pref
}

// unmarked blanks the rule, condition and sequence words of a run of Chinese or Japanese: they
// are not its content. Each rune of a word gets a blank, so the result lines up with the run
// rune by rune (cjkDiffUnits): what follows a word of two runes (場合, 优先) is content.
func unmarked(x *stmtLexicon, s string) string {
	for _, l := range [][]cjkEntry{x.cjkModal, x.cjkCond, x.cjkSeq, x.cjkPref} {
		for _, e := range l {
			if strings.Contains(s, e.text) {
				s = strings.ReplaceAll(s, e.text, strings.Repeat("　", utf8.RuneCountInString(e.text)))
			}
		}
	}
	return s
}

// cjkUnits splits a run of Chinese or Japanese into comparable units: katakana words whole, Han
// characters one by one (function characters left out), hiragana (particles, endings) dropped.
func cjkUnits(s string) []string {
	var out []string
	var kata strings.Builder
	flush := func() {
		if kata.Len() > 0 {
			out = append(out, kata.String())
			kata.Reset()
		}
	}
	for _, r := range s {
		switch {
		case r >= 0x30a0 && r <= 0x30ff:
			kata.WriteRune(r)
		case unicode.Is(unicode.Han, r):
			flush()
			if !strings.ContainsRune(hanFunction, r) {
				out = append(out, string(r))
			}
		default:
			flush()
		}
	}
	flush()
	return out
}

// wordStem stems a word of any spaced script: English by its inflections (stem; a Spanish or
// Portuguese infinitive without its object pronoun, see encliticBase), other Latin and
// Cyrillic words by their first five letters, which most inflections of one word share; a
// Cyrillic word loses its ending first (inflect.go), so a short one's forms share it too.
func wordStem(w string) string {
	if isASCIIWord(w) {
		return stem(nominalBase(trimPossessive(encliticBase(w))))
	}
	if isCyrillicWord(w) {
		w = inflectedStem(w, ruInflections())
	}
	if n := utf8.RuneCountInString(w); n > 5 {
		return string([]rune(w)[:5])
	}
	return w
}

// hangulStem drops a Korean word's particles roughly: its first two syllables carry the noun.
func hangulStem(w string) string {
	rs := []rune(w)
	if len(rs) > 2 {
		return string(rs[:2])
	}
	return w
}

func containsStr(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// relativeNegation reports a negation, the i-th of words, that a relative clause holds: a
// relative pronoun up to three words before it ("that don't", "die nicht", "qui ne changent
// pas", "que no", "которые не"), or, for the "nor" of a "neither … nor" list, before its
// "neither" ("that change neither X nor Y").
func relativeNegation(words []string, i int) bool {
	sets := smallSets()
	if relativeBefore(words, i) {
		return true
	}
	if !slex().listNeg[words[i]] {
		return false
	}
	for k := i - 1; k >= 0; k-- {
		if sets.neither[words[k]] {
			return relativeBefore(words, k)
		}
	}
	return false
}

// relativeBefore reports a relative pronoun up to three words before the i-th of words.
func relativeBefore(words []string, i int) bool {
	for j := i - 1; j >= max(0, i-3); j-- {
		if smallSets().relative[words[j]] {
			return true
		}
	}
	return false
}

package gate

import (
	"slices"
	"strings"
	"unicode"
)

// Polarity, the sentence reader's third stage: a sentence's rule words and the content words
// each governs, cut into clauses, become polarity facts and clause facts.

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

// polFact is one polarity fact: a rule word's class and the content words it governs.
type polFact struct {
	tok   Token
	class string
	stems []string // distinct stems of the governed words
	sent  []string // distinct stems of the whole sentence
	line  int      // line index of the marker
}

// polarity turns the rule words of a sentence into facts. A sentence is cut into clauses at
// commas and semicolons; a rule word governs the content words of its clause ("ONLY use pnpm,
// NEVER npm" is only(use pnpm) and not(npm)), split between two rule words sharing a clause. A
// clause holding a rule word and nothing else ("Never, under any circumstances, force-push
// main") governs the unmarked clauses after it, else those before it. A rule word directly
// followed by another gives way to it ("must never" is a prohibition).
func polarity(it, prev []item, out *sentenceFacts) {
	marks := mergeMarks(ruleMarks(it))
	rs := newRuleSentence(it, marks)
	cl := rs.clauses()
	groups, taken := rs.group(cl)
	rs.clauseFacts(cl, groups, taken, out)
	rs.polFacts(groups, prev, out)
}

// ruleMark is a rule word found in a sentence.
type ruleMark struct {
	at, end int // item range of the marker (two words for "do not")
	class   string
	line    int
	text    string // lowercased ("do not")
}

// ruleMarks finds the rule words of a sentence: CJK markers, two-word markers ("do not")
// before one-word ones.
func ruleMarks(it []item) []ruleMark {
	l := lex()
	var marks []ruleMark
	for i := 0; i < len(it); i++ {
		x := it[i]
		if x.kind == itemMarker && x.class != "" {
			marks = append(marks, ruleMark{i, i + 1, x.class, x.line, x.text})
			continue
		}
		if x.kind != itemWord {
			continue
		}
		lw := strings.ToLower(x.text)
		if i+1 < len(it) && it[i+1].kind == itemWord {
			two := lw + " " + strings.ToLower(it[i+1].text)
			if c := l.marker2[two]; c != "" {
				marks = append(marks, ruleMark{i, i + 2, c, x.line, two})
				i++
				continue
			}
		}
		if c := l.marker[lw]; c != "" {
			marks = append(marks, ruleMark{i, i + 1, c, x.line, lw})
		}
	}
	return marks
}

// mergeMarks lets a rule word directly followed by another give way to it ("must never" is a
// prohibition), except that a negation of a verb of omission is an obligation ("never skip the
// tests", "do not omit") and a negated obligation is no obligation ("no need to", "not
// required", "don't have to"): it stays a negation.
func mergeMarks(marks []ruleMark) []ruleMark {
	l := lex()
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
	return kept
}

// ruleSentence is a sentence with its rule words, and each item's shown form and stems
// computed once (rule words left out): clauses and facts gather them.
type ruleSentence struct {
	it      []item
	marks   []ruleMark
	shownOf []string
	stemsOf [][]string
}

func newRuleSentence(it []item, marks []ruleMark) *ruleSentence {
	inMark := make([]bool, len(it))
	for _, mk := range marks {
		for j := mk.at; j < mk.end; j++ {
			inMark[j] = true
		}
	}
	shownOf, stemsOf := itemWords(it)
	for j := range inMark {
		if inMark[j] {
			shownOf[j], stemsOf[j] = "", nil
		}
	}
	return &ruleSentence{it: it, marks: marks, shownOf: shownOf, stemsOf: stemsOf}
}

// words gathers the content words of items a to b.
func (rs *ruleSentence) words(a, b int) ([]string, []string) {
	return gather(rs.shownOf[a:b], rs.stemsOf[a:b])
}

// ruleClause is a clause of a sentence, as an item range.
type ruleClause struct {
	a, b  int
	marks []int // indexes into the sentence's marks
	empty bool  // no content word
}

// ruleGroup is a marked clause with the unmarked clauses it governs.
type ruleGroup struct {
	a, b    int
	classes uint8
}

// clauses cuts the sentence into clauses at commas. A clause opening with "and", "or" or
// "nor" continues the one before it: "PREFER a over b, and c over d" is one rule.
func (rs *ruleSentence) clauses() []ruleClause {
	it := rs.it
	var cl []ruleClause
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
		cl = append(cl, ruleClause{a: start, b: i})
		start = i + 1
	}
	for ci := range cl {
		c := &cl[ci]
		for k, mk := range rs.marks {
			if mk.at >= c.a && mk.at < c.b {
				c.marks = append(c.marks, k)
			}
		}
		_, st := rs.words(c.a, c.b)
		c.empty = len(st) == 0
	}
	return cl
}

// group groups each marked clause with the unmarked clauses it governs; the rest stand alone
// (taken reports the clauses a group holds).
func (rs *ruleSentence) group(cl []ruleClause) ([]ruleGroup, []bool) {
	it := rs.it
	var groups []ruleGroup
	taken := make([]bool, len(cl))
	for ci, c := range cl {
		if len(c.marks) == 0 {
			continue
		}
		taken[ci] = true
		if c.empty && c.a < len(it) && it[c.a].kind == itemWord && smallSets().conditional[strings.ToLower(it[c.a].text)] {
			// "if you don't, automation adds it": the rule word belongs to an elliptical
			// condition; it governs nothing and takes no clause after it.
			continue
		}
		g := ruleGroup{a: c.a, b: c.b}
		for _, k := range c.marks {
			g.classes |= classBit(rs.marks[k].class)
		}
		if c.empty {
			g = governed(g, cl, ci, taken)
		}
		groups = append(groups, g)
	}
	return groups, taken
}

// governed widens the group of a clause holding a rule word and nothing else ("Never, under
// any circumstances, force-push main") over the unmarked clauses after it, else those before
// it, marking them taken.
func governed(g ruleGroup, cl []ruleClause, ci int, taken []bool) ruleGroup {
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
	return g
}

// clauseFacts records each group and each untaken clause of two or more content words as a
// clause fact.
func (rs *ruleSentence) clauseFacts(cl []ruleClause, groups []ruleGroup, taken []bool, out *sentenceFacts) {
	for _, g := range groups {
		_, st := rs.words(g.a, g.b)
		out.clauses = append(out.clauses, clauseFact{classes: g.classes, stems: st, line: rs.it[g.a].line})
	}
	for ci, c := range cl {
		if !taken[ci] {
			if _, st := rs.words(c.a, c.b); len(st) >= 2 {
				out.clauses = append(out.clauses, clauseFact{stems: st, line: rs.it[c.a].line})
			}
		}
	}
}

// polFacts records a fact per rule word of each group: the content words between it and the
// rule words beside it.
func (rs *ruleSentence) polFacts(groups []ruleGroup, prev []item, out *sentenceFacts) {
	marks := rs.marks
	_, sent := rs.words(0, len(rs.it))
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
			shown, stems := rs.words(a, b)
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
const hanFunction = "的了地得着过和与在是就都也又把被将对从向于以及或而并等之其该这那个些某时后中上下里来去能会要有为已仍"

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

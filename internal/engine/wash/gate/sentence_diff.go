package gate

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// The word-level diff of an aligned pair: an original statement and its one counterpart, read
// as a sequence of units (words, code spans, numbers; in Chinese and Japanese, katakana words
// and Han characters), compared by their folded form or their stem, and cut into hunks where
// they differ. The substitution and transposition passes (sentence_subst.go) read the hunks: an
// honest condensation deletes, merges or rephrases; it rarely swaps one content word for another
// in an otherwise unchanged statement, or makes two content spans trade places.

// dunit is one unit of a statement's diff.
type dunit struct {
	text string // as the clause reader has it (lowercased words), for messages
	key  string // the compared form: width-folded
	stem string // an inflection's stem: units with one stem are the same word
	kind uint8
	fn   bool // a function word or particle: never content
	rule bool // a rule, condition, sequence or preference word: the rule passes compare it
	num  bool // a number word (dos, 三)
	// one marks an article that also means one (un, ein, a): exchanged for a number word, it
	// changes a count.
	one bool
	// coord marks a word or mark joining the items of a list (and, oder, и, 和, 、, 및).
	coord bool
	// order marks a word or mark that orders what it joins: an arrow, a sequence word, a
	// preference joiner (→, before, then, over, than).
	order  bool
	clause int // the index of the unit's clause in its statement
}

// same reports two units that are one word: one folded form or one stem.
func (a dunit) same(b dunit) bool {
	return a.key == b.key || a.stem != "" && a.stem == b.stem
}

// content reports a unit that carries content: not a function or rule word.
func (a dunit) content() bool { return !a.fn && !a.rule }

// hunk is one place where two statements differ: the units of the original there (del) and
// those of the result (ins); at is del's index in the original's units.
type hunk struct {
	del, ins []dunit
	at, to   int
}

// diffUnits returns the units of a statement's clauses, in order.
func diffUnits(cls []clauseInfo) []dunit {
	x, l := slex(), lex()
	var out []dunit
	for ci, cl := range cls {
		from := len(out)
		for _, t := range cl.toks {
			switch t.kind {
			case tWord:
				k := foldWidth(t.text)
				num := x.number[k] != ""
				_, seq := x.seq[k]
				out = append(out, dunit{text: t.text, key: k, stem: wordStem(k), kind: tWord, num: num, one: oneArticle(k),
					order: seq || x.pref[k] != 0 || l.joiner[k] != 0 || orderWord(k),
					fn:    !num && (x.stop[k] || l.stop[k]), rule: x.modal[k] != 0 || x.cond[k] != "" || x.isSeqWord(k) || l.marker[k] != "" || qualifierWords()[k]})
			case tHangul:
				out = append(out, hangulUnit(x, t.text))
			case tCode:
				out = append(out, dunit{text: "`" + t.text + "`", key: "`" + t.text + "`", kind: tCode})
			case tNum:
				out = append(out, dunit{text: t.text, key: t.text, kind: tNum})
			case tCJK:
				out = append(out, cjkDiffUnits(x, t.text)...)
			case tArrow:
				out = append(out, dunit{text: "→", key: "→", kind: tArrow, fn: true, order: true})
			}
		}
		for i := from; i < len(out); i++ {
			out[i].clause = ci
			out[i].coord = out[i].coord || smallSets().coordinators[out[i].key]
		}
	}
	return withoutBoundAfter(out)
}

// hangulUnit is one Korean word: its particles glued on, so its stem (two syllables, or a
// noun of one before its particle: "표로" is "표") is the word; a particle standing alone after
// a Latin word ("berry를") is a function word.
func hangulUnit(x *stmtLexicon, w string) dunit {
	u := dunit{text: w, key: w, stem: hangulStem(hangulBare(w)), kind: tHangul}
	// A modality word (on its stem: "피하고") or a "without" (없이) is a rule word, as for
	// Latin words: the rule passes compare it, "피하고" said "없이" is no exchange of content.
	u.rule = x.modal[w] != 0 || hangulRuleWord(w) || x.without[w]
	if utf8.RuneCountInString(w) <= 2 && strings.Contains(hangulParticles, "|"+w+"|") {
		u.fn, u.stem = true, ""
	}
	return u
}

// hangulParticles are the Korean particles and endings that follow a word written in another
// script ("berry를", "API의", "prettier설정" is not one).
const hangulParticles = "|을|를|이|가|은|는|의|에|에서|로|으로|와|과|도|만|이나|나|만을|에게|한|하는|하여|해|하고|"

// cjkDiffUnits cuts a run of Chinese or Japanese into units: katakana words whole, Han
// characters one by one; hiragana (particles, endings) and the Han function characters are
// function units; the rule, condition and sequence words of the lexicon are rule units.
func cjkDiffUnits(x *stmtLexicon, s string) []dunit {
	var out []dunit
	marked := unmarked(x, s)
	mr := []rune(marked)
	var kata strings.Builder
	flush := func() {
		if kata.Len() > 0 {
			k := kata.String()
			out = append(out, dunit{text: k, key: k, kind: tCJK})
			kata.Reset()
		}
	}
	for i, r := range []rune(s) {
		rule := i < len(mr) && mr[i] != r
		switch {
		case r == '、' || r == '・': // the list marks (・ sits in the katakana block)
			flush()
			out = append(out, dunit{text: string(r), key: string(r), kind: tCJK, fn: true, coord: true})
		case r >= 0x30a0 && r <= 0x30ff && !rule:
			kata.WriteRune(r)
		case unicode.Is(unicode.Han, r) || r >= 0x30a0 && r <= 0x30ff:
			flush()
			c := string(r)
			out = append(out, dunit{text: c, key: c, kind: tCJK, rule: rule, fn: !rule && strings.ContainsRune(hanFunction, r),
				num: strings.ContainsRune(hanNumbers, r)})
		case r >= 0x3040 && r <= 0x309f:
			flush()
			c := string(r)
			out = append(out, dunit{text: c, key: c, kind: tCJK, fn: !rule, rule: rule})
		default:
			flush()
		}
	}
	flush()
	return out
}

// qualifierWords are the words of the bounds said before a number ("at most", "хотя бы",
// "минимум"): the values pass compares a bound, this diff does not.
var qualifierWords = sync.OnceValue(func() map[string]bool {
	out := map[string]bool{}
	for _, e := range slex().qualBefore {
		if e.lang != "cjk" {
			for _, w := range strings.Fields(e.text) {
				out[w] = true
			}
		}
	}
	return out
})

// hanNumbers are the Han number characters.
const hanNumbers = "一二两三四五六七八九十百千万"

// oneArticle reports an article that also means one: "un componente" said "dos componentes"
// changes a count.
func oneArticle(w string) bool {
	switch w {
	case "a", "an", "ein", "eine", "un", "une", "uno", "una", "um", "uma":
		return true
	}
	return false
}

// foldWidth maps full-width Latin letters and digits to their ASCII forms.
func foldWidth(s string) string {
	if s == "" || s[0] < utf8.RuneSelf && isASCIIWord(s) {
		return s
	}
	return strings.Map(func(r rune) rune {
		if r >= 0xff01 && r <= 0xff5e {
			return unicode.ToLower(r - 0xfee0)
		}
		return r
	}, s)
}

// diffHunks returns where units a and b differ, by their longest common subsequence; nil when
// the statements are too long to compare unit by unit.
func diffHunks(a, b []dunit) []hunk {
	n, m := len(a), len(b)
	if n == 0 || m == 0 || n*m > diffMaxCells {
		return nil
	}
	// lcs[i][j] is the length of the longest common subsequence of a[i:] and b[j:].
	lcs := make([][]int32, n+1)
	for i := range lcs {
		lcs[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			switch {
			case a[i].same(b[j]):
				lcs[i][j] = lcs[i+1][j+1] + 1
			case lcs[i+1][j] >= lcs[i][j+1]:
				lcs[i][j] = lcs[i+1][j]
			default:
				lcs[i][j] = lcs[i][j+1]
			}
		}
	}
	var out []hunk
	var cur *hunk
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && a[i].same(b[j]):
			cur = nil
			i++
			j++
			continue
		case cur == nil:
			out = append(out, hunk{at: i, to: j})
			cur = &out[len(out)-1]
		}
		if j >= m || i < n && lcs[i+1][j] >= lcs[i][j+1] {
			cur.del = append(cur.del, a[i])
			i++
		} else {
			cur.ins = append(cur.ins, b[j])
			j++
		}
	}
	return out
}

// diffMaxCells bounds the diff's table: a statement pair of more units (a long paragraph
// against its rewrite) is left to the other passes.
const diffMaxCells = 1 << 16

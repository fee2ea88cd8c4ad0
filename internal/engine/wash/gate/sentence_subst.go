package gate

import (
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"
)

// The substitution pass: an aligned statement that says exactly what its original said except
// that one short span of content was exchanged for another ("plusieurs centaines de lignes"
// said "plusieurs dizaines de lignes", 三层架构 said 两层架构, "Yarn berry" said "Yarn classic").
// Counting per section misses it when the new word is said elsewhere; an honest condensation
// almost never does it: it deletes, merges or rephrases the whole. The replacement is free when
// it is an equivalence the gate knows: an inflection (one stem), a unit of one dimension, an
// alias or a language name, a prefix abbreviation ("configuration" said "config"), an acronym
// of the words it replaces, a compound written apart, or an entry of synonymText.

// substMaxUnits is the longest span, in content units, a substitution exchanges on either side:
// longer replacements are rephrasings, which the other passes judge.
const substMaxUnits = 3

// substMinContext is how many content units the statement must keep around the exchanged span:
// a replacement in a statement of one or two words is a rewording of the whole.
const substMinContext = 2

// substitutionPass reports a statement whose one counterpart exchanges one content span for
// another, when no other pass has reported the statement.
func (c *stmtCompare) substitutionPass(s, u *stmt, oc, uc []clauseInfo) {
	if c.dropped(s) || len(c.mergedInto(u)) > 1 {
		return // reported already; or merged with another statement, whose words it took
	}
	ou, uu := diffUnits(oc), diffUnits(uc)
	h, ok := substitution(diffHunks(ou, uu), ou)
	if !ok || c.equivalentSpan(h.del, h.ins, s, u) || hanSynonym(ou, uu, h) {
		return
	}
	typ := substType(h)
	if c.cfg.skipType[typ] {
		return
	}
	from, to := unitsText(h.del), unitsText(h.ins)
	c.drop(Token{typ, from}, s, u, fmt.Sprintf("%s -> %s", from, to))
}

// dropped reports a statement some pass has already reported.
func (c *stmtCompare) dropped(s *stmt) bool {
	for i := len(c.drops) - 1; i >= 0; i-- {
		if d := c.drops[i]; d.Line == s.firstLine() && d.Source == s.src {
			return true
		}
	}
	return false
}

// substitution returns the one hunk of hs when it exchanges content for content, and the
// statement keeps substMinContext content units around it. A statement changed in a second
// place too (a word dropped, an article added) is a rewording, which the other passes judge.
func substitution(hs []hunk, ou []dunit) (hunk, bool) {
	if len(hs) != 1 {
		return hunk{}, false
	}
	h := hs[0]
	if !valued(h.del, h.ins) || !valued(h.ins, h.del) || hasRule(h.del) || hasRule(h.ins) ||
		countContent(h.del) > substMaxUnits || countContent(h.ins) > substMaxUnits {
		return hunk{}, false
	}
	return h, countContent(ou)-countContent(h.del) >= substMinContext
}

func hasContent(us []dunit) bool { return countContent(us) > 0 }

// valued reports a side of a hunk that says something: a content unit, or an article meaning
// one where the other side says a number word ("un" against "dos").
func valued(us, other []dunit) bool {
	if hasContent(us) {
		return true
	}
	return hasWordNumber(other, nil) && anyUnit(us, func(u dunit) bool { return u.one || u.num })
}

func countContent(us []dunit) int {
	n := 0
	for _, u := range us {
		if u.content() {
			n++
		}
	}
	return n
}

// anyUnit reports a unit of us that f holds for.
func anyUnit(us []dunit, f func(dunit) bool) bool {
	for _, u := range us {
		if f(u) {
			return true
		}
	}
	return false
}

func hasRule(us []dunit) bool { return anyUnit(us, func(u dunit) bool { return u.rule }) }

// unitsText writes units for a message: spaced words, CJK units joined.
func unitsText(us []dunit) string {
	var b strings.Builder
	for i, u := range us {
		if i > 0 && (u.kind != tCJK || us[i-1].kind != tCJK) {
			b.WriteByte(' ')
		}
		b.WriteString(u.text)
	}
	return b.String()
}

// substType is the drop type of a substitution: a number when a number (or a number word) is
// exchanged, code when a code span is, a name otherwise.
func substType(h hunk) string {
	for _, us := range [][]dunit{h.del, h.ins} {
		for _, u := range us {
			switch {
			case u.kind == tNum || u.num:
				return TypeNumber
			case u.kind == tCode:
				return TypeCode
			}
		}
	}
	return TypeName
}

// equivalentSpan reports a replacement the gate knows says the same: as a whole (an acronym,
// a compound written apart, a unit written short), or unit by unit, each content word of one
// side cancelled by an equivalent of the other, until a side is left with none (a word deleted
// or added beside an equivalence is no exchange).
func (c *stmtCompare) equivalentSpan(del, ins []dunit, s, u *stmt) bool {
	if (hasNum(del) || hasNum(ins)) && sameNumbers(c.o, s, c.r, u) {
		return true // "60 s" said "1 min", 两个 said "2 个"
	}
	if ordinalSpan(del, ins, s.key, u.key) {
		return true // "1º" said "primer"
	}
	dw, iw := contentWords(del, ins), contentWords(ins, del)
	if len(dw) == 0 || len(iw) == 0 {
		return true
	}
	a, b := contentText(del, ins), contentText(ins, del)
	fa, fb := unitsText(del), unitsText(ins) // with their function words: "an hour" written "anh"
	if joinedSame(fa, fb) || acronymOf(a, iw) || acronymOf(b, dw) || unitShort(fa, fb) || unitShort(fb, fa) || synonyms(a, b) ||
		sameWord(c.o.aliases(), a, b) {
		return true
	}
	return cancelled(c.o.aliases(), del, ins) || c.genericBefore(dw, iw, s, u)
}

// genericBefore reports an exchange of the words of a before-condition naming no action ("before
// acting" said "before doing anything"): each side's words are its side's condition words.
func (c *stmtCompare) genericBefore(dw, iw []string, s, u *stmt) bool {
	return allStemsIn(dw, beforeActingWords(c.o.clausesOf(s))) && allStemsIn(iw, beforeActingWords(c.r.clausesOf(u)))
}

// allStemsIn reports words whose stems are all in stems.
func allStemsIn(words, stems []string) bool {
	for _, w := range words {
		if !containsStr(stems, wordStem(w)) {
			return false
		}
	}
	return true
}

// cancelled reports a replacement whose content words are each the equivalent of a word of the
// other side, on one side at least: what is left is a word added or deleted, not exchanged. Any
// unit may cancel a content word ("30s" read as 30 and the word "s", said "30 seconds").
func cancelled(aliases map[string][]string, del, ins []dunit) bool {
	dw, iw := contentWords(del, ins), contentWords(ins, del)
	da, ia := unitKeys(del), unitKeys(ins)
	usedD, usedI := make([]bool, len(da)), make([]bool, len(ia))
	for i, w := range da {
		for j, v := range ia {
			if !usedI[j] && equivalentWord(aliases, w, v) {
				usedD[i], usedI[j] = true, true
				break
			}
		}
	}
	return leftContent(da, usedD, dw) == 0 || leftContent(ia, usedI, iw) == 0
}

// contentText writes the content words of us as unitsText does (Han characters joined).
func contentText(us, other []dunit) string {
	counts := hasWordNumber(other, nil)
	var keep []dunit
	for _, u := range us {
		if u.content() || u.one && counts {
			keep = append(keep, u)
		}
	}
	return strings.Trim(unitsText(keep), "`")
}

// unitKeys are the compared texts of the units that are not rule words.
func unitKeys(us []dunit) []string {
	var out []string
	for _, u := range us {
		if !u.rule {
			out = append(out, strings.Trim(u.key, "`"))
		}
	}
	return out
}

// leftContent counts the content words of words no equivalent cancelled.
func leftContent(keys []string, used []bool, words []string) int {
	n := 0
	for _, w := range words {
		for i, k := range keys {
			if k == w && !used[i] {
				used[i] = true // counted once
				n++
				break
			}
		}
	}
	return n
}

// equivalentWord reports two words the gate reads as one: a prefix abbreviation or an
// inflection, a compound said by one of its parts, one number or ordinal, an alias, one
// language, one unit, a synonym.
func equivalentWord(aliases map[string][]string, a, b string) bool {
	if prefixOf(a, b) || sameRoot(a, b) || sameNumberWord(a, b) || sameOrdinal(a, b) || sameWord(aliases, a, b) || synonyms(a, b) {
		return true
	}
	pa, pb := compoundParts(a), compoundParts(b)
	if len(pa) > 1 && len(pb) > 1 {
		return false // two compounds ("platform-up.sh", "cluster-up.sh") sharing a part are two names
	}
	for _, pa := range pa {
		for _, pb := range pb {
			if prefixOf(pa, pb) || wordStem(pa) == wordStem(pb) {
				return true
			}
		}
	}
	return false
}

// compoundParts are a word's hyphenated parts ("major-updates"), or the word.
func compoundParts(w string) []string {
	return strings.Split(w, "-")
}

// sameNumberWord reports two ways to write one number ("1" and "one", "дважды" and "2").
func sameNumberWord(a, b string) bool {
	va, vb := numberWordValue(a), numberWordValue(b)
	return va != "" && va == vb
}

func numberWordValue(w string) string {
	if oneArticle(w) {
		return "1"
	}
	if v := slex().number[w]; v != "" {
		w = v
	}
	w = strings.TrimSuffix(w, "x")
	if w == "" || strings.Trim(w, "0123456789") != "" {
		return ""
	}
	return w
}

// unitShort reports b as a with a unit word written as its symbol, glued or not ("an hour"
// written "anh", "30 seconds" written "30s").
func unitShort(a, b string) bool {
	if len(b) >= len(a) {
		return false
	}
	for _, w := range strings.Fields(a) {
		if u := unitName(slex(), w); u != "" && strings.NewReplacer(" ", "").Replace(strings.Replace(a, w, u, 1)) == strings.ReplaceAll(b, " ", "") {
			return true
		}
	}
	for w, u := range lex().units {
		if len(w) > len(u) && strings.Contains(a, w) && strings.Replace(a, w, u, 1) == b {
			return true
		}
	}
	return false
}

// contentWords are the texts of the content units of us, and its articles meaning one when
// the other side says a number word ("un" against "dos").
func contentWords(us, other []dunit) []string {
	counts := hasWordNumber(other, nil)
	numbered := counts || hasNum(other) || hasOne(other)
	var out []string
	for _, u := range us {
		if u.num && !numbered && numberWordValue(u.key) == "1" {
			continue // "one big switch" for "a giant switch": an article, where nothing is counted
		}
		if u.content() || u.one && counts {
			out = append(out, strings.Trim(u.key, "`"))
		}
	}
	return out
}

func hasOne(us []dunit) bool { return anyUnit(us, func(u dunit) bool { return u.one }) }

func hasNum(us []dunit) bool { return anyUnit(us, func(u dunit) bool { return u.kind == tNum }) }

// hasWordNumber reports a number word exchanged: the statements' number facts may agree while
// a word the fact reader does not count ("un") became one it does not either.
func hasWordNumber(del, ins []dunit) bool {
	word := func(u dunit) bool { return u.num && u.kind != tNum }
	return anyUnit(del, word) || anyUnit(ins, word)
}

// sameNumbers reports two statements stating the same numbers and versions, counted, in their
// canonical forms ("60 s" and "1 min" are one), and at least one: statements the fact reader
// reads no number in (三层 against 两层) prove nothing.
func sameNumbers(o *Inv, s *stmt, r *Inv, u *stmt) bool {
	count := map[string]int{}
	seen := false
	add := func(inv *Inv, st *stmt, d int) {
		for _, t := range append(append([]Token(nil), st.facts...), wordFacts(inv.clausesOf(st))...) {
			if t.Type != TypeNumber && t.Type != TypeVersion {
				continue
			}
			ks := factKeys(t)
			count[ks[len(ks)-1]] += d
			seen = true
		}
	}
	add(o, s, 1)
	add(r, u, -1)
	for _, n := range count {
		if n != 0 {
			return false
		}
	}
	return seen
}

// joinedSame reports a compound written joined, hyphenated or apart ("pull-request", "pull
// request", "pullrequest").
func joinedSame(a, b string) bool {
	f := func(s string) string { return strings.NewReplacer(" ", "", "-", "", "_", "", ".", "").Replace(s) }
	return f(a) == f(b)
}

// prefixOf reports one span a prefix abbreviation of the other ("config" for "configuration",
// "repo" for "repository", "min" for "minutes"), or an inflection the stems do not join
// ("vez" and "veces" share no stem of five letters).
func prefixOf(a, b string) bool {
	if utf8.RuneCountInString(a) > utf8.RuneCountInString(b) {
		a, b = b, a
	}
	return utf8.RuneCountInString(a) >= 3 && strings.HasPrefix(b, a) && !strings.Contains(a, " ")
}

// sameRoot reports two words of one root with different endings, which the stems do not join
// ("escalate" and "escalation"): five letters or more shared, and at most two more of the
// shorter word.
func sameRoot(a, b string) bool {
	ar, br := []rune(a), []rune(b)
	p := 0
	for p < len(ar) && p < len(br) && ar[p] == br[p] {
		p++
	}
	return p >= 5 && p >= min(len(ar), len(br))-2
}

// acronymOf reports a one-word span spelling the initials of the other span's words ("PR" for
// "pull request").
func acronymOf(a string, words []string) bool {
	if len(words) < 2 || strings.Contains(a, " ") || utf8.RuneCountInString(a) != len(words) {
		return false
	}
	ar := []rune(a)
	for i, w := range words {
		r, _ := utf8.DecodeRuneInString(w)
		if r != ar[i] {
			return false
		}
	}
	return true
}

// sameWord reports two words the gate reads as one value: an alias the original defines or the
// gate knows, one language name, one unit.
func sameWord(aliases map[string][]string, a, b string) bool {
	for _, x := range aliases[a] {
		if x == b {
			return true
		}
	}
	if l := langOf(a); l != "" && l == langOf(b) {
		return true
	}
	ua, _ := unitWord(a, true) // "30s": the diff reads the symbol as a word of its own
	ub, _ := unitWord(b, true)
	return ua != "" && ua == ub
}

// synonyms reports two spans of one group of synonymText, word for word by stem.
func synonyms(a, b string) bool {
	ga, gb := synonymTable()[synonymKey(a)], synonymTable()[synonymKey(b)]
	for _, g := range ga {
		for _, h := range gb {
			if g == h {
				return true
			}
		}
	}
	return false
}

// hanSynonym reports a Han hunk that, with the characters the two sides share around it, spells
// two words of one synonym group (実行 said 実施: the diff reads 行 exchanged for 施), with or
// without its function characters (所有 said 全部).
func hanSynonym(ou, uu []dunit, h hunk) bool {
	if len(h.del) == 0 || h.del[0].kind != tCJK {
		return false
	}
	for before := 0; before <= 2; before++ {
		if h.at-before < 0 || h.to-before < 0 {
			break
		}
		for after := 0; after <= 2; after++ {
			de, ie := h.at+len(h.del)+after, h.to+len(h.ins)+after
			if de > len(ou) || ie > len(uu) {
				break
			}
			a, b := ou[h.at-before:de], uu[h.to-before:ie]
			if synonyms(hanText(a), hanText(b)) || synonyms(unitsText(a), unitsText(b)) {
				return true
			}
		}
	}
	return false
}

// hanText joins the Han and katakana units of us, leaving out kana endings.
func hanText(us []dunit) string {
	var b strings.Builder
	for _, u := range us {
		if u.kind == tCJK && !u.fn {
			b.WriteString(u.text)
		}
	}
	return b.String()
}

// synonymKey is the form a span is looked up by: each word stemmed.
func synonymKey(s string) string {
	f := strings.Fields(s)
	for i, w := range f {
		if isHangulWord(w) {
			f[i] = hangulStem(w)
		} else {
			f[i] = wordStem(w)
		}
	}
	return strings.Join(f, " ")
}

// synonymText are groups of content words an honest rewording exchanges for one another, by
// language: the words of a group ("run|execute|invoke") are free for one another in either
// direction, in any inflection that keeps the stem; "_" joins a phrase; in Chinese and Japanese
// the Han characters of a word, as the diff reads them (行う and 行って are 行). Each group has
// its case in TestSynonymEntries.
var synonymText = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"en": "run|execute|invoke|call|launch utilize|employ big|large|huge|giant means|implies needed|necessary write|author",
		"de": "ausführen|starten|aufrufen verwenden|benutzen|nutzen bedeutet|heißt nötig|notwendig|erforderlich schreiben|verfassen",
		"fr": "exécuter|lancer utiliser|employer signifie|veut_dire nécessaire|indispensable écrire|rédiger",
		"es": "ejecutar|lanzar|correr usar|utilizar|emplear significa|quiere_decir necesario|preciso escribir|redactar",
		"pt": "executar|rodar usar|utilizar significa|quer_dizer necessário|preciso escrever|redigir",
		"ru": "запускает|вызывает|выполняет использует|применяет означает|значит пишет|составляет",
		"ja": "実行|進|行|実施 使用|利用 書|作成|記述|設計",
		"zh": "执行|运行|进行 使用|利用 写|编写|撰写|设计",
		"ko": "실행|수행|진행 사용|이용 작성|설계",
	}
})

// synonymTable maps each stemmed word of synonymText and quantifierText to its groups.
var synonymTable = sync.OnceValue(func() map[string][]int {
	out := map[string][]int{}
	g := 0
	for _, lang := range []string{"en", "de", "fr", "es", "pt", "ru", "ja", "zh", "ko"} {
		for _, group := range strings.Fields(synonymText()[lang] + " " + quantifierText()[lang]) {
			for _, w := range strings.Split(group, "|") {
				k := synonymKey(strings.ReplaceAll(w, "_", " "))
				out[k] = append(out[k], g)
			}
			g++
		}
	}
	return out
})

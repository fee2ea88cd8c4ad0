package gate

import (
	"strings"
	"unicode"
)

// Negations that no single word of modalText says. French negates with "ne" before the verb and
// a second word after it: "pas", "jamais", "rien" negate on their own, but "plus" is "more"
// unless a "ne" (or an elided "n'") comes before it: "Ne plus commenter cette ligne", "on ne
// l'utilise plus" (no longer). Japanese negates a verb joined to what follows with "-ず" on its
// negative stem: "読み込まず" (without reading), "忘れず" (not forgetting), which no entry lists
// since the ending is glued to every verb.

// frenchNeBefore is how many words before "plus" its "ne" may stand ("ne le fais plus").
const frenchNeBefore = 3

// frenchNePlus reports "plus" at words[i] with a "ne" or "n'" up to frenchNeBefore words before it:
// the negation "ne … plus" (no longer).
func frenchNePlus(words []string, i int) bool {
	if words[i] != "plus" {
		return false
	}
	for k := i - 1; k >= 0 && k >= i-frenchNeBefore; k-- {
		if w := words[k]; w == "ne" || strings.HasPrefix(w, "n'") || strings.HasPrefix(w, "n’") {
			return true
		}
	}
	return false
}

// jaNegativeStem are the kana a Japanese verb's negative stem ends with before "ず": the a-row
// of godan verbs (読ま, 使わ, 分から) and the e-row of ichidan ones (忘れ, 変え, 食べ). は is left
// out: "はず" is "should be", no negation.
const jaNegativeStem = "あかがさざただなばぱまやらわえけげせぜてでねべぺめれ"

// jaParticles are the particles that, before a kana of jaNegativeStem, show it starts a word of
// its own ("これはまず": first), not a verb's stem.
const jaParticles = "はがをにでもとへのや"

// jaZuNegation reports a verb negated by "-ず" in a run of Japanese: "ず" at the end of the run
// or before "に", after a negative stem's kana that itself follows the verb's kanji or kana.
func jaZuNegation(s string) bool {
	return jaZuAt([]rune(s)) > 0
}

// jaZuAt returns the index of the first "-ず" negation of a run (see jaZuNegation), or -1.
func jaZuAt(rs []rune) int {
	for i := 2; i < len(rs); i++ {
		if rs[i] != 'ず' || i+1 < len(rs) && rs[i+1] != 'に' {
			continue
		}
		stem, before := rs[i-1], rs[i-2]
		if i >= 3 && string(rs[i-3:i+1]) == "かならず" {
			continue // 必ず written in kana: always
		}
		if !strings.ContainsRune(jaNegativeStem, stem) || strings.ContainsRune(jaParticles, before) {
			continue
		}
		if unicode.Is(unicode.Han, before) || unicode.In(before, unicode.Hiragana, unicode.Katakana) {
			return i
		}
	}
	return -1
}

// jaZuVerb returns the kanji a clause's "-ず" ending is written on ("断" of "断らず", "込" of
// "読み込まず"), or "".
func jaZuVerb(cl clauseInfo) string {
	for _, t := range cl.toks {
		if t.kind != tCJK {
			continue
		}
		rs := []rune(t.text)
		i := jaZuAt(rs) - 1
		for i > 0 && !unicode.Is(unicode.Han, rs[i-1]) {
			i-- // back over the kana of the stem
		}
		j := i
		for j > 0 && unicode.Is(unicode.Han, rs[j-1]) {
			j--
		}
		if j < i {
			return string(rs[j:i])
		}
	}
	return ""
}

// negatedVerbReworded reports a Japanese "-ず" prohibition whose counterparts, read as flipping
// it, say nothing of its verb, while the result states a prohibition of its own beside them:
// "作業が大きくても断らず、…" merged as "どの依頼も拒否せず、大きな作業は…": the negation went
// with its verb, reworded (断る → 拒否する), into another clause, and the plain clause left holds
// only the rest of the original's words.
func negatedVerbReworded(cl clauseInfo, matches, uc []clauseInfo) bool {
	verb := jaZuVerb(cl)
	if verb == "" {
		return false
	}
	for _, m := range matches {
		if strings.ContainsAny(cjkText(m), verb) {
			return false
		}
	}
	for _, u := range uc {
		if u.level < 0 && !u.mixed && shared(u.stems, cl.stems) == 0 {
			return true
		}
	}
	return false
}

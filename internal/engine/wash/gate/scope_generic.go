package gate

import (
	"maps"
	"strings"
)

// An "all" the result adds is no widening when the original already meant all: a quantifier
// used as a pronoun that distributes over a plural the statement names ("the scripts and the
// function of each one", "levels (low, medium, high), each with …"); a generic noun, said bare
// or plural with nothing restricting it, given a quantifier ("warnings fail tests" said "any
// warning fails the test"), the statement losing none of its words, so no qualifier, condition
// or exception can have been cut from it; or a totality word of the original said by the
// quantifier ("la lecture complète de la documentation" said "toute la documentation").

// distributiveText are, per language, the quantifiers that distribute over a set ("each"), and
// the words after them that make them a pronoun rather than a determiner of a new noun ("each
// one", "cada uno", "каждый из"). Each entry has its case in TestDistributiveEntries. Built where
// it is read, rarely: the package builds no tables at start-up.
func distributiveText() map[string][2]string {
	return map[string][2]string{
		"en": {"each every", "one of"},
		"de": {"jede jeder jedes jeden jedem", "einzelne einzelnen davon von"},
		"fr": {"chaque", "fois"},
		"es": {"cada", "uno una de"},
		"pt": {"cada", "um uma de"},
		"ru": {"каждый каждая каждое каждые каждого", "из"},
	}
}

// totalityText are, per language, the words that say a whole (complete, full): "all" in their
// place says the same. An entry ending in "*" matches the words it starts; a Chinese, Japanese or
// Korean entry is matched inside the text. Each entry has its case in TestTotalityEntries.
func totalityText() map[string]string {
	return map[string]string{
		"en": "complete completely full fully in_full",
		"de": "vollständig* komplett*",
		"fr": "complet complète complets complètes complètement intégral* intégrale*",
		"es": "completo completa completos completas completamente íntegro* íntegra*",
		"pt": "completo completa completos completas completamente integral*",
		"ru": "полн* целиком",
		"zh": "完整 完全",
		"ja": "完全 丸ごと",
		"ko": "완전* 통째로",
	}
}

// meantAll reports an "all" (m) the result adds that the original statement (oc) already meant;
// ustems are the stems of its counterparts.
func meantAll(m scopeMark, oc []clauseInfo, ustems []string) bool {
	if m.pronoun {
		return true
	}
	ostems := clauseStemsOf(oc)
	if m.head == "" || !headKept(m.head, ostems) {
		return false
	}
	return allStemsKept(ostems, ustems) || saysTotality(oc)
}

// allStemsKept reports every stem of ostems said in ustems, or an inflection of it
// ("blockieren" said "blockiert").
func allStemsKept(ostems, ustems []string) bool {
	for _, s := range ostems {
		if !headKept(s, ustems) && !anyRoot(s, ustems) {
			return false
		}
	}
	return true
}

// distributivePronoun reports the quantifier toks[i] used as a pronoun: a distributive one
// followed by a word of its language that makes it one ("each one", "cada uno"), by a function
// word ("each with"), or by nothing.
func distributivePronoun(toks []ctok, i int) bool {
	w := toks[i].text
	for _, e := range distributiveText() {
		if !containsStr(strings.Fields(e[0]), w) {
			continue
		}
		if i+1 >= len(toks) {
			return true
		}
		next := toks[i+1]
		if next.kind == tWord && (containsStr(strings.Fields(e[1]), next.text) || slex().stop[next.text] || lex().stop[next.text]) {
			return true // a quantifier of two languages ("cada") is read with each one's words
		}
	}
	return false
}

// saysTotality reports a totality word (totalityText) in the clauses.
func saysTotality(cls []clauseInfo) bool {
	for _, forms := range totalityText() {
		for _, f := range strings.Fields(forms) {
			if totalityIn(cls, strings.ReplaceAll(f, "_", " ")) {
				return true
			}
		}
	}
	return false
}

// totalityIn reports form said in the clauses: a word (a prefix when it ends in "*"), a phrase
// of words, or a text inside a run of Chinese, Japanese or Korean.
func totalityIn(cls []clauseInfo, form string) bool {
	prefix, ok := strings.CutSuffix(form, "*")
	for _, cl := range cls {
		if strings.Contains(form, " ") {
			if strings.Contains(" "+strings.ToLower(cl.text)+" ", " "+form+" ") {
				return true
			}
			continue
		}
		for _, t := range cl.toks {
			switch {
			case t.kind == tCJK || t.kind == tHangul && !ok:
				if strings.Contains(t.text, prefix) {
					return true
				}
			case ok && strings.HasPrefix(t.text, prefix), t.text == form:
				return true
			}
		}
	}
	return false
}

// withoutMeantAll returns the result's scope marks without an "all" the original (before, its
// clauses oc) did not say but meant (meantAll).
func withoutMeantAll(before, after map[string]scopeMark, oc []clauseInfo, ustems []string) map[string]scopeMark {
	m, ok := after[scopeAllKey]
	if _, had := before[scopeAllKey]; had || !ok || !meantAll(m, oc, ustems) {
		return after
	}
	out := maps.Clone(after)
	delete(out, scopeAllKey)
	return out
}

// anyRoot reports a stem of stems of one root with s (sameRoot).
func anyRoot(s string, stems []string) bool {
	for _, u := range stems {
		if sameRoot(s, u) {
			return true
		}
	}
	return false
}

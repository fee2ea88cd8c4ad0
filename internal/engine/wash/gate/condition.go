package gate

import (
	"strings"
)

// A condition a summary restates without its condition word ("Si t'as un avis, tu le donnes"
// said "Donne ton avis", "Stop after 2 failures" said "Stop on repeated failures" beside "fails
// the same check twice") is kept when a counterpart sentence still carries its content words.
// Only an "if" condition with words of its own and no negation inside is read this way: "only"
// and "unless" restrict what they govern, and their word is the fact.

// restatedCondition reports an "if" condition p of cl whose content a counterpart sentence
// carries: two thirds of its words (a number counted when the counterpart says it in words:
// twice is 2), or, for a condition of alternatives set off from its rule ("when working with the
// API or adding models to the code, …"), a word of each alternative. A condition the clause runs
// on into its rule ("При правке миграций или изменении схемы запускай проверку") holds the
// rule's words too, which say nothing of the condition.
func restatedCondition(cl clauseInfo, p condPart, uc []clauseInfo) bool {
	if p.kind != condIf || len(p.words) == 0 || p.neg {
		return false
	}
	nums := numbersSaid(uc)
	var alts [][]string
	if setOff(cl) {
		alts = alternatives(cl, p)
	}
	for _, u := range uc {
		if carried(p.words, u.sentStems, nums) >= need(len(p.words)) {
			return true
		}
		if len(alts) > 1 && eachCarried(alts, u.sentStems, nums) {
			return true
		}
	}
	return false
}

// carried counts the words a sentence's stems carry, a number also when said in words.
func carried(words, stems []string, nums map[string]bool) int {
	n := 0
	for _, w := range words {
		if containsStr(stems, w) || nums[TypeNumber+":"+w] {
			n++
		}
	}
	return n
}

// eachCarried reports a word of every alternative carried.
func eachCarried(alts [][]string, stems []string, nums map[string]bool) bool {
	for _, a := range alts {
		if carried(a, stems, nums) == 0 {
			return false
		}
	}
	return true
}

// setOff reports a clause that ends at a comma, a dash or a colon: a condition before its rule.
func setOff(cl clauseInfo) bool {
	t := strings.TrimRight(cl.text, " *")
	return strings.HasSuffix(t, ",") || strings.HasSuffix(t, "—") || strings.HasSuffix(t, "–") || strings.HasSuffix(t, ":") || strings.HasSuffix(t, "，")
}

// numbersSaid returns the keys of the numbers counterpart clauses say in words.
func numbersSaid(uc []clauseInfo) map[string]bool {
	out := map[string]bool{}
	for _, t := range wordFacts(uc) {
		for _, k := range factKeys(t) {
			out[k] = true
		}
	}
	return out
}

// orText are the words that join the alternatives of a condition. Spanish and Portuguese "o"
// is left out: in Portuguese it is the article.
const orText = "or oder ou или либо"

// alternatives cuts a condition of spaced-script words at its "or"s into the content stems of
// each alternative; an alternative with no content word joins the next.
func alternatives(cl clauseInfo, p condPart) [][]string {
	k := 0
	for k < len(cl.parts) && (cl.parts[k].from != p.from || cl.parts[k].kind != p.kind) {
		k++
	}
	if k == len(cl.parts) || p.at > len(cl.toks) {
		return nil
	}
	from, end := p.at, min(partEnd(&cl, k), len(cl.toks))
	var out [][]string
	for k := from; k <= end; k++ {
		if k < end && (cl.toks[k].kind != tWord || !smallSets().or[cl.toks[k].text]) {
			continue
		}
		if st := clauseStems(cl.toks[from:k]); len(st) > 0 {
			out = append(out, st)
			from = k + 1
		}
	}
	return out
}

// beforeActingKept reports a condition "before acting" (p: a before-word with only generic
// action words after it, see genericActText) that a counterpart sentence with the rule's words
// keeps by a first-word ("read X first") or by another generic before-condition ("before
// proceeding").
func beforeActingKept(cl clauseInfo, p condPart, uc []clauseInfo) bool {
	if !beforeActing(cl, p) {
		return false
	}
	rest := cl.sentStems // a clause of the condition alone ("…, bevor du handelst") rules by its sentence
	for _, w := range p.words {
		rest = without(rest, w)
	}
	for _, u := range uc {
		if shared(rest, u.sentStems) < need(len(rest)) {
			continue
		}
		if u.seq == seqFirst || len(beforeActingWords([]clauseInfo{u})) > 0 {
			return true
		}
	}
	return false
}

// beforeActingWords returns the words of the generic before-conditions (beforeActing) of cls.
func beforeActingWords(cls []clauseInfo) []string {
	var out []string
	for _, cl := range cls {
		for _, p := range cl.parts {
			if beforeActing(cl, p) {
				out = append(out, p.words...)
			}
		}
	}
	return out
}

// beforeActing reports a condition p of cl opened by a before-word and naming no action of its
// own: every word after it is generic.
func beforeActing(cl clauseInfo, p condPart) bool {
	x := slex()
	if p.kind != condIf || len(p.words) == 0 || p.neg || p.from >= len(cl.toks) || !x.before[cl.toks[p.from].text] {
		return false
	}
	for _, w := range p.words {
		if !x.genericAct[w] {
			return false
		}
	}
	return true
}

// exceptionDenied reports a clause whose exception word is denied right after it ("예외 없음":
// no exception), which states no exception but that the rule holds for every case.
func exceptionDenied(u clauseInfo) bool {
	for i := 0; i+1 < len(u.toks); i++ {
		a, b := u.toks[i], u.toks[i+1]
		if a.kind == tHangul && b.kind == tHangul && hangulCond(a.text) == condExcept && strings.HasPrefix(b.text, "없") {
			return true
		}
	}
	return false
}

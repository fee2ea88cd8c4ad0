package gate

import (
	"sort"
)

// Alignment pairs each statement of an original with the statement or statements of the result
// that carry its content: an unchanged statement (same key) with its copy, a reworded one with
// the result statement sharing most of its content stems, a statement split in two with both
// halves, several merged into one with that one. A statement nothing in the result carries is
// unaligned: it was dropped, and its facts must be stated by another statement of the result.

// alignment is the result of aligning two inventories' statements.
type alignment struct {
	o, r *Inv
	// to lists, per original statement (by id), the result statements it aligns with; nil for
	// an unaligned one.
	to [][]*stmt
	// same marks an original statement whose exact copy survives (its key is in the result).
	same []bool
	// repeat marks an original statement whose key another original statement already has and
	// whose copies outnumber the result's: an exact repeat removed.
	repeat []bool
	// rewritten marks the sections where the result has statements the original does not
	// (something was written there, not only removed).
	rewritten map[string]bool
}

// alignMinShare is the share of an original statement's stems a result statement must carry to
// be its counterpart; alignSplitStems how many of the rest another must carry to be a second.
const (
	alignMinShare   = 0.5
	alignSplitStems = 2
	alignCandidates = 48 // result statements scored per original statement at most
	// alignMinRepeat is the share of a removed statement's stems another statement must say,
	// with all its facts, for the removed one to be a near repeat of it.
	alignMinRepeat = 0.8
)

// align pairs the statements of o with those of r. extra holds keys of statements that survive
// verbatim elsewhere in the transaction: those are moved, not dropped.
func align(o, r *Inv, extra map[string]bool) *alignment {
	a := &alignment{o: o, r: r, to: make([][]*stmt, len(o.stmts)), same: make([]bool, len(o.stmts)), repeat: make([]bool, len(o.stmts))}
	matched := make([]bool, len(r.stmts))
	a.exactPass(matched, extra)
	// Content alignment for the rest, against result statements that are not unchanged copies.
	index := map[string][]*stmt{}
	var open []*stmt
	a.rewritten = map[string]bool{}
	for _, s := range r.stmts {
		if !matched[s.id] {
			open = append(open, s)
			a.rewritten[s.sect] = true
		}
	}
	if len(open) == 0 {
		return a
	}
	for _, s := range open {
		for _, st := range r.stemsOf(s) {
			index[st] = append(index[st], s)
		}
	}
	for _, s := range o.stmts {
		if a.to[s.id] != nil || a.repeat[s.id] {
			continue
		}
		a.to[s.id] = bestCounterparts(o, r, s, index)
	}
	return a
}

// exactPass pairs statements whose copy the result keeps: in the same section first (a
// statement repeated under two headings says something under each), then, for a section the
// result no longer has (renamed, merged), anywhere. A copy the original repeats within its
// section, and the result keeps once, is a repeat removed.
func (a *alignment) exactPass(matched []bool, extra map[string]bool) {
	type ks struct{ key, sect string }
	bySect := map[ks][]*stmt{}
	byKey := map[string][]*stmt{}
	rSects := map[string]bool{}
	for _, s := range a.r.stmts {
		bySect[ks{s.key, s.sect}] = append(bySect[ks{s.key, s.sect}], s)
		byKey[s.key] = append(byKey[s.key], s)
		rSects[s.sect] = true
	}
	take := func(list []*stmt) *stmt {
		for _, rs := range list {
			if !matched[rs.id] {
				matched[rs.id] = true
				return rs
			}
		}
		return nil
	}
	var rest []*stmt
	seenIn := map[ks]bool{}
	for _, s := range a.o.stmts {
		k := ks{s.key, s.sect}
		if rs := take(bySect[k]); rs != nil {
			a.to[s.id], a.same[s.id] = []*stmt{rs}, true
		} else if seenIn[k] || extra[s.key] {
			a.repeat[s.id] = true
		} else {
			rest = append(rest, s)
		}
		seenIn[k] = true
	}
	seen := map[string]bool{}
	for _, s := range a.o.stmts {
		seen[s.key] = seen[s.key] || a.same[s.id]
	}
	for _, s := range rest {
		if rSects[s.sect] {
			continue // its section is still there: the copy elsewhere says something else
		}
		if rs := take(byKey[s.key]); rs != nil {
			a.to[s.id], a.same[s.id] = []*stmt{rs}, true
		} else if len(byKey[s.key]) > 0 {
			a.repeat[s.id] = true
		}
	}
}

// bestCounterparts scores the result statements sharing stems with s and returns its
// counterpart (the one carrying most of its stems, at least alignMinShare of them; ties go to
// the same section, then the nearest line) and any further ones carrying alignSplitStems of
// what the first lacks (a split).
func bestCounterparts(o, r *Inv, s *stmt, index map[string][]*stmt) []*stmt {
	stems := o.stemsOf(s)
	if len(stems) == 0 {
		return nil
	}
	// Look the rarest stems up first: common words would make every statement a candidate.
	ordered := append([]string(nil), stems...)
	sort.SliceStable(ordered, func(i, j int) bool { return len(index[ordered[i]]) < len(index[ordered[j]]) })
	score := map[*stmt]int{}
	var cands []*stmt
	for _, st := range ordered {
		for _, c := range index[st] {
			if _, ok := score[c]; !ok {
				if len(cands) >= alignCandidates {
					continue
				}
				cands = append(cands, c)
			}
			score[c]++
		}
	}
	if len(cands) == 0 {
		return nil
	}
	for _, c := range cands {
		score[c] = shared(stems, r.stemsOf(c))
	}
	sort.SliceStable(cands, func(i, j int) bool {
		ci, cj := cands[i], cands[j]
		if score[ci] != score[cj] {
			return score[ci] > score[cj]
		}
		if (ci.sect == s.sect) != (cj.sect == s.sect) {
			return ci.sect == s.sect
		}
		return absInt(ci.lines[0]-s.lines[0]) < absInt(cj.lines[0]-s.lines[0])
	})
	best := cands[0]
	if float64(score[best]) < alignMinShare*float64(len(stems)) && !(len(stems) <= 2 && score[best] >= 1 && best.sect == s.sect) &&
		!shortened(stems, r.stemsOf(best), score[best]) {
		return nil
	}
	out := []*stmt{best}
	covered := map[string]bool{}
	for _, st := range r.stemsOf(best) {
		covered[st] = true
	}
	for _, c := range cands[1:] {
		if len(out) >= 4 {
			break
		}
		n := 0
		for _, st := range r.stemsOf(c) {
			if !covered[st] && containsStr(stems, st) {
				n++
			}
		}
		if n >= alignSplitStems {
			out = append(out, c)
			for _, st := range r.stemsOf(c) {
				covered[st] = true
			}
		}
	}
	return out
}

// shortened reports a result statement that is the original cut short: a third of the
// original's stems, and little else ("Utilise des titres (`##`, `###`) dès qu'une réponse fait
// plus de quelques lignes" said "Utilise des titres (`##`, `###`)").
func shortened(stems, rstems []string, n int) bool {
	return len(rstems) >= 2 && 3*n >= len(stems) && n >= need(len(rstems))
}

// shared counts the stems of a that b holds.
func shared(a, b []string) int {
	n := 0
	for _, s := range a {
		if containsStr(b, s) {
			n++
		}
	}
	return n
}

func absInt(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

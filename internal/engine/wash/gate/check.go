package gate

import (
	"bytes"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/prosewash/prosewash/internal/engine/wash/frontmatter"
)

// Drop is a structured token the result lost.
type Drop struct {
	Token
	// Line is the 1-based line in the original (for a merge, in the named source) where the
	// lost value sat; for a binding swap, the original line whose bindings were permuted.
	Line int
	// Occurrences are the counts in the original and in the result: per section, the most
	// occurrences on one line, summed over sections.
	Occurrences [2]int
	// Source names the file the line belongs to when the original was several files (merges,
	// deletes); empty for a single-file check.
	Source string
	// Note adds detail that is not file content: e.g. where a swapped line sits in the result.
	Note string
}

// Key returns the approval key "type:value".
func (d Drop) Key() string { return d.Token.Key() }

// String renders one drop as "type:value (line N, ...)".
func (d Drop) String() string {
	var b strings.Builder
	b.WriteString(d.Key())
	var parts []string
	if d.Line > 0 {
		if d.Source != "" {
			parts = append(parts, fmt.Sprintf("%s:%d", d.Source, d.Line))
		} else {
			parts = append(parts, fmt.Sprintf("line %d", d.Line))
		}
	} else if d.Source != "" {
		parts = append(parts, d.Source)
	}
	if d.Occurrences[1] > 0 {
		parts = append(parts, fmt.Sprintf("counted %d by section, now %d", d.Occurrences[0], d.Occurrences[1]))
	}
	if d.Note != "" {
		parts = append(parts, d.Note)
	}
	if len(parts) > 0 {
		b.WriteString(" (" + strings.Join(parts, "; ") + ")")
	}
	return b.String()
}

// checks are the gate's individual safety checks. The zero value enables all of them; tests
// disable one at a time to prove it is the check that stops a given loss.
type checks struct {
	skipType   map[string]bool // token classes not compared
	noMultiset bool            // compare presence only, not distinct-line counts
	noBinding  bool            // no binding-swap detection
	noFront    bool            // no front matter incompleteness report
	noUnion    bool            // merges compare against their first source only
	noDelete   bool            // deleted files' tokens are not accounted for
	noMoved    bool            // a line moved verbatim to another file is not excused
	frontLine  bool            // set by the inventory for the line being read: a front matter line
	noUnits    bool            // numbers ignore unit words and ranges (25 MB = 25 GB)
	noDomains  bool            // scheme-less hosts (example.chat/team) are not links
	noHandles  bool            // @handles are not inventoried
	noStray    bool            // a fence the result leaves unclosed is not reported
	// noStrayRead reads the lines a stray fence swallows as code, as CommonMark does.
	noStrayRead bool
	// noStrayCode reads every line a stray fence swallows as prose, code-like or not.
	noStrayCode bool
	// noPolarityMatch compares polarity facts by exact key only (no rewording allowance).
	noPolarityMatch bool
	// noNameWords counts a name only where it is a name in the result, not as any word.
	noNameWords bool
	// noNameSection lets the word in another section stand for a name a section dropped.
	noNameSection bool
	// noContradiction ignores a rule's words restated without its rule word.
	noContradiction bool
	// noSubstitution lets a mention be replaced by a new value when another mention of the
	// value stays in its section.
	noSubstitution bool
}

// Check compares the inventories of an original and a result and returns what the result lost,
// sorted by line. Deleting an exact duplicate line is free; a value on fewer distinct lines, or
// a binding swap, is a drop.
func Check(orig, result []byte) []Drop {
	if bytes.Equal(orig, result) {
		return nil // nothing can be lost, not even an unverifiable front matter's keys
	}
	return checkInv(inventory(orig, checks{}), inventory(result, checks{}), checks{}, nil)
}

// Verify is the engine of `prosewash wash verify OLD NEW`: it returns the drops of NEW against
// OLD; none means nothing structured was lost.
func Verify(old, new []byte) []Drop { return Check(old, new) }

// Render writes one drop per line, for `wash verify` and apply refusals. It never includes file
// content beyond the token values themselves, which are what the user must approve by name.
func Render(drops []Drop) string {
	var b strings.Builder
	for _, d := range drops {
		b.WriteString(d.String())
		b.WriteByte('\n')
	}
	return b.String()
}

func checkWith(orig, result []byte, cfg checks) []Drop {
	return checkInv(inventory(orig, cfg), inventory(result, cfg), cfg, nil)
}

// checkInv compares two inventories. extra holds distinct lines of the original that survive
// verbatim elsewhere in the same transaction; their tokens count as kept.
func checkInv(o, r *Inv, cfg checks, extra map[lineKey]bool) []Drop {
	kept := make(map[lineKey]bool, len(r.lines)+len(extra))
	for k := range r.lines {
		kept[k] = true
	}
	var moved map[Token]int
	if len(extra) > 0 {
		moved = map[Token]int{}
		for k := range extra {
			if kept[k] {
				continue
			}
			kept[k] = true
			if dl := o.lines[k]; dl != nil {
				for _, t := range dl.toks {
					moved[t]++
				}
			}
		}
	}
	var drops []Drop
	subst := &substitutes{o: o, r: r, moved: moved}
	for t, oc := range o.counts {
		if cfg.skipType[t.Type] || t.Type == TypePolarity || t.Type == TypeOrder {
			continue
		}
		rc := r.counts[t] + moved[t]
		if t.Type == TypeName && !cfg.noNameWords {
			// A name may come back as a plain word: "Move" at a label, "move" in the summary.
			// Per section, though: a section of the result that keeps its heading must still
			// say the word ("Windows" become "Linux" under a heading is lost even when a list
			// item of another section still opens with "Windows").
			rc = max(rc, r.wordCounts()[t.Value]+moved[t])
			if moved[t] == 0 && !cfg.noNameSection && o.nameLeftSection(t, r) {
				rc = min(rc, oc-1)
			}
		}
		if setSemantics(t.Type) || cfg.noMultiset {
			if rc > 0 {
				continue
			}
		} else if o.keptWhole(t, r, extra) || rc >= oc && (cfg.noSubstitution || subst.of(t) == "") {
			continue
		}
		dl := o.locate(t, kept)
		d := Drop{Token: t, Line: dl.line(), Source: o.source(dl), Occurrences: [2]int{oc, rc}}
		if setSemantics(t.Type) {
			d.Occurrences = [2]int{1, 0}
		} else if ln := o.sectionLost(t, r); ln > 0 && rc > 0 {
			d.Line = ln
		}
		if rc >= oc {
			d.Note = "a mention became " + subst.of(t)
		}
		drops = append(drops, d)
	}
	if !cfg.skipType[TypePolarity] {
		drops = append(drops, polarityDrops(o, r, cfg, kept)...)
	}
	if !cfg.skipType[TypeOrder] {
		drops = append(drops, orderDrops(o, r)...)
	}
	if !cfg.noStray {
		drops = append(drops, strayDrops(o, r)...)
	}
	if !cfg.noBinding && !cfg.skipType[TypeBindingSwap] {
		drops = append(drops, bindingSwaps(o, r)...)
	}
	if !cfg.noFront {
		if d, ok := frontIncomplete(o.fm.State, r.fm.State); ok {
			drops = append(drops, d)
		}
	}
	sortDrops(drops)
	return drops
}

// bindingSwaps finds result lines that carry exactly the values and subject words of an
// original line but pair them differently ("pass 878 / fail 0" -> "pass 0 / fail 878"), and
// that match no original line's pairing. Positionless multiset checks cannot see these.
func bindingSwaps(o, r *Inv) []Drop {
	var drops []Drop
	seen := map[string]bool{}
	for _, k := range r.order {
		if _, same := o.lines[k]; same {
			continue
		}
		for _, rb := range []*binding{r.lines[k].bind, r.lines[k].cbind} {
			if rb != nil {
				drops = swapsOf(o, rb, r.lines[k].first, seen, drops)
			}
		}
	}
	return drops
}

// swapsOf reports the original bindings of rb's values that rb pairs differently.
func swapsOf(o *Inv, rb *binding, first int, seen map[string]bool, drops []Drop) []Drop {
	cands := o.binds[rb.sig]
	if len(cands) == 0 {
		return drops
	}
	for _, ob := range cands {
		if ob.pairs == rb.pairs {
			return drops
		}
	}
	for _, ob := range cands {
		if ob.words != rb.words {
			continue
		}
		if seen[ob.show+"\x00"+rb.show] {
			continue
		}
		seen[ob.show+"\x00"+rb.show] = true
		var at *distinctLine
		for _, ok := range o.order {
			if o.lines[ok].bind == ob || o.lines[ok].cbind == ob {
				at = o.lines[ok]
				break
			}
		}
		drops = append(drops, Drop{
			Token:  Token{TypeBindingSwap, ob.show},
			Line:   at.line(),
			Source: o.source(at),
			Note:   fmt.Sprintf("result line %d binds %s", first, rb.show),
		})
	}
	return drops
}

// substitutes finds a value the result introduces in place of a mention of another: when a
// section says a value less often and a value of its kind that the original never had appears
// in the same section, one mention was replaced ("every ~30 min" becoming "every ~3 min" while
// "30 minutes" stays elsewhere in the section), not merged. Kinds are token types; a number's
// kinds are its unit and its digits ("30s" becoming "30 minutes").
type substitutes struct {
	o, r  *Inv
	moved map[Token]int
}

func kindsOf(t Token) []string {
	if t.Type == TypeNumber {
		u := unitOf(t.Value)
		return []string{"u\x00" + u, "d\x00" + strings.TrimSuffix(t.Value, u)}
	}
	return []string{t.Type}
}

// of returns the value that replaced a mention of t, or "".
func (s *substitutes) of(t Token) string {
	if setSemantics(t.Type) || t.Type == TypeName && !fixedName(t.Value) || s.moved[t] > 0 {
		// Whether a word is a name mostly depends on its place in the sentence (a capital at the
		// start of a sentence or a label is none): restyling alone changes name counts. Tool and
		// language names are names anywhere.
		return ""
	}
	kinds := kindsOf(t)
	for _, sec := range s.o.sectOrder {
		if s.o.sectOcc[sec][t] <= s.r.sectOcc[sec][t] {
			continue
		}
		best := ""
		for n, c := range s.r.sectOcc[sec] {
			// A value the original never had, or one the section now says more often: "always
			// in English" become "always in Chinese" where Chinese was already named once.
			if c == 0 || n.Type != t.Type || s.o.raw[n] > 0 && c <= s.o.sectOcc[sec][n] || best != "" && n.Value >= best ||
				n.Type == TypeName && !fixedName(n.Value) {
				continue
			}
			for _, k := range kindsOf(n) {
				if slices.Contains(kinds, k) {
					best = n.Value
					break
				}
			}
		}
		if best != "" {
			return best
		}
	}
	return ""
}

// fixedName reports a name that is one wherever it stands: a tool or a language.
func fixedName(v string) bool {
	return lex().tools[v] || slices.Contains(cjkLanguages, v)
}

// unitOf returns the unit part of a number value ("30min" -> "min", "-43%" -> "%").
func unitOf(v string) string {
	return strings.TrimLeft(v, "+-$\u20ac\u00a3\u00a5~0123456789.,:/")
}

// polarityDrops finds the rules of the original that the result lost or flipped. A rule is kept
// by a result rule of the same class carrying most of its words (see polIndex.keeps), or by its
// line moving verbatim to another file of the transaction; it is lost anyway when the result
// states its words in more clauses without its class than the original did (a rule word
// stripped or swapped while a copy of the rule survives elsewhere).
func polarityDrops(o, r *Inv, cfg checks, kept map[lineKey]bool) []Drop {
	var drops []Drop
	rx, ox := r.polIndex(), o.polIndex()
	for i, f := range o.pol {
		moved := kept[o.polAt[i]] && !cfg.noMoved && r.lines[o.polAt[i]] == nil
		if moved {
			continue
		}
		note := ""
		switch {
		case r.counts[f.tok] > 0 || !cfg.noPolarityMatch && rx.keeps(f):
			if cfg.noContradiction || rx.contradicting(f) <= ox.contradicting(f) {
				continue
			}
			note = "the result also states it without its rule word"
		default:
			if n := flipped(f, r.pol); n != "" {
				note = "result says " + n
			}
		}
		dl := o.lines[o.polAt[i]]
		drops = append(drops, Drop{Token: f.tok, Line: dl.line(), Source: o.source(dl), Note: note})
	}
	return drops
}

// flipped names a result rule with most of the same words but another class ("not" become
// "must").
func flipped(f polFact, res []polFact) string {
	if len(f.stems) == 0 {
		return ""
	}
	for _, g := range res {
		if g.class == f.class {
			continue
		}
		have := map[string]bool{}
		for _, s := range g.sent {
			have[s] = true
		}
		if hits(f.stems, have) >= need(len(f.stems)) {
			return g.tok.Value
		}
	}
	return ""
}

// orderDrops reports an ordered pair the result states the other way round ("prefer `==`
// over `errors.Is`"). A pair that is only reworded away loses nothing this check can see:
// its operands and its rule word are inventoried on their own.
func orderDrops(o, r *Inv) []Drop {
	have := make(map[string]int, len(r.pairs))
	for _, p := range r.pairs {
		have[p.key()] = r.lines[p.at].line()
	}
	// Bindings the result makes, by first operand, and the places the original binds to.
	boundTo := map[string][]pairFact{}
	for _, p := range r.pairs {
		if p.rel != "" {
			boundTo[p.first] = append(boundTo[p.first], p)
		}
	}
	places := map[string]bool{}
	for _, p := range o.pairs {
		if p.rel != "" {
			places[p.second] = true
		}
	}
	var drops []Drop
	for _, p := range o.pairs {
		if _, ok := have[p.key()]; ok {
			continue
		}
		dl := o.lines[p.at]
		if at, ok := have[pairFact{first: p.second, second: p.first, rel: p.rel}.key()]; ok {
			drops = append(drops, Drop{Token: Token{TypeOrder, p.key()}, Line: dl.line(), Source: o.source(dl),
				Note: fmt.Sprintf("result line %d says %s", at, pairFact{first: p.second, second: p.first, rel: p.rel}.key())})
			continue
		}
		// A binding moved to another of the original's places: the result swapped what goes
		// where ("`a` in `afterEach`" where the original had `a` in `beforeEach` and `b` in
		// `afterEach`).
		for _, q := range boundTo[p.first] {
			if q.second != p.second && places[q.second] {
				drops = append(drops, Drop{Token: Token{TypeBindingSwap, p.key()}, Line: dl.line(), Source: o.source(dl),
					Note: fmt.Sprintf("result line %d says %s", r.lines[q.at].line(), q.key())})
				break
			}
		}
	}
	return drops
}

// strayDrops reports fences the result leaves stray beyond those the original already had.
func strayDrops(o, r *Inv) []Drop {
	if len(r.stray) <= len(o.stray) {
		return nil
	}
	var drops []Drop
	for _, s := range r.stray[len(o.stray):] {
		drops = append(drops, Drop{Token: Token{TypeStrayFence, fmt.Sprintf("result line %d", s.Line)},
			Note: fmt.Sprintf("its code block swallows result lines %d-%d", s.Line+1, s.End)})
	}
	return drops
}

func frontIncomplete(o, r frontmatter.State) (Drop, bool) {
	ou, ru := o == frontmatter.Unverifiable, r == frontmatter.Unverifiable
	switch {
	case ou && ru:
		return Drop{Token: Token{TypeFrontIncomplete, "both"}, Line: 1}, true
	case ou:
		return Drop{Token: Token{TypeFrontIncomplete, "orig"}, Line: 1}, true
	case ru:
		return Drop{Token: Token{TypeFrontIncomplete, "result"}, Line: 1}, true
	}
	return Drop{}, false
}

func sortDrops(d []Drop) {
	sort.SliceStable(d, func(i, j int) bool {
		if d[i].Source != d[j].Source {
			return d[i].Source < d[j].Source
		}
		if d[i].Line != d[j].Line {
			return d[i].Line < d[j].Line
		}
		return tokenLess(d[i].Token, d[j].Token)
	})
}

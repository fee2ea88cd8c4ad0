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
	// Note adds detail that is not file content: e.g. where a swapped line sits in the result,
	// or what changed in a statement ("must → may", "condition (only) ... missing").
	Note string
	// Statement is the original statement the drop was found in (shortened), Result the result
	// statement aligned with it and ResultLine that statement's first line (none when the
	// statement was removed).
	Statement, Result string
	ResultLine        int
}

// Key returns the approval key "type:value".
func (d Drop) Key() string { return d.Token.Key() }

// String renders one drop: its key, where it is, the original statement and the result
// statement it was compared with, and what changed: `condition:... (line 24 "Commits nur wenn
// explizit angefragt" → line 24 "Commits wenn sinnvoll"; condition "nur wenn ..." missing)`.
func (d Drop) String() string {
	var b strings.Builder
	b.WriteString(d.Key())
	var parts []string
	loc := ""
	switch {
	case d.Line > 0 && d.Source != "":
		loc = fmt.Sprintf("%s:%d", d.Source, d.Line)
	case d.Line > 0:
		loc = fmt.Sprintf("line %d", d.Line)
	case d.Source != "":
		loc = d.Source
	}
	if d.Statement != "" {
		loc += fmt.Sprintf(" %q", d.Statement)
		if d.ResultLine > 0 {
			loc += fmt.Sprintf(" → line %d %q", d.ResultLine, d.Result)
		} else {
			loc += " → removed"
		}
	}
	if loc != "" {
		parts = append(parts, strings.TrimSpace(loc))
	}
	if d.Statement == "" && d.Occurrences[1] > 0 {
		parts = append(parts, fmt.Sprintf("counted %d, now %d", d.Occurrences[0], d.Occurrences[1]))
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

// checkInv compares two inventories. extra holds distinct lines of the original that survive
// verbatim elsewhere in the same transaction; their tokens count as kept.
func checkInv(o, r *Inv, cfg checks, extra map[lineKey]bool) []Drop {
	drops := setDrops(o, r, cfg, extra)
	if cfg.noMultiset {
		drops = append(drops, presenceDrops(o, r, cfg)...)
	} else {
		drops = append(drops, statementDrops(o, r, cfg, extra)...)
	}
	if !cfg.skipType[TypeOrder] {
		drops = append(drops, orderDrops(o, r)...)
	}
	if !cfg.noStray {
		drops = append(drops, strayDrops(o, r)...)
	}
	if !cfg.noBinding && !cfg.skipType[TypeBindingSwap] {
		drops = oneSwapPerLine(append(drops, bindingSwaps(o, r)...))
	}
	if !cfg.noFront {
		if d, ok := frontIncomplete(o.fm.State, r.fm.State); ok {
			drops = append(drops, d)
		}
	}
	sortDrops(drops)
	return drops
}

// oneSwapPerLine keeps the line-level binding swap ("pass=878,fail=0") where the statement
// comparison found the same swap on the same line.
func oneSwapPerLine(drops []Drop) []Drop {
	lineSwap := map[string]bool{}
	for _, d := range drops {
		if d.Type == TypeBindingSwap && d.Statement == "" {
			lineSwap[fmt.Sprintf("%s:%d", d.Source, d.Line)] = true
		}
	}
	out := drops[:0]
	for _, d := range drops {
		if d.Type == TypeBindingSwap && d.Statement != "" && lineSwap[fmt.Sprintf("%s:%d", d.Source, d.Line)] {
			continue
		}
		out = append(out, d)
	}
	return out
}

// setDrops reports the set classes (code lines, front matter keys and values) the result no
// longer holds anywhere, except lines that moved verbatim to another file of the transaction.
func setDrops(o, r *Inv, cfg checks, extra map[lineKey]bool) []Drop {
	var drops, gone []Drop
	for t := range o.counts {
		if !setSemantics(t.Type) || cfg.skipType[t.Type] || t.Type == TypePolarity || t.Type == TypeOrder || r.counts[t] > 0 {
			continue
		}
		kept := map[lineKey]bool{}
		moved := false
		for _, k := range o.where[t] {
			if extra[k] {
				moved = true
			}
			kept[k] = r.lines[k] != nil || extra[k]
		}
		if moved {
			continue
		}
		dl := o.locate(t, kept)
		d := Drop{Token: t, Line: dl.line(), Source: o.source(dl), Occurrences: [2]int{1, 0}}
		if t.Type == TypeFenced {
			gone = append(gone, d) // its comment may be what changed (fenced_comment.go)
			continue
		}
		drops = append(drops, d)
	}
	return append(drops, commentDrops(o, r, gone)...)
}

// presenceDrops compares the prose tokens by presence in the whole file only: the gate as it
// was before values were compared per statement (a mutation test's baseline).
func presenceDrops(o, r *Inv, cfg checks) []Drop {
	var drops []Drop
	words := r.wordCounts()
	for t := range o.counts {
		if setSemantics(t.Type) || cfg.skipType[t.Type] || t.Type == TypePolarity || t.Type == TypeOrder || r.counts[t] > 0 {
			continue
		}
		if t.Type == TypeName && words[t.Value] > 0 {
			continue
		}
		dl := o.locate(t, nil)
		drops = append(drops, Drop{Token: t, Line: dl.line(), Source: o.source(dl), Occurrences: [2]int{o.counts[t], 0}})
	}
	return drops
}

// movedKeys returns the keys of the original's statements whose every line survives verbatim
// in another file of the transaction.
func movedKeys(o *Inv, extra map[lineKey]bool) map[string]bool {
	if len(extra) == 0 {
		return nil
	}
	out := map[string]bool{}
	for _, s := range o.stmts {
		all := true
		for _, li := range s.lines {
			if !extra[o.keys[li]] {
				all = false
				break
			}
		}
		if all {
			out[s.key] = true
		}
	}
	return out
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

// fixedName reports a name that is one wherever it stands: a tool or a language.
func fixedName(v string) bool {
	return lex().tools[v] || slices.Contains(cjkLanguages, v)
}

// unitOf returns the unit part of a number value ("30min" -> "min", "-43%" -> "%").
func unitOf(v string) string {
	return strings.TrimLeft(v, "+-$\u20ac\u00a3\u00a5~0123456789.,:/≥≤<>")
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

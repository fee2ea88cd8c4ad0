package gate

import (
	"bytes"
	"slices"

	"github.com/prosewash/prosewash/internal/engine/wash/frontmatter"
)

// ChangeKind is what a change does to its path.
type ChangeKind string

// Change kinds.
const (
	Rewrite ChangeKind = "rewrite"
	Delete  ChangeKind = "delete"
	Create  ChangeKind = "create"
)

// Source is one original file a merge absorbs.
type Source struct {
	Path    string
	Content []byte
}

// Change is one file operation of a transaction, with the bytes the gate must compare.
type Change struct {
	Path string
	Kind ChangeKind
	// Orig is the gated original of a rewrite or delete.
	Orig []byte
	// Sources makes a rewrite (or a create) a merge: the result is checked against the union of
	// Orig and every source, so a fact may come from any of them.
	Sources []Source
	// Result is the new content of a rewrite or create.
	Result []byte
	// Approved holds "type:value" keys approved for this change only.
	Approved map[string]bool
}

// FileVerdict is the gate's finding for one change.
type FileVerdict struct {
	Path string
	Kind ChangeKind
	// Blocking are the unapproved drops; any one of them blocks the whole transaction.
	Blocking []Drop
	// Approved are drops that carry an approval.
	Approved []Drop
}

// Verdict is the gate's finding for a whole transaction.
type Verdict struct {
	OK    bool
	Files []FileVerdict
}

// Blocking returns every unapproved drop, each naming its file in Source.
func (v Verdict) Blocking() []Drop {
	var out []Drop
	for _, f := range v.Files {
		for _, d := range f.Blocking {
			if d.Source == "" {
				d.Source = f.Path
			}
			out = append(out, d)
		}
	}
	return out
}

// CheckSet gates a whole transaction before anything is written. Rewrites are checked against
// their original (merges against the union of their sources); a line removed from one file that
// survives verbatim in another result of the same transaction is a move, not a loss; every token
// of a deleted file must reappear somewhere in the non-deleted results or be approved. approved
// holds transaction-wide "type:value" keys; Change.Approved holds keys scoped to one change.
func CheckSet(changes []Change, approved map[string]bool) Verdict {
	return checkSet(changes, approved, checks{})
}

func checkSet(changes []Change, approved map[string]bool, cfg checks) Verdict {
	t := &txView{changes: changes, cfg: cfg, results: make([]*Inv, len(changes))}
	v := Verdict{OK: true}
	for i, c := range changes {
		var drops []Drop
		switch c.Kind {
		case Delete:
			drops = t.deleteDrops(c)
		default:
			drops = t.rewriteDrops(i, c)
		}
		fv := judgeDrops(c, drops, approved)
		if len(fv.Blocking) > 0 {
			v.OK = false
		}
		v.Files = append(v.Files, fv)
	}
	return v
}

// judgeDrops sorts one change's drops into the approved (transaction-wide or for this change)
// and the blocking.
func judgeDrops(c Change, drops []Drop, approved map[string]bool) FileVerdict {
	fv := FileVerdict{Path: c.Path, Kind: c.Kind}
	for _, d := range drops {
		if approved[d.Key()] || c.Approved[d.Key()] {
			fv.Approved = append(fv.Approved, d)
		} else {
			fv.Blocking = append(fv.Blocking, d)
		}
	}
	return fv
}

// txView is a transaction's results as the gate sees them. Results are inventoried lazily:
// the transaction-wide views (which distinct lines and tokens survive anywhere) are only
// needed for deletes and for a rewrite that loses something on its own, since they can only
// excuse a drop, never add one. A plan whose changed files lose nothing by themselves never
// pays for inventorying the unchanged ones.
type txView struct {
	changes []Change
	cfg     checks
	results []*Inv
	// The transaction-wide views, built by all.
	lineCount      map[lineKey]int // number of non-deleted results carrying a distinct line
	present        map[Token]bool
	presentWord    map[string]bool
	presentPol     []polFact
	presentClauses []clauseFact
}

// result returns the inventory of change i's result.
func (t *txView) result(i int) *Inv {
	if t.results[i] == nil {
		t.results[i] = inventory(t.changes[i].Result, t.cfg)
	}
	return t.results[i]
}

// all builds the transaction-wide views over every non-deleted result, once.
func (t *txView) all() {
	if t.lineCount != nil {
		return
	}
	t.lineCount, t.present, t.presentWord = map[lineKey]int{}, map[Token]bool{}, map[string]bool{}
	for i, c := range t.changes {
		if c.Kind == Delete {
			continue
		}
		inv := t.result(i)
		for k := range inv.lines {
			t.lineCount[k]++
		}
		for tok, n := range inv.counts {
			if n > 0 {
				t.present[tok] = true
			}
		}
		for w := range inv.wordCounts() {
			t.presentWord[w] = true
		}
		t.presentPol = append(t.presentPol, inv.pol...)
		t.presentClauses = append(t.presentClauses, inv.clauses...)
	}
}

// deleteDrops are the tokens of a deleted file that no non-deleted result states.
func (t *txView) deleteDrops(c Change) []Drop {
	cfg := t.cfg
	if cfg.noDelete {
		return nil
	}
	t.all()
	o := inventory(c.Orig, cfg)
	var px *polIndex
	pol := map[Token]polFact{}
	for _, f := range o.pol {
		pol[f.tok] = f
	}
	var drops []Drop
	for _, tc := range o.Tokens() {
		if t.present[tc.Token] || cfg.skipType[tc.Type] {
			continue
		}
		if tc.Type == TypePolarity && !cfg.noPolarityMatch && px == nil {
			px = newPolIndex(t.presentPol, t.presentClauses)
		}
		if t.deletedKept(tc.Token, pol[tc.Token], o, px) {
			continue
		}
		drops = append(drops, Drop{Token: tc.Token, Line: o.locate(tc.Token, nil).line(), Occurrences: [2]int{tc.Count, 0}, Source: c.Path, Note: "deleted file"})
	}
	if o.fm.State == frontmatter.Unverifiable && !cfg.noFront {
		drops = append(drops, Drop{Token: Token{TypeFrontIncomplete, "orig"}, Line: 1, Source: c.Path, Note: "deleted file"})
	}
	return drops
}

// deletedKept reports a token of a deleted file that is no loss though no result holds it as a
// token: a pair (a deleted file states no pair the other way round), a name still said as a
// plain word, a rule another result keeps (px is the index of the results' rules).
func (t *txView) deletedKept(tok Token, f polFact, o *Inv, px *polIndex) bool {
	switch tok.Type {
	case TypeOrder:
		return true
	case TypeName:
		return !t.cfg.noNameWords && t.presentWord[tok.Value]
	case TypePolarity:
		return !t.cfg.noPolarityMatch && px.keeps(f) && px.contradicting(f) <= o.polIndex().contradicting(f)
	}
	return false
}

// rewriteDrops checks a rewrite, or a merge, against its original (the union of its sources),
// excusing a line that survives verbatim in another result of the transaction.
func (t *txView) rewriteDrops(i int, c Change) []Drop {
	cfg := t.cfg
	o := t.original(c)
	if o == nil {
		return nil
	}
	r := t.result(i)
	drops := checkInv(o, r, cfg, nil)
	if len(drops) == 0 || cfg.noMoved {
		return drops
	}
	t.all()
	extra := map[lineKey]bool{}
	for _, k := range o.order {
		n := t.lineCount[k]
		if _, own := r.lines[k]; own {
			n--
		}
		if n > 0 {
			extra[k] = true
		}
	}
	return checkInv(o, r, cfg, extra)
}

// original returns the inventory a rewrite or merge is checked against, or nil for a change
// that loses nothing: a plain create, an unchanged file.
func (t *txView) original(c Change) *Inv {
	cfg := t.cfg
	var parts []*Inv
	var names []string
	if c.Kind == Rewrite {
		parts = append(parts, inventory(c.Orig, cfg))
		names = append(names, "")
	} else if len(c.Sources) == 0 {
		return nil // a plain create loses nothing
	}
	if c.Kind == Rewrite && len(c.Sources) == 0 && bytes.Equal(c.Orig, c.Result) {
		return nil // an unchanged file loses nothing
	}
	for j, s := range c.Sources {
		if cfg.noUnion && (j > 0 || len(parts) > 0) {
			break
		}
		parts = append(parts, inventory(s.Content, cfg))
		names = append(names, s.Path)
	}
	if len(parts) > 1 {
		return union(parts, names)
	}
	return parts[0]
}

// union builds the inventory of several originals as if they were one file with their distinct
// lines merged, remembering which source each distinct line came from. Sections with the same
// heading path merge: the same rule under "## Testing" in two sources is one rule.
func union(parts []*Inv, names []string) *Inv {
	u := &Inv{
		keys:   nil,
		lines:  map[lineKey]*distinctLine{},
		counts: map[Token]int{},
		where:  map[Token][]lineKey{},
		binds:  map[string][]*binding{},
		fm:     parts[0].fm,
		srcOf:  map[*distinctLine]string{},
		sect:   map[string]map[Token]int{},
	}
	seenPol, seenPair := map[string]bool{}, map[string]bool{}
	for pi, p := range parts {
		if p.fm.State == frontmatter.Unverifiable {
			u.fm = p.fm
		}
		for _, s := range p.stmts {
			c := *s
			c.id, c.src = len(u.stmts), names[pi]
			if c.list >= 0 {
				c.list = -1 - pi*1_000_000 - s.list // lists of different sources stay apart
			}
			u.stmts = append(u.stmts, &c)
		}
		for _, k := range p.order {
			dl := p.lines[k]
			if ul, ok := u.lines[k]; ok {
				// The same line in two sources: the union holds it as often as both together.
				c := *ul
				c.n += dl.n
				u.lines[k] = &c
				u.srcOf[&c] = u.srcOf[ul]
				continue
			}
			u.lines[k] = dl
			u.srcOf[dl] = names[pi]
			u.order = append(u.order, k)
			if dl.bind != nil {
				u.binds[dl.bind.sig] = append(u.binds[dl.bind.sig], dl.bind)
			}
		}
		for t, w := range p.where {
			for _, k := range w {
				if !slices.Contains(u.where[t], k) {
					u.where[t] = append(u.where[t], k)
				}
			}
		}
		for sec, m := range p.sect {
			um := u.sect[sec]
			if um == nil {
				um = map[Token]int{}
				u.sect[sec] = um
			}
			for t, n := range m {
				um[t] = max(um[t], n)
			}
		}
		for i, f := range p.pol {
			if !seenPol[f.tok.Value] {
				seenPol[f.tok.Value] = true
				u.pol = append(u.pol, f)
				u.polAt = append(u.polAt, p.polAt[i])
				u.counts[f.tok] = 1
			}
		}
		for _, f := range p.pairs {
			if !seenPair[f.key()] {
				seenPair[f.key()] = true
				u.pairs = append(u.pairs, f)
				u.counts[Token{TypeOrder, f.key()}] = 1
			}
		}
		u.stray = append(u.stray, p.stray...)
		u.clauses = append(u.clauses, p.clauses...)
		for t := range p.counts {
			if t.Type == TypeFrontKey {
				u.counts[t] = 1
			}
		}
	}
	u.sumSections()
	return u
}

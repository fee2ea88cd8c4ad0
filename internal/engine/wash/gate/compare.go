package gate

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The statement comparison: each original statement against its counterparts in the result
// (see align.go), by passes. valuesPass: the statement's values (with their units and
// qualifiers, equivalences allowed) and names must be in its counterparts. rulesPass: each
// clause's rule keeps its direction and strength (must > should > may; never > avoid > rarely),
// and its conditions. antonymPass: a word of the clause is not exchanged for its antonym.
// sequencePass: what the clause puts first stays first. bindingPass: the same words and
// operands, paired differently, are a swap. A dropped statement's facts and rules must be stated
// by another statement of the result (droppedPass); listOrderPass keeps numbered steps in order.

// Statement-level drop types.
const (
	// TypeCondition is a condition or exception of a rule the result lost or changed: "only on
	// macOS", "unless asked", 除非明确要求.
	TypeCondition = "condition"
	// TypeModality is a rule the result states more weakly: must becoming may, always becoming
	// if needed, never becoming rarely.
	TypeModality = "modality"
)

// stmtCompare holds one comparison's state.
type stmtCompare struct {
	o, r  *Inv
	a     *alignment
	cfg   checks
	drops []Drop
	// scope is the result's facts by section (built on first use for dropped statements).
	scope map[string]*factSet
	whole *factSet
	extra map[lineKey]bool // lines that moved verbatim to another file of the transaction
	// byLine maps a result line to the result statements holding it (built on first use).
	byLine map[lineKey][]*stmt
	// rules indexes the result's clauses by section and stem, for removed statements' rules.
	rules map[string]*clauseIndex
	seen  map[dropKey]bool
	into  map[int][]*stmt    // result statement id -> the original statements aligned with it
	kept  map[string][]*stmt // fact key -> original statements the result keeps unchanged
	// repFacts holds the facts of the result statements a removed statement repeats (repeat.go).
	repFacts map[int]*factSet
	// byStem indexes the result's statements by their stems (built on first use, row_swap.go).
	byStem map[string][]*stmt
}

// dropKey identifies a drop: one per token, line and file.
type dropKey struct {
	t    Token
	line int
	src  string
}

// clauseIndex finds clauses by their stems.
type clauseIndex struct {
	clauses []clauseInfo
	byStem  map[string][]int
}

func newClauseIndex(cls []clauseInfo) *clauseIndex {
	x := &clauseIndex{clauses: cls, byStem: map[string][]int{}}
	for i, c := range cls {
		for _, s := range c.stems {
			x.byStem[s] = append(x.byStem[s], i)
		}
	}
	return x
}

// candidates returns the clauses sharing at least n of stems.
func (x *clauseIndex) candidates(stems []string, n int) []clauseInfo {
	count := map[int]int{}
	for _, s := range stems {
		for _, i := range x.byStem[s] {
			count[i]++
		}
	}
	var out []clauseInfo
	for i, k := range count {
		if k >= n {
			out = append(out, x.clauses[i])
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].text < out[j].text })
	return out
}

// factSet is a set of canonical fact keys and of words.
type factSet struct {
	facts map[string]bool
	words map[string]bool
}

// statementDrops compares o's statements with r's.
func statementDrops(o, r *Inv, cfg checks, extra map[lineKey]bool) []Drop {
	c := &stmtCompare{o: o, r: r, a: align(o, r, movedKeys(o, extra)), cfg: cfg, extra: extra}
	for _, s := range o.stmts {
		if c.a.same[s.id] || c.a.repeat[s.id] || c.glossDropped(s) { // heading_gloss.go
			continue
		}
		if gone, ok := c.linesRemoved(s); ok {
			c.removedLinesPass(s, gone)
			continue
		}
		if to := c.a.to[s.id]; to != nil {
			c.alignedPass(s, to)
		} else {
			n := len(c.drops)
			c.droppedPass(s)
			if len(c.drops) == n {
				c.removedItemPass(s)
			}
			c.anchoredPass(s)
		}
	}
	if !cfg.skipType[TypeOrder] {
		c.listOrderPass()
	}
	c.rowSwapPass()
	c.mergedSwapPass() // merged_swap.go
	c.swapPass()
	return c.drops
}

// linesRemoved reports a statement edited only by removing whole lines: its other lines survive
// verbatim in result statements made of original lines only (a duplicate or dead entry cut from
// a paragraph, a line moved out of it). It returns the removed lines.
func (c *stmtCompare) linesRemoved(s *stmt) ([]int, bool) {
	var gone []int
	kept := 0
	own := s.owner
	for _, li := range s.lines {
		if c.r.lines[own.keys[li]] != nil {
			kept++
		} else {
			gone = append(gone, li)
		}
	}
	if kept == 0 || len(gone) == 0 {
		return nil, false
	}
	if c.byLine == nil {
		c.byLine = map[lineKey][]*stmt{}
		for _, u := range c.r.stmts {
			for _, li := range u.lines {
				k := c.r.keys[li]
				c.byLine[k] = append(c.byLine[k], u)
			}
		}
	}
	for _, li := range s.lines {
		for _, u := range c.byLine[own.keys[li]] {
			for _, ul := range u.lines {
				if c.o.lines[c.r.keys[ul]] == nil {
					return nil, false // a rewritten line: compare the statement as a whole
				}
			}
		}
	}
	return gone, true
}

// removedLinesPass checks the lines removed from a statement as a removed statement: their facts
// and rules must be stated elsewhere, unless the line moved verbatim to another file.
func (c *stmtCompare) removedLinesPass(s *stmt, gone []int) {
	part := &stmt{id: s.id, kind: s.kind, list: -1, sect: s.sect, src: s.src, owner: s.owner}
	own := s.owner
	for k, li := range s.lines {
		if containsInt(gone, li) && !c.extra[own.keys[li]] {
			part.lines = append(part.lines, li)
			part.from = append(part.from, s.from[k])
			if dl := own.dls[li]; dl != nil {
				part.facts = append(part.facts, dl.local...)
			}
			part.facts = append(part.facts, own.ctx[li]...)
		}
	}
	if len(part.lines) == 0 {
		return
	}
	part.key = s.key
	c.droppedPass(part)
}

func containsInt(list []int, x int) bool {
	for _, v := range list {
		if v == x {
			return true
		}
	}
	return false
}

// drop records a drop found on original statement s, aligned with u (nil when dropped).
func (c *stmtCompare) drop(t Token, s *stmt, u *stmt, note string) {
	d := Drop{Token: t, Line: s.firstLine(), Source: s.src, Statement: s.text(), Note: note}
	if u != nil {
		d.Result, d.ResultLine = u.text(), u.firstLine()
	}
	if !setSemantics(t.Type) {
		d.Occurrences = [2]int{c.o.counts[t], c.r.counts[t]}
	}
	k := dropKey{t, d.Line, d.Source}
	if c.seen[k] {
		return
	}
	if c.seen == nil {
		c.seen = map[dropKey]bool{}
	}
	c.seen[k] = true
	c.drops = append(c.drops, d)
}

// alignedPass compares a statement with its counterparts.
func (c *stmtCompare) alignedPass(s *stmt, to []*stmt) {
	have := c.factsOf(to)
	c.valuesPass(s, to, have)
	oc := c.o.clausesOf(s)
	var uc []clauseInfo
	for _, u := range to {
		uc = append(uc, c.r.clausesOf(u)...)
	}
	if !c.cfg.skipType[TypePolarity] {
		c.rulesPass(s, to[0], oc, uc)
		c.antonymPass(s, to[0], oc, uc)
		c.contrastFlipPass(s, to[0], oc, uc)
		c.permittedPass(s, to[0], oc, uc)
	}
	if !c.cfg.skipType[TypeCondition] {
		c.conditionsPass(s, to[0], oc, uc)
		c.scopePass(s, to[0], oc, uc)
		c.codeScopePass(s, to[0], oc, uc)
		c.parenConditionPass(s, to[0], oc, uc)
		c.orAndPass(s, to[0], oc, uc) // condition_or_and.go
	}
	if !c.cfg.skipType[TypeOrder] {
		c.sequencePass(s, to[0], oc, uc)
		c.precedencePass(s, to[0], oc, uc)
		c.firstOperandPass(s, to[0], oc, uc)
	}
	if !c.cfg.noBinding && !c.cfg.skipType[TypeBindingSwap] && len(to) == 1 {
		c.bindingPass(s, to[0], oc, uc)
	}
	if len(to) == 1 && s.status != "" && to[0].status != "" && s.status != to[0].status && !c.cfg.skipType[TypePolarity] {
		// "✅ Откат миграций" said "[ ] Откат миграций": the task is no longer done
		c.drop(Token{TypePolarity, s.status + " " + s.key}, s, to[0], fmt.Sprintf("status %s → %s", s.status, to[0].status))
	}
	if len(to) == 1 {
		c.substitutionPass(s, to[0], oc, uc)
		c.swapPairPass(s, to[0], oc, uc)
		c.boundSwapPass(s, to[0], oc, uc)
		c.droppedItemPass(s, to[0], oc, uc)
	}
}

// factsOf returns the facts and words of result statements.
func (c *stmtCompare) factsOf(list []*stmt) *factSet {
	fs := &factSet{facts: map[string]bool{}, words: map[string]bool{}}
	for _, u := range list {
		c.addFacts(fs, c.r, u)
	}
	return fs
}

// addFacts adds a statement's facts (in canonical form), its number words and its words.
func (c *stmtCompare) addFacts(fs *factSet, inv *Inv, s *stmt) {
	for _, t := range s.facts {
		for _, k := range factKeys(t) {
			fs.facts[k] = true
		}
	}
	cl := inv.clausesOf(s)
	for _, t := range wordFacts(cl) {
		for _, k := range factKeys(t) {
			fs.facts[k] = true
		}
	}
	for _, cls := range cl {
		for _, t := range cls.toks {
			switch t.kind {
			case tWord, tHangul:
				fs.words[trimPossessive(t.text)] = true
				fs.words[hangulBare(t.text)] = true // "표현" keeps the name "표현을"
				if l := langOf(t.text); l != "" {
					fs.words[l] = true
				}
			case tCJK:
				for _, n := range cjkNames(t.text) {
					fs.words[langOf(n)] = true
				}
			}
		}
	}
}

// isStmtFact reports the token types a statement's values are compared by.
func (c *stmtCompare) isStmtFact(t Token) bool {
	if setSemantics(t.Type) || c.cfg.skipType[t.Type] {
		return false
	}
	switch t.Type {
	case TypeBindingSwap, TypeStrayFence, TypeFrontIncomplete:
		return false
	case TypeCondition:
		return !strings.HasPrefix(t.Value, "all ") // "for all files" only keeps "per file"
	}
	return true
}

// valuesPass reports each value and name of s that its counterparts do not state, and a value
// they state less often while stating a new one of its kind in its place ("Japanese ... in
// Japanese" become "English ... in Japanese").
func (c *stmtCompare) valuesPass(s *stmt, to []*stmt, have *factSet) {
	facts := append(append([]Token(nil), s.facts...), wordFacts(c.o.clausesOf(s))...)
	aliases := c.o.aliases()
	var ufacts []Token
	for _, u := range to {
		ufacts = append(ufacts, u.facts...)
		ufacts = append(ufacts, wordFacts(c.r.clausesOf(u))...)
	}
	for _, t := range facts {
		if !c.isStmtFact(t) {
			continue
		}
		if keptFact(t, have, aliases) || shortenedCompound(t, s.text(), have) || ordinalKept(t, s, to) {
			if n := replacedBy(t, facts, ufacts); n != "" {
				c.drop(t, s, to[0], fmt.Sprintf("%s became %s", t.Value, n))
			}
			continue
		}
		if t.Type == TypeQuote && quotedIn(t.Value, to) || t.Type == TypeName && inCode(t.Value, ufacts) {
			continue // a quotation the result wraps across two lines, a name now in a code span
		}
		n := c.replacedInPlace(t, s, to, facts, ufacts)
		if abbreviatedCompound(t.Value, n) {
			continue // "Git-Repo" said "Git-Repository"
		}
		if n != "" {
			c.drop(t, s, to[0], fmt.Sprintf("%s became %s", t.Value, n))
			continue
		}
		if c.impliedName(t, s, to) || c.impliedByContext(t, s, to, facts, ufacts) || c.acronymSpelled(t, s, to) || nameInCompound(t, to) {
			continue
		}
		if n := newOfKind(t, facts, ufacts); n != "" {
			c.drop(t, s, to[0], fmt.Sprintf("%s became %s", t.Value, n))
			continue
		}
		c.drop(t, s, to[0], fmt.Sprintf("%s missing", t.Value))
	}
}

// inCode reports a name that a code span of facts holds as one of its words ("core.hooksPath"
// in `git config core.hooksPath .githooks`, a span the original wrapped across two lines).
func inCode(name string, facts []Token) bool {
	for _, f := range facts {
		if f.Type != TypeCode {
			continue
		}
		for _, w := range strings.Fields(strings.ToLower(f.Value)) {
			if w == name {
				return true
			}
		}
	}
	return false
}

// quotedIn reports a quotation that one of the statements says within quotation marks.
func quotedIn(q string, to []*stmt) bool {
	for _, u := range to {
		text := strings.Join(strings.Fields(u.key), " ")
		for _, m := range [][2]string{{`"`, `"`}, {"\u201c", "\u201d"}} {
			if strings.Contains(text, m[0]+q+m[1]) {
				return true
			}
		}
	}
	return false
}

// replacedInPlace returns the name or code span the result statement says where s says t,
// between the same neighbours, when the result says it more often than s does: "Go側で実行"
// said "Rails側で実行", "Type 우선" said "Interface 우선".
func (c *stmtCompare) replacedInPlace(t Token, s *stmt, to []*stmt, facts, ufacts []Token) string {
	if t.Type != TypeName && t.Type != TypeCode {
		return ""
	}
	var ucls []clauseInfo
	for _, u := range to {
		ucls = append(ucls, c.r.clausesOf(u)...)
	}
	for _, cl := range c.o.clausesOf(s) {
		for i, tk := range cl.toks {
			if tokValue(tk, t.Type) != t.Value {
				continue
			}
			prev, next := neighbourText(cl.toks, i-1), neighbourText(cl.toks, i+1)
			if prev == "" && next == "" {
				continue
			}
			for _, uc := range ucls {
				for j, v := range uc.toks {
					w := tokValue(v, t.Type)
					if w == "" || w == t.Value || neighbourText(uc.toks, j-1) != prev || neighbourText(uc.toks, j+1) != next {
						continue
					}
					if n := (Token{t.Type, w}); countTok(ufacts, n) > countTok(facts, n) {
						return w
					}
				}
			}
		}
	}
	return ""
}

// tokValue returns a clause token's value as a fact of type typ would hold it, or "".
func tokValue(tk ctok, typ string) string {
	switch {
	case typ == TypeCode && tk.kind == tCode:
		return strings.Trim(tk.text, "`")
	case typ == TypeName && tk.kind == tWord:
		return trimPossessive(tk.text)
	}
	return ""
}

// neighbourText returns the text of the clause token at i, "" outside the clause.
func neighbourText(toks []ctok, i int) string {
	if i < 0 || i >= len(toks) {
		return ""
	}
	return toks[i].text
}

// countTok counts t in list.
func countTok(list []Token, t Token) int {
	n := 0
	for _, x := range list {
		if x == t {
			n++
		}
	}
	return n
}

// replacedBy returns a value of t's kind that the result statement says and s does not, when it
// says t fewer times than s: one of t's mentions was replaced, not merged.
func replacedBy(t Token, facts, ufacts []Token) string {
	if t.Type != TypeName && t.Type != TypeNumber {
		return ""
	}
	on, un := 0, 0
	for _, f := range facts {
		if f == t {
			on++
		}
	}
	for _, f := range ufacts {
		if f == t {
			un++
		}
	}
	if un >= on || un == 0 {
		return ""
	}
	if n := newOfKind(t, facts, ufacts); n != "" {
		return n
	}
	return ""
}

// newOfKind returns a fact of t's kind (a language for a language, a number with t's unit) that
// ufacts states and facts does not.
func newOfKind(t Token, facts, ufacts []Token) string {
	for _, f := range ufacts {
		if f.Type != t.Type || countTok(ufacts, f) <= countTok(facts, f) {
			continue
		}
		switch {
		case t.Type == TypeName && langOf(t.Value) != "" && langOf(f.Value) != "" && langOf(f.Value) != langOf(t.Value):
			return f.Value // English became 中文; 英文 for English is the same language
		case t.Type == TypeName && fixedName(t.Value) && fixedName(f.Value):
			return f.Value
		case t.Type == TypeNumber && (unitOf(f.Value) == unitOf(t.Value) || strings.TrimSuffix(f.Value, unitOf(f.Value)) == strings.TrimSuffix(t.Value, unitOf(t.Value))):
			return f.Value // the same unit, or the same digits: "30s" became "30ms", "25 MB" "25 GB"
		}
	}
	return ""
}

func containsTok(list []Token, t Token) bool {
	for _, x := range list {
		if x == t {
			return true
		}
	}
	return false
}

// impliedByContext reports a fact the result statement leaves to its context: a name it omits
// (no other name of its kind in its place) that its section still says ("Lucide React" said
// "Lucide" where the State line names React), or an operand it refers back to with a pronoun
// ("use it also for") that the statement before it names.
func (c *stmtCompare) impliedByContext(t Token, s *stmt, to []*stmt, facts, ufacts []Token) bool {
	u := to[0]
	if t.Type == TypeName && newOfKind(t, facts, ufacts) == "" {
		if keptFact(t, c.sectionFacts(u.sect), nil) {
			return true
		}
	}
	if !hasPronoun(c.r.clausesOf(u)) {
		return false
	}
	for _, p := range c.r.stmts {
		if p.id == u.id-1 && p.sect == u.sect {
			return containsTok(p.facts, t)
		}
	}
	return false
}

// sectionFacts returns the facts of the result's section sect.
func (c *stmtCompare) sectionFacts(sect string) *factSet {
	c.scopeOf(sect)
	if fs := c.scope[sect]; fs != nil {
		return fs
	}
	return &factSet{facts: map[string]bool{}, words: map[string]bool{}}
}

// pronounText are the words that refer back to something named before.
var pronounText = "it them this that these those its their es sie ihn il elle ils elles le lo la los las ele ela eles " +
	"его её их он она оно они это 它 它们 其 该 これ それ 그것 이것"

// hasPronoun reports a pronoun among clauses' words.
func hasPronoun(cls []clauseInfo) bool {
	x := slex()
	for _, cl := range cls {
		for _, t := range cl.toks {
			if (t.kind == tWord || t.kind == tHangul) && x.pronoun[t.text] {
				return true
			}
			if t.kind == tCJK && (strings.Contains(t.text, "它") || strings.Contains(t.text, "其") || strings.Contains(t.text, "これ") || strings.Contains(t.text, "それ")) {
				return true
			}
		}
	}
	return false
}

// keptFact reports whether a fact, or an equivalent, is in a fact set.
func keptFact(t Token, have *factSet, aliases map[string][]string) bool {
	for _, k := range factKeys(t) {
		if have.facts[k] {
			return true
		}
	}
	if q, ok := strings.CutPrefix(t.Value, "per "); ok && t.Type == TypeCondition {
		return have.facts[Token{TypeCondition, "all " + q}.Key()]
	}
	if t.Type == TypeName {
		v := t.Value
		if have.words[v] || have.words[langOf(v)] && langOf(v) != "" || have.words[hangulBare(v)] {
			return true
		}
	}
	if t.Type != TypeName && t.Type != TypeCode {
		return false
	}
	for _, al := range aliases[strings.ToLower(t.Value)] {
		if have.facts[TypeName+":"+al] || have.facts[TypeCode+":"+al] || have.words[al] {
			return true
		}
	}
	return false
}

// shortenedCompound reports a name written as a compound of capitalised words ("Patch-Updates",
// "Feature-Requests") that the result says by one of its parts ("Patches", "Features"): a label
// shortened, its head kept. A lowercase tool name cut short ("vue-router" said "vue") is no such
// label.
func shortenedCompound(t Token, text string, have *factSet) bool {
	if t.Type != TypeName || !strings.Contains(t.Value, "-") {
		return false
	}
	low := strings.ToLower(text)
	k := strings.Index(low, t.Value)
	if k < 0 || len(low) != len(text) {
		return false
	}
	written := text[k : k+len(t.Value)]
	for _, part := range strings.Split(written, "-") {
		r, _ := utf8.DecodeRuneInString(part)
		if utf8.RuneCountInString(part) < 3 || !unicode.IsUpper(r) || strings.IndexFunc(part, func(r rune) bool { return !unicode.IsLetter(r) }) >= 0 {
			return false
		}
	}
	for _, part := range strings.Split(t.Value, "-") {
		for _, w := range []string{part, part + "s", part + "es", strings.TrimSuffix(part, "s")} {
			if have.words[w] {
				return true
			}
		}
	}
	return false
}

// impliedName reports a name the result implies: its section heading names it, or it is one
// side of a pair of alternatives the result restates by the other side ("`a` (Linux/macOS) or
// `b` (Windows)" said as "`a` (`b` on Windows)": the platform left unnamed is the other one).
func (c *stmtCompare) impliedName(t Token, s *stmt, to []*stmt) bool {
	for _, u := range to {
		if strings.Contains(strings.ToLower(lastHeading(u.sect)), t.Value) {
			return true
		}
	}
	fam := complementFamily(t.Value)
	if fam < 0 {
		return false
	}
	have := c.factsOf(to)
	oFacts := map[string]bool{}
	for _, f := range s.facts {
		oFacts[f.Key()] = true
	}
	otherSide := false
	for _, f := range s.facts {
		if f.Type == TypeCode && !have.facts[f.Key()] {
			return false // an operand is gone: nothing is restated
		}
		if f.Type == TypeName && complementFamily(f.Value) == fam && complementSide(f.Value) != complementSide(t.Value) && (have.facts[f.Key()] || have.words[f.Value]) {
			otherSide = true
		}
	}
	return otherSide
}

// lastHeading returns the last heading of a section path.
func lastHeading(sect string) string {
	if i := strings.LastIndexByte(sect, 0); i >= 0 {
		return sect[i+1:]
	}
	return sect
}

// rulesPass reports a clause whose rule the counterparts flip or state more weakly. A clause is
// kept by any counterpart clause carrying half its stems with the same direction and at least
// its strength; it is flipped when every such clause points the other way.
func (c *stmtCompare) rulesPass(s, u *stmt, oc, uc []clauseInfo) {
	for i, cl := range oc {
		if len(cl.stems) == 0 {
			c.bareRulePass(s, u, cl, uc) // bare_rule.go
			continue
		}
		if cl.modal == "" && conditionOnly(cl) {
			c.hedgedConditionPass(s, u, cl, oc, uc)
			continue // "Si los archivos ya tienen ediciones, ...": the rule is the next clause's
		}
		matches := ruleCounterparts(i, cl, oc, uc)
		if len(matches) == 0 {
			// a permission or hedge left out ("if you want", "may") takes no rule away
			if cl.level != 0 && cl.level != 1 && cl.modal != "" && !cl.reason && !c.ruleStatedElsewhere(cl, uc) && !redundantOpposite(cl, oc, uc) &&
				!needlessWithout(cl, uc) && !c.ruleSaidAgain(cl, s, u) { // needless_without.go, rule_said_again.go
				c.drop(Token{TypePolarity, ruleKey(cl)}, s, u, fmt.Sprintf("rule %s missing", levelWord(cl)))
			}
			continue
		}
		cl, matches = atCore(cl, matches)
		matches = preferenceSides(cl, oc, matches)
		kept, flipped, weaker := ruleMatched(cl, matches)
		if m, ok := hedgeBound(cl, matches); kept && ok {
			c.drop(Token{TypeModality, ruleKey(cl)}, s, u, fmt.Sprintf("%s → %s", levelWord(cl), levelWord(m)))
			continue
		}
		if kept && cl.level == 3 && conditioned(cl, best(cl, matches)) {
			c.drop(Token{TypeModality, ruleKey(cl)}, s, u, fmt.Sprintf("%s → only under a condition", levelWord(cl)))
			continue
		}
		if !kept && c.keptByReading(cl, u, oc, uc, matches, flipped, weaker) {
			flipped, kept = false, true
		}
		c.ruleVerdict(s, u, cl, matches, kept, flipped, weaker)
	}
}

// ruleVerdict records what ruleMatched found of rule cl: nothing when kept, a polarity drop
// when its counterparts point the other way, else a modality drop naming the weaker word.
func (c *stmtCompare) ruleVerdict(s, u *stmt, cl clauseInfo, matches []clauseInfo, kept, flipped bool, weaker clauseInfo) {
	switch {
	case kept:
	case flipped:
		c.drop(Token{TypePolarity, ruleKey(cl)}, s, u, fmt.Sprintf("%s → %s", levelWord(cl), levelWord(matches[0])))
	default:
		c.drop(Token{TypeModality, ruleKey(cl)}, s, u, fmt.Sprintf("%s → %s", levelWord(cl), levelWord(weaker)))
	}
}

// keptByReading reports a rule the counterparts seem to flip or weaken that a closer reading
// keeps: a description with no rule, a Korean or Japanese final negation covering a list, or a
// merge whose rule word is another clause's.
func (c *stmtCompare) keptByReading(cl clauseInfo, u *stmt, oc, uc, matches []clauseInfo, flipped bool, weaker clauseInfo) bool {
	switch {
	case flipped && cl.modal == "" && minLevel(matches) > -2:
		return true // "it is very rare that X" said "X rarely": a description, no rule
	case flipped && cl.level < 0 && finalNegationCovers(matches, uc):
		return true
	case flipped && cl.level < 0 && negatedVerbReworded(cl, matches, uc):
		return true
	case flipped && cl.modal == "" && nominalNegation(cl, matches): // nominal_negation.go
		return true
	case flipped && cl.modal == "" && c.mergedWithRule(cl, u, oc, matches):
		// "Propose X. Évite Y." said "Propose X et évite Y": the rule word is the merged
		// clause's, not cl's
		return true
	case !flipped && cl.modal == "" && preferenceOnly(weaker) && c.mergedWithRule(cl, u, oc, []clauseInfo{weaker}):
		// "Prioritize X. Verify instead of guessing." said "Prioritize X and verify instead
		// of guessing": the joiner weighs only its own pair, the other clause's
		return true
	case !flipped && abilityRestated(cl, weaker):
		return true
	case joinerMerged(cl, matches): // preference_merged.go
		return true
	}
	return false
}

// atCore reads cl and its counterparts without the negations of their relative clauses when
// each has one ("Skip updates for edits that don't change X" said "Edits that change neither X
// nor Y need no update"): those negate what the rule is about, the same on both sides, not the
// rule. A relative negation one side lacks is compared as before: "that don't fail" said "that
// fail" is flipped.
func atCore(cl clauseInfo, matches []clauseInfo) (clauseInfo, []clauseInfo) {
	if !cl.relNeg {
		return cl, matches
	}
	for _, m := range matches {
		if !m.relNeg {
			return cl, matches
		}
	}
	out := make([]clauseInfo, len(matches))
	for i, m := range matches {
		m.level, m.weak = m.coreLevel, m.coreWeak
		out[i] = m
	}
	cl.level, cl.weak = cl.coreLevel, cl.coreWeak
	return cl, out
}

// ruleCounterparts returns the result clauses that state rule cl (the i-th of oc): those sharing
// its words, else the same rule said nearby, else the clause in its place when only its few
// words changed with its rule word ("(do this every time)" said "(do this when in doubt)").
func ruleCounterparts(i int, cl clauseInfo, oc, uc []clauseInfo) []clauseInfo {
	if matches := overlapping(cl, uc); len(matches) > 0 || cl.modal == "" {
		if len(matches) > 0 && cl.modal != "" {
			matches = append(matches, splitPieces(cl, uc)...)
		}
		return matches
	}
	if matches := sameRuleNearby(cl, uc); len(matches) > 0 {
		return matches
	}
	if len(oc) == len(uc) && uc[i].modal != "" && overlapping(uc[i], oc) == nil {
		return []clauseInfo{uc[i]}
	}
	return nil
}

// finalNegationCovers reports a plain counterpart of a prohibition that is a list item before
// the prohibition ending its sentence, in Korean, Japanese or Chinese, which say the items before
// the rule word: "비밀번호 하드코딩 금지" merged as "API 키·비밀번호 하드코딩, 실제 개인정보 포함
// 금지" is still forbidden.
func finalNegationCovers(matches, uc []clauseInfo) bool {
	for _, m := range matches {
		if m.modal != "" || len(m.toks) == 0 {
			continue
		}
		if k := m.toks[len(m.toks)-1].kind; k != tHangul && k != tCJK {
			continue
		}
		for i := 0; i+1 < len(uc); i++ {
			n := uc[i+1]
			if uc[i].text == m.text && n.sentence == uc[i].sentence && n.comma && n.level < 0 {
				return true
			}
		}
	}
	return false
}

// splitPieces returns the clauses of uc that are a piece of rule clause cl split in two with
// its rule word ("Make only X and avoid Y" said "X only; no Y"): a rule of cl's direction whose
// stems, two at least, are mostly cl's.
func splitPieces(cl clauseInfo, uc []clauseInfo) []clauseInfo {
	var out []clauseInfo
	for _, u := range uc {
		if u.modal == "" || sign(effLevel(u.level)) != sign(effLevel(cl.level)) {
			continue
		}
		if n := shared(cl.stems, u.stems); n >= max(2, need(len(u.stems))) {
			out = append(out, u)
		}
	}
	return out
}

// ruleMatched compares a rule with its counterpart clauses: kept when one states it in the same
// direction at least as strongly (or mixes both directions, a merge; or, for a prohibition,
// leaves its words out with "without"), flipped when none states it in its direction, else
// weaker names one stating it more weakly.
func ruleMatched(cl clauseInfo, matches []clauseInfo) (kept, flipped bool, weaker clauseInfo) {
	lo := effLevel(cl.level)
	flipped = true
	for _, m := range matches {
		// "Kein X" merged as "Y, ohne X": a plain clause leaving out what the rule forbade (not
		// a "without" the rule said itself: "No añadir X sin Y" said "Añadir X sin Y" is flipped)
		leftOut := lo < 0 && m.without && !cl.without && m.modal == ""
		if sign(effLevel(m.level)) != sign(lo) && !m.mixed && !leftOut {
			continue
		}
		flipped = false
		if strength(m) >= strength(cl) || m.mixed || leftOut {
			return true, false, clauseInfo{}
		}
		weaker = m
	}
	return false, flipped, weaker
}

// hedgeBound reports a hedge or permission ("if needed", "may", 必要时, できれば) that the best
// counterpart states with a binding word instead ("always", "must", 始终, 必ず): the rule now
// binds where it was left to judgement. A hedge merely left out ("Run X if needed" said "Run
// X") is no such change; only a binding word written in its place is.
func hedgeBound(cl clauseInfo, matches []clauseInfo) (clauseInfo, bool) {
	if cl.level != 1 || cl.modal == "" {
		return clauseInfo{}, false
	}
	m := best(cl, matches)
	return m, m.level == 3 && m.modal != "" && !m.mixed
}

// mergedWithRule reports a counterpart clause that holds, beside plain clause cl, another
// original clause with the counterpart's rule direction: a merge, whose rule word belongs to
// the other clause. The other clause may be of another statement merged into the same result
// statement.
func (c *stmtCompare) mergedWithRule(cl clauseInfo, u *stmt, oc []clauseInfo, matches []clauseInfo) bool {
	others := append([]clauseInfo(nil), oc...)
	for _, s := range c.mergedInto(u) {
		others = append(others, c.o.clausesOf(s)...)
	}
	for _, m := range matches {
		for _, o2 := range others {
			if o2.modal == "" || o2.text == cl.text || sign(effLevel(o2.level)) != sign(effLevel(m.level)) || len(o2.stems) == 0 {
				continue
			}
			if shared(o2.stems, m.stems) >= max(1, len(o2.stems)/2) {
				return true
			}
		}
	}
	return false
}

// preferenceOnly reports a clause whose only rule words join a preference's two sides ("instead
// of", "statt", "au lieu de", "en vez de"): they rank the pair they join, no other part of it.
func preferenceOnly(cl clauseInfo) bool {
	x := slex()
	for _, w := range cl.negWords {
		if _, ok := x.pref[w]; !ok {
			return false
		}
	}
	return len(cl.negWords) > 0
}

// mergedInto returns the original statements aligned with result statement u.
func (c *stmtCompare) mergedInto(u *stmt) []*stmt {
	if c.into == nil {
		c.into = map[int][]*stmt{}
		for _, s := range c.o.stmts {
			for _, t := range c.a.to[s.id] {
				c.into[t.id] = append(c.into[t.id], s)
			}
		}
	}
	return c.into[u.id]
}

// conditionOnly reports a clause that is an "if" condition and nothing else: it opens with its
// condition word (or, in Chinese, Japanese and Korean, holds it).
func conditionOnly(cl clauseInfo) bool {
	for _, p := range cl.parts {
		if p.kind == condIf && p.from == 0 {
			return true
		}
	}
	return false
}

// sameRuleNearby returns, for a rule clause no counterpart restates, a counterpart clause of
// the same direction sharing half its stems (one of a short one's): "idealerweise an einem natürlichen
// Pausenpunkt" said "am besten an einer natürlichen Pause" (German compounds and inflections
// share no stem).
func sameRuleNearby(cl clauseInfo, uc []clauseInfo) []clauseInfo {
	for _, u := range uc {
		if u.modal != "" && sign(effLevel(u.level)) == sign(effLevel(cl.level)) && shared(cl.stems, u.stems) >= max(1, len(cl.stems)/2) {
			return []clauseInfo{u}
		}
	}
	return nil
}

// conditioned reports a counterpart clause that adds a condition of its own to an unconditional
// "always" or "must" ("Always run X" become "Run X when convenient").
func conditioned(cl, m clauseInfo) bool {
	for _, k := range m.conds {
		if !containsStr(cl.conds, k) {
			return true
		}
	}
	return false
}

// minLevel returns the lowest level of clauses.
func minLevel(cls []clauseInfo) int {
	m := 3
	for _, c := range cls {
		m = min(m, effLevel(c.level))
	}
	return m
}

// ruleStatedElsewhere reports a rule clause whose words the counterparts carry across clauses.
func (c *stmtCompare) ruleStatedElsewhere(cl clauseInfo, uc []clauseInfo) bool {
	var all []string
	for _, u := range uc {
		all = append(all, u.stems...)
	}
	return shared(cl.stems, all) >= need(len(cl.stems))
}

// overlapping returns the counterpart clauses that carry half of cl's stems.
func overlapping(cl clauseInfo, uc []clauseInfo) []clauseInfo {
	var out []clauseInfo
	want := max(1, need(len(cl.stems)))
	if cl.modal == "" {
		// A plain clause is judged only against a clause that is clearly its restatement.
		want = max(2, need(len(cl.stems)))
	}
	for _, u := range uc {
		if shared(cl.stems, u.stems) >= want {
			out = append(out, u)
		}
	}
	if len(out) > 0 {
		return out
	}
	// A clause the result shortened: most of its stems are cl's, and half of cl's are in it
	// ("mtime é atualizado para refletir a mudança" said "mtime não é atualizado").
	for _, u := range uc {
		if n := shared(cl.stems, u.stems); n >= max(2, need(len(u.stems))) && 2*n >= len(cl.stems) {
			out = append(out, u)
		}
	}
	if len(out) > 0 {
		return out
	}
	// A clause the result cut differently: judged against the sentences that carry its words.
	for _, u := range uc {
		if shared(cl.stems, u.sentStems) >= want && len(u.stems) > 0 {
			out = append(out, u)
		}
	}
	return out
}

// strength orders a clause's binding force within its direction: always (3) over must, a plain
// statement or an imperative (2.5), which bind more than should and prefer (2), than may and
// if needed (1). Dropping "always" weakens a rule; so does adding "preferably".
func strength(cl clauseInfo) float64 {
	switch {
	case cl.level == 0 || cl.level == 3 && !cl.always:
		return 2.5 // "must be relative" and "is relative" bind alike
	}
	return float64(absInt(cl.level))
}

// effLevel reads an unmarked clause (an assertion or imperative) as binding.
func effLevel(l int) int {
	if l == 0 {
		return 3
	}
	return l
}

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// levelWord names a clause's modality for a message: its rule words quoted, or "plain" for an
// assertion or an imperative.
func levelWord(cl clauseInfo) string {
	if cl.modal != "" {
		return strconv.Quote(cl.modal)
	}
	return "plain"
}

// condWordsText is what a message quotes of a condition: the clause from its condition word on.
func condWordsText(cl clauseInfo, kind string) string {
	if h, ok := hangulConditionText(cl, kind); ok {
		return h
	}
	t := cl.text
	if p, ok := partOf(cl, kind); ok && p.at > p.from && p.from < len(cl.toks) {
		// "only on macOS", not the whole clause: from the condition word to the next one
		low := strings.ToLower(t)
		if k := strings.Index(low, cl.toks[p.from].text); k >= 0 && len(low) == len(t) {
			t = t[k:]
			if e := nextPartAt(cl, p, low[k:]); e > 0 {
				t = t[:e]
			}
			t = strings.TrimRight(strings.TrimSpace(t), ".,;:!?*")
		}
	}
	if r := []rune(t); len(r) > 60 {
		t = string(r[:57]) + "..."
	}
	return t
}

// partOf returns the clause's first condition of kind.
func partOf(cl clauseInfo, kind string) (condPart, bool) {
	for _, p := range cl.parts {
		if p.kind == kind {
			return p, true
		}
	}
	return condPart{}, false
}

// nextPartAt returns where, in rest (the clause's lowercased text from p's word on), the
// condition after p starts, or 0.
func nextPartAt(cl clauseInfo, p condPart, rest string) int {
	for _, q := range cl.parts {
		if q.from > p.from && q.from < len(cl.toks) {
			if k := strings.Index(rest[1:], cl.toks[q.from].text); k >= 0 {
				return k + 1
			}
		}
	}
	return 0
}

// ruleKey is a rule drop's approval value: its clause's text, shortened.
func ruleKey(cl clauseInfo) string {
	t := cl.text
	if r := []rune(t); len(r) > 80 {
		t = string(r[:77]) + "..."
	}
	return t
}

// conditionsPass reports a condition of a clause that no counterpart clause keeps: one of a
// compatible kind (if/when, only, unless/except) carrying half the condition's words (of the
// clause's stems where the condition has no words of its own: "pnpm only").
func (c *stmtCompare) conditionsPass(s, u *stmt, oc, uc []clauseInfo) {
	for _, cl := range oc {
		seen := map[string]bool{}
		for _, p := range cl.parts {
			if p.kind == condIf && cl.modal == "" && descriptive(cl) || len(cl.stems) == 0 {
				// "This file provides guidance ... when working with code": no rule; "if not,"
				// and "if you don't,": an elliptical condition, its content is the next clause.
				continue
			}
			if !conditionKept(cl, p, uc) && !seen[p.kind] && !c.ruleCutSaidAgain(cl, s, u, uc) {
				seen[p.kind] = true
				c.drop(Token{TypeCondition, ruleKey(cl)}, s, u, fmt.Sprintf("condition %q missing", condWordsText(cl, p.kind)))
			}
		}
	}
}

// descriptiveText are the words a statement about something opens with (a determiner or a
// pronoun), not a rule: its "when" describes, it does not restrict.
var descriptiveText = "this the it these those that a an its there here we our " +
	"dieser diese dieses der die das es ce cette cet ces le la les il elle este esta el los las esto " +
	"o os as isso это этот эта эти он она оно они"

// descriptive reports a clause that opens like a description rather than a rule.
func descriptive(cl clauseInfo) bool {
	for _, t := range cl.toks {
		return t.kind == tWord && slex().descriptive[t.text]
	}
	return false
}

// conditionKept reports a counterpart clause keeping condition p of cl: one of its kind
// carrying half the condition's words (of the clause's stems for a condition without words),
// in the clause or, when the condition's words are there too, in its sentence. An "if"
// may be restated without its word ("when in need of a temporary directory" as "for a temporary
// directory") while the result says most of its words (restatedCondition).
func conditionKept(cl clauseInfo, p condPart, uc []clauseInfo) bool {
	if p.kind == condScope {
		return scopeKept(p, uc)
	}
	if p.kind == condWithout && withoutSaid(uc) {
		return true
	}
	if !hangulConditionSaid(cl, p, uc) {
		return false
	}
	words := p.words
	if len(words) == 0 {
		words = cl.stems
	}
	want := max(1, (len(words)+1)/2)
	for _, u := range uc {
		if !condCompatible(p.kind, u.conds) || p.kind == condExcept && exceptionDenied(u) {
			continue
		}
		if shared(words, u.stems) >= want || shared(words, u.sentStems) >= want && shared(p.words, u.sentStems) >= need(len(p.words)) {
			return true
		}
	}
	return restatedCondition(cl, p, uc) || beforeActingKept(cl, p, uc)
}

// scopeKept reports a scope phrase of a rule that a counterpart's sentence keeps: two thirds of
// its words, every one of a scope of one or two ("For database migrations, run ..."), wherever
// the result puts them ("For X, run Y" said "Run Y for X"), with a word of
// every case if and only if the scope had one ("for all packages" said "for core packages" is
// narrowed, "for exported functions" said "for all functions" widened).
func scopeKept(p condPart, uc []clauseInfo) bool {
	for _, u := range uc {
		if shared(p.words, u.sentStems) >= scopeNeed(len(p.words)) && (sentenceSaysAll(u, uc) == p.all || p.all && allDroppedOnly(p, u)) {
			return true
		}
	}
	return false
}

// scopeNeed is how many of a scope's n words its counterpart must say: one of one or two (a
// summary keeps the head of "for docs-only changes" and drops the rest: "Docs-only:"), two
// thirds of more.
func scopeNeed(n int) int {
	if n <= 2 {
		return 1
	}
	return need(n)
}

// sentenceSaysAll reports a word of every case in the sentence of u.
func sentenceSaysAll(u clauseInfo, uc []clauseInfo) bool {
	for _, v := range uc {
		if v.sentence == u.sentence && v.all && shared(v.sentStems, u.sentStems) == len(u.sentStems) {
			return true
		}
	}
	return false
}

// antonymPass reports a clause word exchanged for its antonym (manual for automatic, private for
// public, 相对 for 绝对), or a pair of antonyms exchanged in place ("top to bottom" become
// "bottom to top"). The counterpart clause is the one saying the antonym with the clause's
// other words.
func (c *stmtCompare) antonymPass(s, u *stmt, oc, uc []clauseInfo) {
	for _, cl := range oc {
		if w, an, ok := antonymIn(cl, oc, uc); ok && !c.cfg.skipType[an.typ] {
			c.drop(Token{an.typ, ruleKey(cl)}, s, u, fmt.Sprintf("%q → %q", w, an.other))
			continue
		}
		ms := overlapping(cl, uc)
		if len(ms) > 0 {
			ms = []clauseInfo{best(cl, ms)}
		} else {
			ms = uc // a two-character word exchanged is two of a short clause's stems
		}
		if a, b, ok := cjkAntonymIn(cl, ms); ok {
			typ := TypePolarity
			if an := slex().antonym[a]; len(an) > 0 {
				typ = an[0].typ
			}
			if !c.cfg.skipType[typ] {
				c.drop(Token{typ, ruleKey(cl)}, s, u, fmt.Sprintf("%q → %q", a, b))
			}
		}
	}
}

// antonymIn finds a word of cl whose antonym a counterpart clause says instead, with most of
// cl's other stems, or, where the rewrite moved the clause boundary, whose antonym the
// counterpart statement says instead of it ("прежде чем отвечать" → "после того, как
// ответите"). A clause of the one word in a statement naming both ("stdlib, external,
// internal") has exchanged nothing unless the counterpart says the antonym more often or
// the two in the other order ("Cast = async, Call = sync" → "Cast = sync, Call = async").
func antonymIn(cl clauseInfo, oc, uc []clauseInfo) (string, antonym, bool) {
	x := slex()
	for _, t := range cl.toks {
		if t.kind != tWord && t.kind != tHangul {
			continue
		}
		rest := without(cl.stems, wordStem(t.text))
		for _, an := range antonymsOf(x, t.text) {
			if clauseSays(cl, an.other) {
				continue
			}
			more := saysCount(uc, an.other) > saysCount(oc, an.other)
			if more && saysCount(uc, t.text) < saysCount(oc, t.text) {
				return t.text, an, true
			}
			if len(rest) == 0 && !more {
				if pairOrder(oc, t.text, an.other) != pairOrder(uc, t.text, an.other) {
					return t.text, an, true
				}
				continue
			}
			for _, u := range uc {
				if !clauseSays(u, an.other) || clauseSays(u, t.text) {
					continue
				}
				if shared(rest, u.stems) >= max(min(1, len(rest)), need(len(rest))) {
					return t.text, an, true
				}
			}
		}
	}
	return "", antonym{}, false
}

// pairOrder spells the order in which cls say a and b: "ab", "ba", "aba".
func pairOrder(cls []clauseInfo, a, b string) string {
	var out []byte
	for _, cl := range cls {
		switch {
		case clauseSays(cl, a):
			out = append(out, 'a')
		case clauseSays(cl, b):
			out = append(out, 'b')
		}
	}
	return string(out)
}

// saysCount counts the words of cls that are w or have w's stem (Korean: start with w).
func saysCount(cls []clauseInfo, w string) int {
	n := 0
	for _, cl := range cls {
		n += clauseCount(cl, w)
	}
	return n
}

// clauseSays reports a clause word that is w or has w's stem (Korean: starts with w).
func clauseSays(cl clauseInfo, w string) bool {
	return clauseCount(cl, w) > 0
}

// clauseCount counts the clause words that are w or have w's stem (Korean: start with w).
func clauseCount(cl clauseInfo, w string) int {
	ws, n := wordStem(w), 0
	for _, t := range cl.toks {
		if t.kind != tWord && t.kind != tHangul {
			continue
		}
		if t.text == w || wordStem(t.text) == ws || t.kind == tHangul && strings.HasPrefix(t.text, w) {
			n++
		}
	}
	return n
}

func without(list []string, s string) []string {
	var out []string
	for _, x := range list {
		if x != s {
			out = append(out, x)
		}
	}
	return out
}

// best returns the clause of ms sharing most stems with cl.
func best(cl clauseInfo, ms []clauseInfo) clauseInfo {
	b, bn := ms[0], -1
	for _, m := range ms {
		if n := shared(cl.stems, m.stems); n > bn {
			b, bn = m, n
		}
	}
	return b
}

// antonymsOf finds a word's antonyms: by the word, by its stem (excluded, exclude), or
// (Russian, Korean) by an entry it starts with. A word can have one in several languages
// (antes: después, depois).
func antonymsOf(x *stmtLexicon, w string) []antonym {
	if an := x.antonym[w]; an != nil {
		return an
	}
	if an := x.antonymStem[wordStem(w)]; an != nil {
		return an
	}
	if isASCIIWord(w) {
		return nil
	}
	for _, k := range sortedAntonymKeys(x) {
		if strings.HasPrefix(w, k) && !isASCIIWord(k) && (isHangulWord(k) || len([]rune(k)) >= 5) {
			return x.antonym[k]
		}
	}
	return nil
}

// sortedAntonymKeys returns the lexicon's antonym words in order, for deterministic lookups.
func sortedAntonymKeys(x *stmtLexicon) []string {
	out := make([]string, 0, len(x.antonym))
	for k := range x.antonym {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// cjkAntonymIn finds a run of Chinese or Japanese that one of ms writes with a character or
// two exchanged for their antonyms, or a word of two characters or more that one of them says
// instead of its antonym with most of the clause's other stems (優先されます said 同等に扱います).
func cjkAntonymIn(cl clauseInfo, ms []clauseInfo) (string, string, bool) {
	for _, m := range ms {
		if a, b, ok := cjkAntonym(cl, m); ok {
			return a, b, true
		}
	}
	text := cjkText(cl)
	for _, a := range slex().cjkAntonymWords() {
		if !strings.Contains(text, a) {
			continue
		}
		rest := cl.stems
		for _, r := range a {
			rest = without(rest, string(r))
		}
		for _, an := range slex().antonym[a] {
			for _, m := range ms {
				mt := cjkText(m)
				if strings.Contains(text, an.other) || !strings.Contains(mt, an.other) || strings.Contains(mt, a) {
					continue
				}
				if len(rest) > 0 && shared(rest, m.stems) >= need(len(rest)) {
					return a, an.other, true
				}
			}
		}
	}
	return "", "", false
}

// cjkText joins a clause's runs of Chinese and Japanese.
func cjkText(cl clauseInfo) string {
	var b strings.Builder
	for _, t := range cl.toks {
		if t.kind == tCJK {
			b.WriteString(t.text)
			b.WriteByte(' ')
		}
	}
	return b.String()
}

// cjkAntonymWords returns the lexicon's Chinese and Japanese antonyms of two characters or
// more, sorted: one character (上, 大) is too often part of another word to be read alone.
func (x *stmtLexicon) cjkAntonymWords() []string { return x.cjkAnt }

// buildCJKAntonymWords lists the words cjkAntonymWords returns.
func (x *stmtLexicon) buildCJKAntonymWords() []string {
	var out []string
	for w := range x.antonym {
		if r, _ := utf8.DecodeRuneInString(w); isCJK(r) && utf8.RuneCountInString(w) >= 2 {
			out = append(out, w)
		}
	}
	sort.Strings(out)
	return out
}

// cjkAntonym finds a run of Chinese or Japanese that the counterpart writes with the same
// characters but one or two exchanged for their antonyms (相对 for 绝对, 前 for 后). A single
// character exchanged is also read with its neighbour, as the two-character word it may belong
// to (相对 and 绝对 differ in 相 and 绝 only).
func cjkAntonym(cl, m clauseInfo) (string, string, bool) {
	x := slex()
	for _, t := range cl.toks {
		if t.kind != tCJK {
			continue
		}
		or := []rune(t.text)
		for _, v := range m.toks {
			if v.kind != tCJK || v.text == t.text {
				continue
			}
			if a, b, ok := cjkExchanged(x, or, []rune(v.text)); ok {
				return a, b, true
			}
		}
	}
	return "", "", false
}

// cjkExchanged compares two runs of the same length differing in one or two characters and
// returns the antonyms exchanged.
func cjkExchanged(x *stmtLexicon, or, ur []rune) (string, string, bool) {
	if len(ur) != len(or) {
		return "", "", false
	}
	var diff []int
	for i := range or {
		if or[i] != ur[i] {
			diff = append(diff, i)
		}
	}
	if len(diff) == 0 || len(diff) > 2 || len(diff) == 2 && diff[1] != diff[0]+1 {
		return "", "", false
	}
	lo, hi := diff[0], diff[len(diff)-1]+1
	for _, w := range [][2]int{{lo, hi}, {lo, lo + 1}, {lo - 1, hi}, {lo, hi + 1}} {
		if w[0] < 0 || w[1] > len(or) || w[1] <= w[0] {
			continue
		}
		if a, b := string(or[w[0]:w[1]]), string(ur[w[0]:w[1]]); isAntonym(x, a, b) {
			return a, b, true
		}
	}
	return "", "", false
}

// isAntonym reports a and b as antonyms in the lexicon.
func isAntonym(x *stmtLexicon, a, b string) bool {
	for _, an := range x.antonym[a] {
		if an.other == b {
			return true
		}
	}
	return false
}

// sequencePass reports a sequence the counterparts reorder: arrows (A → B → C), a lead's list
// ("Order: a, b, c") or clauses marked first and then.
func (c *stmtCompare) sequencePass(s, u *stmt, oc, uc []clauseInfo) {
	if a, b, ok := preferenceReversed(oc, uc); ok {
		c.drop(Token{TypeOrder, strings.Join(a, " ") + " > " + strings.Join(b, " ")}, s, u,
			fmt.Sprintf("the preference for %q over %q is reversed", strings.Join(a, " "), strings.Join(b, " ")))
		return
	}
	ao, au := withoutLead(arrowSegments(oc), arrowSegments(uc))
	co, cu := withoutLead(chainSegments(oc), chainSegments(uc))
	for _, seq := range [][2][][]string{{ao, au}, {co, cu}, {afterSegments(oc), afterSegments(uc)}, {leadSegments(oc), leadSegments(uc)}, {markedSegments(oc), markedSegments(uc)}, markedSteps(oc, uc)} {
		if i, j, ok := reordered(seq[0], seq[1]); ok {
			c.drop(Token{TypeOrder, strings.Join(seq[0][i], " ") + " before " + strings.Join(seq[0][j], " ")}, s, u,
				fmt.Sprintf("order of %q and %q reversed", strings.Join(seq[0][i], " "), strings.Join(seq[0][j], " ")))
			return
		}
	}
}

// preference is a clause's two sides around a preference joiner: the chosen and the other,
// and of each the stem next to the joiner (its operand: "フィーチャーブランチ" and
// "フィーチャーフラグ" in "フィーチャーブランチではなく フィーチャーフラグ を使って").
type preference struct {
	chosen, other     []string
	chosenAt, otherAt string
}

// preferences reads the preferences of clauses ("muestras cacheadas sobre escaneos repetidos",
// "フィーチャーブランチではなく フィーチャーフラグ", "assertion보다 타입 가드 우선").
func preferences(cls []clauseInfo) []preference {
	var out []preference
	for ci, cl := range cls {
		if p, ok := clausePreference(cl, sentenceBefore(cls, ci)); ok {
			out = append(out, p)
		}
	}
	return out
}

// sentenceBefore returns the stems of the clauses before clause ci in its sentence, back to
// the first one a comma does not continue: a joiner opening a clause ("..., 而不是物化整个
// workbook", "..., rather than Y") takes them as its first side.
func sentenceBefore(cls []clauseInfo, ci int) []string {
	var before []string
	for k := ci - 1; k >= 0 && cls[k].sentence == cls[ci].sentence; k-- {
		before = append(append([]string(nil), cls[k].stems...), before...)
		if !cls[k].comma {
			break
		}
	}
	return before
}

// clausePreference reads the preference of a clause's first joiner, if it has one.
func clausePreference(cl clauseInfo, before []string) (preference, bool) {
	x := slex()
	toks := unelided(cl.toks) // preference_verb.go
	words := clauseWordsOf(toks)
	for i, t := range toks {
		dir, width := 0, 1
		switch t.kind {
		case tWord:
			for k := min(3, len(words)-i); k >= 1 && dir == 0; k-- {
				if d, ok := x.pref[strings.Join(words[i:i+k], " ")]; ok {
					dir, width = d, k
				}
			}
		case tHangul:
			if d, ok := x.pref[t.text]; ok {
				dir = d // "assertion 보다 타입 가드": the joiner on its own
			} else if j := hangulJoinerSuffix(t.text); j != "" {
				// "assertion보다": the word before the joiner is the other side.
				left := clauseStems(append(append([]ctok(nil), toks[:i]...), ctok{tHangul, strings.TrimSuffix(t.text, j)}))
				return sides(left, clauseStems(toks[i+1:]), -1)
			}
		case tCJK:
			if p, ok, found := cjkPreference(x, toks, i, before); found {
				return p, ok
			}
		}
		if dir != 0 {
			left := clauseStems(toks[:i])
			if len(left) == 0 {
				left = before
			}
			return sides(left, clauseStems(toks[i+width:]), dir)
		}
	}
	return verbPreference(toks)
}

// hangulJoinerSuffix returns the comparison ending a Korean word carries ("assertion보다"), or
// "".
func hangulJoinerSuffix(w string) string {
	for _, j := range []string{"보다는", "보다"} {
		if strings.HasSuffix(w, j) && w != j {
			return j
		}
	}
	return ""
}

// cjkPreference reads a preference joiner inside the run of Chinese or Japanese text at token
// i: found is true when the run holds one, ok when both its sides have words (the side before
// it, when empty, is the sentence before).
func cjkPreference(x *stmtLexicon, toks []ctok, i int, before []string) (p preference, ok, found bool) {
	t := toks[i]
	for _, e := range x.cjkPref {
		k := strings.Index(t.text, e.text)
		if k < 0 {
			continue
		}
		prev := append(append([]ctok(nil), toks[:i]...), ctok{tCJK, t.text[:k]})
		after := append([]ctok{{tCJK, t.text[k+len(e.text):]}}, toks[i+1:]...)
		left := clauseStems(prev)
		if len(left) == 0 {
			left = before
		}
		p, ok = sides(left, clauseStems(after), e.level)
		return p, ok, true
	}
	return preference{}, false, false
}

// sides orders a preference's stems: the chosen side and the other.
func sides(left, right []string, dir int) (preference, bool) {
	if len(left) == 0 || len(right) == 0 {
		return preference{}, false
	}
	p := preference{chosen: left, other: right, chosenAt: left[len(left)-1], otherAt: right[0]}
	if dir < 0 {
		p = preference{chosen: right, other: left, chosenAt: right[0], otherAt: left[len(left)-1]}
	}
	return p, true
}

// preferenceReversed reports a preference of o that u states the other way round: o's chosen
// side is u's other and o's other u's chosen, more than they are each other's same side. A
// side is measured against the shorter of the two (a list on one side may be cut short on
// the other: "A、B 和 C，而不是 D" → "D，而不是 A、B 和 C").
func preferenceReversed(oc, uc []clauseInfo) ([]string, []string, bool) {
	up := preferences(uc)
	for _, p := range preferences(oc) {
		for _, q := range up {
			cross1, cross2 := shared(p.chosen, q.other), shared(p.other, q.chosen)
			if cross1 >= need(min(len(p.chosen), len(q.other))) && cross2 >= need(min(len(p.other), len(q.chosen))) &&
				shared(p.chosen, q.chosen) < cross1 && shared(p.other, q.other) < cross2 {
				return p.chosen, p.other, true
			}
			// The two operands next to the joiner changed sides, whatever context each side has.
			if p.chosenAt != p.otherAt && containsStr(q.other, p.chosenAt) && !containsStr(q.chosen, p.chosenAt) &&
				containsStr(q.chosen, p.otherAt) && !containsStr(q.other, p.otherAt) {
				return []string{p.chosenAt}, []string{p.otherAt}, true
			}
		}
	}
	return nil, nil, false
}

// arrowSegments cuts a chain at its arrows: the stems of each step. A chain runs on across the
// clauses a step's parenthesis or comma cuts it into ("`lint` (0 errors, strict) → `type` →
// `build`"), from the first clause with an arrow to the last.
func arrowSegments(cls []clauseInfo) [][]string {
	first, last := -1, -1
	for i, cl := range cls {
		for _, t := range cl.toks {
			if t.kind == tArrow {
				if first < 0 {
					first = i
				}
				last = i
				break
			}
		}
	}
	if first < 0 {
		return nil
	}
	var out [][]string
	var cur []ctok
	flush := func() {
		if st := clauseStems(cur); len(st) > 0 {
			out = append(out, st)
		}
		cur = nil
	}
	for _, cl := range cls[first : last+1] {
		for _, t := range cl.toks {
			if t.kind == tArrow {
				flush()
				continue
			}
			cur = append(cur, t)
		}
	}
	flush()
	return out
}

// chainSegments cuts the first clause that says one chain word twice or more ("docs before the
// CLI before the server", "Staging vor Canary vor Produktion") at that word: the stems of each
// item of the chain, from after a lead's colon on.
func chainSegments(cls []clauseInfo) [][]string {
	x := slex()
	for _, cl := range cls {
		count := map[string]int{}
		for _, t := range cl.toks {
			if t.kind == tWord && x.chain[t.text] {
				count[t.text]++
			}
		}
		for _, t := range cl.toks {
			if count[t.text] >= 2 && t.kind == tWord {
				return cutAt(cl.toks, t.text)
			}
		}
	}
	return nil
}

// afterSegments cuts the first clause holding a Korean "후" (after: "모든 에러 해결 후 커밋", fix
// every error, then commit) at it: what comes before it is done first.
func afterSegments(cls []clauseInfo) [][]string {
	for _, cl := range cls {
		for i, t := range cl.toks {
			if t.kind != tHangul || t.text != "후" && t.text != "후에" {
				continue
			}
			a, b := clauseStems(cl.toks[:i]), clauseStems(cl.toks[i+1:])
			if len(a) > 0 && len(b) > 0 {
				return [][]string{a, b}
			}
		}
	}
	return nil
}

// cutAt cuts toks at every word w, from after the last colon before the first w on, into the
// stems of each piece.
func cutAt(toks []ctok, w string) [][]string {
	from := 0
	for i, t := range toks {
		if t.kind == tWord && t.text == w {
			break
		}
		if t.kind == tColon {
			from = i + 1
		}
	}
	var out [][]string
	var cur []ctok
	for _, t := range append(toks[from:len(toks):len(toks)], ctok{kind: tWord, text: w}) {
		if t.kind == tWord && t.text == w {
			if st := clauseStems(cur); len(st) > 0 {
				out = append(out, st)
			}
			cur = nil
			continue
		}
		cur = append(cur, t)
	}
	return out
}

// leadSegments returns the items after a lead ("Порядок: код, документация, гейты").
func leadSegments(cls []clauseInfo) [][]string {
	for i, cl := range cls {
		if !cl.lead {
			continue
		}
		var out [][]string
		if st := clauseStems(cl.toks[2:]); len(st) > 0 {
			out = append(out, st)
		}
		for _, n := range cls[i+1:] {
			if n.sentence != cl.sentence {
				break
			}
			if len(n.stems) > 0 {
				out = append(out, n.stems)
			}
		}
		return out
	}
	return nil
}

// markedSegments returns the clauses marked first, then and last, in that order.
func markedSegments(cls []clauseInfo) [][]string {
	var marked []clauseInfo
	for i, cl := range cls {
		if cl.seq == seqThen && i > 0 && cls[i-1].seq < 0 && cls[i-1].sentence == cl.sentence && len(cls[i-1].stems) > 0 {
			// "Run A, then run B": the clause before the first "then" comes first
			first := cls[i-1]
			first.seq, first.seqSegs = seqFirst, [][]string{first.stems}
			marked = append(marked, first)
		}
		if cl.seq >= 0 {
			cl.seqSegs = seqSegsOf(cls, i)
			marked = append(marked, cl)
		}
	}
	if len(marked) == 0 || len(marked) == 1 && len(marked[0].seqSegs) < 2 {
		return nil
	}
	sort.SliceStable(marked, func(i, j int) bool { return marked[i].seq < marked[j].seq })
	var out [][]string
	for _, cl := range marked {
		out = append(out, cl.seqSegs...)
	}
	return out
}

// withoutLead strips from the first steps of two chains (arrows, a repeated joiner) the stems
// they share when each keeps others: the lead of a chain ("CI: lint -> tests", "Run lint -> tests") is not its first step,
// and "CI: tests -> lint" must map lint to the second.
func withoutLead(o, u [][]string) ([][]string, [][]string) {
	if len(o) < 2 || len(u) < 2 {
		return o, u
	}
	var lead []string
	for _, st := range o[0] {
		if containsStr(u[0], st) {
			lead = append(lead, st)
		}
	}
	if len(lead) == 0 || len(lead) == len(o[0]) || len(lead) == len(u[0]) {
		return o, u
	}
	strip := func(seg []string) []string {
		var out []string
		for _, st := range seg {
			if !containsStr(lead, st) {
				out = append(out, st)
			}
		}
		return out
	}
	o = append([][]string{strip(o[0])}, o[1:]...)
	u = append([][]string{strip(u[0])}, u[1:]...)
	return o, u
}

// reordered maps each segment of o to the segment of u sharing most of its stems and reports
// the first two whose places are exchanged.
func reordered(o, u [][]string) (int, int, bool) {
	if len(o) < 2 || len(u) < 2 {
		return 0, 0, false
	}
	pos := make([]int, len(o))
	for i, seg := range o {
		pos[i] = -1
		bestN := 0
		for j, v := range u {
			if n := shared(seg, v); n > bestN {
				pos[i], bestN = j, n
			}
		}
	}
	last := -1
	lastI := -1
	for i, p := range pos {
		if p < 0 {
			continue
		}
		if p < last {
			return lastI, i, true
		}
		last, lastI = p, i
	}
	return 0, 0, false
}

// bindingPass reports a statement its counterpart rewrites with the same words and operands
// but pairs differently ("`--head N` for the first lines, `--tail N` for the last" with first
// and last exchanged): each operand's next content word must stay with it.
func (c *stmtCompare) bindingPass(s, u *stmt, oc, uc []clauseInfo) {
	if !sameBag(oc, uc) {
		return
	}
	if a, b, ok := clausesRegrouped(oc, uc); ok && !modifiersReordered(oc, uc) && !contrastRegrouped(oc, uc) { // contrast_regroup.go
		c.drop(Token{TypeBindingSwap, a}, s, u, fmt.Sprintf("the words of %q now read %q", a, b))
		return
	}
	ob, ub := operandPairs(oc), operandPairs(uc)
	if len(ob) < 2 {
		return
	}
	for _, k := range sortedKeys(ob) {
		w, ok := ub[k]
		if !ok || w == ob[k] {
			continue
		}
		op, oside, _ := strings.Cut(ob[k], "|")
		wp, wside, _ := strings.Cut(w, "|")
		for _, k2 := range sortedKeys(ob) {
			if k2 == k {
				continue
			}
			p2, n2, _ := strings.Cut(ob[k2], "|")
			// The operand took a word that went with another operand: the two traded places.
			if wp != op && wp != "" && wp == p2 || wside != oside && wside != "" && wside == n2 {
				c.drop(Token{TypeBindingSwap, k + " / " + k2}, s, u, fmt.Sprintf("%s and %s trade their words", k, k2))
				return
			}
		}
	}
}

// clausesRegrouped reports clauses whose words trade places between clauses while the statement
// keeps every word ("Cast = async, Call = sync" become "Cast = sync, Call = async"); clauses moved
// whole (a list reordered) regroup nothing.
func clausesRegrouped(oc, uc []clauseInfo) (string, string, bool) {
	if len(oc) != len(uc) {
		return "", "", false // cut differently (a parenthesis, a merge): nothing regrouped
	}
	count := map[string]int{}
	for _, cl := range uc {
		count[strings.Join(sortedStems(cl), " ")]++
	}
	for _, cl := range oc {
		k := strings.Join(sortedStems(cl), " ")
		if count[k] > 0 {
			count[k]--
			continue
		}
		for _, u := range uc {
			if shared(cl.stems, u.stems) > 0 && strings.Join(sortedStems(u), " ") != k {
				return cl.text, u.text, true
			}
		}
		return cl.text, "", true
	}
	return "", "", false
}

func sortedStems(cl clauseInfo) []string {
	s := append([]string(nil), cl.stems...)
	sort.Strings(s)
	return s
}

// operandPairs pairs each operand (code span, number) of the clauses with the content words
// around it: the one before and the one after.
func operandPairs(cls []clauseInfo) map[string]string {
	out := map[string]string{}
	for _, cl := range cls {
		for i, t := range cl.toks {
			if t.kind != tCode && t.kind != tNum {
				continue
			}
			if _, dup := out[t.text]; dup {
				out[t.text] = "\x00" // an operand said twice pairs with nothing certain
				continue
			}
			out[t.text] = neighbour(cl.toks[:i], true) + "|" + neighbour(cl.toks[i+1:], false)
		}
	}
	for k, v := range out {
		if v == "\x00" || v == "|" {
			delete(out, k)
		}
	}
	return out
}

func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// neighbour returns the content word nearest to an operand: the last of toks (before it) or
// the first (after it), stopping at another operand.
func neighbour(toks []ctok, before bool) string {
	x := slex()
	for k := range toks {
		n := toks[k]
		if before {
			n = toks[len(toks)-1-k]
		}
		if n.kind == tCode || n.kind == tNum {
			return ""
		}
		if n.kind == tWord && (x.stop[n.text] || lex().stop[n.text]) || n.kind == tArrow || n.kind == tColon {
			continue
		}
		return n.text
	}
	return ""
}

// sameBag reports two clause lists with the same tokens, counted.
func sameBag(a, b []clauseInfo) bool {
	count := map[ctok]int{}
	for _, cl := range a {
		for _, t := range cl.toks {
			count[t]++
		}
	}
	for _, cl := range b {
		for _, t := range cl.toks {
			count[t]--
		}
	}
	for _, n := range count {
		if n != 0 {
			return false
		}
	}
	return true
}

// droppedPass checks a statement no result statement carries: each of its facts must be stated
// in its section of the result (anywhere when the result has no such section), and each of its
// rules and conditions by some result clause.
func (c *stmtCompare) droppedPass(s *stmt) {
	if c.nearRepeat(s) {
		return
	}
	scope := c.scopeOf(s.sect)
	aliases := c.o.aliases()
	rep := c.repeatOf(s)
	facts := append(append([]Token(nil), s.facts...), wordFacts(c.o.clausesOf(s))...)
	for _, t := range facts {
		if !c.isStmtFact(t) || keptFact(t, scope, aliases) || shortenedCompound(t, s.text(), scope) || c.repeatSays(rep, t, aliases) {
			continue
		}
		c.drop(t, s, nil, fmt.Sprintf("%s not said elsewhere in its section", t.Value))
	}
	if c.cfg.skipType[TypePolarity] {
		return
	}
	var rc *clauseIndex
	for _, cl := range c.o.clausesOf(s) {
		// A removed statement's rule must be stated elsewhere when it forbids, binds or prefers
		// explicitly, or restricts ("only", "unless"); a hedge or a bare "if" is no rule.
		strong := cl.level < 0 || cl.level >= 2 && !cl.weak || cl.level == 2 || containsStr(cl.conds, condOnly) || containsStr(cl.conds, condExcept)
		if cl.modal == "" && !containsStr(cl.conds, condOnly) && !containsStr(cl.conds, condExcept) || !strong || len(cl.stems) < 2 {
			continue
		}
		if rc == nil {
			rc = c.scopeClauses(s.sect)
		}
		if !ruleKept(cl, rc.candidates(cl.stems, need(len(cl.stems)))) && !c.repeatRules(rep, cl) && !translatedRuleKept(cl, rc.candidates(cl.stems, 1)) {
			typ, what := TypePolarity, "rule "+levelWord(cl)
			if cl.modal == "" {
				// a bare "only"/"unless" clause restricts the rule beside it: a condition
				typ, what = TypeCondition, fmt.Sprintf("condition %q", condWordsText(cl, ""))
			}
			c.drop(Token{typ, ruleKey(cl)}, s, nil, what+" not restated")
		}
	}
}

// nearRepeat reports a removed statement that repeats, nearly word for word, a statement the
// result keeps unchanged elsewhere (another section saying the same field's rule): every fact
// of it and alignMinRepeat of its stems, three at least, where the result wrote nothing new in
// its section (a statement replaced by another is no repeat removed). Candidates are found by
// the statement's facts, so a statement without any is never a near repeat.
func (c *stmtCompare) nearRepeat(s *stmt) bool {
	if len(s.facts) == 0 || c.a.rewritten[s.sect] || len(c.o.stemsOf(s)) < 3 {
		return false
	}
	c.keptIndex()
	stems := c.o.stemsOf(s)
	for _, cand := range c.kept[s.facts[0].Key()] {
		if cand.id == s.id || !hasAllFacts(cand, s) {
			continue
		}
		if float64(shared(stems, c.o.stemsOf(cand))) >= alignMinRepeat*float64(len(stems)) {
			return true
		}
	}
	return false
}

// keptIndex indexes, once, the original statements the result keeps unchanged by their facts.
func (c *stmtCompare) keptIndex() {
	if c.kept != nil {
		return
	}
	c.kept = map[string][]*stmt{}
	for _, o := range c.o.stmts {
		if c.a.same[o.id] {
			for _, f := range o.facts {
				c.kept[f.Key()] = append(c.kept[f.Key()], o)
			}
		}
	}
}

// hasAllFacts reports a statement stating every fact of s.
func hasAllFacts(cand, s *stmt) bool {
	for _, f := range s.facts {
		if !containsTok(cand.facts, f) {
			return false
		}
	}
	return true
}

// ruleKept reports a result clause restating a rule: two thirds of its stems, its direction and
// at least its strength.
func ruleKept(cl clauseInfo, rc []clauseInfo) bool {
	lo := effLevel(cl.level)
	for _, u := range rc {
		if shared(cl.stems, u.stems) < need(len(cl.stems)) {
			continue
		}
		lu := effLevel(u.level)
		if sign(lu) == sign(lo) && (absInt(lu) >= absInt(lo) || cl.modal == "") {
			return true
		}
	}
	return false
}

// scopeOf returns the facts and words of the result's section sect, or of the whole result when
// it has no such section.
func (c *stmtCompare) scopeOf(sect string) *factSet {
	if c.scope == nil {
		c.scope = map[string]*factSet{}
		c.whole = &factSet{facts: map[string]bool{}, words: map[string]bool{}}
		for _, u := range c.r.stmts {
			fs := c.scope[u.sect]
			if fs == nil {
				fs = &factSet{facts: map[string]bool{}, words: map[string]bool{}}
				c.scope[u.sect] = fs
			}
			c.addFacts(fs, c.r, u)
			c.addFacts(c.whole, c.r, u)
		}
	}
	if fs := c.scope[sect]; fs != nil {
		return fs
	}
	return c.whole
}

// scopeClauses returns the clauses of the result's section sect (of the whole result without it),
// indexed by stem; built once per section.
func (c *stmtCompare) scopeClauses(sect string) *clauseIndex {
	if c.rules == nil {
		c.rules = map[string]*clauseIndex{}
		by := map[string][]clauseInfo{}
		var all []clauseInfo
		for _, u := range c.r.stmts {
			cl := c.r.clausesOf(u)
			all = append(all, cl...)
			by[u.sect] = append(by[u.sect], cl...)
		}
		for s, cls := range by {
			c.rules[s] = newClauseIndex(cls)
		}
		c.rules["\x00all"] = newClauseIndex(all)
	}
	if x := c.rules[sect]; x != nil && sect != "\x00all" {
		return x
	}
	return c.rules["\x00all"]
}

// listOrderPass reports two steps of a numbered list the result puts in the other order.
func (c *stmtCompare) listOrderPass() {
	lists := map[int][]*stmt{}
	var ids []int
	for _, s := range c.o.stmts {
		if s.list < 0 {
			continue
		}
		if _, ok := lists[s.list]; !ok {
			ids = append(ids, s.list)
		}
		lists[s.list] = append(lists[s.list], s)
	}
	for _, id := range ids {
		var prev *stmt
		for _, s := range lists[id] {
			to := c.a.to[s.id]
			if len(to) == 0 {
				continue
			}
			if prev != nil {
				pu := c.a.to[prev.id][0]
				if to[0] != pu && to[0].id < pu.id {
					c.drop(Token{TypeOrder, fmt.Sprintf("step %q before %q", shortKey(prev), shortKey(s))}, s, to[0],
						fmt.Sprintf("steps at lines %d and %d now in the other order", prev.firstLine(), s.firstLine()))
					break
				}
			}
			prev = s
		}
	}
}

func shortKey(s *stmt) string {
	t := s.key
	if r := []rune(t); len(r) > 40 {
		t = string(r[:37]) + "..."
	}
	return t
}

// swapPass turns two value drops that trade places into one binding swap: a statement lost v
// and its counterpart says w, while another lost w and says v (`DISK_FULL` (exit 28) and
// `QUOTA_EXCEEDED` (exit 30) becoming 30 and 28).
func (c *stmtCompare) swapPass() {
	if c.cfg.noBinding || c.cfg.skipType[TypeBindingSwap] {
		return
	}
	var keep []Drop
	used := map[int]bool{}
	for i, d := range c.drops {
		if used[i] || d.Type != TypeNumber || d.Result == "" {
			continue
		}
		for j := i + 1; j < len(c.drops); j++ {
			e := c.drops[j]
			if used[j] || e.Type != TypeNumber || e.Result == "" || e.Line == d.Line {
				continue
			}
			if strings.Contains(d.Result, e.Value) && strings.Contains(e.Result, d.Value) {
				used[i], used[j] = true, true
				keep = append(keep, Drop{Token: Token{TypeBindingSwap, d.Value + "<->" + e.Value}, Line: d.Line, Source: d.Source,
					Statement: d.Statement, Result: d.Result, ResultLine: d.ResultLine,
					Note: fmt.Sprintf("%s and %s trade places with line %d", d.Value, e.Value, e.Line)})
				break
			}
		}
	}
	for i, d := range c.drops {
		if !used[i] {
			keep = append(keep, d)
		}
	}
	c.drops = keep
}

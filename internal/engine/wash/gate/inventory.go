package gate

import (
	"bytes"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/prosewash/prosewash/internal/engine/wash/frontmatter"
	"github.com/prosewash/prosewash/internal/engine/wash/mdline"
)

// lineClass separates distinct lines by what they are as well as what they say: the same text
// as prose and as code carries different tokens.
type lineClass uint8

const (
	classProse lineClass = iota
	classFenced
	classIndented
	classFront
)

type lineKey struct {
	class lineClass
	text  string
}

// distinctLine is one distinct line of a file with the tokens it carries (with multiplicity).
type distinctLine struct {
	id    int // index in first-occurrence order
	first int // 1-based line number of its first occurrence
	n     int // occurrences in the file
	from  int // prose: the length of its block markers (list marker, heading hashes)
	words []string
	// local are the tokens read from the line alone; toks adds those its first occurrence got
	// from its paragraph and front matter (names, front matter values).
	local, toks []Token
	bind        *binding
	cbind       *binding // the line's code spans bound to their subjects
	scan        lineScan
}

// binding records which subject word precedes each value on a prose line carrying two or more
// different values; it lets the gate see values trading places between subjects.
type binding struct {
	sig   string // sorted values: the line's value multiset
	words string // sorted subject words
	pairs string // sorted word=value pairs
	show  string // word=value pairs in line order, for the report and the approval key
}

// Inv is the structured-token inventory of one file.
type Inv struct {
	keys   []lineKey // per line, index = line number - 1
	lines  map[lineKey]*distinctLine
	order  []lineKey // distinct lines in first-occurrence order
	counts map[Token]int
	where  map[Token][]lineKey // distinct lines carrying a token, in order
	binds  map[string][]*binding
	fm     frontmatter.Result
	// srcOf names the source file of each distinct line when the inventory is a union.
	srcOf map[*distinctLine]string
	// sect holds, per section (keyed by its heading path), each token's most occurrences on
	// one line of the section; counts are their sums. A value said three times in one section
	// counts once, so a summary may say it once.
	sect map[string]map[Token]int
	// words counts every prose word (lowercased) the same way, so a name the original spelled
	// "Move" survives as "move" in the result; built on first use (see wordCounts).
	words    map[string]int
	wordSect map[string]map[string]int // the same, per section
	dls      []*distinctLine           // per line, its distinct line
	kinds    []mdline.Kind             // per line, the kind it is read as
	secOf    []string                  // per line, its section
	pol      []polFact                 // polarity facts, one per key
	clauses  []clauseFact              // every clause group of the prose, for contradictions
	polx     *polIndex                 // built on first use
	polAt    []lineKey                 // the distinct line of each polarity fact
	pairs    []pairFact                // ordered pairs, one per key
	stray    []mdline.Stray
	stmts    []*stmt             // the statements (paragraphs, items, rows, headings) in order
	anchors  *anchorIndex        // statements by key and by code span, built on first use (scope.go)
	ctx      [][]Token           // per line, the tokens its paragraph gave it (names)
	alias    map[string][]string // aliases the text defines (built on first use)
	ptFile   int8                // 1 for a Portuguese file, -1 for another, 0 before it is read (stmt.go)
}

// Inventory extracts the structured tokens of text.
func Inventory(text []byte) *Inv {
	return inventory(text, checks{})
}

func inventory(text []byte, cfg checks) *Inv {
	doc := mdline.Parse(text)
	inv := &Inv{
		keys:   make([]lineKey, len(doc.Lines)),
		lines:  make(map[lineKey]*distinctLine),
		counts: make(map[Token]int),
		where:  make(map[Token][]lineKey),
		binds:  make(map[string][]*binding),
		fm:     doc.FM,
		sect:   make(map[string]map[Token]int),
		stray:  doc.StrayFences(),
	}
	kinds := readKinds(doc, text, cfg)
	dls := make([]*distinctLine, len(doc.Lines)) // per line, its distinct line
	for i, l := range doc.Lines {
		raw := bytes.TrimRight(l.Text(text), " \t\r")
		key := lineKey{text: string(raw)}
		switch kinds[i] {
		case mdline.Fenced, mdline.Fence:
			// A fence delimiter carries its info string (the language) but no facts.
			key.class = classFenced
		case mdline.Indented:
			key.class = classIndented
		case mdline.FrontMatter:
			key.class = classFront
		}
		inv.keys[i] = key
		if dl, ok := inv.lines[key]; ok {
			dl.n++
			dls[i] = dl
			continue
		}
		dl := &distinctLine{id: len(inv.order), first: i + 1, n: 1}
		dls[i] = dl
		inv.lines[key] = dl
		inv.order = append(inv.order, key)
		add := func(t Token) { dl.local = append(dl.local, t) }
		switch kinds[i] {
		case mdline.Blank, mdline.Fence, mdline.ThematicBreak, mdline.SetextUnderline, mdline.TableSep:
		case mdline.Fenced:
			if v := collapse(raw); v != "" {
				add(Token{TypeFenced, v})
			}
		case mdline.Indented:
			if v := collapse(raw); v != "" {
				add(Token{TypeIndented, v})
			}
		default:
			ord := 0
			if kinds[i] == mdline.Text || kinds[i] == mdline.Heading {
				ord = ordinalLen(raw)
			}
			var vals []valuePos
			lc := cfg
			lc.frontLine = kinds[i] == mdline.FrontMatter
			vals, dl.scan = lineTokens(key.text, ord, add, lc)
			if !cfg.noBinding {
				dl.bind = makeBinding(key.text, vals)
				dl.cbind = makeCodeBinding(key.text, dl.scan.codes)
			}
		}
		for _, b := range []*binding{dl.bind, dl.cbind} {
			if b != nil {
				inv.binds[b.sig] = append(inv.binds[b.sig], b)
			}
		}
	}
	ctx := make([][]Token, len(doc.Lines)) // per line: tokens from its paragraph and front matter
	inv.dls, inv.kinds = dls, kinds
	inv.readSentences(doc, text, kinds, dls, cfg, ctx)
	if !cfg.skipType[TypeFrontValue] {
		frontValues(doc, text, func(i int, t Token) { ctx[i] = append(ctx[i], t) })
	}
	inv.count(doc, text, kinds, dls, ctx)
	inv.ctx = ctx
	inv.finishStatements(doc, text, ctx)
	if doc.FM.State == frontmatter.Closed {
		for _, k := range doc.FM.Keys {
			t := Token{TypeFrontKey, k}
			inv.counts[t] = 1
			if kl := frontKeyLine(doc, text, k); kl >= 0 {
				inv.where[t] = []lineKey{inv.keys[kl]}
			}
		}
	}
	return inv
}

// readKinds returns the kind the gate reads each line as. It is mdline's, except after a stray
// fence: the lines a fence swallows by mistake are read as the Markdown their author wrote
// (headings, lists, tables), and only those that look like code stay code. Reading them all as
// code would make every honest edit of that prose a dropped code line; reading them all as prose
// would let a real code line go unnoticed.
func readKinds(doc *mdline.Doc, text []byte, cfg checks) []mdline.Kind {
	kinds := make([]mdline.Kind, len(doc.Lines))
	for i, l := range doc.Lines {
		kinds[i] = l.Kind
	}
	if cfg.noStrayRead {
		return kinds
	}
	for _, st := range doc.StrayFences() {
		if st.Inner > 0 && unclosedStray(doc, st) {
			toggledKinds(doc, st, kinds, cfg)
			continue
		}
		last := st.End // 1-based, inclusive
		if st.Inner > 0 {
			last = st.Inner - 1
			kinds[st.Inner-1] = mdline.Fence
		}
		if last <= st.Line {
			continue
		}
		from, to := doc.Lines[st.Line].Start, doc.Lines[last-1].End
		rereadKinds(mdline.Parse(text[from:to]), st.Line, last, kinds, cfg)
	}
	return kinds
}

// rereadKinds files the kinds of sub, a stretch of the file parsed again from line index at, up
// to line index last: Markdown as Markdown, a prose or table line that looks like code as code.
func rereadKinds(sub *mdline.Doc, at, last int, kinds []mdline.Kind, cfg checks) {
	for j, sl := range sub.Lines {
		i := at + j
		if i >= last {
			break
		}
		k := sl.Kind
		if k == mdline.FrontMatter {
			k = mdline.Text
		}
		if (k == mdline.Text || k == mdline.TableRow) && !cfg.noStrayCode && looksLikeCode(sl.Text(sub.Src)) {
			k = mdline.Fenced
		}
		kinds[i] = k
	}
}

// readSentences hands the prose paragraphs to the sentence reader and files what it finds:
// names into ctx (per line), polarity facts, ordered pairs and clauses into inv.
func (inv *Inv) readSentences(doc *mdline.Doc, text []byte, kinds []mdline.Kind, dls []*distinctLine, cfg checks, ctx [][]Token) {
	var para []paraLine
	seenPol := map[string]bool{}
	seenPair := map[string]bool{}
	// Memory files repeat paragraphs (list items above all): a paragraph read once is not read
	// again; its per-line findings are replayed at the new position.
	type cached struct {
		f     sentenceFacts
		first int
	}
	cache := map[string]cached{}
	var key strings.Builder
	flush := func() {
		if len(para) == 0 {
			return
		}
		key.Reset()
		for _, pl := range para {
			key.WriteString(strconv.Itoa(dls[pl.idx].id))
			key.WriteByte(':')
			key.WriteString(strconv.Itoa(pl.from))
			key.WriteByte(',')
		}
		first := para[0].idx
		kind := kinds[first]
		inv.addStatement(para, kind, para[0].item)
		if c, ok := cache[key.String()]; ok {
			para = para[:0]
			for _, n := range c.f.names {
				ctx[n.line-c.first+first] = append(ctx[n.line-c.first+first], n.tok)
			}
			return // its rules, pairs and clauses are already filed
		}
		f := readParagraph(para, cfg)
		cache[key.String()] = cached{f, first}
		para = para[:0]
		for _, n := range f.names {
			ctx[n.line] = append(ctx[n.line], n.tok)
		}
		inv.clauses = append(inv.clauses, f.clauses...)
		for _, p := range f.pol {
			if !seenPol[p.tok.Value] {
				seenPol[p.tok.Value] = true
				inv.pol = append(inv.pol, p)
				inv.polAt = append(inv.polAt, inv.keys[p.line])
			}
		}
		for _, p := range f.pairs {
			if !seenPair[p.key()] {
				seenPair[p.key()] = true
				p.at = inv.keys[p.line]
				inv.pairs = append(inv.pairs, p)
			}
		}
	}
	prev := mdline.Blank
	for i, l := range doc.Lines {
		k := kinds[i]
		switch k {
		case mdline.Text, mdline.Heading, mdline.TableRow:
			dl := dls[i]
			if dl.scan.masked == nil {
				// A later occurrence of a line first seen as another kind (stray reading).
				prev = k
				continue
			}
			from, item := blockPrefix(l.Text(text))
			dl.from = from
			if k != mdline.Text || prev != mdline.Text || item {
				flush()
			}
			para = append(para, paraLine{idx: i, text: dl.scan.masked, codes: dl.scan.codes, quotes: dl.scan.quotes, from: from, table: k == mdline.TableRow, heading: k == mdline.Heading, item: item})
			if k != mdline.Text {
				flush()
			}
		default:
			flush()
		}
		prev = k
	}
	flush()
}

// blockPrefix returns the length of a line's block markers (indentation, "> ", a list marker
// and task box, heading hashes) and whether it starts a list item.
func blockPrefix(b []byte) (int, bool) {
	i := 0
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '>') {
		i++
	}
	item := false
	if i+1 < len(b) && (b[i] == '-' || b[i] == '*' || b[i] == '+') && b[i+1] == ' ' {
		i += 2
		item = true
	} else if n := mdline.OrdinalPrefix(b[i:]); n > 0 && !bytes.HasPrefix(b[i:], []byte("#")) {
		i += n
		item = true
	}
	for i < len(b) && b[i] == '#' {
		i++
	}
	for i < len(b) && b[i] == ' ' {
		i++
	}
	if bytes.HasPrefix(b[i:], []byte("[ ] ")) || bytes.HasPrefix(b[i:], []byte("[x] ")) || bytes.HasPrefix(b[i:], []byte("[X] ")) {
		i += 4
	}
	return i, item
}

// count tallies every line occurrence into its section: per section each token counts its most
// occurrences on one line, and a file's count of a token is the sum over its sections.
func (inv *Inv) count(doc *mdline.Doc, text []byte, kinds []mdline.Kind, dls []*distinctLine, ctx [][]Token) {
	var path []string
	sec := ""
	lineCount := map[Token]int{}
	inv.secOf = make([]string, len(doc.Lines))
	seenIn := map[string]map[*distinctLine]bool{}
	for i, l := range doc.Lines {
		if kinds[i] == mdline.Heading {
			level := l.Level
			if level == 0 {
				level = 1
			}
			for len(path) >= level {
				path = path[:len(path)-1]
			}
			for len(path) < level-1 {
				path = append(path, "")
			}
			path = append(path, mdline.HeadingText(l.Text(text)))
			sec = strings.Join(path, "\x00")
		}
		key := inv.keys[i]
		dl := dls[i]
		if dl.first == i+1 {
			dl.toks = append(append([]Token(nil), dl.local...), ctx[i]...)
		}
		inv.secOf[i] = sec
		if len(ctx[i]) == 0 && seenIn[sec][dl] {
			continue // the same line again in the same section: nothing new to count
		}
		clear(lineCount)
		for _, toks := range [][]Token{dl.local, ctx[i]} {
			for _, t := range toks {
				lineCount[t]++
			}
		}
		if dl.first == i+1 {
			for t := range lineCount {
				inv.where[t] = append(inv.where[t], key)
			}
		} else {
			for _, t := range ctx[i] {
				// A name this occurrence has and the first one had not (another sentence
				// position): the line carries it too.
				if w := inv.where[t]; !slices.Contains(dl.toks, t) && !slices.Contains(w, key) {
					inv.where[t] = append(w, key)
				}
			}
		}
		if len(lineCount) > 0 {
			m := inv.sect[sec]
			if m == nil {
				m = map[Token]int{}
				inv.sect[sec] = m
			}
			for t, n := range lineCount {
				m[t] = max(m[t], n)
			}
		}
		if len(lineCount) > 0 {
			if seenIn[sec] == nil {
				seenIn[sec] = map[*distinctLine]bool{}
			}
			seenIn[sec][dl] = true
		}
		inv.secOf[i] = sec
	}
	inv.sumSections()
	for i, p := range inv.pol {
		inv.counts[p.tok] = 1
		inv.where[p.tok] = []lineKey{inv.polAt[i]}
	}
	for _, p := range inv.pairs {
		t := Token{TypeOrder, p.key()}
		inv.counts[t] = 1
		inv.where[t] = []lineKey{p.at}
	}
}

// wordCounts returns every prose word (lowercased) counted as tokens are: per section its most
// occurrences on one line, summed over sections. Only a name missing from a result needs it.
func (inv *Inv) wordCounts() map[string]int {
	if inv.words != nil {
		return inv.words
	}
	inv.words = map[string]int{}
	sect := map[string]map[string]int{}
	line := map[string]int{}
	for i, dl := range inv.dls {
		if dl == nil || dl.scan.masked == nil {
			continue
		}
		if k := inv.kinds[i]; k != mdline.Text && k != mdline.Heading && k != mdline.TableRow {
			continue
		}
		if dl.words == nil {
			dl.words = lineWords(paraLine{text: dl.scan.masked, codes: dl.scan.codes, from: dl.from})
		}
		clear(line)
		for _, w := range dl.words {
			line[w]++
		}
		m := sect[inv.secOf[i]]
		if m == nil {
			m = map[string]int{}
			sect[inv.secOf[i]] = m
		}
		for w, n := range line {
			m[w] = max(m[w], n)
		}
	}
	for _, m := range sect {
		for w, n := range m {
			inv.words[w] += n
		}
	}
	inv.wordSect = sect
	return inv.words
}

// polIndex returns the inventory's polarity index, building it once.
func (inv *Inv) polIndex() *polIndex {
	if inv.polx == nil {
		inv.polx = newPolIndex(inv.pol, inv.clauses)
	}
	return inv.polx
}

// sumSections derives counts from the per-section tallies (set classes count 1).
func (inv *Inv) sumSections() {
	for _, m := range inv.sect {
		for t, n := range m {
			if setSemantics(t.Type) {
				inv.counts[t] = 1
			} else {
				inv.counts[t] += n
			}
		}
	}
}

// frontValues reports every front matter value as "key=value": a top-level key's scalar
// (quotes removed, whitespace collapsed) and every line nested under a key (list items, child
// keys, block scalar lines) under that key.
func frontValues(doc *mdline.Doc, text []byte, add func(int, Token)) {
	if doc.FM.State != frontmatter.Closed {
		return
	}
	root := ""
	for i, l := range doc.Lines {
		if l.Kind != mdline.FrontMatter {
			break
		}
		raw := l.Text(text)
		t := strings.TrimSpace(string(raw))
		if i == 0 || t == "---" || t == "..." || t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		if raw[0] != ' ' && raw[0] != '\t' && raw[0] != '-' {
			if k, v, ok := splitKey(t); ok {
				root = k
				if v != "" && strings.Trim(v, "|>-+0123456789") != "" {
					add(i, Token{TypeFrontValue, k + "=" + unquote(v)})
				}
				continue
			}
		}
		if root != "" {
			add(i, Token{TypeFrontValue, root + "=" + strings.Join(strings.Fields(t), " ")})
		}
	}
}

// splitKey splits a top-level "key: value" line; the key may be quoted.
func splitKey(t string) (string, string, bool) {
	for i := 0; i < len(t); i++ {
		if t[i] == ':' && (i+1 == len(t) || t[i+1] == ' ' || t[i+1] == '\t') {
			k := unquote(strings.TrimSpace(t[:i]))
			if k == "" {
				return "", "", false
			}
			return k, strings.Join(strings.Fields(t[i+1:]), " "), true
		}
	}
	return "", "", false
}

func unquote(v string) string {
	if len(v) >= 2 && (v[0] == '"' && v[len(v)-1] == '"' || v[0] == '\'' && v[len(v)-1] == '\'') {
		return v[1 : len(v)-1]
	}
	return v
}

// frontKeyLine finds the line index of a top-level front matter key, or -1.
func frontKeyLine(doc *mdline.Doc, text []byte, key string) int {
	for i, l := range doc.Lines {
		if l.Kind != mdline.FrontMatter {
			break
		}
		t := string(l.Text(text))
		for _, p := range []string{key, `"` + key + `"`, `'` + key + `'`} {
			if strings.HasPrefix(t, p) && strings.HasPrefix(strings.TrimLeft(t[len(p):], " \t"), ":") {
				return i
			}
		}
	}
	return -1
}

// stopwords are skipped when looking for the subject of a value, so "878 passed, 0 failed" and
// "878 passed and 0 failed" bind their values the same way.
var stopwords = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"a": true, "an": true, "the": true, "and": true, "or": true, "of": true, "to": true, "in": true,
		"on": true, "at": true, "for": true, "by": true, "with": true, "is": true, "are": true,
		"was": true, "were": true, "be": true, "from": true, "as": true, "than": true, "then": true,
		"about": true, "approx": true, "now": true, "it": true, "its": true, "set": true,
	}
})

// makeBinding pairs each value with the nearest content word between it and the previous value.
// Only lines with at least two different values can have a swap.
func makeBinding(line string, vals []valuePos) *binding { return bindWith(line, vals, subjectWord) }

// bindWith pairs each value with the subject found in the text between it and the previous value.
func bindWith(line string, vals []valuePos, subject func(string) string) *binding {
	if len(vals) < 2 {
		return nil
	}
	sort.Slice(vals, func(i, j int) bool { return vals[i].start < vals[j].start })
	distinct := map[string]bool{}
	for _, v := range vals {
		distinct[v.tok.Value] = true
	}
	if len(distinct) < 2 {
		return nil
	}
	values := make([]string, len(vals))
	words := make([]string, len(vals))
	pairs := make([]string, len(vals))
	shown := make([]string, len(vals))
	prevEnd := 0
	for i, v := range vals {
		w := subject(line[prevEnd:v.start])
		if w == "" {
			w = "_" // no subject before the value
		}
		prevEnd = v.end
		values[i] = v.tok.Type + ":" + v.tok.Value
		words[i] = w
		pairs[i] = w + "=" + v.tok.Value
		shown[i] = pairs[i]
	}
	sort.Strings(values)
	sort.Strings(words)
	sort.Strings(pairs)
	return &binding{
		sig:   strings.Join(values, "\x00"),
		words: strings.Join(words, "\x00"),
		pairs: strings.Join(pairs, "\x00"),
		show:  strings.Join(shown, ","),
	}
}

// makeCodeBinding pairs each code span of a line with the two content words before it, back to
// the previous span ("main project uses `basic`, server uses `standard`"), when every span has
// its own subject: a list of spans ("use `a`, `b` and `c`") reordered swaps nothing.
func makeCodeBinding(line string, codes []codeSpan) *binding {
	if len(codes) < 2 {
		return nil
	}
	subject := func(s string) string { return subjectWords(s, 2) }
	vals := make([]valuePos, len(codes))
	seen := map[string]bool{}
	prevEnd := 0
	for i, c := range codes {
		w := subject(line[prevEnd:c.start])
		if w == "" || seen[w] {
			return nil
		}
		seen[w] = true
		prevEnd = c.end
		vals[i] = valuePos{tok: Token{TypeCode, c.text}, start: c.start, end: c.end}
	}
	return bindWith(line, vals, subject)
}

// subjectWords returns the last n content words of s, lowercased and joined by a space.
func subjectWords(s string, n int) string {
	f := strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && r != '_' })
	var out []string
	for i := len(f) - 1; i >= 0 && len(out) < n; i-- {
		if w := strings.ToLower(f[i]); !stopwords()[w] {
			out = append([]string{w}, out...)
		}
	}
	return strings.Join(out, " ")
}

// subjectWord returns the last content word of s, lowercased, or "" when there is none.
func subjectWord(s string) string {
	f := strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && r != '_' })
	for i := len(f) - 1; i >= 0; i-- {
		w := strings.ToLower(f[i])
		if !stopwords()[w] {
			return w
		}
	}
	return ""
}

// Tokens returns the inventory's tokens with their distinct-line occurrence counts, sorted.
func (inv *Inv) Tokens() []TokenCount {
	out := make([]TokenCount, 0, len(inv.counts))
	for t, n := range inv.counts {
		out = append(out, TokenCount{t, n})
	}
	sort.Slice(out, func(i, j int) bool { return tokenLess(out[i].Token, out[j].Token) })
	return out
}

// Count returns how many times t occurs over the distinct lines (presence 1 for set classes).
func (inv *Inv) Count(t Token) int { return inv.counts[t] }

// TokenCount is a token and its distinct-line occurrence count.
type TokenCount struct {
	Token
	Count int
}

func tokenLess(a, b Token) bool {
	if a.Type != b.Type {
		return a.Type < b.Type
	}
	return a.Value < b.Value
}

// locate returns the first distinct line carrying t that the result lost (the most useful
// line to show), else the first one carrying it, else nil.
func (inv *Inv) locate(t Token, kept map[lineKey]bool) *distinctLine {
	w := inv.where[t]
	for _, k := range w {
		if !kept[k] {
			return inv.lines[k]
		}
	}
	if len(w) > 0 {
		return inv.lines[w[0]]
	}
	return nil
}

func (dl *distinctLine) line() int {
	if dl == nil {
		return 0
	}
	return dl.first
}

// source names the file a distinct line came from in a union inventory.
func (inv *Inv) source(dl *distinctLine) string {
	if inv.srcOf == nil || dl == nil {
		return ""
	}
	return inv.srcOf[dl]
}

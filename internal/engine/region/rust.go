package region

import (
	"bytes"
	"slices"
	"unicode"
	"unicode/utf8"
)

// The Rust classifier is a hand-written scanner following rustc_lexer:
// nested block comments, raw strings with any number of '#', byte and C
// strings, char literals told from lifetimes the way the lexer does, raw
// identifiers. Lines end at \n (\r\n counts as \n: rustc normalises it);
// U+2028 is whitespace to rustc, so inside a comment it is just a carrier.
//
// Prose: ordinary comments and the narrative text of doc comments. Doc
// comments are Markdown that rustdoc renders and runs: the doc comments of
// one item (consecutive `///`, or `//!`, with only whitespace, ordinary
// comments and attributes between them) are joined and unindented the way
// rustdoc does, then classified by the Markdown classifier, so every fenced
// or indented code block (a doctest, whatever its info string), code span
// and link destination is runtime, and a fence opened on one line carries
// over to the next. A `#[doc = ...]` attribute (also `#![doc]` and one in
// `cfg_attr`) is a fragment of the same document, joined and unindented
// the way rustdoc does (rust_docattr.go): its literal stays runtime and the
// doc comments around it are read with its text in place.

// rustDocRun collects the doc comments of one flavour (outer or inner) that
// rustdoc joins into one document.
type rustDocRun struct {
	lines  []rustDocLine
	blocks [][2]int
	raws   []rustRawDoc
}

// rustDocLine is one fragment of the document: a `///` or `//!` comment
// [start, end), its text after the three-byte marker, or (raw > 0) the
// attribute run.raws[raw-1].
type rustDocLine struct{ start, end, raw int }

type rustScanner struct {
	src          []byte
	marks        []Region
	outer, inner rustDocRun
	hash         int // 1 after '#', 2 after "#!": an attribute may open
	attrDepth    int // bracket depth inside an attribute
	attrInner    bool
	attrPath     rustAttrPath
	attrCfg      []byte // the predicate when the attribute is cfg_attr
	macroRep     bool   // after #[$meta]: the repetition's ")*" ends no run
	err          *RefusedError
}

func classifyRust(path string, src []byte) (*Map, error) {
	s := &rustScanner{src: src, marks: make([]Region, 0, len(src)/64+4)}
	s.run()
	if s.err != nil {
		s.err.Path = path
		return nil, s.err
	}
	// Doc comments are marked when their item's run ends, after the
	// comments and attributes between them: sort the (disjoint) marks so
	// the builder takes its linear path.
	if !slices.IsSortedFunc(s.marks, func(a, b Region) int { return a.Start - b.Start }) {
		slices.SortFunc(s.marks, func(a, b Region) int { return a.Start - b.Start })
	}
	b := NewBuilder(len(src))
	for _, r := range s.marks {
		b.Mark(r.Start, r.End, r.Kind, r.Why)
	}
	return b.Map("rust"), nil
}

func (s *rustScanner) fail(off int, reason string) {
	if s.err == nil {
		s.err = syntaxErrorAt("", s.src, off, reason)
	}
}

func (s *rustScanner) mark(start, end int, k Kind, why string) {
	if end > start {
		s.marks = append(s.marks, Region{Start: start, End: end, Kind: k, Why: why})
	}
}

// isRustWhite reports rustc's Pattern_White_Space beyond ASCII.
func isRustWhite(r rune) bool {
	return r == 0x85 || r == 0x200e || r == 0x200f || r == 0x2028 || r == 0x2029
}

func isRustIDStart(r rune) bool {
	if r < 0x80 {
		return r == '_' || (r|0x20 >= 'a' && r|0x20 <= 'z')
	}
	return unicode.In(r, unicode.L, unicode.Nl, unicode.Other_ID_Start)
}

func isRustIDContinue(r rune) bool {
	if r < 0x80 {
		return r == '_' || (r|0x20 >= 'a' && r|0x20 <= 'z') || (r >= '0' && r <= '9')
	}
	return unicode.In(r, unicode.L, unicode.Nl, unicode.Other_ID_Start, unicode.Mn, unicode.Mc, unicode.Nd, unicode.Pc, unicode.Other_ID_Continue)
}

// runeAt decodes the rune at i; it returns (-1, 0) at the end of input.
func runeAt(src []byte, i int) (rune, int) {
	if i >= len(src) {
		return -1, 0
	}
	if c := src[i]; c < 0x80 {
		return rune(c), 1
	}
	return utf8.DecodeRune(src[i:])
}

func (s *rustScanner) run() {
	src := s.src
	n := len(src)
	i := 0
	if bytes.HasPrefix(src, []byte("\ufeff")) {
		s.mark(0, 3, Runtime, "byte order mark")
		i = 3
	}
	if e := s.shebang(i); e > i {
		markSplitCR(s.mark, src, i, e, Directive, "directive: shebang")
		i = e
	}
	for i < n && s.err == nil {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f':
			i++
		case c == '/' && i+1 < n && src[i+1] == '/':
			i = s.lineComment(i)
		case c == '/' && i+1 < n && src[i+1] == '*':
			i = s.blockComment(i)
		case c == '"':
			i = s.str(i, i, "string literal")
		case c == '\'':
			i = s.quote(i)
		case c >= '0' && c <= '9':
			s.token()
			for i < n && (isWordByte(src[i]) && src[i] != '.' && src[i] != '-') {
				i++
			}
		case c == '#':
			if s.attrDepth == 0 {
				s.hash = 1
			}
			i++
		case c == '!' && s.hash == 1:
			s.hash = 2
			i++
		case c == '[':
			if s.hash > 0 || s.attrDepth > 0 {
				if s.attrDepth == 0 {
					s.attrInner, s.attrPath = s.hash == 2, attrPathNone
				}
				s.attrDepth++
				s.hash = 0
			} else {
				s.token()
			}
			i++
		case c == ']' && s.attrDepth > 0:
			s.attrDepth--
			i++
		default:
			r, size := runeAt(src, i)
			if isRustWhite(r) {
				i += size
				continue
			}
			if isRustIDStart(r) {
				i = s.ident(i)
				continue
			}
			if c == '$' && s.attrDepth == 1 && s.attrPath == attrPathNone {
				s.macroAttr() // #[$meta] in a macro: any attribute, a doc too
			}
			if s.macroRep && s.attrDepth == 0 && (c == ')' || c == '*' || c == '+' || c == '?') {
				i += size // $(#[$meta])* repeats attributes of the item that follows
				continue
			}
			s.token()
			i += size
		}
	}
	if s.err == nil {
		s.flushDocs()
	}
}

// shebang returns the end of a shebang line starting at i, or i. "#!" is a
// shebang unless the next token after it is '[' (an inner attribute).
func (s *rustScanner) shebang(i int) int {
	src := s.src
	if !bytes.HasPrefix(src[i:], []byte("#!")) {
		return i
	}
	j := i + 2
	for j < len(src) {
		switch {
		case src[j] == ' ' || src[j] == '\t' || src[j] == '\n' || src[j] == '\r':
			j++
			continue
		case bytes.HasPrefix(src[j:], []byte("//")):
			j = lineEnd(src, j)
			continue
		case bytes.HasPrefix(src[j:], []byte("/*")):
			if e, ok := rustBlockEnd(src, j); ok {
				j = e
				continue
			}
		}
		break
	}
	if j < len(src) && src[j] == '[' {
		return i
	}
	e := i + bytes.IndexByte(src[i:], '\n')
	if e < i {
		e = len(src)
	}
	if e > i && src[e-1] == '\r' {
		e--
	}
	return e
}

// token notes a token that is neither trivia nor part of an attribute: it
// ends the doc comment runs.
func (s *rustScanner) token() {
	s.hash = 0
	if s.attrDepth == 0 {
		s.macroRep = false
		s.flushDocs()
	}
}

// ident scans an identifier, a raw identifier or a prefixed literal.
func (s *rustScanner) ident(i int) int {
	src := s.src
	j := i
	for {
		r, size := runeAt(src, j)
		if size == 0 || !isRustIDContinue(r) {
			break
		}
		j += size
	}
	word := string(src[i:j]) // compared, not kept: no allocation
	var next byte
	if j < len(src) {
		next = src[j]
	}
	switch {
	case (word == "b" || word == "c") && next == '"':
		return s.str(i, j, "string literal")
	case word == "b" && next == '\'':
		s.token()
		e, ok := s.singleQuoted(j)
		if !ok {
			s.fail(i, "unterminated byte literal")
			return len(src)
		}
		s.mark(i, e, Runtime, "byte literal")
		return e
	case (word == "r" || word == "br" || word == "cr") && (next == '"' || next == '#'):
		h := j
		for h < len(src) && src[h] == '#' {
			h++
		}
		if h < len(src) && src[h] == '"' {
			return s.rawStr(i, j, h-j)
		}
		if word == "r" && h == j+1 {
			if r, _ := runeAt(src, h); isRustIDStart(r) {
				return s.ident(h) // a raw identifier: r#name
			}
		}
	}
	if s.attrDepth > 0 {
		s.attrWord(word, j)
		return j
	}
	s.token()
	return j
}

// str scans a string with escapes whose prefix starts at start and whose
// opening quote is at q.
func (s *rustScanner) str(start, q int, why string) int {
	s.token()
	src := s.src
	for i := q + 1; i < len(src); i++ {
		switch src[i] {
		case '\\':
			i++
		case '"':
			s.mark(start, i+1, Runtime, why)
			return i + 1
		}
	}
	s.fail(start, "unterminated double quote string")
	return len(src)
}

// rawStr scans a raw string with hashes '#' whose prefix starts at start
// and whose first '#' (or quote) is at j.
func (s *rustScanner) rawStr(start, j, hashes int) int {
	s.token()
	src := s.src
	for i := j + hashes + 1; i < len(src); i++ {
		if src[i] != '"' {
			continue
		}
		k := 0
		for k < hashes && i+1+k < len(src) && src[i+1+k] == '#' {
			k++
		}
		if k == hashes {
			s.mark(start, i+1+k, Runtime, "raw string literal")
			return i + 1 + k
		}
	}
	s.fail(start, "unterminated raw string")
	return len(src)
}

// quote scans what starts with a single quote: a lifetime, a label or a
// char literal, decided as rustc_lexer does.
func (s *rustScanner) quote(i int) int {
	src := s.src
	s.token()
	c1, l1 := runeAt(src, i+1)
	c2, l2 := runeAt(src, i+1+l1)
	if c2 != '\'' && (isRustIDStart(c1) || (c1 >= '0' && c1 <= '9')) {
		j := i + 1 + l1
		if c1 == 'r' && c2 == '#' {
			if c3, _ := runeAt(src, j+l2); isRustIDStart(c3) {
				j += l2 // a raw lifetime: 'r#name
			}
		}
		for {
			r, size := runeAt(src, j)
			if size == 0 || !isRustIDContinue(r) {
				break
			}
			j += size
		}
		if j < len(src) && src[j] == '\'' {
			s.mark(i, j+1, Runtime, "char literal")
			return j + 1
		}
		return j // a lifetime or label: code
	}
	e, ok := s.singleQuoted(i)
	if !ok {
		s.fail(i, "unterminated character literal")
		return len(src)
	}
	s.mark(i, e, Runtime, "char literal")
	return e
}

// singleQuoted follows rustc_lexer's single_quoted_string from the quote at
// q and returns the offset after the closing quote.
func (s *rustScanner) singleQuoted(q int) (int, bool) {
	src := s.src
	c1, l1 := runeAt(src, q+1)
	if c2, _ := runeAt(src, q+1+l1); c2 == '\'' && c1 != '\\' {
		return q + 1 + l1 + 1, true
	}
	for i := q + 1; i < len(src); {
		switch src[i] {
		case '\'':
			return i + 1, true
		case '/':
			return 0, false
		case '\n':
			if i+1 >= len(src) || src[i+1] != '\'' {
				return 0, false
			}
			i++
		case '\\':
			i++
			_, size := runeAt(src, i)
			i += size
		default:
			_, size := runeAt(src, i)
			i += size
		}
	}
	return 0, false
}

// rustBlockEnd returns the offset after the (nested) block comment starting
// at i, or false when it is not closed.
func rustBlockEnd(src []byte, i int) (int, bool) {
	depth := 1
	for p := i + 2; p+1 < len(src); {
		switch {
		case src[p] == '/' && src[p+1] == '*':
			depth++
			p += 2
		case src[p] == '*' && src[p+1] == '/':
			depth--
			p += 2
			if depth == 0 {
				return p, true
			}
		default:
			p++
		}
	}
	return 0, false
}

// rustDoc says what kind of doc comment a comment's text is: 'o' outer
// (///, /**), 'i' inner (//!, /*!), or 0 for an ordinary comment.
func rustDoc(t []byte) byte {
	switch {
	case bytes.HasPrefix(t, []byte("///")):
		if len(t) > 3 && t[3] == '/' {
			return 0
		}
		return 'o'
	case bytes.HasPrefix(t, []byte("//!")), bytes.HasPrefix(t, []byte("/*!")):
		return 'i'
	case bytes.HasPrefix(t, []byte("/**")):
		if len(t) > 3 && (t[3] == '*' || t[3] == '/') {
			return 0
		}
		return 'o'
	}
	return 0
}

// lineComment handles the line comment at i and returns its end.
func (s *rustScanner) lineComment(i int) int {
	src := s.src
	e := bytes.IndexByte(src[i:], '\n')
	if e < 0 {
		e = len(src)
	} else {
		e += i
	}
	end := e
	if end > i && src[end-1] == '\r' && end < len(src) {
		end-- // \r\n is one line break to rustc
	}
	text := src[i:end]
	fs := carrierForms(text)
	doc := rustDoc(text)
	for _, f := range fs.f[1:fs.n] {
		if rustDoc(f) != doc {
			s.mark(i, end, Runtime, "comment that could turn into a doc comment or stop being one")
			return e
		}
	}
	if doc != 0 {
		run := &s.outer
		if doc == 'i' {
			run = &s.inner
		}
		run.lines = append(run.lines, rustDocLine{start: i, end: end})
		return e
	}
	if why, ok := fs.match(rustDirective); ok {
		markSplitCR(s.mark, src, i, end, Directive, why)
	} else {
		body, _ := goCommentBody(src[i:end]) // the same // marker
		markSplitCR(s.mark, src, i, end, Prose, commentWhy(body))
	}
	return e
}

// blockComment handles the block comment at i and returns its end.
func (s *rustScanner) blockComment(i int) int {
	src := s.src
	end, ok := rustBlockEnd(src, i)
	if !ok {
		s.fail(i, "unterminated block comment")
		return len(src)
	}
	text := src[i:end]
	fs := carrierForms(text)
	doc := rustDoc(text)
	for _, f := range fs.f[1:fs.n] {
		// Removing carriers must not make "*/" or "/*" appear (the comment
		// would end early or swallow code) nor change its doc-ness.
		if e, ok := rustBlockEnd(f, 0); !ok || e != len(f) || rustDoc(f) != doc {
			s.mark(i, end, Runtime, "comment that could change its extent or doc-ness")
			return end
		}
	}
	if doc != 0 {
		run := &s.outer
		if doc == 'i' {
			run = &s.inner
		}
		run.blocks = append(run.blocks, [2]int{i, end})
		return end
	}
	if why, ok := fs.match(rustDirective); ok {
		markSplitCR(s.mark, src, i, end, Directive, why)
	} else {
		body, _ := goCommentBody(text) // the same /* */ markers
		markSplitCR(s.mark, src, i, end, Prose, commentWhy(body))
	}
	return end
}

// markSplitCR marks [start, end) as k, keeping every \r in it runtime: a
// cleaner is never handed a line-ending byte.
func markSplitCR(mark func(start, end int, k Kind, why string), src []byte, start, end int, k Kind, why string) {
	from := start
	for p := start; p < end; p++ {
		if src[p] == '\r' {
			mark(from, p, k, why)
			mark(p, p+1, Runtime, "carriage return")
			from = p + 1
		}
	}
	mark(from, end, k, why)
}

// rustKeywords are tool directive words that need no colon.
var rustKeywords = [...]struct{ prefix, why string }{
	{"rustfmt", "directive: rustfmt"},
	{"clippy", "directive: clippy"},
	{"ignore-tidy", "directive: ignore-tidy"},
	{"tidy-", "directive: tidy"},
	{"noqa", "directive: noqa"},
	{"nolint", "directive: nolint"},
	{"language=", "directive: language="},
	{"cbindgen", "directive: cbindgen"},
}

// rustDirective classifies a comment's text (markers included).
func rustDirective(t []byte) (string, bool) {
	if bytes.HasPrefix(t, []byte("//~")) || bytes.HasPrefix(t, []byte("//@")) {
		return "directive: compiletest " + string(t[:3]), true
	}
	// clippy's undocumented_unsafe_blocks looks for "SAFETY:" anywhere in
	// the comments before an unsafe block.
	if bytes.Contains(t, []byte("SAFETY:")) {
		return "directive: SAFETY: (clippy reads it)", true
	}
	if bytes.Contains(t, []byte("@generated")) {
		return "directive: @generated marker", true
	}
	if why, ok := suppressionDirective(t, inAnyComment); ok {
		return why, true
	}
	body := t[2:]
	if t[1] == '*' && len(t) >= 4 && bytes.HasSuffix(t, []byte("*/")) {
		body = t[2 : len(t)-2]
	}
	if rustDoc(t) != 0 && len(body) > 0 {
		body = body[1:]
	}
	s := trimSpaceLeft(body)
	for _, kw := range rustKeywords {
		if hasPrefixFold(s, kw.prefix) {
			return kw.why, true
		}
	}
	if word, ok := wordColon(body); ok {
		switch word {
		case "rustfmt", "clippy", "cbindgen", "SAFETY", "Safety":
			return "directive: " + word + ":", true
		}
		return "directive: word:", true
	}
	return "", false
}

// flushDocs classifies the collected doc comment runs and starts new ones.
func (s *rustScanner) flushDocs() {
	for _, run := range []*rustDocRun{&s.outer, &s.inner} {
		if len(run.lines) > 0 || len(run.blocks) > 0 {
			s.docRun(run)
		}
		*run = rustDocRun{lines: run.lines[:0], blocks: run.blocks[:0], raws: run.raws[:0]}
	}
}

// docRun classifies one item's doc comments.
func (s *rustScanner) docRun(run *rustDocRun) {
	src := s.src
	why := ""
	switch {
	case len(run.blocks) > 0 && len(run.raws) > 0:
		why = "block doc comment joined with a #[doc] attribute (not modelled)"
	case len(run.blocks) > 0 && len(run.lines) > 0:
		why = "doc comment mixing /** */ and /// (not modelled)"
	case len(run.blocks) > 1:
		why = "block doc comments (not modelled)"
	case len(run.blocks) == 1:
		b := run.blocks[0]
		text := src[b[0]:b[1]]
		if bytes.IndexByte(text, '\n') >= 0 {
			if !s.blockDoc(b) {
				why = "block doc comment that could hold code (not modelled)"
			}
			break
		}
		if bytes.ContainsAny(text, "\r`~") {
			why = "block doc comment with code (not modelled)"
			break
		}
		if w, ok := matchAfterRemoval(text, rustDirective); ok {
			s.mark(b[0], b[1], Directive, w)
		} else {
			s.mark(b[0], b[1], Prose, "doc comment")
		}
		return
	}
	if why == "" {
		for _, l := range run.lines {
			if l.raw == 0 && bytes.IndexByte(src[l.start:l.end], '\r') >= 0 {
				why = "doc comment with a bare carriage return (rustc rejects it)"
				break
			}
		}
	}
	if why != "" {
		for _, l := range run.lines {
			if l.raw == 0 {
				s.mark(l.start, l.end, Runtime, why)
			}
		}
		for _, b := range run.blocks {
			s.mark(b[0], b[1], Runtime, why)
		}
		return
	}
	s.docFragments(run)
}

// rustDocSeg is one line of a doc comment: its marker and cut indentation
// [start, from) and its doc text [from, end).
type rustDocSeg struct{ start, from, end int }

// blockDoc classifies a `/** */` or `/*!` doc comment over several lines.
// rustc strips a column of '*' from such comments and rustdoc unindents
// them by rules this scanner does not replay; it does not need to as long
// as no code block can arise under any of them: no fence, no tab, and the
// indentation of every line that holds text within three columns of every
// other, whether or not a leading '*' is stripped. Then each line's text
// after its indentation and '*' is classified as Markdown; otherwise the
// comment is runtime.
func (s *rustScanner) blockDoc(b [2]int) bool {
	src := s.src
	text := src[b[0]:b[1]]
	if len(text) < 5 || bytes.Contains(text, []byte("```")) || bytes.Contains(text, []byte("~~~")) || bytes.ContainsAny(text, "\t\r") {
		return false
	}
	var segs []rustDocSeg
	lo := [2]int{-1, -1}
	hi := [2]int{-1, -1}
	bodyEnd := b[1] - 2
	for ls := b[0] + 3; ls <= bodyEnd; {
		le := ls + bytes.IndexByte(src[ls:bodyEnd], '\n')
		if le < ls {
			le = bodyEnd
		}
		raw := ls
		for raw < le && src[raw] == ' ' {
			raw++
		}
		from := raw
		if from < le && src[from] == '*' {
			from++
		}
		starred := from
		for from < le && src[from] == ' ' {
			from++
		}
		if hasNonSpace(src[from:le]) {
			for i, w := range [2]int{raw - ls, from - starred} {
				if lo[i] < 0 || w < lo[i] {
					lo[i] = w
				}
				hi[i] = max(hi[i], w)
			}
		}
		start := ls
		if len(segs) == 0 {
			start = b[0]
		}
		segs = append(segs, rustDocSeg{start, from, le})
		ls = le + 1
	}
	if hi[0]-lo[0] >= 4 || hi[1]-lo[1] >= 4 {
		return false
	}
	why, directive := matchAfterRemoval(text, rustDirective)
	s.docMarkdown(segs, func(int) (string, bool) { return why, directive })
	for k, g := range segs {
		next := b[1]
		if k+1 < len(segs) {
			next = segs[k+1].start
		}
		s.mark(g.end, next, Runtime, "doc comment markup: line break or closer")
	}
	return true
}

// docMarkdown joins the doc text of segs with line breaks, classifies it as
// Markdown and marks each segment by what the Markdown classifier says;
// directiveOf(k) says whether line k belongs to a directive comment.
func (s *rustScanner) docMarkdown(segs []rustDocSeg, directiveOf func(k int) (string, bool)) {
	var doc []byte
	at := make([]int, len(segs)) // doc offset of each line
	for k, g := range segs {
		at[k] = len(doc)
		doc = append(doc, s.src[g.from:g.end]...)
		doc = append(doc, '\n')
	}
	s.markdownOnto(doc, segs, at, directiveOf, func(_ int, r Region) { s.mark(r.Start, r.End, r.Kind, r.Why) })
}

// markdownOnto classifies doc as Markdown and hands emit the regions of each
// segment k, whose doc text [g.from, g.end) sits at doc offset at[k], in
// source offsets; directiveOf(k) says whether line k belongs to a directive
// comment.
func (s *rustScanner) markdownOnto(doc []byte, segs []rustDocSeg, at []int, directiveOf func(k int) (string, bool), emit func(k int, r Region)) {
	md, err := classifyMarkdown(doc)
	if err != nil {
		for k, g := range segs {
			emit(k, Region{Start: g.start, End: g.end, Kind: Runtime, Why: "doc comment (markdown failed)"})
		}
		return
	}
	ri := 0
	for k, g := range segs {
		dStart, dEnd := at[k], at[k]+(g.end-g.from)
		dirWhy, directive := directiveOf(k)
		kindOf := func(r Region) (Kind, string) {
			switch {
			case r.Kind == Runtime && (r.Why == "fenced code" || r.Why == "indented code"):
				return Runtime, "doctest (" + r.Why + " in a doc comment)"
			case r.Kind == Runtime:
				return Runtime, "doc comment markup: " + r.Why
			case directive:
				return Directive, dirWhy
			}
			return Prose, "doc comment"
		}
		for ri < len(md.Regions) && md.Regions[ri].End <= dStart {
			ri++
		}
		// The marker and the cut indentation take the kind of the line's
		// first doc byte (its line break, when the line is empty).
		k0, w0 := kindOf(md.At(dStart))
		if g.from > g.start {
			emit(k, Region{Start: g.start, End: g.from, Kind: k0, Why: w0})
		}
		for r := ri; r < len(md.Regions) && md.Regions[r].Start < dEnd; r++ {
			reg := md.Regions[r]
			lo, hi := max(reg.Start, dStart), min(reg.End, dEnd)
			if hi > lo {
				kk, ww := kindOf(reg)
				emit(k, Region{Start: g.from + (lo - dStart), End: g.from + (hi - dStart), Kind: kk, Why: ww})
			}
		}
	}
}

// hasNonSpace reports whether t holds a character that is not Unicode
// whitespace (rustdoc skips whitespace-only lines when unindenting).
func hasNonSpace(t []byte) bool {
	for i := 0; i < len(t); {
		r, size := utf8.DecodeRune(t[i:])
		if !unicode.IsSpace(r) {
			return true
		}
		i += size
	}
	return false
}

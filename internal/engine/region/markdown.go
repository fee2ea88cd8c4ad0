package region

import (
	"bytes"
	"sort"
	"unicode/utf8"
)

// The Markdown classifier finds the CommonMark structure with a scanner that
// reproduces goldmark's parsing decisions (mdblock.go, mdinline.go) and takes
// as prose only what goldmark would make inline text, and the inside of HTML
// comments. Every other byte (markers, code, link destinations, raw HTML,
// front matter, line endings) stays runtime. Where the scanner cannot be
// sure what goldmark would decide, it keeps the rest of the block runtime.

func classifyMarkdown(src []byte) (*Map, error) {
	b := NewBuilder(len(src))
	b.SetGapWhy("markup")
	base := 0
	switch end, state := frontMatter(src); state {
	case fmUnterminated:
		b.Mark(0, len(src), Runtime, "unterminated front matter")
		return b.Map("markdown"), nil
	case fmFound:
		markFrontMatter(b, src, end)
		base = end
	}
	body := src[base:]
	if bytes.IndexByte(body, '\r') >= 0 {
		// CommonMark ends lines at \r too; the scanner, like goldmark, only
		// knows \n and \r\n. A lone \r becomes \n: one byte for one byte,
		// so offsets hold.
		body = loneCRToLF(body)
	}
	p := parseMarkdownBlocks(body)
	if p.failed {
		b.Mark(base, len(src), Runtime, "markdown parser failed")
		return b.Map("markdown"), nil
	}
	w := &mdWalker{src: body, base: base, b: b, p: p, s: &inlineScanner{p: p, src: body}}
	w.walk(0)
	if p.failed {
		b = NewBuilder(len(src))
		b.SetGapWhy("markup")
		b.Mark(0, len(src), Runtime, "markdown parser failed")
	}
	return b.Map("markdown"), nil
}

type mdWalker struct {
	src  []byte
	base int // offset of src in the file
	b    *Builder
	p    *mdParser
	s    *inlineScanner
	// ov collects a block's per-line runtime overlays; union is scratch.
	ov, union, scratch []Region
}

func (w *mdWalker) mark(start, end int, k Kind, why string) {
	if start < 0 || end > len(w.src) || start >= end {
		return
	}
	w.b.Mark(w.base+start, w.base+end, k, why)
}

// add passes a body-relative region to the Builder.
func (w *mdWalker) add(r Region) { w.b.Mark(w.base+r.Start, w.base+r.End, r.Kind, r.Why) }

func (w *mdWalker) overlay(start, end int, why string) {
	if start < 0 || end > len(w.src) || start >= end {
		return
	}
	w.ov = append(w.ov, Region{Start: start, End: end, Kind: Runtime, Why: why})
}

// flushBlock adds a block's inline marks with its overlays laid over them,
// in order and without overlaps, so that the Builder needs no sweep.
func (w *mdWalker) flushBlock(inline []Region) {
	if len(w.ov) == 0 {
		for _, r := range inline {
			w.add(r)
		}
		return
	}
	ov := w.ov
	sort.SliceStable(ov, func(i, j int) bool { return ov[i].Start < ov[j].Start })
	u := w.union[:0]
	for _, r := range ov {
		if n := len(u); n > 0 && r.Start < u[n-1].End {
			if r.End > u[n-1].End {
				u = append(u, Region{Start: u[n-1].End, End: r.End, Kind: Runtime, Why: r.Why})
			}
			continue
		}
		u = append(u, r)
	}
	w.union = u
	j := 0 // next overlay to emit
	k := 0 // first overlay that may still clip a mark
	for _, m := range inline {
		for k < len(u) && u[k].End <= m.Start {
			k++
		}
		pos := m.Start
		for x := k; x < len(u) && u[x].Start < m.End && pos < m.End; x++ {
			if u[x].Start > pos {
				for j < len(u) && u[j].Start < pos {
					w.add(u[j])
					j++
				}
				w.add(Region{Start: pos, End: u[x].Start, Kind: m.Kind, Why: m.Why})
			}
			pos = max(pos, u[x].End)
		}
		if pos < m.End {
			for j < len(u) && u[j].Start < pos {
				w.add(u[j])
				j++
			}
			w.add(Region{Start: pos, End: m.End, Kind: m.Kind, Why: m.Why})
		}
	}
	for _, r := range u[j:] {
		w.add(r)
	}
}

func (w *mdWalker) walk(n int32) {
	nd := &w.p.nodes[n]
	switch nd.kind {
	case mkParagraph, mkHeading:
		if len(nd.lines) == 0 {
			return
		}
		w.s.marks = w.s.marks[:0]
		w.s.scan(nd.lines)
		w.ov = w.ov[:0]
		w.markHTMLCode(w.s.marks)
		for _, l := range nd.lines {
			w.markBareURLs(l)
			w.markCharRefs(l)
			w.markTableDelimiter(l)
		}
		w.flushBlock(w.s.marks)
		return
	case mkHTML:
		w.htmlBlock(nd)
		return
	case mkFenced:
		w.fencedCode(nd)
		return
	case mkCodeBlock:
		w.mark(nd.from, nd.to, Runtime, "indented code")
		return
	case mkLinkRef:
		w.mark(nd.from, nd.to, Runtime, "link reference definition")
		return
	}
	for c := nd.first; c >= 0; c = w.p.nodes[c].nx {
		w.walk(c)
	}
}

// fencedCode marks a fenced block from its opening fence through its closing
// fence, and, as the goldmark-based classifier did, through the next line
// when that starts with three fence characters.
func (w *mdWalker) fencedCode(nd *mdNode) {
	start := nd.from
	lines := nd.lines // the first and the last content line
	if start < 0 || start >= len(w.src) || (len(lines) > 0 && lines[0].start < start) {
		for _, l := range lines {
			w.mark(l.start, l.stop, Runtime, "fenced code")
		}
		return
	}
	fence := byte('`')
	for k := start; k < len(w.src) && w.src[k] != '\n'; k++ {
		if c := w.src[k]; c == '`' || c == '~' {
			fence = c
			break
		}
	}
	end := lineEnd(w.src, start)
	next := len(w.src)
	if end < len(w.src) {
		next = afterLineBreak(w.src, end)
	}
	if len(lines) > 0 {
		end = lines[len(lines)-1].stop
		next = end
		if end > 0 && w.src[end-1] != '\n' {
			next = len(w.src)
		}
	}
	k := next
	for k < len(w.src) && (w.src[k] == ' ' || w.src[k] == '\t' || w.src[k] == '>') {
		k++
	}
	if k < len(w.src) && bytes.HasPrefix(w.src[k:], []byte{fence, fence, fence}) {
		end = lineEnd(w.src, k)
	}
	w.mark(start, max(end, nd.to), Runtime, "fenced code")
}

// htmlBlock handles block HTML; a comment block (CommonMark type 2) is prose
// between its first "<!--" and the first "-->" after it.
func (w *mdWalker) htmlBlock(nd *mdNode) {
	segs := append([]mdSeg(nil), nd.lines...)
	if nd.closure.start >= 0 {
		segs = append(segs, nd.closure)
	}
	for _, s := range segs {
		if s.start < 0 || s.stop > len(w.src) || s.start > s.stop {
			return
		}
	}
	open := -1
	if nd.htmlType == 2 && len(segs) > 0 {
		if k := bytes.Index(w.src[segs[0].start:segs[0].stop], []byte("<!--")); k >= 0 {
			open = segs[0].start + k
		}
	}
	if open < 0 {
		for _, s := range segs {
			w.mark(s.start, s.stop, Runtime, "html block")
		}
		return
	}
	// The comment runs to the first "-->" after "<!--" (also "<!-->" and
	// "<!--->"), or to the end of the block when it is not closed.
	close := segs[len(segs)-1].stop
	for _, s := range segs {
		from := max(s.start, open+2)
		if from > s.stop {
			continue
		}
		if k := bytes.Index(w.src[from:s.stop], []byte("-->")); k >= 0 {
			close = from + k
			break
		}
	}
	w.scratch = commentSpans(w.src, w.scratch[:0], segs, open, max(close, open+4), "html comment marker", false)
	for _, r := range w.scratch {
		w.add(r)
	}
}

// commentSpans marks the bytes of segs: prose where they lie inside the HTML
// comment whose "<!--" is at open and whose "-->" is at close, line breaks
// excluded; runtime with why everywhere else. noProse keeps it all runtime.
func commentSpans(src []byte, marks []Region, segs []mdSeg, open, close int, why string, noProse bool) []Region {
	// A carrier whose removal would let "-->" appear, and end the comment
	// early, is prose like the rest: the engine classifies the file again
	// without it, sees the rest become text, and keeps that carrier.
	lo, hi := open+4, close
	if noProse {
		lo = hi
	}
	kind, kindWhy := Prose, "html comment"
	if lo < hi {
		if dwhy, ok := matchAfterRemoval(src[lo:hi], mdCommentDirective); ok {
			kind, kindWhy = Directive, dwhy
		}
	}
	add := func(s, e int, k Kind, why string) {
		if s < e {
			marks = append(marks, Region{Start: s, End: e, Kind: k, Why: why})
		}
	}
	isProse := func(k int) bool { return k >= lo && k < hi && src[k] != '\n' && src[k] != '\r' }
	for _, s := range segs {
		if s.padding != 0 {
			add(s.start, s.stop, Runtime, why)
			continue
		}
		for from := s.start; from < s.stop; {
			p := isProse(from)
			to := from + 1
			for to < s.stop && isProse(to) == p {
				to++
			}
			switch {
			case p:
				add(from, to, kind, kindWhy)
			case from >= lo && from < hi:
				add(from, to, Runtime, "line break")
			default:
				add(from, to, Runtime, why)
			}
			from = to
		}
	}
	return marks
}

// mdCommentDirective classifies the text inside an HTML comment of a
// Markdown file: the tools that read such comments (linters, formatters,
// spell checkers that switch rules off, generators that find their place
// by a marker) are in the shared vocabulary (see suppressions), and any
// "word:" comment is a directive.
func mdCommentDirective(t []byte) (string, bool) {
	if why, ok := suppressionDirective(t, inMarkdownHTML); ok {
		return why, true
	}
	if word, ok := wordColon(trimSpaceLeft(t)); ok {
		return "directive: " + word + ":", true
	}
	return "", false
}

// markBareURLs and markTableDelimiter apply the span rules below; the test
// oracle has its own implementations of them. A carrier at the start of a
// line is prose like the rest of the line: whether removing it would turn
// the line into a list item, a heading, indented code or a fence is decided
// by the engine, which classifies the result again and keeps that carrier.

func (w *mdWalker) markBareURLs(seg mdSeg) {
	for _, sp := range bareURLs(w.src, seg.start, seg.stop) {
		w.overlay(sp[0], sp[1], "bare url")
	}
	for _, sp := range bareEmails(w.src, seg.start, seg.stop) {
		w.overlay(sp[0], sp[1], "bare email")
	}
}

// markHTMLCode keeps the text between inline <code> or <pre> tags out of
// prose: it is code shown as code, as a backtick span is (seen in
// Prometheus's generated docs). marks are a block's inline marks in order.
func (w *mdWalker) markHTMLCode(marks []Region) {
	open := -1
	var name string
	for _, m := range marks {
		if m.Why != "html tag" || m.Start < 0 || m.End > len(w.src) {
			continue
		}
		tag := w.src[m.Start:m.End]
		if open < 0 {
			for _, n := range []string{"code", "pre"} {
				if htmlTagIs(tag, n, false) {
					open, name = m.End, n
				}
			}
			continue
		}
		if htmlTagIs(tag, name, true) {
			w.overlay(open, m.Start, "html code")
			open = -1
		}
	}
}

// htmlTagIs reports whether tag (the bytes of an inline HTML tag) opens,
// or with closing closes, the element name.
func htmlTagIs(tag []byte, name string, closing bool) bool {
	prefix := "<" + name
	if closing {
		prefix = "</" + name
	}
	if len(tag) <= len(prefix) || !bytes.EqualFold(tag[:len(prefix)], []byte(prefix)) {
		return false
	}
	c := tag[len(prefix)]
	return c == '>' || c == '/' || mdSpace(c)
}

// bareEmails returns the spans of src[start:stop] (one line) that GFM's
// extended email autolink would turn into a mailto: link (local@domain.tld).
// Carriers count as part of the address, so an address a carrier breaks
// now, and which its removal would turn into a link, is not prose either.
func bareEmails(src []byte, start, stop int) [][2]int {
	if start < 0 || stop > len(src) || start >= stop {
		return nil
	}
	line := src[start:stop]
	var out [][2]int
	emailByte := func(c byte, local bool) bool {
		return isAlnumByte(c) || c == '.' || c == '-' || c == '_' || (local && c == '+')
	}
	// run extends from i in direction dir over address bytes and carriers.
	run := func(i, dir int, local bool) (int, bool) {
		dot := false
		for {
			j := i
			if dir < 0 {
				j = i - 1
			}
			if j < 0 || j >= len(line) {
				return i, dot
			}
			if emailByte(line[j], local) {
				dot = dot || line[j] == '.'
				i += dir
				continue
			}
			var r rune
			var size int
			if dir < 0 {
				r, size = utf8.DecodeLastRune(line[:i])
			} else {
				r, size = utf8.DecodeRune(line[i:])
			}
			// Exotic spaces too: GFM links an address after a space, not
			// after U+00A0.
			if r < 0x80 || !carrierRune(r) && !asSpace(r) {
				return i, dot
			}
			i += dir * size
		}
	}
	for i := 0; i < len(line); i++ {
		if line[i] != '@' {
			continue
		}
		from, _ := run(i, -1, true)
		to, dot := run(i+1, 1, false)
		if from < i && to > i+1 && dot {
			out = append(out, [2]int{start + from, start + to})
			i = to - 1
		}
	}
	return out
}

// markCharRefs keeps entity and numeric character references (&mdash;,
// &#x2014;) out of prose: they render as the character they name, so a
// carrier inside one, once removed, would turn visible text into another
// character. It errs wide: any &name; shape counts, known entity or not.
func (w *mdWalker) markCharRefs(seg mdSeg) {
	if seg.start < 0 || seg.stop > len(w.src) {
		return
	}
	line := w.src[seg.start:seg.stop]
	for i := 0; i < len(line); i++ {
		if line[i] == '&' {
			if n := charRefLen(line[i:]); n > 0 {
				w.overlay(seg.start+i, seg.start+i+n, "character reference")
				i += n - 1
			}
		}
	}
}

// charRefLen returns the length of the character reference b starts with
// (&name; with up to 32 letters and digits, &#digits;, &#xhex;), or 0.
func charRefLen(b []byte) int {
	i, maxLen := 1, 32
	digit := func(c byte) bool { return c >= '0' && c <= '9' }
	ok := func(c byte) bool { return isAlnumByte(c) }
	if len(b) > 1 && b[1] == '#' {
		i, maxLen, ok = 2, 7, digit
		if len(b) > 2 && b[2]|0x20 == 'x' {
			i, maxLen = 3, 6
			ok = func(c byte) bool { return digit(c) || c|0x20 >= 'a' && c|0x20 <= 'f' }
		}
	} else if len(b) < 2 || !asciiAlpha(b[1]) {
		return 0
	}
	start := i
	for i < len(b) && i-start < maxLen && ok(b[i]) {
		i++
	}
	if i == start || i >= len(b) || b[i] != ';' {
		return 0
	}
	return i + 1
}

func asciiAlpha(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

func (w *mdWalker) markTableDelimiter(seg mdSeg) {
	if tableDelimiter(w.src, seg.start, seg.stop) {
		w.overlay(seg.start, seg.stop, "table delimiter")
	}
}

// bareURLs returns the spans of src[start:stop] (one line) that a GFM
// renderer would turn into a link: http://, https://, ftp:// and www. URLs
// written as plain text. A carrier inside one changes the link, not prose.
// It errs long against GFM's extended autolinks: a URL starts wherever the
// byte before it is not an ASCII letter or digit, runs to the next ASCII
// space or '<', and gives back only the trailing punctuation GFM always
// gives back (not a closing parenthesis, a quote or a semicolon).
func bareURLs(src []byte, start, stop int) [][2]int {
	if start < 0 || stop > len(src) || start >= stop {
		return nil
	}
	var out [][2]int
	line := src[start:stop]
	for i := 0; i < len(line); {
		j := urlStart(line, i)
		if j < 0 {
			return out
		}
		from := j
		end := from
		// Whether GFM links it depends on the character before it (a
		// space, not U+00A0 nor U+200B): invisible characters and exotic
		// spaces there belong to the URL too.
		for from > i {
			r, size := utf8.DecodeLastRune(line[:from])
			if r < 0x80 || !carrierRune(r) && !asSpace(r) {
				break
			}
			from -= size
		}
		for end < len(line) {
			c := line[end]
			if c == '<' || c == ' ' || c == '\t' || c == '\n' || c == '\r' {
				break
			}
			end++
		}
		for end > from && bytes.IndexByte([]byte("?!.,:*_~"), line[end-1]) >= 0 {
			end--
		}
		if end > from {
			out = append(out, [2]int{start + from, start + end})
		}
		i = max(end, from+1)
	}
	return out
}

// tableDelimiter reports whether the line src[start:stop] is (or, once its
// carriers are gone, would be) a GFM table delimiter row such as
// "|---|:--:|": removing a carrier from it would turn a paragraph into a
// table.
func tableDelimiter(src []byte, start, stop int) bool {
	if start < 0 || stop > len(src) || start >= stop {
		return false
	}
	line := src[start:stop]
	dash := false
	for i := 0; i < len(line); {
		r, size := utf8.DecodeRune(line[i:])
		switch {
		case r == '-':
			dash = true
		case r == '|' || r == ':' || r == ' ' || r == '\t' || r == '\n' || r == '\r' || carrierRune(r) || asSpace(r),
			r == utf8.RuneError && size == 1:
		default:
			return false
		}
		i += size
	}
	return dash
}

func loneCRToLF(s []byte) []byte {
	out := make([]byte, len(s))
	copy(out, s)
	for i, c := range out {
		if c == '\r' && (i+1 == len(out) || out[i+1] != '\n') {
			out[i] = '\n'
		}
	}
	return out
}

type fmState int

const (
	fmNone fmState = iota
	fmFound
	fmUnterminated
)

// frontMatter finds a leading YAML (--- ... --- or ...) or TOML (+++ ... +++)
// block and returns the offset after its closing line's line break.
func frontMatter(src []byte) (int, fmState) {
	i := 0
	if bytes.HasPrefix(src, []byte("\xef\xbb\xbf")) {
		i = 3
	}
	var delim []byte
	switch {
	case bytes.HasPrefix(src[i:], []byte("---")):
		delim = []byte("---")
	case bytes.HasPrefix(src[i:], []byte("+++")):
		delim = []byte("+++")
	default:
		return 0, fmNone
	}
	e := lineEnd(src, i)
	if e == len(src) || len(bytes.TrimRight(src[i:e], " \t")) != 3 {
		return 0, fmNone
	}
	for at := afterLineBreak(src, e); at < len(src); {
		e := lineEnd(src, at)
		line := bytes.TrimRight(src[at:e], " \t")
		next := len(src)
		if e < len(src) {
			next = afterLineBreak(src, e)
		}
		if bytes.Equal(line, delim) || (delim[0] == '-' && bytes.Equal(line, []byte("..."))) {
			return next, fmFound
		}
		at = next
	}
	return 0, fmUnterminated
}

// markFrontMatter marks the front matter [0, end): its delimiter lines and
// its values runtime (a site generator reads them), and what its own
// language's reader calls a comment (YAML's or TOML's "#" comments) prose
// or directive, as in a file of that language. Front matter that reader
// refuses stays runtime as a whole.
func markFrontMatter(b *Builder, src []byte, end int) {
	open := lineEnd(src, 0)
	inner := afterLineBreak(src, open)
	close := end
	if close > 0 && src[close-1] == '\n' {
		close--
	}
	if close > 0 && src[close-1] == '\r' {
		close--
	}
	for close > inner && src[close-1] != '\n' && src[close-1] != '\r' {
		close--
	}
	var m *Map
	var err error
	if inner < close {
		body := src[inner:close]
		if bytes.HasPrefix(bytes.TrimPrefix(src, []byte("\xef\xbb\xbf")), []byte("+++")) {
			m, err = classifyTOML(body)
		} else {
			m, err = classifyYAML("front matter", body)
		}
	}
	if m == nil || err != nil {
		b.Mark(0, end, Runtime, "front matter")
		return
	}
	b.Mark(0, inner, Runtime, "front matter")
	for _, r := range m.Regions {
		k, why := r.Kind, "front matter"
		if k != Runtime {
			why = "front matter " + r.Why
		}
		b.Mark(inner+r.Start, inner+r.End, k, why)
	}
	b.Mark(close, end, Runtime, "front matter")
}

// urlStart finds, from i, the next scheme or "www." that starts a bare URL:
// one not preceded by an ASCII letter or digit.
func urlStart(b []byte, i int) int {
	for ; i < len(b); i++ {
		// After ';' GFM links nothing, whatever carriers go: an OSC 8
		// hyperlink's URL (ESC ] 8 ; ; URL ST) is part of its escape
		// sequence, removed whole with it.
		if i > 0 && (isASCIIAlnum(b[i-1]) || b[i-1] == ';') {
			continue
		}
		rest := b[i:]
		for _, p := range [...]string{"https://", "http://", "ftp://", "www."} {
			if len(rest) > len(p) && hasPrefixFold(rest, p) {
				return i
			}
		}
	}
	return -1
}

func isASCIIAlnum(c byte) bool { return c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'z' }

// HTMLComments returns the HTML comments of a Markdown map, from "<!--"
// through "-->" (or the end of the block when unclosed), each with the
// kind of its content: prose, or directive for a tool's comment. Check
// uses it to show long comments that a rendered page hides.
func HTMLComments(m *Map, src []byte) []Region {
	if m.Lang != "markdown" && m.Lang != "text" {
		return nil
	}
	var out []Region
	for i := 0; i < len(m.Regions); i++ {
		r := m.Regions[i]
		if r.Kind != Runtime || r.Why != "html comment marker" {
			continue
		}
		k := bytes.Index(src[r.Start:r.End], []byte("<!--"))
		if k < 0 {
			continue
		}
		open := r.Start + k
		c := Region{Start: open, End: r.End, Kind: Runtime, Why: "html comment"}
		for j := i + 1; j < len(m.Regions); j++ {
			n := m.Regions[j]
			switch {
			case n.Kind == Prose && n.Why == "html comment", n.Kind == Directive:
				c.Kind = n.Kind
			case n.Kind == Runtime && n.Why == "line break":
			case n.Kind == Runtime && n.Why == "html comment marker":
				if e := bytes.Index(src[n.Start:n.End], []byte("-->")); e >= 0 {
					c.End = n.Start + e + 3
				} else {
					c.End = n.End
				}
				i = j
				j = len(m.Regions)
				continue
			default:
				j = len(m.Regions)
				continue
			}
			c.End = n.End
		}
		if c.End > c.Start+7 {
			out = append(out, c)
		}
	}
	return out
}

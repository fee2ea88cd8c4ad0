package region

import (
	"bytes"
	"sort"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// The goldmark oracle is the classifier prosewash used before the
// hand-written scanner: goldmark finds the CommonMark structure and prose is
// only what it can verify (the byte segments of inline text nodes and the
// inside of HTML comments). It lives in a test file so that goldmark is
// linked into tests only; the differential tests require every byte the
// scanner calls prose to be prose here too.

func classifyMarkdownGoldmark(src []byte) (m *Map, err error) {
	defer func() {
		// goldmark is third-party code: a panic there must not take the
		// run down, and an unparsed file is all runtime.
		if r := recover(); r != nil {
			b := NewBuilder(len(src))
			b.Mark(0, len(src), Runtime, "markdown parser failed")
			m, err = b.Map("markdown"), nil
		}
	}()
	b := NewBuilder(len(src))
	b.SetGapWhy("markup")
	base := 0
	switch end, state := oracleFrontMatter(src); state {
	case fmUnterminated:
		b.Mark(0, len(src), Runtime, "unterminated front matter")
		return b.Map("markdown"), nil
	case fmFound:
		b.Mark(0, end, Runtime, "front matter")
		base = end
	}
	body := src[base:]
	if bytes.IndexByte(body, '\r') >= 0 {
		// CommonMark ends lines at \r too; goldmark only knows \n and \r\n.
		// A lone \r becomes \n: one byte for one byte, so offsets hold.
		body = loneCRToLF(body)
	}
	// Plain CommonMark, plus the oracle's own readings of front matter,
	// GFM bare URLs and delimiter rows (markdown_oracle_rules_test.go):
	// table pipes are prose either way.
	md := goldmark.New()
	doc := md.Parser().Parse(text.NewReader(body))
	w := &gmWalker{src: body, base: base, b: b}
	_ = ast.Walk(doc, w.visit)
	return b.Map("markdown"), nil
}

type gmWalker struct {
	src  []byte // the parsed body (after front matter)
	base int    // offset of src in the file
	b    *Builder
	// lines are the content lines of the block whose inlines are being
	// walked; every text segment must lie inside one of them.
	lines *text.Segments
}

func (w *gmWalker) mark(start, end int, k Kind, why string) {
	if start < 0 || end > len(w.src) || start >= end {
		return
	}
	w.b.Mark(w.base+start, w.base+end, k, why)
}

func (w *gmWalker) visit(n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	switch t := n.(type) {
	case *ast.FencedCodeBlock:
		w.fencedCode(t)
		return ast.WalkSkipChildren, nil
	case *ast.CodeBlock:
		w.markLines(t.Lines(), Runtime, "indented code")
		return ast.WalkSkipChildren, nil
	case *ast.HTMLBlock:
		w.htmlBlock(t)
		return ast.WalkSkipChildren, nil
	case *ast.LinkReferenceDefinition:
		w.markLines(t.Lines(), Runtime, "link reference definition")
		return ast.WalkSkipChildren, nil
	case *ast.CodeSpan:
		w.mark(n.Pos(), w.inlineEnd(n), Runtime, "inline code")
		return ast.WalkSkipChildren, nil
	case *ast.AutoLink:
		w.mark(n.Pos(), w.inlineEnd(n), Runtime, "autolink")
		return ast.WalkSkipChildren, nil
	case *ast.RawHTML:
		w.rawHTML(t)
		return ast.WalkSkipChildren, nil
	case *ast.Link, *ast.Image:
		w.mark(w.childrenEnd(n), w.inlineEnd(n), Runtime, "link destination")
	case *ast.Text:
		w.text(t)
	default:
		if n.Type() == ast.TypeBlock && n.FirstChild() != nil && n.FirstChild().Type() == ast.TypeInline {
			lines := n.Lines()
			w.lines = lines
			for i := 0; i < lines.Len(); i++ {
				w.markBareURLs(lines.At(i))
				w.markTableDelimiter(lines.At(i))
			}
		}
	}
	return ast.WalkContinue, nil
}

// text marks an inline text node's segment as prose after checking that the
// segment is plain bytes of one line.
func (w *gmWalker) text(t *ast.Text) {
	seg := t.Segment
	if t.IsRaw() || seg.Padding != 0 || seg.Start < 0 || seg.Stop > len(w.src) || seg.Start >= seg.Stop {
		return
	}
	if bytes.IndexByte(w.src[seg.Start:seg.Stop], '\n') >= 0 || bytes.IndexByte(w.src[seg.Start:seg.Stop], '\r') >= 0 || !w.inLines(seg) {
		return
	}
	w.mark(seg.Start, seg.Stop, Prose, "text")
}

func (w *gmWalker) markBareURLs(seg text.Segment) {
	for _, sp := range oracleBareURLs(w.src, seg.Start, seg.Stop) {
		w.mark(sp[0], sp[1], Runtime, "bare url")
	}
}

func (w *gmWalker) markTableDelimiter(seg text.Segment) {
	if oracleTableDelimiter(w.src, seg.Start, seg.Stop) {
		w.mark(seg.Start, seg.Stop, Runtime, "table delimiter")
	}
}

// inLines reports whether seg lies inside one content line of the current
// block, which rules out segments reaching into container markers.
func (w *gmWalker) inLines(seg text.Segment) bool {
	if w.lines == nil {
		return false
	}
	n := w.lines.Len()
	i := sort.Search(n, func(i int) bool { return w.lines.At(i).Start > seg.Start }) - 1
	return i >= 0 && seg.Stop <= w.lines.At(i).Stop
}

func (w *gmWalker) markLines(lines *text.Segments, k Kind, why string) {
	for i := 0; i < lines.Len(); i++ {
		s := lines.At(i)
		w.mark(s.Start, s.Stop, k, why)
	}
}

// fencedCode marks a fenced block from its opening fence through its closing
// fence (goldmark keeps only the content lines, so the closing line is found
// by looking at the line after the content).
func (w *gmWalker) fencedCode(t *ast.FencedCodeBlock) {
	lines := t.Lines()
	start := t.Pos()
	if start < 0 || start >= len(w.src) || (lines.Len() > 0 && lines.At(0).Start < start) {
		w.markLines(lines, Runtime, "fenced code")
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
	if lines.Len() > 0 {
		end = lines.At(lines.Len() - 1).Stop
		next = end
		if end > 0 && w.src[end-1] != '\n' {
			next = len(w.src) // content ends the file
		}
	}
	// Skip container prefixes (indentation, block quote markers) roughly;
	// this only decides a label.
	k := next
	for k < len(w.src) && (w.src[k] == ' ' || w.src[k] == '\t' || w.src[k] == '>') {
		k++
	}
	if k < len(w.src) && bytes.HasPrefix(w.src[k:], []byte{fence, fence, fence}) {
		end = lineEnd(w.src, k)
	}
	w.mark(start, end, Runtime, "fenced code")
}

// commentSpans marks the bytes of segs: prose where they lie inside the HTML
// comment whose "<!--" is at open and whose "-->" is at close, line breaks
// excluded; runtime with why everywhere else.
func (w *gmWalker) commentSpans(segs []text.Segment, open, close int, why string) {
	lo, hi := open+4, close
	isProse := func(k int) bool { return k >= lo && k < hi && w.src[k] != '\n' && w.src[k] != '\r' }
	runtimeWhy := func(k int) string {
		if k >= lo && k < hi {
			return "line break"
		}
		return why
	}
	for _, s := range segs {
		if s.Padding != 0 {
			w.mark(s.Start, s.Stop, Runtime, why)
			continue
		}
		for from := s.Start; from < s.Stop; {
			p := isProse(from)
			to := from + 1
			for to < s.Stop && isProse(to) == p {
				to++
			}
			if p {
				w.mark(from, to, Prose, "html comment")
			} else {
				w.mark(from, to, Runtime, runtimeWhy(from))
			}
			from = to
		}
	}
}

// rawHTML handles inline HTML; only a complete comment holds prose.
func (w *gmWalker) rawHTML(t *ast.RawHTML) {
	segs := make([]text.Segment, 0, t.Segments.Len())
	for i := 0; i < t.Segments.Len(); i++ {
		s := t.Segments.At(i)
		if s.Start < 0 || s.Stop > len(w.src) || s.Start > s.Stop {
			return
		}
		segs = append(segs, s)
	}
	if len(segs) == 0 {
		return
	}
	first, last := segs[0], segs[len(segs)-1]
	isComment := bytes.HasPrefix(w.src[first.Start:first.Stop], []byte("<!--"))
	if !isComment || !bytes.HasSuffix(w.src[last.Start:last.Stop], []byte("-->")) || last.Stop-3 < first.Start+4 {
		why := "html tag"
		if isComment {
			why = "html comment marker"
		}
		for _, s := range segs {
			w.mark(s.Start, s.Stop, Runtime, why)
		}
		return
	}
	w.commentSpans(segs, first.Start, last.Stop-3, "html comment marker")
}

// htmlBlock handles block HTML; a comment block (CommonMark type 2) is prose
// between its first "<!--" and the first "-->" after it.
func (w *gmWalker) htmlBlock(t *ast.HTMLBlock) {
	lines := t.Lines()
	segs := make([]text.Segment, 0, lines.Len()+1)
	for i := 0; i < lines.Len(); i++ {
		segs = append(segs, lines.At(i))
	}
	if t.HasClosure() {
		segs = append(segs, t.ClosureLine)
	}
	for _, s := range segs {
		if s.Start < 0 || s.Stop > len(w.src) || s.Start > s.Stop {
			return
		}
	}
	if t.HTMLBlockType != ast.HTMLBlockType2 || len(segs) == 0 {
		for _, s := range segs {
			w.mark(s.Start, s.Stop, Runtime, "html block")
		}
		return
	}
	open := -1
	if k := bytes.Index(w.src[segs[0].Start:segs[0].Stop], []byte("<!--")); k >= 0 {
		open = segs[0].Start + k
	}
	if open < 0 {
		for _, s := range segs {
			w.mark(s.Start, s.Stop, Runtime, "html block")
		}
		return
	}
	// The comment runs to the first "-->" after "<!--" (also "<!-->" and
	// "<!--->"), or to the end of the block when it is not closed.
	close := segs[len(segs)-1].Stop
	closed := false
	for _, s := range segs {
		from := max(s.Start, open+2)
		if k := bytes.Index(w.src[from:s.Stop], []byte("-->")); k >= 0 {
			close = from + k
			closed = true
			break
		}
	}
	if !closed {
		close = segs[len(segs)-1].Stop
	}
	w.commentSpans(segs, open, max(close, open+4), "html comment marker")
}

// startOf returns the first source byte of an inline node, or -1.
func (w *gmWalker) startOf(n ast.Node) int {
	switch t := n.(type) {
	case *ast.Text:
		return t.Segment.Start
	case *ast.RawHTML:
		if t.Segments.Len() > 0 {
			return t.Segments.At(0).Start
		}
		return -1
	}
	return n.Pos()
}

// inlineEnd returns where an inline node ends: where its next sibling
// starts, else where its parent ends; -1 when unknown. It only labels
// runtime bytes, so an imprecise answer costs nothing but a label.
func (w *gmWalker) inlineEnd(n ast.Node) int {
	for n != nil {
		if next := n.NextSibling(); next != nil {
			return w.startOf(next)
		}
		p := n.Parent()
		if p == nil {
			return -1
		}
		if p.Type() == ast.TypeBlock {
			lines := p.Lines()
			if lines.Len() == 0 {
				return -1
			}
			return lines.At(lines.Len() - 1).Stop
		}
		n = p
	}
	return -1
}

// childrenEnd returns the end of the last text inside n, or just after the
// opening bracket when n has none.
func (w *gmWalker) childrenEnd(n ast.Node) int {
	end := -1
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if t, ok := c.(*ast.Text); ok && entering && t.Segment.Stop > end {
			end = t.Segment.Stop
		}
		return ast.WalkContinue, nil
	})
	if end < 0 && n.Pos() >= 0 {
		if _, ok := n.(*ast.Image); ok {
			return n.Pos() + 2
		}
		return n.Pos() + 1
	}
	return end
}

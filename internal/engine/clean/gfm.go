package clean

import (
	"bytes"
	"fmt"
	"strconv"
	"unicode"
	"unicode/utf8"

	"github.com/prosewash/prosewash/internal/engine/region"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// The classifier's map says which bytes are prose; it cannot say
// everything GFM makes of them. Removing a carrier can tick a task box
// ("- [<ZWSP>x]"), turn a cell separator into an escaped pipe ("\<ZWSP>|"),
// start a strikethrough ("~<ZWSP>~x~~"), end an emphasis ("foo*<ZWSP> bar*"),
// make a backslash escape or an entity reference, or form a link. So a
// Markdown file's candidate is also read by goldmark with the GFM
// extensions, the project's reference reader, and its reading compared
// with the input's: the same blocks and inlines with the same attributes,
// and the same text once both sides' carriers are set aside. goldmark is
// not the code under test: the comparison holds whatever the classifier
// says.

// gfmToken is one step of a document's reading: a node with the
// attributes that decide its rendering, or a run of text as rendered
// (escapes and references resolved, carriers dropped, blanks collapsed).
type gfmToken struct {
	what string
	pos  int // input offset it was read from, for the culprit search
}

// gfmParser reads GFM: tables, strikethrough, task lists, autolinks.
func gfmParser() parser.Parser {
	return goldmark.New(goldmark.WithExtensions(extension.GFM)).Parser()
}

// gfmReading returns the tokens of src's GFM reading, in document order;
// withText includes the runs of text.
func gfmReading(p parser.Parser, src []byte, withText bool) []gfmToken {
	doc := p.Parse(text.NewReader(src))
	r := &gfmReader{src: src, withText: withText}
	_ = ast.Walk(doc, r.visit)
	r.flush()
	return r.out
}

type gfmReader struct {
	src      []byte
	withText bool
	out      []gfmToken
	run      []byte // text of the current run of text nodes
	runPos   int
	lastPos  int
}

func (r *gfmReader) flush() {
	if len(r.run) == 0 {
		return
	}
	if t := normalizeText(r.run); t != "" && r.withText {
		r.out = append(r.out, gfmToken{what: "text " + strconv.Quote(t), pos: r.runPos})
	}
	r.run = r.run[:0]
}

func (r *gfmReader) emit(what string, pos int) {
	r.flush()
	if pos < 0 {
		pos = r.lastPos
	}
	r.lastPos = pos
	r.out = append(r.out, gfmToken{what: what, pos: pos})
}

func (r *gfmReader) text(b []byte, pos int) {
	if len(r.run) == 0 {
		r.runPos = pos
	}
	r.lastPos = pos
	r.run = append(r.run, b...)
}

// visit records one node: its kind and attributes on entering, its end on
// leaving, text as it is rendered.
func (r *gfmReader) visit(n ast.Node, entering bool) (ast.WalkStatus, error) {
	switch n := n.(type) {
	case *ast.Text:
		if entering {
			seg := n.Segment
			v := seg.Value(r.src)
			if !n.IsRaw() {
				v = util.ResolveNumericReferences(util.ResolveEntityNames(util.UnescapePunctuations(v)))
			}
			r.text(v, seg.Start)
			switch {
			case n.HardLineBreak():
				r.emit("hard line break", seg.Stop)
			case n.SoftLineBreak():
				r.text([]byte{' '}, seg.Stop)
			}
		}
		return ast.WalkContinue, nil
	case *ast.String:
		if entering {
			r.text(n.Value, -1)
		}
		return ast.WalkContinue, nil
	}
	if !entering {
		r.emit("end "+n.Kind().String(), -1)
		return ast.WalkContinue, nil
	}
	r.emit(nodeWhat(n, r.src), nodePos(n))
	if n.Type() == ast.TypeBlock && n.Lines().Len() > 0 && !hasInlineChildren(n) {
		// Code and HTML blocks: their lines are what they render.
		for i := 0; i < n.Lines().Len(); i++ {
			seg := n.Lines().At(i)
			r.text(seg.Value(r.src), seg.Start)
		}
		r.flush()
	}
	if raw, ok := n.(*ast.RawHTML); ok {
		for i := 0; i < raw.Segments.Len(); i++ {
			seg := raw.Segments.At(i)
			r.text(seg.Value(r.src), seg.Start)
		}
		r.flush()
	}
	return ast.WalkContinue, nil
}

// hasInlineChildren reports whether a block's lines are parsed as inlines
// (paragraphs, headings, table cells): then its children say what it holds.
func hasInlineChildren(n ast.Node) bool {
	switch n.(type) {
	case *ast.FencedCodeBlock, *ast.CodeBlock, *ast.HTMLBlock:
		return false
	}
	return true
}

// nodeWhat names a node with the attributes that decide its rendering.
func nodeWhat(n ast.Node, src []byte) string {
	k := n.Kind().String()
	switch n := n.(type) {
	case *ast.Heading:
		return fmt.Sprintf("%s %d", k, n.Level)
	case *ast.List:
		return fmt.Sprintf("%s ordered=%v start=%d marker=%q tight=%v", k, n.IsOrdered(), n.Start, n.Marker, n.IsTight)
	case *ast.Emphasis:
		return fmt.Sprintf("%s %d", k, n.Level)
	case *ast.Link:
		return fmt.Sprintf("%s %q %q", k, n.Destination, n.Title)
	case *ast.Image:
		return fmt.Sprintf("%s %q %q", k, n.Destination, n.Title)
	case *ast.AutoLink:
		return fmt.Sprintf("%s %d %q", k, n.AutoLinkType, n.URL(src))
	case *ast.FencedCodeBlock:
		info := ""
		if n.Info != nil {
			info = string(n.Info.Segment.Value(src))
		}
		return fmt.Sprintf("%s %q", k, info)
	case *ast.HTMLBlock:
		return fmt.Sprintf("%s %d", k, n.HTMLBlockType)
	case *east.TaskCheckBox:
		return fmt.Sprintf("%s checked=%v", k, n.IsChecked)
	case *east.Table:
		return fmt.Sprintf("%s %v", k, n.Alignments)
	case *east.TableCell:
		return fmt.Sprintf("%s %v", k, n.Alignment)
	}
	return k
}

// nodePos returns the input offset a node starts at, or -1 when it has
// no source position of its own.
func nodePos(n ast.Node) int {
	if n.Type() == ast.TypeBlock && n.Lines().Len() > 0 {
		return n.Lines().At(0).Start
	}
	if t, ok := n.FirstChild().(*ast.Text); ok && n.FirstChild() != nil {
		return t.Segment.Start
	}
	return -1
}

// normalizeText drops what a cleaner may remove from text (controls but
// line breaks and tabs, format characters, default-ignorable code points,
// variation selectors, fillers, whole escape sequences) and reads every
// run of blanks as one space, trimmed at both ends: what is left is what a
// reader sees, which removing carriers must not change.
func normalizeText(b []byte) string {
	out := make([]byte, 0, len(b))
	space := false
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == 0x1b || r == 0x9b || r == 0x9d || r == 0x90 || r == 0x98 || r == 0x9e || r == 0x9f {
			i = escapeEnd(b, i, r, size)
			continue
		}
		i += size
		switch {
		case r == utf8.RuneError && size <= 1:
		case unicode.IsSpace(r) || unicode.Is(unicode.Zs, r) || r == 0x2028 || r == 0x2029:
			space = true
		case vanishes(r):
		default:
			if space && len(out) > 0 {
				out = append(out, ' ')
			}
			space = false
			out = utf8.AppendRune(out, r)
		}
	}
	return string(out)
}

// vanishes reports runes that render as nothing.
func vanishes(r rune) bool {
	switch {
	case r < 0x20 || r >= 0x7f && r < 0xa0:
		return true
	case r == 0x2800 || r == 0xfffc || r == 0x115f || r == 0x1160 || r == 0x3164 || r == 0xffa0:
		return true
	}
	return unicode.In(r, unicode.Cf, unicode.Other_Default_Ignorable_Code_Point, unicode.Variation_Selector)
}

// escapeEnd returns the offset after the escape sequence at b[i] (rune r
// of size bytes): CSI to its final byte, OSC, DCS, SOS, PM and APC strings
// to BEL or ST, ESC and one byte; a malformed sequence ends before the
// byte that breaks it.
func escapeEnd(b []byte, i int, r rune, size int) int {
	j := i + size
	csi, str := r == 0x9b, r != 0x1b && r != 0x9b
	if r == 0x1b && j < len(b) {
		switch c := b[j]; {
		case c == '[':
			csi, j = true, j+1
		case c == ']' || c == 'P' || c == 'X' || c == '^' || c == '_':
			str, j = true, j+1
		case c >= 0x20 && c < 0x7f:
			return j + 1
		}
	}
	switch {
	case csi:
		for j < len(b) && b[j] >= 0x20 && b[j] < 0x40 {
			j++
		}
		if j < len(b) && b[j] >= 0x40 && b[j] < 0x7f {
			j++
		}
	case str:
		for j < len(b) {
			if b[j] == 0x07 {
				return j + 1
			}
			if b[j] == 0x1b && j+1 < len(b) && b[j+1] == '\\' {
				return j + 2
			}
			if bytes.HasPrefix(b[j:], []byte{0xc2, 0x9c}) {
				return j + 2
			}
			j++
		}
	}
	return j
}

// compareGFM compares the GFM readings of in and cand and returns the
// first difference, placed at the input offset it was read from, or nil;
// withText compares the text too, else only nodes and attributes.
func compareGFM(p parser.Parser, in, cand []byte, withText bool) *structDiff {
	a, b := gfmReading(p, in, withText), gfmReading(p, cand, withText)
	for i := 0; i < len(a) || i < len(b); i++ {
		switch {
		case i >= len(a):
			return gfmDiff(len(in), "the end of the document", b[i].what)
		case i >= len(b):
			return gfmDiff(a[i].pos, a[i].what, "the end of the document")
		case a[i].what != b[i].what:
			return gfmDiff(a[i].pos, a[i].what, b[i].what)
		}
	}
	return nil
}

func gfmDiff(at int, was, now string) *structDiff {
	return &structDiff{in: at, was: region.Region{Kind: region.Prose, Why: "GFM: " + clip(was)}, now: region.Region{Kind: region.Prose, Why: "GFM: " + clip(now)}}
}

// clip shortens a token for a message.
func clip(s string) string {
	if len(s) <= 60 {
		return s
	}
	k := 57
	for k > 0 && !utf8.RuneStart(s[k]) {
		k--
	}
	return s[:k] + "..."
}

// maxGFMNesting bounds the block quotes and list items one line may open
// for goldmark to read it. goldmark asks at every container of a line
// whether the rest of the line is a thematic break and counts the column
// from the line's start, so a line nesting d containers costs it d times
// the line: "- - - ... x" 25 KB long took 5.8 s, 100 KB 57 s. The
// classifier reads such a line in linear time; the structure proof cannot,
// so where a line nests deeper its file's carriers are kept. markdown-it
// stops nesting at 100 for the same reason.
const maxGFMNesting = 64

// maxGFMRuns bounds the emphasis delimiter runs ('*', '_', '~') and the
// link openers ('[') one block of lines may hold for goldmark to read it:
// goldmark matches each closer against every opener before it (mixed
// "*a_ " runs: 5 KB took 9 ms, 20 KB 440 ms) and looks through every
// bracket nested in a link text ("[[[...x]]]": 40 KB 0.5 s, 200 KB 7 s).
// Lines count as one block up to a blank line or a line that starts a
// list item or a heading, which ends any paragraph: a paragraph may only
// be shorter than that.
const maxGFMRuns = 1024

// gfmUnreadable returns why goldmark cannot read src in time linear in its
// size (a line nesting more than maxGFMNesting containers, a block of
// lines with more than maxGFMRuns delimiter runs or brackets), or "".
func gfmUnreadable(src []byte) string {
	line := 1
	runs, brackets, from := 0, 0, 1
	for start := 0; start < len(src); line++ {
		end := bytes.IndexByte(src[start:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += start
		}
		l := src[start:end]
		if d := lineNesting(l); d > maxGFMNesting {
			return fmt.Sprintf("line %d opens %d block quotes and list items, more than the %d goldmark reads in linear time", line, d, maxGFMNesting)
		}
		if endsParagraph(l) {
			runs, brackets, from = 0, 0, line
		}
		r, b := inlineRuns(l)
		runs, brackets = runs+r, brackets+b
		if runs > maxGFMRuns || brackets > maxGFMRuns {
			return fmt.Sprintf("lines %d-%d hold more than %d emphasis runs or brackets, more than goldmark reads in linear time", from, line, maxGFMRuns)
		}
		start = end + 1
	}
	return ""
}

// inlineRuns counts the runs of '*', '_' and '~' that can open or close
// emphasis or strikethrough, and the '[' of a line. A '_' run between two
// letters or digits can do neither (CommonMark's intraword rule for '_'):
// snake_case names and the URLs of a table of links hold hundreds of them.
func inlineRuns(l []byte) (runs, brackets int) {
	for i := 0; i < len(l); i++ {
		c := l[i]
		switch c {
		case '[':
			brackets++
		case '*', '_', '~':
			j := i
			for j+1 < len(l) && l[j+1] == c {
				j++
			}
			if c != '_' || i == 0 || j+1 == len(l) || !isAlnum(l[i-1]) || !isAlnum(l[j+1]) {
				runs++
			}
			i = j
		}
	}
	return runs, brackets
}

// isAlnum reports an ASCII letter or digit, or a byte of a multi-byte UTF-8
// character (a letter of another script, as CommonMark's flanking rules
// count most of them).
func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'z' || c >= 0x80
}

// lineNesting counts the container markers a line starts with ('>', a
// bullet or an ordered list number followed by a blank or the end of the
// line), blanks between them: no line opens more containers than that.
// A thematic break ("* * * *") opens none.
func lineNesting(l []byte) int {
	n, i := 0, 0
	for {
		for i < len(l) && (l[i] == ' ' || l[i] == '\t') {
			i++
		}
		j := listMarkerEnd(l, i)
		if i < len(l) && l[i] == '>' {
			j = i + 1
		} else if j < 0 || j < len(l) && l[j] != ' ' && l[j] != '\t' && l[j] != '\r' {
			break
		}
		n++
		i = j
	}
	if n > maxGFMNesting && isBreakLine(l) {
		return 0
	}
	return n
}

// endsParagraph reports a line before which no paragraph goes on: a blank
// line, or one that starts, indented by at most three spaces, a list item
// with content (a bullet, 1. or 1): another number cannot interrupt a
// paragraph), an ATX heading or a thematic break.
func endsParagraph(l []byte) bool {
	rest := bytes.TrimLeft(l, " ")
	if len(bytes.TrimSpace(rest)) == 0 || isBreakLine(rest) {
		return true
	}
	if len(l)-len(rest) > 3 {
		return false
	}
	if h := len(rest) - len(bytes.TrimLeft(rest, "#")); h >= 1 && h <= 6 {
		return h == len(rest) || rest[h] == ' ' || rest[h] == '\t' || rest[h] == '\r'
	}
	j := listMarkerEnd(rest, 0)
	if j < 0 || j > 2 || j == 2 && rest[0] != '1' || j >= len(rest) || rest[j] != ' ' && rest[j] != '\t' {
		return false
	}
	return len(bytes.TrimSpace(rest[j:])) > 0
}

// listMarkerEnd returns the end of the list marker at l[i] ("-", "*",
// "+", up to nine digits and "." or ")"), or -1 when there is none.
func listMarkerEnd(l []byte, i int) int {
	if i >= len(l) {
		return -1
	}
	switch l[i] {
	case '-', '*', '+':
		return i + 1
	}
	j := i
	for j < len(l) && j-i < 9 && l[j] >= '0' && l[j] <= '9' {
		j++
	}
	if j == i || j >= len(l) || l[j] != '.' && l[j] != ')' {
		return -1
	}
	return j + 1
}

// isBreakLine reports a line of one of '*', '-' and '_' and blanks only.
func isBreakLine(l []byte) bool {
	mark := byte(0)
	for _, c := range l {
		switch {
		case c == ' ' || c == '\t' || c == '\r':
		case mark == 0 && (c == '*' || c == '-' || c == '_'):
			mark = c
		case c != mark:
			return false
		}
	}
	return mark != 0
}

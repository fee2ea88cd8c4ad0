package mdline

import (
	"bytes"
	"strings"

	"github.com/prosewash/prosewash/internal/engine/wash/frontmatter"
)

// Kind is what a line is, as far as washing is concerned.
type Kind uint8

const (
	// Text is prose: paragraphs, list items, block quotes, HTML.
	Text Kind = iota
	// Blank is empty or whitespace-only outside code.
	Blank
	// FrontMatter is any line of a closed front matter block, fences included.
	FrontMatter
	// Fence is an opening or closing code fence delimiter.
	Fence
	// Fenced is a line inside a fenced code block (blank ones included).
	Fenced
	// Indented is a line of an indented code block (blank lines inside the block included).
	Indented
	// Heading is an ATX heading or the text line of a setext heading.
	Heading
	// SetextUnderline is the === or --- line under a setext heading.
	SetextUnderline
	// TableSep is a GFM table delimiter row.
	TableSep
	// TableRow is a GFM table header or body row.
	TableRow
	// ThematicBreak is a horizontal rule.
	ThematicBreak
)

var kindNames = [...]string{"text", "blank", "front-matter", "fence", "fenced", "indented", "heading", "setext-underline", "table-sep", "table-row", "thematic-break"}

// String names the kind.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "unknown"
}

// Code reports whether the kind is code (fence delimiters included): never rewritten, and
// inventoried line by line instead of token by token.
func (k Kind) Code() bool { return k == Fence || k == Fenced || k == Indented }

// Line is one line of a file.
type Line struct {
	// Start and End delimit the content, terminator excluded.
	Start, End int
	// TermLen is the terminator's length: 0 (last line without newline), 1 ("\n") or 2 ("\r\n").
	TermLen int
	Kind    Kind
	// Level is the heading level for Heading lines.
	Level int
	// Indent is the leading whitespace width in columns (tabs to the next multiple of 4).
	Indent int
}

// Text returns the line content.
func (l Line) Text(src []byte) []byte { return src[l.Start:l.End] }

// Doc is a classified file.
type Doc struct {
	Src   []byte
	Lines []Line
	FM    frontmatter.Result
	stray []Stray
}

// Stray is a code fence that no matching fence closes: CommonMark runs its block to the end of
// the file (or of the list item holding it), so everything after it silently reads as code.
// A block that does close but holds a line opening a fence with an info string ("```bash") is
// stray too: its opener was left unclosed and the author's next block closed it instead.
type Stray struct {
	// Line is the 1-based line of the stray opening fence.
	Line int
	// End is the 1-based last line its block swallows.
	End int
	// Inner is the 1-based line of the fence opener found inside the block, 0 if none: from
	// there on the block is the author's own code block.
	Inner int
}

// StrayFences lists the stray fences of the document in file order.
func (d *Doc) StrayFences() []Stray { return d.stray }

// StrayFence returns the 1-based line of the first stray code fence of src (one that is never
// closed, or whose block swallows the opener of the next one), or 0 when every fence closes.
func StrayFence(src []byte) int {
	if s := Parse(src).stray; len(s) > 0 {
		return s[0].Line
	}
	return 0
}

// Split cuts src into lines. Only "\n" ends a line; a "\r" directly before it belongs to the
// terminator, a bare "\r" stays content (so it can be reported, never silently re-ended).
func Split(src []byte) []Line {
	var lines []Line
	off := 0
	for off < len(src) {
		i := bytes.IndexByte(src[off:], '\n')
		if i < 0 {
			lines = append(lines, Line{Start: off, End: len(src)})
			break
		}
		end := off + i
		term := 1
		if end > off && src[end-1] == '\r' {
			end--
			term = 2
		}
		lines = append(lines, Line{Start: off, End: end, TermLen: term})
		off += i + 1
	}
	return lines
}

// Parse splits and classifies src.
func Parse(src []byte) *Doc {
	d := &Doc{Src: src, Lines: Split(src), FM: frontmatter.Parse(src)}
	classify(d)
	return d
}

type fence struct {
	char   byte
	length int
	indent int
	// container is the content column of the list item holding the fence (0 at top level): a
	// line indented less ends the item, and the code block with it.
	container int
	line      int // index of the opening line
	inner     int // index of the first content line that opens a fence with an info string, or -1
}

func (f *fence) stray(end int) Stray {
	s := Stray{Line: f.line + 1, End: end + 1}
	if f.inner >= 0 {
		s.Inner = f.inner + 1
	}
	return s
}

// holdsFrontMatter reports whether a closed "---" block is front matter to be read as such: one
// that holds a key or reads as YAML throughout. Two thematic breaks around prose (an excerpt cut
// from the middle of a file, a "---" first line) close a block too, but hold no key and read as
// no YAML; their lines are Markdown. The block's Result is kept, so a file that starts so is still
// refused for rewriting as unreadable.
func holdsFrontMatter(fm frontmatter.Result) bool {
	return fm.State == frontmatter.Closed && (len(fm.Keys) > 0 || !fm.Unreadable)
}

// classify is a line-state machine approximating CommonMark block structure. Where it must
// guess it guesses toward code: a line wrongly taken for code is only inventoried more strictly
// and left untouched by the cutter, while prose wrongly taken for code would never be rewritten.
func classify(d *Doc) {
	src := d.Src
	start := 0
	if holdsFrontMatter(d.FM) {
		for i := range d.Lines {
			if d.Lines[i].Start >= d.FM.End {
				break
			}
			d.Lines[i].Kind = FrontMatter
			start = i + 1
		}
	}
	var open *fence
	paragraph := false // an open paragraph: an indented line continues it rather than starting code
	listCol := 0       // content column of the innermost open list item, 0 outside lists
	prevBlank := true
	inTable := false
	for i := start; i < len(d.Lines); i++ {
		l := &d.Lines[i]
		text := l.Text(src)
		l.Indent = indentWidth(text)
		blank := len(bytes.TrimSpace(text)) == 0
		if open != nil && open.container > 0 && !blank && l.Indent < open.container {
			// The list item ends here and its unclosed code block with it (CommonMark: lazy
			// continuation applies to paragraphs only); the line is read afresh.
			d.stray = append(d.stray, open.stray(i-1))
			open = nil
			listCol = 0
		}
		if open != nil {
			if isFenceClose(text, open, l.Indent) {
				l.Kind = Fence
				if open.inner >= 0 {
					d.stray = append(d.stray, open.stray(i-1))
				}
				open = nil
			} else {
				l.Kind = Fenced
				if open.inner < 0 && innerOpener(text, open, l.Indent) {
					open.inner = i
				}
			}
			prevBlank = false
			continue
		}
		if blank {
			l.Kind = Blank
			// Blank lines between two indented code lines belong to the code block.
			if i > start && d.Lines[i-1].Kind == Indented && nextNonBlankIndented(d, i, listCol) {
				l.Kind = Indented
			}
			paragraph = false
			prevBlank = true
			inTable = false
			continue
		}
		rel := l.Indent - listCol
		if rel >= 4 && !paragraph && (prevBlank || (i > start && d.Lines[i-1].Kind == Indented)) {
			l.Kind = Indented
			prevBlank = false
			continue
		}
		if listCol > 0 && l.Indent < listCol && prevBlank && !isListItem(text) {
			listCol = 0
			rel = l.Indent
		}
		if f, ok := fenceOpen(text, l.Indent, listCol); ok {
			l.Kind = Fence
			f.line, f.inner = i, -1
			if listCol > 0 && l.Indent >= listCol {
				f.container = listCol
			}
			open = &f
			paragraph = false
			prevBlank = false
			continue
		}
		switch {
		case rel <= 3 && atxLevel(text) > 0:
			l.Kind = Heading
			l.Level = atxLevel(text)
			paragraph = false
		case rel <= 3 && paragraph && setextLevel(text) > 0 && i > start && d.Lines[i-1].Kind == Text:
			l.Kind = SetextUnderline
			d.Lines[i-1].Kind = Heading
			d.Lines[i-1].Level = setextLevel(text)
			paragraph = false
		case rel <= 3 && isThematicBreak(text):
			l.Kind = ThematicBreak
			paragraph = false
		case isTableSep(text) && i > start && d.Lines[i-1].Kind == Text && bytes.IndexByte(d.Lines[i-1].Text(src), '|') >= 0:
			l.Kind = TableSep
			d.Lines[i-1].Kind = TableRow
			inTable = true
			paragraph = false
		case inTable && bytes.IndexByte(text, '|') >= 0:
			l.Kind = TableRow
		default:
			l.Kind = Text
			inTable = false
			if col, ok := listContentCol(text); ok {
				listCol = col
				// The item's own text opens a paragraph inside the item.
				paragraph = len(bytes.TrimSpace(text[min(len(text), byteOffsetOfCol(text, col)):])) > 0
			} else {
				paragraph = true
			}
		}
		prevBlank = false
	}
	// An unclosed fence runs to the end of the file (CommonMark), which is already encoded.
	if open != nil {
		d.stray = append(d.stray, open.stray(len(d.Lines)-1))
	}
	// A trailing blank run after indented code is not part of the code block.
	for i := len(d.Lines) - 1; i >= start; i-- {
		l := &d.Lines[i]
		if l.Kind == Indented && len(bytes.TrimSpace(l.Text(src))) == 0 {
			l.Kind = Blank
			continue
		}
		break
	}
}

func nextNonBlankIndented(d *Doc, i, listCol int) bool {
	for j := i + 1; j < len(d.Lines); j++ {
		t := d.Lines[j].Text(d.Src)
		if len(bytes.TrimSpace(t)) == 0 {
			continue
		}
		return indentWidth(t)-listCol >= 4
	}
	return false
}

func indentWidth(b []byte) int {
	col := 0
	for _, c := range b {
		switch c {
		case ' ':
			col++
		case '\t':
			col += 4 - col%4
		default:
			return col
		}
	}
	return col
}

func byteOffsetOfCol(b []byte, col int) int {
	c := 0
	for i, ch := range b {
		if c >= col {
			return i
		}
		switch ch {
		case ' ':
			c++
		case '\t':
			c += 4 - c%4
		default:
			c++
		}
	}
	return len(b)
}

func fenceOpen(text []byte, indent, listCol int) (fence, bool) {
	if indent-listCol > 3 && indent > 3 {
		return fence{}, false
	}
	t := bytes.TrimLeft(text, " \t")
	if len(t) < 3 || (t[0] != '`' && t[0] != '~') {
		return fence{}, false
	}
	c := t[0]
	n := 0
	for n < len(t) && t[n] == c {
		n++
	}
	if n < 3 {
		return fence{}, false
	}
	if c == '`' && bytes.IndexByte(t[n:], '`') >= 0 {
		return fence{}, false
	}
	return fence{char: c, length: n, indent: indent}, true
}

// innerOpener reports a content line that opens a fence of the same kind with an info string
// ("```bash" inside a "```" block): no closing fence can carry one, so it is where the author
// meant a new block to start, and the block holding it was never closed.
func innerOpener(text []byte, f *fence, indent int) bool {
	if indent > f.indent+3 {
		return false
	}
	g, ok := fenceOpen(text, indent, 0)
	if !ok || g.char != f.char || g.length < f.length {
		return false
	}
	t := bytes.TrimLeft(text, " \t")
	return len(bytes.TrimSpace(t[g.length:])) > 0
}

func isFenceClose(text []byte, f *fence, indent int) bool {
	if indent > f.indent+3 {
		return false
	}
	t := bytes.TrimLeft(text, " \t")
	n := 0
	for n < len(t) && t[n] == f.char {
		n++
	}
	return n >= f.length && len(bytes.TrimSpace(t[n:])) == 0
}

func atxLevel(text []byte) int {
	t := bytes.TrimLeft(text, " ")
	n := 0
	for n < len(t) && n < 7 && t[n] == '#' {
		n++
	}
	if n == 0 || n > 6 {
		return 0
	}
	if n < len(t) && t[n] != ' ' && t[n] != '\t' {
		return 0
	}
	return n
}

func setextLevel(text []byte) int {
	t := bytes.TrimSpace(text)
	if len(t) == 0 {
		return 0
	}
	c := t[0]
	if c != '=' && c != '-' {
		return 0
	}
	for _, b := range t {
		if b != c {
			return 0
		}
	}
	if c == '=' {
		return 1
	}
	return 2
}

func isThematicBreak(text []byte) bool {
	t := bytes.TrimSpace(text)
	if len(t) < 3 {
		return false
	}
	c := t[0]
	if c != '-' && c != '*' && c != '_' {
		return false
	}
	n := 0
	for _, b := range t {
		switch b {
		case c:
			n++
		case ' ', '\t':
		default:
			return false
		}
	}
	return n >= 3
}

// isTableSep matches a GFM delimiter row such as "| --- | :-: |" or "--- | ---".
func isTableSep(text []byte) bool {
	if bytes.IndexByte(text, '-') < 0 || bytes.IndexByte(text, '|') < 0 && !bytes.Contains(text, []byte("---")) {
		return false
	}
	for _, c := range text {
		if c != '-' && c != '|' && c != ':' && c != ' ' && c != '\t' {
			return false
		}
	}
	t := strings.TrimSpace(string(text))
	if !strings.Contains(t, "-") {
		return false
	}
	t = strings.Trim(t, "|")
	cells := strings.Split(t, "|")
	if len(cells) < 1 || (len(cells) == 1 && !strings.HasPrefix(strings.TrimSpace(string(text)), "|")) {
		return false
	}
	for _, c := range cells {
		c = strings.TrimSpace(c)
		c = strings.TrimPrefix(c, ":")
		c = strings.TrimSuffix(c, ":")
		if len(c) == 0 || strings.Trim(c, "-") != "" {
			return false
		}
	}
	return true
}

func isListItem(text []byte) bool {
	_, ok := listContentCol(text)
	return ok
}

// listContentCol returns the column where a list item's content starts ("- x" -> 2,
// "10. x" -> 4), or false when the line is not a list item.
func listContentCol(text []byte) (int, bool) {
	indent := indentWidth(text)
	t := text[byteOffsetOfCol(text, indent):]
	n := 0
	switch {
	case len(t) > 0 && (t[0] == '-' || t[0] == '*' || t[0] == '+'):
		n = 1
	default:
		for n < len(t) && n < 9 && t[n] >= '0' && t[n] <= '9' {
			n++
		}
		if n == 0 || n >= len(t) || (t[n] != '.' && t[n] != ')') {
			return 0, false
		}
		n++
	}
	if n == len(t) {
		return indent + n + 1, true
	}
	if t[n] != ' ' && t[n] != '\t' {
		return 0, false
	}
	sp := 0
	for n+sp < len(t) && t[n+sp] == ' ' && sp < 5 {
		sp++
	}
	if sp == 0 || sp > 4 {
		sp = 1
	}
	return indent + n + sp, true
}

// OrdinalPrefix returns the byte length of a leading ordered-list marker ("3. ", "10) ") or
// numbered heading prefix ("## 2.1 ") in text, so number inventories can skip renumbering noise.
func OrdinalPrefix(text []byte) int {
	i := 0
	for i < len(text) && (text[i] == ' ' || text[i] == '\t') {
		i++
	}
	if i < len(text) && text[i] == '#' {
		return headingNumberEnd(text, i)
	}
	return listNumberEnd(text, i)
}

// headingNumberEnd returns where the section number of the heading whose hashes start at i
// ends ("## 2.1 ", "## 3) "), or 0 when the heading opens with no section number: a bare year
// or count ("## 2024 Plans") is a number of the title, not a section number.
func headingNumberEnd(text []byte, i int) int {
	j := i
	for j < len(text) && text[j] == '#' {
		j++
	}
	if j == len(text) || text[j] != ' ' {
		return 0
	}
	for j < len(text) && text[j] == ' ' {
		j++
	}
	k := j
	for k < len(text) && (text[k] >= '0' && text[k] <= '9' || text[k] == '.') {
		k++
	}
	if k < len(text) && text[k] == ')' {
		return k + 1
	}
	if k == j || k < len(text) && text[k] != ' ' || bytes.IndexByte(text[j:k], '.') < 0 {
		return 0
	}
	return k
}

// listNumberEnd returns where an ordered-list marker starting at i ends (up to nine digits,
// then "." or ")" and a space, a tab or the end of the line), or 0 when there is none.
func listNumberEnd(text []byte, i int) int {
	k := i
	for k < len(text) && k-i < 9 && text[k] >= '0' && text[k] <= '9' {
		k++
	}
	if k == i || k >= len(text) || (text[k] != '.' && text[k] != ')') {
		return 0
	}
	if k+1 < len(text) && text[k+1] != ' ' && text[k+1] != '\t' {
		return 0
	}
	return k + 1
}

// HeadingText returns a heading line's text without markers and closing hashes.
func HeadingText(text []byte) string {
	t := strings.TrimSpace(string(text))
	t = strings.TrimLeft(t, "#")
	t = strings.TrimSpace(t)
	t = strings.TrimRight(t, "#")
	return strings.TrimSpace(t)
}

// MaskCodeSpans blanks inline code spans (a run of n backticks up to the
// next run of exactly n) in one line, so what is inside one, an "@" or a
// link, is not read as markup.
func MaskCodeSpans(m []byte) {
	for i := 0; i < len(m); {
		if m[i] != '`' {
			i++
			continue
		}
		n := 0
		for i+n < len(m) && m[i+n] == '`' {
			n++
		}
		end := -1
		for j := i + n; j < len(m); {
			if m[j] != '`' {
				j++
				continue
			}
			k := 0
			for j+k < len(m) && m[j+k] == '`' {
				k++
			}
			if k == n {
				end = j + k
				break
			}
			j += k
		}
		if end < 0 {
			i += n
			continue
		}
		for k := i; k < end; k++ {
			m[k] = ' '
		}
		i = end
	}
}

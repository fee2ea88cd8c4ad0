package region

import (
	"bytes"
	"sort"
	"unicode/utf8"
)

// The Markdown scanner reproduces goldmark's (v1.8.7, MIT licence) block and
// inline parsing decisions without linking goldmark: goldmark's package
// initialisation alone costs every prosewash process about 0.55 ms. The
// readers below mirror goldmark's text.Reader and text.BlockReader closely,
// padding and all, because the exact segments they produce decide which
// bytes are paragraph text; the differential tests hold the two together.

// mdSeg is a source range; padding counts virtual spaces before start that
// stand for the unused part of a tab split by a container's indentation.
type mdSeg struct {
	start, stop, padding int
}

func (s mdSeg) value(src []byte) []byte {
	if s.padding == 0 {
		return src[s.start:s.stop]
	}
	out := make([]byte, 0, s.padding+s.stop-s.start)
	for i := 0; i < s.padding; i++ {
		out = append(out, ' ')
	}
	return append(out, src[s.start:s.stop]...)
}

func (s mdSeg) between(other mdSeg) mdSeg {
	return mdSeg{start: s.start, stop: other.start, padding: s.padding - other.padding}
}

func (s mdSeg) trimRightSpace(src []byte) mdSeg {
	v := src[s.start:s.stop]
	l := trimRightSpaceLen(v)
	if l == len(v) {
		return mdSeg{start: s.start, stop: s.start}
	}
	return mdSeg{start: s.start, stop: s.stop - l, padding: s.padding}
}

func (s mdSeg) trimLeftSpace(src []byte) mdSeg {
	return mdSeg{start: s.start + trimLeftSpaceLen(src[s.start:s.stop]), stop: s.stop}
}

// mdSpace is goldmark's util.IsSpace: tab, line feed, carriage return, space.
func mdSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// mdPunct is goldmark's util.IsPunct: ASCII punctuation.
func mdPunct(c byte) bool {
	return c >= '!' && c <= '/' || c >= ':' && c <= '@' || c >= '[' && c <= '`' || c >= '{' && c <= '~'
}

func mdBlank(b []byte) bool {
	for _, c := range b {
		if !mdSpace(c) {
			return false
		}
	}
	return true
}

func trimLeftSpaceLen(b []byte) int {
	i := 0
	for i < len(b) && mdSpace(b[i]) {
		i++
	}
	return i
}

func trimRightSpaceLen(b []byte) int {
	i := len(b) - 1
	for i >= 0 && mdSpace(b[i]) {
		i--
	}
	return len(b) - 1 - i
}

func tabWidth(col int) int { return 4 - col%4 }

// indentWidth is goldmark's util.IndentWidth.
func indentWidth(b []byte, col int) (width, pos int) {
	for _, c := range b {
		switch c {
		case ' ':
			width++
			pos++
		case '\t':
			width += tabWidth(col + width)
			pos++
		default:
			return
		}
	}
	return
}

// indentPosition is goldmark's util.IndentPositionPadding.
func indentPosition(b []byte, col, paddingv, width int) (pos, padding int) {
	if width == 0 {
		return 0, paddingv
	}
	w, i, p := 0, 0, paddingv
	for ; i < len(b); i++ {
		if p > 0 {
			p--
			w++
			continue
		}
		if b[i] == '\t' && w < width {
			w += tabWidth(col + w)
		} else if b[i] == ' ' && w < width {
			w++
		} else {
			break
		}
	}
	if w >= width {
		return i - paddingv, w - width
	}
	return -1, -1
}

func firstNonSpace(b []byte) int {
	for i, c := range b {
		if c == ' ' || c == '\t' {
			continue
		}
		if c == '\n' {
			return -1
		}
		return i
	}
	return -1
}

// docReader walks the whole document line by line (goldmark's text.Reader).
type docReader struct {
	src        []byte
	line       int
	peeked     []byte
	hasPeek    bool
	pos        mdSeg
	head       int
	lineOffset int
	// colHead, colPos, colVal remember the column of colPos on the line
	// starting at colHead.
	colHead, colPos, colVal int
}

func newDocReader(src []byte) *docReader {
	r := &docReader{src: src, line: -1, lineOffset: -1, colHead: -1}
	r.advanceLine()
	return r
}

func (r *docReader) peekLine() ([]byte, mdSeg) {
	if r.pos.start >= 0 && r.pos.start < len(r.src) {
		if !r.hasPeek {
			r.peeked, r.hasPeek = r.pos.value(r.src), true
		}
		return r.peeked, r.pos
	}
	return nil, r.pos
}

func (r *docReader) offset() int {
	if r.lineOffset < 0 {
		// The column is counted from the line start, resuming from the
		// last count on this line: containers nested on one line would
		// otherwise cost quadratic time.
		v, i := 0, r.head
		if r.colHead == r.head && r.colPos <= r.pos.start && r.colPos >= r.head {
			v, i = r.colVal, r.colPos
		}
		for ; i < r.pos.start; i++ {
			if r.src[i] == '\t' {
				v += tabWidth(v)
			} else {
				v++
			}
		}
		r.colHead, r.colPos, r.colVal = r.head, r.pos.start, v
		r.lineOffset = v - r.pos.padding
	}
	return r.lineOffset
}

func (r *docReader) advance(n int) {
	r.lineOffset = -1
	if r.hasPeek && n < len(r.peeked) && r.pos.padding == 0 {
		r.pos.start += n
		r.hasPeek = false
		return
	}
	r.hasPeek = false
	for ; n > 0 && r.pos.start < len(r.src); n-- {
		if r.pos.padding != 0 {
			r.pos.padding--
			continue
		}
		if r.src[r.pos.start] == '\n' {
			r.advanceLine()
			continue
		}
		r.pos.start++
	}
}

func (r *docReader) advanceAndSetPadding(n, padding int) {
	r.advance(n)
	if padding > r.pos.padding {
		r.lineOffset = -1
		r.pos.padding = padding
	}
}

func (r *docReader) advanceToEOL() {
	if r.pos.start >= len(r.src) {
		return
	}
	r.lineOffset = -1
	i := -1
	if r.hasPeek {
		r.pos.start += len(r.peeked) - r.pos.padding - 1
		if r.src[r.pos.start] == '\n' {
			i = 0
		}
	}
	if i == -1 {
		i = bytes.IndexByte(r.src[r.pos.start:], '\n')
	}
	r.hasPeek = false
	if i != -1 {
		r.pos.start += i
	} else {
		r.pos.start = len(r.src)
	}
	r.pos.padding = 0
}

func (r *docReader) advanceLine() {
	r.lineOffset = -1
	r.hasPeek = false
	r.pos.start = r.pos.stop
	r.head = r.pos.start
	if r.pos.start < 0 || r.pos.start >= len(r.src) {
		return
	}
	r.pos.stop = len(r.src)
	i := 0
	if r.src[r.pos.start] != '\n' {
		i = bytes.IndexByte(r.src[r.pos.start:], '\n')
	}
	if i != -1 {
		r.pos.stop = r.pos.start + i + 1
	}
	r.line++
	r.pos.padding = 0
}

func (r *docReader) skipBlankLines() bool {
	for {
		line, _ := r.peekLine()
		if line == nil {
			return false
		}
		if !mdBlank(line) {
			return true
		}
		r.advanceLine()
	}
}

// blockReader walks the content lines of one block (goldmark's
// text.BlockReader); lines exclude container markers.
type blockReader struct {
	src        []byte
	segs       []mdSeg
	line       int
	pos        mdSeg
	head       int
	last       int
	lineOffset int
}

const invalidPos = -10000

func newBlockReader(src []byte, segs []mdSeg) *blockReader {
	r := &blockReader{src: src}
	r.reset(segs)
	return r
}

func (r *blockReader) reset(segs []mdSeg) {
	r.segs = segs
	r.line = -1
	r.head = 0
	r.last = 0
	r.lineOffset = -1
	r.pos = mdSeg{start: -1, stop: -1}
	if len(segs) > 0 {
		r.last = segs[len(segs)-1].stop
	}
	r.advanceLine()
}

// value is the text of seg as the block's lines hold it, padding included.
func (r *blockReader) value(seg mdSeg) []byte {
	// The last line starting at or before seg (goldmark walks back from
	// the end; lines are in order, so a binary search finds the same one).
	line := sort.Search(len(r.segs), func(i int) bool { return r.segs[i].start > seg.start }) - 1
	ret := make([]byte, 0, seg.stop-seg.start+1)
	i := seg.start
	for ; line < len(r.segs); line++ {
		if line < 0 {
			continue
		}
		s := r.segs[line]
		if i < 0 {
			i = s.start
		}
		for k := 0; k < s.padding; k++ {
			ret = append(ret, ' ')
		}
		for ; i < seg.stop && i < s.stop; i++ {
			ret = append(ret, r.src[i])
		}
		i = -1
		if s.stop > seg.stop {
			break
		}
	}
	return ret
}

func (r *blockReader) precedingChar() rune {
	if r.pos.padding != 0 {
		return ' '
	}
	if len(r.segs) < 1 {
		return '\n'
	}
	if r.line == 0 && r.pos.start <= r.segs[0].start {
		return '\n'
	}
	l := len(r.src)
	i := r.pos.start - 1
	for ; i < l && i >= 0; i-- {
		if r.src[i]&0xC0 != 0x80 {
			break
		}
	}
	if i < 0 || i >= l {
		return '\n'
	}
	return decodeRune(r.src[i:])
}

func (r *blockReader) peek() byte {
	if r.line < len(r.segs) && r.pos.start >= 0 && r.pos.start < r.last {
		if r.pos.padding != 0 {
			return ' '
		}
		return r.src[r.pos.start]
	}
	return 0
}

func (r *blockReader) peekLine() ([]byte, mdSeg) {
	if r.line < len(r.segs) && r.pos.start >= 0 && r.pos.start < r.last {
		return r.pos.value(r.src), r.pos
	}
	return nil, r.pos
}

func (r *blockReader) advance(n int) {
	r.lineOffset = -1
	if n < r.pos.stop-r.pos.start && r.pos.padding == 0 {
		r.pos.start += n
		return
	}
	for ; n > 0; n-- {
		if r.pos.padding != 0 {
			r.pos.padding--
			continue
		}
		if r.pos.start >= r.pos.stop-1 && r.pos.stop < r.last {
			r.advanceLine()
			continue
		}
		r.pos.start++
	}
}

func (r *blockReader) advanceLine() {
	r.setPosition(r.line+1, mdSeg{start: invalidPos, stop: invalidPos})
	r.head = r.pos.start
}

func (r *blockReader) position() (int, mdSeg) { return r.line, r.pos }

func (r *blockReader) setPosition(line int, pos mdSeg) {
	r.lineOffset = -1
	r.line = line
	if pos.start == invalidPos {
		if r.line >= 0 && r.line < len(r.segs) {
			s := r.segs[line]
			r.head = s.start
			r.pos = s
		}
	} else {
		r.pos = pos
		if r.line >= 0 && r.line < len(r.segs) {
			r.head = r.segs[line].start
		}
	}
}

// skipSpaces skips spaces and line breaks and reports how many it skipped.
func (r *blockReader) skipSpaces() int {
	chars := 0
	for {
		line, _ := r.peekLine()
		if line == nil {
			return chars
		}
		for _, c := range line {
			if mdSpace(c) {
				chars++
				r.advance(1)
				continue
			}
			return chars
		}
	}
}

// findClosure is goldmark's findClosureReader with Newline and Advance set
// and neither Nesting nor CodeSpan: it finds the unescaped closer, failing
// at another opener. It returns the segments between, and whether found.
func (r *blockReader) findClosure(opener, closer byte) ([]mdSeg, bool) {
	segs, found, _ := r.findClosureEOF(opener, closer)
	return segs, found
}

// findClosureEOF is findClosure that also reports a search that failed at
// the end of the block (rather than at an opener).
func (r *blockReader) findClosureEOF(opener, closer byte) ([]mdSeg, bool, bool) {
	var ret []mdSeg
	for {
		bs, seg := r.peekLine()
		if bs == nil {
			return nil, false, true
		}
		for i := 0; i < len(bs); i++ {
			c := bs[i]
			if c == '\\' && i < len(bs)-1 && mdPunct(bs[i+1]) {
				i++
				continue
			}
			if c == closer {
				ret = append(ret, mdSeg{start: seg.start, stop: seg.start + i - seg.padding, padding: seg.padding})
				r.advance(i + 1)
				return ret, true, false
			}
			if c == opener {
				return nil, false, false
			}
		}
		r.advanceLine()
		ret = append(ret, seg)
	}
}

// decodeRune decodes the first rune of b as utf8.DecodeRune does.
func decodeRune(b []byte) rune {
	if len(b) > 0 && b[0] < 0x80 {
		return rune(b[0])
	}
	r, _ := utf8.DecodeRune(b)
	return r
}

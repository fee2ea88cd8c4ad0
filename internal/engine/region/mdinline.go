package region

import (
	"bytes"
	"sort"
	"unicode"
	"unicode/utf8"
)

// The inline phase follows goldmark's parser.parseBlock and its default
// inline parsers over the lines of one paragraph or heading, and reports
// the spans goldmark would make text nodes. Two things are simplified, both
// towards runtime: emphasis delimiters are never matched (a run that could
// open or close emphasis stays runtime; one that can do neither is text for
// goldmark too), and reference links are never resolved. A reference link
// forms or not depending on definitions; the scanner treats every such
// bracket as possibly a link and gives up on the rest of the block (all
// runtime) where the two readings could disagree about what follows.

type inlineScanner struct {
	p      *mdParser
	src    []byte
	r      *blockReader
	marks  []Region
	bailed bool

	openers     []linkOpener
	linksFormed int // links that certainly formed
	maybeLinks  int // links that formed or not depending on definitions

	ticks     []tickRun // backtick runs by length, then start
	ticksDone bool

	quoteFrom, quoteTo [2]int // cached quoted-attribute scans (' and ")
	quoteFail          [2]int
	badFrom, badAt     int // cached nextBadRune answer
	closeFail          map[byte]int
	cum                []int // cum[i]: stream length of the lines before line i
}

type linkOpener struct {
	start, stop          int
	image                bool
	linksAtPush, maybeAt int
	// escMark is the index in marks of the bracket's mark when an ESC
	// stands right before it ("ESC[31m", an ANSI escape sequence), else -1.
	escMark int
}

func (s *inlineScanner) mark(start, end int, k Kind, why string) {
	if end <= start {
		return
	}
	if k == Prose && s.bailed {
		return
	}
	s.marks = append(s.marks, Region{Start: start, End: end, Kind: k, Why: why})
}

// bail gives up on the rest of the block: nothing after this point is
// prose.
func (s *inlineScanner) bail() { s.bailed = true }

func isInlineTrigger(c byte) bool {
	switch c {
	case '`', '[', '!', ']', '<', '*', '_':
		return true
	}
	return false
}

// scan classifies the inline content of one block.
func (s *inlineScanner) scan(lines []mdSeg) {
	if s.r == nil {
		s.r = &blockReader{src: s.src}
	}
	s.r.reset(lines)
	s.openers = s.openers[:0]
	s.linksFormed, s.maybeLinks = 0, 0
	s.ticks, s.ticksDone = s.ticks[:0], false
	clear(s.closeFail)
	s.quoteFrom, s.quoteTo = [2]int{-1, -1}, [2]int{-1, -1}
	s.quoteFail = [2]int{1 << 62, 1 << 62}
	s.bailed = false
	s.badFrom, s.badAt = 1, 0
	s.cum = append(s.cum[:0], 0)
	for _, l := range lines {
		if l.padding != 0 {
			s.bail()
		}
		s.cum = append(s.cum, s.cum[len(s.cum)-1]+l.stop-l.start)
	}
	r := s.r
	escaped := false
lines:
	for {
		line, _ := r.peekLine()
		if line == nil {
			break
		}
		lineLength := len(line)
		hard, visible := false, false
		hasNewLine := line[lineLength-1] == '\n'
		switch {
		case ((lineLength >= 3 && line[lineLength-2] == '\\' && line[lineLength-3] != '\\') || (lineLength == 2 && line[lineLength-2] == '\\')) && hasNewLine:
			lineLength -= 2
			hard, visible = true, true
		case ((lineLength >= 4 && line[lineLength-3] == '\\' && line[lineLength-2] == '\r' && line[lineLength-4] != '\\') || (lineLength == 3 && line[lineLength-3] == '\\' && line[lineLength-2] == '\r')) && hasNewLine:
			lineLength -= 3
			hard, visible = true, true
		case lineLength >= 3 && line[lineLength-3] == ' ' && line[lineLength-2] == ' ' && hasNewLine:
			lineLength -= 3
			hard = true
		case lineLength >= 4 && line[lineLength-4] == ' ' && line[lineLength-3] == ' ' && line[lineLength-2] == '\r' && hasNewLine:
			lineLength -= 4
			hard = true
		}
		l, startPos := r.position()
		n := 0
		for i := 0; i < lineLength; i++ {
			c := line[i]
			if c == '\n' {
				break
			}
			if mdPunct(c) && (!escaped || i == 0) && isInlineTrigger(c) {
				r.advance(n)
				n = 0
				savedLine, savedPos := r.position()
				if i != 0 {
					_, cur := r.position()
					s.text(startPos.between(cur))
					_, startPos = r.position()
				}
				if s.inline(c, escaped) {
					continue lines
				}
				r.setPosition(savedLine, savedPos)
			}
			if escaped {
				escaped = false
				n++
				continue
			}
			if c == '\\' {
				escaped = true
				n++
				continue
			}
			n++
		}
		if n != 0 {
			r.advance(n)
		}
		curLine, cur := r.position()
		if l != curLine {
			continue
		}
		diff := startPos.between(cur)
		if hard && visible {
			s.text(diff)
		} else {
			s.text(diff.trimRightSpace(s.src))
		}
		r.advanceLine()
	}
	s.escapeBrackets()
}

func (s *inlineScanner) text(seg mdSeg) {
	if seg.padding != 0 || seg.start < 0 || seg.stop > len(s.src) {
		return
	}
	s.mark(seg.start, seg.stop, Prose, "text")
}

// inline runs the inline parsers goldmark registers for c; it reports
// whether one consumed input (the reader then stands after it).
func (s *inlineScanner) inline(c byte, escaped bool) bool {
	switch c {
	case '`':
		s.codeSpan()
		return true
	case '[', '!', ']':
		return s.link(c, escaped)
	case '<':
		return s.autoLink() || s.rawHTML()
	case '*', '_':
		s.delimiter()
		return true
	}
	return false
}

// codeSpan is goldmark's codeSpanParser: a backtick run opens a span that
// the next run of the same length (on this or a later line) closes;
// without one, the run is text.
func (s *inlineScanner) codeSpan() {
	r := s.r
	line, seg := r.peekLine()
	opener := 0
	for opener < len(line) && line[opener] == '`' {
		opener++
	}
	r.advance(opener)
	_, pos := r.position()
	closeAt := s.nextTickRun(pos.start, opener)
	if closeAt < 0 {
		s.mark(seg.start, seg.start+opener, Prose, "text")
		return
	}
	end := closeAt + opener
	li := sort.Search(len(r.segs), func(i int) bool { return r.segs[i].stop > closeAt })
	if li >= len(r.segs) {
		s.bail()
		return
	}
	r.setPosition(li, mdSeg{start: end, stop: r.segs[li].stop})
	s.mark(seg.start, end, Runtime, "inline code")
}

// nextTickRun returns the start of the first maximal backtick run of
// length n starting at or after from, or -1.
func (s *inlineScanner) nextTickRun(from, n int) int {
	if !s.ticksDone {
		s.ticksDone = true
		for _, l := range s.r.segs {
			b := s.src[l.start:l.stop]
			for i := 0; i < len(b); {
				k := bytes.IndexByte(b[i:], '`')
				if k < 0 {
					break
				}
				i += k
				j := i
				for j < len(b) && b[j] == '`' {
					j++
				}
				s.ticks = append(s.ticks, tickRun{n: j - i, start: l.start + i})
				i = j
			}
		}
		sort.Slice(s.ticks, func(i, j int) bool {
			a, b := s.ticks[i], s.ticks[j]
			return a.n < b.n || a.n == b.n && a.start < b.start
		})
	}
	k := sort.Search(len(s.ticks), func(i int) bool {
		t := s.ticks[i]
		return t.n > n || t.n == n && t.start >= from
	})
	if k < len(s.ticks) && s.ticks[k].n == n {
		return s.ticks[k].start
	}
	return -1
}

type tickRun struct{ n, start int }

func (s *inlineScanner) pushOpener(start, stop int, image bool) {
	s.openers = append(s.openers, linkOpener{start: start, stop: stop, image: image, linksAtPush: s.linksFormed, maybeAt: s.maybeLinks, escMark: -1})
}

// escapeBrackets makes text of every "[" that follows an ESC and that no
// "]" closed by the end of the block (or that a "]" closed without a link,
// see escapeBracket): goldmark leaves such a bracket a text node, and as text it lies in the same prose region as its ESC and
// the rest of the escape sequence ("ESC[31m"), which the cleaner then
// removes whole. A bracket that a "]" closed keeps its runtime mark
// whether a link formed or not; removing the sequence with it would
// change what the "]" closes, and the structure proof sees that.
func (s *inlineScanner) escapeBrackets() {
	for _, o := range s.openers {
		s.escapeBracket(o)
	}
}

// escapeBracket makes text of the bracket of o when an ESC stands before
// it: o is known to open no link.
func (s *inlineScanner) escapeBracket(o linkOpener) {
	if o.escMark >= 0 && !s.bailed {
		s.marks[o.escMark].Kind, s.marks[o.escMark].Why = Prose, "text"
	}
}

// link is goldmark's linkParser.
func (s *inlineScanner) link(c byte, escaped bool) bool {
	r := s.r
	line, seg := r.peekLine()
	switch c {
	case '!':
		if len(line) > 1 && line[1] == '[' {
			r.advance(2)
			s.pushOpener(seg.start, seg.start+2, true)
			s.mark(seg.start, seg.start+2, Runtime, "link")
			return true
		}
		return false
	case '[':
		r.advance(1)
		s.pushOpener(seg.start, seg.start+1, false)
		if seg.start > 0 && s.src[seg.start-1] == 0x1b {
			s.openers[len(s.openers)-1].escMark = len(s.marks)
		}
		s.mark(seg.start, seg.start+1, Runtime, "link")
		return true
	}
	if len(s.openers) == 0 {
		return false
	}
	last := s.openers[len(s.openers)-1]
	s.openers = s.openers[:len(s.openers)-1]
	r.advance(1)
	if n := len(s.openers); n > 0 && s.openers[n-1].stop-s.openers[0].start > 998 {
		s.escapeBracket(last)
		return false
	}
	if !last.image && s.linksFormed > last.linksAtPush {
		s.escapeBracket(last)
		return false // a link inside the text: never a link
	}
	uncertain := !last.image && s.maybeLinks > last.maybeAt
	if uncertain && escaped {
		s.bail()
	}
	l, pos := r.position()
	if r.peek() == '(' {
		if s.parseLink() {
			_, end := r.position()
			if uncertain {
				s.uncertainSpan(pos.start, end.start)
				s.maybeLinks++
			} else if !last.image {
				s.linksFormed++
			}
			s.mark(seg.start, end.start, Runtime, "link destination")
			return true
		}
		r.setPosition(l, pos)
	}
	// From here whether a link forms depends on reference definitions.
	if escaped {
		s.bail()
	}
	s.maybeLinks++
	s.mark(seg.start, seg.start+1, Runtime, "link")
	// The text of a shortcut or collapsed reference is its label: a
	// carrier in it decides whether it matches a definition.
	if s.p.isRefLabel(s.src[last.stop:seg.start]) {
		s.mark(last.stop, seg.start, Runtime, "link label")
	}
	s.referenceChain()
	return true
}

// referenceChain consumes, as runtime, what may follow a possible reference
// link's closing bracket: "[label]" (a full reference, or a new bracket
// pair if the reference is undefined) and "(destination)" (an inline link
// of that new pair), repeatedly.
func (s *inlineScanner) referenceChain() {
	r := s.r
	for !s.bailed {
		l, pos := r.position()
		switch r.peek() {
		case '[':
			r.advance(1)
			if !s.closure('[', ']') {
				r.setPosition(l, pos)
				return
			}
			_, end := r.position()
			// Inside a label brackets are escaped; the rest counts.
			s.uncertainSpan(pos.start+1, end.start-1)
			s.maybeLinks++
			s.mark(pos.start, end.start, Runtime, "link reference")
		case '(':
			if !s.parseLink() {
				r.setPosition(l, pos)
				return
			}
			_, end := r.position()
			s.uncertainSpan(pos.start, end.start)
			s.maybeLinks++
			s.mark(pos.start, end.start, Runtime, "link destination")
			return
		default:
			return
		}
	}
}

// uncertainSpan checks a span that goldmark may read either as part of a
// link or as inline text: where the text reading could start a code span,
// an autolink, raw HTML or a bracket, the two readings can disagree about
// the rest of the block.
func (s *inlineScanner) uncertainSpan(start, end int) {
	if start < 0 || end > len(s.src) || start > end {
		s.bail()
		return
	}
	for _, c := range s.src[start:end] {
		switch c {
		case '`', '<', '[', ']':
			s.bail()
			return
		}
	}
}

func (s *inlineScanner) parseLink() bool {
	r := s.r
	r.advance(1)
	r.skipSpaces()
	if r.peek() == ')' {
		r.advance(1)
		return true
	}
	if !s.parseLinkDestination() {
		return false
	}
	r.skipSpaces()
	if r.peek() == ')' {
		r.advance(1)
		return true
	}
	if !s.parseLinkTitle() {
		return false
	}
	r.skipSpaces()
	if r.peek() == ')' {
		r.advance(1)
		return true
	}
	return false
}

func (s *inlineScanner) parseLinkDestination() bool { return parseLinkDestination(s.r) }

// parseLinkDestination is goldmark's parseLinkDestination: <...> on one
// line, or a run without spaces whose parentheses do not close early.
func parseLinkDestination(r *blockReader) bool {
	r.skipSpaces()
	line, _ := r.peekLine()
	if r.peek() == '<' {
		for i := 1; i < len(line); i++ {
			c := line[i]
			if c == '\\' && i < len(line)-1 && mdPunct(line[i+1]) {
				i++
				continue
			}
			if c == '>' {
				r.advance(i + 1)
				return true
			}
		}
		return false
	}
	opened, i := 0, 0
	for i < len(line) {
		c := line[i]
		if c == '\\' && i < len(line)-1 && mdPunct(line[i+1]) {
			i += 2
			continue
		} else if c == '(' {
			opened++
		} else if c == ')' {
			opened--
			if opened < 0 {
				break
			}
		} else if mdSpace(c) {
			break
		}
		i++
	}
	r.advance(i)
	return i != 0
}

func (s *inlineScanner) parseLinkTitle() bool {
	r := s.r
	r.skipSpaces()
	opener := r.peek()
	if opener != '"' && opener != '\'' && opener != '(' {
		return false
	}
	closer := opener
	if opener == '(' {
		closer = ')'
	}
	r.advance(1)
	return s.closure(opener, closer)
}

// closure runs findClosure from the reader's position, remembering a search
// that reached the end of the block: one starting later (always just after
// an opener that the earlier search passed as escaped text) fails too, and
// repeated attempts stay linear.
func (s *inlineScanner) closure(opener, closer byte) bool {
	_, pos := s.r.position()
	if fail, ok := s.closeFail[closer]; ok && pos.start >= fail {
		return false
	}
	_, found, eof := s.r.findClosureEOF(opener, closer)
	if !found && eof {
		if s.closeFail == nil {
			s.closeFail = map[byte]int{}
		}
		if fail, ok := s.closeFail[closer]; !ok || pos.start < fail {
			s.closeFail[closer] = pos.start
		}
	}
	return found
}

// autoLink is goldmark's autoLinkParser.
func (s *inlineScanner) autoLink() bool {
	r := s.r
	line, seg := r.peekLine()
	stop := findEmailIndex(line[1:])
	if stop < 0 {
		stop = findURLIndex(line[1:])
	}
	if stop < 0 {
		return false
	}
	stop++
	if stop >= len(line) || line[stop] != '>' {
		return false
	}
	r.advance(stop + 1)
	s.mark(seg.start, seg.start+stop+1, Runtime, "autolink")
	return true
}

func isAlnumByte(c byte) bool { return c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'z' }

// findURLIndex matches [A-Za-z][A-Za-z0-9.+-]{1,31}:[^<>\x00-\x20]*.
func findURLIndex(b []byte) int {
	if len(b) == 0 || !(b[0]|0x20 >= 'a' && b[0]|0x20 <= 'z') {
		return -1
	}
	i := 1
	for i < len(b) && (isAlnumByte(b[i]) || b[i] == '.' || b[i] == '+' || b[i] == '-') {
		i++
	}
	if i == 1 || i > 33 || i >= len(b) || b[i] != ':' {
		return -1
	}
	i++
	for i < len(b) && b[i] > 0x20 && b[i] != '<' && b[i] != '>' {
		i++
	}
	return i
}

func isEmailLocal(c byte) bool {
	return isAlnumByte(c) || bytes.IndexByte([]byte(".!#$%&'*+/=?^_`{|}~-"), c) >= 0
}

// findEmailIndex is goldmark's util.FindEmailIndex.
func findEmailIndex(b []byte) int {
	i := 0
	lim := min(len(b), 64)
	for i < lim && isEmailLocal(b[i]) {
		i++
	}
	if i == 0 || i >= len(b) || b[i] != '@' {
		return -1
	}
	i++
	if i >= len(b) {
		return -1
	}
	m := emailDomainLen(b[i:min(len(b), i+256)])
	if m < 0 || m > 255 {
		return -1
	}
	return i + m
}

// rawHTML is goldmark's rawHTMLParser.
func (s *inlineScanner) rawHTML() bool {
	line, _ := s.r.peekLine()
	switch {
	case len(line) > 1 && isAlnumByte(line[1]):
		return s.tag(false)
	case len(line) > 2 && line[1] == '/' && isAlnumByte(line[2]):
		return s.tag(true)
	case hasPrefixStr(line, "<!--"):
		return s.comment()
	case hasPrefixStr(line, "<?"):
		return s.until("?>", &s.p.piCache)
	case len(line) > 2 && line[1] == '!' && line[2] >= 'A' && line[2] <= 'Z':
		return s.until(">", &s.p.declCache)
	case hasPrefixStr(line, "<![CDATA["):
		return s.until("]]>", &s.p.cdataCache)
	}
	return false
}

// comment is goldmark's rawHTMLParser.parseComment; a complete comment's
// inside is prose.
func (s *inlineScanner) comment() bool {
	r := s.r
	savedLine, savedPos := r.position()
	line, seg := r.peekLine()
	for _, empty := range [...]string{"<!-->", "<!--->"} {
		if hasPrefixStr(line, empty) {
			r.advance(len(empty))
			s.mark(seg.start, seg.start+len(empty), Runtime, "html comment marker")
			return true
		}
	}
	if seg.start < s.p.commentCache {
		return false
	}
	offset := 4
	line = line[offset:]
	var segs []mdSeg
	lastStop := 0
	for {
		if k := bytes.Index(line, []byte("-->")); k >= 0 {
			segs = append(segs, mdSeg{start: seg.start, stop: seg.start + offset + k + 3, padding: seg.padding})
			r.advance(offset + k + 3)
			first, last := segs[0], segs[len(segs)-1]
			if last.stop-3 < first.start+4 {
				for _, sg := range segs {
					s.mark(sg.start, sg.stop, Runtime, "html comment marker")
				}
				return true
			}
			s.marks = commentSpans(s.src, s.marks, segs, first.start, last.stop-3, "html comment marker", s.bailed)
			return true
		}
		offset = 0
		segs = append(segs, seg)
		lastStop = seg.stop
		r.advanceLine()
		line, seg = r.peekLine()
		if line == nil {
			break
		}
	}
	s.p.commentCache = lastStop
	r.setPosition(savedLine, savedPos)
	return false
}

// until is goldmark's rawHTMLParser.parseUntil.
func (s *inlineScanner) until(closer string, cache *int) bool {
	r := s.r
	savedLine, savedPos := r.position()
	lastStop := 0
	start := -1
	for {
		line, seg := r.peekLine()
		if line == nil {
			break
		}
		if start < 0 {
			start = seg.start
		}
		if seg.start < *cache {
			r.setPosition(savedLine, savedPos)
			return false
		}
		if k := bytes.Index(line, []byte(closer)); k >= 0 {
			r.advance(k + len(closer))
			s.mark(start, seg.start+k+len(closer), Runtime, "html tag")
			return true
		}
		lastStop = seg.stop
		r.advanceLine()
	}
	*cache = lastStop
	r.setPosition(savedLine, savedPos)
	return false
}

// runeStream presents the rest of a block from a position as one byte
// sequence, as goldmark's rune reader hands it to its tag expressions: it
// ends at the end of the block or at the first byte that does not decode
// (or decodes to U+FFFD).
type runeStream struct {
	s     *inlineScanner
	base  int // block-stream position of the stream's first byte
	badAt int // source offset of the first rune the reader stops at
}

func (s *inlineScanner) newRuneStream(from int) *runeStream {
	k := s.segAt(from)
	st := &runeStream{s: s, base: s.cum[k] + from - s.r.segs[k].start}
	st.badAt = s.nextBadRune(from)
	return st
}

// segAt returns the index of the segment holding source offset off.
func (s *inlineScanner) segAt(off int) int {
	segs := s.r.segs
	k := sort.Search(len(segs), func(i int) bool { return segs[i].start > off }) - 1
	return max(k, 0)
}

// offset maps stream position i to a source offset, or -1 past the end.
func (st *runeStream) offset(i int) int {
	s := st.s
	p := st.base + i
	if i < 0 || p >= s.cum[len(s.cum)-1] {
		return -1
	}
	k := sort.Search(len(s.cum)-1, func(j int) bool { return s.cum[j+1] > p })
	return s.r.segs[k].start + p - s.cum[k]
}

// index maps a source offset inside the block's lines to a stream position.
func (st *runeStream) index(off int) int {
	s := st.s
	k := s.segAt(off)
	return s.cum[k] + off - s.r.segs[k].start - st.base
}

func (st *runeStream) at(i int) (byte, bool) {
	off := st.offset(i)
	if off < 0 || off >= st.badAt {
		return 0, false
	}
	return st.s.src[off], true
}

// nextBadRune returns the source offset of the first byte at or after from
// (inside the block) that goldmark's rune reader stops at, or the block's
// end. Bytes between lines are container markers and indentation (ASCII),
// so decoding the source straight through agrees with decoding line by line.
func (s *inlineScanner) nextBadRune(from int) int {
	if from >= s.badFrom && from <= s.badAt {
		return s.badAt
	}
	end := s.r.segs[len(s.r.segs)-1].stop
	at := end
	for i := from; i < end; {
		if s.src[i] < 0x80 {
			i++
			continue
		}
		r, size := utf8.DecodeRune(s.src[i:end])
		if r == utf8.RuneError {
			at = i
			break
		}
		i += size
	}
	s.badFrom, s.badAt = from, at
	return at
}

// tag matches goldmark's open and close tag expressions over the block's
// remaining lines:
//
//	^<([A-Za-z][A-Za-z0-9-]*)ATTRIBUTE*(?:[ \t]|(?:\r\n|\n){0,1})*/?>
//	^</([A-Za-z][A-Za-z0-9-]*)(?:[ \t]|(?:\r\n|\n){0,1})*>
func (s *inlineScanner) tag(closing bool) bool {
	r := s.r
	_, pos := r.position()
	st := s.newRuneStream(pos.start)
	i := 1
	if closing {
		i = 2
	}
	if c, ok := st.at(i); !ok || !isTagStart(c) {
		return false
	}
	for {
		i++
		if c, ok := st.at(i); !ok || !isTagByte(c) {
			break
		}
	}
	if !closing {
		i, _ = matchAttributes(st, i, func(q byte, from int) int { return s.quoted(st, q, from) })
	}
	for {
		c, ok := st.at(i)
		if !ok || !(c == ' ' || c == '\t' || c == '\n' || c == '\r') {
			break
		}
		if c == '\r' {
			if d, ok := st.at(i + 1); !ok || d != '\n' {
				break
			}
		}
		i++
	}
	if c, ok := st.at(i); !closing && ok && c == '/' {
		i++
	}
	if c, ok := st.at(i); !ok || c != '>' {
		return false
	}
	end := st.offset(i)
	r.advance(i + 1)
	s.mark(pos.start, end+1, Runtime, "html tag")
	return true
}

// quoted finds the closing quote q of an attribute value starting at
// stream position from, or -1. Scans are cached so that repeated attempts
// over the same text stay linear; quotes never occur between lines.
func (s *inlineScanner) quoted(st *runeStream, q byte, from int) int {
	qi := 0
	if q == '"' {
		qi = 1
	}
	a := st.offset(from)
	if a < 0 || a >= s.quoteFail[qi] {
		return -1
	}
	at := -1
	if s.quoteFrom[qi] >= 0 && a >= s.quoteFrom[qi] && a <= s.quoteTo[qi] {
		at = s.quoteTo[qi]
	} else {
		end := s.r.segs[len(s.r.segs)-1].stop
		k := bytes.IndexByte(s.src[a:end], q)
		if k < 0 {
			s.quoteFail[qi] = min(s.quoteFail[qi], a)
			return -1
		}
		at = a + k
		s.quoteFrom[qi], s.quoteTo[qi] = a, at
	}
	if at >= st.badAt {
		return -1
	}
	return st.index(at)
}

// delimiter is goldmark's emphasis parser up to ScanDelimiter: a run that
// can neither open nor close emphasis stays text.
func (s *inlineScanner) delimiter() {
	r := s.r
	before := r.precedingChar()
	line, seg := r.peekLine()
	c := line[0]
	j := 0
	for j < len(line) && line[j] == c {
		j++
	}
	after := ' '
	if j != len(line) {
		k := j
		for k >= 0 && line[k]&0xC0 == 0x80 {
			k--
		}
		after = decodeRune(line[k:])
	}
	bp, bs := punctRune(before), spaceRune(before)
	ap, as := punctRune(after), spaceRune(after)
	left := !as && (!ap || bs || bp)
	right := !bs && (!bp || as || ap)
	var canOpen, canClose bool
	if c == '_' {
		canOpen = left && (!right || bp)
		canClose = right && (!left || ap)
	} else {
		canOpen, canClose = left, right
	}
	r.advance(j)
	if !canOpen && !canClose {
		s.mark(seg.start, seg.start+j, Prose, "text")
		return
	}
	s.mark(seg.start, seg.start+j, Runtime, "emphasis")
}

func punctRune(r rune) bool { return unicode.IsSymbol(r) || unicode.IsPunct(r) }

func spaceRune(r rune) bool { return r <= 256 && mdSpace(byte(r)) || unicode.IsSpace(r) }

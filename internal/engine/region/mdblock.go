package region

import "bytes"

// The block phase follows goldmark's parser.parseBlocks and its default
// block parsers decision for decision: which lines are paragraph text,
// which are code, HTML or link reference definitions, and how far a
// container's markers reach. Only what decides those is kept; goldmark's
// AST becomes a flat node table.

type mdKind uint8

const (
	mkDocument mdKind = iota
	mkBlockquote
	mkList
	mkListItem
	mkParagraph
	mkHeading
	mkThematic
	mkCodeBlock
	mkFenced
	mkHTML
	mkLinkRef
)

// mdBP names the block parser that opened a node, in goldmark's priority
// order.
type mdBP uint8

const (
	bpSetext mdBP = iota
	bpThematic
	bpList
	bpListItem
	bpCode
	bpATX
	bpFenced
	bpQuote
	bpHTML
	bpPara
	bpNone
)

type mdState uint8

const (
	stContinue mdState = 1 << iota
	stClose
	stHasChildren
	stNoChildren
	stRequireParagraph
)

type mdNode struct {
	kind                          mdKind
	bp                            mdBP
	htmlType                      int8
	marker                        byte
	parent, first, last, prev, nx int32
	nchild                        int32
	offset                        int // list item content offset
	lines                         []mdSeg
	closure                       mdSeg // HTML block closing line; start < 0 when none
	from, to                      int   // first byte of the block's first line and end of its last (code labels)
}

type mdOpenResult int

const (
	paragraphContinuation mdOpenResult = iota + 1
	newBlocksOpened
	noBlocksOpened
)

type mdParser struct {
	src []byte
	// labels holds the link reference definitions' labels (labelKey),
	// gathered on first use.
	labels map[string]bool
	r      *docReader
	nodes  []mdNode
	opened []int32

	blockOffset, blockIndent int
	skipList                 bool
	emptyItemBlank           bool
	tbPos                    int
	// breakLine and breakTail remember, for the line ending at breakLine,
	// where its longest tail that could be a thematic break starts.
	breakLine, breakTail  int
	fenceChar             byte
	fenceIndent, fenceLen int
	fenceNode             int32
	tmpPara               int32
	// Document-wide memory of inline HTML scans that found no closer, as
	// goldmark keeps it (a later opener before that point fails at once).
	commentCache, piCache, declCache, cdataCache int
	// failed is set where goldmark would panic; its caller then treats
	// the whole document as unparsed, as the goldmark classifier did.
	failed bool
}

func (p *mdParser) newNode(k mdKind, bp mdBP) int32 {
	p.nodes = append(p.nodes, mdNode{kind: k, bp: bp, parent: -1, first: -1, last: -1, prev: -1, nx: -1, closure: mdSeg{start: -1, stop: -1}})
	return int32(len(p.nodes) - 1)
}

func (p *mdParser) appendChild(parent, n int32) {
	pn := &p.nodes[parent]
	c := &p.nodes[n]
	c.parent, c.prev, c.nx = parent, pn.last, -1
	if pn.last >= 0 {
		p.nodes[pn.last].nx = n
	} else {
		pn.first = n
	}
	pn.last = n
	pn.nchild++
}

func (p *mdParser) removeChild(parent, n int32) {
	c := &p.nodes[n]
	if c.parent != parent || parent < 0 {
		return
	}
	pn := &p.nodes[parent]
	if c.prev >= 0 {
		p.nodes[c.prev].nx = c.nx
	} else {
		pn.first = c.nx
	}
	if c.nx >= 0 {
		p.nodes[c.nx].prev = c.prev
	} else {
		pn.last = c.prev
	}
	pn.nchild--
	c.parent, c.prev, c.nx = -1, -1, -1
}

func (p *mdParser) insertBefore(parent, ref, n int32) {
	c := &p.nodes[n]
	r := &p.nodes[ref]
	c.parent, c.nx, c.prev = parent, ref, r.prev
	if r.prev >= 0 {
		p.nodes[r.prev].nx = n
	} else {
		p.nodes[parent].first = n
	}
	r.prev = n
	p.nodes[parent].nchild++
}

func (p *mdParser) insertAfter(parent, ref, n int32) {
	r := p.nodes[ref]
	if r.nx < 0 {
		p.appendChild(parent, n)
		return
	}
	p.insertBefore(parent, r.nx, n)
}

func (p *mdParser) lastOpened() int32 {
	if len(p.opened) == 0 {
		return -1
	}
	return p.opened[len(p.opened)-1]
}

func (p *mdParser) isParagraph(n int32) bool { return n >= 0 && p.nodes[n].kind == mkParagraph }

func (p *mdParser) parentOf(n int32) int32 { return p.nodes[n].parent }

// parseMarkdownBlocks builds the block tree of src (line breaks are \n or
// \r\n only).
func parseMarkdownBlocks(src []byte) *mdParser {
	p := &mdParser{src: src, r: newDocReader(src), tmpPara: -1, fenceNode: -1, breakLine: -1}
	p.nodes = make([]mdNode, 0, bytes.Count(src, []byte("\n"))/2+16)
	root := p.newNode(mkDocument, bpNone)
	p.parseBlocks(root)
	return p
}

func (p *mdParser) parseBlocks(parent int32) {
	p.opened = p.opened[:0]
	for !p.failed {
		if !p.r.skipBlankLines() {
			return
		}
		if p.openBlocks(parent) != newBlocksOpened {
			return
		}
		p.r.advanceLine()
		for !p.failed {
			opened := p.opened
			l := len(opened)
			if l == 0 {
				break
			}
			lastIndex := l - 1
			for i := 0; i < l; i++ {
				be := opened[i]
				if line, _ := p.r.peekLine(); line == nil {
					p.closeBlocks(lastIndex, 0)
					p.r.advanceLine()
					return
				}
				if !p.isParagraph(be) {
					state := p.continueBlock(be)
					if state&stContinue != 0 {
						if state&stHasChildren != 0 && i == lastIndex {
							p.openBlocks(be)
							break
						}
						continue
					}
				}
				thisParent := parent
				if i != 0 {
					thisParent = opened[i-1]
				}
				lastNode := opened[lastIndex]
				result := p.openBlocks(thisParent)
				if result != paragraphContinuation {
					if opened[lastIndex] != lastNode {
						lastIndex--
					}
					p.closeBlocks(lastIndex, i)
				}
				break
			}
			p.r.advanceLine()
		}
	}
}

func (p *mdParser) closeBlocks(from, to int) {
	blocks := p.opened
	for i := from; i >= to; i-- {
		if i < 0 || i >= len(blocks) {
			p.failed = true
			return
		}
		n := blocks[i]
		if p.isParagraph(n) && p.parentOf(n) >= 0 {
			p.transformParagraph(n)
		}
		if p.parentOf(n) >= 0 {
			p.closeBlock(n)
		}
	}
	if from == len(blocks)-1 {
		blocks = blocks[0:to]
	} else {
		blocks = append(blocks[0:to], blocks[from+1:]...)
	}
	p.opened = blocks
}

// Block parsers tried for a line by its first non-space byte (goldmark's
// blockParsers table with the free parsers appended), as lookup tables.
var (
	bpsDash   = [...]mdBP{bpSetext, bpThematic, bpList, bpListItem, bpCode, bpPara}
	bpsEquals = [...]mdBP{bpSetext, bpCode, bpPara}
	bpsStar   = [...]mdBP{bpThematic, bpList, bpListItem, bpCode, bpPara}
	bpsUnder  = [...]mdBP{bpThematic, bpCode, bpPara}
	bpsDigit  = [...]mdBP{bpList, bpListItem, bpCode, bpPara}
	bpsHash   = [...]mdBP{bpATX, bpCode, bpPara}
	bpsFence  = [...]mdBP{bpFenced, bpCode, bpPara}
	bpsQuote  = [...]mdBP{bpQuote, bpCode, bpPara}
	bpsHTML   = [...]mdBP{bpHTML, bpCode, bpPara}
	bpsFree   = [...]mdBP{bpCode, bpPara}
)

// triggered lists the block parsers tried for a line whose first non-space
// byte is c.
func triggered(c byte) []mdBP {
	switch c {
	case '-':
		return bpsDash[:]
	case '=':
		return bpsEquals[:]
	case '*':
		return bpsStar[:]
	case '_':
		return bpsUnder[:]
	case '+', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return bpsDigit[:]
	case '#':
		return bpsHash[:]
	case '`', '~':
		return bpsFence[:]
	case '>':
		return bpsQuote[:]
	case '<':
		return bpsHTML[:]
	}
	return bpsFree[:]
}

func canInterruptParagraph(bp mdBP) bool { return bp != bpCode && bp != bpPara }

func (p *mdParser) openBlocks(parent int32) mdOpenResult {
	result := noBlocksOpened
	continuable := false
	lastBlock := p.lastOpened()
	if lastBlock >= 0 {
		continuable = p.isParagraph(lastBlock)
	}
retry:
	if p.failed {
		return result
	}
	line, _ := p.r.peekLine()
	w, pos := indentWidth(line, p.r.offset())
	if w >= len(line) {
		p.blockOffset, p.blockIndent = -1, -1
	} else {
		p.blockOffset, p.blockIndent = pos, w
	}
	if line != nil && line[0] != '\n' {
		var bps []mdBP
		if pos < len(line) {
			bps = triggered(line[pos])
		} else {
			bps = triggered(0)
		}
		for _, bp := range bps {
			if continuable && result == noBlocksOpened && !canInterruptParagraph(bp) {
				continue
			}
			if w > 3 && bp != bpCode {
				continue
			}
			lastBlock = p.lastOpened()
			last := lastBlock
			from := p.r.pos.start + max(p.blockOffset, 0)
			n, state := p.openBlock(bp, parent)
			if n < 0 {
				continue
			}
			p.nodes[n].from = from
			if state&stRequireParagraph != 0 && last >= 0 && last == p.nodes[parent].last {
				p.closeBlock(last)
				p.opened = p.opened[:len(p.opened)-1]
				if p.transformParagraph(last) {
					continuable = false
					goto retry
				}
			}
			if last >= 0 && p.parentOf(last) < 0 {
				lastPos := len(p.opened) - 1
				p.closeBlocks(lastPos, lastPos)
			}
			p.appendChild(parent, n)
			result = newBlocksOpened
			p.opened = append(p.opened, n)
			if state&stHasChildren != 0 {
				parent = n
				goto retry
			}
			break
		}
	}
	if result == noBlocksOpened && continuable {
		if p.continueBlock(lastBlock)&stContinue != 0 {
			result = paragraphContinuation
		}
	}
	return result
}

func (p *mdParser) openBlock(bp mdBP, parent int32) (int32, mdState) {
	switch bp {
	case bpSetext:
		return p.openSetext(parent)
	case bpThematic:
		line, seg := p.r.peekLine()
		if seg.start >= p.breakTailOf(seg.stop) && isThematicBreak(line, p.r.offset()) {
			p.r.advanceToEOL()
			return p.newNode(mkThematic, bp), stNoChildren
		}
	case bpList:
		return p.openList(parent)
	case bpListItem:
		return p.openListItem(parent)
	case bpCode:
		line, seg := p.r.peekLine()
		pos, _ := indentPosition(line, p.r.offset(), seg.padding, 4)
		if pos < 0 || mdBlank(line) {
			return -1, 0
		}
		n := p.newNode(mkCodeBlock, bp)
		p.r.advanceToEOL()
		p.nodes[n].to = p.r.pos.start
		return n, stNoChildren
	case bpATX:
		return p.openATX()
	case bpFenced:
		return p.openFenced()
	case bpQuote:
		if p.blockquote() {
			return p.newNode(mkBlockquote, bp), stHasChildren
		}
	case bpHTML:
		return p.openHTML()
	case bpPara:
		line, seg := p.r.peekLine()
		if mdBlank(line) {
			return -1, 0
		}
		n := p.newNode(mkParagraph, bp)
		p.nodes[n].lines = append(p.nodes[n].lines, seg)
		p.r.advanceToEOL()
		return n, stNoChildren
	}
	return -1, 0
}

func (p *mdParser) continueBlock(n int32) mdState {
	nd := &p.nodes[n]
	switch nd.bp {
	case bpQuote:
		if p.blockquote() {
			return stContinue | stHasChildren
		}
		return stClose
	case bpList:
		return p.continueList(n)
	case bpListItem:
		return p.continueListItem(n)
	case bpCode:
		line, seg := p.r.peekLine()
		pos, _ := indentPosition(line, p.r.offset(), seg.padding, 4)
		if pos < 0 && !mdBlank(line) {
			return stClose
		}
		p.r.advanceToEOL()
		nd.to = p.r.pos.start
		return stContinue | stNoChildren
	case bpFenced:
		return p.continueFenced(n)
	case bpHTML:
		return p.continueHTML(n)
	case bpPara:
		line, seg := p.r.peekLine()
		if mdBlank(line) {
			return stClose
		}
		nd.lines = append(nd.lines, seg)
		p.r.advanceToEOL()
		return stContinue | stNoChildren
	}
	return stClose
}

func (p *mdParser) closeBlock(n int32) {
	nd := &p.nodes[n]
	switch nd.bp {
	case bpSetext:
		p.closeSetext(n)
	case bpFenced:
		if p.fenceNode < 0 && p.fenceChar == 0 {
			p.failed = true
			return
		}
		if p.fenceNode == n {
			p.fenceNode, p.fenceChar = -1, 0
		}
	case bpPara:
		if len(nd.lines) != 0 {
			for i := range nd.lines {
				nd.lines[i] = nd.lines[i].trimLeftSpace(p.src)
			}
			last := len(nd.lines) - 1
			nd.lines[last] = nd.lines[last].trimRightSpace(p.src)
		}
		if len(nd.lines) == 0 {
			p.removeChild(nd.parent, n)
		}
	}
}

func (p *mdParser) transformParagraph(n int32) bool {
	p.linkRefTransform(n)
	return p.parentOf(n) < 0
}

// blockquote is goldmark's blockquoteParser.process.
func (p *mdParser) blockquote() bool {
	line, _ := p.r.peekLine()
	w, pos := indentWidth(line, p.r.offset())
	if w > 3 || pos >= len(line) || line[pos] != '>' {
		return false
	}
	pos++
	if pos >= len(line) || line[pos] == '\n' {
		p.r.advance(pos)
		return true
	}
	p.r.advance(pos)
	if line[pos] == ' ' || line[pos] == '\t' {
		padding := 0
		if line[pos] == '\t' {
			padding = tabWidth(p.r.offset()) - 1
		}
		p.r.advanceAndSetPadding(1, padding)
	}
	return true
}

// breakTailOf returns where the longest tail of the line ending at stop
// that holds only blanks and one of '*', '-' and '_' starts (stop + 1 when
// there is none). Only a rest of the line starting there or later can be a
// thematic break: asking isThematicBreak only then keeps a line of nested
// containers ("- - - ... x", goldmark asks at every level) linear.
func (p *mdParser) breakTailOf(stop int) int {
	if p.breakLine == stop {
		return p.breakTail
	}
	i := stop
	if i > 0 && p.src[i-1] == '\n' {
		i--
	}
	for i > 0 && mdSpace(p.src[i-1]) && p.src[i-1] != '\n' {
		i--
	}
	tail := stop + 1
	if i > 0 && (p.src[i-1] == '*' || p.src[i-1] == '-' || p.src[i-1] == '_') {
		mark := p.src[i-1]
		for i > 0 && (p.src[i-1] == mark || mdSpace(p.src[i-1]) && p.src[i-1] != '\n') {
			i--
		}
		tail = i
	}
	p.breakLine, p.breakTail = stop, tail
	return tail
}

func isThematicBreak(line []byte, offset int) bool {
	w, pos := indentWidth(line, offset)
	if w > 3 {
		return false
	}
	mark := byte(0)
	count := 0
	for i := pos; i < len(line); i++ {
		c := line[i]
		if mdSpace(c) {
			continue
		}
		if mark == 0 {
			mark = c
			count = 1
			if mark == '*' || mark == '-' || mark == '_' {
				continue
			}
			return false
		}
		if c != mark {
			return false
		}
		count++
	}
	return count > 2
}

func matchesSetextBar(line []byte) (byte, bool) {
	start, end := 0, len(line)
	space := 0
	for space < len(line) && line[space] == ' ' {
		space++
	}
	if space > 3 || end == 0 {
		return 0, false
	}
	start += space
	level1 := 0
	for start+level1 < end && line[start+level1] == '=' {
		level1++
	}
	c := byte('=')
	level2 := 0
	if level1 == 0 {
		for start+level2 < end && line[start+level2] == '-' {
			level2++
		}
		c = '-'
	}
	if mdSpace(line[end-1]) {
		end -= trimRightSpaceLen(line[start:end])
	}
	if !((level1 > 0 && start+level1 == end) || (level2 > 0 && start+level2 == end)) {
		return 0, false
	}
	return c, true
}

func (p *mdParser) openSetext(parent int32) (int32, mdState) {
	last := p.lastOpened()
	if last < 0 || !p.isParagraph(last) || p.parentOf(last) != parent {
		return -1, 0
	}
	line, seg := p.r.peekLine()
	if _, ok := matchesSetextBar(line); !ok {
		return -1, 0
	}
	n := p.newNode(mkHeading, bpSetext)
	p.nodes[n].lines = []mdSeg{seg}
	p.tmpPara = last
	return n, stNoChildren | stRequireParagraph
}

func (p *mdParser) closeSetext(n int32) {
	seg := p.nodes[n].lines[0]
	p.nodes[n].lines = nil
	tmp := p.tmpPara
	p.tmpPara = -1
	if tmp < 0 {
		p.failed = true
		return
	}
	if len(p.nodes[tmp].lines) == 0 {
		next := p.nodes[n].nx
		seg = seg.trimLeftSpace(p.src)
		parent := p.nodes[n].parent
		if next < 0 || !p.isParagraph(next) {
			para := p.newNode(mkParagraph, bpPara)
			p.nodes[para].lines = []mdSeg{seg}
			p.insertAfter(parent, n, para)
		} else {
			p.nodes[next].lines = append([]mdSeg{seg}, p.nodes[next].lines...)
		}
		p.removeChild(parent, n)
		return
	}
	p.nodes[n].lines = p.nodes[tmp].lines
	if tp := p.nodes[tmp].parent; tp >= 0 {
		p.removeChild(tp, tmp)
	}
}

const (
	notList = iota
	bulletList
	orderedList
)

func parseListItem(line []byte) ([6]int, int) {
	i := 0
	l := len(line)
	var ret [6]int
	for ; i < l && line[i] == ' '; i++ {
	}
	if i > 3 {
		return ret, notList
	}
	ret[1], ret[2] = i, i
	var typ int
	if i < l && (line[i] == '-' || line[i] == '*' || line[i] == '+') {
		i++
		ret[3] = i
		typ = bulletList
	} else if i < l {
		for ; i < l && line[i] >= '0' && line[i] <= '9'; i++ {
		}
		ret[3] = i
		if ret[3] == ret[2] || ret[3]-ret[2] > 9 {
			return ret, notList
		}
		if i < l && (line[i] == '.' || line[i] == ')') {
			i++
			ret[3] = i
		} else {
			return ret, notList
		}
		typ = orderedList
	} else {
		return ret, notList
	}
	if i < l && line[i] != '\n' {
		if w, _ := indentWidth(line[i:], 0); w == 0 {
			return ret, notList
		}
	}
	if i >= l {
		ret[4], ret[5] = -1, -1
		return ret, typ
	}
	ret[4] = i
	ret[5] = len(line)
	if line[ret[5]-1] == '\n' && line[i] != '\n' {
		ret[5]--
	}
	return ret, typ
}

func calcListOffset(line []byte, match [6]int) int {
	if match[4] < 0 || mdBlank(line[match[4]:]) {
		return 1
	}
	offset, _ := indentWidth(line[match[4]:], match[4])
	if offset > 4 {
		offset = 1
	}
	return offset
}

func (p *mdParser) lastOffset(list int32) int {
	if lc := p.nodes[list].last; lc >= 0 {
		if p.nodes[lc].kind != mkListItem {
			p.failed = true
			return 0
		}
		return p.nodes[lc].offset
	}
	return 0
}

func (p *mdParser) openList(parent int32) (int32, mdState) {
	last := p.lastOpened()
	if (last >= 0 && p.nodes[last].kind == mkList) || p.skipList {
		p.skipList = false
		return -1, 0
	}
	line, _ := p.r.peekLine()
	match, typ := parseListItem(line)
	if typ == notList {
		return -1, 0
	}
	start := -1
	if typ == orderedList {
		start = 0
		for _, c := range line[match[2] : match[3]-1] {
			start = start*10 + int(c-'0')
		}
	}
	if p.isParagraph(last) && p.parentOf(last) == parent {
		if typ == orderedList && start != 1 {
			return -1, 0
		}
		if match[4] < 0 || mdBlank(line[match[4]:match[5]]) {
			return -1, 0
		}
	}
	n := p.newNode(mkList, bpList)
	p.nodes[n].marker = line[match[3]-1]
	p.emptyItemBlank = false
	return n, stHasChildren
}

func (p *mdParser) continueList(n int32) mdState {
	line, seg := p.r.peekLine()
	lc := p.nodes[n].last
	if lc < 0 {
		p.failed = true
		return stClose
	}
	if mdBlank(line) {
		if p.nodes[lc].nchild == 0 {
			p.emptyItemBlank = true
		}
		return stContinue | stHasChildren
	}
	offset := p.lastOffset(n)
	lastIsEmpty := p.nodes[lc].nchild == 0
	indent, _ := indentWidth(line, p.r.offset())
	if indent < offset || lastIsEmpty {
		if indent < 4 {
			match, typ := parseListItem(line)
			if typ != notList && match[1]-offset < 4 {
				marker := line[match[3]-1]
				m := p.nodes[n].marker
				if marker != m || (typ == orderedList) != (m == '.' || m == ')') {
					return stClose
				}
				isTb := false
				if seg.stop > p.tbPos {
					isTb = isThematicBreak(line[match[3]-1:], 0)
					p.tbPos = seg.stop
				}
				if isTb {
					isHeading := false
					if last := p.lastOpened(); p.isParagraph(last) {
						if c, ok := matchesSetextBar(line[match[3]-1:]); ok && c == '-' {
							isHeading = true
						}
					}
					if !isHeading {
						return stClose
					}
				}
				return stContinue | stHasChildren
			}
		}
		if !lastIsEmpty {
			return stClose
		}
	}
	if lastIsEmpty && indent < offset {
		return stClose
	}
	if p.emptyItemBlank {
		return stClose
	}
	return stContinue | stHasChildren
}

func (p *mdParser) openListItem(parent int32) (int32, mdState) {
	if p.nodes[parent].kind != mkList {
		return -1, 0
	}
	offset := p.lastOffset(parent)
	line, _ := p.r.peekLine()
	match, typ := parseListItem(line)
	if typ == notList || match[1]-offset > 3 {
		return -1, 0
	}
	p.emptyItemBlank = false
	itemOffset := calcListOffset(line, match)
	n := p.newNode(mkListItem, bpListItem)
	p.nodes[n].offset = match[3] + itemOffset
	if match[4] < 0 || mdBlank(line[match[4]:match[5]]) {
		return n, stNoChildren
	}
	pos, padding := indentPosition(line[match[4]:], match[4], 0, itemOffset)
	p.r.advanceAndSetPadding(match[3]+pos, padding)
	return n, stHasChildren
}

func (p *mdParser) continueListItem(n int32) mdState {
	line, _ := p.r.peekLine()
	if mdBlank(line) {
		p.r.advanceToEOL()
		return stContinue | stHasChildren
	}
	parent := p.nodes[n].parent
	if parent < 0 {
		p.failed = true
		return stClose
	}
	offset := p.lastOffset(parent)
	isEmpty := p.nodes[n].nchild == 0 && p.emptyItemBlank
	indent, _ := indentWidth(line, p.r.offset())
	if (isEmpty || indent < offset) && indent < 4 {
		if _, typ := parseListItem(line); typ != notList {
			p.skipList = true
			return stClose
		}
		if !isEmpty {
			return stClose
		}
	}
	pos, padding := indentPosition(line, p.r.offset(), 0, offset)
	p.r.advanceAndSetPadding(pos, padding)
	return stContinue | stHasChildren
}

func (p *mdParser) openATX() (int32, mdState) {
	line, seg := p.r.peekLine()
	pos := p.blockOffset
	if pos < 0 {
		return -1, 0
	}
	i := pos
	for i < len(line) && line[i] == '#' {
		i++
	}
	level := i - pos
	if i == pos || level > 6 {
		return -1, 0
	}
	n := p.newNode(mkHeading, bpATX)
	if i == len(line) {
		return n, stNoChildren
	}
	l := trimLeftSpaceLen(line[i:])
	if l == 0 {
		p.nodes = p.nodes[:n]
		return -1, 0
	}
	start := min(i+l, len(line)-1)
	hl := mdSeg{start: seg.start + start - seg.padding, stop: seg.start + len(line) - seg.padding}
	hl = hl.trimRightSpace(p.src)
	if hl.stop-hl.start+hl.padding == 0 {
		p.r.advanceToEOL()
		return n, stNoChildren
	}
	v := hl.value(p.src)
	stop := len(v)
	if stop != 0 {
		i = stop - 1
		for ; v[i] == '#' && i > 0; i-- {
		}
		if i == 0 && v[0] == '#' {
			p.r.advanceToEOL()
			return n, stNoChildren
		}
		if i != stop-1 && mdSpace(v[i]) {
			stop = i
			stop -= trimRightSpaceLen(v[0:stop])
		}
	}
	hl.stop = hl.start + stop
	p.nodes[n].lines = []mdSeg{hl}
	p.r.advanceToEOL()
	return n, stNoChildren
}

func (p *mdParser) openFenced() (int32, mdState) {
	line, _ := p.r.peekLine()
	pos := p.blockOffset
	if pos < 0 || (line[pos] != '`' && line[pos] != '~') {
		return -1, 0
	}
	fc := line[pos]
	i := pos
	for i < len(line) && line[i] == fc {
		i++
	}
	if i-pos < 3 {
		return -1, 0
	}
	if i < len(line)-1 {
		rest := line[i:]
		left := trimLeftSpaceLen(rest)
		right := trimRightSpaceLen(rest)
		if left < len(rest)-right && fc == '`' && bytes.IndexByte(rest[left:len(rest)-right], '`') >= 0 {
			return -1, 0
		}
	}
	n := p.newNode(mkFenced, bpFenced)
	p.fenceChar, p.fenceIndent, p.fenceLen, p.fenceNode = fc, pos, i-pos, n
	p.nodes[n].to = p.r.pos.start + len(line) - p.r.pos.padding
	return n, stNoChildren
}

func (p *mdParser) continueFenced(n int32) mdState {
	line, _ := p.r.peekLine()
	if p.fenceChar == 0 {
		p.failed = true
		return stClose
	}
	w, pos := indentWidth(line, p.r.offset())
	if w < 4 {
		i := pos
		for i < len(line) && line[i] == p.fenceChar {
			i++
		}
		if i-pos >= p.fenceLen && mdBlank(line[i:]) {
			p.r.advanceToEOL()
			p.nodes[n].to = p.r.pos.start
			return stClose
		}
	}
	// The content line as goldmark records it; the classifier's labelling
	// of the block (copied from the goldmark-based one) depends on where
	// the first starts and the last ends.
	_, seg := p.r.peekLine()
	cpos, padding := indentPosition(line, p.r.offset(), seg.padding, p.fenceIndent)
	if cpos < 0 {
		cpos = max(0, firstNonSpace(line)) - seg.padding
		padding = 0
	}
	start := seg.start + cpos
	if padding != 0 {
		offsetWithPadding := p.r.offset() + p.fenceIndent
		saved := p.r.pos
		p.r.pos = mdSeg{start: saved.start - 1, stop: saved.stop}
		p.r.lineOffset = -1
		if offsetWithPadding == p.r.offset() {
			start--
		}
		p.r.pos = saved
		p.r.lineOffset = -1
	}
	nd := &p.nodes[n]
	if len(nd.lines) == 0 {
		nd.lines = append(nd.lines, mdSeg{start: start, stop: seg.stop})
	} else {
		nd.lines = append(nd.lines[:1], mdSeg{start: start, stop: seg.stop})
	}
	p.r.advanceToEOL()
	p.nodes[n].to = p.r.pos.start
	return stContinue | stNoChildren
}

func (p *mdParser) openHTML() (int32, mdState) {
	line, seg := p.r.peekLine()
	typ := htmlBlockStart(line, p.isParagraph(p.lastOpened()))
	if typ == 0 {
		return -1, 0
	}
	n := p.newNode(mkHTML, bpHTML)
	p.nodes[n].htmlType = int8(typ)
	p.r.advanceToEOL()
	p.nodes[n].lines = []mdSeg{seg}
	return n, stNoChildren
}

func (p *mdParser) continueHTML(n int32) mdState {
	nd := &p.nodes[n]
	line, seg := p.r.peekLine()
	switch nd.htmlType {
	case 1:
		if len(nd.lines) == 1 && htmlType1Close(nd.lines[0].value(p.src)) {
			return stClose
		}
		if htmlType1Close(line) {
			nd.closure = seg
			p.r.advanceToEOL()
			return stClose
		}
	case 2, 3, 4, 5:
		closer := htmlBlockClosers[nd.htmlType]
		if len(nd.lines) == 1 && bytes.Contains(nd.lines[0].value(p.src), []byte(closer)) {
			return stClose
		}
		if bytes.Contains(line, []byte(closer)) {
			nd.closure = seg
			p.r.advanceToEOL()
			return stClose
		}
	case 6, 7:
		if mdBlank(line) {
			return stClose
		}
	}
	nd.lines = append(nd.lines, seg)
	p.r.advanceToEOL()
	return stContinue | stNoChildren
}

var htmlBlockClosers = [...]string{2: "-->", 3: "?>", 4: ">", 5: "]]>"}

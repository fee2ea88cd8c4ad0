package region

import (
	"strings"
	"unicode"
)

// isRefLabel reports whether text, a bracket pair's content, matches the
// label of one of the document's link reference definitions once
// invisible characters are left out on both sides: such text is a label
// (runtime) whether or not a carrier breaks the match now, since removing
// the carrier would make or break a link.
func (p *mdParser) isRefLabel(text []byte) bool {
	if p.labels == nil {
		p.labels = map[string]bool{}
		for i := range p.nodes {
			nd := &p.nodes[i]
			if nd.kind != mkLinkRef || nd.from < 0 || nd.to > len(p.src) || nd.from >= nd.to {
				continue
			}
			if l, ok := defLabel(p.src[nd.from:nd.to]); ok {
				p.labels[labelKey(l)] = true
			}
		}
	}
	return len(p.labels) > 0 && p.labels[labelKey(text)]
}

// defLabel returns the label of a link reference definition: the text
// between its first '[' and the first unescaped ']'.
func defLabel(def []byte) ([]byte, bool) {
	open := strings.IndexByte(string(def), '[')
	if open < 0 {
		return nil, false
	}
	for j := open + 1; j < len(def); j++ {
		switch def[j] {
		case '\\':
			j++
		case ']':
			return def[open+1 : j], true
		}
	}
	return nil, false
}

// labelKey normalises a link label as CommonMark matches labels (case
// folded, each run of white space one space, trimmed) and also drops the
// invisible characters clean may remove; it errs towards matching.
func labelKey(b []byte) string {
	var sb strings.Builder
	space := false
	for _, r := range string(b) {
		switch {
		case unicode.IsSpace(r) || unicode.Is(unicode.Zs, r):
			space = sb.Len() > 0
		case unicode.In(r, unicode.Cf, unicode.Cc, unicode.Variation_Selector, unicode.Other_Default_Ignorable_Code_Point):
		default:
			if space {
				sb.WriteByte(' ')
				space = false
			}
			sb.WriteString(strings.ToLower(strings.ToUpper(string(r))))
		}
	}
	return sb.String()
}

// linkRefTransform is goldmark's LinkReferenceParagraphTransformer: link
// reference definitions at the start of a paragraph leave it and become
// nodes of their own (runtime); a paragraph made only of them disappears.
func (p *mdParser) linkRefTransform(n int32) {
	lines := p.nodes[n].lines
	r := newBlockReader(p.src, lines)
	var removes [][2]int
	for {
		start, end, from := parseLinkRefDef(r)
		if start < 0 {
			break
		}
		ref := p.newNode(mkLinkRef, bpNone)
		parent := p.nodes[n].parent
		p.insertBefore(parent, n, ref)
		to := lines[start].stop
		if end-1 > start && end-1 < len(lines) {
			to = lines[end-1].stop
		}
		p.nodes[ref].from, p.nodes[ref].to = from, to
		if start == end {
			end++
		}
		removes = append(removes, [2]int{start, end})
	}
	// Definitions follow each other from the first line, so goldmark's
	// removal loop keeps the lines after the last one; doing that at once
	// saves its copying, which is quadratic in the number of definitions.
	consecutive := true
	for i, rm := range removes {
		if (i == 0 && rm[0] != 0) || (i > 0 && rm[0] != removes[i-1][1]) {
			consecutive = false
		}
	}
	if consecutive && len(removes) > 0 {
		if last := removes[len(removes)-1][1]; last <= len(lines) {
			lines = lines[last:]
		} else {
			p.failed = true
			return
		}
		removes = nil
	}
	offset := 0
	for _, rm := range removes {
		if len(lines) == 0 {
			break
		}
		if rm[1]-offset > len(lines) || rm[0]-offset < 0 || rm[0]-offset > len(lines) {
			p.failed = true
			return
		}
		s := lines[rm[1]-offset:]
		lines = append(lines[0:rm[0]-offset], s...)
		offset = rm[1]
	}
	if len(lines) == 0 {
		p.removeChild(p.nodes[n].parent, n)
		return
	}
	p.nodes[n].lines = lines
}

// parseLinkRefDef is goldmark's parseLinkReferenceDefinition without the
// definition itself: it returns the first and end line index of a
// definition at the reader's position (start -1 when there is none) and
// where it starts.
func parseLinkRefDef(r *blockReader) (start, end, from int) {
	r.skipSpaces()
	line, _ := r.peekLine()
	if line == nil {
		return -1, -1, 0
	}
	startLine, _ := r.position()
	width, pos := indentWidth(line, 0)
	if width > 3 {
		return -1, -1, 0
	}
	if width != 0 {
		pos++
	}
	if pos >= len(line) || line[pos] != '[' {
		return -1, -1, 0
	}
	_, startPos := r.position()
	r.advance(pos + 1)
	segs, found := r.findClosure('[', ']')
	if !found {
		return -1, -1, 0
	}
	blank := true
	for _, s := range segs {
		if !mdBlank(r.value(s)) {
			blank = false
			break
		}
	}
	if blank {
		return -1, -1, 0
	}
	if r.peek() != ':' {
		return -1, -1, 0
	}
	r.advance(1)
	r.skipSpaces()
	if !parseLinkDestination(r) {
		return -1, -1, 0
	}
	line, _ = r.peekLine()
	isNewLine := line == nil || mdBlank(line)
	endLine, _ := r.position()
	spaces := r.skipSpaces()
	opener := r.peek()
	if opener != '"' && opener != '\'' && opener != '(' {
		if !isNewLine {
			return -1, -1, 0
		}
		return startLine, endLine + 1, startPos.start
	}
	if spaces == 0 {
		return -1, -1, 0
	}
	r.advance(1)
	closer := opener
	if opener == '(' {
		closer = ')'
	}
	if _, found := r.findClosure(opener, closer); !found {
		if !isNewLine {
			return -1, -1, 0
		}
		r.advanceLine()
		return startLine, endLine + 1, startPos.start
	}
	line, _ = r.peekLine()
	if line != nil && !mdBlank(line) {
		if !isNewLine {
			return -1, -1, 0
		}
		return startLine, endLine, startPos.start
	}
	endLine, _ = r.position()
	return startLine, endLine + 1, startPos.start
}

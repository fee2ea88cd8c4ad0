package region

// Hand-written equivalents of goldmark's HTML regular expressions (block
// start conditions, inline tags, e-mail autolink domains). Each notes the
// expression it replaces; where the expression uses (?i), goldmark's Go
// regexp also folds U+017F (long s) to s, and so do these.

// foldName matches name (lower-case ASCII) at the start of b ignoring case
// and returns the bytes consumed.
func foldName(b []byte, name string) (int, bool) {
	n := 0
	for i := 0; i < len(name); i++ {
		if n < len(b) && b[n]|0x20 == name[i] && (b[n]|0x20 >= 'a' && b[n]|0x20 <= 'z') {
			n++
			continue
		}
		if name[i] == 's' && n+1 < len(b) && b[n] == 0xC5 && b[n+1] == 0xBF {
			n += 2
			continue
		}
		return 0, false
	}
	return n, true
}

var htmlType1Names = [...]string{"script", "pre", "style", "textarea"}

func upTo3Spaces(line []byte) int {
	i := 0
	for i < len(line) && i < 4 && line[i] == ' ' {
		i++
	}
	if i > 3 {
		return -1
	}
	return i
}

func isTagStart(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

func isTagByte(c byte) bool { return isTagStart(c) || c >= '0' && c <= '9' || c == '-' }

// htmlBlockStart returns the CommonMark HTML block type (1-7) that line
// opens, or 0.
func htmlBlockStart(line []byte, lastIsParagraph bool) int {
	i := upTo3Spaces(line)
	if i < 0 || i >= len(line) || line[i] != '<' {
		return 0
	}
	rest := line[i+1:]
	// 1: (?i)^[ ]{0,3}<(script|pre|style|textarea)(?:\s.*|>.*|/>.*|)(?:\r\n|\n)?$
	for _, name := range htmlType1Names {
		n, ok := foldName(rest, name)
		if !ok {
			continue
		}
		after := rest[n:]
		if len(after) == 0 || after[0] == ' ' || after[0] == '\t' || after[0] == '\n' || after[0] == '\f' || after[0] == '\r' || after[0] == '>' || (len(after) > 1 && after[0] == '/' && after[1] == '>') {
			return 1
		}
	}
	switch {
	case hasPrefixStr(rest, "!--"):
		return 2
	case len(rest) > 0 && rest[0] == '?':
		return 3
	case len(rest) > 1 && rest[0] == '!' && rest[1] >= 'A' && rest[1] <= 'Z':
		return 4
	case hasPrefixStr(rest, "![CDATA["):
		return 5
	}
	if name, closing, hasAttr, ok := htmlType7(rest); ok {
		if htmlBlockTag(name) {
			return 6
		}
		lower := string(lowerASCII(name))
		if lower != "script" && lower != "style" && lower != "pre" && !lastIsParagraph && !(closing && hasAttr) {
			return 7
		}
	}
	// 6: ^[ ]{0,3}<(?:/[ ]*)?([a-zA-Z]+[a-zA-Z0-9\-]*)(?:[ ].*|>.*|/>.*|)(?:\r\n|\n)?$
	j := 0
	if j < len(rest) && rest[j] == '/' {
		j++
		for j < len(rest) && rest[j] == ' ' {
			j++
		}
	}
	if j >= len(rest) || !isTagStart(rest[j]) {
		return 0
	}
	k := j
	for k < len(rest) && isTagByte(rest[k]) {
		k++
	}
	after := rest[k:]
	if !(len(after) == 0 || after[0] == ' ' || after[0] == '>' || (len(after) > 1 && after[0] == '/' && after[1] == '>') || string(after) == "\n" || string(after) == "\r\n") {
		return 0
	}
	if htmlBlockTag(rest[j:k]) {
		return 6
	}
	return 0
}

// htmlType7 matches the rest of a line after '<' against
// (/[ ]*)?([a-zA-Z]+[a-zA-Z0-9\-]*)(ATTRIBUTE*)[ ]*(?:>|/>)[ ]*(?:\r\n|\n)?$
func htmlType7(rest []byte) (name []byte, closing, hasAttr, ok bool) {
	j := 0
	if j < len(rest) && rest[j] == '/' {
		j++
		for j < len(rest) && rest[j] == ' ' {
			j++
		}
		// goldmark takes a tag for a closing one only when "/" stands
		// alone in its group: "</ a x>" counts as an opening tag.
		closing = j == 1
	}
	if j >= len(rest) || !isTagStart(rest[j]) {
		return nil, false, false, false
	}
	k := j
	for k < len(rest) && isTagByte(rest[k]) {
		k++
	}
	name = rest[j:k]
	s := byteStream(rest)
	pos, n := s.attributes(k)
	hasAttr = n > 0
	for pos < len(rest) && rest[pos] == ' ' {
		pos++
	}
	switch {
	case pos < len(rest) && rest[pos] == '>':
		pos++
	case pos+1 < len(rest) && rest[pos] == '/' && rest[pos+1] == '>':
		pos += 2
	default:
		return nil, false, false, false
	}
	for pos < len(rest) && rest[pos] == ' ' {
		pos++
	}
	tail := string(rest[pos:])
	if tail != "" && tail != "\n" && tail != "\r\n" {
		return nil, false, false, false
	}
	return name, closing, hasAttr, true
}

// htmlType1Close matches (?i)^.*</(?:script|pre|style|textarea)>.*
func htmlType1Close(line []byte) bool {
	for i := 0; i+1 < len(line); i++ {
		if line[i] == '\n' {
			return false
		}
		if line[i] != '<' || line[i+1] != '/' {
			continue
		}
		for _, name := range htmlType1Names {
			if n, ok := foldName(line[i+2:], name); ok && i+2+n < len(line) && line[i+2+n] == '>' {
				return true
			}
		}
	}
	return false
}

func hasPrefixStr(b []byte, s string) bool { return len(b) >= len(s) && string(b[:len(s)]) == s }

func lowerASCII(b []byte) []byte {
	out := make([]byte, len(b))
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		out[i] = c
	}
	return out
}

// htmlBlockTags is goldmark's allowedBlockTags, sorted.
var htmlBlockTags = [...]string{
	"address", "article", "aside", "base", "basefont", "blockquote", "body", "caption", "center", "col",
	"colgroup", "dd", "details", "dialog", "dir", "div", "dl", "dt", "fieldset", "figcaption", "figure",
	"footer", "form", "frame", "frameset", "h1", "h2", "h3", "h4", "h5", "h6", "head", "header", "hr",
	"html", "iframe", "legend", "li", "link", "main", "menu", "menuitem", "meta", "nav", "noframes", "ol",
	"optgroup", "option", "p", "param", "search", "section", "summary", "table", "tbody", "td", "tfoot",
	"th", "thead", "title", "tr", "track", "ul",
}

func htmlBlockTag(name []byte) bool {
	if len(name) > 10 {
		return false
	}
	var buf [10]byte
	l := buf[:len(name)]
	for i, c := range name {
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		l[i] = c
	}
	for _, t := range htmlBlockTags {
		if t == string(l) {
			return true
		}
	}
	return false
}

// byteStream reads a single line for the block-level attribute matcher;
// runeStream (mdinline.go) reads a block's lines for inline tags. Both
// implement the attribute grammar once.
type byteStream []byte

func (s byteStream) at(i int) (byte, bool) {
	if i < len(s) {
		return s[i], true
	}
	return 0, false
}

// attrStream is what the attribute matcher needs from a stream: the byte
// at a position (false past the end or at a byte goldmark's rune reader
// stops at) and, for quoted values, where the next quote is.
type attrStream interface {
	at(i int) (byte, bool)
}

func isAttrSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isAttrNameStart(c byte) bool { return isTagStart(c) || c == '_' || c == ':' }

func isAttrNameByte(c byte) bool {
	return isAttrNameStart(c) || c >= '0' && c <= '9' || c == '.' || c == '-'
}

func isUnquotedByte(c byte) bool {
	return c > 0x20 && c != '"' && c != '\'' && c != '=' && c != '<' && c != '>' && c != '`'
}

// attributes matches ATTRIBUTE* from i, where ATTRIBUTE is
// (?:[\r\n \t]+[a-zA-Z_:][a-zA-Z0-9:._-]*(?:[\r\n \t]*=[\r\n \t]*
// (?:[^"'=<>`\x00-\x20]+|'[^']*'|"[^"]*"))?), and returns the end and the
// count matched.
func (s byteStream) attributes(i int) (int, int) { return matchAttributes(s, i, nil) }

func matchAttributes(s attrStream, i int, quote func(c byte, from int) int) (int, int) {
	n := 0
	for {
		j := i
		for {
			c, ok := s.at(j)
			if !ok || !isAttrSpace(c) {
				break
			}
			j++
		}
		c, ok := s.at(j)
		if j == i || !ok || !isAttrNameStart(c) {
			return i, n
		}
		j++
		for {
			c, ok := s.at(j)
			if !ok || !isAttrNameByte(c) {
				break
			}
			j++
		}
		i = j
		n++
		// optional value
		for {
			c, ok := s.at(j)
			if !ok || !isAttrSpace(c) {
				break
			}
			j++
		}
		if c, ok := s.at(j); !ok || c != '=' {
			continue
		}
		j++
		for {
			c, ok := s.at(j)
			if !ok || !isAttrSpace(c) {
				break
			}
			j++
		}
		c, ok = s.at(j)
		switch {
		case !ok:
		case c == '\'' || c == '"':
			var end int
			if quote != nil {
				end = quote(c, j+1)
			} else {
				end = -1
				for k := j + 1; ; k++ {
					d, ok := s.at(k)
					if !ok {
						break
					}
					if d == c {
						end = k
						break
					}
				}
			}
			if end >= 0 {
				i = end + 1
			}
		case isUnquotedByte(c):
			for {
				c, ok := s.at(j)
				if !ok || !isUnquotedByte(c) {
					break
				}
				j++
			}
			i = j
		}
	}
}

// emailDomainLen matches
// ^[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*
// with Go's leftmost-first semantics (each label as long as it can be) and
// returns the match length, or -1.
func emailDomainLen(b []byte) int {
	alnum := func(c byte) bool { return c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'z' }
	label := func(i int) int { // end of the label starting at i, or -1
		if i >= len(b) || !alnum(b[i]) {
			return -1
		}
		end := i + 1
		for k := i + 1; k < len(b) && k <= i+62 && (alnum(b[k]) || b[k] == '-'); k++ {
			if alnum(b[k]) {
				end = k + 1
			}
		}
		return end
	}
	end := label(0)
	if end < 0 {
		return -1
	}
	for end < len(b) && b[end] == '.' {
		e := label(end + 1)
		if e < 0 {
			break
		}
		end = e
	}
	return end
}

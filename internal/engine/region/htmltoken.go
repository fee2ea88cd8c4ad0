package region

import "bytes"

// A small HTML tokenizer after the WHATWG tokenization states, reduced to
// what decides extents: where comments, tags, doctypes, bogus comments and
// CDATA sections start and end, and where raw text ends. It never decodes
// anything. golang.org/x/net/html and parse5 are its test oracles; linking
// either would cost start-up time (x/net/html's entity table) or need a
// JavaScript runtime.
//
// The input stream preprocessing of the standard turns \r\n and \r into \n
// before tokenizing, so \r counts as whitespace wherever \n does.

type htmlKind uint8

const (
	hkText     htmlKind = iota // a '<' that starts no markup
	hkStartTag                 // <name ...>
	hkEndTag                   // </name ...>
	hkComment                  // <!-- ... -->
	hkBogus                    // <!x>, <?x>, </1x>: a comment node that nobody wrote as one
	hkDoctype                  // <!DOCTYPE ...>
	hkCDATA                    // <![CDATA[ ... ]]>, only in foreign content
	hkIgnored                  // </>
)

type htmlToken struct {
	kind htmlKind
	end  int
	// eof is set when the token ran into the end of the input: an
	// unterminated comment or a tag the tokenizer drops.
	eof bool
	// nameStart, nameEnd delimit a tag's name.
	nameStart, nameEnd int
	// bodyStart, bodyEnd delimit a comment's data.
	bodyStart, bodyEnd int
}

func isHTMLSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}

// htmlSpaces, attrNameStops and attrValueStops are sets of bytes below
// 0x40, bit c for byte c: the bytes that end an attribute's name (HTML
// space, '/', '>', '=') and an unquoted value (HTML space, '>'). One shift
// and test a byte, where comparing with each cost 11 instructions a byte
// of trace_viewer_full.html's attributes (cachegrind).
const (
	htmlSpaces     = 1<<' ' | 1<<'\t' | 1<<'\n' | 1<<'\f' | 1<<'\r'
	attrNameStops  = htmlSpaces | 1<<'/' | 1<<'>' | 1<<'='
	attrValueStops = htmlSpaces | 1<<'>'
)

// inSet reports whether c is in set, a set of bytes below 0x40.
func inSet(c byte, set uint64) bool { return c < 0x40 && set>>c&1 != 0 }

func isASCIIAlpha(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// htmlTokenAt reads the markup starting with the '<' at i. foreign selects
// the reading inside <svg> and <math>, where <![CDATA[ opens a CDATA
// section instead of a bogus comment.
func htmlTokenAt(src []byte, i int, foreign bool) htmlToken {
	n := len(src)
	if i+1 >= n {
		return htmlToken{kind: hkText, end: i + 1}
	}
	switch c := src[i+1]; {
	case c == '!':
		j := i + 2
		switch {
		case j+1 < n && src[j] == '-' && src[j+1] == '-':
			return htmlComment(src, i)
		case j+7 <= n && asciiFoldEq(src[j:j+7], "doctype"):
			end, eof := htmlUntilGT(src, j+7)
			return htmlToken{kind: hkDoctype, end: end, eof: eof}
		case foreign && bytes.HasPrefix(src[j:], []byte("[CDATA[")):
			if k := bytes.Index(src[j+7:], []byte("]]>")); k >= 0 {
				return htmlToken{kind: hkCDATA, end: j + 7 + k + 3}
			}
			return htmlToken{kind: hkCDATA, end: n, eof: true}
		}
		end, eof := htmlUntilGT(src, j)
		return htmlToken{kind: hkBogus, end: end, eof: eof}
	case c == '?':
		end, eof := htmlUntilGT(src, i+2)
		return htmlToken{kind: hkBogus, end: end, eof: eof}
	case c == '/':
		j := i + 2
		switch {
		case j >= n:
			return htmlToken{kind: hkText, end: i + 1}
		case src[j] == '>':
			return htmlToken{kind: hkIgnored, end: j + 1}
		case isASCIIAlpha(src[j]):
			t := htmlTag(src, j)
			t.kind = hkEndTag
			return t
		}
		end, eof := htmlUntilGT(src, j)
		return htmlToken{kind: hkBogus, end: end, eof: eof}
	case isASCIIAlpha(c):
		t := htmlTag(src, i+1)
		t.kind = hkStartTag
		return t
	}
	return htmlToken{kind: hkText, end: i + 1}
}

// htmlUntilGT returns the offset after the first '>' at or after j, or the
// end of the input.
func htmlUntilGT(src []byte, j int) (int, bool) {
	if k := bytes.IndexByte(src[j:], '>'); k >= 0 {
		return j + k + 1, false
	}
	return len(src), true
}

// htmlComment reads the comment whose "<!--" is at i, following the comment
// states: "<!-->" and "<!--->" close at once, "-->" and "--!>" close, any
// further dashes before '>' belong to the data.
func htmlComment(src []byte, i int) htmlToken {
	n := len(src)
	t := htmlToken{kind: hkComment, bodyStart: i + 4}
	j := i + 4
	// comment start and comment start dash states
	switch {
	case j < n && src[j] == '>':
		t.end, t.bodyEnd = j+1, j
		return t
	case j+1 < n && src[j] == '-' && src[j+1] == '>':
		t.end, t.bodyEnd = j+2, j
		return t
	}
	dashes := 0 // dashes just read; two or more put the tokenizer in the comment end state
	for ; j < n; j++ {
		switch src[j] {
		case '-':
			dashes++
			continue
		case '>':
			if dashes >= 2 {
				t.end, t.bodyEnd = j+1, j-2
				return t
			}
		case '!':
			if dashes >= 2 && j+1 < n {
				switch src[j+1] {
				case '>':
					t.end, t.bodyEnd = j+2, j-2
					return t
				case '-':
					// comment end bang, then '-': the comment end dash state
					dashes = 1
					j++
					continue
				}
			}
		}
		dashes = 0
		// Only dashes can start a closing sequence.
		k := bytes.IndexByte(src[j+1:], '-')
		if k < 0 {
			break
		}
		j += k // the loop's j++ lands on the dash
	}
	t.end, t.bodyEnd, t.eof = n, n, true
	return t
}

// htmlTag reads a start or end tag whose name starts at j (an ASCII letter)
// through the tag name, attribute and self-closing states. A tag cut by the
// end of the input is dropped by the tokenizer (eof-in-tag).
func htmlTag(src []byte, j int) htmlToken {
	n := len(src)
	t := htmlToken{nameStart: j}
	k := j
	for k < n && !isHTMLSpace(src[k]) && src[k] != '/' && src[k] != '>' {
		k++
	}
	t.nameEnd = k
	end, ok := htmlAttrs(src, k, nil)
	if !ok {
		t.end, t.eof = n, true
		return t
	}
	t.end = end
	return t
}

// htmlAttrs runs the attribute states from k (just after the tag name) and
// returns the offset after the tag's '>'. ok is false when the input ends
// first. attr, when not nil, is called for each attribute with its name and
// raw value (quotes removed, character references left as written).
func htmlAttrs(src []byte, k int, attr func(name, value []byte)) (end int, ok bool) {
	n := len(src)
	for k < n {
		// before attribute name
		c := src[k]
		switch {
		case isHTMLSpace(c) || c == '/':
			// A '/' not followed by '>' is ignored (self-closing start
			// tag state, then back to before attribute name).
			if c == '/' && k+1 < n && src[k+1] == '>' {
				return k + 2, true
			}
			k++
			continue
		case c == '>':
			return k + 1, true
		}
		// attribute name; a leading '=' belongs to the name
		ns := k
		k++
		for k < n && !inSet(src[k], attrNameStops) {
			k++
		}
		name := src[ns:k]
		// after attribute name
		for k < n && isHTMLSpace(src[k]) {
			k++
		}
		if k >= n {
			return n, false
		}
		if src[k] != '=' {
			if attr != nil {
				attr(name, nil)
			}
			continue // '/', '>' or the next attribute's name
		}
		k++
		// before attribute value
		for k < n && isHTMLSpace(src[k]) {
			k++
		}
		if k >= n {
			return n, false
		}
		var value []byte
		switch q := src[k]; q {
		case '"', '\'':
			e := bytes.IndexByte(src[k+1:], q)
			if e < 0 {
				return n, false
			}
			value = src[k+1 : k+1+e]
			k += 1 + e + 1
			// after attribute value (quoted): anything else is
			// reconsumed as the next attribute's start.
		case '>':
			// missing attribute value: the tag ends here
		default:
			vs := k
			for k < n && !inSet(src[k], attrValueStops) {
				k++
			}
			value = src[vs:k]
		}
		if attr != nil {
			attr(name, value)
		}
	}
	return n, false
}

// asciiFoldEq reports whether b equals the lower-case ASCII word s,
// ignoring ASCII case.
func asciiFoldEq(b []byte, s string) bool {
	if len(b) != len(s) {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := b[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != s[i] {
			return false
		}
	}
	return true
}

// htmlRawEnd returns the offset of the "</name" that ends the RAWTEXT or
// RCDATA element name whose content starts at i, or len(src): an end tag is
// "</", the name in any ASCII case, then whitespace, '/' or '>'.
func htmlRawEnd(src []byte, i int, name string) int {
	n := len(src)
	for i < n {
		k := bytes.IndexByte(src[i:], '<')
		if k < 0 {
			return n
		}
		i += k
		if htmlEndTagAt(src, i, name) {
			return i
		}
		i++
	}
	return n
}

// htmlEndTagAt reports whether an appropriate end tag for name starts at i.
func htmlEndTagAt(src []byte, i int, name string) bool {
	j := i + 2 + len(name)
	return j < len(src) && src[i+1] == '/' && asciiFoldEq(src[i+2:j], name) &&
		(isHTMLSpace(src[j]) || src[j] == '/' || src[j] == '>')
}

// Script data states: inside <script>, "<!--" starts an escaped section in
// which "<script" starts a double-escaped one, where "</script>" does not end
// the element. htmlScriptEnd returns the offset of the "</script" that ends
// the script whose content starts at i, or len(src).
func htmlScriptEnd(src []byte, i int) int {
	const (
		data = iota
		escaped
		doubleEscaped
	)
	n := len(src)
	state := data
	dashes := 0 // consecutive '-' in the escaped states
	for i < n {
		c := src[i]
		switch state {
		case data:
			k := bytes.IndexByte(src[i:], '<')
			if k < 0 {
				return n
			}
			i += k
			if htmlEndTagAt(src, i, "script") {
				return i
			}
			if i+3 < n && src[i+1] == '!' && src[i+2] == '-' && src[i+3] == '-' {
				// "<!--" then script data escaped dash dash
				state, dashes = escaped, 2
				i += 4
				continue
			}
			i++
		case escaped, doubleEscaped:
			switch c {
			case '-':
				dashes++
				i++
				continue
			case '>':
				if dashes >= 2 {
					state = data
				}
			case '<':
				if state == escaped {
					if htmlEndTagAt(src, i, "script") {
						return i
					}
					// "<script" followed by whitespace, '/' or '>' starts
					// the double-escaped state.
					if j := i + 7; j < n && asciiFoldEq(src[i+1:j], "script") && (isHTMLSpace(src[j]) || src[j] == '/' || src[j] == '>') {
						state = doubleEscaped
						i = j + 1
						dashes = 0
						continue
					}
				} else if j := i + 8; j < n && src[i+1] == '/' && asciiFoldEq(src[i+2:j], "script") && (isHTMLSpace(src[j]) || src[j] == '/' || src[j] == '>') {
					state = escaped
					i = j + 1
					dashes = 0
					continue
				}
			}
			dashes = 0
			i++
		}
	}
	return n
}

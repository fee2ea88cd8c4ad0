package region

// The Python classifier is a hand-written tokenizer for the two things that
// matter: where comments and string literals start and end. It follows
// CPython's rules (Grammar/Tokens, Parser/lexer): lines end at \n, \r\n or
// \r, and nothing else (not U+2028, U+0085 or form feed, which
// str.splitlines would split on); string prefixes are recognised the way the
// C tokenizer does; f-strings and t-strings follow PEP 701 (Python 3.12+),
// whose replacement fields may hold nested strings with the same quote,
// comments and format specs with nested fields. Anything it cannot follow
// makes the rest of the file runtime.

// maxFStringFrames bounds f-string nesting (CPython stops at 150 levels of
// nested f-strings and 200 brackets); deeper input is treated as unclassifiable.
const maxFStringFrames = 512

type pyScanner struct {
	src []byte
	b   *Builder
	// line1End and line2End are the offsets just after the first and second
	// line breaks: shebangs live on line 1, coding cookies on lines 1-2.
	line1End, line2End int

	depth int // bracket depth outside strings

	// Docstring tracking, only used to label runtime regions.
	sawToken   bool // a significant token was seen in the file
	lineHasTok bool // the current logical line has a significant token
	lineHeader bool // the current logical line starts with def, class or async
	pendingDoc bool // the last token ended a def/class header
}

func classifyPython(src []byte) (*Map, error) {
	p := &pyScanner{src: src, b: NewBuilder(len(src))}
	p.line1End = len(src)
	if e := lineEnd(src, 0); e < len(src) {
		p.line1End = afterLineBreak(src, e)
	}
	p.line2End = len(src)
	if p.line1End < len(src) {
		if e := lineEnd(src, p.line1End); e < len(src) {
			p.line2End = afterLineBreak(src, e)
		}
	}
	p.run()
	return p.b.Map("python"), nil
}

func isQuote(c byte) bool { return c == '"' || c == '\'' }

func isIdentStart(c byte) bool { return isWordStart(c) || c >= 0x80 }

func isIdentByte(c byte) bool { return isIdentStart(c) || (c >= '0' && c <= '9') }

func identEnd(src []byte, i int) int {
	for i < len(src) && isIdentByte(src[i]) {
		i++
	}
	return i
}

func numberEnd(src []byte, i int) int {
	for i < len(src) && (isIdentByte(src[i]) || src[i] == '.') && src[i] < 0x80 {
		i++
	}
	return i
}

// pyPrefix is a string prefix as CPython's tokenizer accepts it.
type pyPrefix struct {
	f   bool // f-string or t-string: has replacement fields
	raw bool
}

// parsePyPrefix replays the C tokenizer's prefix loop over run, the identifier
// bytes right before a quote. ok is false when the run is an ordinary name,
// in which case the quote starts an unprefixed string.
func parsePyPrefix(run []byte) (pyPrefix, bool) {
	var sawB, sawR, sawU, sawF, sawT bool
	if len(run) == 0 || len(run) > 3 {
		return pyPrefix{}, false
	}
	for _, c := range run {
		switch c | 0x20 {
		case 'b':
			if sawB || sawU || sawF || sawT {
				return pyPrefix{}, false
			}
			sawB = true
		case 'u':
			if sawB || sawU || sawR || sawF || sawT {
				return pyPrefix{}, false
			}
			sawU = true
		case 'r':
			if sawR || sawU {
				return pyPrefix{}, false
			}
			sawR = true
		case 'f':
			if sawF || sawB || sawU || sawT {
				return pyPrefix{}, false
			}
			sawF = true
		case 't':
			if sawT || sawB || sawU || sawF {
				return pyPrefix{}, false
			}
			sawT = true
		default:
			return pyPrefix{}, false
		}
	}
	return pyPrefix{f: sawF || sawT, raw: sawR}, true
}

func (p *pyScanner) run() {
	src := p.src
	n := len(src)
	i := 0
	for i < n {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\f':
			i++
		case c == '\n' || c == '\r':
			if p.depth == 0 {
				p.lineHasTok, p.lineHeader = false, false
			}
			i++
		case c == '#':
			j := lineEnd(src, i)
			p.comment(i, j)
			i = j
		case c == '\\':
			// A continuation joins the next physical line to this logical line.
			i++
			if i < n && (src[i] == '\n' || src[i] == '\r') {
				i = afterLineBreak(src, i)
			}
		case isQuote(c):
			if i = p.stringAt(i, i, pyPrefix{}); i < 0 {
				return
			}
		case isIdentStart(c):
			j := identEnd(src, i)
			if j < n && isQuote(src[j]) {
				if pf, ok := parsePyPrefix(src[i:j]); ok {
					if i = p.stringAt(i, j, pf); i < 0 {
						return
					}
					continue
				}
			}
			p.token(src[i:j])
			i = j
		case c >= '0' && c <= '9':
			p.token(nil)
			i = numberEnd(src, i)
		case c == '(' || c == '[' || c == '{':
			p.token(nil)
			p.depth++
			i++
		case c == ')' || c == ']' || c == '}':
			p.token(nil)
			if p.depth > 0 {
				p.depth--
			}
			i++
		case c == ':':
			p.token(nil)
			if p.depth == 0 && p.lineHeader {
				p.pendingDoc = true
			}
			i++
		default:
			p.token(nil)
			i++
		}
	}
}

// token records a significant token for docstring labelling.
func (p *pyScanner) token(word []byte) {
	if !p.lineHasTok {
		p.lineHasTok = true
		w := string(word) // compared, not kept: no allocation
		p.lineHeader = w == "def" || w == "class" || w == "async"
	}
	p.sawToken = true
	p.pendingDoc = false
}

// stringAt marks the string whose prefix starts at start and whose opening
// quote is at q, and returns the offset after it, or -1 when the string never
// ends: then the rest of the file is runtime.
func (p *pyScanner) stringAt(start, q int, pf pyPrefix) int {
	doc := !p.sawToken || p.pendingDoc
	p.token(nil)
	var end int
	var ok bool
	if pf.f {
		end, ok = scanFString(p.src, q, pf.raw)
	} else {
		end, ok = scanPyString(p.src, q)
	}
	if !ok {
		p.b.Mark(start, len(p.src), Runtime, "unterminated string")
		return -1
	}
	why := "string literal"
	switch {
	case pf.f:
		why = "f-string"
	case doc:
		why = "docstring"
	}
	p.b.Mark(start, end, Runtime, why)
	return end
}

// quoteLen returns 3 for a triple quote at q, else 1.
func quoteLen(src []byte, q int) int {
	if q+2 < len(src) && src[q+1] == src[q] && src[q+2] == src[q] {
		return 3
	}
	return 1
}

// closesAt reports whether the quote run at i closes a string opened with
// quote c of length ql.
func closesAt(src []byte, i int, c byte, ql int) bool {
	if src[i] != c {
		return false
	}
	return ql == 1 || (i+2 < len(src) && src[i+1] == c && src[i+2] == c)
}

// skipPyEscape returns the offset after the backslash escape at i. A
// backslash escapes the next character in every string, raw ones included
// (r"\"" is one string), and \r\n counts as one character.
func skipPyEscape(src []byte, i int) int {
	if i+2 < len(src) && src[i+1] == '\r' && src[i+2] == '\n' {
		return i + 3
	}
	return i + 2
}

// scanPyString returns the offset after the plain (non-f) string whose
// opening quote is at q.
func scanPyString(src []byte, q int) (int, bool) {
	c := src[q]
	ql := quoteLen(src, q)
	for i := q + ql; i < len(src); {
		switch src[i] {
		case '\\':
			i = skipPyEscape(src, i)
		case '\n', '\r':
			if ql == 1 {
				return 0, false
			}
			i++
		case c:
			if closesAt(src, i, c, ql) {
				return i + ql, true
			}
			i++
		default:
			i++
		}
	}
	return 0, false
}

// fFrame is one level of an f-string being scanned: either the literal body
// of an f-string, or a replacement field inside one (in its expression part
// or in its format spec).
type fFrame struct {
	field  bool
	spec   bool
	depth  int // bracket depth inside the field's expression
	quote  byte
	ql     int
	raw    bool
	uniEsc bool // inside \N{...}, whose braces are not fields
}

// scanFString returns the offset after the f-string (or t-string) whose
// opening quote is at q, following PEP 701.
func scanFString(src []byte, q int, raw bool) (int, bool) {
	n := len(src)
	ql := quoteLen(src, q)
	stack := make([]fFrame, 1, 4)
	stack[0] = fFrame{quote: src[q], ql: ql, raw: raw}
	i := q + ql
	for len(stack) > 0 {
		if i >= n || len(stack) > maxFStringFrames {
			return 0, false
		}
		f := &stack[len(stack)-1]
		c := src[i]
		if !f.field || f.spec {
			// Literal text: the f-string body or a format spec.
			if closesAt(src, i, f.quote, f.ql) {
				if f.field {
					return 0, false // CPython: the string ends inside a field
				}
				i += f.ql
				stack = stack[:len(stack)-1]
				continue
			}
			switch c {
			case '\n', '\r':
				if f.ql == 1 {
					return 0, false
				}
				i++
			case '\\':
				if i+1 < n && (src[i+1] == '{' || src[i+1] == '}') {
					i++ // a backslash does not escape a brace
					continue
				}
				if !f.raw && i+2 < n && src[i+1] == 'N' && src[i+2] == '{' {
					f.uniEsc = true
					i += 3
					continue
				}
				i = skipPyEscape(src, i)
			case '{':
				if !f.field && i+1 < n && src[i+1] == '{' {
					i += 2
					continue
				}
				stack = append(stack, fFrame{field: true, quote: f.quote, ql: f.ql, raw: f.raw})
				i++
			case '}':
				switch {
				case f.uniEsc:
					f.uniEsc = false
					i++
				case f.field:
					stack = stack[:len(stack)-1] // the spec's '}' closes its field
					i++
				case i+1 < n && src[i+1] == '}':
					i += 2
				default:
					return 0, false // a single '}' is a syntax error
				}
			default:
				i++
			}
			continue
		}
		// Expression part of a replacement field: ordinary Python tokens.
		switch {
		case c == '#':
			i = lineEnd(src, i)
		case isQuote(c):
			end, ok := scanPyString(src, i)
			if !ok {
				return 0, false
			}
			i = end
		case isIdentStart(c):
			j := identEnd(src, i)
			if j < n && isQuote(src[j]) {
				if pf, ok := parsePyPrefix(src[i:j]); ok && pf.f {
					nql := quoteLen(src, j)
					stack = append(stack, fFrame{quote: src[j], ql: nql, raw: pf.raw})
					i = j + nql
					continue
				}
				end, ok := scanPyString(src, j)
				if !ok {
					return 0, false
				}
				j = end
			}
			i = j
		case c >= '0' && c <= '9':
			i = numberEnd(src, i)
		case c == '(' || c == '[' || c == '{':
			f.depth++
			i++
		case c == ')' || c == ']':
			if f.depth == 0 {
				return 0, false
			}
			f.depth--
			i++
		case c == '}':
			if f.depth > 0 {
				f.depth--
			} else {
				stack = stack[:len(stack)-1]
			}
			i++
		case c == ':':
			if f.depth == 0 {
				f.spec = true
			}
			i++
		default:
			i++
		}
	}
	return i, true
}

// comment classifies the comment src[i:j] (from '#' to the end of its line).
func (p *pyScanner) comment(i, j int) {
	text := p.src[i:j]
	if i < p.line1End {
		if _, ok := matchAfterRemoval(text, func(t []byte) (string, bool) {
			return "", len(t) >= 2 && t[0] == '#' && t[1] == '!'
		}); ok {
			p.b.Mark(i, j, Directive, "directive: shebang")
			return
		}
	}
	if i < p.line2End && p.onlyIndentBefore(i) {
		if _, ok := matchAfterRemoval(text, codingCookie); ok {
			p.b.Mark(i, j, Directive, "directive: coding cookie")
			return
		}
	}
	if why, ok := matchAfterRemoval(text, pyDirective); ok {
		p.b.Mark(i, j, Directive, why)
		return
	}
	p.b.Mark(i, j, Prose, commentWhy(text[1:]))
}

// onlyIndentBefore reports whether the bytes between the start of i's line
// and i are PEP 263 indentation ([ \t\f], or a BOM at byte 0).
func (p *pyScanner) onlyIndentBefore(i int) bool {
	k := i
	for k > 0 {
		c := p.src[k-1]
		if c == '\n' || c == '\r' {
			return true
		}
		if c != ' ' && c != '\t' && c != '\f' {
			return k == 3 && p.src[0] == 0xef && p.src[1] == 0xbb && p.src[2] == 0xbf
		}
		k--
	}
	return true
}

// codingCookie matches PEP 263's #.*?coding[:=][ \t]*([-\w.]+) on a comment.
func codingCookie(t []byte) (string, bool) {
	for k := 0; k+7 < len(t); k++ {
		if t[k] != 'c' || string(t[k:k+6]) != "coding" || (t[k+6] != ':' && t[k+6] != '=') {
			continue
		}
		m := k + 7
		for m < len(t) && (t[m] == ' ' || t[m] == '\t') {
			m++
		}
		if m < len(t) && (isWordByte(t[m]) || t[m] >= 0x80) {
			return "", true
		}
	}
	return "", false
}

// pyKeywords are directive words that need no colon, matched case-insensitively
// as a prefix right after a '#' (flake8 and coverage match them that loosely).
var pyKeywords = [...]hashKeyword{
	{"noqa", "directive: # noqa"},
	{"nosec", "directive: # nosec"},
	{"pragma", "directive: # pragma"},
	{"pyre-", "directive: # pyre-"},
}

// pyWordWhy names the tools behind well-known "word:" directives; any other
// word still makes a directive, labelled generically.
func pyWordWhy(word string) string {
	switch word {
	case "type", "pylint", "fmt", "isort", "ruff", "mypy", "pyright", "yapf", "pytype", "flake8":
		return "directive: # " + word + ":"
	case "noqa", "pragma", "nosemgrep":
		return "directive: # " + word
	}
	return "directive: word:"
}

// pyDirective checks every '#'-introduced segment of a comment, so that
// "# explanation  # noqa: E501" is a directive too.
func pyDirective(t []byte) (string, bool) {
	return hashDirective(t, pyKeywords[:], pyWordWhy)
}

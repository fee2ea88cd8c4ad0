package region

import "bytes"

// The CSS classifier, for CSS, SCSS and Less. Comments are prose; every
// value, selector, at-rule, string and url() is runtime. It tokenizes as CSS
// Syntax 3 where that decides extents (strings end at an unescaped line
// break, which is an error here; an unquoted url(...) is one token in which
// "/*" and "//" mean nothing), and as the preprocessors' own parsers for
// what they add: "//" line comments (dart-sass ends them at \n, \r or \f;
// lessc only at \n), SCSS interpolation #{...} (which may hold strings and
// comments), Sass's rule for when url( is a URL or a function call, Less
// @{...} and `...` JavaScript evaluation.
//
// Where the languages' own parsers and the tools built on postcss (which
// stylelint and Prettier use) would read a comment differently, it is
// runtime: a custom property's value (--x: a // b; "//" is not a comment
// there for Sass and /* */ is kept in the value), a "//" glued to the word
// before it (postcss reads it as part of that word), a Sass comment holding
// interpolation.

type cssDialect uint8

const (
	cssPlain cssDialect = iota
	cssSCSS
	cssLess
)

func (d cssDialect) lang() string {
	switch d {
	case cssSCSS:
		return "scss"
	case cssLess:
		return "less"
	}
	return "css"
}

// maxInterpDepth bounds nested SCSS interpolation and strings; deeper input
// is refused.
const maxInterpDepth = 64

type cssScanner struct {
	path string
	src  []byte
	d    cssDialect
	b    *Builder
	// tokEnd is the end of the last string, comment, url or interpolation:
	// a "//" right after one starts a fresh token for postcss.
	tokEnd int
}

func classifyCSS(path string, src []byte, d cssDialect) (*Map, error) {
	s := &cssScanner{path: path, src: src, d: d, b: NewBuilder(len(src)), tokEnd: -1}
	if err := s.run(); err != nil {
		return nil, err
	}
	return s.b.Map(d.lang()), nil
}

func (s *cssScanner) errAt(off int, reason string) error {
	return syntaxError(s.path, s.src, off, reason)
}

func isCSSNameByte(c byte) bool {
	return isWordStart(c) || c >= '0' && c <= '9' || c == '-' || c >= 0x80
}

// cssValidEscape reports whether a backslash at i starts an escape: one not
// followed by a line break or the end of the input.
func cssValidEscape(src []byte, i int) bool {
	return i+1 < len(src) && src[i+1] != '\n' && src[i+1] != '\r' && src[i+1] != '\f'
}

// cssEscapeEnd returns the offset after the valid escape at i: up to six
// hex digits and one whitespace (\r\n counts as one), or one character.
func cssEscapeEnd(src []byte, i int) int {
	j := i + 1
	if !isHexByte(src[j]) {
		return j + 1 // a UTF-8 continuation byte is harmless on its own
	}
	for k := 0; k < 6 && j < len(src) && isHexByte(src[j]); k++ {
		j++
	}
	if j < len(src) && isCSSSpace(src[j]) {
		if src[j] == '\r' && j+1 < len(src) && src[j+1] == '\n' {
			return j + 2
		}
		j++
	}
	return j
}

func isHexByte(c byte) bool {
	return c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'f'
}

func isCSSSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'
}

func (s *cssScanner) run() error {
	src := s.src
	n := len(src)
	for i := 0; i < n; {
		c := src[i]
		var next byte
		if i+1 < n {
			next = src[i+1]
		}
		switch {
		case c == '/' && next == '*':
			end, err := s.blockComment(i)
			if err != nil {
				return err
			}
			i = end
		case c == '/' && next == '/' && s.d != cssPlain:
			i = s.lineComment(i)
		case c == '"' || c == '\'' || c == '`' && s.d == cssLess:
			end, err := s.str(i, 0)
			if err != nil {
				return err
			}
			s.b.Mark(i, end, Runtime, "string literal")
			s.tokEnd = end
			i = end
		case c == '#' && next == '{' && s.d == cssSCSS:
			end, err := s.interp(i, 0)
			if err != nil {
				return err
			}
			s.b.Mark(i, end, Runtime, "interpolation")
			s.tokEnd = end
			i = end
		case isCSSNameByte(c) || c == '\\' && cssValidEscape(src, i) ||
			(c == '#' || c == '@') && i+1 < n && (isCSSNameByte(next) || next == '\\' && cssValidEscape(src, i+1)):
			end, err := s.word(i)
			if err != nil {
				return err
			}
			i = end
		default:
			i++
		}
	}
	return nil
}

// word consumes the name-like token at i (an identifier, a number with its
// unit, a hash or at-keyword) and what it introduces: an url(...) token or a
// custom property's value.
func (s *cssScanner) word(i int) (int, error) {
	src := s.src
	j := i
	if c := src[j]; c == '#' || c == '@' {
		j++
	}
	j, escaped := cssNameEnd(src, j)
	w := src[i:j]
	// lessc matches "url(" literally; CSS and Sass decode escapes first.
	if j < len(src) && src[j] == '(' && cssIsName(w, escaped && s.d != cssLess, "url") {
		return s.url(i, j)
	}
	if len(w) > 2 && (w[0] == '-' && w[1] == '-' || escaped && cssNameHasPrefix(w, "--")) {
		k := j
		for k < len(src) && isCSSSpace(src[k]) {
			k++
		}
		if k < len(src) && src[k] == ':' {
			// Sass and Less keep a custom property's value as written
			// ("//" is no comment there and /* */ stays in it), and
			// scripts can read it back: all of it is runtime.
			end, err := s.nested(k+1, false)
			if err != nil {
				return 0, err
			}
			s.b.Mark(i, end, Runtime, "custom property value")
			s.tokEnd = end
			return end, nil
		}
	}
	return j, nil
}

// cssNameEnd returns the end of the run of name characters and escapes at
// j, and whether it holds an escape.
func cssNameEnd(src []byte, j int) (int, bool) {
	escaped := false
	for j < len(src) {
		c := src[j]
		switch {
		case isCSSNameByte(c):
			j++
		case c == '\\' && cssValidEscape(src, j):
			escaped = true
			j = cssEscapeEnd(src, j)
		default:
			return j, escaped
		}
	}
	return j, escaped
}

// cssDecodeName returns the name w with its escapes decoded as ASCII where
// they stand for ASCII, and false when it is too long to be a keyword.
func cssDecodeName(w []byte) ([]byte, bool) {
	if len(w) > 64 {
		return nil, false
	}
	out := make([]byte, 0, len(w))
	for i := 0; i < len(w); {
		if w[i] != '\\' || i+1 >= len(w) {
			out = append(out, w[i])
			i++
			continue
		}
		end := cssEscapeEnd(w, i)
		if !isHexByte(w[i+1]) {
			out = append(out, w[i+1:end]...)
			i = end
			continue
		}
		v := 0
		for k := i + 1; k < end && isHexByte(w[k]); k++ {
			v = v*16 + hexVal(w[k])
		}
		if v > 0 && v < 0x80 {
			out = append(out, byte(v))
		} else {
			out = append(out, 0x80) // not ASCII: never part of a keyword
		}
		i = end
	}
	return out, true
}

func hexVal(c byte) int {
	switch {
	case c <= '9':
		return int(c - '0')
	case c >= 'a':
		return int(c-'a') + 10
	}
	return int(c-'A') + 10
}

// cssIsName reports whether the name w (escaped if it holds escapes) is the
// lower-case keyword kw in any ASCII case.
func cssIsName(w []byte, escaped bool, kw string) bool {
	if !escaped {
		return asciiFoldEq(w, kw)
	}
	d, ok := cssDecodeName(w)
	return ok && asciiFoldEq(d, kw)
}

func cssNameHasPrefix(w []byte, p string) bool {
	d, ok := cssDecodeName(w)
	return ok && bytes.HasPrefix(d, []byte(p))
}

// url handles "url(" whose name starts at i and whose '(' is at p.
func (s *cssScanner) url(i, p int) (int, error) {
	src := s.src
	n := len(src)
	j := p + 1
	for j < n && isCSSSpace(src[j]) {
		j++
	}
	if j < n && (src[j] == '"' || src[j] == '\'') {
		return p + 1, nil // a function whose argument is a string
	}
	if s.d == cssSCSS {
		end, ok, err := s.sassURL(p + 1)
		if err != nil {
			return 0, err
		}
		// postcss-scss takes "url(" not followed by a quote up to the
		// balancing ')'; runtime covers both readings.
		pend := cssBalancedParen(src, p)
		if !ok {
			// Sass reads a function call, whose arguments may hold
			// comments; all of it is runtime.
			stop, err := s.nested(p+1, true)
			if err != nil {
				return 0, err
			}
			end = max(pend, min(stop+1, len(src)))
		}
		end = max(end, pend)
		s.b.Mark(i, end, Runtime, "url")
		s.tokEnd = end
		return end, nil
	}
	end := cssURLEnd(src, j)
	s.b.Mark(i, end, Runtime, "url")
	s.tokEnd = end
	return end, nil
}

// cssURLEnd consumes an unquoted url token's content from j (after the
// whitespace that follows '(') as CSS Syntax 3 does, bad-url remnants
// included, and returns the offset after its ')' (or the end of the input).
func cssURLEnd(src []byte, j int) int {
	n := len(src)
	bad := false
	for j < n {
		c := src[j]
		switch {
		case c == ')':
			return j + 1
		case c == '\\':
			if cssValidEscape(src, j) {
				j = cssEscapeEnd(src, j)
				continue
			}
			bad = true
		case bad:
		case isCSSSpace(c):
			for j < n && isCSSSpace(src[j]) {
				j++
			}
			if j < n && src[j] != ')' {
				bad = true
			}
			continue
		case c == '"' || c == '\'' || c == '(' || c < 0x20 && c != '\t' || c == 0x7f:
			bad = true
		}
		j++
	}
	return n
}

// cssBalancedParen returns the offset after the ')' that balances the '('
// at p, counting parentheses only, as postcss-scss does for url(.
func cssBalancedParen(src []byte, p int) int {
	depth := 0
	for j := p; j < len(src); j++ {
		switch src[j] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return j + 1
			}
		}
	}
	return len(src)
}

// sassURL follows dart-sass's _tryUrlContents from j (after '('): the
// contents are an URL when they hold only URL characters, escapes and
// interpolation, then optional whitespace and ')'. ok is false when Sass
// falls back to reading a function call.
func (s *cssScanner) sassURL(j int) (int, bool, error) {
	src := s.src
	n := len(src)
	for j < n && isCSSSpace(src[j]) {
		j++
	}
	for j < n {
		c := src[j]
		switch {
		case c == '\\':
			if !cssValidEscape(src, j) {
				return 0, false, nil
			}
			j = cssEscapeEnd(src, j)
		case c == '#' && j+1 < n && src[j+1] == '{':
			end, err := s.interp(j, 0)
			if err != nil {
				return 0, false, err
			}
			j = end
		case c == ')':
			return j + 1, true, nil
		case isCSSSpace(c):
			for j < n && isCSSSpace(src[j]) {
				j++
			}
			if j >= n || src[j] != ')' {
				return 0, false, nil
			}
		case c == '!' || c == '%' || c == '&' || c == '#' || c >= '*' && c <= '~' || c >= 0x80:
			j++
		default:
			return 0, false, nil
		}
	}
	return 0, false, nil
}

// nested returns the offset of the first ';', '}', ')' or ']' at the
// nesting level of j, or the end of the input, skipping strings, comments
// ("//" ones only when lineComments is set), escapes and interpolation.
func (s *cssScanner) nested(j int, lineComments bool) (int, error) {
	src := s.src
	n := len(src)
	depth := 0
	for j < n {
		c := src[j]
		switch {
		case c == '/' && j+1 < n && src[j+1] == '*':
			k := bytes.Index(src[j+2:], []byte("*/"))
			if k < 0 {
				return 0, s.errAt(j, "comment never closes (no \"*/\")")
			}
			j += 2 + k + 2
			continue
		case c == '/' && j+1 < n && src[j+1] == '/' && lineComments:
			j = cssLineEnd(src, j, s.d)
			continue
		case c == '"' || c == '\'' || c == '`' && s.d == cssLess:
			end, err := s.str(j, 0)
			if err != nil {
				return 0, err
			}
			j = end
			continue
		case c == '#' && j+1 < n && src[j+1] == '{' && s.d == cssSCSS:
			end, err := s.interp(j, 0)
			if err != nil {
				return 0, err
			}
			j = end
			continue
		case c == '\\' && cssValidEscape(src, j):
			j = cssEscapeEnd(src, j)
			continue
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}' || c == ';':
			if depth == 0 {
				return j, nil
			}
			if c != ';' {
				depth--
			}
		}
		j++
	}
	return n, nil
}

// str returns the offset after the string whose quote is at i. An
// unescaped line break or the end of the input before the closing quote is
// an error: CSS ends the string there, postcss reads on to the next quote.
// Less `...` (JavaScript evaluation) runs to the next backquote.
func (s *cssScanner) str(i, depth int) (int, error) {
	src := s.src
	n := len(src)
	q := src[i]
	if q == '`' {
		if k := bytes.IndexByte(src[i+1:], '`'); k >= 0 {
			return i + 1 + k + 1, nil
		}
		return 0, s.errAt(i, "JavaScript evaluation never closes (no \"`\")")
	}
	for j := i + 1; j < n; {
		c := src[j]
		switch {
		case c == q:
			return j + 1, nil
		case c == '\\':
			switch {
			case j+1 >= n:
				j++
			case src[j+1] == '\r' && j+2 < n && src[j+2] == '\n':
				j += 3
			default:
				j += 2
			}
		case c == '\n' || c == '\r' || c == '\f':
			return 0, s.errAt(i, "string never closes on its line")
		case c == '#' && s.d == cssSCSS && j+1 < n && src[j+1] == '{':
			end, err := s.interp(j, depth+1)
			if err != nil {
				return 0, err
			}
			j = end
		default:
			j++
		}
	}
	return 0, s.errAt(i, "string never closes")
}

// interp returns the offset after the SCSS interpolation "#{" at i: Sass
// reads an expression there, with strings, nested braces and both kinds of
// comments (a "//" comment hides a '}' up to the line's end).
func (s *cssScanner) interp(i, depth int) (int, error) {
	if depth > maxInterpDepth {
		return 0, s.errAt(i, "interpolation nested too deep")
	}
	src := s.src
	n := len(src)
	braces := 0
	for j := i + 2; j < n; {
		c := src[j]
		switch {
		case c == '}':
			if braces == 0 {
				return j + 1, nil
			}
			braces--
			j++
		case c == '{':
			braces++
			j++
		case c == '"' || c == '\'':
			end, err := s.str(j, depth+1)
			if err != nil {
				return 0, err
			}
			j = end
		case c == '/' && j+1 < n && src[j+1] == '*':
			k := bytes.Index(src[j+2:], []byte("*/"))
			if k < 0 {
				return 0, s.errAt(j, "comment never closes (no \"*/\")")
			}
			j += 2 + k + 2
		case c == '/' && j+1 < n && src[j+1] == '/':
			j = cssLineEnd(src, j, cssSCSS)
		case c == '\\' && cssValidEscape(src, j):
			j = cssEscapeEnd(src, j)
		default:
			j++
		}
	}
	return 0, s.errAt(i, "interpolation never closes (no \"}\")")
}

// cssLineEnd returns the end of the "//" comment at i: the first \n, \r or
// \f for Sass, the first \n for Less.
func cssLineEnd(src []byte, i int, d cssDialect) int {
	for j := i + 2; j < len(src); j++ {
		c := src[j]
		if c == '\n' || d == cssSCSS && (c == '\r' || c == '\f') {
			return j
		}
	}
	return len(src)
}

// blockComment classifies the "/*" comment at i and returns its end.
func (s *cssScanner) blockComment(i int) (int, error) {
	src := s.src
	k := bytes.Index(src[i+2:], []byte("*/"))
	if k < 0 {
		return 0, s.errAt(i, "comment never closes (no \"*/\")")
	}
	end := i + 2 + k + 2
	s.tokEnd = end
	if s.d == cssSCSS && bytes.Contains(src[i+2:end], []byte("#{")) {
		// Sass evaluates interpolation in loud comments; an
		// interpolation may even hold the "*/" that ends it for others.
		j := i + 2
		for {
			k := bytes.Index(src[j:], []byte("*/"))
			h := bytes.Index(src[j:], []byte("#{"))
			if k < 0 {
				return 0, s.errAt(i, "comment never closes (no \"*/\")")
			}
			if h < 0 || k < h {
				end = max(end, j+k+2)
				break
			}
			e, err := s.interp(j+h, 0)
			if err != nil {
				return 0, err
			}
			j = e
		}
		s.tokEnd = end
		s.b.Mark(i, end, Runtime, "comment with interpolation")
		return end, nil
	}
	// A carrier whose removal would make a "*/" (closing the comment
	// early) or, in Sass, a "#{" (an interpolation, which Sass evaluates)
	// appear is prose like the rest: the engine classifies the file again
	// without it, sees the rest become code or the comment interpolate, and
	// keeps that one carrier while the others go.
	body, _ := goCommentBody(src[i:end]) // the same /* */ markers
	kind, why := Prose, commentWhy(body)
	if w, ok := matchAfterRemoval(src[i:end], cssDirective); ok {
		kind, why = Directive, w
	}
	markLines(s.b, src, i, end, kind, why)
	return end, nil
}

// lineComment classifies the "//" comment at i (SCSS, Less) and returns
// its end.
func (s *cssScanner) lineComment(i int) int {
	src := s.src
	end := cssLineEnd(src, i, s.d)
	// Prose stops at the first \n, \r or \f: Less reads on to \n, tools
	// built on postcss stop earlier.
	stop := i + 2
	for stop < end && src[stop] != '\r' && src[stop] != '\f' {
		stop++
	}
	if !s.freshToken(i) {
		s.b.Mark(i, end, Runtime, "\"//\" glued to a word (not a comment for postcss)")
		return end
	}
	kind, why := Prose, commentWhy(src[i+2:stop])
	if w, ok := matchAfterRemoval(src[i:stop], cssDirective); ok {
		kind, why = Directive, w
	}
	s.b.Mark(i, stop, kind, why)
	if stop < end {
		s.b.Mark(stop, end, Runtime, "line comment read on by Less")
	}
	return end
}

// freshToken reports whether postcss starts a token at i: at the start, right
// after a string, comment, url or interpolation, or after a byte that ends
// postcss's words.
func (s *cssScanner) freshToken(i int) bool {
	if i == 0 || i == s.tokEnd {
		return true
	}
	switch s.src[i-1] {
	case ' ', '\t', '\n', '\r', '\f', '!', '"', '#', '\'', '(', ')', ':', ';', '@', '[', ']', '{', '}':
		return true
	case ',':
		return s.d == cssSCSS // postcss-scss splits at commas, postcss does not
	}
	return false
}

package region

import (
	"bytes"
	"unicode/utf8"
)

// jsErr is a lexing failure at a byte offset.
type jsErr struct {
	off    int
	reason string
}

// jsAmb is a token the lexer cannot read one way only: a and b are the two
// readings (readRegex/readDivide or readHTML/readCode).
type jsAmb struct {
	pos   int
	what  uint8 // which question: 'r' for "/", 'j' for "<", 'h' for "<!--"
	a, b  uint8
	why   string // why the position is ambiguous, for an error message
	short string // the runtime reason of bytes the readings disagree on
}

type jsForce struct {
	pos          int
	what, choice uint8
}

// jsReading is one way of reading the file: a lexer state and the regions
// it found since the reading began.
type jsReading struct {
	st     jsState
	marks  []Region
	forces []jsForce
	err    *jsErr
	done   bool
}

func (r *jsReading) mark(start, end int, k Kind, why string) {
	if end <= start {
		return
	}
	if n := len(r.marks); n > 0 {
		last := &r.marks[n-1]
		if last.End == start && last.Kind == k && last.Why == why {
			last.End = end
			return
		}
	}
	r.marks = append(r.marks, Region{Start: start, End: end, Kind: k, Why: why})
}

type jsLexer struct {
	src      []byte
	d        jsDialect
	forkWork int // bytes lexed by readings while the file was read several ways
	// policy, for tests only, reads every ambiguity one way (1: the first
	// reading, 2: the second) instead of both.
	policy uint8
}

// decide returns the reading of the ambiguous question at pos: got when the
// state settles it, the forced choice when this reading was split there, or
// an ambiguity for the driver to split on.
func (lx *jsLexer) decide(r *jsReading, pos int, what, got, a, b uint8) (uint8, *jsAmb) {
	if got != readNone {
		return got, nil
	}
	switch lx.policy {
	case 1:
		return a, nil
	case 2:
		return b, nil
	}
	for _, f := range r.forces {
		if f.pos == pos && f.what == what {
			return f.choice, nil
		}
	}
	amb := &jsAmb{pos: pos, what: what, a: a, b: b}
	switch what {
	case 'r':
		amb.why, amb.short = "'/' may start a regular expression or divide", "ambiguous: regular expression or division"
	case 'j':
		amb.why, amb.short = "'<' may start a JSX element or compare", "ambiguous: JSX element or comparison"
	default:
		amb.why, amb.short = "'<!--' is a comment in a classic script and code in a module", "ambiguous: HTML-like comment or code"
	}
	return readNone, amb
}

// step lexes one token (or one piece of white space, JSX text or template
// text) of r. It returns an ambiguity instead when r must be split.
func (lx *jsLexer) step(r *jsReading) (*jsAmb, *jsErr) {
	st := &r.st
	if len(st.stack) > maxJSDepth {
		return nil, &jsErr{st.top().pos, "nested too deeply to classify"}
	}
	if t := st.top(); t != nil {
		switch t.kind {
		case frJSXTag:
			return lx.jsxTag(r)
		case frJSXKids:
			return lx.jsxKids(r)
		}
	}
	src := lx.src
	n := len(src)
	i := lx.skipSpace(st, st.pos)
	st.pos = i
	if i >= n {
		return nil, lx.finish(r)
	}
	c := src[i]
	// A switch on the byte's value is a jump table, not a chain of
	// comparisons that every identifier (the commonest token) ran to the end.
	switch c {
	case '/':
		if i+1 < n && src[i+1] == '/' {
			lx.lineComment(r, i)
			return nil, nil
		}
		if i+1 < n && src[i+1] == '*' {
			return nil, lx.blockComment(r, i)
		}
		ch, amb := lx.decide(r, i, 'r', st.exprNext(lx.d), readRegex, readDivide)
		if amb != nil {
			return amb, nil
		}
		if ch == readRegex {
			end, ok := jsRegexEnd(src, i)
			if !ok {
				return nil, &jsErr{i, "unterminated regular expression"}
			}
			r.mark(i, end, Runtime, "regular expression")
			st.pos = end
			st.setPrev(pkOperand, 0, kwNone)
			return nil, nil
		}
		st.pos = i + 1
		st.setPrev(pkPunct, 0, kwNone)
	case '\'', '"':
		end, ok := jsStringEnd(src, i)
		if !ok {
			return nil, &jsErr{i, "unterminated string literal"}
		}
		r.mark(i, end, Runtime, "string literal")
		st.pos = end
		st.setPrev(pkOperand, 0, kwNone)
	case '`':
		return nil, lx.template(r, i, i)
	case '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		st.pos = jsNumberEnd(src, i)
		st.setPrev(pkOperand, 0, kwNone)
	case '.':
		if i+1 < n && src[i+1] >= '0' && src[i+1] <= '9' {
			st.pos = jsNumberEnd(src, i)
			st.setPrev(pkOperand, 0, kwNone)
		} else if i+2 < n && src[i+1] == '.' && src[i+2] == '.' {
			st.pos = i + 3
			st.setPrev(pkPunct, 0, kwNone)
		} else {
			st.pos = i + 1
			st.setPrev(pkDot, 0, kwNone)
		}
	case '(':
		kind := pcOther
		if st.prev == pkKeyword {
			switch st.kw {
			case kwIf, kwFor:
				kind = pcCtrl
			case kwHead:
				kind = pcHead
			}
		}
		if st.pendFn != 0 && len(st.stack) == st.pendDepth {
			kind = [...]uint8{pcFnExpr, pcFnDecl, pcFnUnknown}[st.pendFn-1]
			st.pendFn = 0
		}
		st.push(jsFrame{kind: frParen, sub: kind, pos: i})
		st.pos = i + 1
		st.setPrev(pkPunct, 0, kwNone)
	case ')':
		if t := st.top(); t == nil || t.kind != frParen {
			return nil, &jsErr{i, "unexpected ')'"}
		}
		f := st.pop()
		st.pos = i + 1
		if f.sub == pcCtrl {
			st.setPrev(pkParenCtrl, 0, kwNone)
		} else {
			st.setPrev(pkRParen, f.sub, kwNone)
		}
	case '[':
		st.push(jsFrame{kind: frBracket, pos: i})
		st.pos = i + 1
		st.setPrev(pkPunct, 0, kwNone)
	case ']':
		if t := st.top(); t == nil || t.kind != frBracket {
			return nil, &jsErr{i, "unexpected ']'"}
		}
		st.pop()
		st.pos = i + 1
		st.setPrev(pkOperand, 0, kwNone)
	case '{':
		bk := st.braceKind()
		if st.pendClass != 0 && len(st.stack) == st.pendDepth {
			st.pendClass = 0
		}
		st.push(jsFrame{kind: frBrace, sub: bk, pos: i})
		st.pos = i + 1
		st.setPrev(pkLBrace, 0, kwNone)
	case '}':
		t := st.top()
		if t == nil {
			return nil, &jsErr{i, "unexpected '}'"}
		}
		switch t.kind {
		case frBrace:
			f := st.pop()
			st.pos = i + 1
			st.setPrev(pkRBrace, f.sub, kwNone)
		case frHole:
			f := st.pop()
			st.holes--
			return nil, lx.template(r, f.a, i)
		case frJSXExpr:
			st.pop()
			st.pos = i + 1
			st.setPrev(pkOperand, 0, kwNone)
		default:
			return nil, &jsErr{i, "unexpected '}'"}
		}
	case ';':
		st.pos = i + 1
		if len(st.stack) == st.pendDepth {
			st.pendFn, st.pendClass = 0, 0
		}
		st.setPrev(pkSemi, 0, kwNone)
	case ':':
		st.pos = i + 1
		st.setPrev(pkColon, 0, kwNone)
	case '=':
		if i+1 < n && src[i+1] == '>' {
			st.pos = i + 2
			st.setPrev(pkArrow, 0, kwNone)
			return nil, nil
		}
		st.pos = i + 1
		st.setPrev(pkPunct, 0, kwNone)
	case '<':
		return lx.lessThan(r, i)
	case '-', '+':
		if c == '-' && lx.d.script && bytes.HasPrefix(src[i:], []byte("-->")) && (st.prev == pkStart || st.nl) {
			// Annex B: "-->" first on a line is a comment in a classic
			// script. In a module it can only be a syntax error (a prefix
			// "--" cannot apply to ">"), so no second reading is needed.
			end := jsLineEnd(src, i)
			r.mark(i, end, Runtime, "HTML-like comment")
			st.pos = end
			return nil, nil
		}
		if i+1 < n && src[i+1] == c {
			st.pos = i + 2
			if st.operandLike() && !st.nl {
				st.setPrev(pkOperand, 0, kwNone) // postfix
			} else {
				st.setPrev(pkPunct, 0, kwNone)
			}
			return nil, nil
		}
		st.pos = i + 1
		st.setPrev(pkPunct, 0, kwNone)
	case '!':
		st.pos = i + 1
		if lx.d.ts && st.operandLike() && !st.nl {
			st.setPrev(pkOperand, 0, kwNone) // non-null assertion
		} else {
			st.setPrev(pkPunct, 0, kwNone)
		}
	case '>':
		st.pos = i + 1
		if lx.d.ts {
			st.setPrev(pkGT, 0, kwNone)
		} else {
			st.setPrev(pkPunct, 0, kwNone)
		}
	case '#':
		if (i == 0 || i == 3 && src[0] == 0xef && src[1] == 0xbb && src[2] == 0xbf) && i+1 < n && src[i+1] == '!' {
			// A hashbang, at byte 0 or after a byte order mark.
			end := jsLineEnd(src, i)
			r.mark(i, end, Directive, "directive: shebang")
			st.pos = end
			return nil, nil
		}
		if i+1 < n && isJSIdentStart(src, i+1) {
			st.pos = jsIdentEnd(src, i+1, false)
			st.setPrev(pkOperand, 0, kwNone)
			return nil, nil
		}
		st.pos = i + 1
		st.setPrev(pkPunct, 0, kwNone)
	default:
		if isJSIdentStart(src, i) {
			lx.ident(st, i)
			return nil, nil
		}
		size := 1
		if c >= 0x80 {
			_, size = utf8.DecodeRune(src[i:])
		}
		st.pos = i + size
		st.setPrev(pkPunct, 0, kwNone)
	}
	return nil, nil
}

// skipSpace skips white space and line terminators from i, noting line
// terminators in st.
func (lx *jsLexer) skipSpace(st *jsState, i int) int {
	src := lx.src
	for i < len(src) {
		c := src[i]
		if c > ' ' && c < utf8.RuneSelf {
			// Most calls start on the token itself: one test, not six.
			return i
		}
		switch {
		case c == ' ' || c == '\t' || c == '\v' || c == '\f':
			i++
		case c == '\n' || c == '\r':
			st.nl = true
			i++
		case c >= 0x80:
			if isLineSep(src, i) {
				st.nl = true
				i += 3
				continue
			}
			r, size := utf8.DecodeRune(src[i:])
			if !isJSSpace(r) {
				return i
			}
			i += size
		default:
			return i
		}
	}
	return i
}

// operandLike reports whether the previous token ends an operand, so that
// "++", "--" and TypeScript's "!" right after it are postfix.
func (s *jsState) operandLike() bool {
	switch s.prev {
	case pkOperand, pkRParen:
		return true
	case pkKeyword:
		return s.kw == kwOperand || s.kw == kwModifier || s.kw == kwDecl
	}
	return false
}

func (lx *jsLexer) ident(st *jsState, i int) {
	end := jsIdentEnd(lx.src, i, false)
	st.pos = end
	kw := kwNone
	if st.prev != pkDot {
		kw = jsKeyword(lx.src[i:end], lx.d)
	}
	switch kw {
	case kwNone:
		st.setPrev(pkOperand, 0, kwNone)
		return
	case kwContext:
		if st.prev == pkKeyword && st.kw == kwFor && string(lx.src[i:end]) == "await" {
			st.nl = false // "for await (": the paren is still a loop head
			return
		}
	case kwDecl:
		// "interface I", "namespace N", 'module "m"' declare; "module.exports" does not.
		j := lx.skipTrivia(end)
		if j >= len(lx.src) || !(isJSIdentStart(lx.src, j) || lx.src[j] == '"' || lx.src[j] == '\'') {
			st.setPrev(pkOperand, 0, kwNone)
			return
		}
		fallthrough
	case kwFunction, kwClass:
		stmt := st.stmtStartHere(pkKeyword, kw)
		if kw == kwFunction {
			st.pendFn = stmt + 1
		} else {
			st.pendClass = stmt + 1
		}
		st.pendDepth = len(st.stack)
	}
	st.setPrev(pkKeyword, 0, kw)
}

// lessThan lexes "<": an HTML-like comment in a classic script, a JSX
// element where an expression may start, else an operator or the start of
// TypeScript type arguments.
func (lx *jsLexer) lessThan(r *jsReading, i int) (*jsAmb, *jsErr) {
	st := &r.st
	src := lx.src
	if lx.d.script && bytes.HasPrefix(src[i:], []byte("<!--")) {
		ch, amb := lx.decide(r, i, 'h', readNone, readHTML, readCode)
		if amb != nil {
			return amb, nil
		}
		if ch == readHTML {
			end := jsLineEnd(src, i)
			r.mark(i, end, Runtime, "HTML-like comment")
			st.pos = end
			return nil, nil
		}
	}
	if lx.d.jsx {
		ch, amb := lx.decide(r, i, 'j', st.exprNext(lx.d), readRegex, readDivide)
		if amb != nil {
			return amb, nil
		}
		if ch == readRegex && !(lx.d.ts && lx.tsxArrowAhead(i+1)) {
			st.push(jsFrame{kind: frJSXTag, pos: i})
			st.pos = i + 1
			return nil, nil
		}
	}
	// An operator: "<", "<=", "<<" or "<<=". The second "<" of a shift is
	// no element.
	st.pos = i + 1
	if st.pos < len(src) && src[st.pos] == '<' {
		st.pos++
	}
	st.setPrev(pkPunct, 0, kwNone)
	return nil, nil
}

// tsxArrowAhead reports whether "<" (just before i) starts the type
// parameters of a generic arrow function in a .tsx file, by TypeScript's
// rule: "<T," "<T =" "<const T," and "<T extends X" (X not "=", ">", "/")
// are type parameters, anything else is JSX.
func (lx *jsLexer) tsxArrowAhead(i int) bool {
	src := lx.src
	j := lx.skipTrivia(i)
	if j >= len(src) || !isJSIdentStart(src, j) {
		return false
	}
	e := jsIdentEnd(src, j, false)
	if string(src[j:e]) == "const" {
		j = lx.skipTrivia(e)
		if j >= len(src) || !isJSIdentStart(src, j) {
			return false
		}
		e = jsIdentEnd(src, j, false)
	}
	j = lx.skipTrivia(e)
	if j >= len(src) {
		return false
	}
	switch {
	case src[j] == ',':
		return true
	case src[j] == '=':
		return j+1 >= len(src) || (src[j+1] != '=' && src[j+1] != '>')
	case isJSIdentStart(src, j) && string(src[j:jsIdentEnd(src, j, false)]) == "extends":
		k := lx.skipTrivia(jsIdentEnd(src, j, false))
		return k < len(src) && src[k] != '=' && src[k] != '>' && src[k] != '/'
	}
	return false
}

// skipTrivia skips white space and comments for a look-ahead.
func (lx *jsLexer) skipTrivia(i int) int {
	var st jsState
	src := lx.src
	for {
		i = lx.skipSpace(&st, i)
		if i+1 >= len(src) || src[i] != '/' {
			return i
		}
		switch src[i+1] {
		case '/':
			i = jsLineEnd(src, i)
		case '*':
			k := bytes.Index(src[i+2:], []byte("*/"))
			if k < 0 {
				return len(src)
			}
			i += 2 + k + 2
		default:
			return i
		}
	}
}

func (lx *jsLexer) lineComment(r *jsReading, i int) {
	src := lx.src
	end := jsLineEnd(src, i)
	lx.comment(r, i, end, false)
	r.st.pos = end
	if isLineSep(src, end) {
		r.mark(end, end+3, Runtime, "line separator: ends the comment for JavaScript")
		r.st.pos = end + 3
		r.st.nl = true
	}
}

func (lx *jsLexer) blockComment(r *jsReading, i int) *jsErr {
	src := lx.src
	k := bytes.Index(src[i+2:], []byte("*/"))
	if k < 0 {
		return &jsErr{i, "unterminated comment"}
	}
	end := i + 2 + k + 2
	if jsLineEnd(src[:end], i) < end {
		r.st.nl = true // a comment holding a line terminator is a line break
	}
	lx.comment(r, i, end, true)
	r.st.pos = end
	return nil
}

// template lexes template literal text from i (the opening backtick at
// start, or the "}" that closed a hole) to the closing backtick or the next
// "${".
func (lx *jsLexer) template(r *jsReading, start, i int) *jsErr {
	src := lx.src
	st := &r.st
	j := i + 1
	for j < len(src) {
		switch src[j] {
		case '`':
			r.mark(i, j+1, Runtime, "template literal")
			st.pos = j + 1
			st.setPrev(pkOperand, 0, kwNone)
			return nil
		case '\\':
			j += 2
		case '$':
			if j+1 < len(src) && src[j+1] == '{' {
				r.mark(i, j+2, Runtime, "template literal")
				st.push(jsFrame{kind: frHole, pos: j, a: start})
				st.holes++
				st.pos = j + 2
				st.setPrev(pkLBrace, 0, kwNone)
				return nil
			}
			j++
		default:
			j++
		}
	}
	return &jsErr{start, "unterminated template literal"}
}

// finish checks that nothing is left open at the end of the file.
func (lx *jsLexer) finish(r *jsReading) *jsErr {
	st := &r.st
	if t := st.top(); t != nil {
		switch t.kind {
		case frParen:
			return &jsErr{t.pos, "'(' is never closed"}
		case frBracket:
			return &jsErr{t.pos, "'[' is never closed"}
		case frBrace:
			return &jsErr{t.pos, "'{' is never closed"}
		case frHole:
			return &jsErr{t.a, "unterminated template literal"}
		case frJSXExpr:
			return &jsErr{t.pos, "'{' in JSX is never closed"}
		case frJSXTag:
			return &jsErr{t.pos, "unterminated JSX tag"}
		default:
			return &jsErr{t.pos, "JSX element <" + string(lx.src[t.a:t.b]) + "> is never closed"}
		}
	}
	r.done = true
	return nil
}

// jsStringEnd returns the end of the string literal whose quote is at i.
// A backslash escapes the next character (a CRLF counts as one); a raw LF
// or CR ends the line and so the literal, unterminated.
func jsStringEnd(src []byte, i int) (int, bool) {
	q := src[i]
	for j := i + 1; j < len(src); {
		j += jsStringStop(src[j:], q)
		if j >= len(src) {
			break
		}
		switch src[j] {
		case q:
			return j + 1, true
		case '\\':
			if j+2 < len(src) && src[j+1] == '\r' && src[j+2] == '\n' {
				j += 3
			} else {
				j += 2
			}
		default: // '\n', '\r'
			return 0, false
		}
	}
	return 0, false
}

// jsRegexEnd returns the end of the regular expression literal (flags
// included) whose opening "/" is at i. A regex never spans lines; "/" inside
// a class [...] does not end it.
func jsRegexEnd(src []byte, i int) (int, bool) {
	inClass := false
	for j := i + 1; j < len(src); {
		c := src[j]
		switch {
		case c == '\n' || c == '\r' || isLineSep(src, j):
			return 0, false
		case c == '\\':
			if j+1 >= len(src) || src[j+1] == '\n' || src[j+1] == '\r' || isLineSep(src, j+1) {
				return 0, false
			}
			j += 2
		case c == '[':
			inClass = true
			j++
		case c == ']':
			inClass = false
			j++
		case c == '/' && !inClass:
			j++
			for j < len(src) && isJSIdentASCII(src[j]) {
				j++
			}
			return j, true
		default:
			j++
		}
	}
	return 0, false
}

// jsxTag lexes inside a JSX tag: its name, attributes, "/>" or ">".
func (lx *jsLexer) jsxTag(r *jsReading) (*jsAmb, *jsErr) {
	st := &r.st
	src := lx.src
	n := len(src)
	i := lx.skipSpace(st, st.pos)
	st.pos = i
	t := st.top()
	if i >= n {
		return nil, &jsErr{t.pos, "unterminated JSX tag"}
	}
	c := src[i]
	if c == '/' && i+1 < n && (src[i+1] == '/' || src[i+1] == '*') {
		if src[i+1] == '/' {
			lx.lineComment(r, i)
			return nil, nil
		}
		return nil, lx.blockComment(r, i)
	}
	closing := t.sub&1 != 0
	if t.sub&2 == 0 {
		t.sub |= 2
		switch {
		case c == '>':
			t.a, t.b = i, i // a fragment
		case isJSIdentStart(src, i):
			end := jsxNameEnd(src, i)
			t.a, t.b = i, end
			st.pos = end
			if lx.d.ts && !closing {
				if j := lx.skipTrivia(end); j < n && src[j] == '<' {
					k, ok := lx.typeArgsEnd(j)
					if !ok {
						return nil, &jsErr{j, "unterminated type arguments in a JSX tag"}
					}
					st.pos = k
				}
			}
			return nil, nil
		default:
			return nil, &jsErr{i, "unexpected character after '<' in JSX"}
		}
	}
	switch {
	case c == '>':
		f := st.pop()
		st.pos = i + 1
		if !closing {
			st.push(jsFrame{kind: frJSXKids, pos: f.pos, a: f.a, b: f.b})
			return nil, nil
		}
		k := st.top()
		if k == nil || k.kind != frJSXKids {
			return nil, &jsErr{f.pos, "JSX closing tag without an opening tag"}
		}
		if !bytes.Equal(src[k.a:k.b], src[f.a:f.b]) {
			return nil, &jsErr{f.pos, "JSX closing tag </" + string(src[f.a:f.b]) + "> does not match <" + string(src[k.a:k.b]) + ">"}
		}
		st.pop()
		lx.afterElement(st)
	case c == '/' && !closing && i+1 < n && src[i+1] == '>':
		st.pop()
		st.pos = i + 2
		lx.afterElement(st)
	case closing:
		return nil, &jsErr{i, "unexpected character in a JSX closing tag"}
	case c == '{':
		st.push(jsFrame{kind: frJSXExpr, pos: i})
		st.pos = i + 1
		st.setPrev(pkLBrace, 0, kwNone)
	case c == '"' || c == '\'':
		k := bytes.IndexByte(src[i+1:], c)
		if k < 0 {
			return nil, &jsErr{i, "unterminated JSX attribute value"}
		}
		r.mark(i, i+1+k+1, Runtime, "JSX attribute value")
		st.pos = i + 1 + k + 1
	case c == '=':
		st.pos = i + 1
	case c == '<':
		st.push(jsFrame{kind: frJSXTag, pos: i})
		st.pos = i + 1
	case isJSIdentStart(src, i):
		st.pos = jsxNameEnd(src, i)
	default:
		return nil, &jsErr{i, "unexpected character in a JSX tag"}
	}
	return nil, nil
}

// jsxKids lexes the children of a JSX element: text up to "{" or "<".
func (lx *jsLexer) jsxKids(r *jsReading) (*jsAmb, *jsErr) {
	st := &r.st
	src := lx.src
	i := st.pos
	j := i
	for j < len(src) && src[j] != '{' && src[j] != '<' {
		j++
	}
	if j > i {
		r.mark(i, j, Runtime, "JSX text")
		st.pos = j
		return nil, nil
	}
	if j >= len(src) {
		t := st.top()
		return nil, &jsErr{t.pos, "JSX element <" + string(src[t.a:t.b]) + "> is never closed"}
	}
	if src[j] == '{' {
		st.push(jsFrame{kind: frJSXExpr, pos: j})
		st.pos = j + 1
		st.setPrev(pkLBrace, 0, kwNone)
		return nil, nil
	}
	k := lx.skipTrivia(j + 1)
	if k < len(src) && src[k] == '/' {
		st.push(jsFrame{kind: frJSXTag, sub: 1, pos: j})
		st.pos = k + 1
		return nil, nil
	}
	st.push(jsFrame{kind: frJSXTag, pos: j})
	st.pos = j + 1
	return nil, nil
}

// afterElement continues after a complete JSX element: inside its parent's
// children or tag, or as an operand of the surrounding expression.
func (lx *jsLexer) afterElement(st *jsState) {
	if t := st.top(); t != nil && (t.kind == frJSXKids || t.kind == frJSXTag) {
		return
	}
	st.setPrev(pkOperand, 0, kwNone)
}

// jsxNameEnd returns the end of a JSX element or attribute name: dashed
// identifiers joined by ":" (namespace) or "." (member).
func jsxNameEnd(src []byte, i int) int {
	end := jsIdentEnd(src, i, true)
	for end+1 < len(src) && (src[end] == ':' || src[end] == '.') && isJSIdentStart(src, end+1) {
		end = jsIdentEnd(src, end+1, true)
	}
	return end
}

// typeArgsEnd returns the end of the balanced "<...>" type arguments that
// start at i, skipping strings, comments and braces inside.
func (lx *jsLexer) typeArgsEnd(i int) (int, bool) {
	src := lx.src
	depth := 0
	for j := i; j < len(src); {
		switch c := src[j]; {
		case c == '<':
			depth++
			j++
		case c == '>':
			depth--
			j++
			if depth == 0 {
				return j, true
			}
		case c == '\'' || c == '"':
			e, ok := jsStringEnd(src, j)
			if !ok {
				return 0, false
			}
			j = e
		case c == '/' && j+1 < len(src) && (src[j+1] == '/' || src[j+1] == '*'):
			j = lx.skipTrivia(j)
		case c == '\n' || c == '\r' || c == '`' || c == ';':
			return 0, false // type arguments of a tag stay on one line here
		default:
			j++
		}
	}
	return 0, false
}

package region

import (
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The JavaScript and TypeScript classifier is a hand-written lexer (no
// importable pure-Go lexer covers TypeScript and JSX). It follows ECMA-262's
// lexical grammar and TypeScript's scanner where they differ: lines end at LF,
// CR, U+2028 and U+2029; "/" is a regular expression where an expression may
// start and a division elsewhere; "<" starts a JSX element where an
// expression may start (in files that may hold JSX). Deciding "where an
// expression may start" needs the parser in a few places ("}" after a block
// or an object literal, TypeScript types before a line break, yield and
// await); there the lexer reads both ways (see jsfork.go) and a byte is prose
// only if every reading calls it a comment. Input it cannot lex is refused
// with a position, never guessed at.

// jsDialect is what a file's name says about its syntax.
type jsDialect struct {
	ts bool // TypeScript: type syntax; types can end a statement before a line break
	// jsx files may hold JSX elements: TypeScript reads every JavaScript
	// file (.js .cjs .mjs .jsx) and .tsx with JSX on.
	jsx bool
	// script files may be classic scripts, where Annex B's HTML-like
	// comments exist (not modules, not TypeScript).
	script bool
}

func jsDialectOf(path string) jsDialect {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".ts", ".mts", ".cts":
		return jsDialect{ts: true}
	case ".tsx":
		return jsDialect{ts: true, jsx: true}
	case ".mjs":
		return jsDialect{jsx: true}
	}
	return jsDialect{jsx: true, script: true}
}

// prevKind is the class of the last significant token, which decides what
// "/", "<", "{" and "++" mean next.
type prevKind uint8

const (
	pkStart     prevKind = iota // start of file
	pkOperand                   // identifier, literal, "]", JSX element, postfix ++/--/!
	pkRParen                    // ")" not closing a control head; sub is the paren kind
	pkParenCtrl                 // ")" closing if/while/for/with (...)
	pkRBrace                    // "}"; sub is the brace kind
	pkLBrace                    // "{" or "${"
	pkSemi                      // ";"
	pkColon                     // ":"
	pkArrow                     // "=>"
	pkGT                        // ">" in TypeScript: may close type arguments
	pkDot                       // "." or "?.": a property name follows
	pkKeyword                   // a keyword; kw says which
	pkPunct                     // any other punctuator: an expression may follow
)

// Brace kinds say what a "}" closes, which decides whether "/" after it
// starts a regular expression.
const (
	bkUnknown uint8 = iota
	bkBlock         // a statement block, a declaration's body: "/" after is a regex
	bkExpr          // an object literal, an expression's body: "/" after divides
)

// Paren kinds.
const (
	pcOther  uint8 = iota
	pcHead         // switch (...) and catch (...): a block follows
	pcFnDecl       // parameters of a function declaration
	pcFnExpr       // parameters of a function expression
	pcFnUnknown
	pcCtrl // if/while/for/with (...): a statement follows
)

// Tri-state answers.
const (
	triNo uint8 = iota
	triYes
	triUnknown
)

type jsKw uint8

const (
	kwNone     jsKw = iota
	kwRegexOp       // return typeof instanceof in new delete void throw case extends and other reserved words: an expression may follow
	kwReturn        // also kwRegexOp, but a line break after it ends the statement
	kwContext       // yield await of: an operator or an identifier
	kwIf            // if while for with: their ")" is followed by a statement
	kwHead          // switch catch
	kwElse          // else do try finally: a block follows
	kwFunction      // function
	kwClass         // class
	kwDecl          // TypeScript interface enum namespace module: a body follows
	kwModifier      // export default declare abstract async: what follows inherits statement start
	kwOperand       // this super null true false and other identifiers with a name
	kwDefault       // default (also a modifier)
	kwFor           // for (and "for await")
)

// Frame kinds on the lexer's stack.
const (
	frParen uint8 = iota
	frBracket
	frBrace
	frHole    // "${" ... "}" of a template literal; a is the template's start
	frJSXExpr // "{" ... "}" inside JSX
	frJSXTag  // inside "<name ...>" or "</name>"; sub bits: 1 closing, 2 name read
	frJSXKids // children of an element; [a, b) is its name
)

type jsFrame struct {
	kind, sub uint8
	pos       int // where it opened
	a, b      int
}

// jsState is everything that decides how the rest of the file lexes; two
// readings in equal states at the same offset lex the rest identically.
type jsState struct {
	pos  int
	prev prevKind
	sub  uint8 // brace or paren kind for pkRBrace, pkRParen
	kw   jsKw
	nl   bool  // a line terminator since the previous token
	stmt uint8 // does the previous token start a statement (tri-state)
	// Pending declarations: what the next "{" at depth pendDepth is.
	pendFn, pendClass uint8 // 0 none, else triYes (declaration), triNo (expression) or triUnknown, +1
	pendDepth         int
	holes             int // template holes on the stack: comments there are runtime
	stack             []jsFrame
}

func (s *jsState) clone() jsState {
	c := *s
	c.stack = append([]jsFrame(nil), s.stack...)
	return c
}

func (s *jsState) equal(o *jsState) bool {
	if s.pos != o.pos || s.prev != o.prev || s.sub != o.sub || s.kw != o.kw || s.nl != o.nl ||
		s.stmt != o.stmt || s.pendFn != o.pendFn || s.pendClass != o.pendClass ||
		s.pendDepth != o.pendDepth || s.holes != o.holes || len(s.stack) != len(o.stack) {
		return false
	}
	for i := len(s.stack) - 1; i >= 0; i-- {
		if s.stack[i] != o.stack[i] {
			return false
		}
	}
	return true
}

func (s *jsState) top() *jsFrame {
	if len(s.stack) == 0 {
		return nil
	}
	return &s.stack[len(s.stack)-1]
}

// maxJSDepth bounds nesting (brackets, templates, JSX): deeper input is
// refused rather than classified in time that grows with the depth.
const maxJSDepth = 4096

func (s *jsState) push(f jsFrame) { s.stack = append(s.stack, f) }

func (s *jsState) pop() jsFrame {
	f := s.stack[len(s.stack)-1]
	s.stack = s.stack[:len(s.stack)-1]
	return f
}

// setPrev records a significant token.
func (s *jsState) setPrev(k prevKind, sub uint8, kw jsKw) {
	s.stmt = s.stmtStartHere(k, kw)
	s.prev, s.sub, s.kw, s.nl = k, sub, kw, false
}

// stmtStartHere says whether a token of kind k that follows the current
// previous token starts a statement; only function, class and declaration
// keywords and the modifiers before them ask.
func (s *jsState) stmtStartHere(k prevKind, kw jsKw) uint8 {
	if k != pkKeyword || (kw != kwFunction && kw != kwClass && kw != kwDecl && kw != kwModifier && kw != kwDefault) {
		return triNo
	}
	switch s.prev {
	case pkStart, pkSemi, pkParenCtrl, pkArrow:
		return triYes
	case pkLBrace:
		if t := s.top(); t != nil && t.kind == frBrace {
			return braceTri(t.sub)
		}
		return triNo
	case pkRBrace:
		if s.sub == bkBlock || s.nl {
			return triYes
		}
		return triUnknown
	case pkOperand, pkRParen, pkGT:
		if s.nl {
			return triYes // an operand cannot continue with these: ASI
		}
		return triUnknown
	case pkKeyword:
		switch s.kw {
		case kwElse:
			return triYes
		case kwModifier, kwDefault:
			return s.stmt
		}
		return triNo
	case pkColon:
		return triUnknown // a label or case (statement) or an object value (expression)
	}
	return triNo
}

func braceTri(bk uint8) uint8 {
	switch bk {
	case bkBlock:
		return triYes
	case bkExpr:
		return triNo
	}
	return triUnknown
}

// Readings of an ambiguous token.
const (
	readNone   uint8 = iota
	readRegex        // "/" starts a regular expression, "<" a JSX element
	readDivide       // "/" divides, "<" compares
	readHTML         // "<!--" starts an HTML-like comment (classic scripts)
	readCode         // "<!--" is code (modules)
)

// exprNext says what "/" (and "<" in JSX files) means after the previous
// token: readRegex where an expression may start, readDivide where an
// operator must come, readNone where the lexer cannot tell.
func (s *jsState) exprNext(d jsDialect) uint8 {
	// A TypeScript type may end a statement at a line break, where an
	// expression would go on ("let x: T\n/re/" holds a regex, "x = a\n/ b" a
	// division), but only where statements are: at the top level or in a
	// block, not inside brackets, an object literal or a template hole.
	tsBreak := d.ts && s.nl && s.stmtLevel()
	switch s.prev {
	case pkOperand, pkRParen:
		if tsBreak {
			return readNone
		}
		return readDivide
	case pkRBrace:
		switch s.sub {
		case bkBlock:
			return readRegex
		case bkExpr:
			if tsBreak {
				return readNone
			}
			return readDivide
		}
		return readNone
	case pkGT:
		return readNone // "f<T>(x) / 2" against "a > /re/"
	case pkKeyword:
		switch s.kw {
		case kwOperand, kwModifier, kwDecl:
			if tsBreak {
				return readNone
			}
			return readDivide
		case kwContext:
			return readNone
		}
		return readRegex
	}
	return readRegex
}

// stmtLevel reports whether the lexer is where statements may start: at the
// top level or directly inside a brace that is not an object literal.
func (s *jsState) stmtLevel() bool {
	t := s.top()
	return t == nil || t.kind == frBrace && t.sub != bkExpr
}

// braceKind decides what a "{" opens from the tokens before it.
func (s *jsState) braceKind() uint8 {
	if s.pendClass != 0 && len(s.stack) == s.pendDepth {
		return triToBrace(s.pendClass - 1)
	}
	switch s.prev {
	case pkStart, pkSemi, pkParenCtrl, pkArrow:
		return bkBlock
	case pkLBrace:
		if t := s.top(); t != nil && t.kind == frBrace {
			if t.sub == bkBlock {
				return bkBlock
			}
			return bkUnknown
		}
		return bkExpr
	case pkRBrace:
		if s.sub == bkBlock {
			return bkBlock
		}
		return bkUnknown
	case pkRParen:
		switch s.sub {
		case pcHead, pcFnDecl:
			return bkBlock
		case pcFnExpr:
			return bkExpr
		}
		return bkUnknown
	case pkKeyword:
		switch s.kw {
		case kwElse:
			return bkBlock
		case kwReturn:
			if s.nl {
				return bkBlock
			}
			return bkExpr
		case kwRegexOp, kwContext, kwDefault:
			return bkExpr
		}
		return bkUnknown
	case pkColon:
		if t := s.top(); t != nil && t.kind == frBrace && t.sub == bkExpr {
			return bkExpr // a property value
		}
		return bkUnknown
	case pkOperand, pkGT, pkDot:
		return bkUnknown
	}
	return bkExpr // after "=", "(", "[", ",", "?", an operator: an object literal
}

func triToBrace(t uint8) uint8 {
	switch t {
	case triYes:
		return bkBlock
	case triNo:
		return bkExpr
	}
	return bkUnknown
}

// jsKeyword classifies an identifier that is not a property name.
func jsKeyword(w []byte, d jsDialect) jsKw {
	if len(w) < 2 || len(w) > 10 || w[0] < 'a' || w[0] > 'z' {
		return kwNone
	}
	switch string(w) {
	case "return":
		return kwReturn
	case "typeof", "instanceof", "in", "new", "delete", "void", "throw", "case", "extends",
		"var", "const", "import", "break", "continue", "debugger", "enum":
		// Reserved words: "/" after them can only start a regex. Names
		// that are keywords only in context (let, as, satisfies, keyof)
		// stay identifiers: "/" after them divides.
		return kwRegexOp
	case "yield", "await", "of":
		return kwContext
	case "if", "while", "with":
		return kwIf
	case "for":
		return kwFor
	case "switch", "catch":
		return kwHead
	case "else", "do", "try", "finally":
		return kwElse
	case "function":
		return kwFunction
	case "class":
		return kwClass
	case "default":
		return kwDefault
	case "export", "declare", "abstract", "async":
		return kwModifier
	case "interface", "namespace", "module":
		if d.ts {
			return kwDecl
		}
	case "this", "super", "null", "true", "false":
		return kwOperand
	}
	return kwNone
}

// isJSSpace reports the non-ASCII white space of ECMA-262 (Zs and U+FEFF).
func isJSSpace(r rune) bool {
	return r == 0xfeff || (r != 0x2028 && r != 0x2029 && unicode.Is(unicode.Zs, r))
}

// isLineSep reports U+2028 and U+2029 encoded at src[i:].
func isLineSep(src []byte, i int) bool {
	return i+2 < len(src) && src[i] == 0xe2 && src[i+1] == 0x80 && (src[i+2] == 0xa8 || src[i+2] == 0xa9)
}

// jsLineEnd returns the offset of the first JavaScript line terminator at or
// after i (LF, CR, U+2028, U+2029), or len(src).
func jsLineEnd(src []byte, i int) int {
	for j := i; j < len(src); j++ {
		switch src[j] {
		case '\n', '\r':
			return j
		case 0xe2:
			if isLineSep(src, j) {
				return j
			}
		}
	}
	return len(src)
}

// jsIdentLow and jsIdentHigh hold a bit for every ASCII name character of
// bytes 0-63 ($, 0-9) and 64-127 (A-Z, _, a-z): identifiers are most of a
// bundle's bytes, and a bit test costs about half the comparisons.
const (
	jsIdentLow  = 1<<'$' | (1<<10-1)<<'0'
	jsIdentHigh = (1<<26-1)<<('A'-64) | 1<<('_'-64) | (1<<26-1)<<('a'-64)
)

func isJSIdentASCII(c byte) bool {
	m := uint64(jsIdentLow)
	if c >= 64 {
		m = jsIdentHigh
	}
	return c < 128 && m>>(c&63)&1 != 0
}

// jsIdentEnd returns the end of the identifier (or JSX name when dash is
// set) that starts at i: ASCII name characters, \u escapes, and any
// non-ASCII character that is not white space or a line terminator.
func jsIdentEnd(src []byte, i int, dash bool) int {
	for i < len(src) {
		c := src[i]
		switch {
		case isJSIdentASCII(c) || (dash && c == '-'):
			i++
		case c == '\\' && i+1 < len(src) && src[i+1] == 'u':
			i += 2
			if i < len(src) && src[i] == '{' {
				for i < len(src) && src[i] != '}' && isJSIdentASCII(src[i]) {
					i++
				}
				if i < len(src) && src[i] == '}' {
					i++
				}
			}
		case c >= 0x80:
			r, size := utf8.DecodeRune(src[i:])
			if r == 0x2028 || r == 0x2029 || isJSSpace(r) {
				return i
			}
			i += size
		default:
			return i
		}
	}
	return i
}

func isJSIdentStart(src []byte, i int) bool {
	c := src[i]
	if c == '$' || c == '_' || (c|0x20 >= 'a' && c|0x20 <= 'z') || (c == '\\' && i+1 < len(src) && src[i+1] == 'u') {
		return true
	}
	if c < 0x80 {
		return false
	}
	r, _ := utf8.DecodeRune(src[i:])
	return r != 0x2028 && r != 0x2029 && !isJSSpace(r)
}

// jsNumberEnd returns the end of the numeric literal at i.
func jsNumberEnd(src []byte, i int) int {
	start := i
	for i < len(src) {
		c := src[i]
		switch {
		case isJSIdentASCII(c) || c == '.':
			i++
		case (c == '+' || c == '-') && i > start && src[i-1]|0x20 == 'e' &&
			!(i-start > 1 && src[start] == '0' && src[start+1]|0x20 == 'x'):
			i++
		default:
			return i
		}
	}
	return i
}

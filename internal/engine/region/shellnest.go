package region

import (
	"bytes"
	"fmt"

	"mvdan.cc/sh/v3/syntax"
)

// The shell parser (mvdan.cc/sh) descends one Go call per nested construct
// and its tree walk (syntax.Walk) one per tree level, so a script nested
// 200,000 subshells deep overflows the Go stack: a fatal error no recover
// catches. shellNesting bounds that depth before the parser runs, in one
// linear pass that follows bash's lexical rules closely enough to know what
// is code (quotes, comments, here-documents, arithmetic): every construct
// that gives the parser or its tree a level is counted where it opens, and
// uncounted where it closes. An opener is counted wherever it may be one
// (a word "if" anywhere in code, "{" followed by a blank), a closer only
// where it surely is one (a "fi" at the start of a command, closing the
// innermost open "if"), so a misreading can only raise the count.
//
// A chain of pipes, "&&" or "||" and an arithmetic expression are trees as
// deep as they are long (the parser reads them in a loop but builds them
// left-deep), so each operator adds a level to its enclosing construct
// until the statement (or the expression) ends.

// maxShellNest is the deepest nesting, as shellNesting counts it, that the
// shell parser is given. Each level costs the parser and the walk of its
// tree up to ~7 KB of stack (measured over 23 kinds of nesting), so this
// keeps a script's stack under ~70 MB; real scripts stay below a few dozen
// (bash-completion, debhelper, devscripts, git and autoconf's configure
// scripts: see TestShellNestingRealScripts).
const maxShellNest = 2000

// ShellNestingError says a shell script or command nests deeper than the
// shell parser is given ([ParseShell]); Offset is where the bound is passed.
type ShellNestingError struct {
	Offset int
	Depth  int // the nesting counted, at least maxShellNest+1
}

func (e *ShellNestingError) Error() string {
	return fmt.Sprintf("offset %d: %s", e.Offset, e.reason())
}

func (e *ShellNestingError) reason() string {
	return fmt.Sprintf("nested more than %d levels deep (subshells, substitutions, quotes, compound commands or operators in one statement): more than the shell parser is given",
		maxShellNest)
}

// ShellTooLargeError says a shell script or command is larger than the
// shell parser is given.
type ShellTooLargeError struct{ Size int }

func (e *ShellTooLargeError) Error() string {
	return fmt.Sprintf("a shell script of %.1f MiB is more than the %d MiB the shell parser is given (its syntax tree needs about 80 times the script's size)",
		float64(e.Size)/(1<<20), maxShellParse>>20)
}

// ParseShell parses src in shell variant v with mvdan.cc/sh, after
// bounding what the parser is given: a script larger than 8 MiB
// ([ShellTooLargeError]) or nested deeper than the parser's stack allows
// ([ShellNestingError]) is refused before the parser sees it, so no input
// can crash the process. Every parse of shell code goes through here: the
// classifier's and the agent hooks' reading of a tool's command.
func ParseShell(src []byte, v syntax.LangVariant, opts ...syntax.ParserOption) (*syntax.File, error) {
	return parseShellBounded(src, v, opts...)
}

func parseShellBounded(src []byte, v syntax.LangVariant, opts ...syntax.ParserOption) (*syntax.File, error) {
	if len(src) > maxShellParse {
		return nil, &ShellTooLargeError{Size: len(src)}
	}
	if d, at := shellNesting(src, v == syntax.LangZsh, maxShellNest); d > maxShellNest {
		return nil, &ShellNestingError{Offset: at, Depth: d}
	}
	p := syntax.NewParser(append(opts, syntax.Variant(v))...)
	return p.Parse(bytes.NewReader(src), "")
}

type shFrameKind uint8

const (
	shParen   shFrameKind = iota // ( subshell, array, <( >( process substitution
	shCmdSub                     // $( command substitution
	shBrace                      // { group
	shBack                       // ` command substitution
	shDQ                         // " double quotes
	shParam                      // ${ parameter expansion
	shArith                      // (( or $(( arithmetic, closed by ))
	shArithB                     // $[ arithmetic, closed by ]
	shArParen                    // ( inside arithmetic
	shArBrack                    // [ inside arithmetic (an index)
	shIf                         // if ... fi
	shLoop                       // while, until, for, select ... done
	shCase                       // case ... esac
	shTest                       // [[ ... ]]
	shHdoc                       // an unquoted here-document's body
)

type shFrame struct {
	kind  shFrameKind
	chain int32 // operators chained in this construct's current statement
	// dollar marks an arithmetic frame opened by "$((" rather than "((":
	// read as a command substitution when bash would (see closeArith).
	dollar bool
	at     int32 // where a "$((" frame's "$" is
}

// shHeredoc is a here-document waiting for the end of its command's line.
type shHeredoc struct {
	delim     []byte
	stripTabs bool // <<-
	quoted    bool // <<'EOF': the body is literal
}

// shNester is the state of one shellNesting pass.
type shNester struct {
	src     []byte
	stack   []shFrame
	chains  int // sum of the frames' chains
	max     int
	maxAt   int
	pending []shHeredoc
	// wordStart: the next byte starts a word (after a blank or an
	// operator). cmdPos: that word is in command position, where bash reads
	// reserved words and "}".
	wordStart, cmdPos bool
	// lastOp: the last token was &&, || or |, which continue their
	// statement on the next line.
	lastOp bool
	// letArgs: the statement is a "let", whose words are arithmetic.
	letArgs bool
	// zsh: the parser's zsh reads "}" as a closer after any word (a
	// "{ echo }" group closes).
	zsh bool
	// limit: the pass ends once the count passes it.
	limit int
	// subshells lists the offsets of the inner "(" and its ")" of each
	// "$((" that bash reads as "$( (", a command substitution starting
	// with a subshell.
	subshells [][2]int
	// comments lists where the comments the pass reads start, when
	// keepComments is set.
	comments     []int
	keepComments bool
}

// shellNesting returns an upper bound of the nesting the shell parser meets
// in src and the offset where it is first reached, stopping early once it
// passes limit.
func shellNesting(src []byte, zsh bool, limit int) (depth, at int) {
	s := &shNester{src: src, wordStart: true, cmdPos: true, zsh: zsh, limit: limit}
	i := 0
	for i < len(src) && s.max <= limit {
		i = s.step(i)
	}
	return s.max, s.maxAt
}

func (s *shNester) top() shFrameKind {
	if len(s.stack) == 0 {
		return shBrace // the file: code
	}
	return s.stack[len(s.stack)-1].kind
}

func (s *shNester) depth() int { return len(s.stack) + s.chains }

func (s *shNester) note(at int) {
	if d := s.depth(); d > s.max {
		s.max, s.maxAt = d, at
	}
}

func (s *shNester) push(k shFrameKind, at int) {
	s.stack = append(s.stack, shFrame{kind: k})
	s.note(at)
}

func (s *shNester) pop() {
	n := len(s.stack) - 1
	s.chains -= int(s.stack[n].chain)
	s.stack = s.stack[:n]
}

// chain adds an operator's level to the innermost construct (or the file).
func (s *shNester) chain(at int) {
	if len(s.stack) == 0 {
		s.stack = append(s.stack, shFrame{kind: shBrace})
		// The file's own statement chain lives in a frame of its own
		// that never closes: counted, never popped, it only raises
		// the bound, by one.
	}
	s.stack[len(s.stack)-1].chain++
	s.chains++
	s.note(at)
}

// endStatement ends the innermost construct's current statement.
func (s *shNester) endStatement() {
	s.letArgs = false
	if n := len(s.stack); n > 0 {
		s.chains -= int(s.stack[n-1].chain)
		s.stack[n-1].chain = 0
	}
}

// step reads one token at i in the innermost construct's context and
// returns the offset after it.
func (s *shNester) step(i int) int {
	switch s.top() {
	case shDQ:
		return s.stepQuoted(i, '"')
	case shHdoc:
		return s.stepQuoted(i, 0)
	case shParam:
		return s.stepParam(i)
	case shArith, shArithB, shArParen, shArBrack:
		return s.stepArith(i)
	}
	return s.stepCode(i)
}

// isShMeta reports whether c ends an unquoted word.
func isShMeta(c byte) bool {
	switch c {
	case ' ', '\t', '\r', '\n', ';', '&', '|', '<', '>', '(', ')':
		return true
	}
	return false
}

// stepDollar reads a "$" expansion at i in any context; ok is false when
// the "$" opens nothing.
func (s *shNester) stepDollar(i int, inDQ bool) (int, bool) {
	src := s.src
	if i+1 >= len(src) {
		return i + 1, true
	}
	switch src[i+1] {
	case '(':
		if i+2 < len(src) && src[i+2] == '(' {
			s.push(shArith, i)
			s.stack[len(s.stack)-1].dollar = true
			s.stack[len(s.stack)-1].at = int32(i)
			return i + 3, true
		}
		s.push(shCmdSub, i)
		s.wordStart, s.cmdPos = true, true
		return i + 2, true
	case '{':
		s.push(shParam, i)
		return i + 2, true
	case '[':
		s.push(shArithB, i)
		return i + 2, true
	case '\'':
		if !inDQ {
			return skipANSIC(src, i+2), true
		}
	case '"':
		if !inDQ {
			s.push(shDQ, i)
			return i + 2, true
		}
	}
	return i + 1, false
}

// skipANSIC returns the offset after the $'...' string whose body starts
// at i (backslash escapes its next byte).
func skipANSIC(src []byte, i int) int {
	for i < len(src) {
		switch src[i] {
		case '\\':
			i += 2
		case '\'':
			return i + 1
		default:
			i++
		}
	}
	return len(src)
}

// skipSingle returns the offset after the '...' string whose body starts
// at i.
func skipSingle(src []byte, i int) int {
	if k := bytes.IndexByte(src[i:], '\''); k >= 0 {
		return i + k + 1
	}
	return len(src)
}

// stepQuoted reads inside double quotes (q is '"') or an unquoted
// here-document's body (q is 0, ended by its caller at a delimiter line):
// only "$", "`" and backslash are special.
func (s *shNester) stepQuoted(i int, q byte) int {
	src := s.src
	switch c := src[i]; {
	case q != 0 && c == q:
		s.pop()
		s.wordStart, s.cmdPos = false, false
		return i + 1
	case q == 0 && c == '\n':
		return i + 1
	case c == '\\':
		return i + 2
	case c == '$':
		j, _ := s.stepDollar(i, true)
		return j
	case c == '`':
		s.push(shBack, i)
		s.wordStart, s.cmdPos = true, true
		return i + 1
	}
	// Nothing else is special: jump to the next byte that is (a body's
	// caller looks at every line start for its delimiter).
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '"', '\\', '$', '`':
			return j
		case '\n':
			if q == 0 {
				return j + 1
			}
		}
	}
	return len(src)
}

// stepParam reads inside ${...}: words with quotes and expansions, closed
// by "}".
func (s *shNester) stepParam(i int) int {
	if s.src[i] == '}' {
		s.pop()
		s.wordStart, s.cmdPos = false, false
		return i + 1
	}
	if j, ok := s.stepExpansionPart(i); ok {
		return j
	}
	if isArithOp(s.src[i]) || s.src[i] == '[' {
		s.chain(i) // an index or a slice offset is arithmetic
	}
	return i + 1
}

// stepExpansionPart reads what parameter expansions and arithmetic hold
// alike: an escape, a quoted string, a "$" expansion, a backquote. ok is
// false for any other byte.
func (s *shNester) stepExpansionPart(i int) (int, bool) {
	src := s.src
	switch src[i] {
	case '\\':
		return i + 2, true
	case '\'':
		// The parser reads a quote here even inside "${...}", where
		// bash reads some operators' words literally.
		return skipSingle(src, i+1), true
	case '"':
		s.push(shDQ, i)
		return i + 1, true
	case '$':
		j, _ := s.stepDollar(i, false)
		return j, true
	case '`':
		s.push(shBack, i)
		s.wordStart, s.cmdPos = true, true
		return i + 1, true
	}
	return 0, false
}

// isArithOp reports whether c is (part of) an arithmetic operator.
func isArithOp(c byte) bool {
	switch c {
	case '+', '-', '*', '/', '%', '<', '>', '=', '!', '~', '^', '&', '|', '?', ':', ',':
		return true
	}
	return false
}

// stepArith reads inside an arithmetic expression: every operator is a
// tree level; "(" nests; "))" (or "]" for $[) closes.
func (s *shNester) stepArith(i int) int {
	switch s.src[i] {
	case '(':
		s.push(shArParen, i)
		return i + 1
	case ')':
		return s.closeArith(i)
	case '[':
		s.push(shArBrack, i)
		return i + 1
	case ']':
		if k := s.top(); k == shArithB || k == shArBrack {
			s.pop()
		}
		return i + 1
	}
	if j, ok := s.stepExpansionPart(i); ok {
		return j
	}
	if isArithOp(s.src[i]) {
		s.chain(i)
	}
	return i + 1
}

// closeArith reads a ")" in arithmetic. As bash does, "((" that is not
// closed by "))" was two parentheses: "$((cmd) | x)" is a command
// substitution starting with a subshell, "((a) | b)" a subshell in a
// subshell.
func (s *shNester) closeArith(i int) int {
	src := s.src
	switch s.top() {
	case shArParen:
		s.pop()
		return i + 1
	case shArithB, shArBrack:
		return i + 1 // a stray ")" in $[ ] or an index
	}
	if i+1 < len(src) && src[i+1] == ')' {
		s.pop()
		s.wordStart, s.cmdPos = false, false
		return i + 2
	}
	// The inner "(" just closed; the outer one stays open, as code.
	f := &s.stack[len(s.stack)-1]
	s.chains -= int(f.chain)
	f.chain = 0
	f.kind = shParen
	if f.dollar {
		f.kind = shCmdSub
		s.subshells = append(s.subshells, [2]int{int(f.at) + 2, i})
	}
	s.wordStart, s.cmdPos = false, false
	return i + 1
}

// stepCode reads one token of code (the file, a subshell, a group, a
// command substitution, a compound command's body, a [[ test ]]).
func (s *shNester) stepCode(i int) int {
	src := s.src
	c := src[i]
	switch c {
	case ' ', '\t', '\r':
		// The parser reads a \r as a blank (bash as a letter: its
		// reading is estimated on the copy it is given, see shellParse).
		s.wordStart = true
		return i + 1
	case '\n':
		return s.newline(i)
	case '\\':
		if i+1 < len(src) && src[i+1] == '\n' {
			return i + 2 // a line continuation joins the words
		}
		s.word()
		return i + 2
	case '#':
		if s.wordStart {
			if s.keepComments {
				s.comments = append(s.comments, i)
			}
			if k := bytes.IndexByte(src[i:], '\n'); k >= 0 {
				return i + k
			}
			return len(src)
		}
	case '\'':
		s.word()
		return skipSingle(src, i+1)
	case '"':
		s.word()
		s.push(shDQ, i)
		return i + 1
	case '`':
		if s.top() == shBack {
			s.pop()
			s.word()
			return i + 1
		}
		s.word()
		s.push(shBack, i)
		s.wordStart, s.cmdPos = true, true
		return i + 1
	case '$':
		s.word()
		j, _ := s.stepDollar(i, false)
		return j
	case '(':
		return s.openParen(i)
	case ')':
		return s.closeParen(i)
	case ';', '&', '|', '<', '>':
		return s.operator(i)
	}
	return s.bareWord(i)
}

// word notes that a word (not in command position after it) was read.
func (s *shNester) word() {
	s.wordStart, s.cmdPos, s.lastOp = false, false, false
}

func (s *shNester) newline(i int) int {
	i++
	if len(s.pending) > 0 {
		i = s.heredocs(i)
	}
	s.wordStart = true
	if !s.lastOp {
		s.endStatement()
		s.cmdPos = true
	}
	return i
}

func (s *shNester) openParen(i int) int {
	src := s.src
	if s.cmdPos && i+1 < len(src) && src[i+1] == '(' {
		s.push(shArith, i)
		return i + 2
	}
	s.push(shParen, i)
	s.wordStart, s.cmdPos, s.lastOp = true, true, false
	return i + 1
}

func (s *shNester) closeParen(i int) int {
	switch s.top() {
	case shParen, shCmdSub:
		s.pop()
	}
	s.wordStart, s.lastOp = true, false
	s.cmdPos = s.top() == shCase // after a case pattern: its body
	return i + 1
}

// operator reads a control or redirection operator at i.
func (s *shNester) operator(i int) int {
	src := s.src
	next := func(k int) byte {
		if i+k < len(src) {
			return src[i+k]
		}
		return 0
	}
	s.wordStart = true
	c := src[i]
	switch {
	case (c == '&' && next(1) == '&') || (c == '|' && next(1) == '|'):
		s.chain(i)
		s.cmdPos, s.lastOp = true, true
		return i + 2
	case c == '|':
		s.chain(i)
		s.cmdPos, s.lastOp = true, true
		if next(1) == '&' {
			return i + 2
		}
		return i + 1
	case c == ';' || (c == '&' && next(1) != '>'):
		s.endStatement()
		s.cmdPos, s.lastOp = true, false
		k := 1
		for k < 3 && (next(k) == ';' || next(k) == '&') {
			k++ // ;; ;& ;;&
		}
		return i + k
	case (c == '<' || c == '>') && next(1) == '(':
		s.push(shParen, i)
		s.cmdPos, s.lastOp = true, false
		return i + 2
	case c == '<' && next(1) == '<' && next(2) == '<':
		s.lastOp = false
		return i + 3
	case c == '<' && next(1) == '<' && s.top() != shTest:
		return s.heredocOperator(i)
	}
	// Any other redirection: its operator bytes, then a word.
	s.lastOp = false
	j := i + 1
	for j < len(src) && j < i+3 && (src[j] == '>' || src[j] == '<' || src[j] == '&' || src[j] == '|') {
		j++
	}
	return j
}

// bareWord reads an unquoted run of word bytes at i, checking it for the
// reserved words that open and close constructs.
func (s *shNester) bareWord(i int) int {
	src := s.src
	j := i
	for j < len(src) && !isShMeta(src[j]) && src[j] != '\'' && src[j] != '"' && src[j] != '`' && src[j] != '$' && src[j] != '\\' {
		j++
	}
	if j == i {
		j = i + 1 // a byte only special elsewhere (a "#" inside a word)
	}
	w := src[i:j]
	if s.letArgs || bytes.IndexByte(w, '[') >= 0 {
		// let's words, and an array index (a[i+1]=x), are arithmetic.
		for k, c := range w {
			if isArithOp(c) || c == '[' {
				s.chain(i + k) // an index nests: a[b[c]]
			}
		}
	}
	whole := s.wordStart && (j == len(src) || isShMeta(src[j]))
	start, cmd := s.wordStart, s.cmdPos
	s.wordStart, s.cmdPos, s.lastOp = false, false, false
	if !start {
		return j
	}
	if !whole {
		if cmd && bytes.IndexByte(w, '=') > 0 {
			s.cmdPos = true // an assignment: the command is still to come
		}
		return j
	}
	s.reserved(w, cmd, i)
	return j
}

// reserved handles a whole unquoted word at the start of a word.
func (s *shNester) reserved(w []byte, cmd bool, at int) {
	switch string(w) {
	case "if":
		s.push(shIf, at)
		s.cmdPos = true
	case "while", "until", "for", "select":
		s.push(shLoop, at)
		s.cmdPos = true
	case "case":
		s.push(shCase, at)
	case "[[":
		s.push(shTest, at)
	case "{":
		s.push(shBrace, at)
		s.cmdPos = true
	case "!":
		// Negation nests in a [[ test ]] and costs nothing elsewhere;
		// counted everywhere, it can only raise the bound.
		s.chain(at)
		s.cmdPos = true
	case "let":
		s.letArgs = cmd
	case "then", "do", "else", "elif", "in", "time", "function", "coproc":
		s.cmdPos = true
	case "fi":
		s.closeKeyword(shIf, cmd)
	case "done":
		s.closeKeyword(shLoop, cmd)
	case "esac":
		s.closeKeyword(shCase, cmd)
	case "]]":
		if s.top() == shTest {
			s.pop()
		}
	case "}":
		if (cmd || s.zsh) && s.top() == shBrace && len(s.stack) > 0 {
			s.pop()
			s.cmdPos = true // "} always {", "} else {" in zsh
		}
	default:
		if cmd && bytes.IndexByte(w, '=') > 0 {
			s.cmdPos = true
		}
	}
}

// closeKeyword pops the innermost construct when it is a k opened by a
// reserved word and the closing word is in command position.
func (s *shNester) closeKeyword(k shFrameKind, cmd bool) {
	if cmd && s.top() == k && len(s.stack) > 0 {
		s.pop()
	}
}

// heredocOperator reads "<<" or "<<-" and its delimiter word at i.
func (s *shNester) heredocOperator(i int) int {
	src := s.src
	j := i + 2
	h := shHeredoc{}
	if j < len(src) && src[j] == '-' {
		h.stripTabs = true
		j++
	}
	for j < len(src) && (src[j] == ' ' || src[j] == '\t') {
		j++
	}
	var delim []byte
	for j < len(src) && !isShMeta(src[j]) {
		switch c := src[j]; c {
		case '\'':
			h.quoted = true
			k := skipSingle(src, j+1)
			delim = append(delim, src[j+1:max(j+1, k-1)]...)
			j = k
		case '"':
			h.quoted = true
			k := j + 1
			for k < len(src) && src[k] != '"' {
				if src[k] == '\\' && k+1 < len(src) {
					k++
				}
				delim = append(delim, src[k])
				k++
			}
			j = k + 1
		case '\\':
			h.quoted = true
			if j+1 < len(src) {
				delim = append(delim, src[j+1])
			}
			j += 2
		default:
			delim = append(delim, c)
			j++
		}
	}
	h.delim = delim
	s.pending = append(s.pending, h)
	s.wordStart, s.lastOp = true, false
	return min(j, len(src))
}

// heredocs reads the bodies of the pending here-documents, starting at i
// (the line after their command's), and returns the offset after the last
// one's delimiter line.
func (s *shNester) heredocs(i int) int {
	pending := s.pending
	s.pending = nil
	for _, h := range pending {
		if h.quoted {
			_, i = quotedHeredocEnd(s.src, i, h)
			continue
		}
		i = s.heredocBody(i, h)
	}
	return i
}

// heredocBody reads an unquoted here-document's body at i as the parser
// does: its expansions are code, and a delimiter line ends the body only
// where no expansion opened in it is still open ("$(echo\nEOF\n)" holds
// one). It returns the offset after the delimiter line.
func (s *shNester) heredocBody(i int, h shHeredoc) int {
	src := s.src
	base := len(s.stack)
	s.push(shHdoc, i)
	end := len(src)
	for lineStart := true; i < len(src) && s.max <= s.limit; {
		if lineStart && len(s.stack) == base+1 {
			if e, ok := delimiterLine(src, i, h); ok {
				end = e
				break
			}
		}
		j := s.step(i)
		lineStart = j > 0 && src[j-1] == '\n'
		i = j
	}
	for len(s.stack) > base {
		s.pop()
	}
	return end
}

// delimiterLine reports whether the line at i ends here-document h and
// returns the offset after it. As the parser does, a \r before the \n is
// not part of the line.
func delimiterLine(src []byte, i int, h shHeredoc) (int, bool) {
	e := len(src)
	if n := bytes.IndexByte(src[i:], '\n'); n >= 0 {
		e = i + n
	}
	line := src[i:e]
	if h.stripTabs {
		line = bytes.TrimLeft(line, "\t")
	}
	line = bytes.TrimSuffix(line, []byte{'\r'})
	if !bytes.Equal(line, h.delim) {
		return 0, false
	}
	return min(e+1, len(src)), true
}

// quotedHeredocEnd returns where a literal body starting at i ends (before
// its delimiter line) and the offset after that line; a body without one
// runs to the end of the file.
func quotedHeredocEnd(src []byte, i int, h shHeredoc) (end, next int) {
	for k := i; k < len(src); {
		if e, ok := delimiterLine(src, k, h); ok {
			return k, e
		}
		n := bytes.IndexByte(src[k:], '\n')
		if n < 0 {
			break
		}
		k += n + 1
	}
	return len(src), len(src)
}

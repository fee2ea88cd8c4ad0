package region

import (
	"bytes"
	"fmt"
	"go/scanner"
	"go/token"
	"sort"
)

// The Go classifier takes comment and literal positions from go/scanner, so
// it agrees with the compiler on where every comment starts and ends. Only
// \n ends a line for the Go scanner; a \r inside a comment is kept out of
// prose (runtime) so that no line-ending byte is ever handed to a cleaner.

// goComment is one comment token as found in the source.
type goComment struct {
	start, end int
	block      bool
	// newGroup is set when this comment does not continue the previous
	// comment's group (a token or a blank line lies between them).
	newGroup bool
	// trailing is set for a comment on the same line as a preceding token;
	// go/parser makes it a group of its own.
	trailing bool
	kind     Kind
	why      string
}

type goLiteral struct {
	start, end int
	why        string
}

func classifyGo(path string, src []byte) (*Map, error) {
	fset := token.NewFileSet()
	file := fset.AddFile(path, -1, len(src))
	var errOffs []int
	var s scanner.Scanner
	s.Init(file, src, func(pos token.Position, _ string) { errOffs = append(errOffs, pos.Offset) }, scanner.ScanComments)

	var comments []goComment
	var lits []goLiteral
	var preamble [][2]int // comment index ranges [from, to] that are cgo preambles

	tokenSinceComment := true // a token lies between the last comment and here
	lastTok := -1             // offset of the last token seen
	groupStart := -1          // index of the first comment of the current group
	inImport, importParen := false, false
	importGroup := [2]int{-1, -1} // the comment group right before the current import keyword

	// groupBefore returns the comment group that ends right before the
	// token at off, or {-1, -1}.
	// A group separated from the token by a blank line is not its doc.
	groupBefore := func(off int) [2]int {
		if tokenSinceComment || groupStart < 0 || bytes.Count(src[comments[len(comments)-1].end:off], []byte{'\n'}) > 1 {
			return [2]int{-1, -1}
		}
		return [2]int{groupStart, len(comments) - 1}
	}

	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		off := file.Offset(pos)
		if tok == token.COMMENT {
			c := goComment{start: off, end: goCommentEnd(src, off), block: off+1 < len(src) && src[off+1] == '*'}
			c.trailing = tokenSinceComment && lastTok >= 0 && bytes.IndexByte(src[lastTok:off], '\n') < 0
			if k := len(comments) - 1; tokenSinceComment || k < 0 ||
				(comments[k].trailing && bytes.IndexByte(src[comments[k].end:off], '\n') >= 0) ||
				bytes.Count(src[comments[k].end:off], []byte{'\n'}) > 1 {
				c.newGroup = true
				groupStart = len(comments)
			}
			comments = append(comments, c)
			tokenSinceComment = false
			continue
		}
		if tok == token.SEMICOLON && lit == "\n" {
			// Inserted by the scanner at a line end: not a token of the source.
			if inImport && !importParen {
				inImport = false
			}
			continue
		}
		switch tok {
		case token.IMPORT:
			inImport, importParen = true, false
			importGroup = groupBefore(off)
		case token.LPAREN:
			if inImport {
				importParen = true
			}
		case token.RPAREN, token.SEMICOLON:
			if inImport && (importParen == (tok == token.RPAREN)) {
				inImport = false
			}
		case token.STRING:
			end := off + len(lit)
			if len(lit) > 0 && lit[0] == '`' {
				// go/scanner drops \r from raw strings; find the real end.
				if k := bytes.IndexByte(src[off+1:], '`'); k >= 0 {
					end = off + 1 + k + 1
				}
			}
			lits = append(lits, goLiteral{off, end, "string literal"})
			if inImport && (lit == `"C"` || lit == "`C`") {
				preamble = append(preamble, importGroup, groupBefore(off))
			}
		case token.CHAR:
			lits = append(lits, goLiteral{off, off + len(lit), "rune literal"})
		}
		tokenSinceComment = true
		lastTok = off
	}

	b := NewBuilder(len(src))
	if why := goFatal(src, errOffs, comments); why != "" {
		b.Mark(0, len(src), Runtime, why)
		return b.Map("go"), nil
	}

	for k := range comments {
		c := &comments[k]
		c.kind, c.why = goCommentKind(src[c.start:c.end], c.block)
	}
	for _, g := range preamble {
		for k := g[0]; k >= 0 && k <= g[1]; k++ {
			comments[k].kind, comments[k].why = Runtime, "cgo preamble"
		}
	}
	for k := 0; k < len(comments); k++ {
		if comments[k].why != "example output" {
			continue
		}
		for m := k; m < len(comments) && (m == k || !comments[m].newGroup); m++ {
			comments[m].kind, comments[m].why = Runtime, "example output"
			k = m
		}
	}

	// Comments and literals never overlap and both lists are in source
	// order: merging them keeps the builder on its linear path.
	li := 0
	for _, c := range comments {
		for li < len(lits) && lits[li].start < c.start {
			b.Mark(lits[li].start, lits[li].end, Runtime, lits[li].why)
			li++
		}
		markGoComment(b, src, c)
	}
	for ; li < len(lits); li++ {
		b.Mark(lits[li].start, lits[li].end, Runtime, lits[li].why)
	}
	return b.Map("go"), nil
}

// goCommentEnd returns the end of the comment starting at off: before the
// \n of a line comment, after the */ of a block comment, or len(src) when a
// block comment is not terminated.
func goCommentEnd(src []byte, off int) int {
	if off+1 < len(src) && src[off+1] == '*' {
		if k := bytes.Index(src[off+2:], []byte("*/")); k >= 0 {
			return off + 2 + k + 2
		}
		return len(src)
	}
	if k := bytes.IndexByte(src[off:], '\n'); k >= 0 {
		return off + k
	}
	return len(src)
}

// goFatal returns a reason to treat the whole file as runtime: a scanner
// error outside a comment, or a block comment that never ends.
func goFatal(src []byte, errOffs []int, comments []goComment) string {
	for _, c := range comments {
		if c.block && (c.end-c.start < 4 || !bytes.HasSuffix(src[c.start:c.end], []byte("*/"))) {
			return "unterminated comment at " + lineCol(src, c.start)
		}
	}
	for _, off := range errOffs {
		// The last comment starting at or before off is the only one that can hold it.
		k := sort.Search(len(comments), func(k int) bool { return comments[k].start > off }) - 1
		if k < 0 || off >= comments[k].end {
			return "go/scanner error at " + lineCol(src, off)
		}
	}
	return ""
}

// lineCol renders a byte offset as line:col (both 1-based, col in bytes),
// counting lines by \n as the Go scanner does.
func lineCol(src []byte, off int) string {
	if off > len(src) {
		off = len(src)
	}
	if off < 0 {
		off = 0
	}
	line := 1 + bytes.Count(src[:off], []byte{'\n'})
	col := off - (bytes.LastIndexByte(src[:off], '\n') + 1) + 1
	return fmt.Sprintf("%d:%d", line, col)
}

// markGoComment marks one comment, keeping its \r bytes runtime.
func markGoComment(b *Builder, src []byte, c goComment) {
	if c.kind == Runtime {
		b.Mark(c.start, c.end, Runtime, c.why)
		return
	}
	markSplitCR(b.Mark, src, c.start, c.end, c.kind, c.why)
}

// goCommentKind classifies one comment's text (markers included). A
// carrier whose removal would let "*/" appear inside a block comment, and
// close it early, is prose like the rest of the comment: the engine
// classifies the file again without it, sees the rest become code, and
// keeps that one carrier while the others go.
func goCommentKind(text []byte, block bool) (Kind, string) {
	fs := carrierForms(text)
	if goOutputComment(&fs) {
		return Runtime, "example output"
	}
	if why, ok := fs.match(goDirective); ok {
		return Directive, why
	}
	body, _ := goCommentBody(text)
	return Prose, commentWhy(body)
}

// goCommentBody strips the comment markers.
func goCommentBody(t []byte) ([]byte, bool) {
	if len(t) >= 2 && t[0] == '/' && t[1] == '/' {
		return t[2:], true
	}
	if len(t) >= 4 && t[0] == '/' && t[1] == '*' && t[len(t)-2] == '*' && t[len(t)-1] == '/' {
		return t[2 : len(t)-2], false
	}
	if len(t) >= 2 {
		return t[2:], false
	}
	return nil, false
}

// goPrefixDirectives must follow the comment marker with no space.
var goPrefixDirectives = [...]struct{ prefix, why string }{
	{"line ", "directive: //line"},
	{"export ", "directive: //export"},
	{"export\t", "directive: //export"},
	{"extern ", "directive: //extern"},
	{"extern\t", "directive: //extern"},
	{"sys ", "directive: //sys"},
	{"sys\t", "directive: //sys"},
	{"sysnb ", "directive: //sys"},
	{"sysnb\t", "directive: //sys"},
}

// goDirective classifies a comment's text as a directive.
func goDirective(t []byte) (string, bool) {
	if why, ok := suppressionDirective(t, inAnyComment); ok {
		return why, true
	}
	body, line := goCommentBody(t)
	if !line {
		if bytes.HasPrefix(body, []byte("line ")) {
			return "directive: /*line", true
		}
	} else {
		for _, d := range goPrefixDirectives {
			if bytes.HasPrefix(body, []byte(d.prefix)) {
				return d.why, true
			}
		}
		if string(body) == "export" || string(body) == "extern" {
			return "directive: //" + string(body), true
		}
		if bytes.HasPrefix(body, []byte(" Code generated ")) && bytes.HasSuffix(body, []byte(" DO NOT EDIT.")) {
			return "directive: generated code marker", true
		}
	}
	// Check every "//"-introduced segment: "// why //nolint:errcheck".
	for seg, rest := body, []byte(nil); seg != nil; seg = rest {
		rest = nil
		if k := bytes.Index(seg, []byte("//")); k >= 0 {
			seg, rest = seg[:k], seg[k+2:]
		}
		if why, ok := goSegmentDirective(seg); ok {
			return why, true
		}
	}
	return "", false
}

func goSegmentDirective(seg []byte) (string, bool) {
	s := trimSpaceLeft(seg)
	if hasPrefixFold(s, "nolint") {
		return "directive: //nolint", true
	}
	if len(s) > 1 && s[0] == '+' && isWordStart(s[1]) {
		if bytes.HasPrefix(s, []byte("+build")) {
			return "directive: // +build", true
		}
		return "directive: // +tag", true
	}
	if word, ok := wordColon(seg); ok {
		switch word {
		case "go", "lint", "nolint", "gofmt", "golangci", "revive", "staticcheck":
			return "directive: " + word + ":", true
		}
		return "directive: word:", true
	}
	if goNote(s) {
		return "directive: note", true
	}
	return "", false
}

// goNote matches go/doc's note marker, MARKER(uid): text, for markers
// that are not prose labels: go/doc collects BUG(who): notes for people,
// like TODO(who): and NOTE(who):, and those stay prose.
func goNote(s []byte) bool {
	n := 0
	for n < len(s) && s[n] >= 'A' && s[n] <= 'Z' {
		n++
	}
	if n < 2 || n >= len(s) || s[n] != '(' || isProseLabel(s[:n]) {
		return false
	}
	k := bytes.IndexByte(s[n:], ')')
	return k > 1 && n+k+1 < len(s) && s[n+k+1] == ':'
}

// goOutputComment matches go/doc's example output marker,
// (?i)^[[:space:]]*(unordered )?output:, on a comment's forms.
func goOutputComment(fs *forms) bool {
	_, ok := fs.match(func(t []byte) (string, bool) {
		body, _ := goCommentBody(t)
		s := trimSpaceLeft(body)
		return "", hasPrefixFold(s, "unordered output:") || hasPrefixFold(s, "output:")
	})
	return ok
}

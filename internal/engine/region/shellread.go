package region

import (
	"bytes"
	"errors"
	"sort"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// The parser is given a reading of the script rather than the script
// itself where it and the shell read the same bytes differently:
//
//   - "$((" is arithmetic for bash and zsh only when the ")" closing the
//     inner "(" is followed by another ")"; otherwise it is "$( (", a
//     command substitution starting with a subshell ("$((cmd) 2>&1)").
//     The parser always reads arithmetic, so a blank is inserted after
//     "$(" wherever the shell would not (shNester finds the places, with
//     the shell's quoting, comments and here-documents);
//   - zsh has forms the parser's zsh does not know: "{ a } always { b }",
//     "for 1 2 3; do", "if [[ c ]] { a } elif ... else { b }", "while
//     (( c )) { a }", "for x (a b) { c }", "for x in a; { c }",
//     "${name::=word}". Each is
//     rewritten, in place and at the same length, into a form the parser
//     reads with the same comments, once the parser stops at it.
//
// A rewrite only turns keywords, words and blanks of code into blanks and
// the operators ";" and "&" followed by blanks: it never moves a quote or
// a "#", never puts a word character or an operator right before a "#"
// (which could make a word's "#" start a comment) and keeps every line end,
// so the comments of the rewritten text are the script's comments, at the
// script's offsets once the inserted blanks are subtracted. A comment the
// rewrite blanks (a zsh loop header spanning lines with a comment in it) is
// not seen, and so stays runtime.

// maxZshRepairs bounds the zsh rewrites tried on one script; each costs a
// parse.
const maxZshRepairs = 64

// shellReading is what the parser is given for one script and variant.
type shellReading struct {
	text []byte
	// ins lists the script offsets before which a blank was inserted,
	// ascending; the k-th one sits at text offset ins[k]+k.
	ins   []int
	owned bool // text is a copy that may be edited
	// scanned lists the subshells of "$((" (from the inner "(" to its
	// ")"): bash finds their end reading them as arithmetic, where "#"
	// starts no comment, so a ")" in a comment there ends them early.
	scanned [][2]int
}

func newShellReading(src []byte, v syntax.LangVariant) *shellReading {
	r := &shellReading{text: src}
	if v == syntax.LangPOSIX || v == syntax.LangMirBSDKorn || !bytes.Contains(src, []byte("$((")) {
		return r // dash and mksh read "$((" as arithmetic only
	}
	s := &shNester{src: src, wordStart: true, cmdPos: true, zsh: v == syntax.LangZsh, limit: maxShellNest}
	for i := 0; i < len(src) && s.max <= s.limit; {
		i = s.step(i)
	}
	if len(s.subshells) == 0 {
		return r
	}
	for _, sub := range s.subshells {
		r.ins = append(r.ins, sub[0])
	}
	sort.Ints(r.ins)
	r.scanned = s.subshells
	r.text = make([]byte, 0, len(src)+len(r.ins))
	last := 0
	for _, p := range r.ins {
		r.text = append(append(r.text, src[last:p]...), ' ')
		last = p
	}
	r.text = append(r.text, src[last:]...)
	r.owned = true
	return r
}

// confirmComments keeps a comment of a rewritten reading as it is only
// where shNester, reading the script itself with the shell's quoting, also
// starts a comment; any other is runtime.
func confirmComments(src []byte, v syntax.LangVariant, comments []shComment) {
	s := &shNester{src: src, wordStart: true, cmdPos: true, zsh: v == syntax.LangZsh, limit: maxShellNest, keepComments: true}
	for i := 0; i < len(src) && s.max <= s.limit; {
		i = s.step(i)
	}
	seen := make(map[int]bool, len(s.comments))
	for _, c := range s.comments {
		seen[c] = true
	}
	for i := range comments {
		if !seen[comments[i].start] && comments[i].why == "" {
			comments[i].why = "comment the shell parser read only in a rewritten copy, unconfirmed"
		}
	}
}

// toSrc maps an offset of the text to the script's.
func (r *shellReading) toSrc(a int) int {
	return a - sort.Search(len(r.ins), func(k int) bool { return r.ins[k]+k >= a })
}

// set overwrites the text at i, copying it first.
func (r *shellReading) set(i int, b []byte) {
	if !r.owned {
		r.text, r.owned = bytes.Clone(r.text), true
	}
	copy(r.text[i:], b)
}

// blank turns text[i:j] into blanks, line ends kept.
func (r *shellReading) blank(i, j int) {
	for k := i; k < j; k++ {
		if r.text[k] != '\n' && r.text[k] != ' ' {
			r.set(k, []byte{' '})
		}
	}
}

// mapBack moves comments and here-documents found in the text to the
// script's offsets.
func (r *shellReading) mapBack(comments []shComment, hdocs [][2]int) ([]shComment, [][2]int) {
	if len(r.ins) == 0 {
		return comments, hdocs
	}
	for i := range comments {
		c := &comments[i]
		c.start, c.end = r.toSrc(c.start), r.toSrc(c.end)
		for _, sub := range r.scanned {
			if c.start > sub[0] && c.start < sub[1] && c.why == "" {
				c.why = "comment inside the subshell of a \"$((\", which bash scans as arithmetic"
			}
		}
	}
	for i := range hdocs {
		hdocs[i] = [2]int{r.toSrc(hdocs[i][0]), r.toSrc(hdocs[i][1])}
	}
	return comments, hdocs
}

// mapErr moves a parse error's position to the script's offsets.
func (r *shellReading) mapErr(err error) error {
	if len(r.ins) == 0 {
		return err
	}
	switch e := err.(type) {
	case syntax.ParseError:
		e.Pos = syntax.NewPos(uint(r.toSrc(int(e.Pos.Offset()))), 0, 0)
		return e
	case syntax.LangError:
		e.Pos = syntax.NewPos(uint(r.toSrc(int(e.Pos.Offset()))), 0, 0)
		return e
	}
	var ne *ShellNestingError
	if errors.As(err, &ne) {
		return &ShellNestingError{Offset: r.toSrc(ne.Offset), Depth: ne.Depth}
	}
	return err
}

// repair rewrites the copy where the parser stopped, if it can, and
// reports whether it did: zsh's forms for zsh; for bash, a line holding
// another dialect's feature (git's bash completion holds zsh's
// "${(M)${(k)parameters[@]}:#...}" in a branch only zsh runs: bash checks
// only that the braces of "${" match until it expands one, the parser
// checks the whole expansion) is blanked.
func (r *shellReading) repair(v syntax.LangVariant, err error) bool {
	switch v {
	case syntax.LangZsh:
		return r.repairZsh(err)
	case syntax.LangBash, syntax.LangBats:
		var le syntax.LangError
		if errors.As(err, &le) && int(le.Pos.Offset()) < len(r.text) {
			return r.blankLine(int(le.Pos.Offset()))
		}
	}
	return false
}

// repairZsh rewrites the zsh construct the parser stopped at, if it is one
// it knows, and reports whether it did.
func (r *shellReading) repairZsh(err error) bool {
	var off int
	var msg string
	switch e := err.(type) {
	case syntax.ParseError:
		off, msg = int(e.Pos.Offset()), e.Text
	case syntax.LangError:
		off, msg = int(e.Pos.Offset()), e.Feature
	default:
		return false
	}
	if off < 0 || off >= len(r.text) {
		return false
	}
	if r.repairZshForm(off, msg) {
		return true
	}
	return r.blankLine(off)
}

// blankLine is the last resort for a zsh form no rewrite knows (extended
// glob flags such as "(#b)" in a pattern, a function named by an
// expansion): the line the parser stopped on becomes ":" and blanks, so the rest
// of the script is still read. Its comments are lost (runtime), and the
// comments found after it are kept only where shNester, reading the
// script itself, sees them too (see confirmZshComments).
func (r *shellReading) blankLine(off int) bool {
	t := r.text
	start := bytes.LastIndexByte(t[:off], '\n') + 1
	end := len(t)
	if k := bytes.IndexByte(t[off:], '\n'); k >= 0 {
		end = off + k
	}
	if len(bytes.TrimSpace(t[start:end])) == 0 {
		return false
	}
	r.blank(start, end)
	// A no-op command keeps a body the line was alone in ("then :").
	r.set(skipBlanks(t, start), []byte{':'})
	return true
}

// repairZshForm rewrites a known zsh form at off.
func (r *shellReading) repairZshForm(off int, msg string) bool {
	t := r.text
	switch {
	case strings.HasPrefix(msg, "statements must be separated"):
		return r.repairZshWord(off)
	case strings.HasPrefix(msg, "`for foo` must be followed by"):
		return r.repairZshForNames(off)
	case strings.HasPrefix(msg, "for loops with braces"):
		// "for x in a; { c }", "for ((;;)) { c }": the header goes.
		if k := zshKeywordBefore(t, off, "for"); k >= 0 && t[off] == '{' {
			r.blank(k, off)
			return true
		}
	case strings.HasPrefix(msg, "`=` must follow a name"):
		// "${name::=word}" assigns unconditionally; read as "${name:-=word}".
		if off >= 2 && t[off-1] == ':' && t[off-2] == ':' {
			r.set(off-1, []byte{'-'})
			return true
		}
	case strings.HasSuffix(msg, "can only be used in an if") || strings.HasSuffix(msg, "can only be used in an if statement"):
		return r.repairZshElse(off)
	}
	return false
}

// repairZshWord handles a word where the parser wanted a separator: the
// "always" of "} always {", or the "{" of a short "if", "elif", "while" or
// "until" whose condition is closed by "]]" or "))".
func (r *shellReading) repairZshWord(off int) bool {
	t := r.text
	switch {
	case wordAt(t, off, "always") && prevNonBlank(t, off) == '}':
		r.set(off, []byte("&&    "))
		return true
	case wordAt(t, off, "elif") || wordAt(t, off, "else"):
		return r.repairZshElse(off)
	case t[off] == '{':
		for _, kw := range []string{"if", "while", "until"} {
			if k := zshKeywordBefore(t, off, kw); k >= 0 {
				// "if [[ c ]] { a }" reads as "[[ c ]] ;{ a }": the
				// keyword and the blank before "{" go.
				if off == 0 || (t[off-1] != ' ' && t[off-1] != '\t') {
					return false
				}
				r.blank(k, k+len(kw))
				r.set(off-1, []byte{';'})
				return true
			}
		}
	}
	return false
}

// repairZshElse turns the "elif" or "else" after a short "if"'s "}" into a
// new statement: "} elif [[ c ]] {" into "} ;if  [[ c ]] {" (read next as a
// short "if"), "} else {" into "} ;    {".
func (r *shellReading) repairZshElse(off int) bool {
	t := r.text
	if prevNonBlank(t, off) != '}' {
		return false
	}
	switch {
	case wordAt(t, off, "elif"):
		r.set(off, []byte(";if "))
		return true
	case wordAt(t, off, "else"):
		r.set(off, []byte(";   "))
		return true
	}
	return false
}

// repairZshForNames handles a "for" with several names ("for 1 2 3; do",
// "for k v in ...") by blanking all but the first, and zsh's "for x (a b)
// { c }" by blanking "for x" and the blank before the body: "(a b) ;{ c }".
func (r *shellReading) repairZshForNames(off int) bool {
	t := r.text
	if !wordAt(t, off, "for") {
		return false
	}
	i := skipBlanks(t, off+3)
	first := true
	for i < len(t) {
		j := i
		for j < len(t) && (isShNameByte(t[j])) {
			j++
		}
		if j == i {
			break
		}
		w := string(t[i:j])
		if w == "in" || w == "do" {
			break
		}
		if !first {
			r.blank(i, j)
		}
		first = false
		i = skipBlanks(t, j)
	}
	if first || i >= len(t) || t[i] != '(' {
		return !first
	}
	// for NAME... ( WORDS ) BODY
	end := bytes.IndexByte(t[i:], ')')
	if end < 0 {
		return false
	}
	end += i + 1
	if end+1 >= len(t) || (t[end] != ' ' && t[end] != '\t') || t[end+1] == '#' {
		return false
	}
	r.blank(off, i)
	r.set(end, []byte{';'})
	return true
}

// isShNameByte reports whether c may be part of a shell name.
func isShNameByte(c byte) bool {
	return isWordStart(c) || c >= '0' && c <= '9'
}

// wordAt reports whether t holds the word w at i, followed by a blank, a
// line end, "{" or the end of the text.
func wordAt(t []byte, i int, w string) bool {
	if !bytes.HasPrefix(t[i:], []byte(w)) || (i > 0 && isShNameByte(t[i-1])) {
		return false
	}
	j := i + len(w)
	return j == len(t) || t[j] == ' ' || t[j] == '\t' || t[j] == '\n' || t[j] == '{'
}

func skipBlanks(t []byte, i int) int {
	for i < len(t) && (t[i] == ' ' || t[i] == '\t') {
		i++
	}
	return i
}

// prevNonBlank returns the byte before i past blanks, or 0.
func prevNonBlank(t []byte, i int) byte {
	for i > 0 {
		i--
		if t[i] != ' ' && t[i] != '\t' {
			return t[i]
		}
	}
	return 0
}

// zshKeywordBefore returns the offset of the last keyword kw in command
// position on the line of off, before off, or -1: after the line's start,
// ";", "&", "|", "{" or "(" and blanks.
func zshKeywordBefore(t []byte, off int, kw string) int {
	lineStart := bytes.LastIndexByte(t[:off], '\n') + 1
	for k := off - len(kw); k >= lineStart; k-- {
		if !wordAt(t, k, kw) {
			continue
		}
		switch p := prevNonBlank(t[lineStart:], k-lineStart); p {
		case 0, ';', '&', '|', '{', '(':
			return k
		}
	}
	return -1
}

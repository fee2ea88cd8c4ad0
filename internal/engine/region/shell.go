package region

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// The shell classifier takes comment positions from mvdan.cc/sh's parser,
// which follows bash's word rules: '#' starts a comment only at the start of
// a word, so "${x#y}", "a#b", "'#'" and "$(( 16#ff ))" hold none, and NBSP is
// no blank ("echo<NBSP># x" is one word). Where the parser and bash read a
// file differently, the classifier replays the parse so that it agrees with
// bash, or keeps the disputed bytes runtime:
//
//   - bash reads a lone \r as an ordinary word character, the parser as a
//     blank; a file holding \r is parsed a second time with every \r turned
//     into a letter (same length, so offsets hold), and only comments both
//     parses see are prose;
//   - a comment ending in a backslash makes the parser join the next line to
//     the command (bash never continues a comment); the backslash is blanked
//     in a copy and the copy parsed again.
//
// Comments inside backquotes (bash re-reads the body after removing
// backslashes, so a removed carrier can turn "\`" into the closing quote),
// inside double quotes and inside here-documents are runtime.

// maxShellReparse bounds the parses spent on comments ending in a backslash.
const maxShellReparse = 8

// shellDialect maps an interpreter's base name, as a shebang names it, to
// the classifier's dialect, ok false for a name that is no shell. Each
// dialect lists the parser variants to try in order: a script run by
// /bin/sh is read as POSIX first, and as bash when it uses bash syntax (bash
// is /bin/sh on many systems). A switch, not a map: a map literal is built
// by every process at start, the hooks' included, which never classify.
func shellDialect(name string) (vs []syntax.LangVariant, ok bool) {
	switch name {
	case "sh", "dash", "ash":
		return []syntax.LangVariant{syntax.LangPOSIX, syntax.LangBash}, true
	case "bash":
		return []syntax.LangVariant{syntax.LangBash}, true
	case "bats":
		return []syntax.LangVariant{syntax.LangBats}, true
	case "ksh", "mksh":
		return []syntax.LangVariant{syntax.LangMirBSDKorn}, true
	case "zsh":
		return []syntax.LangVariant{syntax.LangZsh}, true
	}
	return nil, false
}

// shellByExt names the interpreter a file extension implies, or "".
func shellByExt(ext string) string {
	switch ext {
	case ".sh", ".bash":
		return "bash"
	case ".bats", ".ksh", ".mksh", ".zsh":
		return ext[1:]
	}
	return ""
}

// shebangCommand returns the base name of the program a "#!" first line
// runs, looking through /usr/bin/env (with its options, -S included, and
// NAME=value assignments), or "".
func shebangCommand(head []byte) string {
	if !bytes.HasPrefix(head, []byte("#!")) {
		return ""
	}
	line := head[2:lineEnd(head, 0)]
	fields := strings.Fields(string(line))
	if len(fields) == 0 {
		return ""
	}
	cmd := filepath.Base(fields[0])
	if cmd != "env" {
		return cmd
	}
	for i := 1; i < len(fields); i++ {
		f := fields[i]
		switch {
		case f == "-u" || f == "--unset" || f == "-C" || f == "--chdir":
			i++ // the option's argument
		case f == "--":
		case strings.HasPrefix(f, "-S") && len(f) > 2:
			return filepath.Base(f[2:]) // -Sbash: the command is glued on
		case strings.HasPrefix(f, "-"):
		case strings.Contains(f, "="):
		default:
			return filepath.Base(f)
		}
	}
	return ""
}

// shellByContent names the shell a shebang runs, or "".
func shellByContent(head []byte) string {
	if _, ok := shellDialect(shebangCommand(head)); ok {
		return "shell"
	}
	return ""
}

// shellVariants picks the parser variants for a script: its shebang when it
// names a shell, else its extension, else bash.
func shellVariants(path string, src []byte) (string, []syntax.LangVariant) {
	if cmd := shebangCommand(src); cmd != "" {
		if vs, ok := shellDialect(cmd); ok {
			return cmd, vs
		}
	}
	cmd := shellByExt(strings.ToLower(filepath.Ext(path)))
	if cmd == "" {
		cmd = "bash"
	}
	vs, _ := shellDialect(cmd)
	return cmd, vs
}

// ShellDialect names the shell a script is written for, from its shebang,
// else its extension, else bash: "sh", "dash", "ash", "bash", "bats", "ksh",
// "mksh" or "zsh".
func ShellDialect(path string, src []byte) string {
	name, _ := shellVariants(path, src)
	return name
}

// RefusedError says a classifier cannot read a file reliably; the file is
// refused rather than guessed at.
type RefusedError struct {
	Path   string
	Pos    string // line:col, 1-based
	Reason string
}

func (e *RefusedError) Error() string {
	return fmt.Sprintf("%s:%s: %s; refused", e.Path, e.Pos, e.Reason)
}

// shComment is one comment as a parse saw it: '#' at start, ending before
// the line's \n. why is set when its context makes it runtime.
type shComment struct {
	start, end int
	why        string
}

// maxShellParse bounds the scripts the shell parser is given: its syntax
// tree takes about 80 times the script's size (bench/adversarial.sh: +389 MB
// for a 5 MB one-line script), so a script past this size is refused rather
// than let one file take gigabytes. Real scripts, autoconf's configure
// included, stay far below it.
const maxShellParse = 8 << 20

func classifyShell(path string, src []byte) (*Map, error) {
	if len(src) > maxShellParse {
		return nil, &RefusedError{Path: path, Pos: "1:1", Reason: (&ShellTooLargeError{Size: len(src)}).Error()}
	}
	shell, variants := shellVariants(path, src)
	comments, hdocs, err := shellParse(src, variants)
	if err != nil {
		refusal := shellRefusal(path, src, shell, err)
		if shell == "zsh" && isShellSyntaxError(err) {
			return unreadZsh(src, refusal), nil
		}
		return nil, refusal
	}
	if bytes.IndexByte(src, '\r') >= 0 {
		// bash's reading: \r is a word character.
		alt := bytes.ReplaceAll(src, []byte{'\r'}, []byte{'x'})
		altComments, altHdocs, altErr := shellParse(alt, variants)
		switch {
		case altErr == nil:
			comments = intersectComments(comments, altComments)
			hdocs = append(hdocs, altHdocs...)
		case !onlyCRLF(src):
			return nil, shellRefusal(path, src, shell, altErr)
		}
		// A file with \r\n line ends throughout that bash cannot parse
		// with \r as a word character is read as the parser reads it:
		// with \r\n as a line end (as bash with igncr does); no lone \r
		// can then sit before a '#'.
	}
	return buildShellMap(src, comments, hdocs), nil
}

func shellRefusal(path string, src []byte, shell string, err error) error {
	pos, msg := "1:1", err.Error()
	var off = -1
	var ne *ShellNestingError
	if errors.As(err, &ne) {
		return &RefusedError{Path: path, Pos: lineCol(src, ne.Offset), Reason: ne.reason()}
	}
	switch e := err.(type) {
	case syntax.ParseError:
		off = int(e.Pos.Offset())
		msg = e.Text
	case syntax.LangError:
		off = int(e.Pos.Offset())
		if _, rest, ok := strings.Cut(e.Error(), ": "); ok {
			msg = rest
		}
	}
	if off >= 0 {
		pos = lineCol(src, off)
	}
	return &RefusedError{Path: path, Pos: pos, Reason: fmt.Sprintf("not valid %s for the shell parser: %s", shell, msg)}
}

// isShellSyntaxError reports a parse error of the shell parser (not a
// bound of what it is given).
func isShellSyntaxError(err error) bool {
	switch err.(type) {
	case syntax.ParseError, syntax.LangError:
		return true
	}
	return false
}

// unreadZsh maps a zsh script the parser cannot read even with its zsh
// forms rewritten (shellread.go) as runtime throughout: zsh's grammar has
// more than the parser knows, so the script is kept and its carriers
// reported rather than the whole file refused.
func unreadZsh(src []byte, refusal error) *Map {
	why := "zsh the shell parser cannot read"
	var re *RefusedError
	if errors.As(refusal, &re) {
		why += " (" + re.Pos + ": " + re.Reason + ")"
	}
	b := NewBuilder(len(src))
	b.Mark(0, len(src), Runtime, why+": kept as is, carriers reported")
	return b.Map("shell")
}

// onlyCRLF reports whether every \r in src is followed by \n.
func onlyCRLF(src []byte) bool {
	for i := bytes.IndexByte(src, '\r'); i >= 0; {
		if i+1 >= len(src) || src[i+1] != '\n' {
			return false
		}
		k := bytes.IndexByte(src[i+1:], '\r')
		if k < 0 {
			break
		}
		i += 1 + k
	}
	return true
}

// intersectComments keeps the comments both readings found at the same
// place; a comment runtime in either is runtime.
func intersectComments(a, b []shComment) []shComment {
	byStart := make(map[int]shComment, len(b))
	for _, c := range b {
		byStart[c.start] = c
	}
	var out []shComment
	for _, c := range a {
		o, ok := byStart[c.start]
		if !ok {
			continue
		}
		if c.why == "" {
			c.why = o.why
		}
		c.end = min(c.end, o.end)
		out = append(out, c)
	}
	return out
}

// shellParse parses src with the first variant that accepts it and returns
// its comments in source order and its here-document bodies.
func shellParse(src []byte, variants []syntax.LangVariant) ([]shComment, [][2]int, error) {
	var firstErr error
	for _, v := range variants {
		comments, hdocs, err := shellParseVariant(src, v)
		if err == nil {
			return comments, hdocs, nil
		}
		if firstErr == nil {
			firstErr = err
		}
	}
	return nil, nil, firstErr
}

func shellParseVariant(src []byte, v syntax.LangVariant) ([]shComment, [][2]int, error) {
	r := newShellReading(src, v)
	repairs, reparses := 0, 0
	for {
		f, err := parseShellBounded(r.text, v, syntax.KeepComments(true))
		if err != nil {
			if repairs < maxZshRepairs && r.repair(v, err) {
				repairs++
				continue
			}
			return nil, nil, r.mapErr(err)
		}
		comments, hdocs, joined := shellWalk(r.text, f)
		if len(joined) == 0 {
			comments, hdocs = r.mapBack(comments, hdocs)
			if repairs > 0 {
				confirmComments(src, v, comments)
			}
			return comments, hdocs, nil
		}
		if reparses++; reparses >= maxShellReparse {
			return nil, nil, fmt.Errorf("too many comments ending in a backslash")
		}
		for _, k := range joined {
			r.set(k, []byte{' '})
		}
	}
}

// shellWalk collects comments and here-document bodies from a parsed file.
// joined lists the backslashes ending comments that the parser joined to
// the next line.
func shellWalk(src []byte, f *syntax.File) (comments []shComment, hdocs [][2]int, joined []int) {
	type frame struct {
		node syntax.Node
		why  string // why comments here are runtime
		hdoc bool
	}
	var stack []frame
	syntax.Walk(f, func(n syntax.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		var top frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		fr := frame{node: n, why: top.why, hdoc: top.hdoc}
		switch n := n.(type) {
		case *syntax.Comment:
			start := int(n.Hash.Offset())
			if start >= len(src) || src[start] != '#' {
				break // not where the parser says: leave it runtime
			}
			nl := len(src)
			if k := bytes.IndexByte(src[start:], '\n'); k >= 0 {
				nl = start + k
			}
			end := nl
			if parsedEnd := start + 1 + len(n.Text); parsedEnd > nl {
				// The parser read the backslash before the newline as a
				// line continuation.
				if k := nl - 1; k > start && src[k] == '\\' {
					joined = append(joined, k)
				} else if k := nl - 2; k > start && src[k] == '\\' && src[k+1] == '\r' {
					joined = append(joined, k)
				}
			}
			why := fr.why
			if why == "" && start > 0 && !shellCommentMayFollow(src[start-1]) {
				why = "comment glued to the word before it"
			}
			if cl := start + 1 + len(n.Text); cl < end && why != "" {
				end = cl // inside backquotes the comment ends at the quote
			}
			comments = append(comments, shComment{start: start, end: end, why: why})
		case *syntax.DblQuoted:
			if fr.why == "" {
				fr.why = "comment inside double quotes"
			}
		case *syntax.CmdSubst:
			if n.Backquotes {
				fr.why = "comment inside backquotes"
			}
		case *syntax.Word:
			if r, ok := top.node.(*syntax.Redirect); ok && r.Hdoc == n && !top.hdoc {
				fr.why, fr.hdoc = "comment inside a here-document", true
				hdocs = append(hdocs, [2]int{int(n.Pos().Offset()), int(n.End().Offset())})
			}
		}
		stack = append(stack, fr)
		return true
	})
	sort.Slice(comments, func(i, j int) bool { return comments[i].start < comments[j].start })
	return comments, hdocs, joined
}

// shellCommentMayFollow reports whether a '#' right after byte c starts a
// comment for bash without doubt: after a blank or the operators ; & | (.
// After anything else (")" closes both "(echo)" and "a=(1 2)", and bash
// reads "a=(1 2)#x" as one word) the comment is left runtime.
func shellCommentMayFollow(c byte) bool {
	switch c {
	case ' ', '\t', '\n', ';', '&', '|', '(':
		return true
	}
	return false
}

func buildShellMap(src []byte, comments []shComment, hdocs [][2]int) *Map {
	type span struct {
		start, end int
		c          *shComment
	}
	spans := make([]span, 0, len(comments)+len(hdocs))
	for i := range comments {
		spans = append(spans, span{comments[i].start, comments[i].end, &comments[i]})
	}
	for _, h := range hdocs {
		spans = append(spans, span{h[0], h[1], nil})
	}
	sort.SliceStable(spans, func(i, j int) bool { return spans[i].start < spans[j].start })
	line1End := lineEnd(src, 0)
	b := NewBuilder(len(src))
	last := 0
	for _, s := range spans {
		if s.start < last || s.end <= s.start {
			continue // nested in a here-document already marked, or empty
		}
		last = s.end
		if s.c == nil {
			b.Mark(s.start, s.end, Runtime, "here-document")
			continue
		}
		if s.c.why != "" {
			b.Mark(s.start, s.end, Runtime, s.c.why)
			continue
		}
		k, why := shellCommentKind(src[s.start:lineEnd(src[:s.end], s.start)], s.start <= line1End)
		markHashComment(b, src, s.start, s.end, k, why)
	}
	return b.Map("shell")
}

// shellKeywords are shell tools' directives that need no colon.
var shellKeywords = [...]hashKeyword{
	{"shellcheck", "directive: # shellcheck"},
	{"bats ", "directive: # bats"},
	{"bats\t", "directive: # bats"},
}

func shellWordWhy(word string) string {
	switch word {
	case "shfmt", "shellcheck":
		return "directive: # " + word + ":"
	case "vim", "vi", "ex", "mode", "kate":
		return "directive: modeline"
	}
	return "directive: word:"
}

// shellCommentKind classifies one comment's text ('#' to the line end).
func shellCommentKind(text []byte, firstLine bool) (Kind, string) {
	fs := carrierForms(text)
	if firstLine {
		if _, ok := fs.match(func(t []byte) (string, bool) { return "", bytes.HasPrefix(t, []byte("#!")) }); ok {
			return Directive, "directive: shebang"
		}
	}
	if why, ok := fs.match(func(t []byte) (string, bool) {
		if why, ok := hashDirective(t, shellKeywords[:], shellWordWhy); ok {
			return why, true
		}
		return hashDirective(t, commonHashKeywords[:], shellWordWhy)
	}); ok {
		return Directive, why
	}
	return Prose, "comment"
}

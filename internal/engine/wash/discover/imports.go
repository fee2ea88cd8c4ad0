package discover

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/prosewash/prosewash/internal/engine/fsx"
	"github.com/prosewash/prosewash/internal/engine/wash/mdline"
)

// Imports returns the @path import targets of a memory file, in order: an "@" at the start of
// a line or after a space or an opening bracket, followed by a path-like token, outside code
// fences, indented code and code spans. "a@b.com" is not an import (the "@" follows a word
// character). Trailing sentence punctuation is not part of the path.
func Imports(content []byte) []string {
	doc := mdline.Parse(content)
	var out []string
	for _, l := range doc.Lines {
		if l.Kind.Code() || l.Kind == mdline.FrontMatter {
			continue
		}
		t := l.Text(content)
		if !strings.Contains(string(t), "@") {
			continue
		}
		m := []byte(string(t))
		mdline.MaskCodeSpans(m)
		for i := 0; i < len(m); i++ {
			if m[i] != '@' {
				continue
			}
			if i > 0 && !strings.ContainsRune(" \t([{", rune(m[i-1])) {
				continue
			}
			j := i + 1
			for j < len(m) && !strings.ContainsRune(" \t<>\"'`()[]{}|,;", rune(m[j])) {
				j++
			}
			tok := strings.TrimRight(string(m[i+1:j]), ".:!?")
			if tok == "" || tok[0] == '@' {
				continue
			}
			out = append(out, tok)
			i = j
		}
	}
	return out
}

// pathLike reports a token that is clearly meant as a path (so a missing target is worth
// reporting), as opposed to a mention like "@alice".
func pathLike(tok string) bool {
	return strings.ContainsAny(tok, "/.") || strings.HasPrefix(tok, "~")
}

// imports follows the @path imports of an always-loaded entry depth-first, to the depth cap,
// reporting cycles, escapes and missing path-like targets.
func (r *run) imports(from Entry, roots []string, inherited bool) {
	r.importWalk(from, roots, inherited, []string{from.Real})
}

// maxImportRead bounds how much of one file the import scan reads: far
// above any real memory file, never an unbounded read.
const maxImportRead = 64 << 20

func (r *run) importWalk(from Entry, roots []string, inherited bool, stack []string) {
	content, err := fsx.ReadRegular(from.Real, maxImportRead, true)
	if err != nil {
		r.problem(from.Path, from.Platform, "unreadable: "+fsx.Cause(err).Error())
		return
	}
	for _, tok := range Imports(content) {
		target := tok
		switch {
		case strings.HasPrefix(tok, "~/"):
			target = filepath.Join(r.opts.Home, tok[2:])
		case filepath.IsAbs(tok):
		default:
			target = filepath.Join(filepath.Dir(from.Path), tok)
		}
		target = filepath.Clean(target)
		if _, err := os.Lstat(target); err != nil {
			if pathLike(tok) {
				r.problem(target, from.Platform, fmt.Sprintf("@%s imported by %s: not found", tok, filepath.Base(from.Path)))
			}
			continue
		}
		real, err := filepath.EvalSymlinks(target)
		if err != nil {
			r.problem(target, from.Platform, "dangling or unreadable symlink")
			continue
		}
		if st, err := os.Stat(real); err != nil || !st.Mode().IsRegular() {
			continue // a directory or device named like a mention
		}
		for _, s := range stack {
			if s == real {
				r.problem(target, from.Platform, "import cycle: "+strings.Join(append(append([]string(nil), stack...), real), " -> "))
				real = ""
				break
			}
		}
		if real == "" {
			continue
		}
		depth := from.Depth + 1
		if depth > r.opts.MaxImportDepth {
			r.problem(target, from.Platform, fmt.Sprintf("import depth %d exceeds %d; not followed", depth, r.opts.MaxImportDepth))
			continue
		}
		e := Entry{Platform: from.Platform, Kind: from.Kind, Scope: from.Scope, AlwaysLoaded: true, Inherited: inherited,
			ImportedBy: from.Path, Depth: depth, Why: "imported by " + filepath.Base(from.Path)}
		if e.Kind == MemoryIndex {
			e.Kind = Memory
		}
		got, ok := r.file(target, e, roots)
		if !ok {
			continue
		}
		r.importWalk(got, roots, inherited, append(stack, real))
	}
}

package discover

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/prosewash/prosewash/internal/engine/wash/mdline"
)

// Import is one @path import of a memory file.
type Import struct {
	Path string
	Line int // 1-based line of the importing file
}

// importsAt returns the @path imports of a memory file, in order, the way Claude Code (and
// the Copilot CLI) read them: an "@" at the start of a line or after a space or an opening
// bracket, followed by a path-like token, outside code fences, indented code and code spans.
// "a@b.com" is not an import (the "@" follows a word character). Trailing sentence
// punctuation is not part of the path.
func importsAt(content []byte) []Import {
	doc := mdline.Parse(content)
	var out []Import
	for i, l := range doc.Lines {
		if l.Kind.Code() || l.Kind == mdline.FrontMatter {
			continue
		}
		t := l.Text(content)
		if !bytes.Contains(t, []byte("@")) {
			continue
		}
		m := []byte(string(t))
		mdline.MaskCodeSpans(m)
		for j := 0; j < len(m); j++ {
			if m[j] != '@' {
				continue
			}
			if j > 0 && !strings.ContainsRune(" \t([{", rune(m[j-1])) {
				continue
			}
			k := j + 1
			for k < len(m) && !strings.ContainsRune(" \t<>\"'`()[]{}|,;", rune(m[k])) {
				k++
			}
			tok := strings.TrimRight(string(m[j+1:k]), ".:!?")
			if tok == "" || tok[0] == '@' {
				continue
			}
			out = append(out, Import{Path: tok, Line: i + 1})
			j = k
		}
	}
	return out
}

// geminiImports reads @path imports the way Gemini CLI's memory import processor does: an "@"
// at the start of the text or after whitespace, the path running to the next whitespace (no
// punctuation is trimmed), starting with ".", "/" or an ASCII letter, and not inside a
// backtick-delimited code region (inline or fenced alike).
func geminiImports(content []byte) []Import {
	var code [][2]int
	for i := 0; i < len(content); {
		if content[i] != '`' {
			i++
			continue
		}
		j := i
		for j < len(content) && content[j] == '`' {
			j++
		}
		ticks := content[i:j]
		end := bytes.Index(content[j:], ticks)
		if end < 0 {
			break
		}
		code = append(code, [2]int{i, j + end + len(ticks)})
		i = j + end + len(ticks)
	}
	inCode := func(at int) bool {
		for _, c := range code {
			if at >= c[0] && at < c[1] {
				return true
			}
		}
		return false
	}
	var out []Import
	for i := 0; i < len(content); i++ {
		if content[i] != '@' || i > 0 && !isSpaceByte(content[i-1]) {
			continue
		}
		j := i + 1
		for j < len(content) && !isSpaceByte(content[j]) {
			j++
		}
		p := string(content[i+1 : j])
		if p == "" || !(p[0] == '.' || p[0] == '/' || p[0] >= 'a' && p[0] <= 'z' || p[0] >= 'A' && p[0] <= 'Z') || inCode(i) {
			i = j
			continue
		}
		out = append(out, Import{Path: p, Line: 1 + bytes.Count(content[:i], []byte("\n"))})
		i = j
	}
	return out
}

func isSpaceByte(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// pathLike reports a token that is clearly meant as a file to import (so a missing target is
// text the user believes loads), as opposed to a mention like "@alice", an npm scope like
// "@slack/bolt" or a version like "@v1.2": an explicit path ("./", "../", "/", "~/") or a
// file name with an extension that has a letter in it.
func pathLike(tok string) bool {
	for _, p := range []string{"./", "../", "/", "~/"} {
		if strings.HasPrefix(tok, p) {
			return true
		}
	}
	ext := strings.TrimPrefix(filepath.Ext(tok), ".")
	return strings.IndexFunc(ext, func(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' }) >= 0
}

// importRules are how one platform follows @path imports.
type importRules struct {
	// gemini selects Gemini CLI's syntax (see geminiImports); otherwise Claude Code's.
	gemini bool
	// depth caps import chains.
	depth int
	// within, when set, is the only directory imports are followed into (the repository for
	// the Copilot CLI, the git root for Gemini CLI); an import outside it is not loaded.
	within string
	// home expands "~/" (Claude Code does; the others read it as a relative path).
	home bool
}

// imports follows the @path imports of an always-loaded entry depth-first, to the depth cap,
// reporting cycles and escapes as problems and imports that load nothing as never loaded.
func (r *run) imports(from Entry, roots []string, inherited bool) {
	r.importsWith(from, roots, inherited, r.claudeImports())
}

func (r *run) claudeImports() importRules {
	return importRules{depth: r.opts.MaxImportDepth, home: true}
}

func (r *run) importsWith(from Entry, roots []string, inherited bool, rules importRules) {
	r.importWalk(from, roots, inherited, rules, []string{from.Real})
}

func (r *run) importWalk(from Entry, roots []string, inherited bool, rules importRules, stack []string) {
	content, err := r.content(from.Real)
	if err != nil {
		r.problem(from.Path, from.Platform, "unreadable: "+err.Error())
		return
	}
	content = content[:min(int64(len(content)), from.Loaded)]
	for _, im := range r.importsOf(from.Real, content, rules.gemini) {
		r.followImport(from, im, roots, inherited, rules, stack)
	}
}

// importKey names a file's imports: its realpath, how much of it is
// loaded, and the syntax they are read by.
type importKey struct {
	real   string
	loaded int
	gemini bool
}

// importsOf is the imports of content, the loaded part of the file at
// real, by Gemini CLI's syntax or Claude Code's. They are found once per
// run: the platforms that load one file (CLAUDE.md for Claude Code and the
// Copilot CLI, AGENTS.md for several) read the same bytes, and parsing a
// large memory file was most of a session start's discovery. Content
// without an "@" has none by either syntax and is not parsed at all.
func (r *run) importsOf(real string, content []byte, gemini bool) []Import {
	if bytes.IndexByte(content, '@') < 0 {
		return nil
	}
	key := importKey{real, len(content), gemini}
	if ims, ok := r.imported[key]; ok {
		return ims
	}
	ims := importsAt
	if gemini {
		ims = geminiImports
	}
	found := ims(content)
	if r.imported == nil {
		r.imported = map[importKey][]Import{}
	}
	r.imported[key] = found
	return found
}

// followImport resolves and adds one import, then walks its own imports.
func (r *run) followImport(from Entry, im Import, roots []string, inherited bool, rules importRules, stack []string) {
	tok := im.Path
	target := tok
	switch {
	case rules.home && strings.HasPrefix(tok, "~/"):
		target = filepath.Join(r.opts.Home, tok[2:])
	case filepath.IsAbs(tok):
	default:
		target = filepath.Join(filepath.Dir(from.Path), tok)
	}
	target = filepath.Clean(target)
	real, _, exists, lerr := r.lookup(target)
	if lerr != nil && lerr != errNotRegular {
		r.problem(target, from.Platform, "dangling or unreadable symlink")
		return
	}
	if !exists {
		if real == "" && pathLike(tok) {
			r.unloadedLine(from.Path, from.Platform, im.Line, fmt.Sprintf("@%s: the imported file does not exist", tok))
		}
		return // a directory or device named like a mention, or a missing target
	}
	if rules.within != "" && !within(real, rules.within) && real != rules.within {
		r.unloadedLine(from.Path, from.Platform, im.Line, fmt.Sprintf("@%s: %s follows no import outside %s", tok, from.Platform, rules.within))
		return
	}
	for _, s := range stack {
		if s == real {
			r.problem(target, from.Platform, "import cycle: "+strings.Join(append(append([]string(nil), stack...), real), " -> "))
			return
		}
	}
	depth := from.Depth + 1
	if depth > rules.depth {
		r.problem(target, from.Platform, fmt.Sprintf("import depth %d exceeds %d; not followed", depth, rules.depth))
		r.unloadedLine(from.Path, from.Platform, im.Line, fmt.Sprintf("@%s: past the import depth limit of %d", tok, rules.depth))
		return
	}
	e := Entry{Platform: from.Platform, Kind: from.Kind, Scope: from.Scope, AlwaysLoaded: true, Inherited: inherited,
		ImportedBy: from.Path, Depth: depth, Why: "imported by " + filepath.Base(from.Path)}
	if e.Kind == MemoryIndex {
		e.Kind = Memory
	}
	got, ok := r.file(target, e, roots)
	if !ok {
		return
	}
	r.importWalk(got, roots, inherited, rules, append(stack, real))
}

package quick

import (
	"bytes"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/prosewash/prosewash/internal/engine/fsx"
	"github.com/prosewash/prosewash/internal/engine/wash/gate"
	"github.com/prosewash/prosewash/internal/engine/wash/mdline"
)

// memTree is an in-memory Tree over a fixed list of paths.
type memTree struct {
	exists map[string]bool
	base   map[string][]string
}

// NewTree returns a Tree over the given absolute file paths (the files under the allowed roots).
func NewTree(paths []string) Tree {
	t := &memTree{exists: map[string]bool{}, base: map[string][]string{}}
	for _, p := range paths {
		p = filepath.Clean(p)
		if t.exists[p] {
			continue
		}
		t.exists[p] = true
		b := filepath.Base(p)
		t.base[b] = append(t.base[b], p)
	}
	for _, v := range t.base {
		sort.Strings(v)
	}
	return t
}

// Exists reports whether p is one of the tree's files.
func (t *memTree) Exists(p string) bool { return t.exists[filepath.Clean(p)] }

// ByBase returns the tree's files named name, sorted.
func (t *memTree) ByBase(name string) []string { return t.base[name] }

// skipDirs are never searched for moved link targets: they hold no memory notes and are large.
var skipDirs = map[string]bool{".git": true, "node_modules": true, "vendor": true, ".hg": true, ".svn": true}

// ScanTree walks the roots without following symbolic links and returns a Tree over the regular
// files found, stopping with an error after limit files so a huge tree cannot stall a hook.
func ScanTree(roots []string, limit int) (Tree, error) {
	var paths []string
	for _, root := range roots {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if p == root {
					return err
				}
				return nil
			}
			if d.IsDir() {
				if p != root && skipDirs[d.Name()] {
					return filepath.SkipDir
				}
				return nil
			}
			if !d.Type().IsRegular() {
				return nil
			}
			paths = append(paths, p)
			if len(paths) > limit {
				return fmt.Errorf("more than %d files under %s", limit, root)
			}
			return nil
		})
		if err != nil && !os.IsNotExist(err) {
			return nil, fmt.Errorf("scan link targets: %w", err)
		}
	}
	return NewTree(paths), nil
}

// linkSpan is a relative link destination on a line.
type linkSpan struct {
	start, end int    // byte span of the destination in the line
	dest       string // as written
	path       string // path part, unescaped
	frag       string // "#..." or "?..." suffix, kept on repoint
}

// relLinks finds inline link destinations outside code spans that are relative paths.
// Other link forms stay (URLs, anchors, absolute paths, autolinks).
func relLinks(t []byte) (rel []linkSpan, other int) {
	m := append([]byte(nil), t...)
	mdline.MaskCodeSpans(m)
	for i := 0; i+1 < len(m); i++ {
		if m[i] != ']' || m[i+1] != '(' {
			continue
		}
		j := i + 2
		for j < len(m) && m[j] == ' ' {
			j++
		}
		start, end := j, j
		if j < len(m) && m[j] == '<' {
			k := bytes.IndexByte(m[j+1:], '>')
			if k < 0 {
				continue
			}
			start, end = j+1, j+1+k
		} else {
			depth := 0
			for j < len(m) && m[j] != ' ' && m[j] != '\t' {
				if m[j] == '(' {
					depth++
				} else if m[j] == ')' {
					if depth == 0 {
						break
					}
					depth--
				}
				j++
			}
			end = j
		}
		if end <= start {
			continue
		}
		dest := string(t[start:end])
		if !isRelative(dest) {
			other++
			continue
		}
		p, frag := dest, ""
		if k := strings.IndexAny(p, "#?"); k >= 0 {
			p, frag = p[:k], p[k:]
		}
		if u, err := url.PathUnescape(p); err == nil {
			p = u
		}
		if p == "" {
			other++
			continue
		}
		rel = append(rel, linkSpan{start: start, end: end, dest: dest, path: p, frag: frag})
	}
	if bytes.Contains(m, []byte("://")) || bytes.Contains(m, []byte("[[")) || bytes.Contains(m, []byte("<http")) {
		other++
	}
	return rel, other
}

func isRelative(d string) bool {
	if d == "" || d[0] == '#' || d[0] == '/' || d[0] == '~' || d[0] == '\\' {
		return false
	}
	if i := strings.IndexByte(d, ':'); i >= 0 {
		if j := strings.IndexAny(d, "/#?"); j < 0 || i < j {
			return false // a scheme such as https: or mailto:
		}
	}
	return true
}

// links repoints relative links whose target moved to exactly one place (see candidates),
// removes memory index entries that carry nothing but a link to a file that no longer exists
// and its title, and flags the rest: a dead link, a link with several candidates, an index
// entry with text of its own. Every changed token gets a scoped approval: a repoint or a dead
// entry is a deliberate, named change, never a silent one.
func (p *planner) links(f File, ls []line) []Cut {
	self := f.Path
	if f.Real != "" {
		self = f.Real
	}
	lf := linkFile{f: f, self: self, dir: relDir(self), index: f.Kind == "memory-index"}
	var cuts []Cut
	for i := range ls {
		l := &ls[i]
		if l.locked || l.del || l.l.Kind == mdline.Blank {
			continue
		}
		cuts = append(cuts, p.lineLinks(lf, ls, i)...)
	}
	return cuts
}

// linkFile is what links knows of the file it reads: the file, its real path and directory,
// and whether it is a memory index.
type linkFile struct {
	f     File
	self  string
	dir   string
	index bool
}

// lineLinks handles the relative links of line i: nothing when every target exists; the
// whole line when it is an index entry pointing only at missing notes; else a repoint of each
// target that moved and a flag for each that did not.
func (p *planner) lineLinks(lf linkFile, ls []line, i int) []Cut {
	l := &ls[i]
	rel, other := relLinks(l.text)
	if len(rel) == 0 {
		return nil
	}
	dead, moved := p.missingTargets(lf, i, rel)
	if len(dead) == 0 {
		return nil
	}
	allGone := !slices.ContainsFunc(moved, func(m string) bool { return m != "" })
	t := bytes.TrimSpace(l.text)
	entry := lf.index && l.l.Indent == 0 && len(t) > 1 && (t[0] == '-' || t[0] == '*' || t[0] == '+' || mdline.OrdinalPrefix(t) > 0) &&
		other == 0 && len(dead) == len(rel) && allGone && !hasChildren(ls, i)
	switch {
	case entry && ownText(l.text):
		// The entry is itself a note: its lessons would go with it.
		p.flag(lf.f.Path, DeadIndexEntryKept, i+1, "index entry points at a missing note but carries text of its own; kept (a finding for a person, never fat)")
		return nil
	case entry:
		l.del = true
		var keys []string
		for _, tc := range gate.Inventory(append(append([]byte(nil), l.text...), '\n')).Tokens() {
			keys = append(keys, tc.Key())
		}
		return []Cut{{Kind: DeadIndexEntry, Line: i + 1, Lines: 1, Tokens: p.opts.Estimate(append(l.text, '\n')), idx: []int{i},
			approve: keys, Reason: "index entry points only at missing file(s)"}}
	}
	return p.repoint(lf, ls, i, dead, moved)
}

// missingTargets returns the links of line i whose target is missing, each with where it
// moved ("" when nowhere or ambiguous between candidates, which is flagged here).
func (p *planner) missingTargets(lf linkFile, i int, rel []linkSpan) (dead []linkSpan, moved []string) {
	for _, s := range rel {
		target := filepath.Join(lf.dir, filepath.FromSlash(s.path))
		if p.opts.Tree.Exists(target) {
			continue
		}
		cands := p.candidates(lf.self, lf.f.Path, target)
		switch len(cands) {
		case 1:
			dead = append(dead, s)
			r, err := filepath.Rel(lf.dir, cands[0])
			if err != nil {
				moved = append(moved, "")
				continue
			}
			moved = append(moved, filepath.ToSlash(r)+s.frag)
		case 0:
			dead = append(dead, s)
			moved = append(moved, "")
		default:
			p.flag(lf.f.Path, AmbiguousLink, i+1, fmt.Sprintf("link target missing; %d candidates share its name", len(cands)))
		}
	}
	return dead, moved
}

// repoint rewrites line i's dead links to where they moved, from the right so earlier spans
// keep their offsets, and flags those that moved nowhere; a rewrite that would make the line a
// copy of another is left for a person.
func (p *planner) repoint(lf linkFile, ls []line, i int, dead []linkSpan, moved []string) []Cut {
	l := &ls[i]
	var cuts []Cut
	nt := append([]byte(nil), l.text...)
	for k := len(dead) - 1; k >= 0; k-- {
		s := dead[k]
		if moved[k] == "" {
			p.flag(lf.f.Path, DeadLink, i+1, fmt.Sprintf("link target %s missing and not found under the allowed roots", s.dest))
			continue
		}
		nt = append(append(append([]byte(nil), nt[:s.start]...), moved[k]...), nt[s.end:]...)
		cuts = append(cuts, Cut{Kind: LinkRepoint, Line: i + 1, Lines: 1,
			approve: []string{gate.Token{Type: gate.TypeLink, Value: s.dest}.Key()},
			Reason:  "link target moved; repointed to its only match " + moved[k]})
	}
	if len(cuts) == 0 {
		return nil
	}
	if duplicatesAnother(lf.f.Content, ls, i, nt) {
		// The repointed line would be an exact copy of another line: the two original lines
		// differ (by the link), so folding them into one drops their values from a distinct
		// line and the gate would refuse the whole file. Leave this one dead and say why.
		p.flag(lf.f.Path, DeadLink, i+1, "link target moved; repointing would duplicate another line, left for a human")
		return nil
	}
	l.text = nt
	l.edited = true
	return cuts
}

// conventionName reports a file stem that names a directory's role, not a document: a link
// to pkg/README.md whose directory is absent from the checkout is not a link to the only other
// README.md, so such names are never repointed.
func conventionName(stem string) bool {
	switch stem {
	case "readme", "agents", "agents.override", "claude", "claude.local", "gemini", "memory", "index", "_index",
		"contributing", "changelog", "changes", "license", "licence", "copying", "security", "code_of_conduct",
		"skill", "copilot-instructions":
		return true
	}
	return false
}

// candidates returns where a missing link target may have moved: existing Markdown files with
// the same base name, never the linking file itself, under the same link root as the linking
// file, and only for a name that is not a per-directory convention (README.md, AGENTS.md,
// index.md, ...). The caller repoints only when exactly one remains.
func (p *planner) candidates(self, path, target string) []string {
	base := filepath.Base(target)
	if !strings.HasSuffix(strings.ToLower(base), ".md") && !strings.HasSuffix(strings.ToLower(base), ".markdown") {
		return nil
	}
	if conventionName(strings.ToLower(strings.TrimSuffix(base, filepath.Ext(base)))) {
		return nil
	}
	root := ""
	for _, r := range p.opts.LinkRoots {
		if fsx.Inside(r, self) && len(r) > len(root) {
			root = r
		}
	}
	var out []string
	for _, c := range p.opts.Tree.ByBase(base) {
		if c == self || c == path || root != "" && !fsx.Inside(root, c) {
			continue
		}
		out = append(out, c)
	}
	return out
}

// ownText reports whether a list entry carries anything beyond its marker, its links and their
// titles, and punctuation: a word or a number outside the links makes the entry a note.
func ownText(t []byte) bool {
	m := append([]byte(nil), bytes.TrimSpace(t)...)
	if k := mdline.OrdinalPrefix(m); k > 0 {
		m = m[k:]
	} else if len(m) > 0 && (m[0] == '-' || m[0] == '*' || m[0] == '+') {
		m = m[1:]
	}
	// Blank out every inline link, its text (the title) included.
	for i := 0; i < len(m); i++ {
		if m[i] != '[' {
			continue
		}
		close := bytes.Index(m[i:], []byte("]("))
		if close < 0 {
			break
		}
		end := bytes.IndexByte(m[i+close:], ')')
		if end < 0 {
			break
		}
		for k := i; k <= i+close+end; k++ {
			m[k] = ' '
		}
	}
	for _, r := range string(m) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return true
		}
	}
	return false
}

// duplicatesAnother reports whether text equals another line of the file (trailing
// whitespace aside) that was a different line originally. Identical original lines that are
// repointed alike stay one distinct line, which the gate accepts.
func duplicatesAnother(content []byte, ls []line, i int, text []byte) bool {
	t, orig := normalize(text), normalize(ls[i].l.Text(content))
	for j := range ls {
		if j != i && !ls[j].del && normalize(ls[j].text) == t && normalize(ls[j].l.Text(content)) != orig {
			return true
		}
	}
	return false
}

// hasChildren reports whether the line at i is followed by more-indented content.
func hasChildren(ls []line, i int) bool {
	for j := i + 1; j < len(ls); j++ {
		if ls[j].l.Kind == mdline.Blank {
			continue
		}
		return ls[j].l.Indent > ls[i].l.Indent
	}
	return false
}

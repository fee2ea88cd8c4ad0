package quick

import (
	"bytes"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/prosewash/prosewash/internal/engine/wash/mdline"
)

// CrossFileCopy removes lines of one file that another file holds verbatim, when every
// platform that loads them here also loads that copy (a CLAUDE.md that @imports a file and
// repeats it; a subdirectory AGENTS.md repeating its ancestor in the same Codex chain).
const CrossFileCopy CutKind = "cross-file-copy"

// shareRank orders scopes by who shares a file: a line may leave a file only for a copy that
// everyone who reads the file also has. A project file is everyone's; a local file (this
// user, this project) and a user file (this user, every project) are one person's.
func sharedWith(x, y string) bool {
	switch x {
	case "project":
		return y == "project"
	case "local":
		return y == "project" || y == "local" || y == "user"
	case "user":
		return y == "user"
	}
	return false
}

// loaders returns the platforms that load line i of the file: those whose loaded head covers
// any of it (partial: for the file a line would leave) or all of it (whole: for the file
// holding the copy).
func loaders(st *fileState, i int, whole bool) []string {
	l := st.ls[i].l
	var out []string
	for p, n := range st.f.Loads {
		if whole && n >= int64(l.End) || !whole && n > int64(l.Start) {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

func subset(a, b []string) bool {
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return true
}

// hasTitle reports a file that opens with its only level-1 heading: that heading titles the
// file and is no section of its content.
func hasTitle(ls []line) bool {
	first, h1 := -1, 0
	for i, l := range ls {
		if l.l.Kind != mdline.Heading {
			continue
		}
		if first < 0 {
			first = i
		}
		if l.l.Level == 1 {
			h1++
		}
	}
	return first >= 0 && ls[first].l.Level == 1 && h1 == 1
}

// context is the heading path a line's facts belong to: for a heading line, its ancestors
// (the section it opens is part of the copy); otherwise every heading above it. untitled
// drops the file's title (see hasTitle), for a copy whose file covers all this one does.
func context(st *fileState, i int, untitled bool) string {
	parts := strings.Split(st.ls[i].section, "\x1f")
	if st.ls[i].l.Kind == mdline.Heading && st.ls[i].l.Level > 0 {
		parts = parts[:min(len(parts), st.ls[i].l.Level-1)]
	}
	if untitled && st.title && len(parts) > 0 {
		parts = parts[1:]
	}
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, "\x1f")
}

// covers reports a file y whose rules apply wherever x's do, so their titles are only file
// names: y is imported by x (directly or through other imports), or y is memory of the same
// kind in x's directory or one above it (the root AGENTS.md of a subdirectory's, a project
// CLAUDE.md of .claude/CLAUDE.md). Any other pair must agree on the title too: "# Staging"
// and "# Production" files holding the same rules state two facts.
func (p *planner) covers(x, y *fileState) bool {
	seen := map[string]bool{}
	var imports func(st *fileState) bool
	imports = func(st *fileState) bool {
		for _, r := range st.f.Imports {
			if r == y.f.Real {
				return true
			}
			if seen[r] {
				continue
			}
			seen[r] = true
			for _, o := range p.state {
				if o.f.Real == r && imports(o) {
					return true
				}
			}
		}
		return false
	}
	if imports(x) {
		return true
	}
	if x.f.Kind != "governance" || y.f.Kind != "governance" || x.f.Real == "" || y.f.Real == "" {
		return false // rules files side by side are siblings, each with its own title
	}
	xd, yd := filepath.Dir(x.f.Real), filepath.Dir(y.f.Real)
	if filepath.Base(xd) == ".claude" {
		xd = filepath.Dir(xd)
	}
	if filepath.Base(yd) == ".claude" {
		yd = filepath.Dir(yd)
	}
	rel, err := filepath.Rel(yd, xd)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}

// sameContext reports two heading paths under which a copy states the same facts: equal, or,
// when the copy's file covers this one (see covers), the copy's path ending this one's (a file
// that pastes the file it imports under a heading of its own, "## AIWG framework", adds a
// label, not a scope; "## Staging" against "## Production" still differ).
func sameContext(x, y string, covers bool) bool {
	if x == y {
		return true
	}
	if !covers {
		return false
	}
	return y == "" || strings.HasSuffix(x, "\x1f"+y)
}

// occurrence is one live line of another file.
type occurrence struct {
	st *fileState
	i  int
}

// crossCuts is the cross-file pass: in every writable, always-loaded file, a run of lines
// that another file holds verbatim, in order and under the same headings, leaves this file
// when every platform that loads the run here loads the copy there too, and the copy's file
// is shared with everyone who reads this one. The copy is then kept (no two files lose each
// other's copy). A single line must be a self-contained one (see lineEligible); a run of
// several must be a whole block, bounded by blank lines. Each changed file is stabilised and
// re-assembled; the set gate then checks the moves.
func (p *planner) crossCuts(plans []FilePlan) {
	index := map[string][]occurrence{}
	for _, st := range p.state {
		if st.ls == nil || len(st.f.Loads) == 0 {
			continue
		}
		for i, l := range st.ls {
			if l.del || l.l.Kind == mdline.Blank || l.l.Kind == mdline.FrontMatter {
				continue
			}
			k := normalize(l.text)
			index[k] = append(index[k], occurrence{st, i})
		}
	}
	for n, st := range p.state {
		if !st.writable || st.ls == nil || len(st.f.Loads) == 0 || st.f.Inherited || st.f.ReadOnly {
			continue
		}
		cuts := p.crossFileRuns(st, index)
		if len(cuts) == 0 {
			continue
		}
		p.finishCross(st, &plans[n], cuts)
	}
}

// crossFileRuns finds and marks the runs of one file that leave it.
func (p *planner) crossFileRuns(st *fileState, index map[string][]occurrence) []Cut {
	var cuts []Cut
	for i := 0; i < len(st.ls); i++ {
		if !p.runStart(st, i) {
			continue
		}
		best, from, n := occurrence{}, 0, 0
		for _, oc := range index[normalize(st.ls[i].text)] {
			if oc.st == st || oc.st.f.Real != "" && oc.st.f.Real == st.f.Real || !sharedWith(st.f.Scope, oc.st.f.Scope) || oc.st.f.Inherited {
				continue
			}
			if k := p.runLength(st, i, oc); k > n {
				best, from, n = oc, oc.i, k
			}
		}
		if n == 0 {
			continue
		}
		lines := 0
		var removed []byte
		for k := 0; k < n; k++ {
			st.ls[i+k].del = true
			best.st.source[from+k] = true
			removed = append(removed, st.ls[i+k].text...)
			removed = append(removed, '\n')
			lines++
		}
		idx := make([]int, n)
		for k := range idx {
			idx[k] = i + k
		}
		cuts = append(cuts, Cut{Kind: CrossFileCopy, Line: i + 1, Lines: lines, Tokens: p.opts.Estimate(removed), idx: idx,
			Reason: fmt.Sprintf("exact copy of %s:%d, which every platform that loads it here loads too (%s)", p.opts.Show(best.st.f.Path), from+1, strings.Join(loaders(st, i, false), ", "))})
		i += n - 1
	}
	return cuts
}

// runStart reports a line a cut may start at: live, not a source of another cut, at the start
// of a block (the file's first line or after a blank one).
func (p *planner) runStart(st *fileState, i int) bool {
	l := st.ls[i]
	if l.del || l.edited || st.source[i] || l.l.Kind == mdline.Blank || l.l.Kind == mdline.FrontMatter || l.l.Kind.Code() && l.l.Kind != mdline.Fence {
		return false
	}
	prev := neighbour(st.ls, i, -1)
	return prev < 0 || st.ls[prev].l.Kind == mdline.Blank || st.ls[prev].l.Kind == mdline.FrontMatter
}

// runLength returns how many lines from i leave the file for the copy at oc: the longest run
// of equal lines (same text and kind, live on both sides, loaded by every platform that loads
// it here), cut back to end at a block end, under the same headings; 0 when none qualifies.
func (p *planner) runLength(st *fileState, i int, oc occurrence) int {
	covers := p.covers(st, oc.st)
	if !sameContext(context(st, i, covers), context(oc.st, oc.i, covers), covers) {
		return 0
	}
	n := 0
	for i+n < len(st.ls) && oc.i+n < len(oc.st.ls) {
		x, y := st.ls[i+n], oc.st.ls[oc.i+n]
		if x.del || y.del || x.edited || st.source[i+n] || x.l.Kind != y.l.Kind || x.l.Kind == mdline.FrontMatter || normalize(x.text) != normalize(y.text) {
			break
		}
		if st.markup()[i+n] || importLine(x.text) {
			// HTML and its comments are often a tool's markers (a generator's managed-block
			// fences), and an @import line resolves against its own file's directory: they
			// stay where they are, whatever the other file holds.
			break
		}
		if ld := loaders(st, i+n, false); len(ld) == 0 || !subset(ld, loaders(oc.st, oc.i+n, true)) {
			break
		}
		n++
	}
	// End at a block end: the next live line is blank (outside code) or the end of the file.
	for n > 0 {
		if k := i + n - 1; st.ls[k].l.Kind != mdline.Blank {
			next := neighbour(st.ls, k, 1)
			if next < 0 || st.ls[next].l.Kind == mdline.Blank {
				break
			}
		}
		n--
	}
	for n > 0 && st.ls[i+n-1].l.Kind == mdline.Blank {
		n--
	}
	if n == 0 {
		return 0
	}
	if n == 1 {
		if !p.lineEligible(st.ls, i) {
			return 0
		}
		return 1
	}
	if !substantial(st.ls[i:i+n], p.opts.MinDupRunes) || !nextBlockAtMargin(st.ls, i+n) {
		return 0
	}
	return n
}

// markup marks the lines of HTML: a line starting with "<" and every line of an HTML comment.
func (st *fileState) markup() []bool {
	if st.html != nil {
		return st.html
	}
	st.html = make([]bool, len(st.ls))
	in := false
	for i, l := range st.ls {
		t := bytes.TrimSpace(l.text)
		if l.l.Kind.Code() {
			continue
		}
		open := bytes.LastIndex(t, []byte("<!--"))
		if in || len(t) > 0 && t[0] == '<' || open >= 0 {
			st.html[i] = true
		}
		switch {
		case open >= 0 && !bytes.Contains(t[open:], []byte("-->")):
			in = true
		case in && bytes.Contains(t, []byte("-->")):
			in = false
		}
	}
	return st.html
}

// importLine reports a line holding an @path import (an "@" starting a word that names a
// path): it loads another file relative to its own, and stays.
func importLine(t []byte) bool {
	for _, w := range bytes.Fields(t) {
		if len(w) > 1 && w[0] == '@' && bytes.ContainsAny(w[1:], "./") {
			return true
		}
	}
	return false
}

// substantial reports a run that carries content, not only structure: one line of prose,
// table or code at least minRunes long.
func substantial(ls []line, minRunes int) bool {
	for _, l := range ls {
		switch l.l.Kind {
		case mdline.Blank, mdline.Heading, mdline.ThematicBreak, mdline.Fence, mdline.SetextUnderline, mdline.TableSep:
			continue
		}
		if utf8.RuneCount(bytes.TrimSpace(l.text)) >= minRunes {
			return true
		}
	}
	return false
}

// finishCross re-checks a file's structure with its cross-file cuts, trims the blank runs they
// leave, and re-assembles it into its plan.
func (p *planner) finishCross(st *fileState, fp *FilePlan, cross []Cut) {
	before := make([]bool, len(st.ls))
	for j := range st.ls {
		before[j] = st.ls[j].del
	}
	for _, c := range cross {
		for _, j := range c.idx {
			before[j] = false
		}
	}
	cuts := append(append([]Cut(nil), st.cuts...), cross...)
	cuts = append(cuts, p.blanks(st.f, st.ls)...)
	cuts, ok := stabilize(st.f.Content, st.ls, cuts)
	if !ok {
		for j := range st.ls {
			st.ls[j].del = before[j]
		}
		return
	}
	keepHardBreaks(st.ls)
	st.cuts = cuts
	p.settle(fp, st.f.Content, st.ls, cuts)
}

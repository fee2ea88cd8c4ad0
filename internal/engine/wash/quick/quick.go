package quick

import (
	"bytes"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/prosewash/prosewash/internal/engine/wash/gate"
	"github.com/prosewash/prosewash/internal/engine/wash/gauge"
	"github.com/prosewash/prosewash/internal/engine/wash/mdline"
)

// File is one memory file offered to the planner, in load order.
type File struct {
	Path string // absolute, as discovered
	// Real is the file's realpath when known: links resolve against its directory and a link
	// is never repointed to the file itself.
	Real    string
	Content []byte
	// Platform and Scope describe who loads the file (reports only: duplicates are removed
	// within one file, never across files, since another agent may read either file alone).
	Platform string
	Scope    string
	// Kind is the discovery kind; "memory-index" enables dead index entry removal.
	Kind         string
	AlwaysLoaded bool
	// Inherited files (above the project root) are never touched.
	Inherited bool
	// ReadOnly files are measured and shown, never cut: user-level memory, settings, code and
	// JSON reached through imports. Their lines still name where a cross-file copy lives.
	ReadOnly bool
	// ModTime is used only to flag stale files; zero means unknown.
	ModTime time.Time
	// Loads are the bytes of the file each platform that always loads it reads (a head
	// when a truncation or a byte budget stops short): who would lose a line cut from it.
	Loads map[string]int64
	// Imports are the real paths of the files this one @imports.
	Imports []string
}

// Tree answers existence and basename questions within the allowed roots.
type Tree interface {
	Exists(path string) bool
	ByBase(name string) []string
}

// Options tune the planner. Zero values take the documented defaults.
type Options struct {
	// Tree enables dead index entries and link repointing; nil disables both.
	Tree Tree
	// LinkRoots are the directories a moved link target may be found in (the project, the
	// memory directory): a link is repointed only to a candidate under the same root as the
	// file holding it. Empty means any candidate the Tree knows.
	LinkRoots []string
	// MaxFileBytes flags larger files as oversize (default 25 KiB, Claude Code's index cap
	// class); they are still planned.
	MaxFileBytes int
	// IndexMaxLines and IndexMaxBytes flag a memory index over the platform's load cap (200 lines,
	// 25 KiB: Claude Code loads no more of MEMORY.md).
	IndexMaxLines, IndexMaxBytes int
	// StaleAfter and Now flag files not modified for that long; both must be set.
	StaleAfter time.Duration
	Now        time.Time
	// MinDupRunes is the shortest trimmed line worth deduplicating (default 12): shorter lines
	// are mostly structure ("- yes", "</details>") whose repetition is meaningful.
	MinDupRunes int
	// KeepBlank is the longest blank run kept (default 1): CommonMark renders 1 and 3 blank
	// lines the same outside code, so the extra ones are pure cost.
	KeepBlank int
	// Estimate counts tokens (default gauge.Estimate).
	Estimate func([]byte) int
	// Show renders a path inside a reason (default: as given); the lane shows paths as its
	// messages do (project-relative, ~/...).
	Show func(path string) string
	// PriceOnly skips the self-gate: the plan only prices the fat (a session-start gauge) and
	// must never be applied. Its figure can overstate the fat only where the self-gate would
	// have caught a planner bug; whatever applies a plan plans again without it.
	PriceOnly bool

	// off disables individual safety checks; only tests set it, to prove each one is what
	// stops a loss.
	off struct{ stabilize, selfGate bool }
}

func (o *Options) defaults() {
	if o.MaxFileBytes == 0 {
		o.MaxFileBytes = 25 << 10
	}
	if o.IndexMaxLines == 0 {
		o.IndexMaxLines = 200
	}
	if o.IndexMaxBytes == 0 {
		o.IndexMaxBytes = 25 << 10
	}
	if o.MinDupRunes == 0 {
		o.MinDupRunes = 12
	}
	if o.KeepBlank == 0 {
		o.KeepBlank = 1
	}
	if o.Estimate == nil {
		o.Estimate = gauge.Estimate
	}
	if o.Show == nil {
		o.Show = func(p string) string { return p }
	}
}

// CutKind names a mechanical cut.
type CutKind string

// Cut kinds.
const (
	DuplicateLine      CutKind = "duplicate-line"
	DuplicateBlock     CutKind = "duplicate-block"
	BlankRun           CutKind = "blank-run"
	TrailingWhitespace CutKind = "trailing-whitespace"
	DeadIndexEntry     CutKind = "dead-index-entry"
	LinkRepoint        CutKind = "link-repoint"
)

// Cut is one planned change.
type Cut struct {
	Kind CutKind
	// Line is the 1-based first original line affected; Lines how many.
	Line, Lines int
	// Reason explains the cut without quoting content (paths and line numbers only).
	Reason string
	// Tokens is the estimated cost of what the cut removes.
	Tokens  int
	idx     []int    // line indexes the cut deletes, for undo
	approve []string // gate approval keys the cut needs
}

// FlagKind names a condition reported but never acted on here.
type FlagKind string

// Flag kinds.
const (
	// CrossFileDuplicate names lines another always-loaded file holds too; they are kept,
	// since an agent that reads this file alone would lose them.
	CrossFileDuplicate FlagKind = "cross-file-duplicate"
	// DeadIndexEntryKept is a memory index entry whose note is missing but which carries text
	// of its own: a finding for a person, never fat.
	DeadIndexEntryKept FlagKind = "dead-index-entry-kept"
	Oversize           FlagKind = "oversize"
	IndexOverCap       FlagKind = "index-over-cap"
	Stale              FlagKind = "stale"
	Pinned             FlagKind = "pinned"
	Unverifiable       FlagKind = "unverifiable"
	Unreadable         FlagKind = "unreadable"
	DeadLink           FlagKind = "dead-link"
	AmbiguousLink      FlagKind = "ambiguous-link"
	GateRefused        FlagKind = "gate-refused"
	// StrayFence is a code fence that never closes: everything after it
	// reads as code to a Markdown reader (and to the gate).
	StrayFence FlagKind = "stray-fence"
)

// Flag is a finding about a file that Quick does not fix.
type Flag struct {
	Path   string
	Kind   FlagKind
	Line   int
	Reason string
}

// FilePlan is the plan for one file.
type FilePlan struct {
	Path string
	Orig []byte
	// New is the planned content; equal to Orig when Changed is false.
	New     []byte
	Changed bool
	Cuts    []Cut
	// Approved holds the "type:value" gate approvals this file's cuts need (dead index entries
	// and repointed links), scoped to this file.
	Approved map[string]bool
	// ApprovedDrops are the "type:value" keys the fidelity gate (and so `wash verify`) reports
	// as gone from this file, each covered by Approved: what a receipt must name.
	ApprovedDrops []string
	TokensBefore  int
	TokensAfter   int
	// Refused is true for files left untouched on purpose (pinned, unverifiable, unreadable,
	// inherited, read-only, stale).
	Refused bool
}

// Plan is a whole Quick pass.
type Plan struct {
	Files []FilePlan
	Flags []Flag
	// TokensCut is the estimated total saving: the fat Quick can prove.
	TokensCut int
}

// GateChanges returns every planned file as a gate change, unchanged ones included: they hold
// the first copies that make a cross-file duplicate removal a verbatim move.
func (p Plan) GateChanges() []gate.Change {
	var out []gate.Change
	for _, f := range p.Files {
		out = append(out, gate.Change{Path: f.Path, Kind: gate.Rewrite, Orig: f.Orig, Result: f.New, Approved: f.Approved})
	}
	return out
}

// line is the working state of one original line.
type line struct {
	l      mdline.Line
	text   []byte // current content (without terminator)
	del    bool
	locked bool // code, front matter, raw <pre>: never changed
	// edited marks a line a repoint changed in this pass: it is neither removed as a copy nor
	// kept as a first copy, since the gate compares original lines and this one has none.
	edited  bool
	section string // heading path above the line
	// unstripped is a hard-break line's text before trailing stripped it (the next line was
	// going to be cut); keepHardBreaks puts it back if that cut was undone.
	unstripped []byte
	// list numbers the list (bullet or ordered, across blank lines) a line belongs to, 0
	// outside lists: a line repeated inside one list is a step, never a duplicate.
	list int
}

type seenAt struct {
	path string
	line int
	list int
	st   *fileState // the file holding it (cross-file registry only)
}

// planner carries the duplicate registries through the files in load order: lines and
// blocks within the current file (what may be cut) and lines across files (only reported).
type planner struct {
	opts   Options
	lines  map[string]seenAt
	blocks map[string]seenAt
	cross  map[string]seenAt
	flags  []Flag
	// state is every planned file's working lines, kept for the cross-file pass.
	state []*fileState
}

// fileState is one file between the passes: its working lines, the cuts planned so far, and
// whether the file may be cut at all (writable) and its copies reported (report).
type fileState struct {
	f        File
	ls       []line
	cuts     []Cut
	writable bool
	report   bool
	title    bool // the file opens with its only level-1 heading: a title, not a section
	// source marks lines another file's cut relies on: they stay.
	source map[int]bool
	html   []bool // see markup
}

// PlanQuick plans the Quick pass over files (in load order). It reads nothing from disk: link
// and index checks ask opts.Tree. Every returned plan passes gate.CheckSet with its own
// approvals; a file whose plan would not (a planner bug) is left unchanged and flagged.
func PlanQuick(files []File, opts Options) Plan {
	opts.defaults()
	p := &planner{opts: opts, cross: map[string]seenAt{}}
	var plan Plan
	for _, f := range files {
		plan.Files = append(plan.Files, p.planFile(f))
	}
	p.crossCuts(plan.Files)
	for _, st := range p.state {
		if st.ls != nil {
			p.crossFile(st, st.report)
		}
	}
	if !opts.off.selfGate && !opts.PriceOnly {
		plan.Files = selfGate(plan.Files, &p.flags)
	}
	for _, f := range plan.Files {
		plan.TokensCut += f.TokensBefore - f.TokensAfter
	}
	plan.Flags = p.flags
	sort.SliceStable(plan.Flags, func(i, j int) bool { return plan.Flags[i].Path < plan.Flags[j].Path })
	return plan
}

// selfGate runs the gate over the plan and reverts any file it blocks, until the plan passes.
// Each file is first checked on its own, exactly as `wash verify ORIG NEW` checks it, so what
// verify would report is what the file's approvals cover, and those are named in
// ApprovedDrops. A plan that changes nothing cannot lose anything and is not gated (the common
// lean case).
func selfGate(files []FilePlan, flags *[]Flag) []FilePlan {
	changed := false
	for _, f := range files {
		changed = changed || f.Changed
	}
	if !changed {
		return files
	}
	for i := range files {
		f := &files[i]
		if !f.Changed {
			continue
		}
		var unapproved, approved []string
		line := 0
		for _, d := range gate.Verify(f.Orig, f.New) {
			if f.Approved[d.Key()] {
				approved = append(approved, d.Key())
			} else if unapproved = append(unapproved, d.Key()); line == 0 {
				line = d.Line
			}
		}
		if len(unapproved) > 0 && !hasCut(f.Cuts, CrossFileCopy) {
			// A file whose lines moved to another is checked with the whole set below: the
			// moved lines' tokens are gone from it alone, and kept in the copy.
			*flags = append(*flags, Flag{Path: f.Path, Kind: GateRefused, Line: line,
				Reason: fmt.Sprintf("planned cuts would drop %d token(s); file left unchanged", len(unapproved))})
			f.New, f.Changed, f.Cuts, f.Approved, f.TokensAfter = f.Orig, false, nil, nil, f.TokensBefore
			continue
		}
		sort.Strings(approved)
		f.ApprovedDrops = slices.Compact(approved)
	}
	for range len(files) + 1 {
		var ch []gate.Change
		for _, f := range files {
			ch = append(ch, gate.Change{Path: f.Path, Kind: gate.Rewrite, Orig: f.Orig, Result: f.New, Approved: f.Approved})
		}
		v := gate.CheckSet(ch, nil)
		if v.OK {
			return files
		}
		for i, fv := range v.Files {
			if len(fv.Blocking) == 0 {
				continue
			}
			f := &files[i]
			*flags = append(*flags, Flag{Path: f.Path, Kind: GateRefused, Line: fv.Blocking[0].Line,
				Reason: fmt.Sprintf("planned cuts would drop %d token(s); file left unchanged", len(fv.Blocking))})
			f.New, f.Changed, f.Cuts, f.Approved, f.ApprovedDrops, f.TokensAfter = f.Orig, false, nil, nil, nil, f.TokensBefore
		}
	}
	return files
}

func hasCut(cuts []Cut, k CutKind) bool {
	for _, c := range cuts {
		if c.Kind == k {
			return true
		}
	}
	return false
}

func (p *planner) flag(path string, k FlagKind, line int, reason string) {
	p.flags = append(p.flags, Flag{Path: path, Kind: k, Line: line, Reason: reason})
}

func (p *planner) planFile(f File) FilePlan {
	st := &fileState{f: f, source: map[int]bool{}}
	p.state = append(p.state, st)
	fp := FilePlan{Path: f.Path, Orig: f.Content, New: f.Content}
	fp.TokensBefore = p.opts.Estimate(f.Content)
	fp.TokensAfter = fp.TokensBefore
	p.lines, p.blocks = map[string]seenAt{}, map[string]seenAt{}
	refuse := func(k FlagKind, reason string) FilePlan {
		if k != "" {
			p.flag(f.Path, k, 0, reason)
		}
		fp.Refused = true
		return fp
	}
	if err := gate.CheckText(f.Content); err != nil {
		return refuse(Unreadable, err.Error())
	}
	doc := mdline.Parse(f.Content)
	for _, sf := range doc.StrayFences() {
		p.flag(f.Path, StrayFence, sf.Line, fmt.Sprintf("stray code fence: lines %d-%d read as code; close it", sf.Line, sf.End))
	}
	ls := p.prepare(doc)
	st.ls, st.title = ls, hasTitle(ls)
	if f.Inherited || f.ReadOnly {
		return refuse("", "")
	}
	if refused, why := doc.FM.Refuse(); refused {
		kind := Unverifiable
		if doc.FM.Pinned {
			kind = Pinned
		}
		return refuse(kind, why)
	}
	if len(f.Content) > p.opts.MaxFileBytes {
		p.flag(f.Path, Oversize, 0, fmt.Sprintf("%d bytes > %d: split or externalise it (quick removes only its provable fat)", len(f.Content), p.opts.MaxFileBytes))
	}
	if f.Kind == "memory-index" && (len(doc.Lines) > p.opts.IndexMaxLines || len(f.Content) > p.opts.IndexMaxBytes) {
		p.flag(f.Path, IndexOverCap, p.opts.IndexMaxLines+1, fmt.Sprintf("%d lines, %d bytes: the platform stops loading at %d lines or %d bytes", len(doc.Lines), len(f.Content), p.opts.IndexMaxLines, p.opts.IndexMaxBytes))
	}
	if p.opts.StaleAfter > 0 && !p.opts.Now.IsZero() && !f.ModTime.IsZero() && p.opts.Now.Sub(f.ModTime) > p.opts.StaleAfter {
		p.flag(f.Path, Stale, 0, fmt.Sprintf("not modified for %d days (never rewritten by quick)", int(p.opts.Now.Sub(f.ModTime).Hours()/24)))
		return refuse("", "")
	}
	var cuts []Cut
	if p.opts.Tree != nil {
		cuts = append(cuts, p.links(f, ls)...)
	}
	cuts = append(cuts, p.dedupFixpoint(f, ls)...)
	cuts = append(cuts, p.trailing(f, ls)...)
	cuts = append(cuts, p.blanks(f, ls)...)
	ok := true
	if !p.opts.off.stabilize {
		cuts, ok = stabilize(f.Content, ls, cuts)
	}
	if !ok {
		for i := range ls {
			ls[i].del = false
		}
		p.flag(f.Path, GateRefused, 0, "cuts would change the Markdown structure; file left unchanged")
		return fp
	}
	keepHardBreaks(ls)
	st.cuts, st.writable, st.report = cuts, true, true
	p.settle(&fp, f.Content, ls, cuts)
	return fp
}

// settle writes the kept lines into the file's plan with its cuts (sorted by line) and the
// approvals they need; a plan that changes nothing stays unchanged.
func (p *planner) settle(fp *FilePlan, content []byte, ls []line, cuts []Cut) {
	out := assemble(content, ls)
	if bytes.Equal(out, content) {
		return
	}
	sort.SliceStable(cuts, func(i, j int) bool { return cuts[i].Line < cuts[j].Line })
	fp.New, fp.Changed, fp.Cuts = out, true, cuts
	for _, c := range cuts {
		for _, k := range c.approve {
			if fp.Approved == nil {
				fp.Approved = map[string]bool{}
			}
			fp.Approved[k] = true
		}
	}
	// A repoint can lengthen a line, and the estimate of a whole file is not additive to the
	// token: the file never reports negative fat.
	fp.TokensAfter = min(fp.TokensBefore, p.opts.Estimate(out))
}

// crossFile registers the file's self-contained lines as first copies for the files after
// it and, when report is set, flags the lines that an earlier always-loaded file still holds
// after the cross-file pass: they stay, and the flag says why (the platforms that load one of
// the two files without the other, or who would not share the other copy), and how to keep one
// source instead. One flag per pair of files.
func (p *planner) crossFile(st *fileState, report bool) {
	f, ls := st.f, st.ls
	if !f.AlwaysLoaded {
		return
	}
	type pair struct {
		n, line int
		other   seenAt
		why     string
	}
	var order []string
	found := map[string]*pair{}
	for i := range ls {
		if ls[i].del || !p.lineEligible(ls, i) {
			continue
		}
		k := normalize(ls[i].text)
		first, ok := p.cross[k]
		if !ok {
			p.cross[k] = seenAt{path: f.Path, line: i + 1, st: st}
			continue
		}
		if !report || first.path == f.Path {
			continue
		}
		pr := found[first.path]
		if pr == nil {
			pr = &pair{line: i + 1, other: first, why: keptWhy(st, i, first.st, first.line-1)}
			found[first.path] = pr
			order = append(order, first.path)
		}
		pr.n++
	}
	for _, other := range order {
		pr := found[other]
		p.flag(f.Path, CrossFileDuplicate, pr.line, fmt.Sprintf("%d line(s) also in %s (the first is line %d there); kept: %s",
			pr.n, p.opts.Show(other), pr.other.line, pr.why))
	}
}

// keptWhy says why a line of a that b also holds stays in both: who loads one without the
// other, or who would not share the other copy; and what keeps one source instead.
func keptWhy(a *fileState, i int, b *fileState, j int) string {
	const fix = "; an @import of one file in the other, or a symlink, keeps one source"
	if b == nil || a.f.Loads == nil || b.f.Loads == nil {
		return "an agent that reads this file alone would lose them" + fix
	}
	la, lb := loaders(a, i, false), loaders(b, j, false)
	var only []string
	for _, x := range la {
		if !slices.Contains(lb, x) {
			only = append(only, x)
		}
	}
	switch {
	case len(only) > 0:
		return fmt.Sprintf("%s load(s) this file without that one%s", strings.Join(only, ", "), fix)
	case !sharedWith(a.f.Scope, b.f.Scope) || b.f.Inherited:
		return "that copy is not shared with everyone who reads this file (" + b.f.Scope + " scope)"
	}
	return "the copy sits under other headings there, or is not a whole block here"
}

// prepare builds the working lines: locked regions and the heading path of every line.
func (p *planner) prepare(doc *mdline.Doc) []line {
	ls := make([]line, len(doc.Lines))
	var stack []string // heading texts by level-1
	inPre := false
	for i, l := range doc.Lines {
		t := l.Text(doc.Src)
		ls[i] = line{l: l, text: t}
		low := bytes.ToLower(t)
		if !l.Kind.Code() && l.Kind != mdline.FrontMatter && bytes.Contains(low, []byte("<pre")) {
			inPre = true
		}
		ls[i].locked = l.Kind.Code() || l.Kind == mdline.FrontMatter || inPre
		if inPre && bytes.Contains(low, []byte("</pre>")) {
			inPre = false
		}
		if l.Kind == mdline.Heading && l.Level > 0 {
			for len(stack) < l.Level {
				stack = append(stack, "")
			}
			stack = stack[:l.Level]
			stack[l.Level-1] = mdline.HeadingText(t)
		}
		ls[i].section = strings.Join(stack, "\x1f")
	}
	markLists(ls)
	return ls
}

// markLists numbers the lists of a file: consecutive items with the same kind of marker
// (bullet or ordered) form one list across blank lines, indented continuations and children;
// any other block at the margin ends it. A line repeated inside one list is a repeated step of
// a procedure or a rule the author listed twice on purpose, and is kept.
func markLists(ls []line) {
	cur, kind, id := 0, byte(0), 0
	prevBlank := true
	for i := range ls {
		l := &ls[i]
		if l.l.Kind == mdline.Blank {
			prevBlank = true
			l.list = cur
			continue
		}
		t := bytes.TrimSpace(l.text)
		k := listMarker(t)
		switch {
		case k != 0 && l.l.Indent < 4 && !l.l.Kind.Code():
			if cur == 0 || k != kind && l.l.Indent == 0 {
				id++
				cur, kind = id, k
			}
		case cur != 0 && (l.l.Indent > 0 || !prevBlank && l.l.Kind == mdline.Text):
			// A child, an indented continuation or a lazy continuation line of the item.
		default:
			cur, kind = 0, 0
		}
		l.list = cur
		prevBlank = false
	}
}

// pointer reports a memory index entry that links a note: an index lists each note once, so
// an exact copy of an entry in the same list is an agent re-saving it, not a repeated step.
func pointer(f File, ls []line, i int) bool {
	return f.Kind == "memory-index" && listMarker(bytes.TrimSpace(ls[i].text)) == '-' && bytes.Contains(ls[i].text, []byte("]("))
}

// listMarker returns '-' for a bullet item, '1' for an ordered item, 0 otherwise.
func listMarker(t []byte) byte {
	if len(t) > 1 && (t[0] == '-' || t[0] == '*' || t[0] == '+') && (t[1] == ' ' || t[1] == '\t') {
		return '-'
	}
	if len(t) == 1 && (t[0] == '-' || t[0] == '*' || t[0] == '+') {
		return '-'
	}
	if mdline.OrdinalPrefix(t) > 0 {
		return '1'
	}
	return 0
}

func normalize(t []byte) string {
	return string(bytes.TrimRight(t, " \t"))
}

// lineEligible reports a self-contained line worth deduplicating: a bullet item or a one-line
// paragraph at the margin, long enough to be content, not a heading, table, rule or code, and
// whose neighbours do not depend on it (no children, not part of a longer paragraph, not able to
// turn the line above into a setext heading once removed).
func (p *planner) lineEligible(ls []line, i int) bool {
	l := ls[i]
	if l.locked || l.del || l.edited || l.l.Kind != mdline.Text || l.l.Indent != 0 {
		return false
	}
	t := bytes.TrimSpace(l.text)
	if !p.contentLine(t) {
		return false
	}
	bullet := len(t) > 1 && (t[0] == '-' || t[0] == '*' || t[0] == '+') && (t[1] == ' ' || t[1] == '\t')
	prev := neighbour(ls, i, -1)
	if !standsAlone(ls, i, prev) || !nextBlockAtMargin(ls, i+1) {
		return false // an indented block below may belong to this item
	}
	return bullet || prev < 0 || ls[prev].l.Kind != mdline.Text
}

// contentLine reports a trimmed text line long enough to be content and none of the lines whose
// place carries meaning: a table row, HTML, a quote, a link reference definition, an ordered
// item (its number is positional).
func (p *planner) contentLine(t []byte) bool {
	if utf8.RuneCount(t) < p.opts.MinDupRunes {
		return false
	}
	if t[0] == '|' || t[0] == '<' || t[0] == '>' || t[0] == '[' && bytes.Contains(t, []byte("]:")) {
		return false
	}
	return mdline.OrdinalPrefix(t) == 0
}

// standsAlone reports a line i whose next live line does not depend on it: blank, or a new
// block at the margin that removing line i cannot turn into a setext heading, a lazy
// continuation or a thematic break under a paragraph (prev is line i's live predecessor).
func standsAlone(ls []line, i, prev int) bool {
	next := neighbour(ls, i, 1)
	if next < 0 || ls[next].l.Kind == mdline.Blank {
		return true
	}
	n := ls[next]
	if n.l.Indent > 0 || n.locked || n.l.Kind == mdline.SetextUnderline || n.l.Kind == mdline.ThematicBreak && prev >= 0 && ls[prev].l.Kind == mdline.Text {
		return false
	}
	return isBlockStart(bytes.TrimSpace(n.text)) // else a paragraph fragment, or a lazy continuation of this item
}

// neighbour returns the index of the nearest not-deleted line in direction dir, or -1.
func neighbour(ls []line, i, dir int) int {
	for j := i + dir; j >= 0 && j < len(ls); j += dir {
		if !ls[j].del {
			return j
		}
	}
	return -1
}

// nextBlockAtMargin reports whether the next non-blank line from i on starts at column 0 (or
// there is none): removing what precedes it then cannot change what that line belongs to.
func nextBlockAtMargin(ls []line, i int) bool {
	for ; i < len(ls); i++ {
		if ls[i].del || ls[i].l.Kind == mdline.Blank {
			continue
		}
		return ls[i].l.Indent == 0
	}
	return true
}

func isBlockStart(t []byte) bool {
	if len(t) == 0 {
		return true
	}
	switch t[0] {
	case '#', '-', '*', '+', '>', '|', '<', '`', '~':
		return true
	}
	return mdline.OrdinalPrefix(t) > 0
}

// dedupFixpoint repeats dedup until a pass finds nothing: removing one copy can make two
// blocks adjacent-bounded or turn a line self-contained, and a second run of Quick must find
// nothing left to cut.
func (p *planner) dedupFixpoint(f File, ls []line) []Cut {
	var cuts []Cut
	for range 8 {
		c := p.dedup(f, ls)
		if len(c) == 0 {
			break
		}
		cuts = append(cuts, c...)
	}
	return cuts
}

// blocks returns spans (as lists of line indexes) of two or more consecutive live, unlocked,
// non-blank lines that start at the margin, bounded by blank lines or the file's ends, so that
// removing one whole changes nothing around it. Deleted lines are skipped as if already gone.
func blocks(ls []line) [][]int {
	var live []int
	for i := range ls {
		if !ls[i].del {
			live = append(live, i)
		}
	}
	var out [][]int
	for a := 0; a < len(live); {
		i := live[a]
		if ls[i].locked || ls[i].l.Kind == mdline.Blank {
			a++
			continue
		}
		b := a
		for b < len(live) && !ls[live[b]].locked && ls[live[b]].l.Kind != mdline.Blank {
			b++
		}
		startOK := a == 0 || ls[live[a-1]].l.Kind == mdline.Blank || ls[live[a-1]].l.Kind == mdline.FrontMatter
		endOK := b == len(live) || ls[live[b]].l.Kind == mdline.Blank
		next := len(ls)
		if b < len(live) {
			next = live[b]
		}
		edited := false
		for _, k := range live[a:b] {
			edited = edited || ls[k].edited
		}
		if b-a >= 2 && startOK && endOK && !edited && ls[i].l.Indent == 0 && nextBlockAtMargin(ls, next) {
			out = append(out, append([]int(nil), live[a:b]...))
		}
		a = b
	}
	return out
}

// blockKey keys a block by the section it sits in (the heading path before it) and its
// normalised text.
func blockKey(ls []line, b []int) string {
	section := ""
	if b[0] > 0 {
		section = ls[b[0]-1].section
	}
	var sb strings.Builder
	sb.WriteString(section + "\x00")
	for _, k := range b {
		sb.WriteString(normalize(ls[k].text))
		sb.WriteByte('\n')
	}
	return sb.String()
}

// dedup removes duplicate blocks, then duplicate lines, within the file, keeping the first
// copy. A copy under a different heading path is kept ("timeout: 30s" under Production and
// under Staging are two facts, not one), and so is a copy inside the same list as the first
// (a repeated step), unless it is a memory index entry linking a note (see pointer).
func (p *planner) dedup(f File, ls []line) []Cut {
	var cuts []Cut
	for _, b := range blocks(ls) {
		k := blockKey(ls, b)
		here := seenAt{path: f.Path, line: b[0] + 1, list: ls[b[0]].list}
		first, ok := p.blocks[k]
		if !ok {
			p.blocks[k] = here
			continue
		}
		if first == here || first.list != 0 && first.list == here.list && !pointer(f, ls, b[0]) {
			continue // the first copy itself, seen again by a later pass, or a repeated step
		}
		var removed []byte
		for _, i := range b {
			ls[i].del = true
			removed = append(removed, ls[i].text...)
			removed = append(removed, '\n')
		}
		cuts = append(cuts, Cut{Kind: DuplicateBlock, Line: b[0] + 1, Lines: len(b), Tokens: p.opts.Estimate(removed), idx: b,
			Reason: "exact copy of the block at " + p.where(first, f.Path)})
	}
	for i := range ls {
		if !p.lineEligible(ls, i) {
			continue
		}
		k := ls[i].section + "\x00" + normalize(ls[i].text)
		here := seenAt{path: f.Path, line: i + 1, list: ls[i].list}
		first, ok := p.lines[k]
		if !ok {
			p.lines[k] = here
			continue
		}
		if first == here || first.list != 0 && first.list == here.list && !pointer(f, ls, i) {
			continue
		}
		ls[i].del = true
		cuts = append(cuts, Cut{Kind: DuplicateLine, Line: i + 1, Lines: 1, Tokens: p.opts.Estimate(append(ls[i].text, '\n')), idx: []int{i},
			Reason: "exact copy of line " + p.where(first, f.Path)})
	}
	return cuts
}

func (p *planner) where(s seenAt, self string) string {
	if s.path == self {
		return fmt.Sprintf("%d", s.line)
	}
	return fmt.Sprintf("%s:%d", p.opts.Show(s.path), s.line)
}

// trailing strips trailing spaces and tabs outside code, never a Markdown hard break: two or
// more spaces ending a paragraph, list or quote line before a paragraph line (an indented or
// lazy continuation, a quote line, a plain line) stay, since removing them joins two lines of
// a paragraph, an address or a poem. keepHardBreaks re-checks after every cut is final.
func (p *planner) trailing(f File, ls []line) []Cut {
	n, first, removed := 0, 0, 0
	for i := range ls {
		l := &ls[i]
		if l.locked || l.del {
			continue
		}
		t := bytes.TrimRight(l.text, " \t")
		if len(t) == len(l.text) {
			continue
		}
		if l.l.Kind == mdline.Text && bytes.HasSuffix(l.text, []byte("  ")) {
			if nx := neighbour(ls, i, 1); nx >= 0 && paragraphLine(ls[nx]) {
				continue
			}
			l.unstripped = l.text
		}
		removed += len(l.text) - len(t)
		l.text = t
		if n == 0 {
			first = i + 1
		}
		n++
	}
	if n == 0 {
		return nil
	}
	return []Cut{{Kind: TrailingWhitespace, Line: first, Lines: n, Tokens: (removed + 3) / 4,
		Reason: fmt.Sprintf("trailing whitespace on %d line(s), hard breaks kept", n)}}
}

// keepHardBreaks restores the trailing spaces of a line that ends in a hard break once a
// paragraph line follows it again in the result (stabilize undid the cut after it).
func keepHardBreaks(ls []line) {
	for i := range ls {
		if ls[i].unstripped == nil || ls[i].del {
			continue
		}
		if nx := neighbour(ls, i, 1); nx >= 0 && paragraphLine(ls[nx]) {
			ls[i].text = ls[i].unstripped
		}
	}
}

// paragraphLine reports a line that can continue the paragraph above it: prose that does not
// start a list item (a new item ends the paragraph, so spaces before it are no break).
func paragraphLine(l line) bool {
	return l.l.Kind == mdline.Text && listMarker(bytes.TrimSpace(l.text)) == 0
}

// blanks keeps at most KeepBlank consecutive blank lines and none at the end of the file.
func (p *planner) blanks(f File, ls []line) []Cut {
	// Blank lines at the end of the file carry nothing: find where that tail starts.
	tailStart := len(ls)
	for i := len(ls) - 1; i >= 0; i-- {
		if ls[i].del {
			continue
		}
		if ls[i].locked || ls[i].l.Kind != mdline.Blank {
			break
		}
		tailStart = i
	}
	var cuts []Cut
	run := 0
	for i := 0; i < tailStart; i++ {
		l := &ls[i]
		if l.del {
			continue
		}
		if l.locked || l.l.Kind != mdline.Blank {
			run = 0
			continue
		}
		run++
		if run > p.opts.KeepBlank {
			l.del = true
			if n := len(cuts); n > 0 && cuts[n-1].Line+cuts[n-1].Lines == i+1 {
				cuts[n-1].Lines++
				cuts[n-1].idx = append(cuts[n-1].idx, i)
			} else {
				cuts = append(cuts, Cut{Kind: BlankRun, Line: i + 1, Lines: 1, Reason: "blank run longer than the kept maximum", idx: []int{i}})
			}
		}
	}
	tail := Cut{Kind: BlankRun, Line: tailStart + 1, Reason: "blank lines at end of file"}
	for i := tailStart; i < len(ls); i++ {
		if !ls[i].del {
			ls[i].del = true
			tail.Lines++
			tail.idx = append(tail.idx, i)
		}
	}
	if tail.Lines > 0 {
		cuts = append(cuts, tail)
	}
	for i := range cuts {
		cuts[i].Tokens = (cuts[i].Lines + 1) / 2
	}
	return cuts
}

// stabilize proves that every kept line is still the same kind of line once the cuts are made
// (prose stays prose, code stays code, a list item stays one): removing a list item can end a
// list and turn the indented paragraph after it into a code block, for example. While a kept
// line changed kind, the deletion nearest above it is undone with its whole cut.
func stabilize(src []byte, ls []line, cuts []Cut) ([]Cut, bool) {
	for range len(cuts) + 1 {
		out := assemble(src, ls)
		doc := mdline.Parse(out)
		k := 0
		var bad []int
		for i := range ls {
			if ls[i].del {
				continue
			}
			if k >= len(doc.Lines) {
				if ls[i].l.Kind != mdline.Blank {
					bad = append(bad, i)
				}
				break
			}
			if doc.Lines[k].Kind != ls[i].l.Kind {
				bad = append(bad, i)
			}
			k++
		}
		if len(bad) == 0 {
			return cuts, true
		}
		// Undo, for every changed line, the nearest cut above it; all in one round, so a large
		// file needs few re-parses. Undoing one too many is safe: it only keeps fat.
		undo := map[int]bool{}
		for _, b := range bad {
			found := false
			for j := b - 1; j >= 0 && !found; j-- {
				if !ls[j].del {
					continue
				}
				for c := range cuts {
					if slices.Contains(cuts[c].idx, j) {
						undo[c] = true
						found = true
						break
					}
				}
			}
		}
		if len(undo) == 0 {
			return cuts, false
		}
		kept := cuts[:0]
		for c := range cuts {
			if undo[c] {
				for _, j := range cuts[c].idx {
					ls[j].del = false
				}
				continue
			}
			kept = append(kept, cuts[c])
		}
		cuts = kept
	}
	return cuts, false
}

// assemble rebuilds the file from the kept lines with their own terminators. When the original
// did not end with a newline, neither does the result.
func assemble(src []byte, ls []line) []byte {
	out := make([]byte, 0, len(src))
	for _, l := range ls {
		if l.del {
			continue
		}
		out = append(out, l.text...)
		out = append(out, src[l.l.End:l.l.End+l.l.TermLen]...)
	}
	if len(src) > 0 && src[len(src)-1] != '\n' {
		out = bytes.TrimRight(out, "\r\n")
	}
	return out
}

// relDir returns the directory links in a file resolve against.
func relDir(path string) string { return filepath.Dir(path) }

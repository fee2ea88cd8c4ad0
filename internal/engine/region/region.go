package region

import (
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
)

// Kind says what a region is and therefore who may touch it.
//
// The zero value is Runtime on purpose: a byte nobody classified is treated as
// the riskiest kind.
type Kind uint8

const (
	// Runtime bytes are code, literals, docstrings, fixtures, front matter:
	// anything the program or a tool reads at run time. Never cleaned by the
	// safe pipeline; carriers found here are only reported.
	Runtime Kind = iota
	// Directive bytes are comments that a tool reads (# noqa, //go:build,
	// shebang, coding cookie, any comment that starts like "word:"). Never touched.
	Directive
	// Prose bytes are narrative comments and documentation text. They may be cleaned.
	Prose
)

func (k Kind) String() string {
	switch k {
	case Prose:
		return "prose"
	case Directive:
		return "directive"
	default:
		return "runtime"
	}
}

// ParseKind is the inverse of [Kind.String].
func ParseKind(s string) (Kind, error) {
	switch s {
	case "prose":
		return Prose, nil
	case "directive":
		return Directive, nil
	case "runtime":
		return Runtime, nil
	}
	return Runtime, fmt.Errorf("unknown region kind %q (want prose, directive or runtime)", s)
}

// Region is the half-open byte range [Start, End) of one kind.
type Region struct {
	Start, End int
	Kind       Kind
	// Why is a short human reason shown by "classify --show", e.g. "comment",
	// "directive: # noqa", "string literal", "fenced code".
	Why string
}

// Len is the region's length in bytes.
func (r Region) Len() int { return r.End - r.Start }

// Map is a classified file: Regions partition [0, Size) in order, with no gaps
// and no overlaps.
type Map struct {
	Lang    string
	Size    int
	Regions []Region
}

// At returns the region holding byte offset off. off must be in [0, Size).
func (m *Map) At(off int) Region {
	i := sort.Search(len(m.Regions), func(i int) bool { return m.Regions[i].End > off })
	if i == len(m.Regions) {
		return Region{Start: off, End: off, Kind: Runtime, Why: "outside the file"}
	}
	return m.Regions[i]
}

// String renders the map one region per line as "start-end kind why", the
// form used by golden files and "classify --show".
func (m *Map) String() string {
	var sb strings.Builder
	for _, r := range m.Regions {
		fmt.Fprintf(&sb, "%d-%d %s %s\n", r.Start, r.End, r.Kind, r.Why)
	}
	return sb.String()
}

// Spans returns the regions of kind k, adjacent ones merged.
func (m *Map) Spans(k Kind) []Region {
	var out []Region
	for _, r := range m.Regions {
		if r.Kind != k || r.Len() == 0 {
			continue
		}
		if n := len(out); n > 0 && out[n-1].End == r.Start {
			out[n-1].End = r.End
			continue
		}
		out = append(out, r)
	}
	return out
}

// Check verifies the partition invariant. Classifiers are tested with it and
// the engine calls it before trusting a map.
func (m *Map) Check() error {
	pos := 0
	for i, r := range m.Regions {
		if r.Start != pos {
			return fmt.Errorf("region %d starts at %d, want %d", i, r.Start, pos)
		}
		if r.End < r.Start {
			return fmt.Errorf("region %d ends at %d before it starts at %d", i, r.End, r.Start)
		}
		pos = r.End
	}
	if pos != m.Size {
		return fmt.Errorf("regions end at %d, file size is %d", pos, m.Size)
	}
	return nil
}

// Builder assembles a Map from marked spans; every byte not marked is Runtime.
// Where marks overlap, the riskier kind wins (Runtime > Directive > Prose);
// between marks of equal risk the earlier mark's Why is kept.
type Builder struct {
	size   int
	marks  []Region
	gapWhy string
	// ordered stays true while every mark starts at or after the end of the
	// previous one, which lets Map skip the sweep: classifiers that mark in
	// source order (all of ours) pay one linear pass.
	ordered bool
}

// NewBuilder starts a map for a file of size bytes.
func NewBuilder(size int) *Builder {
	// Source files average a region every few dozen bytes; reserving that
	// up front saves the repeated growth of the marks slice.
	return &Builder{size: size, gapWhy: "code", ordered: true, marks: make([]Region, 0, min(size/64+4, 1<<14))}
}

// SetGapWhy sets the reason shown for bytes nobody marked (default "code").
// They stay Runtime whatever the reason says.
func (b *Builder) SetGapWhy(why string) { b.gapWhy = why }

// Mark records [start, end) as kind k. Empty or out-of-range spans are clipped.
func (b *Builder) Mark(start, end int, k Kind, why string) {
	if start < 0 {
		start = 0
	}
	if end > b.size {
		end = b.size
	}
	if end <= start {
		return
	}
	if n := len(b.marks); n > 0 && start < b.marks[n-1].End {
		b.ordered = false
	}
	b.marks = append(b.marks, Region{Start: start, End: end, Kind: k, Why: why})
}

// Map returns the partition. Overlaps resolve to the riskier kind
// (Runtime > Directive > Prose), so a classifier bug can only make the tool
// more timid, never bolder.
func (b *Builder) Map(lang string) *Map {
	m := &Map{Lang: lang, Size: b.size}
	if b.size == 0 {
		return m
	}
	if b.ordered {
		b.linear(m, b.marks)
		return m
	}
	// Marks that do not overlap need no sweep, only sorting: the order of
	// marks matters only where they overlap.
	sorted := append([]Region(nil), b.marks...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Start < sorted[j].Start })
	disjoint := true
	for i := 1; i < len(sorted); i++ {
		if sorted[i].Start < sorted[i-1].End {
			disjoint = false
			break
		}
	}
	if disjoint {
		b.linear(m, sorted)
		return m
	}
	// Sweep over boundaries; sizes are small enough that sorting edges is cheap.
	edges := make([]int, 0, 2*len(b.marks)+2)
	edges = append(edges, 0, b.size)
	for _, r := range b.marks {
		edges = append(edges, r.Start, r.End)
	}
	sort.Ints(edges)
	edges = dedupInts(edges)
	// order holds mark indexes sorted by start; an index doubles as the
	// mark's insertion rank, which breaks ties between equally risky marks.
	order := make([]int, len(b.marks))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return b.marks[order[i]].Start < b.marks[order[j]].Start })
	var active []int
	next := 0
	for i := 0; i+1 < len(edges); i++ {
		lo, hi := edges[i], edges[i+1]
		for next < len(order) && b.marks[order[next]].Start <= lo {
			active = append(active, order[next])
			next++
		}
		kept := active[:0]
		for _, idx := range active {
			if b.marks[idx].End > lo {
				kept = append(kept, idx)
			}
		}
		active = kept
		cur := Region{Start: lo, End: hi, Kind: Runtime, Why: b.gapWhy}
		best := -1
		for _, idx := range active {
			r := b.marks[idx]
			if best < 0 || risk(r.Kind) > risk(b.marks[best].Kind) || (risk(r.Kind) == risk(b.marks[best].Kind) && idx < best) {
				best = idx
			}
		}
		if best >= 0 {
			cur.Kind, cur.Why = b.marks[best].Kind, b.marks[best].Why
		}
		m.appendRegion(cur)
	}
	return m
}

// linear fills m from marks that are sorted and do not overlap.
func (b *Builder) linear(m *Map, marks []Region) {
	m.Regions = make([]Region, 0, 2*len(marks)+1)
	pos := 0
	for _, r := range marks {
		if r.Start > pos {
			m.appendRegion(Region{Start: pos, End: r.Start, Kind: Runtime, Why: b.gapWhy})
		}
		m.appendRegion(r)
		pos = r.End
	}
	if pos < b.size {
		m.appendRegion(Region{Start: pos, End: b.size, Kind: Runtime, Why: b.gapWhy})
	}
}

// appendRegion adds r after the last region, merging it into that region when
// both have the same kind and reason.
func (m *Map) appendRegion(r Region) {
	if n := len(m.Regions); n > 0 && m.Regions[n-1].Kind == r.Kind && m.Regions[n-1].Why == r.Why && m.Regions[n-1].End == r.Start {
		m.Regions[n-1].End = r.End
		return
	}
	m.Regions = append(m.Regions, r)
}

func risk(k Kind) int {
	switch k {
	case Prose:
		return 0
	case Directive:
		return 1
	}
	return 2
}

func dedupInts(s []int) []int {
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}

// ErrUnsupported is wrapped by [UnsupportedError].
var ErrUnsupported = errors.New("no classifier for this file type")

// UnsupportedError says a file has no classifier. Such files are refused by
// clean, never treated as prose.
type UnsupportedError struct {
	Path string
	Ext  string
}

func (e *UnsupportedError) Error() string {
	ext := e.Ext
	if ext == "" {
		ext = "(no extension)"
	}
	return fmt.Sprintf("%s: no classifier for %s files; refused, not treated as prose", e.Path, ext)
}

func (e *UnsupportedError) Unwrap() error { return ErrUnsupported }

// Classifier classifies one file's bytes. It must return a map satisfying
// [Map.Check] for any input, and never panic. path is only for messages and
// for rules that depend on the name (a Go file's build constraints).
type Classifier func(path string, src []byte) (*Map, error)

// Language names the classifier for path, or "" when there is none. head is
// the start of the file, or nil when the caller has not read it: a file whose
// name says nothing (a script without an extension) is recognised by its
// first line, so without head such a file has no language.
func Language(path string, head []byte) string {
	if lang := languageByName(path); lang != "" {
		return lang
	}
	return languageByContent(head)
}

// languageByName maps a file name to its language. Each language lists the
// names it owns in one case.
func languageByName(path string) string {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".py", ".pyi":
		return "python"
	case ".md", ".markdown":
		return "markdown"
	case ".txt":
		return "text"
	case ".go":
		return "go"
	case ".sh", ".bash", ".bats", ".ksh", ".mksh", ".zsh":
		return "shell"
	case ".toml":
		return "toml"
	case ".js", ".jsx", ".mjs", ".cjs":
		return "javascript"
	case ".ts", ".tsx", ".mts", ".cts":
		return "typescript"
	case ".yml", ".yaml":
		return "yaml"
	case ".rs":
		return "rust"
	case ".html", ".htm":
		return "html"
	case ".css":
		return "css"
	case ".scss":
		return "scss"
	case ".less":
		return "less"
	}
	if lang := jsonLanguage(path); lang != "" {
		return lang
	}
	return dockerfileName(filepath.Base(path))
}

// languageByContent recognises a file by its first line (a shebang).
func languageByContent(head []byte) string {
	return shellByContent(head)
}

// classifier returns the classifier of lang, or nil.
func classifier(lang string) Classifier {
	switch lang {
	case "python":
		return func(_ string, src []byte) (*Map, error) { return classifyPython(src) }
	case "markdown":
		return func(_ string, src []byte) (*Map, error) { return classifyMarkdown(src) }
	case "text":
		return classifyText
	case "go":
		return classifyGo
	case "shell":
		return classifyShell
	case "toml":
		return func(_ string, src []byte) (*Map, error) { return classifyTOML(src) }
	case "dockerfile":
		return func(_ string, src []byte) (*Map, error) { return classifyDockerfile(src) }
	case "javascript", "typescript":
		return classifyJS
	case "json", "jsonc":
		return classifyJSON
	case "yaml":
		return classifyYAML
	case "rust":
		return classifyRust
	case "html":
		return classifyHTML
	case "css":
		return func(path string, src []byte) (*Map, error) { return classifyCSS(path, src, cssPlain) }
	case "scss":
		return func(path string, src []byte) (*Map, error) { return classifyCSS(path, src, cssSCSS) }
	case "less":
		return func(path string, src []byte) (*Map, error) { return classifyCSS(path, src, cssLess) }
	}
	return nil
}

// Classify splits src, the content of path, into regions.
func Classify(path string, src []byte) (*Map, error) {
	lang := Language(path, src)
	c := classifier(lang)
	if c == nil {
		return nil, &UnsupportedError{Path: path, Ext: filepath.Ext(path)}
	}
	m, err := c(path, src)
	if err != nil {
		if re := (*RefusedError)(nil); errors.As(err, &re) {
			return nil, err // it names the file and the position
		}
		return nil, fmt.Errorf("classify %s: %w", path, err)
	}
	m.Lang = lang
	if err := m.Check(); err != nil {
		return nil, fmt.Errorf("classify %s: internal error: %w", path, err)
	}
	return m, nil
}

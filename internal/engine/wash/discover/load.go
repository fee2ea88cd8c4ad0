package discover

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/prosewash/prosewash/internal/engine/fsx"
)

// Unloaded is text a platform is given to load that never reaches its model: the tail past a
// truncation, a file shadowed by another of the same directory, a file past a byte budget, an
// import of a missing file or one the platform does not follow, a rule whose glob matches no
// file. The user believes the agent knows it; it never sees it.
type Unloaded struct {
	Path     string `json:"path"` // the file holding the text (for an import: the importing file)
	Platform string `json:"platform"`
	// Line is the first line that is not loaded (1-based); Lines how many lines are not
	// loaded from there (0 for a single import line or a whole file of one line).
	Line   int    `json:"line"`
	Lines  int    `json:"lines"`
	Bytes  int64  `json:"bytes"`
	Reason string `json:"reason"`
}

// Imported and direct reads are bounded alike: far above any real memory file, never an
// unbounded read.
const maxContentRead = 64 << 20

// lookup resolves a candidate path as the run sees the world: the overlay's planned results
// first (a planned delete is absent, a planned create is present), the disk otherwise. exists
// is false for a path that is simply not there; err is a failure worth reporting.
func (r *run) lookup(path string) (real string, size int64, exists bool, err error) {
	if _, lerr := os.Lstat(path); lerr != nil {
		if !errors.Is(lerr, fs.ErrNotExist) {
			return "", 0, false, lerr
		}
		// Not on disk: a file the overlay creates (its directory exists and resolves).
		if len(r.opts.Overlay) == 0 {
			return "", 0, false, nil
		}
		dir, derr := filepath.EvalSymlinks(filepath.Dir(path))
		if derr != nil {
			return "", 0, false, nil
		}
		real = filepath.Join(dir, filepath.Base(path))
		if c, ok := r.opts.Overlay[real]; ok && c != nil {
			return real, int64(len(c)), true, nil
		}
		return "", 0, false, nil
	}
	real, err = r.realpath(path)
	if err != nil {
		return "", 0, false, errDangling
	}
	if c, ok := r.opts.Overlay[real]; ok {
		if c == nil {
			return "", 0, false, nil // deleted by the plan
		}
		return real, int64(len(c)), true, nil
	}
	st, err := os.Stat(real)
	if err != nil {
		return "", 0, false, err
	}
	if !st.Mode().IsRegular() {
		if st.IsDir() {
			return real, 0, false, nil
		}
		return real, 0, false, errNotRegular
	}
	return real, st.Size(), true, nil
}

var (
	errDangling   = errors.New("dangling or unreadable symlink")
	errNotRegular = errors.New("not a regular file")
)

// content returns a file's bytes as the run sees them (the overlay's planned result when it
// names the file), read once per run.
func (r *run) content(real string) ([]byte, error) {
	if c, ok := r.opts.Overlay[real]; ok {
		if c == nil {
			return nil, fs.ErrNotExist
		}
		return c, nil
	}
	if c, ok := r.cache[real]; ok {
		return c, nil
	}
	c, err := fsx.ReadRegular(real, maxContentRead, true)
	if err != nil {
		return nil, err
	}
	r.cache[real] = c
	return c, nil
}

// head returns the start of a file, enough for its front matter.
func (r *run) head(real string) []byte {
	c, err := r.content(real)
	if err != nil {
		return nil
	}
	if len(c) > 64<<10 {
		c = c[:64<<10]
	}
	return c
}

// unloaded records text that never reaches a platform's model: bytes [from, to) of content.
func (r *run) unloaded(path, platform string, content []byte, from, to int, reason string) {
	if from >= to {
		return
	}
	line := 1 + bytes.Count(content[:from], []byte("\n"))
	lines := bytes.Count(content[from:to], []byte("\n"))
	if to > from && content[to-1] != '\n' {
		lines++
	}
	r.res.NeverLoaded = append(r.res.NeverLoaded, Unloaded{Path: path, Platform: platform, Line: line, Lines: lines, Bytes: int64(to - from), Reason: reason})
}

// unloadedFile records a whole file that never reaches a platform's model.
func (r *run) unloadedFile(path, real, platform, reason string) {
	c, err := r.content(real)
	if err != nil {
		return
	}
	if len(bytes.TrimSpace(c)) == 0 {
		return // nothing is lost
	}
	r.unloaded(path, platform, c, 0, len(c), reason)
}

// unloadedLine records one line of a file (an import of a missing file, for one).
func (r *run) unloadedLine(path, platform string, line int, reason string) {
	r.res.NeverLoaded = append(r.res.NeverLoaded, Unloaded{Path: path, Platform: platform, Line: line, Lines: 1, Reason: reason})
}

// Claude Code's auto memory index cap: the first 200 lines of the trimmed MEMORY.md, then at
// most 25,000 UTF-16 code units cut back to a line end (claude-code 2.1.197: the function
// that builds the memory prompt trims the file, slices 200 lines, then cuts at the last
// newline before 25,000 characters and appends a warning).
const (
	claudeIndexLines = 200
	claudeIndexUnits = 25000
)

// claudeIndexHead returns how many bytes of MEMORY.md Claude Code loads, and why it stops
// short of the end ("" when the whole file loads).
func claudeIndexHead(c []byte) (int, string) {
	lead := len(c) - len(bytes.TrimLeftFunc(c, jsSpace))
	t := bytes.TrimFunc(c, jsSpace)
	lines := bytes.Count(t, []byte("\n")) + 1
	units := utf16Len(t)
	if lines <= claudeIndexLines && units <= claudeIndexUnits {
		return len(c), ""
	}
	a := t
	why := fmt.Sprintf("Claude Code loads the first %d lines of MEMORY.md", claudeIndexLines)
	if lines > claudeIndexLines {
		a = t[:nthNewline(t, claudeIndexLines)]
	}
	if utf16Len(a) > claudeIndexUnits {
		cut := utf16Offset(a, claudeIndexUnits)
		if nl := bytes.LastIndexByte(a[:cut], '\n'); nl > 0 {
			cut = nl
		}
		a = a[:cut]
		why = fmt.Sprintf("Claude Code loads at most %d characters of MEMORY.md (and at most %d lines)", claudeIndexUnits, claudeIndexLines)
	}
	return lead + len(a), why
}

// jsSpace is JavaScript's String.prototype.trim whitespace: Unicode White_Space, line
// terminators and the byte order mark.
func jsSpace(r rune) bool { return unicode.IsSpace(r) || r == '\uFEFF' }

// nthNewline returns the offset of the n-th '\n' in b (1-based), or len(b).
func nthNewline(b []byte, n int) int {
	off := 0
	for i := 0; i < n; i++ {
		j := bytes.IndexByte(b[off:], '\n')
		if j < 0 {
			return len(b)
		}
		off += j + 1
	}
	return off - 1
}

// utf16Len is the length of b in UTF-16 code units, as JavaScript counts a string.
func utf16Len(b []byte) int {
	n := 0
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		n += len(utf16.Encode([]rune{r}))
		b = b[size:]
	}
	return n
}

// utf16Offset returns the byte offset in b of the given UTF-16 code unit index (clamped).
func utf16Offset(b []byte, units int) int {
	off, n := 0, 0
	for off < len(b) && n < units {
		r, size := utf8.DecodeRune(b[off:])
		n += len(utf16.Encode([]rune{r}))
		off += size
	}
	return off
}

// blank reports content that is empty or only whitespace: a platform that skips empty
// files loads nothing of it.
func blank(c []byte) bool { return len(bytes.TrimFunc(c, unicode.IsSpace)) == 0 }

// tree lists the project's files once, for globs (a rule whose glob matches no file is never
// loaded). ok is false when the walk was too large or failed: no such claim is made then.
func (r *run) tree() (files []string, ok bool) {
	if r.treeDone {
		return r.treeFiles, r.treeOK
	}
	r.treeDone, r.treeOK = true, true
	const maxFiles = 50000
	root := r.opts.ProjectRoot
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == root {
				r.treeOK = false
			}
			return nil
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "node_modules":
				if p != root {
					return filepath.SkipDir
				}
			}
			return nil
		}
		if len(r.treeFiles) >= maxFiles {
			r.treeOK = false
			return filepath.SkipAll
		}
		rel, rerr := filepath.Rel(root, p)
		if rerr == nil {
			r.treeFiles = append(r.treeFiles, filepath.ToSlash(rel))
		}
		return nil
	})
	return r.treeFiles, r.treeOK
}

// matchesNothing reports globs (relative to the project root) that match no file of the
// project: false when the tree could not be listed or a glob does not parse, so a rule is only
// called unreachable when that is certain.
func (r *run) matchesNothing(globs []string) bool {
	if len(globs) == 0 {
		return false
	}
	files, ok := r.tree()
	if !ok {
		return false
	}
	for _, g := range globs {
		g = strings.TrimPrefix(g, "./")
		if !doublestar.ValidatePattern(g) {
			return false
		}
		for _, f := range files {
			if m, _ := doublestar.Match(g, f); m {
				return false
			}
		}
	}
	return true
}

// splitGlobs splits a comma-separated glob list ("**/*.ts, **/*.tsx"), quotes trimmed.
func splitGlobs(v string) []string {
	var out []string
	for _, g := range strings.Split(v, ",") {
		g = strings.Trim(strings.TrimSpace(g), `"'`)
		if g != "" {
			out = append(out, g)
		}
	}
	return out
}

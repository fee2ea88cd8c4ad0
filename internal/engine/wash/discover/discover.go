package discover

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"

	"github.com/prosewash/prosewash/internal/engine/fsx"
)

// Platform identifiers.
const (
	ClaudeCode = "claude-code"
	Codex      = "codex"
	Gemini     = "gemini"
	Copilot    = "copilot"
	Cursor     = "cursor"
	Qwen       = "qwen"
	Cline      = "cline"
	Windsurf   = "windsurf"
)

// allPlatforms lists every platform Discover knows, in report order.
var allPlatforms = [...]string{ClaudeCode, Codex, Gemini, Copilot, Cursor, Cline, Windsurf, Qwen}

// AllPlatforms returns every platform Discover knows, in report order.
func AllPlatforms() []string { return append([]string(nil), allPlatforms[:]...) }

// Kind is what a discovered file is to its platform.
type Kind string

// Kinds.
const (
	Governance  Kind = "governance"
	MemoryIndex Kind = "memory-index"
	Memory      Kind = "memory"
	Rules       Kind = "rules"
)

// Scopes say who shares a file: it bounds cross-file deduplication.
const (
	ScopeProject = "project"   // committed, shared with the team
	ScopeLocal   = "local"     // this user, this project
	ScopeUser    = "user"      // this user, every project
	ScopeAbove   = "inherited" // above the project root: measured, never counted or touched
)

// Options inject everything Discover would otherwise take from the process.
type Options struct {
	// Home is the user's home directory; ProjectRoot the project directory (both absolute).
	Home        string
	ProjectRoot string
	// Start is the directory the agent session starts in (its working directory), at or
	// below ProjectRoot; empty means ProjectRoot. The platforms load the memory of every
	// directory from the project root down to it (see the package documentation); a Start
	// outside the project is ignored.
	Start string
	// Getenv looks up environment variables (CLAUDE_CONFIG_DIR, CODEX_HOME); nil means none.
	Getenv func(string) string
	// Platforms limits discovery; empty means all.
	Platforms []string
	// MaxImportDepth caps @path import chains (default 5, Claude Code's and Gemini's limit).
	MaxImportDepth int
	// MaxRuleFiles caps files read from any rules directory (default 500).
	MaxRuleFiles int
	// Overlay replaces files as a planned run would leave them (real path -> content, nil
	// for a deleted file, a new real path for a created one): discovery then answers what
	// each platform will load after the run, imports and front matter included.
	Overlay map[string][]byte
}

// Entry is one discovered file.
type Entry struct {
	Path     string `json:"path"` // as discovered (lexical)
	Real     string `json:"real"` // realpath, contained in an allowed root
	Platform string `json:"platform"`
	Kind     Kind   `json:"kind"`
	Scope    string `json:"scope"`
	// AlwaysLoaded files enter every session's context; the others are recalled on demand.
	AlwaysLoaded bool `json:"always_loaded"`
	// Inherited files sit above the project root (or are imported by one): measured and
	// shown, never counted in the band, never touched.
	Inherited bool `json:"inherited"`
	// Owned files are the ones the memory lane may write: Markdown memory files inside the
	// project root or the platform's per-project memory directory. Everything else that a
	// platform loads (user-level files, settings, code, JSON reached through @imports) is
	// measured and shown, never cut, merged, repointed or deleted.
	Owned bool   `json:"owned"`
	Why   string `json:"why"`
	// ImportedBy and Depth describe @path imports (Depth 0 for files found directly).
	ImportedBy string `json:"imported_by,omitempty"`
	Depth      int    `json:"depth,omitempty"`
	Size       int64  `json:"size"`
	// Loaded is how many bytes from the start of the file reach the platform's model when it
	// is always loaded: Size, unless a truncation or a byte budget stops short (LoadNote says
	// which). The rest is reported in Result.NeverLoaded.
	Loaded   int64  `json:"loaded"`
	LoadNote string `json:"load_note,omitempty"`
}

// Problem is a candidate that was skipped, with the reason.
type Problem struct {
	Path     string `json:"path"`
	Platform string `json:"platform"`
	Reason   string `json:"reason"`
}

// Result is what Discover found.
type Result struct {
	Entries  []Entry   `json:"entries"`
	Problems []Problem `json:"problems,omitempty"`
	// NeverLoaded is text written for a platform that never reaches its model.
	NeverLoaded []Unloaded `json:"never_loaded,omitempty"`
}

// run is one discovery pass.
type run struct {
	opts     Options
	home     string // realpath
	project  string // realpath
	res      Result
	seen     map[string]map[string]bool // platform -> real path -> found
	problems map[string]bool
	dirs     map[string]string // directory -> its realpath, resolved once per run (resolve)
	// start is the lexical session start directory (ProjectRoot or below it).
	start string
	// own are the realpaths of the roots owned files live in (the project, the memory
	// directory); cfg the platforms' config directories, never owned outside the memory dir.
	own, cfg []string
	cache    map[string][]byte // real path -> content, read once per run
	imported map[importKey][]Import
	// treeFiles lists the project's files (slash-separated, relative) for globs.
	treeFiles        []string
	treeDone, treeOK bool
}

// Discover finds the memory and instruction files each platform loads for the project. It
// fails closed: a candidate whose realpath leaves the project root and the platform's config
// directory (or, for files above the project, their own directory) is reported and skipped.
func Discover(opts Options) (Result, error) {
	if !filepath.IsAbs(opts.ProjectRoot) || !filepath.IsAbs(opts.Home) {
		return Result{}, errors.New("discover: project root and home must be absolute")
	}
	if opts.MaxImportDepth == 0 {
		opts.MaxImportDepth = 5
	}
	if opts.MaxRuleFiles == 0 {
		opts.MaxRuleFiles = 500
	}
	if opts.Getenv == nil {
		opts.Getenv = func(string) string { return "" }
	}
	opts.ProjectRoot = filepath.Clean(opts.ProjectRoot)
	opts.Home = filepath.Clean(opts.Home)
	r := &run{opts: opts, seen: map[string]map[string]bool{}, problems: map[string]bool{}, dirs: map[string]string{}, cache: map[string][]byte{}}
	var err error
	if r.project, err = filepath.EvalSymlinks(opts.ProjectRoot); err != nil {
		return Result{}, fmt.Errorf("discover: resolve project root: %w", err)
	}
	if r.home, err = filepath.EvalSymlinks(opts.Home); err != nil {
		r.home = opts.Home
	}
	r.start = r.startDir()
	r.own = []string{r.project}
	if md := r.memoryDir(); md != "" {
		r.own = append(r.own, md)
	}
	for _, d := range ConfigDirs(opts) {
		if rd := r.realRoot(d); rd != "" {
			r.cfg = append(r.cfg, rd)
		}
	}
	for _, p := range allPlatforms {
		if !r.wanted(p) {
			continue
		}
		switch p {
		case ClaudeCode:
			r.claude()
		case Codex:
			r.codex()
		case Gemini:
			r.gemini()
		case Copilot:
			r.copilot()
		case Cursor:
			r.cursor()
		case Cline:
			r.cline()
		case Windsurf:
			r.windsurf()
		case Qwen:
			r.qwen()
		}
	}
	return r.res, nil
}

func (r *run) wanted(p string) bool {
	if len(r.opts.Platforms) == 0 {
		return true
	}
	for _, q := range r.opts.Platforms {
		if q == p {
			return true
		}
	}
	return false
}

func (r *run) problem(path, platform, reason string) {
	k := platform + "\x00" + path + "\x00" + reason
	if r.problems[k] {
		return
	}
	r.problems[k] = true
	r.res.Problems = append(r.res.Problems, Problem{Path: path, Platform: platform, Reason: reason})
}

// realRoot resolves an allowed root; a root that does not exist allows nothing.
func (r *run) realRoot(p string) string {
	rp, err := r.resolve(p)
	if err != nil {
		return ""
	}
	return rp
}

// resolve is filepath.EvalSymlinks with every directory's resolution cached for the run: a
// path that is not itself a symlink resolves to its parent's realpath joined with its name,
// so the roots and candidates under one directory cost one lstat each, not a walk from the
// root of the file system each (a session-start's discovery did about 200). Off Unix, and for
// a path that is not absolute and clean, it is filepath.EvalSymlinks itself.
func (r *run) resolve(p string) (string, error) {
	if rp, ok := r.dirs[p]; ok {
		return rp, nil
	}
	parent := filepath.Dir(p)
	if runtime.GOOS == "windows" || !filepath.IsAbs(p) || filepath.Clean(p) != p || parent == p {
		return filepath.EvalSymlinks(p)
	}
	fi, err := os.Lstat(p)
	if err != nil {
		return "", err
	}
	var rp string
	if fi.Mode()&fs.ModeSymlink != 0 {
		rp, err = filepath.EvalSymlinks(p)
	} else if rp, err = r.resolve(parent); err == nil {
		rp = filepath.Join(rp, filepath.Base(p))
	}
	if err != nil {
		return "", err
	}
	if fi.IsDir() {
		r.dirs[p] = rp
	}
	return rp, nil
}

func within(real, root string) bool {
	if root == "" {
		return false
	}
	rel, err := filepath.Rel(root, real)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// check resolves a candidate file and verifies it is a regular file inside one of roots.
// Missing candidates are silently absent; anything else that fails is a reported problem.
func (r *run) check(path, platform string, roots []string) (string, int64, bool) {
	real, size, exists, err := r.lookup(path)
	switch {
	case errors.Is(err, errDangling):
		r.problem(path, platform, "dangling or unreadable symlink")
		return "", 0, false
	case errors.Is(err, errNotRegular):
		r.problem(path, platform, "not a regular file")
		return "", 0, false
	case err != nil:
		r.problem(path, platform, "unreadable: "+fsx.Cause(err).Error())
		return "", 0, false
	case !exists:
		return "", 0, false
	}
	ok := false
	for _, root := range roots {
		if within(real, root) {
			ok = true
			break
		}
	}
	if !ok {
		r.problem(path, platform, "resolves outside the allowed roots; skipped")
		return "", 0, false
	}
	return real, size, true
}

// realpath is filepath.EvalSymlinks with the directory's resolution cached for the run: a
// file that is not itself a symlink resolves to its directory's realpath joined with its name,
// so the dozens of candidates in one directory cost one walk, not one each.
func (r *run) realpath(path string) (string, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return "", err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return filepath.EvalSymlinks(path)
	}
	rd, err := r.resolve(filepath.Dir(path))
	if err != nil {
		return "", err
	}
	return filepath.Join(rd, filepath.Base(path)), nil
}

// startDir returns the lexical start directory: opts.Start when it resolves inside the
// project, else the project root.
func (r *run) startDir() string {
	if r.opts.Start == "" || !filepath.IsAbs(r.opts.Start) {
		return r.opts.ProjectRoot
	}
	real, err := filepath.EvalSymlinks(filepath.Clean(r.opts.Start))
	if err != nil || !within(real, r.project) && real != r.project {
		return r.opts.ProjectRoot
	}
	rel, err := filepath.Rel(r.project, real)
	if err != nil || rel == "." {
		return r.opts.ProjectRoot
	}
	return filepath.Join(r.opts.ProjectRoot, rel)
}

// belowRoot returns the directories strictly below the project root down to the start
// directory, nearest the root first.
func (r *run) belowRoot() []string {
	var out []string
	for d := r.start; d != r.opts.ProjectRoot && d != filepath.Dir(d); d = filepath.Dir(d) {
		out = append(out, d)
	}
	slices.Reverse(out)
	return out
}

// memoryDir is the realpath of the Claude Code auto memory directory, "" when it does not
// exist.
func (r *run) memoryDir() string {
	md := r.realRoot(MemoryDir(r.opts))
	if md == "" && r.project != r.opts.ProjectRoot {
		o := r.opts
		o.ProjectRoot = r.project
		md = r.realRoot(MemoryDir(o))
	}
	return md
}

// owned decides whether the lane may write an entry: not inherited, a memory file the
// platform loads by its own rules (or an imported Markdown file), inside the project or the
// memory directory, and not inside a platform's config directory unless that is the memory
// directory itself.
func (r *run) owned(e Entry) bool {
	if e.Inherited || e.Depth > 0 && !MarkdownName(e.Real) {
		return false
	}
	in := false
	for _, root := range r.own {
		in = in || within(e.Real, root)
	}
	if !in {
		return false
	}
	for _, c := range r.cfg {
		if within(e.Real, c) {
			return len(r.own) > 1 && within(e.Real, r.own[1])
		}
	}
	return true
}

// MarkdownName reports a file name with a Markdown extension (.md, .markdown, .mdc).
func MarkdownName(p string) bool {
	switch strings.ToLower(filepath.Ext(p)) {
	case ".md", ".markdown", ".mdc":
		return true
	}
	return false
}

// add records an entry once per platform and real path; it reports whether it was new.
func (r *run) add(e Entry) bool {
	m := r.seen[e.Platform]
	if m == nil {
		m = map[string]bool{}
		r.seen[e.Platform] = m
	}
	if m[e.Real] {
		return false
	}
	m[e.Real] = true
	r.res.Entries = append(r.res.Entries, e)
	return true
}

// file checks and adds one candidate.
func (r *run) file(path string, e Entry, roots []string) (Entry, bool) {
	real, size, ok := r.check(path, e.Platform, roots)
	if !ok {
		return Entry{}, false
	}
	e.Path, e.Real, e.Size, e.Loaded = path, real, size, size
	e.Owned = r.owned(e)
	return e, r.add(e)
}

// ancestors returns the directories strictly above the project root, nearest first, up to and
// including home when home is an ancestor, else up to but excluding the filesystem root.
func (r *run) ancestors() []string {
	var out []string
	home := r.opts.Home
	under := within(r.opts.ProjectRoot, home) && r.opts.ProjectRoot != home
	for d := filepath.Dir(r.opts.ProjectRoot); ; d = filepath.Dir(d) {
		if d == filepath.Dir(d) {
			break // the filesystem root is never searched
		}
		out = append(out, d)
		if under && d == home {
			break
		}
	}
	return out
}

// walkRules lists regular files with one of exts under dir, sorted, capped, never following
// directory symlinks.
func (r *run) walkRules(dir, platform string, exts []string, recursive bool) []string {
	var out []string
	capped := false
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p != dir {
				r.problem(p, platform, "unreadable: "+fsx.Cause(err).Error())
			}
			return nil
		}
		if d.IsDir() {
			if p != dir && !recursive {
				return filepath.SkipDir
			}
			return nil
		}
		for _, ext := range exts {
			if strings.HasSuffix(strings.ToLower(d.Name()), ext) {
				if len(out) >= r.opts.MaxRuleFiles {
					capped = true
					return filepath.SkipAll
				}
				out = append(out, p)
				break
			}
		}
		return nil
	})
	if capped {
		r.problem(dir, platform, fmt.Sprintf("more than %d rule files; the rest were not measured", r.opts.MaxRuleFiles))
	}
	sort.Strings(out)
	return out
}

// frontValue returns the raw value of a top-level key in a leading front matter block.
func frontValue(content []byte, key string) (string, bool) {
	content = bytes.TrimPrefix(content, []byte{0xEF, 0xBB, 0xBF})
	lines := strings.Split(string(content), "\n")
	if len(lines) < 2 || strings.TrimRight(lines[0], " \t\r") != "---" {
		return "", false
	}
	for _, l := range lines[1:] {
		l = strings.TrimRight(l, "\r")
		if strings.TrimRight(l, " \t") == "---" {
			return "", false
		}
		if strings.HasPrefix(l, key+":") {
			v := strings.TrimSpace(l[len(key)+1:])
			if i := strings.Index(v, " #"); i >= 0 {
				v = strings.TrimSpace(v[:i])
			}
			return strings.Trim(v, "\"'"), true
		}
	}
	return "", false
}

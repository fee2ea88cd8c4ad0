package walk

import (
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"

	"github.com/prosewash/prosewash/internal/engine/fsx"
	"github.com/prosewash/prosewash/internal/engine/gitconfig"
)

// maxIncludeDepth bounds include.path chains in git config files (git's own
// limit is 10).
const maxIncludeDepth = 10

// loader finds repositories and loads the ignore sources that apply to a
// whole repository. It caches per walk, because many arguments usually share
// one repository and one global excludes file.
type loader struct {
	mu     sync.Mutex
	roots  map[string]string   // directory -> work tree root containing it ("" for none)
	bases  map[string]*level   // work tree root -> info/exclude + global excludes
	global map[string][]rule   // excludes file path -> its rules
	env    func(string) string // os.Getenv; replaceable in tests
}

func newLoader() *loader {
	return &loader{
		roots:  map[string]string{},
		bases:  map[string]*level{},
		global: map[string][]rule{},
		env:    os.Getenv,
	}
}

// scope returns the rules that apply to the entries of dir, a directory given
// on the command line, with dir's path relative to its work tree root. Outside
// a work tree no rules apply (inRepo is false), as with git and ripgrep.
func (l *loader) scope(dir string) (top *level, rel string, inRepo bool) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, "", false
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	root := l.findRoot(abs)
	if root == "" {
		return nil, "", false
	}
	r, err := filepath.Rel(root, abs)
	if err != nil {
		return nil, "", false
	}
	rel = filepath.ToSlash(r)
	if rel == "." {
		rel = ""
	}
	top = l.repoBase(root)
	if rel == "" {
		return top, "", true
	}
	// The .gitignore files of the directories between the root and dir
	// apply too; dir's own is read when dir is listed.
	cur, curRel := root, ""
	for part := range strings.SplitSeq(rel, "/") {
		if rules := readRules(filepath.Join(cur, ".gitignore"), true); len(rules) > 0 {
			top = &level{parent: top, base: curRel, rules: rules}
		}
		cur, curRel = filepath.Join(cur, part), path.Join(curRel, part)
	}
	return top, rel, true
}

// findRoot returns the nearest directory at or above abs that holds a .git
// entry (a directory, or a file pointing to one as in linked work trees and
// submodules), or "".
func (l *loader) findRoot(abs string) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var visited []string
	root := ""
	for d := abs; ; {
		if r, ok := l.roots[d]; ok {
			root = r
			break
		}
		visited = append(visited, d)
		marker := filepath.Join(d, ".git")
		if typ, err := lstatType(marker); err == nil && isRepoMarker(marker, typ) {
			root = d
			break
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	for _, d := range visited {
		l.roots[d] = root
	}
	return root
}

// isRepoMarker reports whether the .git entry at path of type typ makes its
// directory a work tree root: a directory, or a file pointing to the git
// directory ("gitdir: ..."), as linked work trees and submodules have.
func isRepoMarker(path string, typ entType) bool {
	switch typ {
	case typeDir:
		return true
	case typeFile:
		_, ok := readPointer(path, "gitdir:")
		return ok
	}
	return false
}

// repoBase returns the repository-wide levels for the work tree at root:
// .git/info/exclude, chained to the core.excludesFile rules.
func (l *loader) repoBase(root string) *level {
	l.mu.Lock()
	if b, ok := l.bases[root]; ok {
		l.mu.Unlock()
		return b
	}
	l.mu.Unlock()

	gitDir := filepath.Join(root, ".git")
	if fi, err := os.Lstat(gitDir); err == nil && fi.Mode().IsRegular() {
		if p, ok := readPointer(gitDir, "gitdir:"); ok {
			gitDir = resolveFrom(root, p)
		}
	}
	common := gitDir
	if p, ok := readPointer(filepath.Join(gitDir, "commondir"), ""); ok {
		common = resolveFrom(gitDir, p)
	}
	var base *level
	if f := l.excludesFile(filepath.Join(common, "config"), root); f != "" {
		if rules := l.globalRules(f); len(rules) > 0 {
			base = &level{rules: rules}
		}
	}
	if rules := readRules(filepath.Join(common, "info", "exclude"), false); len(rules) > 0 {
		base = &level{parent: base, rules: rules}
	}

	l.mu.Lock()
	defer l.mu.Unlock()
	l.bases[root] = base
	return base
}

func (l *loader) globalRules(file string) []rule {
	l.mu.Lock()
	rules, ok := l.global[file]
	l.mu.Unlock()
	if ok {
		return rules
	}
	rules = readRules(file, false)
	l.mu.Lock()
	l.global[file] = rules
	l.mu.Unlock()
	return rules
}

// excludesFile resolves core.excludesFile the way git does: system, then
// global (XDG, then ~/.gitconfig, or $GIT_CONFIG_GLOBAL), then the repository
// config, the last setting winning; unset means $XDG_CONFIG_HOME/git/ignore
// (default ~/.config/git/ignore); set to "" means none. includeIf sections
// are not evaluated.
func (l *loader) excludesFile(repoConfig, root string) string {
	home := l.env("HOME")
	xdg := l.env("XDG_CONFIG_HOME")
	if xdg == "" && home != "" {
		xdg = filepath.Join(home, ".config")
	}
	var files []string
	if !envBool(l.env("GIT_CONFIG_NOSYSTEM")) {
		sys := l.env("GIT_CONFIG_SYSTEM")
		if sys == "" {
			sys = "/etc/gitconfig"
		}
		files = append(files, sys)
	}
	if g := l.env("GIT_CONFIG_GLOBAL"); g != "" {
		files = append(files, g)
	} else {
		if xdg != "" {
			files = append(files, filepath.Join(xdg, "git", "config"))
		}
		if home != "" {
			files = append(files, filepath.Join(home, ".gitconfig"))
		}
	}
	files = append(files, repoConfig)
	val, set := "", false
	for _, f := range files {
		if v, ok := configValue(f, home, 0); ok {
			val, set = v, true
		}
	}
	if !set {
		if xdg == "" {
			return ""
		}
		return filepath.Join(xdg, "git", "ignore")
	}
	if val == "" {
		return ""
	}
	return resolveFrom(root, expandHome(val, home))
}

// configValue returns the last core.excludesFile set in the config file or in
// the files it includes with include.path.
func configValue(file, home string, depth int) (string, bool) {
	data, err := fsx.ReadRegular(file, 0, true)
	if err != nil || depth > maxIncludeDepth {
		return "", false
	}
	entries, err := gitconfig.Parse(data)
	if err != nil {
		// git refuses a malformed config; we cannot tell which rules it
		// would apply, so this file contributes none.
		return "", false
	}
	val, set := "", false
	for _, e := range entries {
		switch {
		case e.Section == "core" && e.Subsection == "" && e.Key == "excludesfile":
			val, set = e.Value, true
		case e.Section == "include" && e.Subsection == "" && e.Key == "path" && e.Value != "":
			// git reads an include in place: later keys still win.
			inc := resolveFrom(filepath.Dir(file), expandHome(e.Value, home))
			if v, ok := configValue(inc, home, depth+1); ok {
				val, set = v, true
			}
		}
	}
	return val, set
}

func envBool(v string) bool {
	switch strings.ToLower(v) {
	case "1", "true", "yes", "on":
		return true
	}
	return false
}

func expandHome(p, home string) string {
	if home != "" && (p == "~" || strings.HasPrefix(p, "~/")) {
		return filepath.Join(home, p[1:])
	}
	return p
}

func resolveFrom(dir, p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(dir, p)
}

// readPointer reads a one-line file such as .git ("gitdir: path") or
// commondir and returns the path it names.
func readPointer(file, prefix string) (string, bool) {
	data, err := fsx.ReadRegular(file, 0, true)
	if err != nil {
		return "", false
	}
	s := strings.TrimSpace(string(data))
	s, ok := strings.CutPrefix(s, prefix)
	s = strings.TrimSpace(s)
	return s, ok && s != ""
}

// readRules reads a gitignore-format file; a missing or unreadable file has
// no rules. In-tree .gitignore files that are symlinks are not followed,
// like git since 2.32; info/exclude and the excludes file are.
func readRules(file string, inTree bool) []rule {
	if inTree {
		if fi, err := os.Lstat(file); err != nil || !fi.Mode().IsRegular() {
			return nil
		}
	}
	data, err := fsx.ReadRegular(file, 0, true)
	if err != nil {
		return nil
	}
	return parseIgnore(data)
}

package gitstate

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/prosewash/prosewash/internal/engine/fsx"
	"github.com/prosewash/prosewash/internal/engine/gitconfig"
)

// Repo is a repository opened once for the life of the process. It only
// ever reads. The zero value, and the value Open returns outside a
// repository, says "not in a repository": then HEAD is unknown and the
// guard checks nothing.
//
// It reads HEAD and the refs it names from git's files (loose refs and
// packed-refs, refs.go), as git's files backend lays them out: a library
// such as go-git would cost every prosewash process, each hook included,
// about a million instructions of package initialisation (its URL regexps,
// encoding/gob through its config parser) for the two or three small files
// a HEAD takes.
type Repo struct {
	gitDir    string // per-worktree git dir: HEAD and in-progress markers
	commonDir string // shared git dir: refs, packed-refs, objects
	workTree  string // "" for a bare repository
	// unreadable is why the refs cannot be read as files (a reftable
	// repository); Head then reports it rather than guess.
	unreadable error
}

// Open finds the repository that contains dir, as git would: GIT_DIR,
// GIT_WORK_TREE and GIT_COMMON_DIR from getenv are honoured (a relative
// value is taken relative to dir, which should be the process's working
// directory), otherwise the parents of dir are searched
// for .git (a directory, or a "gitdir:" file for linked worktrees and
// submodules), and linked worktrees resolve through their commondir.
// Outside a repository it returns a Repo whose InRepo is false and a nil
// error.
func Open(dir string, getenv func(string) string) (*Repo, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("open repository: %w", err)
	}
	if gd := getenv("GIT_DIR"); gd != "" {
		return openGitDir(abs, gd, getenv)
	}
	top, gitDir, err := findDotGit(abs)
	if err != nil {
		return nil, fmt.Errorf("open repository: %w", err)
	}
	if gitDir == "" {
		if bare := bareGitDir(abs); bare != "" {
			r := &Repo{gitDir: bare}
			r.commonDir = commonDirOf(bare, getenv)
			r.open()
			return r, nil
		}
		return &Repo{}, nil
	}
	if fi, err := os.Stat(gitDir); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("open repository: %s is not a git directory", gitDir)
	}
	r := &Repo{gitDir: gitDir, workTree: top}
	r.commonDir = commonDirOf(gitDir, getenv)
	r.open()
	return r, nil
}

// bareGitDir recognises dir (or a parent) as a bare repository.
func bareGitDir(dir string) string {
	for d := dir; ; {
		if isGitDir(d) {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return ""
		}
		d = parent
	}
}

func isGitDir(d string) bool {
	for _, n := range []string{"HEAD", "objects", "refs"} {
		if _, err := os.Stat(filepath.Join(d, n)); err != nil {
			return false
		}
	}
	return true
}

// open checks that the refs can be read as files.
func (r *Repo) open() {
	r.unreadable = checkFormat(r.commonDir)
}

// checkFormat refuses a repository whose refs are not loose files and
// packed-refs (extensions.refStorage = reftable): git that does not know
// the extension refuses it too, and git that does keeps HEAD in a table.
func checkFormat(commonDir string) error {
	if v := configValue(filepath.Join(commonDir, "config"), "extensions", "refstorage"); v != "" && !strings.EqualFold(v, "files") {
		return fmt.Errorf("refs are stored as %s, which prosewash cannot read", v)
	}
	return nil
}

func configValue(file, section, key string) string {
	v, _ := gitconfig.Last(file, section, key)
	return v
}

// openGitDir builds the repository from an explicit GIT_DIR, as git does
// inside hooks. Without GIT_WORK_TREE, core.worktree applies, and without
// that dir itself is the top of the working tree.
func openGitDir(dir, gd string, getenv func(string) string) (*Repo, error) {
	if !filepath.IsAbs(gd) {
		gd = filepath.Join(dir, gd)
	}
	gd = filepath.Clean(gd)
	if fi, err := os.Stat(gd); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("open repository: GIT_DIR=%s is not a directory", gd)
	}
	r := &Repo{gitDir: gd}
	r.commonDir = commonDirOf(gd, getenv)
	wt := getenv("GIT_WORK_TREE")
	if wt != "" && !filepath.IsAbs(wt) {
		wt = filepath.Join(dir, wt)
	}
	if wt == "" {
		if v := configValue(filepath.Join(r.commonDir, "config"), "core", "worktree"); v != "" {
			wt = v
			if !filepath.IsAbs(wt) {
				wt = filepath.Join(gd, wt)
			}
		}
	}
	if wt == "" {
		wt = dir
	}
	r.workTree = filepath.Clean(wt)
	r.open()
	return r, nil
}

// InRepo reports whether a repository was found.
func (r *Repo) InRepo() bool { return r != nil && r.gitDir != "" }

// gitDirOf reads top/.git: a directory, or a file "gitdir: <path>" (linked
// worktrees and submodules).
func gitDirOf(top string) (string, error) {
	dotgit := filepath.Join(top, ".git")
	fi, err := os.Stat(dotgit)
	if err != nil {
		return "", err
	}
	if fi.IsDir() {
		return dotgit, nil
	}
	b, err := fsx.ReadRegular(dotgit, 0, true)
	if err != nil {
		return "", err
	}
	line, _, _ := strings.Cut(string(b), "\n")
	p, ok := strings.CutPrefix(strings.TrimSpace(line), "gitdir:")
	if !ok {
		return "", fmt.Errorf("%s: no gitdir: line", dotgit)
	}
	p = strings.TrimSpace(p)
	if !filepath.IsAbs(p) {
		p = filepath.Join(top, p)
	}
	return filepath.Clean(p), nil
}

// findDotGit walks up from dir to the first directory holding .git.
func findDotGit(dir string) (top, gitDir string, err error) {
	for d := dir; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			gd, err := gitDirOf(d)
			return d, gd, err
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", "", nil
		}
		d = parent
	}
}

// commonDirOf follows GIT_COMMON_DIR or the commondir file of a linked
// worktree's git dir; otherwise the git dir is its own common dir.
func commonDirOf(gitDir string, getenv func(string) string) string {
	if v := getenv("GIT_COMMON_DIR"); v != "" {
		if !filepath.IsAbs(v) {
			v = filepath.Join(gitDir, v)
		}
		return filepath.Clean(v)
	}
	b, err := fsx.ReadRegular(filepath.Join(gitDir, "commondir"), 0, true)
	if err != nil {
		return gitDir
	}
	p := strings.TrimSpace(string(b))
	if p == "" {
		return gitDir
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(gitDir, p)
	}
	return filepath.Clean(p)
}

// Head is what HEAD points at.
type Head struct {
	// Ref is the branch HEAD names ("refs/heads/main"); "" when detached.
	Ref string
	// Hash is the commit, hex; "" when the branch is unborn.
	Hash     string
	Detached bool
	Unborn   bool
}

func (h Head) String() string {
	switch {
	case h.Unborn:
		return "unborn " + strings.TrimPrefix(h.Ref, "refs/heads/")
	case h.Detached:
		return "detached at " + short(h.Hash)
	}
	return strings.TrimPrefix(h.Ref, "refs/heads/") + " at " + short(h.Hash)
}

func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

// ErrNoRepository is returned by Head outside a repository.
var ErrNoRepository = errors.New("not in a git repository")

// Head reads HEAD from disk (never cached), so two calls tell whether it
// moved. Ref is where the chain of symbolic refs ends, as `git
// symbolic-ref HEAD` prints it.
func (r *Repo) Head() (Head, error) {
	if !r.InRepo() {
		return Head{}, ErrNoRepository
	}
	if r.unreadable != nil {
		return Head{}, fmt.Errorf("read HEAD: %w", r.unreadable)
	}
	return r.resolveHead()
}

package gitstate

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/go-git/go-git/v5/storage/filesystem/dotgit"
	"github.com/prosewash/prosewash/internal/engine/fsx"
	"github.com/prosewash/prosewash/internal/engine/gitconfig"
)

// Repo is a repository opened once for the life of the process. It only
// ever reads. The zero value, and the value Open returns outside a
// repository, says "not in a repository": then HEAD is unknown and the
// guard checks nothing.
//
// It uses go-git's storage layer (references, packed-refs, the common dir
// of linked worktrees), not go-git's Repository type: the root package
// links transports, SSH and OpenPGP whose package initialisers every
// prosewash process, each hook included, would pay for at start-up.
type Repo struct {
	refs      storer.ReferenceStorer // nil outside a repository or in fallback mode
	gitDir    string                 // per-worktree git dir: HEAD and in-progress markers
	commonDir string                 // shared git dir: refs, packed-refs, objects
	workTree  string                 // "" for a bare repository
	// fallback is why go-git's storage could not be used (an extension it
	// does not know, such as partialClone or worktreeConfig with format 1);
	// HEAD is then read from the ref files directly.
	fallback error
}

// Open finds the repository that contains dir, as git would: GIT_DIR,
// GIT_WORK_TREE and GIT_COMMON_DIR from getenv are honoured (go-git ignores
// them; a relative value is taken relative to dir, which should be the
// process's working directory), otherwise the parents of dir are searched
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

// open builds go-git's storage over the git dir (and its common dir).
// A repository format go-git does not know falls back to plain files.
func (r *Repo) open() {
	// go-git opens HEAD with a plain open, which waits for ever on a FIFO
	// put there; the plain-file reading refuses one at once.
	if fi, err := os.Stat(filepath.Join(r.gitDir, "HEAD")); err == nil && !fi.Mode().IsRegular() {
		r.fallback = errors.New("HEAD is not a regular file")
		return
	}
	if err := checkFormat(r.commonDir); err != nil {
		r.fallback = err
		return
	}
	var fs billy.Filesystem = osfs.New(r.gitDir)
	if r.commonDir != r.gitDir {
		fs = dotgit.NewRepositoryFilesystem(osfs.New(r.gitDir), osfs.New(r.commonDir))
	}
	r.refs = filesystem.NewStorage(fs, cache.NewObjectLRUDefault())
}

// checkFormat refuses, for go-git's storage, a repository whose refs are
// not loose files and packed-refs (extensions.refStorage = reftable).
func checkFormat(commonDir string) error {
	if v := configValue(filepath.Join(commonDir, "config"), "extensions", "refstorage"); v != "" && !strings.EqualFold(v, "files") {
		return fmt.Errorf("refs are stored as %s, which go-git cannot read", v)
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

// Head reads HEAD from disk (never cached), so two calls tell whether it moved.
func (r *Repo) Head() (Head, error) {
	if !r.InRepo() {
		return Head{}, ErrNoRepository
	}
	if r.refs == nil {
		return r.headFromFiles()
	}
	ref, err := r.refs.Reference(plumbing.HEAD)
	if err != nil {
		return Head{}, fmt.Errorf("read HEAD: %w", err)
	}
	if ref.Type() != plumbing.SymbolicReference {
		return Head{Hash: ref.Hash().String(), Detached: true}, nil
	}
	target := ref.Target()
	res, err := storer.ResolveReference(r.refs, target)
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return Head{Ref: target.String(), Unborn: true}, nil
	}
	if err != nil {
		return Head{}, fmt.Errorf("resolve HEAD: %w", err)
	}
	return Head{Ref: target.String(), Hash: res.Hash().String()}, nil
}

// headFromFiles resolves HEAD through loose refs and packed-refs for a
// repository go-git refused to open. Symbolic chains are followed a few
// steps, as git does.
func (r *Repo) headFromFiles() (Head, error) {
	b, err := fsx.ReadRegular(filepath.Join(r.gitDir, "HEAD"), 0, true)
	if err != nil {
		return Head{}, fmt.Errorf("read HEAD: %w", err)
	}
	content := strings.TrimSpace(string(b))
	target, symbolic := strings.CutPrefix(content, "ref:")
	if !symbolic {
		if !isHex(content) {
			return Head{}, fmt.Errorf("read HEAD: unexpected content")
		}
		return Head{Hash: content, Detached: true}, nil
	}
	head := Head{Ref: strings.TrimSpace(target)}
	name := head.Ref
	for range 5 {
		v, ok, err := r.readRef(name)
		if err != nil {
			return Head{}, err
		}
		if !ok {
			head.Unborn = true
			return head, nil
		}
		next, sym := strings.CutPrefix(v, "ref:")
		if !sym {
			head.Hash = v
			return head, nil
		}
		name = strings.TrimSpace(next)
	}
	return Head{}, fmt.Errorf("resolve HEAD: symbolic refs nested too deep")
}

// readRef returns a loose ref's content or its packed-refs entry.
func (r *Repo) readRef(name string) (string, bool, error) {
	if !strings.HasPrefix(name, "refs/") || strings.Contains(name, "..") {
		return "", false, fmt.Errorf("resolve HEAD: invalid ref name %q", name)
	}
	for _, dir := range []string{r.gitDir, r.commonDir} {
		b, err := fsx.ReadRegular(filepath.Join(dir, filepath.FromSlash(name)), 0, true)
		if err == nil {
			return strings.TrimSpace(string(b)), true, nil
		}
	}
	f, _, err := fsx.OpenRegular(filepath.Join(r.commonDir, "packed-refs"), true)
	if os.IsNotExist(err) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("read packed-refs: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		hash, ref, ok := strings.Cut(sc.Text(), " ")
		if ok && ref == name && isHex(hash) {
			return hash, true, nil
		}
	}
	return "", false, sc.Err()
}

func isHex(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

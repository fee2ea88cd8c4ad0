package gitstate

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/prosewash/prosewash/internal/engine/fsx"
)

// HeadMovedError says HEAD is not where it was when the run started: a
// commit, checkout, reset or rebase happened meanwhile.
type HeadMovedError struct {
	Start, Now Head
	// Where names a nested repository (a submodule) by its work tree; ""
	// is the project's own repository.
	Where string
}

func (e *HeadMovedError) Error() string {
	return fmt.Sprintf("HEAD moved during the run%s (was %s, now %s)", in(e.Where), e.Start, e.Now)
}

func in(where string) string {
	if where == "" {
		return ""
	}
	return " in " + where
}

// InProgressError says git has an operation in progress in this worktree.
type InProgressError struct {
	Op     Op
	Marker string // the file or directory that shows it
	Where  string // as in HeadMovedError
}

func (e *InProgressError) Error() string {
	return fmt.Sprintf("a git %s is in progress%s (%s); finish or abort it first", e.Op, in(e.Where), e.Marker)
}

// Guard remembers HEAD at the start of a run and tells, before each write,
// whether the repositories the run writes in are still in the state the
// run was computed for.
type Guard struct {
	repos []guarded
}

// guarded is one repository under guard.
type guarded struct {
	repo  *Repo
	start Head
	where string // the work tree of a nested repository, "" for the project's
}

// NewGuardFor records HEAD now, of this repository and of every
// repository nested in its work tree that owns one of paths (none when
// paths is nil). Outside a repository the guard is inert: the
// transaction's per-file hash compare is then the only protection. A file
// in a submodule (or in a
// repository cloned inside the project) belongs to that repository, whose
// own HEAD and in-progress operations decide whether it may be written,
// whichever directory the run was started from.
func (r *Repo) NewGuardFor(paths []string) (*Guard, error) {
	g := &Guard{}
	seen := map[string]bool{}
	add := func(n *Repo, where string) error {
		if seen[n.gitDir] {
			return nil
		}
		seen[n.gitDir] = true
		h, err := n.Head()
		if err != nil {
			return fmt.Errorf("git guard%s: %w", in(where), err)
		}
		g.repos = append(g.repos, guarded{repo: n, start: h, where: where})
		return nil
	}
	if r.InRepo() {
		if err := add(r, ""); err != nil {
			return nil, err
		}
	}
	for _, p := range paths {
		n, err := r.owner(p)
		if err != nil {
			return nil, fmt.Errorf("git guard: %w", err)
		}
		if n != nil {
			if err := add(n, n.workTree); err != nil {
				return nil, err
			}
		}
	}
	return g, nil
}

// owner returns the repository nested in r's work tree that holds p (the
// innermost .git between p and the work tree), or nil when p belongs to r
// itself or lies outside it. Nested repositories are opened without the
// GIT_* environment, which names r (git sets it inside hooks).
func (r *Repo) owner(p string) (*Repo, error) {
	if r.workTree == "" {
		return nil, nil
	}
	top := fsx.ResolveExisting(r.workTree)
	rp := fsx.ResolveExisting(p)
	if !fsx.Below(top, rp) {
		return nil, nil
	}
	for d := filepath.Dir(rp); fsx.Below(top, d); d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err != nil {
			continue
		}
		gd, err := gitDirOf(d)
		if err != nil {
			return nil, fmt.Errorf("repository at %s: %w", d, err)
		}
		n := &Repo{gitDir: gd, workTree: d}
		n.commonDir = commonDirOf(gd, func(string) string { return "" })
		n.open()
		return n, nil
	}
	return nil, nil
}

// Active reports whether there is a repository to guard.
func (g *Guard) Active() bool { return len(g.repos) > 0 }

// Check returns an [*InProgressError] when a rebase, am, merge, revert,
// cherry-pick, bisect or stopped sequence is in progress in a guarded
// repository, and a [*HeadMovedError] when its HEAD differs from the start.
// It reads only files (never the worktree status), so it is cheap enough to
// run before every single file swap.
func (g *Guard) Check() error {
	for _, r := range g.repos {
		op, marker, err := r.repo.InProgress()
		if err != nil {
			return fmt.Errorf("git guard%s: %w", in(r.where), err)
		}
		if op != None {
			return &InProgressError{Op: op, Marker: marker, Where: r.where}
		}
		now, err := r.repo.Head()
		if err != nil {
			return fmt.Errorf("git guard%s: %w", in(r.where), err)
		}
		if now != r.start {
			return &HeadMovedError{Start: r.start, Now: now, Where: r.where}
		}
	}
	return nil
}

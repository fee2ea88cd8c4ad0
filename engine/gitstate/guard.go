package gitstate

import "fmt"

// HeadMovedError says HEAD is not where it was when the run started: a
// commit, checkout, reset or rebase happened meanwhile.
type HeadMovedError struct {
	Start, Now Head
}

func (e *HeadMovedError) Error() string {
	return fmt.Sprintf("HEAD moved during the run (was %s, now %s)", e.Start, e.Now)
}

// InProgressError says git has an operation in progress in this worktree.
type InProgressError struct {
	Op     Op
	Marker string // the file or directory that shows it
}

func (e *InProgressError) Error() string {
	return fmt.Sprintf("a git %s is in progress (%s); finish or abort it first", e.Op, e.Marker)
}

// Guard remembers HEAD at the start of a run and tells, before each write,
// whether the repository is still in the state the run was computed for.
type Guard struct {
	repo  *Repo
	start Head
}

// NewGuard records HEAD now. Outside a repository the guard is inert: the
// transaction's per-file hash compare is then the only protection.
func (r *Repo) NewGuard() (*Guard, error) {
	g := &Guard{repo: r}
	if !r.InRepo() {
		return g, nil
	}
	h, err := r.Head()
	if err != nil {
		return nil, err
	}
	g.start = h
	return g, nil
}

// Start is HEAD as recorded when the guard was made.
func (g *Guard) Start() Head { return g.start }

// Active reports whether there is a repository to guard.
func (g *Guard) Active() bool { return g.repo.InRepo() }

// Check returns an [*InProgressError] when a rebase, am, merge, revert,
// cherry-pick, bisect or stopped sequence is in progress, and a
// [*HeadMovedError] when HEAD differs from the start. It reads only files
// (never the worktree status), so it is cheap enough to run before every
// single file swap.
func (g *Guard) Check() error {
	if !g.repo.InRepo() {
		return nil
	}
	op, marker, err := g.repo.InProgress()
	if err != nil {
		return fmt.Errorf("git guard: %w", err)
	}
	if op != None {
		return &InProgressError{Op: op, Marker: marker}
	}
	now, err := g.repo.Head()
	if err != nil {
		return fmt.Errorf("git guard: %w", err)
	}
	if now != g.start {
		return &HeadMovedError{Start: g.start, Now: now}
	}
	return nil
}

package gitstate

import (
	"os"
	"path/filepath"
)

// Op is an operation git has in progress in a worktree; "" means none.
type Op string

// The operations, named as git's own prompt names them.
const (
	None              Op = ""
	RebaseInteractive Op = "rebase-i"
	RebaseMerge       Op = "rebase-m"
	Rebase            Op = "rebase"
	ApplyMailbox      Op = "am"
	ApplyOrRebase     Op = "am/rebase"
	Merge             Op = "merge"
	Revert            Op = "revert"
	CherryPick        Op = "cherry-pick"
	Bisect            Op = "bisect"
	// Sequencer is a multi-commit cherry-pick or revert that stopped and
	// was not continued or quit; git status reports it too.
	Sequencer Op = "sequencer"
)

// markers is libgit2's git_repository_state order (ported from git's
// git-prompt.sh), plus git's sequencer leftovers last. REBASE_HEAD is not a
// marker: git leaves it behind after a rebase has finished.
var markers = [...]struct {
	rel string
	dir bool
	op  Op
}{
	{"rebase-merge/interactive", false, RebaseInteractive},
	{"rebase-merge", true, RebaseMerge},
	{"rebase-apply/rebasing", false, Rebase},
	{"rebase-apply/applying", false, ApplyMailbox},
	{"rebase-apply", true, ApplyOrRebase},
	{"MERGE_HEAD", false, Merge},
	{"REVERT_HEAD", false, Revert},
	{"CHERRY_PICK_HEAD", false, CherryPick},
	{"BISECT_LOG", false, Bisect},
	{"sequencer/todo", false, Sequencer},
}

// InProgress reports the operation in progress in this worktree, reading
// the markers in the per-worktree git dir, and the marker's path.
// Outside a repository it reports None.
func (r *Repo) InProgress() (Op, string, error) {
	if !r.InRepo() {
		return None, "", nil
	}
	for _, m := range markers {
		p := filepath.Join(r.gitDir, filepath.FromSlash(m.rel))
		fi, err := os.Stat(p)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return None, "", err
		}
		if fi.IsDir() == m.dir {
			return m.op, p, nil
		}
	}
	return None, "", nil
}

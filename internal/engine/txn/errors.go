package txn

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// LockedError says another prosewash run holds the repository's lock.
type LockedError struct {
	Holder LockInfo // zero when the holder had not yet written its details
	Waited time.Duration
}

func (e *LockedError) Error() string {
	who := "another prosewash run"
	if e.Holder.PID != 0 {
		who = fmt.Sprintf("prosewash run %s (pid %d, since %s)", e.Holder.RunID, e.Holder.PID, e.Holder.Since.Format(time.RFC3339))
	}
	return fmt.Sprintf("%s holds the lock; waited %s", who, e.Waited.Round(time.Millisecond))
}

// PendingError says an interrupted run must be recovered first.
type PendingError struct {
	RunIDs []string
}

func (e *PendingError) Error() string {
	return fmt.Sprintf("an interrupted run is pending (%s); run `prosewash recover` first", strings.Join(e.RunIDs, ", "))
}

// GuardError wraps the git guard's refusal (HEAD moved, rebase in
// progress, ...); errors.As reaches the guard's own typed error.
type GuardError struct {
	Stage string // "start", "install", "commit"
	Err   error
}

func (e *GuardError) Error() string { return fmt.Sprintf("refused at %s: %v", e.Stage, e.Err) }
func (e *GuardError) Unwrap() error { return e.Err }

// AbortedError says an all-or-nothing run stopped because one file could
// not be taken as planned; every file is back as it was.
type AbortedError struct {
	Path string
	Err  error
}

func (e *AbortedError) Error() string {
	return fmt.Sprintf("%s: whole run aborted: %v", e.Path, e.Err)
}
func (e *AbortedError) Unwrap() error { return e.Err }

// ValidationError says validation failed and the run was rolled back.
type ValidationError struct{ Err error }

func (e *ValidationError) Error() string { return fmt.Sprintf("validation failed: %v", e.Err) }
func (e *ValidationError) Unwrap() error { return e.Err }

// PoisonedError says a journal cannot be trusted (a path outside the
// recorded root, a backup outside the state dir, ...). Recovery does not
// act on it; the journal is kept for a human to look at.
type PoisonedError struct {
	Journal string
	Reason  string
}

func (e *PoisonedError) Error() string {
	return fmt.Sprintf("%s: refusing an untrustworthy journal: %s", e.Journal, e.Reason)
}

// ErrOutsideRoot refuses a path that does not resolve inside the root.
var ErrOutsideRoot = errors.New("path resolves outside the project root")

// ErrGitDir refuses a path inside a .git directory.
var ErrGitDir = errors.New("path is inside a .git directory")

// ErrTestRun is returned by Commit in test mode: a test run always rolls back.
var ErrTestRun = errors.New("test run: never committed")

// ErrPhase is returned when a step is called out of order.
var ErrPhase = errors.New("transaction step called out of order")

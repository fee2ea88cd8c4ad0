package txn

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
)

// DefaultLockWait is how long a run waits for another run's lock.
const DefaultLockWait = 10 * time.Second

// lockName is the lock file in the state dir. The OS lock on it (flock,
// LockFileEx) is what excludes; its content only names the holder, and a
// holder killed with -9 releases the lock with its process.
const lockName = "txn.lock"

// LockInfo names the holder of the lock.
type LockInfo struct {
	PID   int       `json:"pid"`
	RunID string    `json:"run_id"`
	Since time.Time `json:"since"`
}

// errWouldBlock is what the platform try-lock returns when the lock is held.
var errWouldBlock = errors.New("lock held")

type lock struct{ f *os.File }

// acquire takes the exclusive lock at path, polling until wait has passed
// (wait < 0: try once). The second of two runs waits, then refuses with a
// [*LockedError] naming the holder.
func acquire(path string, info LockInfo, wait time.Duration) (*lock, error) {
	f, err := openLockFile(path)
	if err != nil {
		return nil, fmt.Errorf("open lock: %w", err)
	}
	start := time.Now()
	delay := 10 * time.Millisecond
	for {
		err := tryLock(f)
		if err == nil {
			break
		}
		if !errors.Is(err, errWouldBlock) {
			_ = f.Close()
			return nil, fmt.Errorf("lock: %w", err)
		}
		if wait < 0 || time.Since(start) >= wait {
			_ = f.Close()
			holder, _ := readHolder(path)
			return nil, &LockedError{Holder: holder, Waited: time.Since(start)}
		}
		time.Sleep(min(delay, max(wait-time.Since(start), time.Millisecond)))
		delay = min(delay*2, 200*time.Millisecond)
	}
	b, _ := json.Marshal(info)
	if err := f.Truncate(0); err == nil {
		_, _ = f.WriteAt(b, 0)
	}
	return &lock{f: f}, nil
}

// release empties the holder record and drops the lock.
func (l *lock) release() error {
	if l == nil || l.f == nil {
		return nil
	}
	_ = l.f.Truncate(0)
	err := unlock(l.f)
	if cerr := l.f.Close(); err == nil {
		err = cerr
	}
	l.f = nil
	return err
}

// readHolder reads who holds (or last held) the lock.
func readHolder(path string) (LockInfo, error) {
	f, err := os.Open(path)
	if err != nil {
		return LockInfo{}, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, 4096))
	if err != nil {
		return LockInfo{}, err
	}
	var info LockInfo
	if len(b) == 0 {
		return info, nil
	}
	if err := json.Unmarshal(b, &info); err != nil {
		return LockInfo{}, err
	}
	return info, nil
}

// probeLock reports whether someone holds the lock now, and who.
func probeLock(path string) (bool, LockInfo) {
	l, err := acquire(path, LockInfo{}, -1)
	if err != nil {
		var le *LockedError
		if errors.As(err, &le) {
			return true, le.Holder
		}
		return false, LockInfo{}
	}
	_ = l.release()
	return false, LockInfo{}
}

// turnLockName is the end-of-turn lock in the state dir, apart from the
// run lock that a clean inside the turn takes.
const turnLockName = "turn.lock"

// AcquireTurn takes the project's end-of-turn lock for session before the
// turn's files are read. Two hooks ending one turn at once (the plugin and
// the settings install of one agent) would otherwise both read and plan it,
// the second then waiting on the run lock only to find every file changed.
// A hook of the same session that finds the lock held gives way at once
// with a [*LockedError] (the holder does this very turn); another
// session's waits up to wait first.
func AcquireTurn(stateDir, session string, wait time.Duration) (release func(), err error) {
	path := filepath.Join(stateDir, turnLockName)
	info := LockInfo{PID: os.Getpid(), RunID: session, Since: time.Now().UTC()}
	l, err := acquire(path, info, -1)
	var le *LockedError
	if errors.As(err, &le) && le.Holder.RunID != session {
		l, err = acquire(path, info, wait)
	}
	if err != nil {
		return nil, err
	}
	return func() { _ = l.release() }, nil
}

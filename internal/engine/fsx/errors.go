package fsx

import (
	"errors"
	"fmt"
	"io/fs"
)

// RefuseKind says why a file was refused.
type RefuseKind uint8

const (
	// Symlink: the path is a symbolic link; replacing it would replace the
	// link with a regular file and silently detach it from its target.
	Symlink RefuseKind = iota + 1
	// NotRegular: a directory, device, FIFO or socket.
	NotRegular
	// HardLinked: the file has more than one name; a rename would split them.
	HardLinked
	// TooLarge: bigger than the caller's limit.
	TooLarge
	// Changed: the file changed identity between the checks and the open.
	Changed
	// Placeholder: a cloud-sync placeholder (a size but no blocks on this disk): reading it
	// would download it, and archiving or deleting it would act on data that is not here.
	Placeholder
)

func (k RefuseKind) String() string {
	switch k {
	case Symlink:
		return "symbolic link"
	case NotRegular:
		return "not a regular file"
	case HardLinked:
		return "hard-linked file"
	case TooLarge:
		return "file too large"
	case Changed:
		return "file changed while being opened"
	case Placeholder:
		return "cloud placeholder (its data is not on this disk)"
	}
	return "refused"
}

// Sentinel errors matched by [RefusedError.Is], so callers can write
// errors.Is(err, fsx.ErrSymlink).
var (
	ErrSymlink     = errors.New("symbolic link")
	ErrNotRegular  = errors.New("not a regular file")
	ErrHardLinked  = errors.New("hard-linked file")
	ErrTooLarge    = errors.New("file too large")
	ErrChanged     = errors.New("file changed while being opened")
	ErrPlaceholder = errors.New("cloud placeholder")
	// ErrConflict is matched by every [ConflictError].
	ErrConflict = errors.New("file changed since it was read")
)

// RefusedError is returned for a file that prosewash will not read or replace.
type RefusedError struct {
	Path  string
	Kind  RefuseKind
	Size  int64 // for TooLarge
	Limit int64 // for TooLarge
	Links uint64
}

func (e *RefusedError) Error() string {
	switch e.Kind {
	case TooLarge:
		return fmt.Sprintf("%s: refused: %s (%d bytes, limit %d)", e.Path, e.Kind, e.Size, e.Limit)
	case HardLinked:
		return fmt.Sprintf("%s: refused: %s (%d links)", e.Path, e.Kind, e.Links)
	}
	return fmt.Sprintf("%s: refused: %s", e.Path, e.Kind)
}

// Is matches the sentinel of the same kind.
func (e *RefusedError) Is(target error) bool {
	switch e.Kind {
	case Symlink:
		return target == ErrSymlink
	case NotRegular:
		return target == ErrNotRegular
	case HardLinked:
		return target == ErrHardLinked
	case TooLarge:
		return target == ErrTooLarge
	case Changed:
		return target == ErrChanged
	case Placeholder:
		return target == ErrPlaceholder
	}
	return false
}

// ConflictError is a failed compare-and-swap: the file no longer holds the
// content the caller expected, so it was left alone. Actual is the zero hash
// when the file is absent; Expected is zero when the caller expected it absent.
type ConflictError struct {
	Path     string
	Expected Hash
	Actual   Hash
	// Preserved names a file that holds content prosewash could not put back
	// in place (only after a failed swap-back); it is never deleted.
	Preserved string
	// Written says the file was written during the swap itself, through a
	// descriptor another process had open: the swap was undone.
	Written bool
}

func (e *ConflictError) Error() string {
	msg := fmt.Sprintf("%s: changed since it was read (expected %s, found %s)", e.Path, e.Expected.Short(), e.Actual.Short())
	if e.Written {
		msg = fmt.Sprintf("%s: written by another process while it was being replaced; left as that process wrote it", e.Path)
	}
	if e.Preserved != "" {
		msg += "; the other content is kept at " + e.Preserved
	}
	return msg
}

// Is matches [ErrConflict].
func (e *ConflictError) Is(target error) bool { return target == ErrConflict }

// Cause returns the error an [*fs.PathError] wraps, or err itself: for
// messages that already name the path, so it is not said twice.
func Cause(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/prosewash/prosewash/internal/engine/fsx"
)

// userPath resolves a path the user typed. Under a git alias ("git
// clean-prose") git runs us from the top of the work tree and says in
// GIT_PREFIX where the user was.
func userPath(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	if prefix := os.Getenv("GIT_PREFIX"); prefix != "" {
		return filepath.Join(prefix, p)
	}
	return p
}

// maxInput bounds what a command reads of one file it is given to read
// (classify, wash verify, a plan, a pipeline file): far more than any real
// source or memory file, and never an unbounded read.
const maxInput = 64 << 20

// readInput reads a file the user named through the defensive open: a FIFO,
// device or directory is an error naming it, never a hang or an endless
// read (classify /dev/zero).
func readInput(arg string) ([]byte, error) {
	b, err := fsx.ReadRegular(userPath(arg), maxInput, true)
	var re *fsx.RefusedError
	switch {
	case errors.As(err, &re) && re.Kind == fsx.TooLarge:
		return nil, fmt.Errorf("%s: %s (%d bytes or more, limit %d)", arg, re.Kind, re.Size, re.Limit)
	case errors.As(err, &re):
		return nil, fmt.Errorf("%s: %s", arg, re.Kind)
	case err != nil:
		return nil, fmt.Errorf("read %s: %w", arg, fsx.Cause(err))
	}
	return b, nil
}

package fsx

import (
	"os"

	"golang.org/x/sys/unix"
)

// exchangeSupported says whether this build can swap two names atomically.
const exchangeSupported = true

// exchange swaps the files at a and b in one step (renameat2 RENAME_EXCHANGE).
// It returns errNoExchange when the kernel or filesystem cannot.
func exchange(a, b string) error {
	err := unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
	if err != nil && isUnsupported(err) {
		return errNoExchange
	}
	if err != nil {
		return &os.LinkError{Op: "exchange", Old: a, New: b, Err: err}
	}
	return nil
}

// renameNoReplace renames a to b unless b exists (fs.ErrExist then).
func renameNoReplace(a, b string) error {
	err := unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_NOREPLACE)
	if err != nil && isUnsupported(err) {
		return linkNoReplace(a, b)
	}
	if err != nil {
		return &os.LinkError{Op: "rename", Old: a, New: b, Err: err}
	}
	return nil
}

package fsx

import (
	"os"

	"golang.org/x/sys/unix"
)

const exchangeSupported = true

// exchange swaps the files at a and b in one step (renamex_np RENAME_SWAP).
func exchange(a, b string) error {
	err := unix.RenamexNp(a, b, unix.RENAME_SWAP)
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
	err := unix.RenamexNp(a, b, unix.RENAME_EXCL)
	if err != nil && isUnsupported(err) {
		return linkNoReplace(a, b)
	}
	if err != nil {
		return &os.LinkError{Op: "rename", Old: a, New: b, Err: err}
	}
	return nil
}

//go:build !linux

package fsx

import (
	"io/fs"
	"os"
)

// Without write leases (macOS, the BSDs, Windows) the swap relies on the
// held original alone: a write during the swap is seen, a process that
// keeps the file open or mapped and writes after the swap is not (see
// docs/safety.md).
func takeLease(*os.File) leaseOutcome { return leaseUnavailable }

func leaseBroken(*os.File, bool) bool { return false }

func releaseLease(*os.File) {}

// openersOf cannot look into other processes here without cgo.
func openersOf(string, fs.FileInfo, uintptr) ([]Holder, bool, int) { return nil, false, 0 }

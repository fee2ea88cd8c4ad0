//go:build !linux

package fsx

import (
	"io/fs"
	"os"
)

// Without write leases (macOS, the BSDs, Windows) the swap relies on the
// held original alone: a write during the swap is seen, a process that
// keeps the file open and writes after the swap is not (see docs/safety.md).
func takeLease(*os.File) bool { return false }

func leaseBroken(*os.File) bool { return false }

func releaseLease(*os.File) {}

// openWriters cannot look into other processes here without cgo.
func openWriters(fs.FileInfo) []Holder { return nil }

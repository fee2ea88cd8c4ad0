//go:build !unix

package rusage

import "os"

// PeakKiB is 0 (not measured) where there is no getrusage: Windows keeps a
// process's peak working set behind a handle the finished child no longer
// has.
func PeakKiB(*os.ProcessState) int64 { return 0 }

// Sync does nothing: Windows flushes per file handle, not system-wide.
func Sync() {}

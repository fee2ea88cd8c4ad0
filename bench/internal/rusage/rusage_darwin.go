package rusage

import (
	"os"
	"syscall"
)

// PeakKiB is a finished child's peak resident set: macOS counts ru_maxrss
// in bytes.
func PeakKiB(ps *os.ProcessState) int64 {
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return ru.Maxrss / 1024
	}
	return 0
}

// Sync flushes every filesystem's dirty pages.
func Sync() { syscall.Sync() }

//go:build unix && !darwin

package rusage

import (
	"os"
	"syscall"
)

// PeakKiB is a finished child's peak resident set: getrusage's ru_maxrss,
// which Linux and the BSDs count in KiB; 0 when the platform does not say.
func PeakKiB(ps *os.ProcessState) int64 {
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return ru.Maxrss
	}
	return 0
}

// Sync flushes every filesystem's dirty pages.
func Sync() { syscall.Sync() }

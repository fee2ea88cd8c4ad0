//go:build unix

package archive

import (
	"errors"
	"syscall"
)

// processAlive reports whether pid runs and, where /proc tells the start time, whether it is
// still the process that wrote the session file (a reused pid is not the session).
func processAlive(pid int, procStart string) (bool, error) {
	err := syscall.Kill(pid, 0)
	switch {
	case errors.Is(err, syscall.ESRCH):
		return false, nil
	case err != nil && !errors.Is(err, syscall.EPERM):
		return false, err
	}
	if procStart == "" {
		return true, nil
	}
	got, err := procStartTime(pid)
	if err != nil {
		return true, nil // no /proc here: the pid alone is the evidence, and doubt is live
	}
	return got == procStart, nil
}

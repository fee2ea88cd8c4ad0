//go:build unix

package region

import "syscall"

// processCPU returns the process's user+system CPU time in nanoseconds, or
// -1 when unavailable. Benchmarks use it to report throughput that does not
// depend on how many other programs share the machine.
func processCPU() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return -1
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

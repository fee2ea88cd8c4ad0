//go:build unix && !linux

package ccharness

// descendants is not available without /proc; the process-group kill is
// all a timeout can do there.
func descendants(pid int) []int { return nil }

//go:build !linux

package cli

// holdsLocks cannot see this process's locks here: an interrupted command
// is given the grace period only.
func holdsLocks() bool { return false }

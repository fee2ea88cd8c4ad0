//go:build !unix

package testtool

// lock is a no-op where advisory locks are not available: concurrent
// installs then race, and the rename keeps the loser's copy out.
func lock(string) (func(), error) { return func() {}, nil }

package cli

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// holdsLocks sees a lock this process holds, and not one it released.
func TestHoldsLocks(t *testing.T) {
	if _, err := os.Stat("/proc/locks"); err != nil {
		t.Fatalf("no /proc/locks on Linux: %v", err)
	}
	if holdsLocks() {
		t.Fatal("holds a lock before taking one")
	}
	f, err := os.Create(filepath.Join(t.TempDir(), "x.lock"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	if !holdsLocks() {
		t.Error("an flock held is not seen")
	}
	syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	if holdsLocks() {
		t.Error("a released flock is still seen")
	}
}

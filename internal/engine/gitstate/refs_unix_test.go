//go:build unix

package gitstate

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestHeadFIFO: git opens HEAD and waits for ever when a FIFO sits there;
// Head refuses it at once, so a hook never hangs on a hostile repository.
func TestHeadFIFO(t *testing.T) {
	f := newRepo(t)
	f.commit("a.txt", "a\n", "one")
	for _, rel := range []string{"HEAD", "refs/heads/main"} {
		p := filepath.Join(f.dir, ".git", filepath.FromSlash(rel))
		if err := os.Rename(p, p+".real"); err != nil {
			t.Fatal(err)
		}
		if err := syscall.Mkfifo(p, 0o644); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { _, err := open(t, f.dir, noEnv).Head(); done <- err }()
		select {
		case err := <-done:
			if err == nil {
				t.Fatalf("Head read a FIFO at %s", rel)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("Head waited on a FIFO at %s", rel)
		}
		if err := os.Remove(p); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(p+".real", p); err != nil {
			t.Fatal(err)
		}
	}
}

//go:build unix

package install

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A FIFO where install keeps the backup of a file it changed is not a backup:
// loading it returns none at once instead of waiting for a writer that never
// comes (an uninstall must not hang on a planted state file).
func TestLoadBackupRefusesFIFO(t *testing.T) {
	state := t.TempDir()
	target := filepath.Join(t.TempDir(), "settings.json")
	p := backupPath(state, target)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan *backup, 1)
	go func() { done <- loadBackup(state, target) }()
	select {
	case k := <-done:
		if k != nil {
			t.Fatalf("a FIFO was loaded as a backup: %+v", k)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("loadBackup blocked on a FIFO")
	}
}

// A backup written by saveBackup is loaded back as it was.
func TestBackupRoundTrip(t *testing.T) {
	state := t.TempDir()
	target := filepath.Join(t.TempDir(), "settings.json")
	want := &backup{Path: target, Existed: true, Original: []byte("{}\n"), Exact: true, Written: "ab"}
	if err := saveBackup(state, want); err != nil {
		t.Fatal(err)
	}
	got := loadBackup(state, target)
	if got == nil || string(got.Original) != "{}\n" || !got.Existed || !got.Exact || got.Written != "ab" {
		t.Fatalf("loaded %+v", got)
	}
}

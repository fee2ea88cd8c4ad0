//go:build unix

package fsx

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

func TestReadFileRefusesFIFO(t *testing.T) {
	p := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skipf("mkfifo not available: %v", err)
	}
	if _, _, err := ReadFile(p, 0); !errors.Is(err, ErrNotRegular) {
		t.Fatalf("err = %v", err)
	}
	if _, _, err := HashFile(p); !errors.Is(err, ErrNotRegular) {
		t.Fatalf("HashFile err = %v", err)
	}
}

// within fails the test when fn does not return in time: the point of the
// defensive open is that nothing blocks.
func within(t *testing.T, d time.Duration, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); fn() }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("still blocked after %v", d)
	}
}

func TestReadRegularNeverBlocks(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo not available: %v", err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(fifo, link); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{fifo, link, "/dev/zero", "/dev/null", dir} {
		within(t, 5*time.Second, func() {
			if _, err := ReadRegular(p, 1<<20, true); !errors.Is(err, ErrNotRegular) {
				t.Errorf("%s: err = %v, want not a regular file", p, err)
			}
		})
	}
	reg := filepath.Join(dir, "a.toml")
	os.WriteFile(reg, []byte("x = 1\n"), 0o600)
	os.Symlink(reg, filepath.Join(dir, "a-link"))
	if b, err := ReadRegular(filepath.Join(dir, "a-link"), 100, true); err != nil || string(b) != "x = 1\n" {
		t.Fatalf("following a link to a regular file: %q %v", b, err)
	}
	if _, err := ReadRegular(filepath.Join(dir, "a-link"), 100, false); !errors.Is(err, ErrSymlink) {
		t.Fatalf("no-follow read of a link: %v", err)
	}
	if _, err := ReadRegular(reg, 3, true); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("over the limit: %v", err)
	}
	// /proc files say size 0 and go on: the limit still bounds the read.
	if _, err := os.Stat("/proc/self/status"); err == nil {
		if _, err := ReadRegular("/proc/self/status", 16, true); !errors.Is(err, ErrTooLarge) {
			t.Fatalf("a zero-size /proc file read past the limit: %v", err)
		}
	}
	if _, err := ReadRegular(filepath.Join(dir, "absent"), 10, true); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("absent: %v", err)
	}
}

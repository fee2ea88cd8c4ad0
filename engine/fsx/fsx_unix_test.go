//go:build unix

package fsx

import (
	"errors"
	"path/filepath"
	"syscall"
	"testing"
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

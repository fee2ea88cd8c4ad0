//go:build unix

package config

import (
	"fmt"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/prosewash/prosewash/internal/testtool"
)

// A configuration replaced by a FIFO (or any non-regular file) is an error
// naming the file, never a hang: every hook reads the configuration.
func TestConfigFIFOIsAnErrorNotAHang(t *testing.T) {
	dir := t.TempDir()
	for _, which := range []string{"user", "project"} {
		fifo := filepath.Join(dir, which+".toml")
		if err := syscall.Mkfifo(fifo, 0o600); err != nil {
			testtool.Missing(t, "mkfifo", fmt.Sprintf("mkfifo: %v", err))
		}
		user, project := fifo, ""
		if which == "project" {
			user, project = "", fifo
		}
		done := make(chan error, 1)
		go func() { _, _, err := LoadFiles(user, project); done <- err }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), fifo) || !strings.Contains(err.Error(), "not a regular file") {
				t.Errorf("%s config FIFO: err = %v", which, err)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s config FIFO: LoadFiles blocked", which)
		}
	}
	if _, _, err := LoadFiles("", "/dev/zero"); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("/dev/zero as configuration: %v", err)
	}
}

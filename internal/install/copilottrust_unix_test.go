//go:build unix

package install

import (
	"path/filepath"
	"syscall"
	"testing"
)

// A FIFO at the Copilot CLI's config.json is refused, never opened for a
// read that waits (FIFOs exist only on unix).
func TestCopilotTrustRefusesFIFO(t *testing.T) {
	home, proj := t.TempDir(), t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(home, "config.json"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := CopilotTrust(home, proj); err == nil {
		t.Errorf("a FIFO at config.json was read")
	}
}

package ccharness

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestSessionTimeoutEndsHooks proves a wedged hook cannot outlive the
// session: on timeout the CLI and the hooks it spawned are killed.
func TestSessionTimeoutEndsHooks(t *testing.T) {
	t.Parallel()
	bin := RequireClaude(t)
	proj := NewProject(t)
	pidFile := filepath.Join(t.TempDir(), "hook.pid")
	hook := "echo $$ > " + shQuote(pidFile) + "; exec sleep 600"
	settings := SettingsJSON(Hook{Event: "SessionStart", Command: hook})
	// The hook must have started before the deadline; a loaded host may
	// need longer to get there, so widen the timeout instead of flaking.
	var res *Result
	var b []byte
	for _, timeout := range []time.Duration{5 * time.Second, 20 * time.Second, 60 * time.Second} {
		res = Run(t, Options{Bin: bin, ProjectDir: proj, Settings: settings, Timeout: timeout})
		var err error
		if b, err = os.ReadFile(pidFile); err == nil {
			break
		}
		t.Logf("hook not started within %s; retrying with more time", timeout)
	}
	if b == nil {
		t.Fatalf("the SessionStart hook never started: %s", res.Summary())
	}
	if !res.TimedOut || res.ExitCode == 0 {
		t.Fatalf("want a timed-out session: %s", res.Summary())
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || pid <= 1 {
		t.Fatalf("hook pid %q: %v", b, err)
	}
	// SIGKILL is delivered asynchronously; allow it a moment.
	deadline := time.Now().Add(10 * time.Second)
	for processAlive(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("hook process %d still runs after the session timed out", pid)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

//go:build unix

package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/prosewash/prosewash/internal/testtool"
)

// mainResult is one in-process run of Main.
type mainResult struct {
	code           int
	stdout, stderr string
}

// runMain runs Main in-process and fails the test when it has not returned
// within d: these tests are about commands that must never block.
func runMain(t *testing.T, d time.Duration, stdin string, args ...string) mainResult {
	t.Helper()
	done := make(chan mainResult, 1)
	go func() {
		var out, errb bytes.Buffer
		code := Main(args, strings.NewReader(stdin), &out, &errb)
		done <- mainResult{code, out.String(), errb.String()}
	}()
	select {
	case r := <-done:
		return r
	case <-time.After(d):
		t.Fatalf("prosewash %s: still running after %v", strings.Join(args, " "), d)
	}
	return mainResult{}
}

// isolated gives the test a project directory (the working directory) and
// private state, config and home directories.
func isolated(t *testing.T) string {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	outside := t.TempDir()
	t.Setenv("PROSEWASH_STATE_DIR", filepath.Join(outside, "state"))
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(outside, "config"))
	t.Setenv("HOME", filepath.Join(outside, "home"))
	t.Setenv("NO_COLOR", "1")
	t.Setenv("GIT_PREFIX", "")
	os.MkdirAll(filepath.Join(outside, "home"), 0o755)
	t.Chdir(root)
	return root
}

func mkfifo(t *testing.T, p string) {
	t.Helper()
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		testtool.Missing(t, "mkfifo", fmt.Sprintf("mkfifo: %v", err))
	}
}

// Files named on the command line are read through the defensive open: a
// FIFO or a device is an error naming the file (exit 2), never a hang or a
// read without end (classify /dev/zero died of an out-of-memory panic).
func TestNamedInputsNeverBlock(t *testing.T) {
	root := isolated(t)
	mkfifo(t, filepath.Join(root, "pipe.md"))
	os.WriteFile(filepath.Join(root, "ok.md"), []byte("# ok\n"), 0o644)
	for _, args := range [][]string{
		{"classify", "pipe.md"},
		{"classify", "/dev/zero"},
		{"wash", "verify", "pipe.md", "ok.md"},
		{"wash", "verify", "ok.md", "/dev/zero"},
		{"validate-pipeline", "pipe.md"},
	} {
		r := runMain(t, 10*time.Second, "", args...)
		if r.code != exitUsage || !strings.Contains(r.stderr, "not a regular file") {
			t.Errorf("prosewash %s: exit %d, stderr %q", strings.Join(args, " "), r.code, r.stderr)
		}
	}
}

// A configuration or memory file replaced by a FIFO must not hang any hook:
// each ends in time and fails open (exit 0, JSON or nothing on stdout for
// Claude Code).
func TestHooksFailOpenOnFIFOs(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		testtool.Missing(t, "git", "git not found")
	}
	for _, which := range []string{"project config", "user config", "memory"} {
		t.Run(which, func(t *testing.T) {
			root := isolated(t)
			if out, err := exec.Command("git", "init", "-q", root).CombinedOutput(); err != nil {
				t.Fatalf("git init: %v %s", err, out)
			}
			switch which {
			case "project config":
				mkfifo(t, filepath.Join(root, ".prosewash.toml"))
			case "user config":
				os.WriteFile(filepath.Join(root, ".prosewash.toml"), nil, 0o644)
				mkfifo(t, filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "prosewash", "config.toml"))
			case "memory":
				os.WriteFile(filepath.Join(root, ".prosewash.toml"), nil, 0o644)
				os.WriteFile(filepath.Join(root, "CLAUDE.md"), []byte("# rules\n@docs/more.md\n"), 0o644)
				mkfifo(t, filepath.Join(root, "docs", "more.md"))
				mkfifo(t, filepath.Join(root, "AGENTS.md"))
			}
			in := func(event string) string {
				b, _ := json.Marshal(map[string]any{"session_id": "s1", "cwd": root, "hook_event_name": event,
					"source": "startup", "tool_name": "Write", "tool_input": map[string]string{"file_path": filepath.Join(root, "a.md")}})
				return string(b)
			}
			for _, h := range []struct {
				stdin string
				args  []string
			}{
				{in("SessionStart"), []string{"hook", "claude", "session-start"}},
				{in("PreToolUse"), []string{"hook", "claude", "pre-tool-use"}},
				{in("PostToolUse"), []string{"hook", "claude", "post-tool-use"}},
				{in("Stop"), []string{"hook", "claude", "stop"}},
				{"", []string{"hook", "git", "pre-commit"}},
				{"", []string{"hook", "git", "post-checkout", "0000", "1111", "1"}},
			} {
				r := runMain(t, 10*time.Second, h.stdin, h.args...)
				if r.code != 0 {
					t.Errorf("%s: exit %d, stderr %q", strings.Join(h.args, " "), r.code, r.stderr)
				}
				if h.args[1] == "claude" && strings.TrimSpace(r.stdout) != "" && !json.Valid([]byte(r.stdout)) {
					t.Errorf("%s: stdout is not JSON: %q", strings.Join(h.args, " "), r.stdout)
				}
			}
			if which == "memory" {
				r := runMain(t, 10*time.Second, "", "wash", "gauge")
				if r.code == exitUsage && !strings.Contains(r.stderr, "not a regular file") {
					t.Errorf("wash gauge with a FIFO memory file: exit %d, %q", r.code, r.stderr)
				}
			}
		})
	}
}

// The hook runner's deadline: whatever a hook blocks on, it gives up in
// time, answers once (the abandoned hook's later output is dropped) and
// exits 0.
func TestHookDeadlineFailsOpen(t *testing.T) {
	var out, errb bytes.Buffer
	e := &env{stdout: &out, stderr: &errb, ui: newUI(&out, &errb, "never"), color: "never"}
	release := make(chan struct{})
	defer close(release)
	start := time.Now()
	err := failOpenAfter(e, 50*time.Millisecond, func(e *env) error {
		<-release
		e.stdout.Write([]byte("late output\n"))
		return errRefused
	}, func(e *env, d time.Duration) { e.stdout.Write([]byte("gave up\n")) })
	if err != nil || time.Since(start) > 5*time.Second {
		t.Fatalf("failOpenAfter: %v after %v", err, time.Since(start))
	}
	if out.String() != "gave up\n" {
		t.Fatalf("stdout %q", out.String())
	}
	// A hook that returns in time is not touched; a panic fails open.
	if err := failOpenAfter(e, time.Minute, func(*env) error { return errFindings }, nil); err != errFindings {
		t.Fatalf("in time: %v", err)
	}
	if err := failOpenAfter(e, time.Minute, func(*env) error { panic("boom") }, nil); err != nil || !strings.Contains(errb.String(), "boom") {
		t.Fatalf("panic: %v %q", err, errb.String())
	}
	for _, ev := range []string{"session-start", "pre-tool-use", "post-tool-use", "stop"} {
		if d := hookDeadline("claude", ev); d <= 0 || d >= map[bool]time.Duration{true: 600 * time.Second, false: 30 * time.Second}[ev == "stop"] {
			t.Errorf("claude %s deadline %v is not below Claude Code's timeout", ev, d)
		}
	}
}

//go:build unix

package validate

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/prosewash/prosewash/internal/testtool"
)

func needSh(t *testing.T) {
	t.Helper()
	if _, err := os.Stat("/bin/sh"); err != nil {
		testtool.Missing(t, "sh", "/bin/sh not found: runner tests need a POSIX shell")
	}
}

// alive reports whether pid is a running (not zombie) process. A reaped
// or zombie process counts as gone: it can no longer do anything.
func alive(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return false
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return !errors.Is(err, os.ErrNotExist)
	}
	// The state follows the parenthesised command name.
	s := string(b)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
		return s[i+2] != 'Z' && s[i+2] != 'X'
	}
	return true
}

// waitGone polls until pid is gone; the kill is asynchronous to the
// kernel's reaping, so a short grace is allowed, not asserted as a time.
func waitGone(t *testing.T, pid int) {
	t.Helper()
	for i := 0; i < 200; i++ {
		if !alive(pid) {
			return
		}
		time.Sleep(25 * time.Millisecond)
	}
	syscall.Kill(pid, syscall.SIGKILL)
	t.Fatalf("process %d survived", pid)
}

func readPid(t *testing.T, path string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("the command did not write its grandchild's pid: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	return pid
}

func TestRunExitAndOutput(t *testing.T) {
	needSh(t)
	dir := t.TempDir()
	var started int
	res, err := Run(context.Background(), Command{
		Argv:    []string{"/bin/sh", "-c", "pwd; echo out; echo err >&2; exit 3"},
		Dir:     dir,
		OnStart: func(pid int) { started = pid },
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 3 || res.OK() || res.TimedOut {
		t.Errorf("result = %+v", res)
	}
	real, _ := filepath.EvalSymlinks(dir)
	if !strings.Contains(res.Tail, real) || !strings.Contains(res.Tail, "out\n") || !strings.Contains(res.Tail, "err\n") {
		t.Errorf("tail = %q; want pwd, stdout and stderr", res.Tail)
	}
	if res.Truncated {
		t.Error("short output marked truncated")
	}
	if started <= 0 {
		t.Error("OnStart was not called with a pid")
	}
	if res.Summary() != "exited 3" {
		t.Errorf("summary = %q", res.Summary())
	}
}

func TestRunNoShell(t *testing.T) {
	needSh(t)
	dir := t.TempDir()
	// Each operator is an argument to echo, never interpreted.
	res, err := Run(context.Background(), Command{Argv: []string{"echo", "a", "|", "b", ">", "f", ";", "$HOME"}, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if res.Tail != "a | b > f ; $HOME\n" {
		t.Errorf("tail = %q", res.Tail)
	}
	if _, err := os.Stat(filepath.Join(dir, "f")); err == nil {
		t.Error("a redirection was interpreted")
	}
}

func TestRunStartFailure(t *testing.T) {
	_, err := Run(context.Background(), Command{Argv: []string{"/nonexistent/prosewash-no-such-program"}})
	if err == nil {
		t.Fatal("starting a missing program succeeded")
	}
	if _, err := Run(context.Background(), Command{}); err == nil {
		t.Fatal("empty argv accepted")
	}
}

func TestRunTimeoutKillsProcessGroup(t *testing.T) {
	needSh(t)
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "grandchild.pid")
	// The shell starts a grandchild that would outlive it, records its
	// pid, then waits forever.
	script := "sleep 300 & echo $! > " + pidFile + "; echo started; wait"
	var leader int
	res, err := Run(context.Background(), Command{
		Argv:    []string{"/bin/sh", "-c", script},
		Dir:     dir,
		Timeout: 500 * time.Millisecond,
		OnStart: func(pid int) { leader = pid },
	})
	if err != nil {
		t.Fatal(err)
	}
	if !res.TimedOut || res.OK() || res.ExitCode != -1 {
		t.Fatalf("result = %+v; want timed out", res)
	}
	if !strings.Contains(res.Summary(), "timed out") {
		t.Errorf("summary = %q", res.Summary())
	}
	waitGone(t, leader)
	waitGone(t, readPid(t, pidFile))
}

func TestRunKillsStragglersAfterExit(t *testing.T) {
	needSh(t)
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "grandchild.pid")
	// The grandchild keeps the output pipe open; Run must neither hang on
	// it nor leave it running.
	res, err := Run(context.Background(), Command{
		Argv: []string{"/bin/sh", "-c", "sleep 300 & echo $! > " + pidFile + "; exit 0"},
		Dir:  dir,
	})
	if err != nil {
		t.Fatal(err)
	}
	if !res.OK() {
		t.Fatalf("result = %+v", res)
	}
	waitGone(t, readPid(t, pidFile))
}

func TestRunCanceled(t *testing.T) {
	needSh(t)
	ctx, cancel := context.WithCancel(context.Background())
	res, err := Run(ctx, Command{Argv: []string{"/bin/sh", "-c", "sleep 300"}, OnStart: func(int) { cancel() }})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Canceled || res.TimedOut || res.OK() {
		t.Errorf("result = %+v; want canceled", res)
	}
}

func TestRunOutputTail(t *testing.T) {
	needSh(t)
	// 3 x 5000 bytes of digits, then a marker: only the last 100 bytes stay.
	script := `i=0; while [ $i -lt 3 ]; do head -c 5000 /dev/zero | tr '\0' '7'; i=$((i+1)); done; printf END`
	res, err := Run(context.Background(), Command{Argv: []string{"/bin/sh", "-c", script}, TailSize: 100})
	if err != nil {
		t.Fatal(err)
	}
	if res.OutputBytes != 15003 || !res.Truncated || len(res.Tail) != 100 || !strings.HasSuffix(res.Tail, "7END") {
		t.Errorf("bytes=%d truncated=%v len(tail)=%d suffix=%q", res.OutputBytes, res.Truncated, len(res.Tail), res.Tail[max(0, len(res.Tail)-8):])
	}
}

func TestStripGitEnv(t *testing.T) {
	needSh(t)
	env := []string{"PATH=" + os.Getenv("PATH"), "GIT_DIR=/elsewhere/.git", "GIT_INDEX_FILE=/elsewhere/index", "GIT_WORK_TREE=/elsewhere", "GIT_AUTHOR_NAME=kept", "KEEP=1"}
	for _, strip := range []bool{false, true} {
		res, err := Run(context.Background(), Command{Argv: []string{"env"}, Env: env, StripGitEnv: strip})
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"GIT_DIR=", "GIT_INDEX_FILE=", "GIT_WORK_TREE="} {
			if got := strings.Contains(res.Tail, name); got == strip {
				t.Errorf("strip=%v: %s present=%v", strip, name, got)
			}
		}
		if !strings.Contains(res.Tail, "GIT_AUTHOR_NAME=kept") || !strings.Contains(res.Tail, "KEEP=1") {
			t.Errorf("strip=%v removed unrelated variables: %q", strip, res.Tail)
		}
	}
}

func TestRunRelativeProgramInDir(t *testing.T) {
	needSh(t)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "check.sh"), []byte("#!/bin/sh\necho checked\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), Command{Argv: []string{"./check.sh"}, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if !res.OK() || res.Tail != "checked\n" {
		t.Errorf("result = %+v", res)
	}
}

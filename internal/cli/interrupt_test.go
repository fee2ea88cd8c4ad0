//go:build unix

package cli

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/prosewash/prosewash/internal/testtool"
)

// SIGINT and SIGTERM end a command that is blocked where it cannot see
// the interrupt (here: reading a standard input nobody closes) at once,
// long before the hook's own 25 s deadline, with the interrupted status
// and one line saying so; stdout stays empty.
func TestInterruptEndsABlockedCommand(t *testing.T) {
	bin := testtool.LookPath(t, "prosewash", "testscript's prosewash on PATH")
	isolated(t)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		for _, args := range [][]string{{"hook", "claude", "session-start"}, {"hook", "codex", "stop"}, {"check", "-"}} {
			cmd := exec.Command(bin, args...)
			w, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			var out, errb bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errb
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			time.Sleep(300 * time.Millisecond) // blocked reading stdin
			start := time.Now()
			cmd.Process.Signal(sig)
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case err = <-done:
			case <-time.After(15 * time.Second):
				cmd.Process.Kill()
				t.Fatalf("%s %v: still running 15 s after %v", strings.Join(args, " "), sig, sig)
			}
			w.Close()
			t.Logf("%s %v: ended %v after the signal", strings.Join(args, " "), sig, time.Since(start).Round(time.Millisecond))
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != exitInterrupted {
				t.Errorf("%s %v: %v, want exit %d", strings.Join(args, " "), sig, err, exitInterrupted)
			}
			if out.Len() != 0 || !strings.Contains(errb.String(), "interrupted") {
				t.Errorf("%s %v: stdout %q stderr %q", strings.Join(args, " "), sig, out.String(), errb.String())
			}
		}
	}
}

// A command inside a transaction's critical work (it holds a lock) is
// waited for after the interrupt, so its files are put back; one that is
// not is left after the grace.
func TestInterruptWaitsOnlyForCriticalWork(t *testing.T) {
	for _, critical := range []bool{true, false} {
		var out, errb bytes.Buffer
		in := interruptible(newUI(&out, &errb, "never"), func() bool { return critical })
		release := make(chan struct{})
		go func() {
			time.Sleep(50 * time.Millisecond)
			in.sigs <- syscall.SIGINT
			time.Sleep(interruptGrace + 700*time.Millisecond)
			close(release)
		}()
		code := in.wait(func() int {
			<-in.ctx.Done() // the interrupt reached the command
			<-release       // which takes longer than the grace to finish
			return exitFindings
		})
		in.stop()
		if want := map[bool]int{true: exitFindings, false: exitInterrupted}[critical]; code != want {
			t.Errorf("critical=%v: exit %d, want %d (stderr %q)", critical, code, want, errb.String())
		}
	}
}

// A lazy interrupt catches no signal at first (os/signal's set-up is most
// of a quick hook's threads), catches them once armDelay has passed or
// once the command arms it, and never after stop.
func TestLazyInterruptCatchesLate(t *testing.T) {
	u := newUI(io.Discard, io.Discard, "never")
	caught := func(in *interrupt) bool {
		in.mu.Lock()
		defer in.mu.Unlock()
		return in.caught
	}
	in := lazyInterrupt(u, func() bool { return false })
	if caught(in) {
		t.Fatal("a lazy interrupt caught the signals at once")
	}
	deadline := time.Now().Add(10 * time.Second)
	for !caught(in) && time.Now().Before(deadline) {
		time.Sleep(armDelay / 5)
	}
	if !caught(in) {
		t.Error("a lazy interrupt did not catch the signals after its delay")
	}
	in.stop()

	in = lazyInterrupt(u, func() bool { return false })
	in.arm()
	if !caught(in) {
		t.Error("arm did not catch the signals at once")
	}
	in.stop()

	in = lazyInterrupt(u, func() bool { return false })
	in.stop()
	in.arm()
	time.Sleep(2 * armDelay)
	if caught(in) {
		t.Error("a stopped interrupt caught the signals")
	}
	(&env{}).armSignals() // no arm: a no-op, not a panic
}

// Main catches signals late only for agent hooks answered in process; an
// end of a turn arms the handling before the engine can run, and the
// other hooks never do.
func TestOnlyQuickHooksCatchLate(t *testing.T) {
	for args, want := range map[string]bool{
		"hook claude post-tool-use": true, "hook claude stop": true, "hook codex session-start": true,
		"hook git pre-commit": false, "hook claude": false, "hook claude stop --help": false,
		"clean .": false, "version": false, "hook nosuch stop": false,
	} {
		if got := agentHookInProcess(strings.Fields(args)); got != want {
			t.Errorf("%s: late %v, want %v", args, got, want)
		}
	}
	t.Setenv(envWorker, "1")
	if agentHookInProcess(strings.Fields("hook claude stop")) {
		t.Error("a hook's worker catches signals late")
	}
	t.Setenv(envWorker, "")
	isolated(t)
	for event, want := range map[string]bool{"stop": true, "post-tool-use": false, "session-start": false} {
		armed := false
		var out bytes.Buffer
		e := &env{ctx: context.Background(), arm: func() { armed = true }, stdin: strings.NewReader("{}"), stdout: &out, stderr: io.Discard, ui: newUI(io.Discard, io.Discard, "never")}
		if err := runHook(e, []string{"claude", event}); err != nil {
			t.Fatalf("%s: %v", event, err)
		}
		if armed != want {
			t.Errorf("%s: armed %v, want %v", event, armed, want)
		}
	}
}

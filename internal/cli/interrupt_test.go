//go:build unix

package cli

import (
	"bytes"
	"errors"
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

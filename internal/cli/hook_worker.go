package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"github.com/prosewash/prosewash/internal/engine/iox"
	"github.com/prosewash/prosewash/internal/engine/session"
	"github.com/prosewash/prosewash/internal/engine/txn"
	"github.com/prosewash/prosewash/internal/hooks/agent"
)

// envWorker marks the process that does a hook's heavy work for a parent
// that only maps its outcome.
const envWorker = "PROSEWASH_HOOK_WORKER"

// failHookFatal, as PROSEWASH_FAILPOINT, makes a hook's worker die of a
// Go fatal error (a stack overflow) where its work starts: what the
// parent must turn into the fail-open answer. For tests, like every
// failpoint.
const failHookFatal = "hook-fatal"

// inWorker reports whether a hook runs its work in a child prosewash. The
// end of a turn and the git pre-commit hook run the whole engine
// (third-party parsers included) on files an agent wrote. A Go fatal
// error there (a stack overflow, running out of memory) cannot be
// recovered in process: it prints a trace and exits 2, which blocks a
// Claude Code tool call or fails 'git commit'. So those hooks run their
// work in a child prosewash and map whatever becomes of it to the hook's
// contract. The other hooks are cheap and stay in process: a child costs
// one more process start (about the 2.7 ms of 'prosewash version', on a
// 3.5 ms post-tool-use), which every tool call would pay.
func inWorker(target, event string) bool {
	if os.Getenv(envWorker) != "" {
		return false
	}
	// Only a binary that is prosewash can be started as one (a test
	// binary running Main in process does its work in process).
	if b := strings.TrimSuffix(filepath.Base(self()), ".exe"); b != "prosewash" {
		return false
	}
	if target == "git" {
		return event == "pre-commit"
	}
	p, ok := agent.Lookup(target)
	if !ok {
		return false
	}
	ev, _ := p.Event(event)
	return ev.Kind == agent.TurnEnd
}

// workerFatal kills the worker with a real Go fatal error when the
// failpoint says so.
func workerFatal() {
	if os.Getenv(envWorker) == "" || os.Getenv(txn.EnvFailpoint) != failHookFatal {
		return
	}
	debug.SetMaxStack(1 << 20)
	var deeper func(int) int
	deeper = func(n int) int { return deeper(n+1) + 1 }
	deeper(0)
}

// worker is one hook run in a child prosewash.
type worker struct {
	args   []string
	stdin  io.Reader
	stdout iox.Limited
	stderr iox.Limited
	err    error // how the child ended; nil for exit 0
	code   int   // its exit status; -1 when a signal ended it
}

// runWorker runs 'prosewash hook ARGS' as a child with stdin, and gives
// it until d (then SIGINT, which rolls back what it started, and SIGKILL
// three seconds later).
func runWorker(ctx context.Context, color bool, args []string, stdin io.Reader, d time.Duration) *worker {
	w := &worker{args: args, stdin: stdin, stdout: iox.Limited{Max: agent.MaxInput}, stderr: iox.Limited{Max: 1 << 20}}
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	mode := map[bool]string{true: "always", false: "never"}[color]
	cmd := exec.CommandContext(ctx, self(), append([]string{"--color=" + mode, "hook"}, args...)...)
	cmd.Env = append(os.Environ(), envWorker+"=1")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, &w.stdout, &w.stderr
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 3 * time.Second
	w.err = cmd.Run()
	w.code = -1
	if cmd.ProcessState != nil {
		w.code = cmd.ProcessState.ExitCode()
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		w.err = gaveUp(d)
	}
	return w
}

// failure says how the child failed, in one line: its exit, and the line
// of its standard error that names the cause (a Go fatal error's, a
// panic's), never the trace.
func (w *worker) failure() error {
	var ee *exec.ExitError
	if w.err != nil && !errors.As(w.err, &ee) {
		return w.err // it did not start, or it gave up at the deadline
	}
	how := fmt.Sprintf("exit status %d", w.code)
	switch {
	case w.code == -1:
		how = "killed by a signal"
	case w.code == 0:
		how = "printed what a hook may not print"
	}
	if cause := crashLine(w.stderr.Bytes()); cause != "" && w.code != 0 {
		how += ": " + cause
	}
	return fmt.Errorf("internal error: its worker process ended (%s)", how)
}

// crashLine picks the line of a dead process's stderr that says why.
func crashLine(b []byte) string {
	lines := strings.Split(string(b), "\n")
	for _, l := range lines {
		for _, p := range []string{"fatal error:", "panic:", "runtime: out of memory"} {
			if strings.HasPrefix(l, p) {
				return l
			}
		}
	}
	for _, l := range lines {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "goroutine ") {
			return l
		}
	}
	return ""
}

// hookAgentInChild runs an agent hook's work in a child and passes its
// answer on only when it kept the platform's contract: exit 0 and on
// stdout nothing, the no-opinion answer or one JSON document on one line.
// Anything else is the platform's fail-open answer naming the failure.
func hookAgentInChild(e *env, p agent.Platform, event string, d time.Duration) error {
	data, err := io.ReadAll(io.LimitReader(e.stdin, agent.MaxInput+1))
	if err != nil {
		p.Write(e.stdout, e.stderr, p.FailOpen(event, fmt.Errorf("read hook input: %w", err)))
		return nil
	}
	if env := agentEnv(); !p.RunsEngine(&env, event, data) {
		// Nothing for the engine (no file recorded, or manual mode): a
		// worker would only double the process start. Files recorded
		// after this look wait for the next turn.
		env.Clean = session.DeferEngine
		inner := *e
		inner.stdin = bytes.NewReader(data)
		return hookAgentInProcess(&inner, p, event, env)
	}
	e.armSignals() // a signal now interrupts the worker, which rolls back
	w := runWorker(e.ctx, e.ui.colour, []string{p.Name, event}, bytes.NewReader(data), d)
	if w.err == nil && !w.stdout.Overflowed() && !w.stderr.Overflowed() && keepsContract(p, w.stdout.Bytes()) {
		_, _ = e.stdout.Write(w.stdout.Bytes())
		_, _ = e.stderr.Write(w.stderr.Bytes())
		return nil
	}
	if e.ctx.Err() != nil {
		return nil // interrupted: the child rolled back; main says so
	}
	p.Write(e.stdout, e.stderr, p.FailOpen(event, w.failure()))
	return nil
}

func jsonObject(b []byte) bool {
	var m map[string]json.RawMessage
	return json.Unmarshal(b, &m) == nil
}

// keepsContract reports whether b is what a platform's hook may print.
func keepsContract(p agent.Platform, b []byte) bool {
	if len(b) == 0 || string(b) == p.NoOpinion+"\n" {
		return true
	}
	return bytes.Count(b, []byte("\n")) == 1 && bytes.HasSuffix(b, []byte("\n")) && jsonObject(b)
}

// hookGitInChild runs the git pre-commit hook's work in a child: its
// statuses pass through (0, and 1 for files it cleaned that need staging),
// as do its messages; any other end is a warning and exit 0, so a
// crashing prosewash never fails a commit.
func hookGitInChild(e *env, args []string, d time.Duration) error {
	w := runWorker(e.ctx, e.ui.colour, append([]string{"git"}, args...), e.stdin, d)
	if w.err == nil || w.code == exitFindings {
		_, _ = e.stdout.Write(w.stdout.Bytes())
		_, _ = e.stderr.Write(w.stderr.Bytes())
		if w.code == exitFindings {
			return &exitError{code: exitFindings}
		}
		return nil
	}
	if e.ctx.Err() != nil {
		_, _ = e.stderr.Write(w.stderr.Bytes())
		return nil
	}
	e.ui.warnf("%s hook skipped: %v (fail open); run 'prosewash status' to see why", args[0], w.failure())
	return nil
}

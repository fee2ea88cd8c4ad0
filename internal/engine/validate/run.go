package validate

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/prosewash/prosewash/internal/engine/iox"
)

// DefaultTailSize is how much of a command's output a result keeps: the
// last bytes, where test runners print their verdict.
const DefaultTailSize = 4096

// readerGrace bounds how long Run waits for the output pipe to drain after
// the command and its process group are gone; a process that escaped the
// group (setsid) must not hold the run hostage.
const readerGrace = 2 * time.Second

// gitRepoEnv are the variables git sets in hooks that redirect any git
// command to the hooked repository (the list printed by
// "git rev-parse --local-env-vars"). A validation command that runs git in
// a scratch repository must not inherit them.
var gitRepoEnv = [...]string{
	"GIT_ALTERNATE_OBJECT_DIRECTORIES",
	"GIT_CONFIG",
	"GIT_CONFIG_PARAMETERS",
	"GIT_CONFIG_COUNT",
	"GIT_OBJECT_DIRECTORY",
	"GIT_DIR",
	"GIT_WORK_TREE",
	"GIT_IMPLICIT_WORK_TREE",
	"GIT_GRAFT_FILE",
	"GIT_INDEX_FILE",
	"GIT_NO_REPLACE_OBJECTS",
	"GIT_REPLACE_REF_BASE",
	"GIT_PREFIX",
	"GIT_INTERNAL_SUPER_PREFIX",
	"GIT_SHALLOW_FILE",
	"GIT_COMMON_DIR",
}

// Command is one subprocess: argv run without a shell.
type Command struct {
	Argv []string
	// Dir is the working directory, normally the project root. A relative
	// program path ("./check.sh") is resolved against it.
	Dir string
	// Env is the environment; nil inherits the current process's.
	Env []string
	// StripGitEnv removes the variables that would redirect git to the
	// hooked repository (set it when running from a git hook).
	StripGitEnv bool
	// Timeout kills the whole process group when it expires; zero means
	// only ctx bounds the command.
	Timeout time.Duration
	// TailSize is how many trailing bytes of output to keep; zero means
	// DefaultTailSize.
	TailSize int
	// OnStart is called with the process id once the command has started
	// and before Run waits for it.
	OnStart func(pid int)
}

// CommandResult is what a finished command left behind.
type CommandResult struct {
	Argv []string
	// ExitCode is the exit status, or -1 when the process was killed by a
	// signal (including the timeout).
	ExitCode int
	TimedOut bool
	// Canceled is set when the caller's context ended the command.
	Canceled bool
	// Tail is the end of the combined stdout and stderr, at most TailSize
	// bytes, starting at a character boundary.
	Tail string
	// Truncated says output was dropped before Tail.
	Truncated   bool
	OutputBytes int64
	Duration    time.Duration
}

// OK reports whether the command exited 0 on its own.
func (r CommandResult) OK() bool { return r.ExitCode == 0 && !r.TimedOut && !r.Canceled }

// Summary is a one-line description without the output.
func (r CommandResult) Summary() string {
	switch {
	case r.TimedOut:
		return fmt.Sprintf("timed out after %s and was killed", r.Duration.Round(time.Millisecond))
	case r.Canceled:
		return "canceled"
	case r.ExitCode == 0:
		return "exited 0"
	case r.ExitCode < 0:
		return "killed by a signal"
	}
	return fmt.Sprintf("exited %d", r.ExitCode)
}

// Run runs c in its own process group and waits for it. The error is
// non-nil only when the command could not be started; a non-zero exit or a
// timeout is reported in the result. Any process the command leaves behind
// in its group is killed when it exits, so a validation never leaks
// processes.
func Run(ctx context.Context, c Command) (CommandResult, error) {
	res := CommandResult{Argv: append([]string(nil), c.Argv...), ExitCode: -1}
	if len(c.Argv) == 0 || c.Argv[0] == "" {
		return res, errors.New("run command: empty argv")
	}
	runCtx, cancel := ctx, context.CancelFunc(func() {})
	if c.Timeout > 0 {
		runCtx, cancel = context.WithTimeout(ctx, c.Timeout)
	}
	defer cancel()

	cmd := exec.CommandContext(runCtx, c.Argv[0], c.Argv[1:]...)
	cmd.Dir = c.Dir
	cmd.Env = commandEnv(c.Env, c.StripGitEnv)
	g := newGroup(cmd)
	defer g.close()
	cmd.Cancel = g.kill

	pr, pw, err := os.Pipe()
	if err != nil {
		return res, fmt.Errorf("run %s: %w", c.Argv[0], err)
	}
	cmd.Stdout, cmd.Stderr = pw, pw
	tailSize := c.TailSize
	if tailSize <= 0 {
		tailSize = DefaultTailSize
	}
	tail := iox.NewTail(tailSize)
	start := time.Now()
	err = cmd.Start()
	pw.Close()
	if err != nil {
		pr.Close()
		return res, fmt.Errorf("run %s: %w", c.Argv[0], err)
	}
	g.started(cmd)
	done := make(chan struct{})
	go func() {
		io.Copy(tail, pr)
		close(done)
	}()
	if c.OnStart != nil {
		c.OnStart(cmd.Process.Pid)
	}
	_ = cmd.Wait() // the outcome is read from ProcessState and the contexts
	res.Duration = time.Since(start)
	_ = g.kill() // stragglers left in the group; usually there are none
	select {
	case <-done:
	case <-time.After(readerGrace):
	}
	pr.Close()

	if st := cmd.ProcessState; st != nil {
		res.ExitCode = st.ExitCode()
	}
	if res.ExitCode != 0 {
		switch {
		case ctx.Err() != nil:
			res.Canceled = true
		case runCtx.Err() != nil:
			res.TimedOut = true
		}
	}
	res.Tail, res.Truncated, res.OutputBytes = tail.Result()
	return res, nil
}

// commandEnv returns the environment for a command.
func commandEnv(env []string, stripGit bool) []string {
	if env == nil {
		env = os.Environ()
	}
	if !stripGit {
		return env
	}
	out := make([]string, 0, len(env))
outer:
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		for _, g := range gitRepoEnv {
			// Windows names are case-insensitive; on Unix a lower-case
			// twin is never git's, so dropping it too costs nothing.
			if strings.EqualFold(name, g) {
				continue outer
			}
		}
		out = append(out, kv)
	}
	return out
}

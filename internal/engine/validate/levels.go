package validate

import (
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// RunOptions say how a plan's commands run.
type RunOptions struct {
	// Dir is the project root; every command runs there.
	Dir string
	// Timeout is validation_timeout, applied to each command.
	Timeout time.Duration
	// Env is the environment; nil inherits the current process's.
	Env []string
	// StripGitEnv removes the variables that redirect git; set it when
	// running inside a git hook.
	StripGitEnv bool
	// TailSize is how much output to keep per command; zero means
	// DefaultTailSize.
	TailSize int
	// OnStart is called once each command has started; the transaction
	// engine places a failpoint there.
	OnStart func(l Level, pid int)
	// Watch lists files the commands must not modify (the candidates just
	// installed). A command that changes one fails: a validation that
	// rewrites files would defeat the compare-and-swap rollback.
	Watch []string
}

// StepResult is the outcome of one plan step.
type StepResult struct {
	Level  Level
	Argv   []string
	Status Status
	Reason string
	// Command is nil when the step did not run.
	Command *CommandResult
}

// Outcome is the result of running a plan.
type Outcome struct {
	Plan   Plan
	Steps  []StepResult
	Status Status // OK when every step that ran passed, else Failed
}

// RunPlan runs the plan's commands, weakest level first, and stops at the
// first failure. Steps whose command is not configured are reported as
// unchecked and not run.
func RunPlan(ctx context.Context, p Plan, o RunOptions) Outcome {
	out := Outcome{Plan: p, Status: OK}
	for _, st := range p.Steps {
		sr := StepResult{Level: st.Level, Argv: st.Argv}
		switch {
		case out.Status == Failed:
			sr.Status, sr.Reason = Unchecked, "not run: an earlier level failed"
		case len(st.Argv) == 0:
			sr.Status, sr.Reason = Unchecked, fmt.Sprintf("not configured (%s); unchecked", st.Level.ConfigKey())
		default:
			sr = runStep(ctx, st, o)
			if sr.Status == Failed {
				out.Status = Failed
			}
		}
		out.Steps = append(out.Steps, sr)
	}
	return out
}

func runStep(ctx context.Context, st Step, o RunOptions) StepResult {
	sr := StepResult{Level: st.Level, Argv: st.Argv}
	before := hashFiles(o.Watch)
	c := Command{
		Argv:        st.Argv,
		Dir:         o.Dir,
		Env:         o.Env,
		StripGitEnv: o.StripGitEnv,
		Timeout:     o.Timeout,
		TailSize:    o.TailSize,
	}
	if o.OnStart != nil {
		c.OnStart = func(pid int) { o.OnStart(st.Level, pid) }
	}
	res, err := Run(ctx, c)
	if err != nil {
		sr.Status, sr.Reason = Failed, fmt.Sprintf("%s command could not start: %v", st.Level, err)
		return sr
	}
	sr.Command = &res
	if changed := changedFiles(o.Watch, before, hashFiles(o.Watch)); len(changed) > 0 {
		sr.Status = Failed
		sr.Reason = fmt.Sprintf("%s command modified %s", st.Level, strings.Join(changed, ", "))
		if st.Level == Format {
			sr.Reason += ": the format level must only check; configure a check mode (e.g. prettier --check, or gofmt -l in a script that fails when it lists files)"
		}
		return sr
	}
	if !res.OK() {
		sr.Status = Failed
		sr.Reason = fmt.Sprintf("%s command %s", st.Level, res.Summary())
		return sr
	}
	sr.Status, sr.Reason = OK, fmt.Sprintf("%s command exited 0", st.Level)
	return sr
}

// hashFiles fingerprints files; a file that cannot be read hashes to a
// fixed marker so that disappearing or appearing counts as a change.
func hashFiles(paths []string) []string {
	sums := make([]string, len(paths))
	for i, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			sums[i] = "unreadable"
			continue
		}
		h := sha256.New()
		_, err = io.Copy(h, f)
		f.Close()
		if err != nil {
			sums[i] = "unreadable"
			continue
		}
		sums[i] = fmt.Sprintf("%x", h.Sum(nil))
	}
	return sums
}

func changedFiles(paths, before, after []string) []string {
	var out []string
	for i := range paths {
		if before[i] != after[i] {
			out = append(out, paths[i])
		}
	}
	return out
}

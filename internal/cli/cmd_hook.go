package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/prosewash/prosewash/internal/engine/report"
	"github.com/prosewash/prosewash/internal/engine/session"
	"github.com/prosewash/prosewash/internal/engine/txn"
	"github.com/prosewash/prosewash/internal/hooks/agent"
	githooks "github.com/prosewash/prosewash/internal/hooks/git"
	"github.com/prosewash/prosewash/internal/pipelines"
	"github.com/prosewash/prosewash/internal/providers"
)

const hookHelp = `Entry points for hooks; 'prosewash install' wires them up.

  prosewash hook claude session-start|pre-tool-use|post-tool-use|instructions-loaded|subagent-start|stop
      Claude Code hooks: read the hook JSON on standard input, answer in JSON on
      standard output (or print nothing) and always exit 0; a problem becomes one
      systemMessage line, never a blocked session. instructions-loaded records the
      memory files the session really loaded (the gauge prefers them), subagent-start
      (and post-tool-use on Agent|Task) counts the subagents that carry them again.
  prosewash hook codex session-start|user-prompt-submit|pre-tool-use|post-tool-use|stop
  prosewash hook gemini session-start|before-agent|before-tool|after-tool|after-agent
  prosewash hook cursor session-start|after-file-edit|after-shell-execution|stop
  prosewash hook copilot session-start|post-tool-use|agent-stop
  prosewash hook qwen session-start|user-prompt-submit|pre-tool-use|post-tool-use|stop
  prosewash hook opencode session-start|tool-before|tool-after|idle
      the same for OpenAI Codex CLI, Gemini CLI, Cursor, GitHub Copilot CLI, Qwen
      Code and opencode (called by the plugin install writes for it), each in
      its own protocol: the files the agent wrote are recorded for its session, the
      end of a turn acts by mode, and any problem fails open.
  prosewash hook git pre-commit [--session ID]
      cleans the staged files the session wrote (unchanged since); exits 1 listing
      them when it changed any, so you review and 'git add' them; reports carriers in
      code, strings and directives of staged files without failing.
  prosewash hook git post-checkout OLD NEW FLAG
      (or PRE_COMMIT_FROM_REF, PRE_COMMIT_TO_REF, PRE_COMMIT_CHECKOUT_TYPE) warns about
      an interrupted run and marks recorded files the checkout replaced; never fails.`

// hookSynopsis is the hook command's usage line: every platform of the
// hook table, then git.
func hookSynopsis() string {
	var names []string
	for _, p := range agent.Platforms() {
		names = append(names, p.Name)
	}
	return strings.Join(names, "|") + " EVENT | git EVENT [ARGS]"
}

func runHook(e *env, args []string) error {
	if len(args) < 2 {
		return usagef("hook needs a target and an event: hook claude EVENT | hook git EVENT")
	}
	target, event := args[0], args[1]
	if target == "git" {
		var run func(e *env) error
		switch event {
		case "pre-commit":
			if _, err := preCommitFlags(args[2:]); err != nil {
				return err
			}
			if inWorker(target, event) {
				return hookGitInChild(e, args[1:], hookDeadline(target, event)+10*time.Second)
			}
			run = func(e *env) error { return hookPreCommit(e, args[2:]) }
		case "post-checkout":
			run = func(e *env) error { hookPostCheckout(e, args[2:]); return nil }
		default:
			return usagef("unknown git hook %q (want pre-commit or post-checkout)", event)
		}
		return failOpenAfter(e, hookDeadline(target, event), run, func(e *env, d time.Duration) {
			e.ui.warnf("%s hook gave up after %v and did nothing more (fail open); run 'prosewash status' to see why", event, d)
		})
	}
	p, ok := agent.Lookup(target)
	if !ok {
		return usagef("unknown hook target %q (want %s or git)", target, strings.Join(platformNames(), ", "))
	}
	if inWorker(target, event) {
		return hookAgentInChild(e, p, event, hookDeadline(target, event)+10*time.Second)
	}
	if ev, _ := p.Event(event); ev.Kind == agent.TurnEnd {
		e.armSignals() // the engine may run here: a signal rolls it back
	}
	return hookAgentInProcess(e, p, event, agentEnv())
}

// agentHookInProcess reports whether args are an agent hook that Main may
// answer without catching signals at first ([lazyInterrupt]): any agent
// hook but a worker's, whose work is the engine's. Of the others, only
// an end of a turn may run a transaction, and it arms the handling
// first (runHook, hookAgentInChild).
func agentHookInProcess(args []string) bool {
	if len(args) < 3 || args[0] != "hook" || wantsHelp(args[1:]) || os.Getenv(envWorker) != "" {
		return false
	}
	_, ok := agent.Lookup(args[1])
	return ok
}

// hookAgentInProcess runs an agent hook in this process: only the
// platform's JSON on standard output, always exit 0.
func hookAgentInProcess(e *env, p agent.Platform, event string, senv session.Env) error {
	return failOpenAfter(e, hookDeadline(p.Name, event), func(e *env) error {
		workerFatal()
		p.Write(e.stdout, e.stderr, p.Run(e.ctx, &senv, event, e.stdin))
		return nil
	}, func(e *env, d time.Duration) {
		p.Write(e.stdout, e.stderr, p.FailOpen(event, gaveUp(d)))
	})
}

// platformNames lists the agent platforms' hook targets.
func platformNames() []string {
	var out []string
	for _, p := range agent.Platforms() {
		out = append(out, p.Name)
	}
	return out
}

// agentEnv is what every agent hook is given.
func agentEnv() session.Env {
	home, _ := os.UserHomeDir()
	return session.Env{
		Getenv: os.Getenv, Home: home, Self: self(), Version: Version(),
		ShippedProviders: providers.Definitions(), ShippedPipelines: pipelines.Definitions(),
	}
}

// gaveUp is the error a hook fails open with when its deadline passes.
func gaveUp(d time.Duration) error {
	return fmt.Errorf("gave up after %v and did nothing more (fail open); run 'prosewash status' to see why", d)
}

// hookDeadline is how long a hook may take before it gives up and fails
// open: below the timeout the agent is given in the configuration install
// writes (30 s, and 600 s for the end of a turn, which may run validation
// commands), so prosewash ends itself rather than being killed; git has no
// timeout at all, so a hanging hook would hang 'git commit' and 'git
// checkout'.
func hookDeadline(target, event string) time.Duration {
	long := target == "git" && event == "pre-commit"
	if p, ok := agent.Lookup(target); ok {
		ev, _ := p.Event(event)
		long = ev.Kind == agent.TurnEnd
	}
	if long {
		return 570 * time.Second
	}
	return 25 * time.Second
}

// failOpenAfter runs a hook and gives up on it after d: whatever it is
// blocked on (a FIFO, a stuck filesystem, a stdin never closed), the hook
// reports that it gave up through onTimeout and the process exits 0, as a
// hook must. The abandoned hook's later output is discarded, so the agent
// or git reads exactly one answer. A panic in the hook is reported and
// fails open too. Giving up in the middle of a transaction is like a kill:
// the journal stays and the next run says to run 'prosewash recover'.
func failOpenAfter(e *env, d time.Duration, hook func(*env) error, onTimeout func(*env, time.Duration)) error {
	out, errOut := &cutoff{w: e.stdout}, &cutoff{w: e.stderr}
	inner := *e
	inner.stdout, inner.stderr = out, errOut
	inner.ui = newUI(out, errOut, e.color)
	done := make(chan error, 1)
	go func() {
		defer func() {
			if v := recover(); v != nil {
				inner.ui.warnf("hook skipped: internal error: %v", v)
				done <- nil
			}
		}()
		done <- hook(&inner)
	}()
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case err := <-done:
		return err
	case <-timer.C:
		out.close()
		errOut.close()
		onTimeout(e, d)
		return nil
	}
}

// cutoff passes writes through until it is closed, then drops them.
type cutoff struct {
	mu     sync.Mutex
	w      io.Writer
	closed bool
}

func (g *cutoff) Write(p []byte) (int, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return len(p), nil
	}
	return g.w.Write(p)
}

func (g *cutoff) close() {
	g.mu.Lock()
	g.closed = true
	g.mu.Unlock()
}

func gitHookOptions(e *env, session string) (githooks.Options, error) {
	p, err := openProject(e)
	if err != nil {
		return githooks.Options{}, err
	}
	if err := loadConfig(e, p); err != nil {
		return githooks.Options{}, err
	}
	return githooks.Options{Project: p, Session: session, Getenv: os.Getenv, Self: self(), Version: Version()}, nil
}

// preCommitFlags reads the pre-commit hook's flags: its --session.
func preCommitFlags(args []string) (string, error) {
	fs := newFlags("hook git pre-commit")
	session := fs.String("session", "", "")
	_, err := parseFlags(fs, args)
	return *session, err
}

// hookPreCommit fails the commit only when it cleaned staged files; any
// other problem is a warning, so a broken prosewash never blocks commits.
func hookPreCommit(e *env, args []string) (err error) {
	defer func() {
		if v := recover(); v != nil {
			e.ui.warnf("pre-commit hook skipped: internal error: %v", v)
			err = nil
		}
	}()
	workerFatal()
	session, err := preCommitFlags(args)
	if err != nil {
		return err
	}
	o, oerr := gitHookOptions(e, session)
	if oerr != nil {
		e.ui.warnf("pre-commit hook skipped: %v", oerr)
		return nil
	}
	var res *githooks.PreCommitResult
	res, err = githooks.PreCommit(e.ctx, o)
	var pend *txn.PendingError
	switch {
	case errors.As(err, &pend):
		e.ui.warnf("pre-commit hook cleaned nothing: %v", err)
		return nil
	case err != nil:
		e.ui.warnf("pre-commit hook skipped: %v", err)
		return nil
	}
	for _, s := range res.Skipped {
		e.ui.infof("skipped %s: %s", report.Quote(s.Path), s.Reason)
	}
	if res.SurveyErr != nil {
		e.ui.warnf("could not survey the staged files for carriers: %v", res.SurveyErr)
		res.Survey = nil
	}
	for _, r := range []*report.Run{res.Run, res.Survey} {
		if r == nil {
			continue
		}
		for _, l := range r.Lines(true) {
			e.ui.warnf("%s", l.Text)
		}
	}
	if res.Survey != nil {
		skipped := map[string]bool{}
		for _, s := range res.Skipped {
			skipped[s.Path] = true
		}
		for _, f := range res.Survey.Files {
			if f.Status == report.WouldChange && !skipped[f.Path] {
				e.ui.infof("%s has carriers in its prose but was not written in this session; 'prosewash clean %s' removes them", report.Quote(f.Path), report.Quote(f.Path))
			}
		}
	}
	if len(res.Changed) == 0 {
		return nil
	}
	e.ui.errorf("cleaned invisible carriers from %s this agent session wrote; review, 'git add' and commit again:", report.Count(len(res.Changed), "staged file"))
	for _, f := range res.Run.Files {
		if f.Status == report.Cleaned {
			e.ui.infof("  %s (%s removed from prose)", report.Quote(f.Path), report.Count(f.Removed(), "carrier"))
		}
	}
	return &exitError{code: exitFindings}
}

// hookPostCheckout never fails the checkout.
func hookPostCheckout(e *env, args []string) {
	defer func() {
		if v := recover(); v != nil {
			e.ui.warnf("post-checkout hook skipped: internal error: %v", v)
		}
	}()
	var oldRef, newRef, flag string
	switch {
	case len(args) >= 3:
		oldRef, newRef, flag = args[0], args[1], args[2]
	case len(args) == 0:
		// Run by the pre-commit framework, which passes no arguments.
		oldRef, newRef, flag = os.Getenv("PRE_COMMIT_FROM_REF"), os.Getenv("PRE_COMMIT_TO_REF"), os.Getenv("PRE_COMMIT_CHECKOUT_TYPE")
	default:
		e.ui.warnf("post-checkout hook skipped: want OLD NEW FLAG, got %s", strings.Join(args, " "))
		return
	}
	o, err := gitHookOptions(e, "")
	if err != nil {
		e.ui.warnf("post-checkout hook skipped: %v", err)
		return
	}
	res, err := githooks.PostCheckout(e.ctx, o, oldRef, newRef, flag)
	if res != nil && len(res.Interrupted) > 0 {
		e.ui.warnf("an interrupted run (%s) is pending; run 'prosewash recover' before anything is cleaned", strings.Join(res.Interrupted, ", "))
	}
	if err != nil {
		e.ui.warnf("post-checkout hook: %v", err)
		return
	}
	if res.Marked > 0 {
		e.ui.infof("%d recorded file%s replaced by the checkout; the session's clean leaves %s alone", res.Marked, plural(res.Marked), map[bool]string{true: "it", false: "them"}[res.Marked == 1])
	}
}

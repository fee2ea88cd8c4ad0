package cli

import (
	"errors"
	"os"
	"strings"

	"github.com/prosewash/prosewash/engine/report"
	"github.com/prosewash/prosewash/engine/txn"
	"github.com/prosewash/prosewash/hooks/agent"
	"github.com/prosewash/prosewash/hooks/claude"
	"github.com/prosewash/prosewash/hooks/codex"
	"github.com/prosewash/prosewash/hooks/copilot"
	"github.com/prosewash/prosewash/hooks/cursor"
	"github.com/prosewash/prosewash/hooks/gemini"
	githooks "github.com/prosewash/prosewash/hooks/git"
	"github.com/prosewash/prosewash/pipelines"
	"github.com/prosewash/prosewash/providers"
)

const hookHelp = `Entry points for hooks; 'prosewash install' wires them up.

  prosewash hook claude session-start|pre-tool-use|post-tool-use|stop
      Claude Code hooks: read the hook JSON on standard input, answer in JSON on
      standard output (or print nothing) and always exit 0; a problem becomes one
      systemMessage line, never a blocked session.
  prosewash hook codex session-start|user-prompt-submit|post-tool-use|stop
  prosewash hook gemini session-start|before-agent|after-tool|after-agent
  prosewash hook cursor session-start|after-file-edit|stop
  prosewash hook copilot session-start|post-tool-use|agent-stop
      the same for OpenAI Codex CLI, Gemini CLI, Cursor and GitHub Copilot CLI,
      each in its own protocol: the files the agent wrote are recorded for its
      session, the end of a turn acts by mode, and any problem fails open.
  prosewash hook git pre-commit [--session ID]
      cleans the staged files the session wrote (unchanged since); exits 1 listing
      them when it changed any, so you review and 'git add' them; reports carriers in
      code, strings and directives of staged files without failing.
  prosewash hook git post-checkout OLD NEW FLAG
      (or PRE_COMMIT_FROM_REF, PRE_COMMIT_TO_REF, PRE_COMMIT_CHECKOUT_TYPE) warns about
      an interrupted run and marks recorded files the checkout replaced; never fails.`

func runHook(e *env, args []string) error {
	if len(args) < 2 {
		return usagef("hook needs a target and an event: hook claude EVENT | hook git EVENT")
	}
	switch args[0] {
	case "claude":
		return hookClaude(e, args[1])
	case "codex", "gemini", "cursor", "copilot":
		hookAgent(e, args[0], args[1])
		return nil
	case "git":
		switch args[1] {
		case "pre-commit":
			return hookPreCommit(e, args[2:])
		case "post-checkout":
			hookPostCheckout(e, args[2:])
			return nil
		}
		return usagef("unknown git hook %q (want pre-commit or post-checkout)", args[1])
	}
	return usagef("unknown hook target %q (want claude, codex, gemini, cursor, copilot or git)", args[0])
}

// agentEnv is what every agent adapter is given.
func agentEnv() agent.Env {
	home, _ := os.UserHomeDir()
	return agent.Env{
		Getenv: os.Getenv, Home: home, Self: self(), Version: Version(),
		ShippedProviders: providers.Definitions(), ShippedPipelines: pipelines.Definitions(),
	}
}

// hookAgent answers one event of another agent's hooks: only its JSON on
// standard output, always exit 0.
func hookAgent(e *env, platform, event string) {
	ae := agentEnv()
	var err error
	switch platform {
	case "codex":
		err = codex.WriteOutput(e.stdout, (&codex.Runner{Env: ae}).Run(e.ctx, event, e.stdin))
	case "gemini":
		err = gemini.WriteOutput(e.stdout, (&gemini.Runner{Env: ae}).Run(e.ctx, event, e.stdin))
	case "cursor":
		err = cursor.WriteOutput(e.stdout, (&cursor.Runner{Env: ae}).Run(e.ctx, event, e.stdin))
	case "copilot":
		err = copilot.WriteOutput(e.stdout, (&copilot.Runner{Env: ae, Stderr: e.stderr}).Run(e.ctx, event, e.stdin))
	}
	// A failed write means standard output is gone; nobody is left to tell.
	_ = err
}

// hookClaude prints only JSON on standard output and always exits 0.
func hookClaude(e *env, event string) error {
	ae := agentEnv()
	r := &claude.Runner{
		Getenv: ae.Getenv, Home: ae.Home, Self: ae.Self, Version: ae.Version,
		ShippedProviders: ae.ShippedProviders, ShippedPipelines: ae.ShippedPipelines,
	}
	out := r.Run(e.ctx, event, e.stdin)
	if err := claude.WriteOutput(e.stdout, out); err != nil {
		// Standard output is gone; there is nobody left to tell.
		return &exitError{code: exitOK}
	}
	return nil
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

// hookPreCommit fails the commit only when it cleaned staged files; any
// other problem is a warning, so a broken prosewash never blocks commits.
func hookPreCommit(e *env, args []string) (err error) {
	defer func() {
		if v := recover(); v != nil {
			e.ui.warnf("pre-commit hook skipped: internal error: %v", v)
			err = nil
		}
	}()
	fs := newFlags("hook git pre-commit")
	session := fs.String("session", "", "")
	if _, err := parseFlags(fs, args); err != nil {
		return err
	}
	o, oerr := gitHookOptions(e, *session)
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

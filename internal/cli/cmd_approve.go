package cli

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/mattn/go-isatty"

	"github.com/prosewash/prosewash/internal/engine/approval"
	"github.com/prosewash/prosewash/internal/engine/project"
	"github.com/prosewash/prosewash/internal/install"
)

const approveHelp = `Plans the run the Stop hook would make for a mode, shows every line of that plan (the
mode and project, the pipeline, each stage with its region scope, each provider bound to
what it runs by hash, the variables, the validation, the allow and include patterns, the
files next to a provider's code) and asks you on the terminal to approve it:

  automatic  the Stop hook cleans the files this session wrote when a turn ends
  confirm    the Stop hook asks the agent to ask you before cleaning them
  manual     only runs you start; nothing to approve

The approval is kept in the state directory with a fingerprint of those lines; any change
(a provider script edited, a pipeline stage added, another validation command, the mode)
lapses it and the mode drops to manual until you approve again, and a provider changed
after the check is refused when it is about to start. The mode is written to [clean] mode
in .prosewash.toml. Without a terminal approve refuses, and so it does when an agent is in
sight: an agent CLI's environment markers, one of them among the parent processes whatever
pty sits in between, or (on Linux) an agent in the same session, feeding the terminal, or
running under the same tmux or screen server: an agent cannot approve itself. Run it from a
terminal of your own, outside any multiplexer an agent runs in. The record holds no secret:
it guards against an agent approving on its own, not one that writes your state directory
(see docs/safety.md).

  --mode M    automatic, confirm or manual (default: the configured mode)
  --revoke    remove the approval (needs no terminal)`

// prompter asks the user on the terminal. One reader serves every
// question, so answers typed ahead are not lost between them.
type prompter struct {
	e *env
	r *bufio.Reader
}

// terminalPrompter returns nil when standard input is not a terminal.
func terminalPrompter(e *env) *prompter {
	f, ok := e.stdin.(*os.File)
	if !ok || !(isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd())) {
		return nil
	}
	return &prompter{e: e, r: bufio.NewReader(f)}
}

// answer asks q and reads one line; eof reports that no more input can
// come (Ctrl-D, a closed terminal), so the caller stops asking.
func (p *prompter) answer(q string) (a string, eof bool) {
	fmt.Fprintf(p.e.stderr, "prosewash: %s ", q)
	s, err := p.r.ReadString('\n')
	if err != nil {
		// Ctrl-D leaves the cursor after the question.
		fmt.Fprintln(p.e.stderr)
	}
	return strings.ToLower(strings.TrimSpace(s)), err != nil
}

func (p *prompter) yes(q string) bool {
	a, _ := p.answer(q + " [y/N]")
	return a == "y" || a == "yes"
}

// errNoTerminal refuses what only a person may decide.
var errNoTerminal = errors.New("approving needs a terminal: an agent cannot approve itself")

// fingerprint plans the configured pipeline for mode and shows what an
// approval of it covers; a pipeline that can never be approved is an
// error naming why.
func fingerprint(e *env, p *project.Project, mode string) (approval.Subject, error) {
	s, err := approval.ProjectSubject(p, self(), Version(), mode)
	if err != nil {
		return s, fmt.Errorf("cannot approve the configured pipeline: %w", err)
	}
	if u := approval.Unbound(s); len(u) > 0 {
		return s, fmt.Errorf("cannot approve: provider %s; it needs confirmation on every run and never runs unattended", u[0])
	}
	lines, _ := approval.Fingerprint(s)
	e.ui.infof("the Stop hook would run:")
	for _, l := range lines {
		e.ui.infof("  %s", l)
	}
	return s, nil
}

// who is the process asking for an approval: the real one, unless a test
// injected its environment and ancestry.
func (e *env) who() approval.Caller {
	if e.caller != nil {
		return *e.caller
	}
	return approval.RealCaller()
}

// refuseAgent refuses an approval asked for under an agent CLI, before
// anything is shown (an agent gets no fingerprint lines to copy). cmd is
// the command to run from a terminal of the person's own.
func refuseAgent(e *env, cmd string) error {
	err := e.who().CheckPerson()
	var ue *approval.UnknownCallerError
	if errors.As(err, &ue) {
		e.ui.errorf("%v", err)
		e.ui.hintf("approve from Linux or macOS, where prosewash can see who asks; manual mode needs no approval")
		return errRefused
	}
	var ae *approval.AgentError
	if !errors.As(err, &ae) {
		return err
	}
	e.ui.errorf("%v", err)
	for _, s := range ae.Signals[1:] {
		e.ui.infof("  also: %s", s)
	}
	e.ui.hintf("run '%s' from a terminal outside the agent", cmd)
	return errRefused
}

// grantApproval stores what the person approved on the terminal.
func grantApproval(e *env, stateDir string, s approval.Subject) error {
	_, err := approval.Grant(stateDir, e.who(), s)
	return err
}

// writeMode sets [clean] mode in .prosewash.toml and says when a user
// configuration keeps a stricter mode in force.
func writeMode(e *env, p *project.Project, m string) error {
	act, err := install.SetMode(p.Root, m)
	if err != nil {
		e.ui.errorf("%v", err)
		e.ui.hintf("add this to %s yourself:\n  [clean]\n  mode = %q", install.ConfigFile, m)
		return errRefused
	}
	if act != install.Unchanged {
		e.ui.infof("%s: [clean] mode = %q", install.ConfigFile, m)
	}
	fresh, err := project.Find(project.Options{Root: p.Root, Getenv: os.Getenv, Home: userHome()})
	if err != nil {
		return nil
	}
	if cfg, _, err := fresh.Config(); err == nil && cfg.CleanMode() != m {
		where := "the user configuration"
		if o := cfg.Origin("clean.mode"); o.File != "" {
			where = fmt.Sprintf("%s:%d", o.File, o.Line)
		}
		e.ui.warnf("the effective mode stays %s, set by %s: a project can only make it stricter", cfg.CleanMode(), where)
	}
	return nil
}

func userHome() string {
	h, _ := os.UserHomeDir()
	return h
}

func runApprove(e *env, args []string) error {
	fs := newFlags("approve")
	m := fs.String("mode", "", "")
	revoke := fs.Bool("revoke", false, "")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usagef("approve takes no arguments")
	}
	p, err := openProject(e)
	if err != nil {
		return err
	}
	stateDir, err := p.StateDir()
	if err != nil {
		return err
	}
	if *revoke {
		if *m != "" {
			return usagef("--revoke takes no --mode")
		}
		if err := approval.Revoke(stateDir); err != nil {
			return err
		}
		e.ui.infof("approval revoked: the Stop hook cleans nothing until you approve again")
		return nil
	}
	if err := loadConfig(e, p); err != nil {
		return err
	}
	want := *m
	if want == "" {
		cfg, _, _ := p.Config()
		want = cfg.CleanMode()
	}
	if !approval.ValidMode(want) {
		return usagef("--mode must be automatic, confirm or manual, not %q", want)
	}
	if want == approval.Manual {
		if err := approval.Revoke(stateDir); err != nil {
			return err
		}
		e.ui.infof("mode manual needs no approval: only runs you start clean files")
		return writeMode(e, p, want)
	}
	if err := refuseAgent(e, "prosewash approve --mode "+want); err != nil {
		return err
	}
	subject, err := fingerprint(e, p, want)
	if err != nil {
		e.ui.errorf("%v", err)
		return errRefused
	}
	ask := terminalPrompter(e)
	if ask == nil {
		e.ui.errorf("%v", errNoTerminal)
		e.ui.hintf("run 'prosewash approve --mode %s' in your own terminal", want)
		return errRefused
	}
	if !ask.yes(fmt.Sprintf("approve this for mode %s in this project?", want)) {
		e.ui.infof("not approved; nothing changed")
		return errRefused
	}
	if err := grantApproval(e, stateDir, subject); err != nil {
		return err
	}
	e.ui.infof("approved for mode %s; any change to the lines above lapses the approval", want)
	return writeMode(e, p, want)
}

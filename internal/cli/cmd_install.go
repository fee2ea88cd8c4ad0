package cli

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/prosewash/prosewash/internal/engine/approval"
	"github.com/prosewash/prosewash/internal/engine/project"
	"github.com/prosewash/prosewash/internal/install"
)

const installHelp = `Puts prosewash into the tools this project uses. With no component flag, all three:

  --git-hooks   pre-commit and post-checkout hooks in the directory git uses (core.hooksPath
                respected). A hook already there is kept as <hook>.prosewash-chained and
                called by ours; hooks owned by husky, lefthook or the pre-commit framework
                are not touched: the snippet for their configuration is printed instead.
  --claude      SessionStart, PreToolUse, PostToolUse and Stop hooks merged into
                .claude/settings.json; everything else in the file is kept.
  --codex       OpenAI Codex CLI hooks in .codex/hooks.json (SessionStart, UserPromptSubmit,
                PostToolUse for apply_patch and the shell, Stop). Codex runs them only in a
                trusted project and once you trusted them (its /hooks review); on a
                terminal install offers to write that trust into Codex's config.toml.
  --gemini      Gemini CLI hooks merged into .gemini/settings.json (SessionStart,
                BeforeAgent, AfterTool for write_file and replace, AfterAgent).
  --cursor      Cursor hooks merged into .cursor/hooks.json (sessionStart, afterFileEdit,
                afterShellExecution, stop). Built from Cursor's documented schema; not yet
                run against Cursor. Cursor also runs .claude/settings.json's hooks: those
                read Cursor's payloads as these do, so a turn is still cleaned once.
  --copilot     GitHub Copilot CLI hooks in .github/hooks/prosewash.json (sessionStart,
                postToolUse for create, edit, apply_patch and the shell, agentStop). The
                CLI runs them only in a trusted folder (trustedFolders in its config.json):
                install says whether this one is, and 'prosewash status' when it is not.
  --qwen        Qwen Code hooks merged into .qwen/settings.json (SessionStart,
                UserPromptSubmit, PreToolUse and PostToolUse for write_file, edit,
                notebook_edit and run_shell_command, Stop). Qwen runs a project's hooks
                only in a trusted folder when its folder trust is on (off by default).
  --opencode    the opencode plugin .opencode/plugins/prosewash.js (opencode has no hook
                configuration): it runs 'prosewash hook opencode' on tool.execute.before
                and after for write, edit, apply_patch and bash, on session.created and
                on session.idle, and asks the agent to go on with the next prompt.
  --alias       git config alias.clean-prose, so 'git clean-prose [PATH...]' cleans.
  --mode M      the Stop hook's mode: automatic, confirm or manual. There is no default:
                on a terminal install asks, and that answer is the approval; automatic or
                confirm given with --mode are approved only after a [y/N] on a terminal.
                Without a terminal they install as manual and say how to approve; under
                an agent CLI they are refused and nothing is installed. Once the project
                has a mode ([clean] mode), installing another agent without --mode keeps
                it: Enter keeps it at the question, and without a terminal it is kept as
                written (one not approved here is named so, and approves nothing).

With no component flag, the agents whose configuration directory or instruction file
the project has (.codex, .gemini or GEMINI.md, .cursor, .github/hooks or
copilot-instructions.md, .qwen or QWEN.md, .opencode or opencode.json) are offered one by one on a terminal, and
named with their flag otherwise.

The agents' files are meant to be committed: their hooks run 'prosewash' as found on PATH,
so they are byte for byte the same whoever installs them, and a hook on a machine without
prosewash says so in one line on standard error and does nothing. (The git hooks are not
committed and name this binary.) Every file install reads is checked before the first
write: a FIFO, a device or a file that does not parse stops it with nothing written.

Installing twice changes nothing; 'prosewash uninstall' takes all of it out again, putting
back the hooks that were there before, byte for byte.`

const uninstallHelp = `Removes what 'prosewash install' added: our git hooks (the hooks they chained are put
back byte for byte), our entries in the agents' files (nothing else: a file not edited
since install comes back byte for byte), the clean-prose alias when it is ours. With no
component flag it removes all of them and revokes the approval. .prosewash.toml is left
as it is.

  --git-hooks, --claude, --codex, --gemini, --cursor, --copilot, --qwen, --opencode,
  --alias
      remove only these; an agent's configuration file comes back byte for byte when
      it was not edited since install, else only prosewash's entries are taken out.
      --codex also takes prosewash's trust entries out of Codex's config.toml.`

// componentSynopsis is install's and uninstall's flags for the usage line:
// every platform of the hook table, so one added there is named too.
func componentSynopsis() string {
	s := "[--git-hooks]"
	for _, a := range install.Agents() {
		s += " [--" + a.Name + "]"
	}
	return s + " [--alias]"
}

type components struct {
	gitHooks, alias bool
	agents          map[string]*bool // every platform of the hook table: claude, codex, ...
}

// anyAgent reports whether an agent flag was given.
func (c components) anyAgent() bool {
	for _, v := range c.agents {
		if *v {
			return true
		}
	}
	return false
}

func componentFlags(name string, args []string) (components, *string, error) {
	fs := newFlags(name)
	var c components
	fs.BoolVar(&c.gitHooks, "git-hooks", false, "")
	fs.BoolVar(&c.alias, "alias", false, "")
	c.agents = map[string]*bool{}
	for _, a := range install.Agents() {
		c.agents[a.Name] = fs.Bool(a.Name, false, "")
	}
	var m *string
	if name == "install" {
		m = fs.String("mode", "", "")
	}
	rest, err := parseFlags(fs, args)
	if err != nil {
		return c, nil, err
	}
	if len(rest) > 0 {
		return c, nil, usagef("%s takes no arguments", name)
	}
	return c, m, nil
}

func (c components) all() bool { return !c.gitHooks && !c.alias && !c.anyAgent() }

// byDefault is the agent a plain install sets up without asking: Claude
// Code's hooks are one of its three components.
const byDefault = "claude"

// chooseMode settles the mode before anything is written: asked on a
// terminal (the answer is the approval), or --mode, approved with a [y/N]
// on a terminal and dropped to manual without one.
func chooseMode(e *env, p *project.Project, stateDir, flag string) (string, error) {
	ask := terminalPrompter(e)
	var kept keptMode
	if flag == "" {
		kept = configuredMode(p, stateDir)
	}
	if flag == "" && ask == nil {
		if kept.mode == "" {
			return "", usagef("choose the Stop hook's mode with --mode automatic, confirm or manual (there is no default; on a terminal install asks)")
		}
		// The project already chose: another agent installed later keeps
		// that mode. Nothing is approved here: an unapproved mode stays
		// manual in effect until a person approves it.
		kept.say(e)
		return kept.mode, nil
	}
	if flag != "" && !approval.ValidMode(flag) {
		return "", usagef("--mode must be automatic, confirm or manual, not %q", flag)
	}
	if flag == approval.Manual {
		return flag, nil
	}
	// Choosing automatic or confirm is the approval: never under an agent.
	want := "prosewash install --mode " + flag
	if flag == "" {
		want = "prosewash install"
	}
	if err := refuseAgent(e, want); err != nil {
		e.ui.hintf("or install with --mode manual, which needs no approval")
		return "", err
	}
	shown := flag
	if shown == "" {
		shown = approval.Automatic
	}
	subject, ferr := fingerprint(e, p, shown)
	if flag == "" {
		e.ui.infof("when an agent turn ends, the Stop hook can:")
		e.ui.infof("  automatic  clean the files this session wrote (what is shown above)")
		e.ui.infof("  confirm    ask the agent to ask you first")
		e.ui.infof("  manual     do nothing; you run 'prosewash clean' yourself")
		a, err := askMode(e, ask, kept)
		if err != nil || a == approval.Manual || a == kept.mode && kept.keepable() {
			return a, err
		}
		flag = a
		if ferr == nil && flag != shown {
			// What was shown, planned for the mode chosen.
			subject, ferr = approval.ProjectSubject(p, self(), Version(), flag)
		}
		if ferr != nil {
			e.ui.warnf("%v; installing in manual mode", ferr)
			return approval.Manual, nil
		}
		return flag, grantApproval(e, stateDir, subject)
	}
	if ferr != nil {
		e.ui.warnf("%v; installing in manual mode", ferr)
		return approval.Manual, nil
	}
	if ask == nil {
		e.ui.warnf("mode %s needs your approval on a terminal (an agent cannot approve itself); installing in manual mode", flag)
		e.ui.hintf("run 'prosewash approve --mode %s' in your own terminal", flag)
		return approval.Manual, nil
	}
	if !ask.yes(fmt.Sprintf("approve this for mode %s in this project?", flag)) {
		e.ui.infof("not approved; installing in manual mode")
		return approval.Manual, nil
	}
	return flag, grantApproval(e, stateDir, subject)
}

// askMode asks for the mode on the terminal, three times at most and not
// after the input ended; Enter keeps a configured mode that needs no new
// approval.
func askMode(e *env, ask *prompter, kept keptMode) (string, error) {
	q := "mode for this project [automatic/confirm/manual]:"
	if kept.keepable() {
		q = fmt.Sprintf("mode for this project [automatic/confirm/manual] (Enter keeps %s):", kept.mode)
	}
	for i := 0; ; i++ {
		a, eof := ask.answer(q)
		if a == "" && kept.keepable() {
			kept.say(e)
			return kept.mode, nil
		}
		if approval.ValidMode(a) {
			return a, nil
		}
		if eof || i == 2 {
			return "", usagef("no mode chosen (--mode automatic, confirm or manual chooses one)")
		}
	}
}

// keptMode is the Stop hook's mode a configuration file already sets.
type keptMode struct {
	mode, where string // "" when no file sets it
	approved    bool   // it needs no approval, or has a valid one
}

// configuredMode reads the mode a configuration file sets, if any, and
// whether it is in effect (manual, or automatic or confirm approved for
// what the project plans now).
func configuredMode(p *project.Project, stateDir string) keptMode {
	cfg, _, err := p.Config()
	if err != nil {
		return keptMode{}
	}
	o := cfg.Origin("clean.mode")
	if o.File == "" {
		return keptMode{}
	}
	where := o.File
	if r, err := filepath.Rel(p.Root, o.File); err == nil && filepath.IsLocal(r) {
		where = r
	}
	k := keptMode{mode: cfg.CleanMode(), where: fmt.Sprintf("%s:%d", where, o.Line)}
	if k.mode == approval.Manual {
		k.approved = true
		return k
	}
	d, err := approval.Decide(p, stateDir, self(), Version())
	k.approved = err == nil && d.Verdict.Mode == k.mode
	return k
}

// keepable reports whether Enter at the prompt may keep the mode: only
// when keeping it grants nothing.
func (k keptMode) keepable() bool { return k.mode != "" && k.approved }

func (k keptMode) say(e *env) {
	if k.approved {
		e.ui.infof("mode %s, as %s sets it (--mode changes it)", k.mode, k.where)
		return
	}
	e.ui.warnf("mode %s, as %s sets it, is not approved here: the Stop hook does nothing until you approve it", k.mode, k.where)
	e.ui.hintf("run 'prosewash approve --mode %s' in your own terminal", k.mode)
}

func runInstall(e *env, args []string) error {
	c, modeFlag, err := componentFlags("install", args)
	if err != nil {
		return err
	}
	p, err := openProject(e)
	if err != nil {
		return err
	}
	if err := loadConfig(e, p); err != nil {
		return err
	}
	stateDir, err := p.StateDir()
	if err != nil {
		return err
	}
	all := c.all()
	g := install.Git{Dir: p.Root}
	inRepo := g.InRepo()
	if !inRepo && (c.gitHooks || c.alias) {
		return usagef("%s is not in a git repository: no git hooks or alias to install", p.Root)
	}
	agents := chooseAgents(e, p.Root, c)
	setMode := len(agents) > 0 || *modeFlag != ""
	gitHooks := (all && inRepo) || c.gitHooks
	// Every file this install reads is read and checked before the first
	// write: a FIFO, a device or a file that does not parse stops it with
	// nothing written.
	changes, ok := planInstall(e, p.Root, stateDir, agents, setMode, gitHooks, g)
	if !ok {
		return errRefused
	}
	failed := false
	if setMode {
		m, err := chooseMode(e, p, stateDir, *modeFlag)
		if err != nil {
			return err
		}
		if m == approval.Manual {
			if err := approval.Revoke(stateDir); err != nil {
				return err
			}
		}
		if err := writeMode(e, p, m); err != nil {
			failed = true
		}
	}
	bin := self()
	if gitHooks {
		failed = installGitHooks(e, g, bin) || failed
	} else if all {
		e.ui.infof("not a git repository: git hooks and alias skipped")
	}
	for i, a := range agents {
		failed = !installAgent(e, p.Root, a, changes[i]) || failed
	}
	if len(agents) > 0 {
		hintPath(e, bin)
	}
	if (all && inRepo) || c.alias {
		failed = installAlias(e, g) || failed
	}
	if failed {
		return errRefused
	}
	return nil
}

// planInstall reads and checks every file the install will write, in
// order, and says every problem; ok is false when any was found.
func planInstall(e *env, root, stateDir string, agents []install.Agent, setMode, gitHooks bool, g install.Git) ([]*install.Change, bool) {
	ok := true
	if setMode {
		if _, err := install.PlanMode(root, approval.Manual); err != nil {
			e.ui.errorf("%v", err)
			ok = false
		}
	}
	if gitHooks {
		if err := install.CheckGitHooks(g); err != nil {
			e.ui.errorf("git hooks: %v", err)
			ok = false
		}
	}
	var changes []*install.Change
	for _, a := range agents {
		ch, err := a.PlanInstall(root, stateDir)
		if err != nil {
			e.ui.errorf("%s hooks: %v", a.Name, err)
			ok = false
		}
		changes = append(changes, ch)
	}
	if !ok {
		e.ui.hintf("nothing was installed; fix or move the file named above and run install again")
	}
	return changes, ok
}

// installGitHooks writes the git hooks; failed reports a refusal.
func installGitHooks(e *env, g install.Git, bin string) (failed bool) {
	res, err := install.InstallGitHooks(g, bin)
	var me *install.ManagedError
	switch {
	case errors.As(err, &me):
		e.ui.errorf("%v", err)
		e.ui.hintf("add prosewash to %s; the snippet follows on standard output", me.Manager)
		fmt.Fprintln(e.stdout, me.Snippet)
		failed = true
	case err != nil:
		e.ui.errorf("git hooks: %v", err)
		failed = true
	}
	for _, r := range res {
		msg := fmt.Sprintf("git %s hook %s: %s", r.Hook, r.Action, r.Path)
		if r.Chained != "" {
			msg += fmt.Sprintf(" (the previous hook is kept as %s and runs too)", filepath.Base(r.Chained))
		}
		e.ui.infof("%s", msg)
	}
	return failed
}

// installAlias sets the clean-prose alias; failed reports a refusal.
func installAlias(e *env, g install.Git) (failed bool) {
	act, err := install.InstallAlias(g)
	var ce *install.AliasConflictError
	switch {
	case errors.As(err, &ce):
		e.ui.errorf("%v", err)
		e.ui.hintf("run prosewash clean directly, or remove that alias first")
		return true
	case err != nil:
		e.ui.errorf("alias: %v", err)
		return true
	}
	e.ui.infof("git alias %s: git clean-prose [PATH...]", act)
	return false
}

// hintPath says when the hooks an install wrote will not find this
// prosewash: committed configurations run 'prosewash' from PATH, so that
// they are the same for every teammate.
func hintPath(e *env, bin string) {
	found, err := exec.LookPath("prosewash")
	if err != nil {
		e.ui.hintf("the agent hooks run 'prosewash' from PATH, which has none: put %s on PATH (until then the hooks skip, saying so)", filepath.Dir(bin))
		return
	}
	a, aerr := os.Stat(found)
	b, berr := os.Stat(bin)
	if aerr == nil && berr == nil && !os.SameFile(a, b) {
		e.ui.hintf("the agent hooks run 'prosewash' from PATH, which is %s, not this %s", found, bin)
	}
}

func runUninstall(e *env, args []string) error {
	c, _, err := componentFlags("uninstall", args)
	if err != nil {
		return err
	}
	p, err := openProject(e)
	if err != nil {
		return err
	}
	all := c.all()
	g := install.Git{Dir: p.Root}
	inRepo := g.InRepo()
	if !inRepo && (c.gitHooks || c.alias) {
		return usagef("%s is not in a git repository: no git hooks or alias to remove", p.Root)
	}
	stateDir, err := p.StateDir()
	if err != nil {
		return err
	}
	// Every configuration is read and checked before the first write.
	var agents []install.Agent
	var changes []*install.Change
	ok := true
	for _, a := range install.Agents() {
		if !all && !*c.agents[a.Name] {
			continue
		}
		ch, err := a.PlanUninstall(p.Root, stateDir)
		if err != nil {
			e.ui.errorf("%s hooks: %v", a.Name, err)
			ok = false
		}
		agents, changes = append(agents, a), append(changes, ch)
	}
	if !ok {
		e.ui.hintf("nothing was removed; fix or move the file named above and run uninstall again")
		return errRefused
	}
	failed := false
	if (all && inRepo) || c.gitHooks {
		failed = uninstallGitHooks(e, g) || failed
	}
	for i, a := range agents {
		failed = !uninstallAgent(e, p.Root, a, changes[i]) || failed
	}
	if (all && inRepo) || c.alias {
		act, err := install.UninstallAlias(g)
		switch {
		case err != nil:
			e.ui.errorf("alias: %v", err)
			failed = true
		case act == install.Foreign:
			e.ui.infof("git alias clean-prose is not ours; left as it is")
		case act == install.Removed:
			e.ui.infof("git alias clean-prose removed")
		}
	}
	if all {
		if err := approval.Revoke(stateDir); err != nil {
			e.ui.errorf("revoke approval: %v", err)
			failed = true
		}
	}
	if failed {
		return errRefused
	}
	return nil
}

func uninstallGitHooks(e *env, g install.Git) (failed bool) {
	res, err := install.UninstallGitHooks(g)
	if err != nil {
		e.ui.errorf("git hooks: %v", err)
		failed = true
	}
	for _, r := range res {
		switch r.Action {
		case install.Foreign:
			e.ui.infof("git %s hook: not ours, left as it is: %s", r.Hook, r.Path)
		case install.Absent:
		default:
			e.ui.infof("git %s hook %s: %s", r.Hook, r.Action, r.Path)
		}
	}
	return failed
}

// uninstallAgent applies one agent's planned uninstall, and for Codex
// takes prosewash's trust entries out of its config.toml.
func uninstallAgent(e *env, root string, a install.Agent, ch *install.Change) bool {
	ok := true
	act, err := ch.Apply()
	switch {
	case err != nil:
		e.ui.errorf("%s hooks: %v", a.Name, err)
		ok = false
	case act != install.Absent:
		e.ui.infof("%s hooks %s: %s", a.Name, act, a.File())
	}
	if a.Name == "codex" {
		home, _ := os.UserHomeDir()
		ch := install.CodexHome(os.Getenv, home)
		if act, err := install.RemoveCodexTrust(ch, root); err != nil {
			e.ui.errorf("codex trust: %v", err)
			ok = false
		} else if act == install.Removed {
			e.ui.infof("codex trust entries removed from %s", filepath.Join(ch, "config.toml"))
		}
	}
	return ok
}

// chooseAgents settles which agents' hooks to install: the flags given;
// with none at all, the agents the project shows signs of, each offered
// on a terminal and named with its flag otherwise (writing into an agent's
// configuration is the user's call, not an agent's).
func chooseAgents(e *env, root string, c components) []install.Agent {
	var out []install.Agent
	all := c.all()
	var ask *prompter
	if all {
		ask = terminalPrompter(e)
	}
	for _, a := range install.Agents() {
		switch {
		case *c.agents[a.Name], all && a.Name == byDefault:
			out = append(out, a)
		case all && a.Detect(root):
			if ask == nil {
				e.ui.infof("this project uses %s: 'prosewash install --%s' adds its hooks", a.Title, a.Name)
			} else if ask.yes(fmt.Sprintf("this project uses %s: add prosewash's hooks to %s?", a.Title, a.File())) {
				out = append(out, a)
			}
		}
	}
	return out
}

// installAgent writes one agent's hooks and says what the agent still
// needs before it runs them.
func installAgent(e *env, root string, a install.Agent, ch *install.Change) bool {
	act, err := ch.Apply()
	if err != nil {
		e.ui.errorf("%s hooks: %v", a.Name, err)
		return false
	}
	e.ui.infof("%s hooks %s: %s", a.Name, act, a.File())
	switch a.Name {
	case "codex":
		home, _ := os.UserHomeDir()
		ch := install.CodexHome(os.Getenv, home)
		if !install.CodexProjectTrusted(ch, root) {
			e.ui.hintf("Codex loads .codex/ only in a trusted project: accept its trust prompt when it starts here (or pass --trust to one 'codex exec' run)")
		}
		e.ui.hintf("Codex skips hooks nobody reviewed, silently: trust prosewash's hooks in Codex's /hooks review")
		ask := terminalPrompter(e)
		if ask == nil {
			return true
		}
		cfg := filepath.Join(ch, "config.toml")
		if !ask.yes(fmt.Sprintf("or write the trust of these hooks into %s now (only prosewash's hooks, removed again by uninstall)?", cfg)) {
			return true
		}
		n, err := install.AddCodexTrust(ch, root)
		if err != nil {
			e.ui.errorf("codex trust: %v", err)
			return false
		}
		e.ui.infof("codex trust: %d hook%s trusted in %s", n, plural(n), cfg)
	case "gemini":
		e.ui.hintf("Gemini CLI runs a project's hooks only in a trusted folder; the first session lists them once")
	case "copilot":
		home, _ := os.UserHomeDir()
		if why := a.Silenced(os.Getenv, home, root); why != "" {
			e.ui.hintf("%s", why)
		} else {
			e.ui.infof("Copilot CLI trusts this folder: it will run these hooks")
		}
	case "qwen":
		e.ui.hintf("Qwen Code runs a project's hooks only in a trusted folder once its folder trust is on (security.folderTrust.enabled, off by default): then trust this folder at its prompt")
	case "cursor":
		e.ui.hintf("%s support is built from its documented hook schema and not yet run against the real client", a.Title)
	}
	return true
}

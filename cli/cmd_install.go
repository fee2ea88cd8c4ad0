package cli

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/prosewash/prosewash/engine/approval"
	"github.com/prosewash/prosewash/engine/project"
	"github.com/prosewash/prosewash/install"
)

const installHelp = `Puts prosewash into the tools this project uses. With no component flag, all three:

  --git-hooks   pre-commit and post-checkout hooks in the directory git uses (core.hooksPath
                respected). A hook already there is kept as <hook>.prosewash-chained and
                called by ours; hooks owned by husky, lefthook or the pre-commit framework
                are not touched: the snippet for their configuration is printed instead.
  --claude      SessionStart, PreToolUse, PostToolUse and Stop hooks merged into
                .claude/settings.json; everything else in the file is kept.
  --alias       git config alias.clean-prose, so 'git clean-prose [PATH...]' cleans.
  --mode M      the Stop hook's mode: automatic, confirm or manual. There is no default:
                on a terminal install asks, and that answer is the approval; automatic or
                confirm given with --mode are approved only after a [y/N] on a terminal.
                Without a terminal they install as manual and say how to approve; under
                an agent CLI they are refused and nothing is installed.

Installing twice changes nothing; 'prosewash uninstall' takes all of it out again, putting
back the hooks that were there before, byte for byte.`

const uninstallHelp = `Removes what 'prosewash install' added: our git hooks (the hooks they chained are put
back byte for byte), our entries in .claude/settings.json (nothing else), the
clean-prose alias when it is ours. With no component flag it removes all three and
revokes the approval. .prosewash.toml is left as it is.

  --git-hooks, --claude, --alias   remove only these`

type components struct{ gitHooks, claude, alias bool }

func componentFlags(name string, args []string) (components, *string, error) {
	fs := newFlags(name)
	var c components
	fs.BoolVar(&c.gitHooks, "git-hooks", false, "")
	fs.BoolVar(&c.claude, "claude", false, "")
	fs.BoolVar(&c.alias, "alias", false, "")
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

func (c components) all() bool { return !c.gitHooks && !c.claude && !c.alias }

// chooseMode settles the mode before anything is written: asked on a
// terminal (the answer is the approval), or --mode, approved with a [y/N]
// on a terminal and dropped to manual without one.
func chooseMode(e *env, p *project.Project, stateDir, flag string) (string, error) {
	ask := terminalPrompter(e)
	if flag == "" && ask == nil {
		return "", usagef("choose the Stop hook's mode with --mode automatic, confirm or manual (there is no default; on a terminal install asks)")
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
	lines, sum, ferr := fingerprint(e, p)
	if flag == "" {
		e.ui.infof("when an agent turn ends, the Stop hook can:")
		e.ui.infof("  automatic  clean the files this session wrote (what is shown above)")
		e.ui.infof("  confirm    ask the agent to ask you first")
		e.ui.infof("  manual     do nothing; you run 'prosewash clean' yourself")
		for i := 0; ; i++ {
			a := ask.line("mode for this project [automatic/confirm/manual]:")
			if approval.ValidMode(a) {
				flag = a
				break
			}
			if i == 2 {
				return "", usagef("no mode chosen")
			}
		}
		if flag == approval.Manual {
			return flag, nil
		}
		if ferr != nil {
			e.ui.warnf("%v; installing in manual mode", ferr)
			return approval.Manual, nil
		}
		return flag, grantApproval(e, stateDir, p, flag, lines, sum)
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
	return flag, grantApproval(e, stateDir, p, flag, lines, sum)
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
	failed := false
	if all || c.claude || *modeFlag != "" {
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
	if (all && inRepo) || c.gitHooks {
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
	} else if all {
		e.ui.infof("not a git repository: git hooks and alias skipped")
	}
	if all || c.claude {
		act, err := install.InstallClaude(p.Root, bin)
		if err != nil {
			e.ui.errorf("claude settings: %v", err)
			failed = true
		} else {
			e.ui.infof("claude hooks %s: %s", act, install.SettingsFile)
		}
	}
	if (all && inRepo) || c.alias {
		act, err := install.InstallAlias(g)
		var ce *install.AliasConflictError
		switch {
		case errors.As(err, &ce):
			e.ui.errorf("%v", err)
			e.ui.hintf("run prosewash clean directly, or remove that alias first")
			failed = true
		case err != nil:
			e.ui.errorf("alias: %v", err)
			failed = true
		default:
			e.ui.infof("git alias %s: git clean-prose [PATH...]", act)
		}
	}
	if failed {
		return errRefused
	}
	return nil
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
	failed := false
	if (all && inRepo) || c.gitHooks {
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
	}
	if all || c.claude {
		act, err := install.UninstallClaude(p.Root)
		if err != nil {
			e.ui.errorf("claude settings: %v", err)
			failed = true
		} else if act != install.Absent {
			e.ui.infof("claude hooks %s: %s", act, install.SettingsFile)
		}
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
		if stateDir, err := p.StateDir(); err == nil {
			if err := approval.Revoke(stateDir); err != nil {
				e.ui.errorf("revoke approval: %v", err)
				failed = true
			}
		}
	}
	if failed {
		return errRefused
	}
	return nil
}

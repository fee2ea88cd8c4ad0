package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/prosewash/prosewash/internal/engine/approval"
	"github.com/prosewash/prosewash/internal/engine/project"
	"github.com/prosewash/prosewash/internal/engine/scope"
	"github.com/prosewash/prosewash/internal/engine/txn"
	"github.com/prosewash/prosewash/internal/engine/wash/lane"
	"github.com/prosewash/prosewash/internal/install"
)

const recoverHelp = `Brings interrupted runs (a crash, a kill -9, a power cut) to a safe end: every file
that still holds the run's candidate is restored from its verified backup, and the
temporary files of the run's swaps (named in its journal) are removed. A file edited
after the interrupted run is never overwritten, and neither is one whose backup is
missing or damaged (recover says which of the two it is): its original, candidate
and current hashes are printed and the journal is kept until you decide (then
--abandon RUN moves the journal and backups aside, keeping the originals).

Backups whose journal is gone are listed with the files they are the originals of
and kept: they may be the only copy. Remove them yourself once you have compared.

Exit status: 0 nothing left to recover, 1 something needs a look (unresolved files,
backups without a journal, a temporary file that is not the run's), 3 the lock is held.`

func runRecover(e *env, args []string) error {
	fs := newFlags("recover")
	abandon := fs.String("abandon", "", "")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usagef("recover takes no arguments")
	}
	p, err := openProject(e)
	if err != nil {
		return err
	}
	stateDir, err := p.StateDir()
	if err != nil {
		return err
	}
	if *abandon != "" {
		dir, err := txn.Abandon(stateDir, *abandon, 0)
		if err != nil {
			return runError(e, err)
		}
		e.ui.infof("abandoned run %s; its journal and backups are kept in %s", *abandon, dir)
		return nil
	}
	// One recovery for both lanes: the memory lane's runs may also touch
	// the platform's memory and transcript directories and the transcript
	// archive, which the lane names as trusted.
	home, _ := os.UserHomeDir()
	roots := lane.New(p, lane.Options{Home: home}).RecoverRoots()
	rep, err := txn.Recover(stateDir, txn.RecoverOptions{Root: p.Root, Roots: roots, Getenv: os.Getenv})
	if err != nil {
		return runError(e, err)
	}
	if len(rep.Runs) == 0 && len(rep.Orphans) == 0 {
		e.ui.infof("recover: nothing to recover")
		return nil
	}
	for _, r := range rep.Runs {
		switch r.Outcome {
		case txn.OutcomeRefused:
			e.ui.errorf("run %s: journal not trusted, nothing done: %v", r.RunID, r.Err)
		default:
			e.ui.infof("run %s (was %s): %s", r.RunID, r.Found, r.Outcome)
		}
		for _, f := range r.Files {
			rel := p.Rel(f.Path)
			switch f.Status {
			case txn.StatusRestored:
				e.ui.infof("  restored %s", rel)
			case txn.StatusKept, txn.StatusConflict:
				switch f.Kept {
				case txn.KeptBackup:
					e.ui.warnf("  kept %s: its backup is missing or damaged, so it was not restored (it is as the interrupted run left it)", rel)
				case txn.KeptEdited, "":
					e.ui.warnf("  kept %s: edited after the interrupted run; not overwritten", rel)
				default:
					e.ui.warnf("  kept %s: %v", rel, f.Err)
				}
				e.ui.infof("    original  %s", f.Original)
				e.ui.infof("    candidate %s", f.Candidate)
				e.ui.infof("    current   %s", f.Current)
			case txn.StatusCommitted:
				e.ui.infof("  %s: the run had committed; kept", rel)
			}
		}
	}
	look := false
	for _, r := range rep.Runs {
		for _, l := range r.Leftovers {
			e.ui.warnf("  left %s: a temporary file of the run that holds neither the original nor the candidate; compare it, then delete it", p.Rel(l))
			look = true
		}
	}
	reportOrphans(e, p, rep.Orphans)
	if rep.Unresolved {
		e.ui.hintf("compare the files listed above, then run 'prosewash recover --abandon RUN' to end the run")
		return errFindings
	}
	if look || len(rep.Orphans) > 0 {
		return errFindings
	}
	return nil
}

// reportOrphans lists backup directories that have no journal. They are
// never deleted by prosewash: with the journal gone they may be the only
// copy of the originals of files an interrupted run had replaced.
func reportOrphans(e *env, p *project.Project, orphans []txn.Orphan) {
	for _, o := range orphans {
		e.ui.warnf("backups without a journal (run %s): kept in %s", o.RunID, o.Dir)
		pack := ""
		for _, f := range o.Files {
			name := filepath.Base(f.Backup)
			if f.Packed {
				// One pack holds every original of a run: name the bytes.
				name, pack = fmt.Sprintf("%s bytes %d-%d", name, f.Offset, f.Offset+f.Size), f.Backup
			}
			if f.Path == "" {
				e.ui.infof("    %s (whose original is not recorded)", name)
				continue
			}
			e.ui.infof("    %s is the original of %s (sha256 %s)", name, p.Rel(f.Path), f.Original.Short())
		}
		if pack != "" {
			e.ui.hintf("to take one out: tail -c +$((START+1)) '%s' | head -c $((END-START)) > FILE", pack)
		}
		e.ui.hintf("compare them with your files; once nothing in them is needed, remove them with: rm -r '%s'", o.Dir)
	}
}

const statusHelp = `Shows the resolved project root, where state lives, the effective configuration
with where each value came from, versions, the approval, the latest session and any
interrupted run, and for every agent whose hooks are installed here whether the agent
will run them (Copilot CLI only in a folder it trusts, Codex only in a trusted project).
Writes nothing.`

func runStatus(e *env, args []string) error {
	asJSON, err := jsonFlagOnly("status", args)
	if err != nil {
		return err
	}
	p, err := openProject(e)
	if err != nil {
		return err
	}
	cfg, warns, cfgErr := p.Config()
	stateDir, stateErr := p.StatePath() // status writes nothing, not even the state dir
	st := map[string]any{
		"version":      Version(),
		"go":           runtime.Version(),
		"project_root": p.Root,
	}
	if stateErr != nil {
		st["state_error"] = stateErr.Error()
	} else {
		st["state_dir"] = stateDir
		var runs []map[string]any
		pend, _ := txn.Pending(stateDir)
		for _, r := range pend {
			m := map[string]any{"run": r.RunID, "state": string(r.State), "files": r.Files, "in_progress": r.Live}
			if !r.Started.IsZero() {
				m["started"] = r.Started.Format(time.RFC3339)
			}
			if r.Err != nil {
				m["error"] = r.Err.Error()
			}
			runs = append(runs, m)
		}
		st["pending_runs"] = runs
		if s, ok, _ := scope.Latest(stateDir); ok {
			st["latest_session"] = s
		}
		if rec, err := approval.Load(stateDir); err != nil {
			st["approval"] = err.Error()
		} else if rec != nil {
			a := map[string]any{"mode": rec.Mode, "approved_at": rec.ApprovedAt.Format(time.RFC3339), "fingerprint": rec.Fingerprint}
			// Whether it holds is whether it approves what the project
			// plans now, for the configured mode.
			d, _ := approval.Decide(p, stateDir, self(), Version())
			a["holds"] = d.Verdict.Mode == rec.Mode
			if d.Verdict.Mode != rec.Mode {
				a["why"] = d.Verdict.Why
			}
			st["approval"] = a
		} else {
			st["approval"] = "none (manual)"
		}
	}
	if cfgErr != nil {
		st["config_error"] = cfgErr.Error()
	} else {
		settings := map[string]string{}
		for _, s := range cfg.Settings() {
			settings[s.Key] = s.Value + "  # " + s.Origin.String()
		}
		st["config"] = settings
		st["config_files"] = cfg.Sources
	}
	hooks := agentHooks(p.Root)
	st["agent_hooks"] = hooks
	// An invalid configuration exits 2 like every other command, after the
	// report: status is where one goes to find out what is wrong.
	var configErr error
	if cfgErr != nil {
		configErr = &exitError{code: exitUsage}
	}
	if asJSON {
		if err := writeJSON(e, st); err != nil {
			return err
		}
		return configErr
	}
	e.ui.infof("prosewash %s (%s)", Version(), runtime.Version())
	e.ui.infof("project root: %s", p.Root)
	if stateErr != nil {
		e.ui.errorf("state dir: %v", stateErr)
	} else {
		e.ui.infof("state dir:    %s", stateDir)
	}
	for _, w := range warns {
		e.ui.warnf("%s", w)
	}
	if cfgErr != nil {
		e.ui.errorf("configuration: %v", cfgErr)
	} else {
		e.ui.infof("configuration:")
		for _, l := range splitLines(cfg.Render()) {
			e.ui.infof("  %s", l)
		}
	}
	if a, ok := st["approval"].(map[string]any); ok {
		if a["holds"] == true {
			e.ui.infof("approval: mode %s since %s", a["mode"], a["approved_at"])
		} else {
			e.ui.warnf("approval: a record for mode %s that does not hold: %s", a["mode"], a["why"])
		}
	} else if s, ok := st["approval"].(string); ok {
		e.ui.infof("approval: %s", s)
	}
	if s, ok := st["latest_session"].(string); ok {
		e.ui.infof("latest session: %s", s)
	}
	reportAgentHooks(e, hooks)
	if stateErr == nil {
		if ids := txn.Interrupted(stateDir); len(ids) > 0 {
			e.ui.warnf("interrupted run(s) %v: run 'prosewash recover'", ids)
		} else {
			e.ui.infof("no interrupted run")
		}
		if o, _ := txn.Orphans(stateDir); len(o) > 0 {
			reportOrphans(e, p, o)
		}
	}
	return configErr
}

func splitLines(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}

// agentHook is one agent's installed hooks in status, and why the agent
// will not run them where its configuration says so.
type agentHook struct {
	Agent      string `json:"agent"`
	File       string `json:"file"`
	CannotFire string `json:"cannot_fire,omitempty"`
}

// agentHooks lists the agents whose hooks are installed in root.
func agentHooks(root string) []agentHook {
	home, _ := os.UserHomeDir()
	out := []agentHook{}
	for _, a := range install.Agents() {
		if !a.Installed(root) {
			continue
		}
		out = append(out, agentHook{Agent: a.Name, File: a.File(), CannotFire: a.Silenced(os.Getenv, home, root)})
	}
	return out
}

func reportAgentHooks(e *env, hooks []agentHook) {
	for _, h := range hooks {
		if h.CannotFire == "" {
			e.ui.infof("%s hooks: %s", h.Agent, h.File)
		} else {
			e.ui.warnf("%s hooks in %s cannot fire: %s", h.Agent, h.File, h.CannotFire)
		}
	}
}

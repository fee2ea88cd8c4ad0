package cli

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/prosewash/prosewash/internal/engine/clean"
	"github.com/prosewash/prosewash/internal/engine/config"
	"github.com/prosewash/prosewash/internal/engine/project"
	"github.com/prosewash/prosewash/internal/engine/report"
	"github.com/prosewash/prosewash/internal/engine/scope"
	"github.com/prosewash/prosewash/internal/engine/txn"
	"github.com/prosewash/prosewash/internal/engine/walk"
)

const cleanHelp = `Removes invisible carriers from the prose regions (comments, documentation text) of
the files named (a directory stands for its files that have a classifier), or, with no
PATH, of the files recorded for this session (--session ID, else $PROSEWASH_SESSION,
else the session recorded most recently). Code, string literals, docstrings and
directives are never touched: carriers there are reported.

Every file is checked before it replaces the original: bytes outside the cleaned
regions are proven identical, the structure is re-classified, the file must still
be valid UTF-8 with the same line endings and still parse; then the validation level
runs (see [clean] validation) inside a journalled transaction that rolls back on
failure. A file someone else changed meanwhile is never overwritten.

  --pipeline ID        safe (default), full (needs named files) or custom/<id>
  --profile standard|strict
  --session ID         clean the files recorded for this session
  --accept-reduced     go on when a validation command is missing, at the level that can run
  --json               print the report as JSON on standard output
  --quiet              print only problems
  --diff               show what would change as a unified diff on standard output
                       (carriers written <U+XXXX>), writing nothing: the same engine,
                       proofs and minimum validation run, the validation commands do
                       not; exit 1 when something would change
  --exit-zero          exit 0 even when a file is refused, a named path is missing or
                       the run cannot start (still reported): for hook managers, so a
                       refusal never blocks a commit, as prosewash's own git hook does

Exit status: 0 cleaned or nothing to do, 1 --diff shows a change, 2 usage error, invalid configuration or a
named path that does not exist (the other files are still cleaned), 3 a file or the
run was refused or rolled back.`

const testHelp = `Runs the whole pipeline and the validation on the named files inside a transaction and
always puts the originals back: it reports what would change and whether validation
passes. The validation commands themselves may still write caches or logs.`

type cleanFlags struct {
	pipeline, profile, session string
	acceptReduced, asJSON      bool
	quiet, exitZero, diff      bool
}

func runClean(e *env, args []string) error { return cleanOrTest(e, args, false) }

// failOpen turns what stopped a run (a refusal, a missing path, a run that
// could not start) into exit 0 for callers that must never be blocked by
// prosewash, the hook managers; it is reported first, as it would be.
func failOpen(e *env, err error) error {
	var ue *usageError
	if err == nil || errors.As(err, &ue) {
		return err
	}
	if errors.Is(err, errFindings) {
		return nil // --diff had something to show: nothing went wrong
	}
	if !silent(err) && err.Error() != "" {
		e.ui.errorf("%s", err)
	}
	e.ui.warnf("the commit goes on (--exit-zero): look at what was refused above")
	return nil
}

func runTest(e *env, args []string) error { return cleanOrTest(e, args, true) }

func cleanOrTest(e *env, args []string, test bool) (err error) {
	name := "clean"
	if test {
		name = "test"
	}
	fs := newFlags(name)
	var f cleanFlags
	fs.StringVar(&f.pipeline, "pipeline", "", "")
	fs.StringVar(&f.profile, "profile", "", "")
	fs.StringVar(&f.session, "session", "", "")
	fs.BoolVar(&f.acceptReduced, "accept-reduced", false, "")
	fs.BoolVar(&f.asJSON, "json", false, "")
	fs.BoolVar(&f.quiet, "quiet", false, "")
	fs.BoolVar(&f.exitZero, "exit-zero", false, "")
	if !test {
		fs.BoolVar(&f.diff, "diff", false, "")
	}
	paths, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if f.diff && f.asJSON {
		return usagef("--diff and --json: choose one")
	}
	if f.exitZero {
		defer func() { err = failOpen(e, err) }()
	}
	if test && len(paths) == 0 {
		return usagef("test needs FILE arguments")
	}
	p, err := openProject(e)
	if err != nil {
		return err
	}
	if err := loadConfig(e, p); err != nil {
		return err
	}
	req := clean.Request{
		Project: p, Pipeline: f.pipeline, Profile: f.profile, Test: test,
		AcceptReduced: f.acceptReduced, Ask: terminalAsk(e),
		Self: self(), Version: Version(),
	}
	if !f.quiet || f.asJSON {
		req.Notice = func(msg string) { e.ui.infof("%s", msg) }
	}
	var diffs bytes.Buffer
	if f.diff {
		// Rehearse: every proof and the minimum validation run, nothing
		// is written; what would be written is shown as a diff.
		req.DryRun = true
		req.Rehearsed = func(rel string, before, after []byte) { writeDiff(&diffs, rel, before, after) }
	}
	missing := 0
	if len(paths) > 0 {
		req.Explicit, req.Scope = true, "explicit targets"
		if err := explicitTargets(e, &req, paths); err != nil {
			return err
		}
		missing = countMissing(paths)
	} else if err := sessionTargets(p, &req, f.session); err != nil {
		return err
	}
	rep, err := clean.Run(e.ctx, req)
	if err != nil {
		return runError(e, err)
	}
	if f.asJSON {
		if err := rep.WriteJSON(e.stdout); err != nil {
			return err
		}
	} else {
		printReport(e, rep, f.quiet)
	}
	if _, err := e.stdout.Write(diffs.Bytes()); err != nil {
		return err
	}
	switch {
	case missing > 0:
		// A named path that is not there is the caller's mistake (exit 2,
		// as check says it); the other files were still cleaned.
		return &exitError{code: exitUsage}
	case rep.Summary.Refused > 0:
		return errRefused
	case diffs.Len() > 0:
		// --diff found something to clean: "look", as check says it.
		return errFindings
	}
	return nil
}

// countMissing counts the named paths that do not exist.
func countMissing(paths []string) int {
	n := 0
	for _, a := range paths {
		if _, err := os.Lstat(userPath(a)); errors.Is(err, os.ErrNotExist) {
			n++
		}
	}
	return n
}

// explicitTargets turns the paths the user named into targets. A directory
// stands for the files under it that have a classifier (walked like check:
// .git, git-ignored paths, binary files and symlinks left out); other files
// under it are counted, not refused one by one.
func explicitTargets(e *env, req *clean.Request, paths []string) error {
	for _, a := range paths {
		p := userPath(a)
		abs, err := filepath.Abs(p)
		if err != nil {
			return err
		}
		if fi, err := os.Stat(p); err != nil || !fi.IsDir() || isSymlink(p) {
			req.Targets = append(req.Targets, clean.Target{Path: abs, Rel: a})
			continue
		}
		other := 0
		err = walk.Walk(e.ctx, []string{p}, walk.Options{}, func(walk.File) (any, error) { return nil, nil },
			func(path string, _ any, _ error) error {
				if clean.Unclassified(path) != "" {
					other++
					return nil
				}
				fa, err := filepath.Abs(path)
				if err != nil {
					return err
				}
				req.Targets = append(req.Targets, clean.Target{Path: fa, Rel: path})
				return nil
			}, nil)
		if err != nil {
			return err
		}
		if other > 0 {
			req.Skipped = append(req.Skipped, report.Skip{Path: a, Reason: fmt.Sprintf("%d file%s without a classifier left alone", other, plural(other))})
		}
	}
	return nil
}

func isSymlink(p string) bool {
	fi, err := os.Lstat(p)
	return err == nil && fi.Mode()&os.ModeSymlink != 0
}

// sessionTargets fills a request from a session record: eligible files
// become targets carrying their recorded hash, every other file is listed
// as skipped with its status.
func sessionTargets(p *project.Project, req *clean.Request, flag string) error {
	stateDir, session, how, err := sessionFor(p, flag)
	if err != nil {
		return err
	}
	rec, err := scope.Open(stateDir, session)
	if err != nil {
		return err
	}
	entries, err := rec.Entries()
	if err != nil {
		return err
	}
	sel, err := clean.SessionTargets(p, entries)
	if err != nil {
		return err
	}
	req.Record = rec
	req.Scope = fmt.Sprintf("session %s%s (%d recorded files)", session, how, len(entries))
	req.Targets, req.Skipped = sel.Targets, append(req.Skipped, sel.Skipped...)
	return nil
}

// runError reports a refused run with the hint that resolves it.
func runError(e *env, err error) error {
	var pend *txn.PendingError
	var locked *txn.LockedError
	var guard *txn.GuardError
	var refused *clean.RefusedError
	var cfgErr *config.Error
	switch {
	case errors.As(err, &pend):
		e.ui.errorf("%v", err)
		e.ui.hintf("run 'prosewash recover' to bring the interrupted run to a safe end")
		return errRefused
	case errors.As(err, &locked), errors.As(err, &guard), errors.As(err, &refused):
		e.ui.errorf("refused: %v", err)
		return errRefused
	case errors.As(err, &cfgErr):
		return err
	}
	return err
}

// printReport renders a run's report on standard error.
func printReport(e *env, r *report.Run, quiet bool) {
	for _, l := range r.Lines(quiet) {
		if l.Level == report.Warn {
			e.ui.warnf("%s", l.Text)
		} else {
			e.ui.infof("%s", l.Text)
		}
	}
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

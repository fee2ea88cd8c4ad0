package git

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/prosewash/prosewash/internal/engine/clean"
	"github.com/prosewash/prosewash/internal/engine/gitstate"
	"github.com/prosewash/prosewash/internal/engine/project"
	"github.com/prosewash/prosewash/internal/engine/report"
	"github.com/prosewash/prosewash/internal/engine/scope"
	"github.com/prosewash/prosewash/internal/engine/txn"
)

// Options are what both hooks need from the process.
type Options struct {
	Project *project.Project
	// Session names the record to use; "" means $PROSEWASH_SESSION, else
	// the session recorded most recently.
	Session string
	Getenv  func(string) string
	Self    string
	Version string
	Now     func() time.Time
	// Clean runs the engine; nil means clean.Run.
	Clean func(context.Context, clean.Request) (*report.Run, error)
}

func (o *Options) getenv(k string) string {
	if o.Getenv == nil {
		return os.Getenv(k)
	}
	return o.Getenv(k)
}

func (o *Options) clean() func(context.Context, clean.Request) (*report.Run, error) {
	if o.Clean == nil {
		return clean.Run
	}
	return o.Clean
}

// gitOut runs git in dir with the hook's environment (GIT_INDEX_FILE
// included: during "git commit -a" the staged set lives in a temporary
// index that only that variable names) and returns its stdout.
func gitOut(ctx context.Context, dir string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(errb.String())
		if i := strings.IndexByte(msg, '\n'); i >= 0 {
			msg = msg[:i]
		}
		return nil, fmt.Errorf("git %s: %v: %s", args[0], err, msg)
	}
	return out.Bytes(), nil
}

func splitZ(b []byte) []string {
	var out []string
	for _, s := range bytes.Split(b, []byte{0}) {
		if len(s) > 0 {
			out = append(out, string(s))
		}
	}
	return out
}

// toplevel is the top of the work tree git runs the hook in.
func toplevel(ctx context.Context, dir string) (string, error) {
	out, err := gitOut(ctx, dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return "", err
	}
	top := strings.TrimRight(string(out), "\n")
	if real, err := filepath.EvalSymlinks(top); err == nil {
		top = real
	}
	return top, nil
}

// PreCommitResult is what the pre-commit hook found and did.
type PreCommitResult struct {
	Session string // "" when no session is recorded
	Staged  int
	// Run is the clean run over the staged files the session wrote; nil
	// when none was eligible.
	Run *report.Run
	// Changed are the files the run cleaned: the commit must stop so the
	// user reviews and stages them.
	Changed []string
	// Skipped are staged recorded files left alone, with why.
	Skipped []report.Skip
	// Survey is a report-only pass over every other staged file: carriers
	// in code, strings and directives, and prose carriers this session did
	// not write.
	Survey *report.Run
	// SurveyErr says why the survey could not run; the hook warns and
	// goes on.
	SurveyErr error
}

// PreCommit cleans the staged files that are eligible in the session
// record (the agent wrote them and nobody changed them since), and
// surveys the rest. It never cleans a file with unstaged changes: the user
// would have to stage changes they did not mean to commit.
func PreCommit(ctx context.Context, o Options) (*PreCommitResult, error) {
	p := o.Project
	res := &PreCommitResult{}
	top, err := toplevel(ctx, p.Root)
	if err != nil {
		return nil, err
	}
	out, err := gitOut(ctx, top, "diff", "--cached", "--name-only", "-z", "--no-renames", "--diff-filter=ACM")
	if err != nil {
		return nil, err
	}
	staged := splitZ(out)
	res.Staged = len(staged)
	if len(staged) == 0 {
		return res, nil
	}
	abs := map[string]string{} // absolute -> relative to top
	for _, rel := range staged {
		abs[filepath.Join(top, filepath.FromSlash(rel))] = rel
	}

	// Files whose working copy differs from what is staged.
	out, err = gitOut(ctx, top, "diff", "--name-only", "-z", "--no-renames")
	if err != nil {
		return nil, err
	}
	unstaged := map[string]bool{}
	for _, rel := range splitZ(out) {
		unstaged[rel] = true
	}

	stateDir, err := p.StateDir()
	if err != nil {
		return nil, err
	}
	session, how, err := scope.Resolve(stateDir, o.Session, o.getenv)
	if err != nil {
		return nil, err
	}
	res.Session = session
	var targets []clean.Target
	inRun := map[string]bool{}
	var rec *scope.Record
	if session != "" {
		rec, err = scope.Open(stateDir, session)
		if err != nil {
			return nil, err
		}
		entries, err := rec.Entries()
		if err != nil {
			return nil, err
		}
		var mine []scope.Entry
		for _, e := range entries {
			if _, ok := abs[e.Path]; ok {
				mine = append(mine, e)
			}
		}
		sel, err := clean.SessionTargets(p, mine)
		if err != nil {
			return nil, err
		}
		res.Skipped = append(res.Skipped, sel.Skipped...)
		for _, t := range sel.Targets {
			rel := abs[t.Path]
			if unstaged[rel] {
				res.Skipped = append(res.Skipped, report.Skip{Path: rel, Reason: "has unstaged changes; clean it and stage it yourself (prosewash clean " + rel + ")"})
				continue
			}
			targets = append(targets, clean.Target{Path: t.Path, Rel: rel, Expect: t.Expect})
			inRun[t.Path] = true
		}
	}
	run := o.clean()
	if len(targets) > 0 {
		rep, err := run(ctx, clean.Request{
			// A commit's hook runs unwatched, like the end of a turn.
			Project: p, Targets: targets, Skipped: res.Skipped, StripGitEnv: true, Record: rec, RefuseOtherOpeners: true,
			Scope: fmt.Sprintf("staged files recorded for session %s%s", session, how),
			Self:  o.Self, Version: o.Version, Now: o.Now,
		})
		if err != nil {
			return res, err
		}
		res.Run = rep
		for _, f := range rep.Files {
			if f.Status == report.Cleaned {
				res.Changed = append(res.Changed, f.Path)
			}
		}
	}

	// Survey: every other staged file a classifier knows, report only,
	// with the safe pipeline whatever is configured (a survey must never
	// reach a rewrite model).
	var survey []clean.Target
	for a, rel := range abs {
		if !inRun[a] && clean.Unclassified(a) == "" {
			survey = append(survey, clean.Target{Path: a, Rel: rel})
		}
	}
	sort.Slice(survey, func(i, j int) bool { return survey[i].Rel < survey[j].Rel })
	if len(survey) > 0 {
		rep, err := run(ctx, clean.Request{
			Project: p, Targets: survey, Pipeline: "safe", DryRun: true, StripGitEnv: true, AcceptReduced: true,
			Scope: "staged files (report only)",
			Self:  o.Self, Version: o.Version, Now: o.Now,
		})
		res.Survey, res.SurveyErr = rep, err
	}
	return res, nil
}

// PostCheckoutResult is what the post-checkout hook did.
type PostCheckoutResult struct {
	Interrupted []string // runs that need "prosewash recover"
	Skipped     string   // why nothing was marked, if so
	Marked      int      // record entries marked as replaced by the checkout
}

// PostCheckout marks recorded files a branch checkout replaced, in every
// session record of the project, so no later run mistakes git's content
// for the agent's. It does nothing for a file checkout (flag 0), after a
// clone, or while a rebase or other operation is in progress (git checks
// out commits along the way; the files are not the user's yet).
func PostCheckout(ctx context.Context, o Options, oldRef, newRef, flag string) (*PostCheckoutResult, error) {
	p := o.Project
	res := &PostCheckoutResult{}
	stateDir, err := p.StateDir()
	if err != nil {
		return nil, err
	}
	res.Interrupted = txn.Interrupted(stateDir)
	switch {
	case flag != "1":
		res.Skipped = "file checkout"
		return res, nil
	case oldRef == "" || newRef == "" || strings.Trim(oldRef, "0") == "":
		res.Skipped = "no previous HEAD"
		return res, nil
	case oldRef == newRef:
		res.Skipped = "HEAD did not change"
		return res, nil
	}
	repo, err := p.Repo()
	if err != nil {
		return res, err
	}
	if op, _, err := repo.InProgress(); err == nil && op != gitstate.None {
		res.Skipped = fmt.Sprintf("a git %s is in progress", op)
		return res, nil
	}
	top, err := toplevel(ctx, p.Root)
	if err != nil {
		return res, err
	}
	out, err := gitOut(ctx, top, "diff", "--name-only", "-z", "--no-renames", oldRef, newRef, "--")
	if err != nil {
		return res, err
	}
	changed := map[string]bool{}
	for _, rel := range splitZ(out) {
		changed[filepath.Join(top, filepath.FromSlash(rel))] = true
	}
	if len(changed) == 0 {
		return res, nil
	}
	sessions, err := scope.Sessions(stateDir)
	if err != nil {
		return res, err
	}
	now := time.Now
	if o.Now != nil {
		now = o.Now
	}
	var errs []error
	for _, s := range sessions {
		rec, err := scope.Open(stateDir, s)
		if err != nil {
			continue
		}
		entries, err := rec.Entries()
		if err != nil {
			errs = append(errs, err)
			continue
		}
		var hit []string
		for _, e := range entries {
			if changed[e.Path] && e.Op != scope.OpCheckout {
				hit = append(hit, e.Path)
			}
		}
		if len(hit) == 0 {
			continue
		}
		if err := rec.MarkCheckout(hit, now()); err != nil {
			errs = append(errs, err)
			continue
		}
		res.Marked += len(hit)
	}
	return res, errors.Join(errs...)
}

package clean

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/prosewash/prosewash/internal/engine/carrier"
	"github.com/prosewash/prosewash/internal/engine/config"
	"github.com/prosewash/prosewash/internal/engine/fsx"
	"github.com/prosewash/prosewash/internal/engine/pipeline"
	"github.com/prosewash/prosewash/internal/engine/project"
	"github.com/prosewash/prosewash/internal/engine/provider"
	"github.com/prosewash/prosewash/internal/engine/region"
	"github.com/prosewash/prosewash/internal/engine/report"
	"github.com/prosewash/prosewash/internal/engine/scope"
	"github.com/prosewash/prosewash/internal/engine/txn"
	"github.com/prosewash/prosewash/internal/engine/validate"
)

// Request is one clean or test run. Adapters (CLI, hooks) build it; the
// engine never knows which one did.
type Request struct {
	Project  *project.Project
	Targets  []Target
	Skipped  []report.Skip // files the caller left out, with why (session statuses)
	Scope    string        // for the acknowledgement line: "explicit targets", "session X"
	Pipeline string        // "" means [clean] pipeline
	Profile  string        // "" means [clean] profile

	Explicit  bool // the user named the files
	Automatic bool // unattended (the Stop hook)
	Test      bool // install, validate, always restore
	DryRun    bool // stop before any write: report what would change

	// AcceptReduced accepts a weaker validation than demanded when a
	// command is missing, instead of asking (scripts).
	AcceptReduced bool
	// Ask puts a yes/no question to the user on a terminal. Nil means
	// nobody can answer: everything that needs an answer is refused.
	Ask func(question string) bool
	// Notice tells the user something before the run goes on (the
	// acknowledgement line, reduced guarantees). May be nil.
	Notice func(msg string)

	Self    string // path of the prosewash binary, for ${prosewash}
	Argv0   string // argv[0] for built-in providers
	Version string // prosewash version, which shipped providers share

	InGitHook bool // strip git's variables from validation commands
	// RefuseOtherOpeners leaves a file alone when any other process has
	// it open or mapped at all, a reader included (a read-only descriptor
	// can be reopened for writing through /proc after the swap), not only
	// a writer: for callers nobody watches (txn.Options).
	RefuseOtherOpeners bool
	// Record, when set, is re-baselined with the new hashes of the files
	// this run changed, so its own edit is not mistaken for a human one.
	Record *scope.Record
	Now    func() time.Time
}

// RefusedError refuses a whole run before any file is touched.
type RefusedError struct{ Msg string }

func (e *RefusedError) Error() string { return e.Msg }

func refusef(format string, args ...any) error {
	return &RefusedError{Msg: fmt.Sprintf(format, args...)}
}

// varKeys maps provider variables to the configuration keys that set them,
// so a missing value can be named.
func varKeys() map[string]string {
	return map[string]string{"model": "[clean] rewrite_model", "endpoint": "[clean] rewrite_endpoint", "profile": "[clean] profile"}
}

// Run carries out a clean run: resolve, read, run stages, prove, validate,
// install transactionally, re-baseline, report. Per-file problems are in the
// report; an error means the run as a whole was refused or failed.
func Run(ctx context.Context, req Request) (*report.Run, error) {
	p := req.Project
	cfg, _, err := p.Config()
	if err != nil {
		return nil, err
	}
	now := req.Now
	if now == nil {
		now = time.Now
	}
	pipeID := req.Pipeline
	if pipeID == "" {
		pipeID = cfg.Clean.Pipeline
	}
	profile := cfg.Clean.Profile
	if req.Profile != "" {
		if profile, err = carrier.ParseProfile(req.Profile); err != nil {
			return nil, err
		}
	}
	mode := cfg.CleanMode()
	if req.Automatic {
		mode = config.ModeAutomatic
	} else if req.Explicit || req.Test {
		mode = config.ModeManual
	}
	cmd := "clean"
	if req.Test {
		cmd = "test"
	}
	rep := &report.Run{Command: cmd, Pipeline: pipeID, Mode: mode, Scope: req.Scope, Skipped: req.Skipped}
	if req.Notice != nil {
		req.Notice(rep.Ack())
	}

	res, err := resolve(p, pipeID, cfg, req)
	if err != nil {
		return rep, err
	}
	vars := map[string]string{
		"prosewash": req.Self, "workspace": p.Root, "profile": string(profile),
		"model": cfg.Clean.RewriteModel, "endpoint": cfg.Clean.RewriteEndpoint,
		"provider_dir": p.CustomDir(project.CustomProviders),
	}
	for _, st := range res.Stages {
		if st.Def == nil {
			continue
		}
		for _, o := range st.Op.Options {
			if vars[o] == "" {
				return rep, refusef("stage %q (%s) needs %s, which is not set", st.Name, st.Def.Ref(st.Op), varKeys()[o])
			}
		}
		for _, a := range st.Op.Args {
			for k, key := range varKeys() {
				if strings.Contains(a, "${"+k+"}") && vars[k] == "" {
					return rep, refusef("stage %q (%s) needs %s, which is not set", st.Name, st.Def.Ref(st.Op), key)
				}
			}
		}
	}
	if err := checkBindings(p, res, req, vars); err != nil {
		return rep, err
	}
	// A rewrite never runs without its tests: refuse before any text is
	// sent to a model rather than after.
	if res.Rewrites > 0 {
		if _, err := validate.NewPlan(cfg.Clean.Validation, res.Demand, cfg.Commands); err != nil {
			return rep, &RefusedError{Msg: err.Error()}
		}
	}
	stateDir, err := p.StateDir()
	if err != nil {
		return rep, err
	}
	if ids := txn.Interrupted(stateDir); len(ids) > 0 && !req.DryRun {
		return rep, &txn.PendingError{RunIDs: ids}
	}

	// Read, run the stages, prove structure, minimum validation.
	var files []*File
	for _, t := range req.Targets {
		f := Load(t, cfg.Clean.MaxFileSize)
		f.ProjectRel = p.Rel(t.Path)
		files = append(files, f)
	}
	var alive []*File
	for _, f := range files {
		if f.Alive() {
			alive = append(alive, f)
		}
	}
	eng := &Engine{Pipeline: res, Run: provider.Run, Call: provider.Call{Vars: vars, Argv0: req.Argv0, Dir: p.Root}, Allow: cfg.AllowRules()}
	eng.RunStages(ctx, alive)
	minimum(ctx, files)
	if err := ctx.Err(); err != nil {
		return rep, fmt.Errorf("interrupted before any file was written: %w", err)
	}

	// Validation plan: the stronger of configured and demanded.
	demand := res.Demand
	var changed []*File
	for _, f := range files {
		if f.Status != Changed {
			continue
		}
		changed = append(changed, f)
		for k := range f.TouchedKinds {
			if k.String() != "prose" {
				demand = validate.Tests
			}
		}
	}
	plan, guarantee, err := validationPlan(cfg, demand, res, req, len(changed) > 0)
	if err != nil {
		for _, f := range changed {
			f.refuse("%v", err)
		}
		changed = nil
		rep.Guarantee = err.Error()
	}
	rep.Level = plan.Applied.String()
	if guarantee != "" {
		rep.Guarantee = guarantee
	}

	if req.DryRun || len(changed) == 0 {
		finish(rep, p, files, nil, req.DryRun || req.Test)
		return rep, nil
	}

	// The transaction: compare-and-swap installs under the lock and the
	// git guard, validation, commit or rollback.
	repo, err := p.Repo()
	if err != nil {
		return rep, err
	}
	var guard func() error
	paths := make([]string, len(changed))
	for i, f := range changed {
		paths[i] = f.Path
	}
	// Every repository that owns a file is guarded: a submodule's own
	// rebase holds back a clean started from the superproject.
	if g, err := repo.NewGuardFor(paths); err != nil {
		return rep, err
	} else if g.Active() {
		guard = g.Check
	}
	ops := make([]txn.Op, len(changed))
	for i, f := range changed {
		ops[i] = txn.Op{Kind: txn.Replace, Path: f.Path, Data: f.Cur, Expect: fsx.SHA256(f.Orig)}
	}
	var outcome *validate.Outcome
	validateFn := func(v *txn.Validation) error {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("interrupted before validation: %w", err)
		}
		if len(plan.Steps) == 0 {
			return nil
		}
		out := validate.RunPlan(ctx, plan, validate.RunOptions{
			Dir: p.Root, Timeout: cfg.Clean.ValidationTimeout, StripGitEnv: req.InGitHook,
			OnStart: func(validate.Level, int) { v.Failpoint() }, Watch: v.Installed(),
		})
		outcome = &out
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("interrupted during validation: %w", err)
		}
		if out.Status != validate.OK {
			return errors.New(describeFailure(out))
		}
		return nil
	}
	result, txErr := txn.Run(txn.Options{Root: p.Root, StateDir: stateDir, Guard: guard, Getenv: os.Getenv, Test: req.Test, MaxFileSize: cfg.Clean.MaxFileSize,
		RefuseOtherOpeners: req.RefuseOtherOpeners}, ops, validateFn)
	byPath := map[string]txn.FileResult{}
	for _, fr := range result.Files {
		byPath[fr.Path] = fr
	}
	if outcome != nil {
		rep.Validation = summarize(*outcome)
	}
	var verr *txn.ValidationError
	switch {
	case txErr == nil, errors.As(txErr, &verr):
	default:
		// Refused before any write (lock, pending journal, guard): no
		// file was touched; report why and stop.
		return rep, txErr
	}
	finish(rep, p, files, byPath, req.Test)
	if ctx.Err() != nil {
		for i := range rep.Files {
			if rep.Files[i].Status == report.Restored {
				rep.Files[i].Reason = "interrupted; the original is back"
			}
		}
	}
	if req.Record != nil && !req.Test {
		hashes := map[string]string{}
		for _, f := range changed {
			if fr, ok := byPath[f.Path]; ok && fr.Status == txn.StatusCommitted {
				hashes[f.Path] = fsx.SHA256(f.Cur).String()
			}
		}
		if len(hashes) > 0 {
			if err := req.Record.Rebaseline(hashes, now()); err != nil {
				rep.Notes = append(rep.Notes, "could not re-baseline the session record: "+err.Error())
			}
		}
	}
	return rep, nil
}

func resolve(p *project.Project, id string, cfg *config.Config, req Request) (*pipeline.Resolved, error) {
	pipes, err := p.Pipelines()
	if err != nil {
		return nil, err
	}
	provs, err := p.Providers()
	if err != nil {
		return nil, err
	}
	pl, ok := pipes.Lookup(id)
	if !ok {
		return nil, refusef("unknown pipeline %q (see prosewash pipelines)", id)
	}
	return pipeline.Resolve(pl, provs, pipeline.Options{
		MaxRewriteStages: cfg.Clean.MaxRewriteStages,
		ExplicitTarget:   req.Explicit,
		Automatic:        req.Automatic,
	})
}

// checkBindings refuses providers that cannot be bound (a bare
// interpreter) in automatic runs, and asks before running them otherwise.
func checkBindings(p *project.Project, res *pipeline.Resolved, req Request, vars map[string]string) error {
	for _, st := range res.Stages {
		if st.Def == nil || st.Def.Shipped {
			continue
		}
		b := provider.Bind(st.Def, vars, p.Root, req.Version)
		if b.Bindable() {
			continue
		}
		if req.Automatic {
			return refusef("provider %s cannot be bound (%s): it never runs automatically", st.Def.ID, b.Why)
		}
		q := fmt.Sprintf("provider %s cannot be bound to what it runs (%s); run it this once?", st.Def.ID, b.Why)
		if req.Ask == nil || !req.Ask(q) {
			return refusef("provider %s cannot be bound (%s) and needs confirmation on a terminal for every run", st.Def.ID, b.Why)
		}
	}
	return nil
}

// validationPlan decides the level. A missing command is never a silent
// downgrade: unattended runs refuse, explicit runs state the reduced
// guarantee and ask (or take --accept-reduced). A rewrite never runs
// without its tests.
func validationPlan(cfg *config.Config, demand validate.Level, res *pipeline.Resolved, req Request, anyChange bool) (validate.Plan, string, error) {
	plan, err := validate.NewPlan(cfg.Clean.Validation, demand, cfg.Commands)
	if err == nil || !anyChange {
		return plan, "", nil
	}
	var mc *validate.MissingCommandError
	if !errors.As(err, &mc) {
		return plan, "", err
	}
	if req.Automatic || res.Rewrites > 0 {
		return validate.Plan{}, "", err
	}
	reduced := fmt.Sprintf("reduced guarantee: %s cannot run (set %s); validating at %s only", mc.Level, mc.Key, mc.Available)
	if req.Notice != nil {
		req.Notice(reduced)
	}
	if !req.AcceptReduced && (req.Ask == nil || !req.Ask("go on with the reduced guarantee?")) {
		return validate.Plan{}, "", fmt.Errorf("%v; refused (use --accept-reduced to accept %s)", err, mc.Available)
	}
	plan, err = validate.NewPlan(validate.Min(cfg.Clean.Validation, mc.Available), mc.Available, cfg.Commands)
	return plan, reduced, err
}

func describeFailure(out validate.Outcome) string {
	for _, s := range out.Steps {
		if s.Status == validate.Failed {
			msg := fmt.Sprintf("%s validation failed: %s", s.Level, s.Reason)
			if s.Command != nil && strings.TrimSpace(s.Command.Tail) != "" {
				msg += "\n" + indent(strings.TrimRight(s.Command.Tail, "\n"))
			}
			return msg
		}
	}
	return "validation failed"
}

func indent(s string) string {
	lines := strings.Split(s, "\n")
	if len(lines) > 20 {
		lines = lines[len(lines)-20:]
	}
	return "    " + strings.Join(lines, "\n    ")
}

func summarize(out validate.Outcome) []report.Check {
	var cs []report.Check
	for _, s := range out.Steps {
		c := report.Check{Level: s.Level.String(), Status: string(s.Status), Reason: s.Reason}
		if s.Command != nil {
			c.Tail = s.Command.Tail
		}
		cs = append(cs, c)
	}
	return cs
}

// minimum runs the always-on checks on every changed candidate.
func minimum(ctx context.Context, files []*File) {
	var cands []validate.Candidate
	var idx []*File
	for _, f := range files {
		if f.Status == Changed {
			c := validate.Candidate{Path: f.Path, Original: f.Orig, Candidate: f.Cur, Lang: f.Lang}
			if f.Lang == "shell" {
				c.Dialect = region.ShellDialect(f.Path, f.Orig)
			}
			cands = append(cands, c)
			idx = append(idx, f)
		}
	}
	if len(cands) == 0 {
		return
	}
	for i, r := range validate.Minimum(ctx, cands, validate.Options{}) {
		f := idx[i]
		f.Validation, f.ValidationNote = string(r.Status), r.Reason
		if r.Status == validate.Failed {
			f.refuse("minimum validation failed: %s", r.Reason)
		}
	}
}

// finish turns files and transaction results into report lines.
func finish(rep *report.Run, p *project.Project, files []*File, tx map[string]txn.FileResult, rehearsal bool) {
	for _, f := range files {
		rf := report.File{Path: f.Rel, Status: report.Unchanged, Reason: f.Reason, Stages: f.Stages, Reported: f.Reported, Validation: f.Validation, Note: f.ValidationNote}
		if rf.Path == "" {
			rf.Path = p.Rel(f.Path)
		}
		if f.Status == Refused {
			rf.Status = report.Refused
		}
		if f.Status == Changed {
			rf.Status = report.WouldChange
			if fr, ok := tx[f.Path]; ok {
				switch fr.Status {
				case txn.StatusCommitted:
					rf.Status = report.Cleaned
				case txn.StatusRestored:
					if !rehearsal {
						rf.Status, rf.Reason = report.Restored, "validation failed; the original is back"
					}
				case txn.StatusConflict:
					rf.Status, rf.Reason = report.Conflict, errText(fr.Err, "changed by someone else during the run; left as it is")
				case txn.StatusKept:
					rf.Status, rf.Reason = report.Kept, errText(fr.Err, "changed after install; kept as found, original saved aside")
				case txn.StatusRefused:
					rf.Status, rf.Reason = report.Refused, errText(fr.Err, "refused")
				case txn.StatusSkipped:
					rf.Status, rf.Reason = report.Skipped, errText(fr.Err, "not attempted: the run stopped first")
				}
			}
		}
		rep.Files = append(rep.Files, rf)
	}
	sort.SliceStable(rep.Files, func(i, j int) bool { return rep.Files[i].Path < rep.Files[j].Path })
	rep.Tally()
}

func errText(err error, def string) string {
	if err == nil {
		return def
	}
	return err.Error()
}

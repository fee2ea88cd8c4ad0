package clean

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/prosewash/prosewash/internal/engine/fsx"
	"github.com/prosewash/prosewash/internal/engine/project"
	"github.com/prosewash/prosewash/internal/engine/region"
	"github.com/prosewash/prosewash/internal/engine/report"
	"github.com/prosewash/prosewash/internal/engine/scope"
	"github.com/prosewash/prosewash/internal/engine/txn"
	"github.com/prosewash/prosewash/internal/engine/validate"
)

// Request is one clean or test run. Adapters (CLI, hooks) build it; the
// engine never knows which one did. Prepare reads what decides the plan;
// Execute what one execution of it takes (see Batch).
type Request struct {
	Project  *project.Project
	Targets  []Target
	Skipped  []report.Skip // files the caller left out, with why (session statuses)
	Scope    string        // for the acknowledgement line: "explicit targets", "session X"
	Pipeline string        // "" means [clean] pipeline
	Profile  string        // "" means [clean] profile
	// Mode plans the run for a mode other than the one it would take:
	// an approval plans for the mode it approves. "" derives it
	// (Automatic, Explicit and Test choose; else [clean] mode).
	Mode string

	Explicit  bool // the user named the files
	Automatic bool // unattended (the end of an agent's turn)
	Test      bool // install, validate, always restore
	DryRun    bool // stop before any write: report what would change
	// Rehearsed, with DryRun, receives each file the run would change, as
	// it is and as it would be written (after every proof and the minimum
	// validation), so a caller can show the change without any write.
	Rehearsed func(rel string, before, after []byte)

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
	Version string // prosewash version, which shipped providers share

	// StripGitEnv runs validation commands without git's variables.
	StripGitEnv bool
	// RefuseOtherOpeners leaves a file alone when any other process has
	// it open or mapped at all, a reader included (a read-only descriptor
	// can be reopened for writing through /proc after the swap), not only
	// a writer: for callers nobody watches (txn.Options).
	RefuseOtherOpeners bool
	// ShippedOnly plans with the definitions that ship with the binary,
	// whatever the project defines.
	ShippedOnly bool
	// Runner and Specials replace the subprocess runner (see Plan).
	Runner   Runner
	Specials func(text []byte) ([]int, bool)

	// Record, when set, is re-baselined with the new hashes of the files
	// this run changed, so its own edit is not mistaken for a human one.
	Record *scope.Record
	Now    func() time.Time
}

// Batch is what one execution of a plan takes and how it may talk to the
// person running it.
type Batch struct {
	Targets []Target
	Skipped []report.Skip
	Scope   string
	DryRun  bool
	// Rehearsed is as in Request.
	Rehearsed func(rel string, before, after []byte)
	// Record, RefuseOtherOpeners, AcceptReduced, Ask, Notice and Now are
	// as in Request.
	Record             *scope.Record
	RefuseOtherOpeners bool
	AcceptReduced      bool
	Ask                func(question string) bool
	Notice             func(msg string)
	Now                func() time.Time
}

func (req Request) batch() Batch {
	return Batch{
		Targets: req.Targets, Skipped: req.Skipped, Scope: req.Scope, DryRun: req.DryRun, Rehearsed: req.Rehearsed, Record: req.Record,
		RefuseOtherOpeners: req.RefuseOtherOpeners, AcceptReduced: req.AcceptReduced, Ask: req.Ask, Notice: req.Notice, Now: req.Now,
	}
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

// Run prepares a run and executes it: the command line's and the git
// hook's way in. It announces the run before planning it, so a refusal
// follows the line naming what was refused.
func Run(ctx context.Context, req Request) (*report.Run, error) {
	h, err := headingOf(req)
	if err != nil {
		return nil, err
	}
	rep := &report.Run{Command: h.command, Pipeline: h.pipelineID, Mode: h.mode, Scope: req.Scope, Skipped: req.Skipped}
	if req.Notice != nil {
		req.Notice(rep.Ack())
	}
	plan, err := makePlan(req, h)
	if err != nil {
		return rep, err
	}
	return Execute(ctx, plan, req.batch())
}

// Execute carries out a plan over a batch of files: read, run the stages,
// prove, validate, install transactionally, re-baseline, report. Per-file
// problems are in the report; an error means the run as a whole was
// refused or failed.
func Execute(ctx context.Context, plan *Plan, b Batch) (*report.Run, error) {
	rep := &report.Run{Command: plan.Command, Pipeline: plan.PipelineID, Mode: plan.Mode, Scope: b.Scope, Skipped: b.Skipped}
	p := plan.Project
	stateDir, err := p.StateDir()
	if err != nil {
		return rep, err
	}
	if ids := txn.Interrupted(stateDir); len(ids) > 0 && !b.DryRun {
		return rep, &txn.PendingError{RunIDs: ids}
	}

	// Read, run the stages, prove structure, minimum validation.
	files := plan.load(b.Targets)
	plan.Engine().RunStages(ctx, alive(files))
	minimum(ctx, files)
	if err := ctx.Err(); err != nil {
		return rep, fmt.Errorf("interrupted before any file was written: %w", err)
	}

	// Validation plan: the stronger of configured and demanded.
	changed, demand := changedFiles(files, plan.Validation.Demand)
	vplan, guarantee, err := plan.validationPlan(demand, b, len(changed) > 0)
	if err != nil {
		for _, f := range changed {
			f.refuse("%v", err)
		}
		changed = nil
		rep.Guarantee = err.Error()
	}
	rep.Level = vplan.Applied.String()
	if guarantee != "" {
		rep.Guarantee = guarantee
	}
	if b.DryRun && b.Rehearsed != nil {
		for _, f := range changed {
			b.Rehearsed(f.Rel, f.Orig, f.Cur)
		}
	}
	if b.DryRun || len(changed) == 0 {
		finish(rep, p, files, nil, b.DryRun || plan.test())
		return rep, nil
	}
	byPath, err := plan.install(ctx, stateDir, changed, vplan, b, rep)
	if err != nil {
		return rep, err
	}
	finish(rep, p, files, byPath, plan.test())
	if ctx.Err() != nil {
		for i := range rep.Files {
			if rep.Files[i].Status == report.Restored {
				rep.Files[i].Reason = "interrupted; the original is back"
			}
		}
	}
	if b.Record != nil && !plan.test() {
		rebaseline(rep, b, changed, byPath)
	}
	return rep, nil
}

func (plan *Plan) test() bool { return plan.Command == "test" }

// load reads every target.
func (plan *Plan) load(targets []Target) []*File {
	files := make([]*File, 0, len(targets))
	for _, t := range targets {
		f := Load(t, plan.MaxFileSize)
		f.ProjectRel = plan.Project.Rel(t.Path)
		files = append(files, f)
	}
	return files
}

func alive(files []*File) []*File {
	var out []*File
	for _, f := range files {
		if f.Alive() {
			out = append(out, f)
		}
	}
	return out
}

// changedFiles returns the files a run changed and the validation level
// they demand: tests as soon as one touched anything but prose.
func changedFiles(files []*File, demand validate.Level) ([]*File, validate.Level) {
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
	return changed, demand
}

// install is the transaction: compare-and-swap installs under the lock and
// the git guard, validation, commit or rollback. It returns each file's
// outcome; an error means nothing was written.
func (plan *Plan) install(ctx context.Context, stateDir string, changed []*File, vplan validate.Plan, b Batch, rep *report.Run) (map[string]txn.FileResult, error) {
	p := plan.Project
	repo, err := p.Repo()
	if err != nil {
		return nil, err
	}
	var guard func() error
	paths := make([]string, len(changed))
	for i, f := range changed {
		paths[i] = f.Path
	}
	// Every repository that owns a file is guarded: a submodule's own
	// rebase holds back a clean started from the superproject.
	if g, err := repo.NewGuardFor(paths); err != nil {
		return nil, err
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
		if len(vplan.Steps) == 0 {
			return nil
		}
		out := validate.RunPlan(ctx, vplan, validate.RunOptions{
			Dir: p.Root, Timeout: plan.Validation.Timeout, StripGitEnv: plan.Validation.StripGitEnv,
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
	result, txErr := txn.Run(txn.Options{Root: p.Root, StateDir: stateDir, Guard: guard, Getenv: os.Getenv, Test: plan.test(), MaxFileSize: plan.MaxFileSize,
		RefuseOtherOpeners: b.RefuseOtherOpeners}, ops, validateFn)
	if outcome != nil {
		rep.Validation = summarize(*outcome)
	}
	var verr *txn.ValidationError
	if txErr != nil && !errors.As(txErr, &verr) {
		// Refused before any write (lock, pending journal, guard): no
		// file was touched; report why and stop.
		return nil, txErr
	}
	byPath := map[string]txn.FileResult{}
	for _, fr := range result.Files {
		byPath[fr.Path] = fr
	}
	return byPath, nil
}

// rebaseline records the new hashes of the files this run committed, so
// the session's record does not mistake the run's edit for a person's.
func rebaseline(rep *report.Run, b Batch, changed []*File, byPath map[string]txn.FileResult) {
	hashes := map[string]string{}
	for _, f := range changed {
		if fr, ok := byPath[f.Path]; ok && fr.Status == txn.StatusCommitted {
			hashes[f.Path] = fsx.SHA256(f.Cur).String()
		}
	}
	if len(hashes) == 0 {
		return
	}
	now := b.Now
	if now == nil {
		now = time.Now
	}
	if err := b.Record.Rebaseline(hashes, now()); err != nil {
		rep.Notes = append(rep.Notes, "could not re-baseline the session record: "+err.Error())
	}
}

// validationPlan decides the level. A missing command is never a silent
// downgrade: unattended runs refuse, explicit runs state the reduced
// guarantee and ask (or take --accept-reduced). A rewrite never runs
// without its tests.
func (plan *Plan) validationPlan(demand validate.Level, b Batch, anyChange bool) (validate.Plan, string, error) {
	v := plan.Validation
	vplan, err := validate.NewPlan(v.Level, demand, v.Commands)
	if err == nil || !anyChange {
		return vplan, "", nil
	}
	var mc *validate.MissingCommandError
	if !errors.As(err, &mc) {
		return vplan, "", err
	}
	if plan.Unattended || plan.Pipeline.Rewrites > 0 {
		return validate.Plan{}, "", err
	}
	reduced := fmt.Sprintf("reduced guarantee: %s cannot run (set %s); validating at %s only", mc.Level, mc.Key, mc.Available)
	if b.Notice != nil {
		b.Notice(reduced)
	}
	if !b.AcceptReduced && (b.Ask == nil || !b.Ask("go on with the reduced guarantee?")) {
		return validate.Plan{}, "", fmt.Errorf("%v; refused (use --accept-reduced to accept %s)", err, mc.Available)
	}
	vplan, err = validate.NewPlan(validate.Min(v.Level, mc.Available), mc.Available, v.Commands)
	return vplan, reduced, err
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

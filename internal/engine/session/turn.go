package session

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sort"
	"strings"

	"github.com/prosewash/prosewash/internal/engine/approval"
	"github.com/prosewash/prosewash/internal/engine/clean"
	"github.com/prosewash/prosewash/internal/engine/report"
	"github.com/prosewash/prosewash/internal/engine/scope"
	"github.com/prosewash/prosewash/internal/engine/state"
	"github.com/prosewash/prosewash/internal/engine/txn"
)

// Turn is what the end of a turn has to say. Continue, when set, asks the
// agent to go on with that text (the platform's "block"); User is one line
// for the user.
type Turn struct {
	User     string
	Continue string
	// Failed says User reports a failure (the end of the turn failed open).
	Failed bool
}

// EndTurn acts on the session's files as the mode says: automatic cleans
// them and tells the user in one line, confirm asks the agent once to ask
// the user, manual does nothing. Then the memory lane rechecks by stat and
// asks once for a quick wash when the memory is not lean. A turn that
// already continued because of an end-of-turn answer must not come here
// (the caller knows its platform's signal for that), so a turn can never
// loop.
func (s *Session) EndTurn(ctx context.Context) Turn {
	t, err := s.endClean(ctx)
	if err != nil {
		// Fail open, but let the memory lane still speak.
		t = Turn{User: FailMessage("stop", err), Failed: true}
	}
	// Its failure stays silent here: the clean lane's outcome is what this
	// turn reports.
	if reason, werr := s.Lane().Recheck(s.ID); werr == nil && reason != "" {
		t.Continue = JoinLines(t.Continue, reason)
	}
	return t
}

// RunsEngine reports whether ending this turn would run the clean engine:
// the session recorded files and a mode other than manual is approved.
// Only then does a hook need its worker process (a second process start,
// as long as the rest of a hook that has nothing to do); the rest of the
// end of a turn reads the same state every other hook reads in process.
// It only reads. Anything it cannot read says yes: the worker's end of
// the turn reports it.
func (s *Session) RunsEngine() bool {
	stateDir, err := s.Project.StateDir()
	if err != nil {
		return true
	}
	d, err := approval.Decide(s.Project, stateDir, s.env.Self, s.env.Version)
	if err != nil || d.Verdict.Mode == approval.Manual {
		// An unreadable configuration means manual: the end of the turn
		// says so and runs nothing.
		return false
	}
	// Whether anything is recorded, not what: a session that wrote many
	// files has a long record, which the worker decodes anyway.
	rec, err := scope.Open(stateDir, s.ID)
	if err != nil {
		return true
	}
	fi, err := os.Stat(rec.File())
	return !errors.Is(err, fs.ErrNotExist) && (err != nil || fi.Size() > 0)
}

// ErrEngineDeferred is what [Env.Clean] returns to leave a turn's files
// for the next one instead of running the engine: a hook that found
// nothing for the engine ends the turn in process, and files recorded
// after it looked wait for the next turn, as when another hook holds the
// turn.
var ErrEngineDeferred = errors.New("the clean engine runs at the next end of a turn")

// DeferEngine is an [Env.Clean] that runs nothing and returns
// [ErrEngineDeferred].
func DeferEngine(context.Context, *clean.Plan, clean.Batch) (*report.Run, error) {
	return nil, ErrEngineDeferred
}

// endClean is the prose lane's part of the end of a turn.
func (s *Session) endClean(ctx context.Context) (Turn, error) {
	p := s.Project
	stateDir, err := p.StateDir()
	if err != nil {
		return Turn{}, err
	}
	d, err := approval.Decide(p, stateDir, s.env.Self, s.env.Version)
	if err != nil {
		// An unreadable configuration means manual; say so once per
		// problem, not at the end of every turn.
		if state.Once(stateDir, "config:"+err.Error()) {
			return Turn{}, fmt.Errorf("configuration: %w; nothing cleaned (manual until it is fixed)", err)
		}
		return Turn{}, nil
	}
	if d.Verdict.Mode == approval.Manual {
		if d.NoteOnce(stateDir) {
			return Turn{User: "prosewash: " + d.Verdict.Why + "; until then the end of a turn cleans nothing"}, nil
		}
		return Turn{}, nil
	}
	// No file of the turn is read before the turn is ours: a second hook
	// ending the same turn gives way instead of planning it again.
	release, err := txn.AcquireTurn(stateDir, s.ID, txn.DefaultLockWait)
	var locked *txn.LockedError
	if errors.As(err, &locked) {
		// A second install of this agent (plugin and settings) is ending
		// this very turn, or another session's end of turn outlasted the
		// wait; its files stay recorded for the next turn.
		return Turn{}, nil
	}
	if err != nil {
		return Turn{}, err
	}
	defer release()
	return s.cleanTurn(ctx, stateDir, d)
}

// cleanTurn runs the approved mode on the session's recorded files, under
// the turn's lock.
func (s *Session) cleanTurn(ctx context.Context, stateDir string, d approval.Decision) (Turn, error) {
	rec, err := scope.Open(stateDir, s.ID)
	if err != nil {
		return Turn{}, err
	}
	entries, err := rec.Entries()
	if err != nil {
		return Turn{}, err
	}
	if len(entries) == 0 {
		return Turn{}, nil
	}
	// The plan the approval was checked against is the one that runs: a
	// turn resolves and binds once.
	sel := d.Plan.SessionTargets(entries)
	if len(sel.Targets) == 0 {
		return Turn{}, nil
	}
	run := s.env.Clean
	if run == nil {
		run = clean.Execute
	}
	b := clean.Batch{
		Targets: sel.Targets, Skipped: sel.Skipped,
		Scope: fmt.Sprintf("session %s (%d recorded files)", s.ID, len(entries)),
		Now:   s.env.Now,
	}
	if d.Verdict.Mode == approval.Automatic {
		// Nobody watches the end of a turn: a file any other process
		// holds, even only for reading, waits for the next one.
		b.Record, b.RefuseOtherOpeners = rec, true
	} else {
		b.DryRun = true
	}
	rep, err := run(ctx, d.Plan, b)
	var locked *txn.LockedError
	var pending *txn.PendingError
	switch {
	case errors.As(err, &locked), errors.Is(err, ErrEngineDeferred):
		// Another prosewash hook (two installs, or two platforms' hooks on
		// one project) holds the lock and is doing this very run; or the
		// files were recorded after this hook found none, and wait for
		// the next turn.
		return Turn{}, nil
	case errors.As(err, &pending):
		if state.Once(stateDir, "pending:"+strings.Join(pending.RunIDs, ",")) {
			return Turn{User: "prosewash: nothing cleaned: " + err.Error()}, nil
		}
		return Turn{}, nil
	case err != nil:
		return Turn{}, fmt.Errorf("nothing cleaned: %w", err)
	}
	if d.Verdict.Mode == approval.Confirm {
		return Turn{Continue: confirmReason(stateDir, s.ID, rep, sel)}, nil
	}
	var cleaned []string
	for _, f := range rep.Files {
		if f.Status == report.Cleaned {
			cleaned = append(cleaned, f.Path)
		}
	}
	if len(cleaned) > 0 {
		// The model's view of these files predates the clean: tell it at
		// the start of its next turn (TakeRewritten). Losing the note only
		// costs a failed patch, never a byte.
		_ = noteRewritten(stateDir, s.ID, cleaned)
	}
	return Turn{User: automaticLine(stateDir, s.ID, rep, sel)}, nil
}

// automaticLine is the one line the user sees after an unattended run. A
// run that cleaned something always says so; problems that do not go away
// (refused files, carriers left in code) are said once per content of the
// files involved, not at every turn.
func automaticLine(stateDir, session string, rep *report.Run, sel clean.Selection) string {
	abs := map[string]string{}
	for _, t := range sel.Targets {
		abs[t.Rel] = t.Path
	}
	var attention []string
	for _, f := range rep.Files {
		kind := ""
		switch {
		case !f.Status.Settled():
			kind = "refused"
		case len(f.Reported) > 0:
			kind = "reported"
		default:
			continue
		}
		h, _ := scope.HashFile(abs[f.Path])
		attention = append(attention, f.Path+":"+h+":"+kind)
	}
	sort.Strings(attention)
	// Always remember the state, so a run that cleaned and reported is not
	// followed by the same report at the next turn.
	fresh := len(attention) > 0 && state.Once(stateDir, "stop:"+session+":"+strings.Join(attention, "|"))
	s := rep.Summary
	if s.Cleaned == 0 && !fresh {
		return ""
	}
	msg := "prosewash: " + rep.Headline()
	if s.Refused > 0 || s.Reported > 0 {
		msg += fmt.Sprintf(" (see 'prosewash clean --session %s')", session)
	}
	return msg
}

// confirmReason asks the agent, once per state of the files, to ask the
// user. Nothing to clean means nothing to ask.
func confirmReason(stateDir, session string, rep *report.Run, sel clean.Selection) string {
	hashes := map[string]string{}
	for _, t := range sel.Targets {
		hashes[t.Rel] = t.Expect
	}
	var files, key []string
	for _, f := range rep.Files {
		if f.Status == report.WouldChange {
			files = append(files, f.Path)
			key = append(key, f.Path+":"+hashes[f.Path])
		}
	}
	if len(files) == 0 || !state.Once(stateDir, "confirm:"+session+":"+strings.Join(key, "|")) {
		return ""
	}
	shown := files
	if len(shown) > 5 {
		shown = append(append([]string{}, shown[:5]...), fmt.Sprintf("and %d more", len(files)-5))
	}
	return fmt.Sprintf("prosewash found %s in the prose (comments, documentation text) of %s written in this session: %s. "+
		"Ask the user whether to run `prosewash clean --session %s` to remove them; code, strings and directives are never touched. "+
		"Do not run it unless the user says yes.",
		report.Count(rep.Summary.Removed, "invisible Unicode carrier"), report.Count(len(files), "file"), strings.Join(shown, ", "), session)
}

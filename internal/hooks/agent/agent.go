package agent

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/prosewash/prosewash/internal/engine/approval"
	"github.com/prosewash/prosewash/internal/engine/clean"
	"github.com/prosewash/prosewash/internal/engine/fsx"
	"github.com/prosewash/prosewash/internal/engine/project"
	"github.com/prosewash/prosewash/internal/engine/report"
	"github.com/prosewash/prosewash/internal/engine/scope"
	"github.com/prosewash/prosewash/internal/engine/state"
	"github.com/prosewash/prosewash/internal/engine/txn"
	"github.com/prosewash/prosewash/internal/engine/wash/lane"
)

// Platform identifiers; they match the memory lane's discovery platforms,
// so a session measures the memory its own platform loads.
const (
	Claude  = "claude-code"
	Codex   = "codex"
	Gemini  = "gemini"
	Cursor  = "cursor"
	Copilot = "copilot"
)

// Env is what one hook process was given. Every adapter holds one.
type Env struct {
	Getenv  func(string) string
	Home    string
	Self    string // the prosewash binary, for ${prosewash} and built-in providers
	Version string

	ShippedProviders fs.FS
	ShippedPipelines fs.FS

	Now func() time.Time
	// Clean runs the engine; nil means clean.Run.
	Clean func(context.Context, clean.Request) (*report.Run, error)
}

// Var reads the environment (os.Getenv unless injected).
func (e *Env) Var(k string) string {
	if e.Getenv == nil {
		return os.Getenv(k)
	}
	return e.Getenv(k)
}

func (e *Env) now() time.Time {
	if e.Now == nil {
		return time.Now()
	}
	return e.Now()
}

// Session is one agent session in one project.
type Session struct {
	env      *Env
	Project  *project.Project
	ID       string // the platform's own session id
	Platform string
	Cwd      string // where the session's hooks run
}

// Open finds the project of a hook payload: its cwd, else fallback (the
// platform's project directory variable or workspace root). When the
// agent has cd'd out of the project the session started in (fallback lies
// outside cwd's project), the files it writes still belong to fallback's.
func (e *Env) Open(platform, id, cwd, fallback string) (*Session, error) {
	if id == "" {
		return nil, errors.New("hook input has no session id")
	}
	dir := cwd
	if dir == "" {
		dir = fallback
	}
	if dir == "" {
		return nil, errors.New("hook input has no cwd and no project directory is known")
	}
	if !filepath.IsAbs(dir) {
		return nil, fmt.Errorf("hook cwd %q is not an absolute path", dir)
	}
	opts := project.Options{Dir: dir, Getenv: e.Var, Home: e.Home, ShippedProviders: e.ShippedProviders, ShippedPipelines: e.ShippedPipelines}
	p, err := project.Find(opts)
	if err != nil {
		return nil, err
	}
	if fallback != "" && cwd != "" && filepath.IsAbs(fallback) {
		if real, err := filepath.EvalSymlinks(fallback); err == nil && !fsx.Inside(real, p.Root) {
			opts.Dir = fallback
			if p, err = project.Find(opts); err != nil {
				return nil, err
			}
		}
	}
	return &Session{env: e, Project: p, ID: id, Platform: platform, Cwd: cwd}, nil
}

// Lane is the memory lane of the session's project, with this process's
// environment. It is the one place the lane is built for a hook.
func (s *Session) Lane() *lane.Lane {
	return lane.New(s.Project, lane.Options{Home: s.env.Home, Getenv: s.env.Var, Now: s.env.Now, Start: s.Cwd, Platform: s.Platform})
}

// Written is one path a tool wrote: the absolute path and the spelling the
// payload used (to refuse a '..' escape by name).
type Written struct {
	Path string
	Raw  string
}

// Record appends the written files inside the project to the session's
// record (path and SHA-256, never content) and lets the memory lane's
// write guard look at each. Files outside the project are not recorded;
// one that escapes through '..' is an error. It returns the guard's FYI
// lines for the model. Every path is tried; the first error is returned
// after the others were recorded.
func (s *Session) Record(paths []Written) (fyi []string, err error) {
	p := s.Project
	var inside []string
	var firstErr error
	keep := func(e error) {
		if firstErr == nil {
			firstErr = e
		}
	}
	l := s.Lane()
	for _, w := range paths {
		abs, cerr := scope.Contain(p.Root, w.Path)
		var outside *scope.OutsideError
		if errors.As(cerr, &outside) {
			if HasDotDot(w.Raw) {
				keep(fmt.Errorf("%s escapes the project %s through '..'; not recorded", w.Raw, p.Root))
				continue
			}
			// An agent writes outside the project too (plans, scratch
			// files, its own memory): not ours to record, but the memory
			// lane's write guard still looks.
			if m := l.Compare(s.ID, w.Path); m != "" {
				fyi = append(fyi, m)
			}
			continue
		}
		if cerr != nil {
			keep(cerr)
			continue
		}
		inside = append(inside, abs)
	}
	if len(inside) > 0 {
		stateDir, err := p.StateDir()
		if err != nil {
			return fyi, err
		}
		rec, err := scope.Open(stateDir, s.ID)
		if err != nil {
			return fyi, err
		}
		if _, errs := rec.Add(p.Root, inside, s.env.now()); len(errs) > 0 {
			keep(errs[0])
		}
		for _, abs := range inside {
			if m := l.Compare(s.ID, abs); m != "" {
				fyi = append(fyi, m)
			}
		}
	}
	return fyi, firstErr
}

// BeforeWrite is the memory lane's write guard before a tool writes path.
func (s *Session) BeforeWrite(path string) error { return s.Lane().Snapshot(s.ID, path) }

// BeforeWrites runs the write guard for every file a tool is about to
// write or delete; one file's failure does not keep the others unguarded.
func (s *Session) BeforeWrites(ws []Written) error {
	var errs []error
	for _, w := range ws {
		if err := s.BeforeWrite(w.Path); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// Start is what a session start has to say: a line for the user and
// context for the model, either empty.
type Start struct {
	User  string
	Model string
}

// Start starts (or, on resume, touches) the session's record, so it is the
// most recent one, warns when an interrupted run needs recovering, and
// lets the memory lane measure the memory this platform loads.
func (s *Session) Start() (Start, error) {
	stateDir, err := s.Project.StateDir()
	if err != nil {
		return Start{}, err
	}
	rec, err := scope.Open(stateDir, s.ID)
	if err != nil {
		return Start{}, err
	}
	if err := touch(rec.File(), s.env.now()); err != nil {
		return Start{}, err
	}
	var st Start
	if ids := txn.Interrupted(stateDir); len(ids) > 0 {
		runs := strings.Join(ids, ", ")
		st.User = fmt.Sprintf("prosewash: an interrupted clean run (%s) needs 'prosewash recover' before anything is cleaned", runs)
		st.Model = fmt.Sprintf("prosewash: an interrupted clean run (%s) left files of this project mid-transaction. "+
			"Tell the user to run `prosewash recover` in a terminal before you edit files in this project; "+
			"until then prosewash cleans nothing.", runs)
	}
	// The memory lane measures the always-loaded memory and says one line
	// when it is not lean. Its failure must not hide the warning above.
	if res, err := s.Lane().Measure(s.ID); err == nil && res.Context != "" {
		st.Model = JoinLines(st.Model, res.Context)
	} else if err != nil && st.User == "" && state.Once(stateDir, "wash-gauge:"+err.Error()) {
		st.User = "prosewash: memory gauge skipped: " + OneLine(err.Error())
	}
	return st, nil
}

// Turn is what the end of a turn has to say. Continue, when set, asks the
// agent to go on with that text (the platform's "block"); User is one line
// for the user.
type Turn struct {
	User     string
	Continue string
	// Failed says User reports a failure (the hook failed open).
	Failed bool
}

// EndTurn acts on the session's files as the mode says: automatic cleans
// them and tells the user in one line, confirm asks the agent once to ask
// the user, manual does nothing. Then the memory lane rechecks by stat and
// asks once for a quick wash when the memory is not lean. again is the
// platform's "this turn already continued because of a stop hook": then
// nothing is said, so a turn can never loop.
func (s *Session) EndTurn(ctx context.Context, again bool) (Turn, error) {
	if again {
		return Turn{}, nil
	}
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
	return t, nil
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
	sel, err := clean.SessionTargets(p, entries)
	if err != nil {
		return Turn{}, err
	}
	if len(sel.Targets) == 0 {
		return Turn{}, nil
	}
	run := s.env.Clean
	if run == nil {
		run = clean.Run
	}
	req := clean.Request{
		Project: p, Targets: sel.Targets, Skipped: sel.Skipped,
		Scope: fmt.Sprintf("session %s (%d recorded files)", s.ID, len(entries)),
		Self:  s.env.Self, Argv0: "prosewash", Version: s.env.Version, Now: s.env.Now,
	}
	if d.Verdict.Mode == approval.Automatic {
		req.Automatic, req.Record = true, rec
	} else {
		req.DryRun = true
	}
	rep, err := run(ctx, req)
	var pending *txn.PendingError
	switch {
	case errors.As(err, &locked):
		// Another prosewash hook (two installs, or two platforms' hooks on
		// one project) holds the lock and is doing this very run.
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

func rewrittenFile(stateDir, session string) string {
	sum := sha256.Sum256([]byte(session))
	return filepath.Join(stateDir, "notices", "rewritten-"+hex.EncodeToString(sum[:12]))
}

func noteRewritten(stateDir, session string, rel []string) error {
	p := rewrittenFile(stateDir, session)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	_, werr := f.WriteString(strings.Join(rel, "\n") + "\n")
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	return werr
}

// TakeRewritten returns, once, the files prosewash rewrote at the end of
// this session's earlier turns (project-relative), for an adapter to tell
// the model at the start of the next one: the model's view of them
// predates the clean. Two hooks racing for the note get it once between
// them.
func (s *Session) TakeRewritten() []string {
	stateDir, err := s.Project.StateDir()
	if err != nil {
		return nil
	}
	p := rewrittenFile(stateDir, s.ID)
	claim := p + ".taken-" + strconv.Itoa(os.Getpid())
	if os.Rename(p, claim) != nil {
		return nil
	}
	b, err := os.ReadFile(claim)
	os.Remove(claim)
	if err != nil {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	for _, l := range strings.Split(string(b), "\n") {
		if l != "" && !seen[l] {
			seen[l] = true
			out = append(out, l)
		}
	}
	return out
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

// RewrittenContext is what an adapter tells the model about files
// prosewash rewrote after the model last saw them (its earlier tool output
// still shows the old text), or "" for none.
func RewrittenContext(rel []string) string {
	if len(rel) == 0 {
		return ""
	}
	shown := rel
	if len(shown) > 10 {
		shown = append(append([]string{}, shown[:10]...), fmt.Sprintf("and %d more", len(rel)-10))
	}
	return fmt.Sprintf("prosewash removed invisible Unicode characters from the comments and documentation text of %s after your last turn; "+
		"the file contents you saw before are stale, so re-read %s before editing.",
		strings.Join(shown, ", "), map[bool]string{true: "it", false: "them"}[len(rel) == 1])
}

// FailMessage is the one line every adapter shows the user when it failed
// open.
func FailMessage(event string, err error) string {
	return fmt.Sprintf("prosewash: %s hook skipped: %s", event, OneLine(err.Error()))
}

// JoinLines joins two texts with a newline, either may be empty.
func JoinLines(a, b string) string {
	if a == "" {
		return b
	}
	if b == "" {
		return a
	}
	return a + "\n" + b
}

// OneLine flattens and bounds a message for a one-line notice.
func OneLine(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	if len(s) > 300 {
		s = s[:300] + "..."
	}
	return s
}

// HasDotDot reports whether a path has a ".." element.
func HasDotDot(p string) bool {
	for _, e := range strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == filepath.Separator }) {
		if e == ".." {
			return true
		}
	}
	return false
}

func touch(path string, now time.Time) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("create session record dir: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("start session record: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("start session record: %w", err)
	}
	return os.Chtimes(path, now, now)
}

// MaxInput bounds what a hook reads: a write payload carries the file's
// content, which may be large, but never unbounded.
const MaxInput = 64 << 20

// DecodePayload reads a hook's stdin, bounded, into v; empty input is an
// error naming the platform whose JSON was expected, and every error is fit
// for a one-line message.
func DecodePayload(r io.Reader, platform string, v any) error {
	data, err := io.ReadAll(io.LimitReader(r, MaxInput+1))
	if err != nil {
		return fmt.Errorf("read hook input: %w", err)
	}
	if len(data) > MaxInput {
		return fmt.Errorf("hook input larger than %d MiB", MaxInput>>20)
	}
	if len(strings.TrimSpace(string(data))) == 0 {
		return fmt.Errorf("empty hook input (expected %s's JSON on stdin)", platform)
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("invalid hook input: %v", err)
	}
	return nil
}

// WriteJSON prints v as one JSON document on a line of its own: what every
// platform reads from a hook's stdout.
func WriteJSON(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// Safe runs fn and turns a panic into an error: adapters fail open on any
// internal error, a bug included.
func Safe(fn func() error) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("internal error: %v", v)
		}
	}()
	return fn()
}

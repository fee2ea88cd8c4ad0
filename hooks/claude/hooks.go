package claude

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/prosewash/prosewash/engine/approval"
	"github.com/prosewash/prosewash/engine/clean"
	"github.com/prosewash/prosewash/engine/fsx"
	"github.com/prosewash/prosewash/engine/project"
	"github.com/prosewash/prosewash/engine/report"
	"github.com/prosewash/prosewash/engine/scope"
	"github.com/prosewash/prosewash/engine/state"
	"github.com/prosewash/prosewash/engine/txn"
	"github.com/prosewash/prosewash/engine/wash/discover"
	"github.com/prosewash/prosewash/engine/wash/lane"
)

// Events, as named on the command line: prosewash hook claude EVENT.
const (
	SessionStart = "session-start"
	PreToolUse   = "pre-tool-use"
	PostToolUse  = "post-tool-use"
	Stop         = "stop"
)

// Events lists the events Run answers.
func Events() []string { return []string{SessionStart, PreToolUse, PostToolUse, Stop} }

// Runner answers Claude Code hook events for one process. It holds only
// what the process was given; every event reads its own payload.
type Runner struct {
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

// Run answers one event with the payload on stdin. It never fails: the
// output is what to print on standard output (nil: print nothing), and any
// problem becomes a one-line systemMessage, so a broken prosewash can never
// wedge a session. An unknown event fails open too.
func (r *Runner) Run(ctx context.Context, event string, stdin io.Reader) (out *Output) {
	defer func() {
		if v := recover(); v != nil {
			out = FailOpen(event, fmt.Errorf("internal error: %v", v))
		}
	}()
	in, err := ReadInput(stdin)
	if err != nil {
		return FailOpen(event, err)
	}
	switch event {
	case PreToolUse:
		out, err = r.preToolUse(in)
	case PostToolUse:
		out, err = r.postToolUse(in)
	case SessionStart:
		out, err = r.sessionStart(in)
	case Stop:
		out, err = r.stop(ctx, in)
	default:
		err = fmt.Errorf("unknown event %q (want one of %s)", event, strings.Join(Events(), ", "))
	}
	if err != nil {
		return FailOpen(event, err)
	}
	return out
}

func (r *Runner) getenv(k string) string {
	if r.Getenv == nil {
		return os.Getenv(k)
	}
	return r.Getenv(k)
}

func (r *Runner) now() time.Time {
	if r.Now == nil {
		return time.Now()
	}
	return r.Now()
}

// project finds the project of a payload: its cwd, else
// CLAUDE_PROJECT_DIR. When the agent has cd'd out of the project the
// session started in, the files it writes still belong to that project.
func (r *Runner) project(in *Input) (*project.Project, error) {
	pd := r.getenv("CLAUDE_PROJECT_DIR")
	dir := in.Cwd
	if dir == "" {
		dir = pd
	}
	if dir == "" {
		return nil, errors.New("hook input has no cwd and CLAUDE_PROJECT_DIR is not set")
	}
	if !filepath.IsAbs(dir) {
		return nil, fmt.Errorf("hook cwd %q is not an absolute path", dir)
	}
	opts := project.Options{Dir: dir, Getenv: r.getenv, Home: r.Home, ShippedProviders: r.ShippedProviders, ShippedPipelines: r.ShippedPipelines}
	p, err := project.Find(opts)
	if err != nil {
		return nil, err
	}
	if pd != "" && in.Cwd != "" && filepath.IsAbs(pd) {
		if real, err := filepath.EvalSymlinks(pd); err == nil && !fsx.Inside(real, p.Root) {
			opts.Dir = pd
			return project.Find(opts)
		}
	}
	return p, nil
}

// writeTool reports whether a tool writes the file its input names.
func writeTool(name string) bool {
	switch name {
	case "Write", "Edit", "MultiEdit", "NotebookEdit":
		return true
	}
	return false
}

// lane is the memory lane for a project, with this runner's environment: the session's
// platform is Claude Code and it starts in the hook's cwd, so the gauge reads what this
// session loads (the CLAUDE.md chain down to that directory), not every platform's files.
func (r *Runner) lane(p *project.Project, in *Input) *lane.Lane {
	return lane.New(p, lane.Options{Home: r.Home, Getenv: r.getenv, Now: r.Now, Start: in.Cwd, Platform: discover.ClaudeCode})
}

// preToolUse is the memory lane's write guard: before the session's first
// write to a memory file it keeps a copy. Any other write costs a path
// check.
func (r *Runner) preToolUse(in *Input) (*Output, error) {
	if !writeTool(in.ToolName) {
		return nil, nil
	}
	path, err := in.WrittenPath()
	if err != nil {
		return nil, err
	}
	p, err := r.project(in)
	if err != nil {
		return nil, err
	}
	return nil, r.lane(p, in).BeforeWrite(in.SessionID, path)
}

// postToolUse records the written file's path and hash for the session.
// It stays on the cheap path: no repository, no definitions, no
// configuration.
func (r *Runner) postToolUse(in *Input) (*Output, error) {
	if in.ToolName == "" {
		return nil, errors.New("hook input has no tool_name")
	}
	if !writeTool(in.ToolName) {
		return nil, nil
	}
	path, err := in.WrittenPath()
	if err != nil {
		return nil, err
	}
	p, err := r.project(in)
	if err != nil {
		return nil, err
	}
	abs, err := scope.Contain(p.Root, path)
	var outside *scope.OutsideError
	if errors.As(err, &outside) {
		if hasDotDot(in.rawPath()) {
			return nil, fmt.Errorf("%s escapes the project %s through '..'; not recorded", in.rawPath(), p.Root)
		}
		// An agent writes outside the project too (plans, scratch files,
		// its memory under ~/.claude): not ours to record, but the memory
		// lane's write guard still looks.
		return guardFYI(r.lane(p, in).AfterWrite(in.SessionID, path)), nil
	}
	if err != nil {
		return nil, err
	}
	stateDir, err := p.StateDir()
	if err != nil {
		return nil, err
	}
	rec, err := scope.Open(stateDir, in.SessionID)
	if err != nil {
		return nil, err
	}
	if _, errs := rec.Add(p.Root, []string{abs}, r.now()); len(errs) > 0 {
		return nil, errs[0]
	}
	return guardFYI(r.lane(p, in).AfterWrite(in.SessionID, path)), nil
}

// guardFYI tells the agent, once, that a write dropped structured tokens
// from a memory file, and where the earlier version is. It never blocks.
func guardFYI(fyi string) *Output {
	if fyi == "" {
		return nil
	}
	return &Output{HookSpecificOutput: &Specific{HookEventName: "PostToolUse", AdditionalContext: fyi}}
}

// sessionStart starts (or, on resume, touches) the session's record, so
// it is the most recent one, offers the session id to the agent's shell,
// and warns when an interrupted run needs recovering.
func (r *Runner) sessionStart(in *Input) (*Output, error) {
	p, err := r.project(in)
	if err != nil {
		return nil, err
	}
	stateDir, err := p.StateDir()
	if err != nil {
		return nil, err
	}
	rec, err := scope.Open(stateDir, in.SessionID)
	if err != nil {
		return nil, err
	}
	if err := touch(rec.File(), r.now()); err != nil {
		return nil, err
	}
	if f := r.getenv("CLAUDE_ENV_FILE"); f != "" && plainID(in.SessionID) {
		// Commands the agent runs (prosewash clean, git commit and its
		// pre-commit hook) then know which session wrote the files.
		if err := appendLine(f, "export PROSEWASH_SESSION="+in.SessionID); err != nil {
			return nil, fmt.Errorf("write CLAUDE_ENV_FILE: %w", err)
		}
	}
	var out *Output
	if ids := txn.Interrupted(stateDir); len(ids) > 0 {
		runs := strings.Join(ids, ", ")
		out = &Output{
			SystemMessage: fmt.Sprintf("prosewash: an interrupted clean run (%s) needs 'prosewash recover' before anything is cleaned", runs),
			HookSpecificOutput: &Specific{HookEventName: "SessionStart", AdditionalContext: fmt.Sprintf(
				"prosewash: an interrupted clean run (%s) left files of this project mid-transaction. "+
					"Tell the user to run `prosewash recover` in a terminal before you edit files in this project; "+
					"until then prosewash cleans nothing.", runs)},
		}
	}
	// The memory lane measures the always-loaded memory and says one line
	// when it is not lean. Its failure must not hide the warning above.
	if res, err := r.lane(p, in).SessionStart(in.SessionID); err == nil && res.Context != "" {
		if out == nil {
			out = &Output{HookSpecificOutput: &Specific{HookEventName: "SessionStart"}}
		}
		out.HookSpecificOutput.AdditionalContext = joinLines(out.HookSpecificOutput.AdditionalContext, res.Context)
	} else if err != nil && out == nil && state.Once(stateDir, "wash-gauge:"+err.Error()) {
		out = &Output{SystemMessage: "prosewash: memory gauge skipped: " + oneLine(err.Error())}
	}
	return out, nil
}

func joinLines(a, b string) string {
	if a == "" {
		return b
	}
	return a + "\n" + b
}

func oneLine(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	if len(s) > 300 {
		s = s[:300] + "..."
	}
	return s
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

func appendLine(path, line string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.WriteString(line + "\n"); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// plainID reports whether a session id can go into a shell line unquoted.
func plainID(id string) bool {
	if id == "" || len(id) > 128 {
		return false
	}
	for _, c := range id {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}

// stop acts on the session's files when the turn ends, as the mode says:
// automatic cleans them and tells the user in one line, confirm asks the
// agent once to ask the user, manual does nothing. The project is found
// once and serves both lanes.
func (r *Runner) stop(ctx context.Context, in *Input) (*Output, error) {
	if in.StopHookActive {
		// Already continuing because a Stop hook blocked: let it end.
		return nil, nil
	}
	p, err := r.project(in)
	if err != nil {
		return nil, err
	}
	out, err := r.stopClean(ctx, p, in)
	if err != nil {
		// Fail open, but let the memory lane still speak.
		out = FailOpen(Stop, err)
	}
	// The memory lane: a stat-only recheck; in OBESE or FULL it asks the
	// agent once to run the quick wash. Its failure stays silent here: the
	// clean lane's outcome is what this turn reports.
	reason, werr := r.lane(p, in).Stop(in.SessionID, in.StopHookActive)
	if werr != nil || reason == "" {
		return out, nil
	}
	if out == nil {
		out = &Output{}
	}
	out.Decision = "block"
	out.Reason = joinLines(out.Reason, reason)
	return out, nil
}

// stopClean is the prose lane's part of the Stop hook.
func (r *Runner) stopClean(ctx context.Context, p *project.Project, in *Input) (*Output, error) {
	stateDir, err := p.StateDir()
	if err != nil {
		return nil, err
	}
	d, err := approval.Decide(p, stateDir, r.Self, r.Version)
	if err != nil {
		// An unreadable configuration means manual; say so once per
		// problem, not at the end of every turn.
		if state.Once(stateDir, "config:"+err.Error()) {
			return nil, fmt.Errorf("configuration: %w; nothing cleaned (manual until it is fixed)", err)
		}
		return nil, nil
	}
	if d.Verdict.Mode == approval.Manual {
		if d.NoteOnce(stateDir) {
			return &Output{SystemMessage: "prosewash: " + d.Verdict.Why + "; until then the Stop hook cleans nothing"}, nil
		}
		return nil, nil
	}
	rec, err := scope.Open(stateDir, in.SessionID)
	if err != nil {
		return nil, err
	}
	entries, err := rec.Entries()
	if err != nil {
		return nil, err
	}
	if len(entries) == 0 {
		return nil, nil
	}
	sel, err := clean.SessionTargets(p, entries)
	if err != nil {
		return nil, err
	}
	if len(sel.Targets) == 0 {
		return nil, nil
	}
	run := r.Clean
	if run == nil {
		run = clean.Run
	}
	req := clean.Request{
		Project: p, Targets: sel.Targets, Skipped: sel.Skipped,
		Scope: fmt.Sprintf("session %s (%d recorded files)", in.SessionID, len(entries)),
		Self:  r.Self, Argv0: "prosewash", Version: r.Version, Now: r.Now,
	}
	if d.Verdict.Mode == approval.Automatic {
		req.Automatic, req.Record = true, rec
	} else {
		req.DryRun = true
	}
	rep, err := run(ctx, req)
	var locked *txn.LockedError
	var pending *txn.PendingError
	switch {
	case errors.As(err, &locked):
		// Another prosewash hook (plugin and settings both installed)
		// holds the lock and is doing this very run.
		return nil, nil
	case errors.As(err, &pending):
		if state.Once(stateDir, "pending:"+strings.Join(pending.RunIDs, ",")) {
			return &Output{SystemMessage: "prosewash: nothing cleaned: " + err.Error()}, nil
		}
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("nothing cleaned: %w", err)
	}
	if d.Verdict.Mode == approval.Confirm {
		return confirmOutput(stateDir, in.SessionID, rep, sel), nil
	}
	return automaticOutput(stateDir, in.SessionID, rep, sel), nil
}

// automaticOutput is the one line the user sees after an unattended run.
// A run that cleaned something always says so; problems that do not go
// away (refused files, carriers left in code) are said once per content of
// the files involved, not at every turn.
func automaticOutput(stateDir, session string, rep *report.Run, sel clean.Selection) *Output {
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
		return nil
	}
	msg := "prosewash: " + rep.Headline()
	if s.Refused > 0 || s.Reported > 0 {
		msg += fmt.Sprintf(" (see 'prosewash clean --session %s')", session)
	}
	return &Output{SystemMessage: msg}
}

// confirmOutput blocks the stop once per state of the files, asking the
// agent to ask the user. Nothing to clean means nothing to ask.
func confirmOutput(stateDir, session string, rep *report.Run, sel clean.Selection) *Output {
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
		return nil
	}
	shown := files
	if len(shown) > 5 {
		shown = append(append([]string{}, shown[:5]...), fmt.Sprintf("and %d more", len(files)-5))
	}
	reason := fmt.Sprintf("prosewash found %s in the prose (comments, documentation text) of %s written in this session: %s. "+
		"Ask the user whether to run `prosewash clean --session %s` to remove them; code, strings and directives are never touched. "+
		"Do not run it unless the user says yes.",
		report.Count(rep.Summary.Removed, "invisible Unicode carrier"), report.Count(len(files), "file"), strings.Join(shown, ", "), session)
	return &Output{Decision: "block", Reason: reason}
}

// hasDotDot reports whether a path has a ".." element.
func hasDotDot(p string) bool {
	for _, e := range strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == filepath.Separator }) {
		if e == ".." {
			return true
		}
	}
	return false
}

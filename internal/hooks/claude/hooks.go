package claude

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/prosewash/prosewash/internal/engine/session"
	"io"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/prosewash/prosewash/internal/engine/clean"
	"github.com/prosewash/prosewash/internal/engine/report"
	"github.com/prosewash/prosewash/internal/engine/wash/lane"
	"github.com/prosewash/prosewash/internal/hooks/agent"
)

// Events, as named on the command line: prosewash hook claude EVENT.
const (
	SessionStart       = "session-start"
	PreToolUse         = "pre-tool-use"
	PostToolUse        = "post-tool-use"
	Stop               = "stop"
	InstructionsLoaded = "instructions-loaded"
	SubagentStart      = "subagent-start"
)

// Events lists the events Run answers.
func Events() []string {
	return []string{SessionStart, PreToolUse, PostToolUse, Stop, InstructionsLoaded, SubagentStart}
}

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
	err := agent.Safe(func() error {
		in, err := ReadInput(stdin)
		if err != nil {
			return err
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
		case InstructionsLoaded:
			err = r.instructionsLoaded(in)
		case SubagentStart:
			err = r.recordSpawn(in, lane.ViaSubagentStart)
		default:
			err = fmt.Errorf("unknown event %q (want one of %s)", event, strings.Join(Events(), ", "))
		}
		return err
	})
	if err != nil {
		return FailOpen(event, err)
	}
	return out
}

func (r *Runner) env() *session.Env {
	return &session.Env{Getenv: r.Getenv, Home: r.Home, Self: r.Self, Version: r.Version,
		ShippedProviders: r.ShippedProviders, ShippedPipelines: r.ShippedPipelines, Now: r.Now, Clean: r.Clean}
}

func (r *Runner) getenv(k string) string {
	if r.Getenv == nil {
		return os.Getenv(k)
	}
	return r.Getenv(k)
}

// session opens the payload's session: its project is the cwd's, else
// CLAUDE_PROJECT_DIR's.
func (r *Runner) session(in *Input) (*session.Session, error) {
	return r.env().Open("claude-code", in.SessionID, in.Cwd, r.getenv("CLAUDE_PROJECT_DIR"))
}

// writeTool reports whether a tool writes the file its input names.
func writeTool(name string) bool {
	switch name {
	case "Write", "Edit", "MultiEdit", "NotebookEdit":
		return true
	}
	return false
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
	s, err := r.session(in)
	if err != nil {
		return nil, err
	}
	return nil, s.BeforeWrite(path)
}

// spawnTool reports the tools that start a subagent: Agent, named Task before.
func spawnTool(name string) bool { return name == "Agent" || name == "Task" }

// postToolUse records the written file's path and hash for the session.
// It stays on the cheap path: no repository, no definitions, no
// configuration. A subagent tool counts a spawn for the memory lane's
// meter (older CLIs without SubagentStart).
func (r *Runner) postToolUse(in *Input) (*Output, error) {
	if in.ToolName == "" {
		return nil, errors.New("hook input has no tool_name")
	}
	if spawnTool(in.ToolName) {
		return nil, r.recordSpawn(in, lane.ViaToolUse)
	}
	if !writeTool(in.ToolName) {
		return nil, nil
	}
	path, err := in.WrittenPath()
	if err != nil {
		return nil, err
	}
	s, err := r.session(in)
	if err != nil {
		return nil, err
	}
	fyi, err := s.Record([]session.Written{{Path: path, Raw: in.rawPath()}})
	if err != nil {
		return nil, err
	}
	return guardFYI(fyi), nil
}

// instructionsLoaded records a memory file the session really loaded, so
// the gauge measures what Claude Code loads instead of re-deriving it. It
// never prints: the record is for the gauge and the spawn meter.
func (r *Runner) instructionsLoaded(in *Input) error {
	s, err := r.session(in)
	if err != nil {
		return err
	}
	if in.FilePath == "" {
		return errors.New("InstructionsLoaded input names no file_path")
	}
	l := s.Lane()
	if !l.Enabled() {
		return nil
	}
	return l.RecordLoaded(in.SessionID, lane.Loaded{Path: in.FilePath, MemoryType: in.MemoryType, LoadReason: in.LoadReason,
		Parent: in.ParentFilePath, Cwd: in.Cwd})
}

// recordSpawn counts one subagent spawn (SubagentStart, or PostToolUse on
// the subagent tool): every spawn carries the always-loaded memory again.
// It never prints.
func (r *Runner) recordSpawn(in *Input, via string) error {
	s, err := r.session(in)
	if err != nil {
		return err
	}
	l := s.Lane()
	if !l.Enabled() {
		return nil
	}
	agentType, agentID := in.AgentType, in.AgentID
	if via == lane.ViaToolUse {
		var ti struct {
			SubagentType string `json:"subagent_type"`
		}
		_ = json.Unmarshal(in.ToolInput, &ti)
		agentType = ti.SubagentType
		var tr struct {
			AgentID string `json:"agentId"`
		}
		_ = json.Unmarshal(in.ToolResponse, &tr)
		agentID = tr.AgentID
	}
	return l.RecordSpawn(in.SessionID, agentType, agentID, via)
}

// guardFYI tells the agent, once, that a write dropped structured tokens
// from a memory file, and where the earlier version is. It never blocks.
func guardFYI(fyi []string) *Output {
	if len(fyi) == 0 {
		return nil
	}
	return &Output{HookSpecificOutput: &Specific{HookEventName: "PostToolUse", AdditionalContext: strings.Join(fyi, "\n")}}
}

// sessionStart starts (or, on resume, touches) the session's record, so
// it is the most recent one, offers the session id to the agent's shell,
// and warns when an interrupted run needs recovering.
func (r *Runner) sessionStart(in *Input) (*Output, error) {
	s, err := r.session(in)
	if err != nil {
		return nil, err
	}
	if f := r.getenv("CLAUDE_ENV_FILE"); f != "" && plainID(in.SessionID) {
		// Commands the agent runs (prosewash clean, git commit and its
		// pre-commit hook) then know which session wrote the files.
		if err := appendLine(f, "export PROSEWASH_SESSION="+in.SessionID); err != nil {
			return nil, fmt.Errorf("write CLAUDE_ENV_FILE: %w", err)
		}
	}
	if l := s.Lane(); l.Enabled() {
		// Where this project's transcripts are, exactly (the archive reads it).
		_ = l.RecordTranscript(in.SessionID, in.TranscriptPath)
	}
	st, err := s.Start()
	if err != nil {
		return nil, err
	}
	if st.User == "" && st.Model == "" {
		return nil, nil
	}
	out := &Output{SystemMessage: st.User}
	if st.Model != "" {
		out.HookSpecificOutput = &Specific{HookEventName: "SessionStart", AdditionalContext: st.Model}
	}
	return out, nil
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

// stop ends the turn by mode (see session.Session.EndTurn): a line for the
// user, or a block asking the agent to go on. stop_hook_active is honoured.
func (r *Runner) stop(ctx context.Context, in *Input) (*Output, error) {
	if in.StopHookActive {
		// Already continuing because a Stop hook blocked: let it end.
		return nil, nil
	}
	s, err := r.session(in)
	if err != nil {
		return nil, err
	}
	t := s.EndTurn(ctx)
	if t.User == "" && t.Continue == "" {
		return nil, nil
	}
	out := &Output{SystemMessage: t.User}
	if t.Continue != "" {
		out.Decision, out.Reason = "block", t.Continue
	}
	out.SuppressOutput = t.Failed
	return out, nil
}

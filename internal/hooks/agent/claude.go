package agent

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/prosewash/prosewash/internal/engine/jsonfast"
	"github.com/prosewash/prosewash/internal/engine/session"
	"github.com/prosewash/prosewash/internal/engine/wash/lane"
)

// claude is Claude Code (code.claude.com/docs/en/hooks): project hooks in
// .claude/settings.json, the payload's session_id and cwd, and
// CLAUDE_PROJECT_DIR for a session that cd'd away.
func claude() Platform {
	const writes = "Write|Edit|MultiEdit|NotebookEdit"
	return Platform{
		Name: "claude", Title: "Claude Code", Memory: "claude-code",
		Events: []Event{
			{Arg: "session-start", Name: "SessionStart", Kind: SessionStart, Hooks: []Hook{{"startup|resume|clear|compact", 30}}},
			{Arg: "pre-tool-use", Name: "PreToolUse", Kind: BeforeWrite, Hooks: []Hook{{writes, 30}}},
			// The subagent tool's use counts a spawn for CLIs without SubagentStart.
			{Arg: "post-tool-use", Name: "PostToolUse", Kind: AfterWrite, Hooks: []Hook{{writes, 30}, {"Agent|Task", 30}}},
			// The memory lane: what the session really loaded, and the
			// subagents that carry it again.
			{Arg: "instructions-loaded", Name: "InstructionsLoaded", Kind: MemoryLoaded, Hooks: []Hook{{"", 30}}},
			{Arg: "subagent-start", Name: "SubagentStart", Kind: SubagentStart, Hooks: []Hook{{"", 30}}},
			// Stop may run validation commands: the CLI's own maximum.
			{Arg: "stop", Name: "Stop", Kind: TurnEnd, Hooks: []Hook{{"", 600}}},
		},
		Decode: decodeClaude,
		Encode: hookProtocol("block", true),
		Config: Config{File: ".claude/settings.json", Markers: []string{".claude", "CLAUDE.md"}, Base: "{}", Grouped: true, Handler: commandHook},
	}
}

// claudeInput is the JSON Claude Code sends on a hook's stdin. Unknown
// fields are allowed: the CLI adds fields between versions.
type claudeInput struct {
	SessionID string `json:"session_id"`
	// ConversationID and CursorVersion say the payload is Cursor's: Cursor
	// runs Claude Code's hooks too, with its own payloads.
	ConversationID string          `json:"conversation_id"`
	CursorVersion  string          `json:"cursor_version"`
	TranscriptPath string          `json:"transcript_path"`
	Cwd            string          `json:"cwd"`
	ToolName       string          `json:"tool_name"`
	ToolInput      json.RawMessage `json:"tool_input"`
	ToolResponse   json.RawMessage `json:"tool_response"`
	StopHookActive bool            `json:"stop_hook_active"`
	// InstructionsLoaded.
	FilePath       string `json:"file_path"`
	MemoryType     string `json:"memory_type"`
	LoadReason     string `json:"load_reason"`
	ParentFilePath string `json:"parent_file_path"`
	// SubagentStart.
	AgentID   string `json:"agent_id"`
	AgentType string `json:"agent_type"`
}

// claudeKept is what decodeClaude reads of a payload: claudeInput's
// fields, and of tool_input and tool_response what afterWrite reads.
func claudeKept() kept {
	return kept{
		"session_id": nil, "conversation_id": nil, "cursor_version": nil, "transcript_path": nil, "cwd": nil,
		"tool_name": nil, "stop_hook_active": nil,
		"tool_input":    {"file_path": nil, "notebook_path": nil, "subagent_type": nil},
		"tool_response": {"agentid": nil},
		"file_path":     nil, "memory_type": nil, "load_reason": nil, "parent_file_path": nil,
		"agent_id": nil, "agent_type": nil,
	}
}

func decodeClaude(data []byte, k Kind, getenv func(string) string) (*Payload, error) {
	var in claudeInput
	if err := unmarshalKept(data, &in, claudeKept(), readClaudeInput); err != nil {
		return nil, err
	}
	if in.ConversationID != "" || in.CursorVersion != "" {
		// Cursor running this hook: read as the Cursor adapter reads it,
		// under the conversation id its own hooks use, so a turn both
		// hooks end is one session's and is cleaned once (the turn's
		// lock and the once-only answers see to a second end).
		p, err := decodeCursor(data, k, getenv)
		if err != nil {
			return nil, err
		}
		p.Platform = "cursor"
		return p, nil
	}
	if in.SessionID == "" {
		return nil, errors.New("hook input has no session_id")
	}
	p := &Payload{Session: in.SessionID, Cwd: in.Cwd, ProjectDir: getenv("CLAUDE_PROJECT_DIR")}
	var err error
	switch k {
	case SessionStart:
		p.EnvFile, p.Transcript = getenv("CLAUDE_ENV_FILE"), in.TranscriptPath
	case BeforeWrite:
		if claudeWriteTool(in.ToolName) {
			p.Writes, err = in.written()
		}
	case AfterWrite:
		err = in.afterWrite(p)
	case TurnEnd:
		p.Again = in.StopHookActive
	case MemoryLoaded:
		if in.FilePath == "" {
			return nil, errors.New("InstructionsLoaded input names no file_path")
		}
		p.Loaded = &Loaded{Path: in.FilePath, MemoryType: in.MemoryType, LoadReason: in.LoadReason, Parent: in.ParentFilePath}
	case SubagentStart:
		p.Spawn = &Spawn{AgentType: in.AgentType, AgentID: in.AgentID, Via: lane.ViaSubagentStart}
	}
	if err != nil {
		return nil, err
	}
	return p, nil
}

// claudeWriteTool reports whether a tool writes the file its input names.
func claudeWriteTool(name string) bool {
	switch name {
	case "Write", "Edit", "MultiEdit", "NotebookEdit":
		return true
	}
	return false
}

// afterWrite fills a PostToolUse payload: the written file, or a spawn for
// the subagent tool (Agent, named Task before).
func (in *claudeInput) afterWrite(p *Payload) error {
	if in.ToolName == "" {
		return errors.New("hook input has no tool_name")
	}
	if in.ToolName == "Agent" || in.ToolName == "Task" {
		var ti claudeAgentInput
		_ = jsonfast.Decode(in.ToolInput, &ti, readClaudeAgentInput)
		var tr claudeAgentResponse
		_ = jsonfast.Decode(in.ToolResponse, &tr, readClaudeAgentResponse)
		p.Spawn = &Spawn{AgentType: ti.SubagentType, AgentID: tr.AgentID, Via: lane.ViaToolUse}
		return nil
	}
	if !claudeWriteTool(in.ToolName) {
		return nil
	}
	var err error
	p.Writes, err = in.written()
	return err
}

// written is the file a write tool touched: tool_input.file_path (Write,
// Edit, MultiEdit) or notebook_path (NotebookEdit). It must be absolute;
// Claude Code always sends absolute paths.
func (in *claudeInput) written() ([]session.Written, error) {
	var ti claudeFileInput
	if len(in.ToolInput) == 0 || !jsonfast.Decode(in.ToolInput, &ti, readClaudeFileInput) {
		return nil, fmt.Errorf("%s hook input has no usable tool_input", in.ToolName)
	}
	p := ti.FilePath
	if p == "" {
		p = ti.NotebookPath
	}
	if p == "" {
		return nil, fmt.Errorf("%s hook input names no file", in.ToolName)
	}
	if !filepath.IsAbs(p) {
		return nil, fmt.Errorf("%s hook input path %q is not absolute; not recorded", in.ToolName, p)
	}
	return []session.Written{{Path: filepath.Clean(p), Raw: p}}, nil
}

package claude

import (
	"encoding/json"
	"errors"
	"fmt"
	"github.com/prosewash/prosewash/internal/engine/session"
	"io"
	"path/filepath"

	"github.com/prosewash/prosewash/internal/hooks/agent"
)

// Input is the JSON Claude Code sends on a hook's stdin. Unknown fields are
// allowed: the CLI adds fields between versions.
type Input struct {
	SessionID      string          `json:"session_id"`
	TranscriptPath string          `json:"transcript_path"`
	Cwd            string          `json:"cwd"`
	HookEventName  string          `json:"hook_event_name"`
	Source         string          `json:"source"` // SessionStart: startup, resume, clear, compact
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

// Output is the JSON a hook writes on stdout (exit status 0).
type Output struct {
	Continue           *bool     `json:"continue,omitempty"`
	SystemMessage      string    `json:"systemMessage,omitempty"` // shown to the user, not the model
	Decision           string    `json:"decision,omitempty"`      // "block" for Stop: keep the agent working
	Reason             string    `json:"reason,omitempty"`        // shown to the model with "block"
	SuppressOutput     bool      `json:"suppressOutput,omitempty"`
	HookSpecificOutput *Specific `json:"hookSpecificOutput,omitempty"`
}

// Specific carries event-specific output.
type Specific struct {
	HookEventName     string `json:"hookEventName"`
	AdditionalContext string `json:"additionalContext,omitempty"`
}

// ReadInput decodes the hook payload. Empty or invalid input is an error
// with a message fit for a one-line systemMessage.
func ReadInput(r io.Reader) (*Input, error) {
	in := &Input{}
	if err := agent.DecodePayload(r, "Claude Code", in); err != nil {
		return nil, err
	}
	if in.SessionID == "" {
		return nil, errors.New("hook input has no session_id")
	}
	return in, nil
}

// WrittenPath extracts the file a write tool touched: tool_input.file_path
// (Write, Edit, MultiEdit) or notebook_path (NotebookEdit). It must be
// absolute; Claude Code always sends absolute paths.
func (in *Input) WrittenPath() (string, error) {
	var ti struct {
		FilePath     string `json:"file_path"`
		NotebookPath string `json:"notebook_path"`
	}
	if len(in.ToolInput) == 0 || json.Unmarshal(in.ToolInput, &ti) != nil {
		return "", fmt.Errorf("%s hook input has no usable tool_input", in.ToolName)
	}
	p := ti.FilePath
	if p == "" {
		p = ti.NotebookPath
	}
	if p == "" {
		return "", fmt.Errorf("%s hook input names no file", in.ToolName)
	}
	if !filepath.IsAbs(p) {
		return "", fmt.Errorf("%s hook input path %q is not absolute; not recorded", in.ToolName, p)
	}
	return filepath.Clean(p), nil
}

// rawPath is the written path exactly as the payload spells it.
func (in *Input) rawPath() string {
	var ti struct {
		FilePath     string `json:"file_path"`
		NotebookPath string `json:"notebook_path"`
	}
	if json.Unmarshal(in.ToolInput, &ti) != nil {
		return ""
	}
	if ti.FilePath != "" {
		return ti.FilePath
	}
	return ti.NotebookPath
}

// WriteOutput writes one JSON document on stdout; nothing else may go there.
func WriteOutput(w io.Writer, out *Output) error {
	if out == nil {
		return nil
	}
	return agent.WriteJSON(w, out)
}

// FailOpen is the output for any internal error: the agent goes on, the
// user sees one line.
func FailOpen(event string, err error) *Output {
	return &Output{SystemMessage: session.FailMessage(event, err), SuppressOutput: true}
}

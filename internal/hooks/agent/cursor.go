package agent

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/prosewash/prosewash/internal/engine/session"
)

// cursor is Cursor (cursor.com/docs/hooks): project hooks in
// .cursor/hooks.json, a conversation_id for the session, no cwd but the
// workspace roots, and JSON on stdout every time ({} for no opinion).
// Cursor also runs the hooks of .claude/settings.json with its own
// payloads (cursor.com/docs/reference/third-party-hooks: "All matching
// hooks from every source run"): the Claude Code adapter hands those to
// decodeCursor, so both hooks of one turn are one session.
func cursor() Platform {
	return Platform{
		Name: "cursor", Title: "Cursor", Memory: "cursor",
		Events: []Event{
			// Cursor's session start is also where the model hears what the
			// end of the last turn rewrote.
			{Arg: "session-start", Name: "sessionStart", Kind: SessionStart, Rewritten: true, Hooks: []Hook{{"", 30}}},
			{Arg: "after-file-edit", Name: "afterFileEdit", Kind: AfterWrite, Hooks: []Hook{{"", 30}}},
			// The redirect and tee targets of the agent's shell commands
			// (afterFileEdit never sees them). Only after: a
			// beforeShellExecution hook answers a permission, which a
			// recorder has no business giving.
			{Arg: "after-shell-execution", Name: "afterShellExecution", Kind: AfterWrite, Hooks: []Hook{{"", 30}}},
			{Arg: "stop", Name: "stop", Kind: TurnEnd, Hooks: []Hook{{"", 600}}},
		},
		Decode:    decodeCursor,
		Encode:    encodeCursor,
		NoOpinion: "{}",
		Config: Config{File: ".cursor/hooks.json", Markers: []string{".cursor", ".cursorrules"}, Base: `{"version":1}`,
			Handler: func(ev Event, h Hook, command string) any {
				c := cursorHandler{Command: command, Timeout: h.Timeout}
				if ev.Kind == TurnEnd {
					c.LoopLimit = 1 // one follow-up at most: prosewash asks once
				}
				return c
			}},
	}
}

type cursorHandler struct {
	Command   string `json:"command"`
	Timeout   int    `json:"timeout,omitempty"`
	LoopLimit int    `json:"loop_limit,omitempty"`
}

// cursorInput is the JSON Cursor sends on a hook's stdin. Its session id
// is conversation_id: one conversation is what Claude Code and Codex call
// a session.
type cursorInput struct {
	ConversationID string   `json:"conversation_id"`
	WorkspaceRoots []string `json:"workspace_roots"`
	FilePath       string   `json:"file_path"` // afterFileEdit, absolute
	// Command and Cwd: before/afterShellExecution's shell command and
	// where it ran.
	Command string `json:"command"`
	Cwd     string `json:"cwd"`
	// ToolName and ToolInput: preToolUse/postToolUse, the events Claude
	// Code's PreToolUse and PostToolUse hooks run at under Cursor.
	ToolName  string          `json:"tool_name"`
	ToolInput json.RawMessage `json:"tool_input"`
	Status    string          `json:"status"` // stop: completed, aborted or error
	LoopCount int             `json:"loop_count"`
	// StopHookActive is Claude Code's signal, read in case Cursor sends
	// it to Claude Code's hooks too.
	StopHookActive bool `json:"stop_hook_active"`
}

func decodeCursor(data []byte, k Kind, getenv func(string) string) (*Payload, error) {
	var in cursorInput
	if err := unmarshal(data, &in); err != nil {
		return nil, err
	}
	if in.ConversationID == "" {
		return nil, errors.New("hook input has no conversation_id")
	}
	p := &Payload{Session: in.ConversationID}
	switch k {
	case Unknown:
		return p, nil
	case TurnEnd:
		// Cursor has no stop_hook_active: a stop that follows our own
		// followup_message has loop_count > 0, and that turn ends. An
		// aborted or failed turn is left alone.
		if p.Again = in.LoopCount > 0 || in.StopHookActive || (in.Status != "" && in.Status != "completed"); p.Again {
			return p, nil
		}
	}
	// No cwd: the first workspace root is the project, else the hook's
	// working directory (Cursor runs project hooks from the project).
	if len(in.WorkspaceRoots) > 0 {
		p.Cwd = in.WorkspaceRoots[0]
	}
	if p.Cwd == "" {
		p.Cwd = getenv("PWD")
	}
	if p.Cwd == "" || !filepath.IsAbs(p.Cwd) {
		return nil, errors.New("hook input has no absolute workspace_roots entry")
	}
	if k == BeforeWrite || k == AfterWrite {
		ws, err := in.written(p.Cwd)
		if err != nil {
			return nil, err
		}
		p.Writes = ws
	}
	return p, nil
}

// written returns the files one tool call wrote: afterFileEdit's
// file_path, the redirect targets of a shell command (ShellPaths, as for
// Codex and Copilot CLI), or what a Write or Shell tool's input names.
// Relative paths are the command's cwd's, else the workspace root's.
func (in *cursorInput) written(root string) ([]session.Written, error) {
	dir := root
	if filepath.IsAbs(in.Cwd) {
		dir = in.Cwd
	}
	switch {
	case in.FilePath != "":
		if !filepath.IsAbs(in.FilePath) {
			return nil, fmt.Errorf("afterFileEdit hook input path %q is not absolute; not recorded", in.FilePath)
		}
		return []session.Written{{Path: filepath.Clean(in.FilePath), Raw: in.FilePath}}, nil
	case in.Command != "":
		return ShellPaths(in.Command, dir), nil
	case in.ToolName != "":
		return in.toolWritten(dir)
	}
	return nil, errors.New("hook input names no file_path, command or tool_name")
}

// toolWritten reads a preToolUse/postToolUse tool_input: Cursor's Write
// (Claude Code's Write and Edit under Cursor) names a file, its Shell (Claude
// Code's Bash) a command; other tools write nothing prosewash records.
func (in *cursorInput) toolWritten(dir string) ([]session.Written, error) {
	var ti struct {
		FilePath string `json:"file_path"`
		Path     string `json:"path"`
		Command  string `json:"command"`
		// WorkingDirectory is where a Shell tool's command runs.
		WorkingDirectory string `json:"working_directory"`
	}
	switch in.ToolName {
	case "Write", "Edit", "MultiEdit", "StrReplace", "Shell", "Bash":
	default:
		return nil, nil
	}
	raw := in.ToolInput
	var text string
	if json.Unmarshal(raw, &text) == nil {
		raw = json.RawMessage(text) // tool_input as its JSON text
	}
	if len(raw) == 0 || json.Unmarshal(raw, &ti) != nil {
		return nil, fmt.Errorf("%s hook input has no usable tool_input", in.ToolName)
	}
	if in.ToolName == "Shell" || in.ToolName == "Bash" {
		if filepath.IsAbs(ti.WorkingDirectory) {
			dir = ti.WorkingDirectory
		}
		return ShellPaths(ti.Command, dir), nil
	}
	f := ti.FilePath
	if f == "" {
		f = ti.Path
	}
	if f == "" {
		return nil, fmt.Errorf("%s hook input names no file", in.ToolName)
	}
	return []session.Written{{Path: abs(f, dir), Raw: f}}, nil
}

// cursorOutput is what a Cursor hook prints: stop's followup_message is
// submitted as the next user message (bounded by the hook's loop_limit),
// sessionStart's additional_context goes to the model.
type cursorOutput struct {
	FollowupMessage   string `json:"followup_message,omitempty"`
	AdditionalContext string `json:"additional_context,omitempty"`
	// UserMessage is shown to the user where Cursor shows hook messages.
	UserMessage string `json:"user_message,omitempty"`
}

func encodeCursor(ev Event, a Answer) Reply {
	if ev.Kind == AfterWrite && !a.Failed {
		// afterFileEdit is fire-and-forget: Cursor reads nothing back.
		return Reply{}
	}
	out := cursorOutput{UserMessage: a.User, AdditionalContext: a.Model, FollowupMessage: a.Continue}
	if out == (cursorOutput{}) {
		return Reply{}
	}
	return Reply{JSON: &out}
}

package agent

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/prosewash/prosewash/internal/engine/session"
)

// codex is OpenAI Codex CLI (codex-rs hooks, 0.169.0): project hooks in
// .codex/hooks.json, Claude Code's protocol with its own tools. It sets no
// project-directory variable: the payload's cwd is the session's.
func codex() Platform {
	const tools = "apply_patch|Bash"
	return Platform{
		Name: "codex", Title: "Codex", Memory: "codex",
		Events: []Event{
			{Arg: "session-start", Name: "SessionStart", Kind: SessionStart, Hooks: []Hook{{"startup|resume|clear", 30}}},
			{Arg: "user-prompt-submit", Name: "UserPromptSubmit", Kind: TurnStart, Hooks: []Hook{{"", 30}}},
			// The memory lane's write guard, before the same tools write.
			{Arg: "pre-tool-use", Name: "PreToolUse", Kind: BeforeWrite, Hooks: []Hook{{tools, 30}}},
			// apply_patch (Codex also matches it as Edit and Write) and the
			// shell, whose redirect targets are recorded.
			{Arg: "post-tool-use", Name: "PostToolUse", Kind: AfterWrite, Hooks: []Hook{{tools, 30}}},
			// Stop may run validation commands: Codex's own maximum.
			{Arg: "stop", Name: "Stop", Kind: TurnEnd, Hooks: []Hook{{"", 600}}},
		},
		Decode: decodeCodex,
		// codex exec shows systemMessage nowhere, the TUI as a warning;
		// additionalContext becomes a developer message, a Stop block's
		// reason the next prompt.
		Encode: hookProtocol("block", false),
		Config: Config{File: ".codex/hooks.json", Markers: []string{".codex"}, Base: "{}", Grouped: true, Handler: commandHook},
	}
}

// codexInput is the JSON Codex sends on a hook's stdin (codex-rs
// hooks/schema/generated/*.command.input.schema.json). tool_response is a
// string for apply_patch and the shell; it is not read.
type codexInput struct {
	SessionID      string          `json:"session_id"`
	Cwd            string          `json:"cwd"`
	ToolName       string          `json:"tool_name"`
	ToolInput      json.RawMessage `json:"tool_input"`
	StopHookActive bool            `json:"stop_hook_active"`
}

func decodeCodex(data []byte, k Kind, _ func(string) string) (*Payload, error) {
	var in codexInput
	if err := unmarshal(data, &in); err != nil {
		return nil, err
	}
	if in.SessionID == "" {
		return nil, errors.New("hook input has no session_id")
	}
	p := &Payload{Session: in.SessionID, Cwd: in.Cwd}
	switch k {
	case BeforeWrite, AfterWrite:
		if in.ToolName == "" {
			return nil, errors.New("hook input has no tool_name")
		}
		// Before the call the write guard also banks what a patch deletes.
		ws, err := in.touched(k == BeforeWrite)
		if err != nil {
			return nil, err
		}
		p.Writes = ws
	case TurnEnd:
		p.Again = in.StopHookActive
	}
	return p, nil
}

// command is the patch or shell command a tool call carries.
func (in *codexInput) command() (string, error) {
	var ti struct {
		Command json.RawMessage `json:"command"`
		Input   string          `json:"input"`
		Cmd     string          `json:"cmd"`
	}
	if len(in.ToolInput) == 0 || json.Unmarshal(in.ToolInput, &ti) != nil {
		return "", fmt.Errorf("%s hook input has no usable tool_input", in.ToolName)
	}
	var cmd string
	if len(ti.Command) > 0 {
		// A string for apply_patch and Bash; an argv array for the
		// older shell tool.
		var argv []string
		if json.Unmarshal(ti.Command, &cmd) != nil && json.Unmarshal(ti.Command, &argv) == nil && len(argv) > 0 {
			cmd = argv[len(argv)-1]
		}
	}
	if cmd == "" {
		cmd = ti.Input
	}
	if cmd == "" {
		cmd = ti.Cmd
	}
	return cmd, nil
}

// touched returns the files a tool call writes: the apply_patch envelope's
// Add/Update/Move paths, or the redirect and tee targets of a shell
// command, and with deletes the files an envelope deletes too; other tools
// write nothing prosewash records.
func (in *codexInput) touched(deletes bool) ([]session.Written, error) {
	cmd, err := in.command()
	if err != nil {
		return nil, err
	}
	var ws []session.Written
	switch in.ToolName {
	case "apply_patch", "Edit", "Write":
		if cmd == "" {
			return nil, fmt.Errorf("%s hook input carries no patch", in.ToolName)
		}
		ws = PatchPaths(cmd, in.Cwd)
	case "Bash", "exec_command", "shell", "shell_command", "local_shell":
		ws = ShellPaths(cmd, in.Cwd)
	default:
		return nil, nil
	}
	if deletes && strings.Contains(cmd, "*** Begin Patch") {
		ws = append(ws, PatchDeleted(cmd, in.Cwd)...)
	}
	return ws, nil
}

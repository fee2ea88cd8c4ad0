package codex

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/prosewash/prosewash/internal/engine/session"
	"io"
	"strings"

	"github.com/prosewash/prosewash/internal/hooks/agent"
)

// Events, as named on the command line: prosewash hook codex EVENT.
const (
	SessionStart     = "session-start"
	UserPromptSubmit = "user-prompt-submit"
	PreToolUse       = "pre-tool-use"
	PostToolUse      = "post-tool-use"
	Stop             = "stop"
)

// Events lists the events Run answers.
func Events() []string {
	return []string{SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, Stop}
}

// Input is the JSON Codex sends on a hook's stdin (codex-rs
// hooks/schema/generated/*.command.input.schema.json). tool_response is a
// string for apply_patch and the shell; it is not read.
type Input struct {
	SessionID      string          `json:"session_id"`
	TurnID         string          `json:"turn_id"`
	Cwd            string          `json:"cwd"`
	HookEventName  string          `json:"hook_event_name"`
	Source         string          `json:"source"`
	ToolName       string          `json:"tool_name"`
	ToolInput      json.RawMessage `json:"tool_input"`
	StopHookActive bool            `json:"stop_hook_active"`
}

// Output is what a hook prints (exit 0). Codex turns additionalContext
// into a developer message; a Stop "block" makes reason the next prompt.
type Output struct {
	SystemMessage      string    `json:"systemMessage,omitempty"`
	Decision           string    `json:"decision,omitempty"`
	Reason             string    `json:"reason,omitempty"`
	HookSpecificOutput *Specific `json:"hookSpecificOutput,omitempty"`
}

// Specific carries event-specific output.
type Specific struct {
	HookEventName     string `json:"hookEventName"`
	AdditionalContext string `json:"additionalContext,omitempty"`
}

// ReadInput decodes a hook payload; it must carry a session id.
func ReadInput(r io.Reader) (*Input, error) {
	in := &Input{}
	if err := agent.DecodePayload(r, "Codex", in); err != nil {
		return nil, err
	}
	if in.SessionID == "" {
		return nil, fmt.Errorf("hook input has no session_id")
	}
	return in, nil
}

// FailOpen is the answer to any internal error: the session goes on, the
// user sees one line. (codex exec shows systemMessage nowhere, the TUI as
// a warning; nothing reaches the model.)
func FailOpen(event string, err error) *Output {
	return &Output{SystemMessage: session.FailMessage(event, err)}
}

// WriteOutput prints one JSON document, or nothing for no opinion.
func WriteOutput(w io.Writer, out *Output) error {
	if out == nil {
		return nil
	}
	return agent.WriteJSON(w, out)
}

// Runner answers Codex hook events for one process.
type Runner struct{ session.Env }

// Run answers one event with the payload on stdin. It never fails: any
// problem, a panic included, becomes a one-line systemMessage.
func (r *Runner) Run(ctx context.Context, event string, stdin io.Reader) (out *Output) {
	err := agent.Safe(func() error {
		in, err := ReadInput(stdin)
		if err != nil {
			return err
		}
		switch event {
		case SessionStart:
			out, err = r.sessionStart(in)
		case UserPromptSubmit:
			out, err = r.userPromptSubmit(in)
		case PreToolUse:
			out, err = r.preToolUse(in)
		case PostToolUse:
			out, err = r.postToolUse(in)
		case Stop:
			out, err = r.stop(ctx, in)
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

// session opens the payload's session. Codex sets no project-directory
// variable: the payload's cwd is the session's.
func (r *Runner) session(in *Input) (*session.Session, error) {
	return r.Env.Open("codex", in.SessionID, in.Cwd, "")
}

func context_(event, text string) *Output {
	if text == "" {
		return nil
	}
	return &Output{HookSpecificOutput: &Specific{HookEventName: event, AdditionalContext: text}}
}

func (r *Runner) sessionStart(in *Input) (*Output, error) {
	s, err := r.session(in)
	if err != nil {
		return nil, err
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

// userPromptSubmit tells the model, at the start of a turn, which files
// the end of its last turn cleaned: what it saw of them is stale.
func (r *Runner) userPromptSubmit(in *Input) (*Output, error) {
	s, err := r.session(in)
	if err != nil {
		return nil, err
	}
	return context_("UserPromptSubmit", session.RewrittenContext(s.TakeRewritten())), nil
}

// command is the patch or shell command a tool call carries.
func (in *Input) command() (string, error) {
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

// Written returns the files a tool call wrote: the apply_patch envelope's
// Add/Update/Move paths, or the redirect and tee targets of a shell
// command; other tools write nothing prosewash records.
func (in *Input) Written() ([]session.Written, error) { return in.touched(false) }

// touched returns the files a tool call writes and, with deletes, those an
// apply_patch envelope deletes too.
func (in *Input) touched(deletes bool) ([]session.Written, error) {
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
		ws = agent.PatchPaths(cmd, in.Cwd)
	case "Bash", "exec_command", "shell", "shell_command", "local_shell":
		ws = agent.ShellPaths(cmd, in.Cwd)
	default:
		return nil, nil
	}
	if deletes && strings.Contains(cmd, "*** Begin Patch") {
		ws = append(ws, agent.PatchDeleted(cmd, in.Cwd)...)
	}
	return ws, nil
}

// preToolUse is the memory lane's write guard: before the session's first
// write to (or deletion of) a memory file such as AGENTS.md it banks a
// copy, which lets post-tool-use tell the model what a write dropped. It
// never has an opinion on the tool call.
func (r *Runner) preToolUse(in *Input) (*Output, error) {
	if in.ToolName == "" {
		return nil, fmt.Errorf("hook input has no tool_name")
	}
	written, err := in.touched(true)
	if err != nil {
		return nil, err
	}
	if len(written) == 0 {
		return nil, nil
	}
	s, err := r.session(in)
	if err != nil {
		return nil, err
	}
	return nil, s.BeforeWrites(written)
}

// postToolUse records what the tool wrote. It never blocks the tool's
// result (that would replace what the model sees); what the model should
// know goes in additionalContext.
func (r *Runner) postToolUse(in *Input) (*Output, error) {
	if in.ToolName == "" {
		return nil, fmt.Errorf("hook input has no tool_name")
	}
	written, err := in.Written()
	if err != nil || len(written) == 0 {
		return nil, err
	}
	s, err := r.session(in)
	if err != nil {
		return nil, err
	}
	fyi, err := s.Record(written)
	if err != nil {
		return nil, err
	}
	return context_("PostToolUse", strings.Join(fyi, "\n")), nil
}

// stop ends the turn by mode; a block (confirm mode, or the memory lane's
// one nudge) becomes Codex's continuation prompt. stop_hook_active is
// honoured.
func (r *Runner) stop(ctx context.Context, in *Input) (*Output, error) {
	if in.StopHookActive {
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
	return out, nil
}

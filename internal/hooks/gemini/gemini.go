package gemini

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/prosewash/prosewash/internal/engine/session"
	"io"
	"path/filepath"
	"strings"

	"github.com/prosewash/prosewash/internal/hooks/agent"
)

// Events, as named on the command line: prosewash hook gemini EVENT.
const (
	SessionStart = "session-start"
	BeforeAgent  = "before-agent"
	BeforeTool   = "before-tool"
	AfterTool    = "after-tool"
	AfterAgent   = "after-agent"
)

// Events lists the events Run answers.
func Events() []string { return []string{SessionStart, BeforeAgent, BeforeTool, AfterTool, AfterAgent} }

// Input is the JSON Gemini CLI sends on a hook's stdin
// (docs/hooks/reference.md). tool_response is an object; it is not read.
type Input struct {
	SessionID      string          `json:"session_id"`
	Cwd            string          `json:"cwd"`
	HookEventName  string          `json:"hook_event_name"`
	Source         string          `json:"source"`
	ToolName       string          `json:"tool_name"`
	ToolInput      json.RawMessage `json:"tool_input"`
	StopHookActive bool            `json:"stop_hook_active"`
}

// Output is what a hook prints (exit 0). Gemini wants JSON only on stdout
// ("silence is mandatory"); {} is the answer with no opinion.
type Output struct {
	SystemMessage      string    `json:"systemMessage,omitempty"`
	Decision           string    `json:"decision,omitempty"` // AfterAgent: "deny" retries the turn with reason as the prompt
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
	if err := agent.DecodePayload(r, "Gemini CLI", in); err != nil {
		return nil, err
	}
	if in.SessionID == "" {
		return nil, fmt.Errorf("hook input has no session_id")
	}
	return in, nil
}

// FailOpen is the answer to any internal error: one line on the user's
// terminal (Gemini prints systemMessage on stderr), nothing for the model.
func FailOpen(event string, err error) *Output {
	return &Output{SystemMessage: session.FailMessage(event, err)}
}

// WriteOutput prints one JSON document; nil prints {}.
func WriteOutput(w io.Writer, out *Output) error {
	if out == nil {
		out = &Output{}
	}
	return agent.WriteJSON(w, out)
}

// Runner answers Gemini CLI hook events for one process.
type Runner struct{ session.Env }

// Run answers one event with the payload on stdin. It never fails.
func (r *Runner) Run(ctx context.Context, event string, stdin io.Reader) (out *Output) {
	err := agent.Safe(func() error {
		in, err := ReadInput(stdin)
		if err != nil {
			return err
		}
		switch event {
		case SessionStart:
			out, err = r.sessionStart(in)
		case BeforeAgent:
			out, err = r.beforeAgent(in)
		case BeforeTool:
			out, err = r.beforeTool(in)
		case AfterTool:
			out, err = r.afterTool(in)
		case AfterAgent:
			out, err = r.afterAgent(ctx, in)
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

// session opens the payload's session: its cwd, else GEMINI_PROJECT_DIR,
// which Gemini sets for every hook.
func (r *Runner) session(in *Input) (*session.Session, error) {
	return r.Env.Open("gemini", in.SessionID, in.Cwd, r.Var("GEMINI_PROJECT_DIR"))
}

func withContext(event, text string) *Output {
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

// beforeAgent tells the model, at the start of a turn, which files the
// end of its last turn cleaned: write_file and replace showed it the
// content before the clean.
func (r *Runner) beforeAgent(in *Input) (*Output, error) {
	s, err := r.session(in)
	if err != nil {
		return nil, err
	}
	return withContext("BeforeAgent", session.RewrittenContext(s.TakeRewritten())), nil
}

// WrittenPath is the file write_file or replace wrote: tool_input.file_path,
// absolute as Gemini sends it (a relative one is taken against cwd).
func (in *Input) WrittenPath() (session.Written, error) {
	var ti struct {
		FilePath string `json:"file_path"`
	}
	if len(in.ToolInput) == 0 || json.Unmarshal(in.ToolInput, &ti) != nil {
		return session.Written{}, fmt.Errorf("%s hook input has no usable tool_input", in.ToolName)
	}
	if ti.FilePath == "" {
		return session.Written{}, fmt.Errorf("%s hook input names no file", in.ToolName)
	}
	p := ti.FilePath
	if !filepath.IsAbs(p) {
		if in.Cwd == "" {
			return session.Written{}, fmt.Errorf("%s hook input path %q is relative and there is no cwd", in.ToolName, p)
		}
		p = filepath.Join(in.Cwd, p)
	}
	return session.Written{Path: filepath.Clean(p), Raw: ti.FilePath}, nil
}

// writeTool reports whether a Gemini tool writes the file its input names.
func writeTool(name string) bool { return name == "write_file" || name == "replace" }

// writeCall opens the session of a write_file or replace call and names
// the file it writes; a call of any other tool gives a nil session.
func (r *Runner) writeCall(in *Input) (*session.Session, []session.Written, error) {
	if in.ToolName == "" {
		return nil, nil, fmt.Errorf("hook input has no tool_name")
	}
	if !writeTool(in.ToolName) {
		return nil, nil, nil
	}
	w, err := in.WrittenPath()
	if err != nil {
		return nil, nil, err
	}
	s, err := r.session(in)
	if err != nil {
		return nil, nil, err
	}
	return s, []session.Written{w}, nil
}

// beforeTool is the memory lane's write guard: before the session's first
// write to a memory file such as GEMINI.md it banks a copy, which lets
// after-tool tell the model what the write dropped. It never has an
// opinion on the tool call.
func (r *Runner) beforeTool(in *Input) (*Output, error) {
	s, ws, err := r.writeCall(in)
	if s == nil || err != nil {
		return nil, err
	}
	return nil, s.BeforeWrites(ws)
}

// afterTool records what write_file and replace wrote. It never blocks
// (that would replace the tool's result with an error for the model).
func (r *Runner) afterTool(in *Input) (*Output, error) {
	s, ws, err := r.writeCall(in)
	if s == nil || err != nil {
		return nil, err
	}
	fyi, err := s.Record(ws)
	if err != nil {
		return nil, err
	}
	return withContext("AfterTool", strings.Join(fyi, "\n")), nil
}

// afterAgent is the end of a turn: by mode, and a block is Gemini's
// "deny", which retries the turn with reason as the new prompt.
// stop_hook_active is honoured.
func (r *Runner) afterAgent(ctx context.Context, in *Input) (*Output, error) {
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
		out.Decision, out.Reason = "deny", t.Continue
	}
	return out, nil
}

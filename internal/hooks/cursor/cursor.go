package cursor

import (
	"context"
	"fmt"
	"github.com/prosewash/prosewash/internal/engine/session"
	"io"
	"path/filepath"
	"strings"

	"github.com/prosewash/prosewash/internal/hooks/agent"
)

// Events, as named on the command line: prosewash hook cursor EVENT.
const (
	SessionStart  = "session-start"
	AfterFileEdit = "after-file-edit"
	Stop          = "stop"
)

// Events lists the events Run answers.
func Events() []string { return []string{SessionStart, AfterFileEdit, Stop} }

// Input is the JSON Cursor sends on a hook's stdin (cursor.com/docs/hooks).
// Its session id is conversation_id: one conversation is what Claude Code
// and Codex call a session.
type Input struct {
	ConversationID string   `json:"conversation_id"`
	GenerationID   string   `json:"generation_id"`
	HookEventName  string   `json:"hook_event_name"`
	WorkspaceRoots []string `json:"workspace_roots"`
	FilePath       string   `json:"file_path"` // afterFileEdit, absolute
	Status         string   `json:"status"`    // stop: completed, aborted or error
	LoopCount      int      `json:"loop_count"`
}

// Output is what a hook prints. afterFileEdit's output is ignored (it is
// fire-and-forget); stop's followup_message is submitted as the next user
// message, bounded by the hook's loop_limit; sessionStart's
// additional_context goes to the model.
type Output struct {
	FollowupMessage   string `json:"followup_message,omitempty"`
	AdditionalContext string `json:"additional_context,omitempty"`
	// UserMessage is shown to the user where Cursor shows hook messages.
	UserMessage string `json:"user_message,omitempty"`
}

// ReadInput decodes a hook payload; it must carry a conversation id.
func ReadInput(r io.Reader) (*Input, error) {
	in := &Input{}
	if err := agent.DecodePayload(r, "Cursor", in); err != nil {
		return nil, err
	}
	if in.ConversationID == "" {
		return nil, fmt.Errorf("hook input has no conversation_id")
	}
	return in, nil
}

// FailOpen is the answer to any internal error: nothing for the model.
func FailOpen(event string, err error) *Output {
	return &Output{UserMessage: session.FailMessage(event, err)}
}

// WriteOutput prints one JSON document; nil prints {} (no opinion).
func WriteOutput(w io.Writer, out *Output) error {
	if out == nil {
		out = &Output{}
	}
	return agent.WriteJSON(w, out)
}

// Runner answers Cursor hook events for one process.
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
		case AfterFileEdit:
			out, err = r.afterFileEdit(in)
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

// session opens the conversation's session. Cursor's payload has no cwd:
// the first workspace root is the project, else the hook's working
// directory (Cursor runs project hooks from the project).
func (r *Runner) session(in *Input) (*session.Session, error) {
	dir := ""
	if len(in.WorkspaceRoots) > 0 {
		dir = in.WorkspaceRoots[0]
	}
	if dir == "" {
		dir = r.Var("PWD")
	}
	if dir == "" || !filepath.IsAbs(dir) {
		return nil, fmt.Errorf("hook input has no absolute workspace_roots entry")
	}
	return r.Env.Open("cursor", in.ConversationID, dir, "")
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
	ctx := session.JoinLines(st.Model, session.RewrittenContext(s.TakeRewritten()))
	if st.User == "" && ctx == "" {
		return nil, nil
	}
	return &Output{UserMessage: st.User, AdditionalContext: ctx}, nil
}

// afterFileEdit records the edited file.
func (r *Runner) afterFileEdit(in *Input) (*Output, error) {
	if in.FilePath == "" {
		return nil, fmt.Errorf("afterFileEdit hook input names no file_path")
	}
	p := in.FilePath
	if !filepath.IsAbs(p) {
		return nil, fmt.Errorf("afterFileEdit hook input path %q is not absolute; not recorded", p)
	}
	s, err := r.session(in)
	if err != nil {
		return nil, err
	}
	_, err = s.Record([]session.Written{{Path: filepath.Clean(p), Raw: in.FilePath}})
	return nil, err
}

// stop ends the turn by mode. Cursor has no stop_hook_active: a stop that
// follows our own followup_message has loop_count > 0, and that turn ends.
// An aborted or failed turn is left alone.
func (r *Runner) stop(ctx context.Context, in *Input) (*Output, error) {
	if in.LoopCount > 0 || (in.Status != "" && in.Status != "completed") {
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
	return &Output{UserMessage: t.User, FollowupMessage: t.Continue}, nil
}

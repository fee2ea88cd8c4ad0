package agent

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/prosewash/prosewash/internal/engine/session"
)

// cursor is Cursor (cursor.com/docs/hooks): project hooks in
// .cursor/hooks.json, a conversation_id for the session, no cwd but the
// workspace roots, and JSON on stdout every time ({} for no opinion).
func cursor() Platform {
	return Platform{
		Name: "cursor", Title: "Cursor", Memory: "cursor",
		Events: []Event{
			// Cursor's session start is also where the model hears what the
			// end of the last turn rewrote.
			{Arg: "session-start", Name: "sessionStart", Kind: SessionStart, Rewritten: true, Hooks: []Hook{{"", 30}}},
			{Arg: "after-file-edit", Name: "afterFileEdit", Kind: AfterWrite, Hooks: []Hook{{"", 30}}},
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
	Status         string   `json:"status"`    // stop: completed, aborted or error
	LoopCount      int      `json:"loop_count"`
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
	case AfterWrite:
		if in.FilePath == "" {
			return nil, errors.New("afterFileEdit hook input names no file_path")
		}
		if !filepath.IsAbs(in.FilePath) {
			return nil, fmt.Errorf("afterFileEdit hook input path %q is not absolute; not recorded", in.FilePath)
		}
		p.Writes = []session.Written{{Path: filepath.Clean(in.FilePath), Raw: in.FilePath}}
	case TurnEnd:
		// Cursor has no stop_hook_active: a stop that follows our own
		// followup_message has loop_count > 0, and that turn ends. An
		// aborted or failed turn is left alone.
		if p.Again = in.LoopCount > 0 || (in.Status != "" && in.Status != "completed"); p.Again {
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
	return p, nil
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

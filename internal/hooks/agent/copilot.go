package agent

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/prosewash/prosewash/internal/engine/session"
)

// copilot is GitHub Copilot CLI (docs.github.com, Copilot hooks
// reference; run end to end with 1.0.102): project hooks in
// .github/hooks/*.json, loaded only in a trusted folder; payloads in
// camelCase (what the CLI sends, with sessionId and stop_hook_active) or
// the VS Code compatible snake_case; no channel to the user in a hook's
// output, so its lines go to standard error, which the CLI logs.
func copilot() Platform {
	return Platform{
		Name: "copilot", Title: "Copilot CLI", Memory: "copilot",
		Events: []Event{
			{Arg: "session-start", Name: "sessionStart", Kind: SessionStart, Rewritten: true, Hooks: []Hook{{"", 30}}},
			{Arg: "post-tool-use", Name: "postToolUse", Kind: AfterWrite, Hooks: []Hook{{"create|edit|str_replace_editor|apply_patch|bash", 30}}},
			{Arg: "agent-stop", Name: "agentStop", Kind: TurnEnd, Hooks: []Hook{{"", 600}}},
		},
		Decode:    decodeCopilot,
		Encode:    encodeCopilot,
		NoOpinion: "{}",
		Config: Config{File: ".github/hooks/prosewash.json", Markers: []string{".github/hooks", ".github/copilot-instructions.md"}, Base: `{"version":1}`,
			Handler: func(_ Event, h Hook, command string) any {
				return copilotHandler{Type: "command", Matcher: h.Matcher, Bash: command, TimeoutSec: h.Timeout}
			}},
	}
}

type copilotHandler struct {
	Type       string `json:"type"`
	Matcher    string `json:"matcher,omitempty"`
	Bash       string `json:"bash"`
	TimeoutSec int    `json:"timeoutSec"`
}

// copilotInput is the JSON Copilot CLI sends on a hook's stdin, in either
// form its hooks reference documents: camelCase (events configured as
// sessionStart, postToolUse, agentStop) or the VS Code compatible
// snake_case (SessionStart, PostToolUse, Stop).
type copilotInput struct {
	SessionID      string          `json:"sessionId"`
	Cwd            string          `json:"cwd"`
	ToolName       string          `json:"toolName"`
	ToolArgs       json.RawMessage `json:"toolArgs"`
	StopHookActive bool            `json:"stop_hook_active"`

	SnakeSessionID string          `json:"session_id"`
	SnakeToolName  string          `json:"tool_name"`
	SnakeToolInput json.RawMessage `json:"tool_input"`
}

func decodeCopilot(data []byte, k Kind, _ func(string) string) (*Payload, error) {
	var in copilotInput
	if err := unmarshal(data, &in); err != nil {
		return nil, err
	}
	if in.SessionID == "" {
		in.SessionID = in.SnakeSessionID
	}
	if in.ToolName == "" {
		in.ToolName = in.SnakeToolName
	}
	if len(in.ToolArgs) == 0 {
		in.ToolArgs = in.SnakeToolInput
	}
	if in.Cwd == "" {
		return nil, errors.New("hook input has no cwd")
	}
	p := &Payload{Session: in.sessionKey(), Cwd: in.Cwd}
	switch k {
	case AfterWrite:
		if in.ToolName == "" {
			return nil, errors.New("hook input has no toolName")
		}
		ws, err := in.written()
		if err != nil {
			return nil, err
		}
		p.Writes = ws
	case TurnEnd:
		// Where the CLI does not send stop_hook_active, the session
		// service's once-per-state guards keep a block from repeating.
		p.Again = in.StopHookActive
	}
	return p, nil
}

// sessionKey is the session a payload belongs to: Copilot's sessionId.
// Builds that send none (GitHub's earlier hook reference documented no
// session id for file hooks) get a stand-in that is the same for every
// hook of one CLI process and differs between processes: the id of the
// nearest ancestor process that is not a shell, with its start time (so a
// reused pid is another session), and the cwd. Without /proc it is the
// cwd alone: every session in that directory then shares one record,
// which only widens what the end of a turn may clean to files also
// written by earlier sessions there, each still checked by hash.
func (in *copilotInput) sessionKey() string {
	if in.SessionID != "" {
		return in.SessionID
	}
	sum := sha256.Sum256([]byte(in.Cwd + "\x00" + cliProcess()))
	return "copilot-" + hex.EncodeToString(sum[:8])
}

// cliProcess names the hook's agent process: pid and start time of the
// first ancestor that is not a shell, or "".
func cliProcess() string {
	pid := os.Getppid()
	for range 6 {
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			return ""
		}
		open, end := bytes.IndexByte(stat, '('), bytes.LastIndexByte(stat, ')')
		if open < 0 || end < open {
			return ""
		}
		name := string(stat[open+1 : end])
		f := bytes.Fields(stat[end+1:])
		if len(f) < 20 {
			return ""
		}
		switch name {
		case "sh", "bash", "dash", "zsh", "ash", "ksh", "mksh", "busybox", "timeout", "env":
			ppid, err := strconv.Atoi(string(f[1]))
			if err != nil || ppid <= 1 {
				return ""
			}
			pid = ppid
			continue
		}
		return strconv.Itoa(pid) + "@" + string(f[19]) // field 22: starttime
	}
	return ""
}

// written returns the files a tool call wrote: create and edit name a
// path (absolute, or relative to cwd), apply_patch carries an envelope,
// bash a command line. toolArgs may arrive as an object or as its JSON
// text.
func (in *copilotInput) written() ([]session.Written, error) {
	args := in.ToolArgs
	var text string
	if json.Unmarshal(args, &text) == nil {
		if strings.HasPrefix(strings.TrimSpace(text), "{") {
			args = json.RawMessage(text)
		} else if in.ToolName == "apply_patch" {
			return PatchPaths(text, in.Cwd), nil
		}
	}
	var ta struct {
		Path     string `json:"path"`
		FilePath string `json:"file_path"`
		Input    string `json:"input"`
		Patch    string `json:"patch"`
		Command  string `json:"command"`
	}
	if len(args) == 0 || json.Unmarshal(args, &ta) != nil {
		return nil, fmt.Errorf("%s hook input has no usable toolArgs", in.ToolName)
	}
	switch in.ToolName {
	case "create", "edit", "str_replace_editor", "write", "Write", "Edit":
		p := ta.Path
		if p == "" {
			p = ta.FilePath
		}
		if p == "" {
			return nil, fmt.Errorf("%s hook input names no path", in.ToolName)
		}
		abs := p
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(in.Cwd, abs)
		}
		return []session.Written{{Path: filepath.Clean(abs), Raw: p}}, nil
	case "apply_patch":
		patch := ta.Input
		if patch == "" {
			patch = ta.Patch
		}
		return PatchPaths(patch, in.Cwd), nil
	case "bash", "Bash":
		return ShellPaths(ta.Command, in.Cwd), nil
	}
	return nil, nil
}

// copilotOutput is what a Copilot hook prints: postToolUse and
// sessionStart may add context for the model, agentStop may block with a
// reason that becomes the next prompt.
type copilotOutput struct {
	AdditionalContext string `json:"additionalContext,omitempty"`
	Decision          string `json:"decision,omitempty"`
	Reason            string `json:"reason,omitempty"`
}

// encodeCopilot: Copilot shows a hook's output to nobody but the model, so
// a session start's line joins the model's context, a block carries the
// line with its reason, and every other line goes to standard error.
func encodeCopilot(ev Event, a Answer) Reply {
	var out copilotOutput
	var r Reply
	switch {
	case a.Continue != "":
		out.Decision, out.Reason = "block", session.JoinLines(a.User, a.Continue)
	case ev.Kind == SessionStart && !a.Failed:
		out.AdditionalContext = session.JoinLines(a.User, a.Model)
	default:
		r.Stderr, out.AdditionalContext = a.User, a.Model
	}
	if out != (copilotOutput{}) {
		r.JSON = &out
	}
	return r
}

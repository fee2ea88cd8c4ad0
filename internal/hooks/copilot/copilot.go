package copilot

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"github.com/prosewash/prosewash/internal/engine/session"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/prosewash/prosewash/internal/hooks/agent"
)

// Events, as named on the command line: prosewash hook copilot EVENT.
const (
	SessionStart = "session-start"
	PostToolUse  = "post-tool-use"
	AgentStop    = "agent-stop"
)

// Events lists the events Run answers.
func Events() []string { return []string{SessionStart, PostToolUse, AgentStop} }

// Input is the JSON Copilot CLI sends on a hook's stdin, in either form
// its hooks reference documents: camelCase (events configured as
// sessionStart, postToolUse, agentStop) or the VS Code compatible
// snake_case (SessionStart, PostToolUse, Stop).
type Input struct {
	SessionID      string          `json:"sessionId"`
	Cwd            string          `json:"cwd"`
	ToolName       string          `json:"toolName"`
	ToolArgs       json.RawMessage `json:"toolArgs"`
	StopHookActive bool            `json:"stop_hook_active"`

	SnakeSessionID string          `json:"session_id"`
	SnakeToolName  string          `json:"tool_name"`
	SnakeToolInput json.RawMessage `json:"tool_input"`
}

// Output is what a hook prints: postToolUse and sessionStart may add
// context for the model, agentStop may block with a reason that becomes
// the next prompt.
type Output struct {
	AdditionalContext string `json:"additionalContext,omitempty"`
	Decision          string `json:"decision,omitempty"`
	Reason            string `json:"reason,omitempty"`
}

// ReadInput decodes a hook payload and folds the snake_case form into the
// camelCase fields.
func ReadInput(r io.Reader) (*Input, error) {
	in := &Input{}
	if err := agent.DecodePayload(r, "Copilot CLI", in); err != nil {
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
		return nil, fmt.Errorf("hook input has no cwd")
	}
	return in, nil
}

// FailOpen is the answer to any internal error. Copilot has no channel to
// the user in a hook's output; the line goes to standard error, which the
// CLI logs, and standard output says nothing.
func FailOpen(stderr io.Writer, event string, err error) *Output {
	if stderr != nil {
		fmt.Fprintln(stderr, session.FailMessage(event, err))
	}
	return nil
}

// WriteOutput prints one JSON document; nil prints {} (no opinion).
func WriteOutput(w io.Writer, out *Output) error {
	if out == nil {
		out = &Output{}
	}
	return agent.WriteJSON(w, out)
}

// Runner answers Copilot CLI hook events for one process.
type Runner struct {
	session.Env
	// Stderr receives the fail-open line; nil drops it.
	Stderr io.Writer
}

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
		case PostToolUse:
			out, err = r.postToolUse(in)
		case AgentStop:
			out, err = r.agentStop(ctx, in)
		default:
			err = fmt.Errorf("unknown event %q (want one of %s)", event, strings.Join(Events(), ", "))
		}
		return err
	})
	if err != nil {
		return FailOpen(r.Stderr, event, err)
	}
	return out
}

// SessionKey is the session a payload belongs to: Copilot's sessionId.
// Builds that send none (GitHub's earlier hook reference documented no
// session id for file hooks) get a stand-in that is the same for every
// hook of one CLI process and differs between processes: the id of the
// nearest ancestor process that is not a shell, with its start time (so a
// reused pid is another session), and the cwd. Without /proc it is the
// cwd alone: every session in that directory then shares one record,
// which only widens what the end of a turn may clean to files also
// written by earlier sessions there, each still checked by hash.
func (in *Input) SessionKey() string {
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

func (r *Runner) session(in *Input) (*session.Session, error) {
	return r.Env.Open("copilot", in.SessionKey(), in.Cwd, "")
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
	if st.User != "" {
		// Copilot shows hook output to nobody but the model.
		st.Model = session.JoinLines(st.User, st.Model)
	}
	ctx := session.JoinLines(st.Model, session.RewrittenContext(s.TakeRewritten()))
	if ctx == "" {
		return nil, nil
	}
	return &Output{AdditionalContext: ctx}, nil
}

// Written returns the files a tool call wrote: create and edit name a
// path (absolute, or relative to cwd), apply_patch carries an envelope,
// bash a command line. toolArgs may arrive as an object or as its JSON
// text.
func (in *Input) Written() ([]session.Written, error) {
	args := in.ToolArgs
	var text string
	if json.Unmarshal(args, &text) == nil {
		if strings.HasPrefix(strings.TrimSpace(text), "{") {
			args = json.RawMessage(text)
		} else if in.ToolName == "apply_patch" {
			return agent.PatchPaths(text, in.Cwd), nil
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
		return agent.PatchPaths(patch, in.Cwd), nil
	case "bash", "Bash":
		return agent.ShellPaths(ta.Command, in.Cwd), nil
	}
	return nil, nil
}

// postToolUse records what the tool wrote; it never replaces the tool's
// result.
func (r *Runner) postToolUse(in *Input) (*Output, error) {
	if in.ToolName == "" {
		return nil, fmt.Errorf("hook input has no toolName")
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
	if len(fyi) == 0 {
		return nil, nil
	}
	return &Output{AdditionalContext: strings.Join(fyi, "\n")}, nil
}

// agentStop ends the turn by mode; a block's reason is Copilot's next
// prompt. stop_hook_active is honoured where the CLI sends it; where it
// does not, the session core's once-per-state guards keep a block from
// repeating.
func (r *Runner) agentStop(ctx context.Context, in *Input) (*Output, error) {
	if in.StopHookActive {
		return nil, nil
	}
	s, err := r.session(in)
	if err != nil {
		return nil, err
	}
	t := s.EndTurn(ctx)
	if t.Continue == "" {
		if t.User != "" && r.Stderr != nil {
			fmt.Fprintln(r.Stderr, t.User)
		}
		return nil, nil
	}
	return &Output{Decision: "block", Reason: session.JoinLines(t.User, t.Continue)}, nil
}

package ccharness

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FileToolsMatcher matches every Claude tool that writes a file, the matcher
// prosewash's PostToolUse hook uses.
const FileToolsMatcher = "Write|Edit|MultiEdit|NotebookEdit"

// Hook is one command hook for a settings.json.
type Hook struct {
	Event   string // e.g. "PostToolUse"
	Matcher string // tool-name pattern; empty for events that take none (Stop)
	Command string // shell command line, as settings.json holds it
	Timeout int    // seconds; zero leaves the CLI's default
}

// SettingsJSON renders hooks as a .claude/settings.json document, one matcher
// group per hook, in the given order within each event.
func SettingsJSON(hooks ...Hook) []byte {
	type handler struct {
		Type    string `json:"type"`
		Command string `json:"command"`
		Timeout int    `json:"timeout,omitempty"`
	}
	type group struct {
		Matcher string    `json:"matcher,omitempty"`
		Hooks   []handler `json:"hooks"`
	}
	events := map[string][]group{}
	for _, h := range hooks {
		events[h.Event] = append(events[h.Event], group{Matcher: h.Matcher, Hooks: []handler{{Type: "command", Command: h.Command, Timeout: h.Timeout}}})
	}
	b, err := json.MarshalIndent(map[string]any{"hooks": events}, "", "  ")
	if err != nil {
		// Only strings and ints are encoded, which cannot fail.
		return []byte(`{}`)
	}
	return append(b, '\n')
}

// HookInput is the JSON a hook received on stdin, with the fields the tests
// assert on; Raw keeps the exact bytes.
type HookInput struct {
	SessionID            string          `json:"session_id"`
	TranscriptPath       string          `json:"transcript_path"`
	Cwd                  string          `json:"cwd"`
	HookEventName        string          `json:"hook_event_name"`
	PermissionMode       string          `json:"permission_mode"`
	Source               string          `json:"source"`
	ToolName             string          `json:"tool_name"`
	ToolInput            json.RawMessage `json:"tool_input"`
	ToolResponse         json.RawMessage `json:"tool_response"`
	StopHookActive       *bool           `json:"stop_hook_active"`
	LastAssistantMessage string          `json:"last_assistant_message"`
	Raw                  []byte          `json:"-"`
}

// ToolInputString returns a string field of tool_input ("" when absent).
func (h HookInput) ToolInputString(key string) string {
	var in map[string]any
	if json.Unmarshal(h.ToolInput, &in) != nil {
		return ""
	}
	s, _ := in[key].(string)
	return s
}

// LogHookOptions configures NewLogHook.
type LogHookOptions struct {
	// BlockStopReason, when set, makes the Stop hook answer
	// {"decision":"block","reason":BlockStopReason} unless stop_hook_active
	// is true, so it blocks exactly once.
	BlockStopReason string
}

// LogHook is a POSIX sh hook script in a project that appends each stdin
// payload, one JSON line, to <Dir>/<Event>.jsonl.
type LogHook struct {
	Script string // absolute path of the script inside the project
	Dir    string // log directory, outside the project
}

// logHookRel is where NewLogHook puts the script, relative to the project.
const logHookRel = ".claude/hooks/ccharness-log.sh"

// NewLogHook writes the logging hook into projectDir/.claude/hooks. The log
// directory lives outside the project so the session's files stay the
// scenario's own.
func NewLogHook(tb testing.TB, projectDir string, o LogHookOptions) *LogHook {
	tb.Helper()
	dir := filepath.Join(tb.TempDir(), "hooklog")
	if err := os.Mkdir(dir, 0o700); err != nil {
		tb.Fatalf("create hook log dir: %v", err)
	}
	block := ""
	if o.BlockStopReason != "" {
		b, err := json.Marshal(map[string]string{"decision": "block", "reason": o.BlockStopReason})
		if err != nil {
			tb.Fatalf("encode stop block: %v", err)
		}
		block = string(b)
	}
	script := "#!/bin/sh\n" +
		"# ccharness logging hook: appends stdin (one JSON line) to LOG/<event>.jsonl.\n" +
		"ev=\"${1:-unknown}\"\n" +
		"log=" + shQuote(dir) + "\n" +
		"block=" + shQuote(block) + "\n" +
		"input=$(cat)\n" +
		"printf '%s\\n' \"$input\" >> \"$log/$ev.jsonl\"\n" +
		"if [ \"$ev\" = Stop ] && [ -n \"$block\" ]; then\n" +
		"  case \"$input\" in\n" +
		"    *'\"stop_hook_active\":true'*) : ;;\n" +
		"    *) printf '%s\\n' \"$block\" ;;\n" +
		"  esac\n" +
		"fi\n" +
		"exit 0\n"
	path := filepath.Join(projectDir, filepath.FromSlash(logHookRel))
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		tb.Fatalf("create hooks dir: %v", err)
	}
	if err := os.WriteFile(path, []byte(script), 0o700); err != nil {
		tb.Fatalf("write log hook: %v", err)
	}
	return &LogHook{Script: path, Dir: dir}
}

// Command is the settings.json command line that logs event; it reaches the
// script through $CLAUDE_PROJECT_DIR, as a committed project hook would.
func (h *LogHook) Command(event string) string {
	return `"$CLAUDE_PROJECT_DIR"/` + logHookRel + " " + event
}

// Hooks returns log hooks for SessionStart, UserPromptSubmit, PreToolUse and
// PostToolUse (FileToolsMatcher), Stop and SessionEnd.
func (h *LogHook) Hooks() []Hook {
	return []Hook{
		{Event: "SessionStart", Command: h.Command("SessionStart")},
		{Event: "UserPromptSubmit", Command: h.Command("UserPromptSubmit")},
		{Event: "PreToolUse", Matcher: FileToolsMatcher, Command: h.Command("PreToolUse")},
		{Event: "PostToolUse", Matcher: FileToolsMatcher, Command: h.Command("PostToolUse")},
		{Event: "Stop", Command: h.Command("Stop")},
		{Event: "SessionEnd", Command: h.Command("SessionEnd")},
	}
}

// Events returns the payloads logged for event, in order; none is an empty
// slice. A line that is not JSON fails the test.
func (h *LogHook) Events(tb testing.TB, event string) []HookInput {
	tb.Helper()
	p := filepath.Join(h.Dir, event+".jsonl")
	data, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		tb.Fatalf("read hook log: %v", err)
	}
	var out []HookInput
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), 16<<20)
	for line := 1; sc.Scan(); line++ {
		raw := append([]byte(nil), sc.Bytes()...)
		var in HookInput
		if err := json.Unmarshal(raw, &in); err != nil {
			tb.Fatalf("%s:%d: hook payload is not JSON: %v", p, line, err)
		}
		in.Raw = raw
		out = append(out, in)
	}
	if err := sc.Err(); err != nil {
		tb.Fatalf("%s: %v", p, err)
	}
	return out
}

// shQuote quotes s as one POSIX shell word.
func shQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

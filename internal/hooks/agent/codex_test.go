package agent

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/engine/approval"
	"github.com/prosewash/prosewash/internal/engine/scope"
	"github.com/prosewash/prosewash/internal/testkit/hooktest"
)

func runCodex(f *hooktest.Fixture, self, event string, payload any) *hookOutput {
	f.T.Helper()
	return hookJSON(f.T, f.Env(self), "codex", event, payload)
}

// The real CLI's payloads: the session starts, apply_patch Add and
// Update record hello.py once, the shell tool's redirect records it too,
// and manual mode says nothing at the end of the turn.
func TestCodexCapturedPayloads(t *testing.T) {
	f := hooktest.New(t)
	run0 := filepath.Dir(f.Root)
	f.MoveTo(filepath.Join(run0, "proj"))
	f.Write("hello.py", "# hello\u200bworld\nprint('hi')\n")
	start := hooktest.Samples(t, "codex-0.169.0", "SessionStart", run0)
	var id struct {
		SessionID string `json:"session_id"`
	}
	json.Unmarshal(start[0], &id)
	if out := runCodex(f, "prosewash", "session-start", start[0]); out != nil {
		t.Fatalf("SessionStart: %+v, want nothing", out)
	}
	if _, err := os.Stat(filepath.Join(f.State, "sessions", id.SessionID+".log")); err != nil {
		t.Fatalf("SessionStart did not start the record: %v", err)
	}
	for i, p := range hooktest.Samples(t, "codex-0.169.0", "PostToolUse", run0) {
		if i == 1 { // the Update File edit
			f.Write("hello.py", "# hello\u200bworld\nprint('hi\u200b')\n")
		}
		if out := runCodex(f, "prosewash", "post-tool-use", p); out != nil {
			t.Fatalf("PostToolUse: %+v, want nothing", out)
		}
	}
	es := f.Entries(id.SessionID)
	if h, _ := scope.HashFile(f.Path("hello.py")); len(es) != 1 || es[0].Path != f.Path("hello.py") || es[0].Hash != h {
		t.Fatalf("recorded %+v, want hello.py at the hash the Update left", es)
	}
	for _, p := range hooktest.Samples(t, "codex-0.169.0", "UserPromptSubmit", run0) {
		if out := runCodex(f, "prosewash", "user-prompt-submit", p); out != nil {
			t.Fatalf("UserPromptSubmit with nothing rewritten: %+v", out)
		}
	}
	for _, p := range hooktest.Samples(t, "codex-0.169.0", "Stop", run0) {
		if out := runCodex(f, "prosewash", "stop", p); out != nil {
			t.Fatalf("Stop in manual mode: %+v, want nothing", out)
		}
	}
	shell := hooktest.Samples(t, "codex-0.169.0-shell", "PostToolUse", run0)[0]
	json.Unmarshal(shell, &id)
	if out := runCodex(f, "prosewash", "post-tool-use", shell); out != nil {
		t.Fatalf("shell PostToolUse: %+v", out)
	}
	if got := f.Recorded(id.SessionID); !reflect.DeepEqual(got, []string{"hello.py"}) {
		t.Fatalf("shell write recorded %v, want hello.py (the redirect target)", got)
	}
}

func codexPatch(f *hooktest.Fixture, session string, files ...string) map[string]any {
	var b strings.Builder
	b.WriteString("*** Begin Patch\n")
	for _, p := range files {
		b.WriteString("*** Add File: " + p + "\n+x\n")
	}
	b.WriteString("*** End Patch\n")
	return map[string]any{"session_id": session, "turn_id": "t1", "cwd": f.Root, "hook_event_name": "PostToolUse",
		"tool_name": "apply_patch", "tool_input": map[string]any{"command": b.String()}, "tool_response": "Success.", "tool_use_id": "c1"}
}

func codexStop(f *hooktest.Fixture, active bool) map[string]any {
	return map[string]any{"session_id": "s1", "turn_id": "t1", "cwd": f.Root, "hook_event_name": "Stop", "stop_hook_active": active, "last_assistant_message": "done"}
}

func TestCodexConfirmAsksOnce(t *testing.T) {
	bin := hooktest.Bin(t)
	f := hooktest.New(t)
	f.Write("a.md", hooktest.Dirty)
	f.Mode(bin, approval.Confirm)
	if out := runCodex(f, bin, "post-tool-use", codexPatch(f, "s1", "a.md")); out != nil {
		t.Fatalf("PostToolUse: %+v", out)
	}
	out := runCodex(f, bin, "stop", codexStop(f, false))
	if out == nil || out.Decision != "block" || !strings.Contains(out.Reason, "prosewash clean --session s1") || !strings.Contains(out.Reason, "Ask the user") {
		t.Fatalf("confirm: %+v, want one block asking the user", out)
	}
	if out := runCodex(f, bin, "stop", codexStop(f, true)); out != nil {
		t.Fatalf("stop_hook_active: %+v, want nothing", out)
	}
	if out := runCodex(f, bin, "stop", codexStop(f, false)); out != nil {
		t.Fatalf("second turn, same files: %+v, want nothing (asked once)", out)
	}
	if got := f.Read("a.md"); got != hooktest.Dirty {
		t.Errorf("confirm mode changed a.md: %q", got)
	}
}

func TestCodexAutomaticCleansAndTellsTheNextTurn(t *testing.T) {
	bin := hooktest.Bin(t)
	f := hooktest.New(t)
	f.Write("a.md", hooktest.Dirty)
	f.Mode(bin, approval.Automatic)
	runCodex(f, bin, "post-tool-use", codexPatch(f, "s1", "a.md"))
	out := runCodex(f, bin, "stop", codexStop(f, false))
	if out == nil || out.Decision != "" || !strings.HasPrefix(out.SystemMessage, "prosewash: cleaned 1 file") {
		t.Fatalf("automatic: %+v, want one line and no block", out)
	}
	if got := f.Read("a.md"); got != hooktest.Cleaned {
		t.Fatalf("a.md = %q, want %q", got, hooktest.Cleaned)
	}
	prompt := map[string]any{"session_id": "s1", "turn_id": "t2", "cwd": f.Root, "hook_event_name": "UserPromptSubmit", "prompt": "go on"}
	out = runCodex(f, bin, "user-prompt-submit", prompt)
	if out == nil || out.HookSpecificOutput == nil || out.HookSpecificOutput.HookEventName != "UserPromptSubmit" ||
		!strings.Contains(out.HookSpecificOutput.AdditionalContext, "a.md") || out.Decision != "" {
		t.Fatalf("next prompt: %+v, want additionalContext naming a.md", out)
	}
	if out := runCodex(f, bin, "user-prompt-submit", prompt); out != nil {
		t.Fatalf("the note was given twice: %+v", out)
	}
}

// TestBadInput: every malformed payload of every event gets the fail-open
// answer (one systemMessage line, never a block) and writes no record.
func TestCodexBadInput(t *testing.T) {
	f := hooktest.New(t)
	f.Write("a.md", "a\n")
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "x.md"), []byte("x\n"), 0o644)
	base := func(extra map[string]any) map[string]any {
		m := map[string]any{"session_id": "s1", "cwd": f.Root, "hook_event_name": "PostToolUse"}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	tests := []struct {
		name, event string
		payload     any
		want        string
	}{
		{"empty stdin", "post-tool-use", "", "empty hook input"},
		{"blank stdin", "stop", " \n", "empty hook input"},
		{"invalid JSON", "session-start", "{not json", "invalid hook input"},
		{"JSON array", "user-prompt-submit", "[1]", "invalid hook input"},
		{"wrong type", "stop", `{"session_id":"s1","stop_hook_active":"yes"}`, "invalid hook input"},
		{"no session_id", "post-tool-use", map[string]any{"cwd": f.Root, "tool_name": "apply_patch"}, "no session_id"},
		{"no tool_name", "post-tool-use", base(nil), "no tool_name"},
		{"no tool_input", "post-tool-use", base(map[string]any{"tool_name": "apply_patch"}), "no usable tool_input"},
		{"tool_input not an object", "post-tool-use", base(map[string]any{"tool_name": "apply_patch", "tool_input": "patch"}), "no usable tool_input"},
		{"empty patch", "post-tool-use", base(map[string]any{"tool_name": "apply_patch", "tool_input": map[string]any{"command": ""}}), "carries no patch"},
		{"no cwd", "session-start", map[string]any{"session_id": "s1"}, "no cwd"},
		{"relative cwd", "stop", map[string]any{"session_id": "s1", "cwd": "proj"}, "not an absolute path"},
		{"dot-dot escape", "post-tool-use", codexPatch(f, "s1", "../"+filepath.Base(outside)+"/x.md"), "escapes the project"},
		{"missing file", "post-tool-use", codexPatch(f, "s1", "gone.md"), "no such file"},
		{"unknown event", "pre-commit", base(nil), "unknown event"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := runCodex(f, "prosewash", tt.event, tt.payload)
			if out == nil || !strings.HasPrefix(out.SystemMessage, "prosewash: ") || !strings.Contains(out.SystemMessage, tt.want) {
				t.Fatalf("output %+v, want a systemMessage containing %q", out, tt.want)
			}
			if strings.Contains(out.SystemMessage, "\n") || out.Decision != "" || out.HookSpecificOutput != nil {
				t.Errorf("bad input must fail open with one line: %+v", out)
			}
			if !f.NoSessions() {
				t.Errorf("bad input wrote a session record")
			}
		})
	}
}

// The write guard banks a memory file before apply_patch updates or
// deletes it, and says nothing; a non-memory file and a patch that only
// adds a new file cost nothing.
func TestCodexPreToolUseGuardsMemory(t *testing.T) {
	f := hooktest.New(t)
	f.Write("AGENTS.md", "# Agents\n\nUse Go 1.26.\n")
	f.Write("CLAUDE.md", "# Claude\n\nBuild with make docs.\n")
	f.Write("main.go", "package main\n")
	patch := func(body string) map[string]any {
		return map[string]any{"session_id": "s1", "cwd": f.Root, "hook_event_name": "PreToolUse", "tool_name": "apply_patch",
			"tool_input": map[string]any{"command": "*** Begin Patch\n" + body + "*** End Patch\n"}}
	}
	for _, body := range []string{
		"*** Add File: new.go\n+package main\n",
		"*** Update File: main.go\n@@\n-package main\n+package app\n",
		"*** Update File: AGENTS.md\n@@\n-Use Go 1.26.\n+Use Go.\n",
		"*** Delete File: CLAUDE.md\n",
	} {
		if out := runCodex(f, "prosewash", "pre-tool-use", patch(body)); out != nil {
			t.Fatalf("pre-tool-use must be silent: %q -> %+v", body, out)
		}
	}
	// Banked copies are the bins' "N.orig" items, wherever the project's
	// state lives under the state directory.
	var all strings.Builder
	filepath.WalkDir(f.State, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".orig") {
			if data, err := os.ReadFile(p); err == nil {
				all.Write(data)
			}
		}
		return nil
	})
	for _, want := range []string{"Use Go 1.26.", "Build with make docs."} {
		if !strings.Contains(all.String(), want) {
			t.Errorf("the guard bin does not hold %q", want)
		}
	}
	if strings.Contains(all.String(), "package main") {
		t.Errorf("the guard banked a code file")
	}
}

package agent

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/engine/approval"
	"github.com/prosewash/prosewash/internal/engine/scope"
	"github.com/prosewash/prosewash/internal/testkit/hooktest"
)

func runGemini(f *hooktest.Fixture, self, event string, payload any) *hookOutput {
	f.T.Helper()
	return hookJSON(f.T, f.Env(self), "gemini", event, payload)
}

// The real CLI's payloads: write_file and replace record hello.py, manual
// mode says nothing at "after-agent", and the answer is always JSON.
func TestGeminiCapturedPayloads(t *testing.T) {
	f := hooktest.New(t)
	run0 := filepath.Dir(f.Root)
	f.MoveTo(filepath.Join(run0, "proj"))
	f.Write("hello.py", "# hello\u200bworld\nprint('hi')\n")
	start := hooktest.Samples(t, "gemini-0.61.0", "SessionStart", run0)[0]
	var id struct {
		SessionID string `json:"session_id"`
	}
	json.Unmarshal(start, &id)
	if out := runGemini(f, "prosewash", "session-start", start); out != nil {
		t.Fatalf("SessionStart: %+v", out)
	}
	for i, p := range hooktest.Samples(t, "gemini-0.61.0", "AfterTool", run0) {
		if i == 1 {
			f.Write("hello.py", "# hello\u200bworld\nprint('hi\u200b')\n")
		}
		if out := runGemini(f, "prosewash", "after-tool", p); out != nil {
			t.Fatalf("AfterTool: %+v", out)
		}
	}
	es := f.Entries(id.SessionID)
	if h, _ := scope.HashFile(f.Path("hello.py")); len(es) != 1 || es[0].Path != f.Path("hello.py") || es[0].Hash != h {
		t.Fatalf("recorded %+v, want hello.py at the hash replace left", es)
	}
	for _, p := range hooktest.Samples(t, "gemini-0.61.0", "BeforeAgent", run0) {
		if out := runGemini(f, "prosewash", "before-agent", p); out != nil {
			t.Fatalf("BeforeAgent: %+v", out)
		}
	}
	for _, p := range hooktest.Samples(t, "gemini-0.61.0", "AfterAgent", run0) {
		if out := runGemini(f, "prosewash", "after-agent", p); out != nil {
			t.Fatalf("AfterAgent in manual mode: %+v", out)
		}
	}
	var b bytes.Buffer
	g, _ := Lookup("gemini")
	g.Write(&b, nil, Reply{})
	if b.String() != "{}\n" {
		t.Errorf("no opinion prints %q, want {} (Gemini wants JSON only)", b.String())
	}
}

func geminiWrite(f *hooktest.Fixture, tool, path string) map[string]any {
	return map[string]any{"session_id": "s1", "cwd": f.Root, "hook_event_name": "AfterTool", "timestamp": "2026-12-01T08:17:03.405Z",
		"tool_name": tool, "tool_input": map[string]any{"file_path": path, "content": "x"}, "tool_response": map[string]any{"llmContent": "ok"}}
}

func geminiAfterAgent(f *hooktest.Fixture, active bool) map[string]any {
	return map[string]any{"session_id": "s1", "cwd": f.Root, "hook_event_name": "AfterAgent", "prompt": "p", "prompt_response": "done", "stop_hook_active": active}
}

func TestGeminiConfirmDeniesOnce(t *testing.T) {
	bin := hooktest.Bin(t)
	f := hooktest.New(t)
	p := f.Write("a.md", hooktest.Dirty)
	f.Mode(bin, approval.Confirm)
	runGemini(f, bin, "after-tool", geminiWrite(f, "write_file", p))
	out := runGemini(f, bin, "after-agent", geminiAfterAgent(f, false))
	if out == nil || out.Decision != "deny" || !strings.Contains(out.Reason, "prosewash clean --session s1") {
		t.Fatalf("confirm: %+v, want one deny asking the user", out)
	}
	if out := runGemini(f, bin, "after-agent", geminiAfterAgent(f, true)); out != nil {
		t.Fatalf("stop_hook_active: %+v", out)
	}
	if out := runGemini(f, bin, "after-agent", geminiAfterAgent(f, false)); out != nil {
		t.Fatalf("asked twice: %+v", out)
	}
}

func TestGeminiAutomaticCleansAndTellsTheNextTurn(t *testing.T) {
	bin := hooktest.Bin(t)
	f := hooktest.New(t)
	p := f.Write("a.md", hooktest.Dirty)
	f.Mode(bin, approval.Automatic)
	runGemini(f, bin, "after-tool", geminiWrite(f, "replace", p))
	out := runGemini(f, bin, "after-agent", geminiAfterAgent(f, false))
	if out == nil || out.Decision != "" || !strings.HasPrefix(out.SystemMessage, "prosewash: cleaned 1 file") {
		t.Fatalf("automatic: %+v", out)
	}
	if got := f.Read("a.md"); got != hooktest.Cleaned {
		t.Fatalf("a.md = %q", got)
	}
	ba := map[string]any{"session_id": "s1", "cwd": f.Root, "hook_event_name": "BeforeAgent", "prompt": "go on"}
	out = runGemini(f, bin, "before-agent", ba)
	if out == nil || out.HookSpecificOutput == nil || out.HookSpecificOutput.HookEventName != "BeforeAgent" || !strings.Contains(out.HookSpecificOutput.AdditionalContext, "re-read it") {
		t.Fatalf("next turn: %+v", out)
	}
	if out := runGemini(f, bin, "before-agent", ba); out != nil {
		t.Fatalf("told twice: %+v", out)
	}
}

func TestGeminiBadInput(t *testing.T) {
	f := hooktest.New(t)
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "x.md"), []byte("x\n"), 0o644)
	tests := []struct {
		name, event string
		payload     any
		want        string
	}{
		{"empty stdin", "after-tool", "", "empty hook input"},
		{"invalid JSON", "after-agent", "{", "invalid hook input"},
		{"JSON string", "session-start", `"x"`, "invalid hook input"},
		{"no session_id", "after-tool", map[string]any{"cwd": f.Root, "tool_name": "write_file"}, "no session_id"},
		{"no tool_name", "after-tool", map[string]any{"session_id": "s1", "cwd": f.Root}, "no tool_name"},
		{"tool_input array", "after-tool", map[string]any{"session_id": "s1", "cwd": f.Root, "tool_name": "write_file", "tool_input": []int{1}}, "no usable tool_input"},
		{"no file_path", "after-tool", map[string]any{"session_id": "s1", "cwd": f.Root, "tool_name": "replace", "tool_input": map[string]any{"old_string": "a"}}, "names no file"},
		{"dot-dot escape", "after-tool", geminiWrite(f, "write_file", f.Root+"/../"+filepath.Base(outside)+"/x.md"), "escapes the project"},
		{"missing file", "after-tool", geminiWrite(f, "write_file", f.Path("gone.md")), "no such file"},
		{"relative cwd", "before-agent", map[string]any{"session_id": "s1", "cwd": "rel"}, "not an absolute path"},
		{"unknown event", "Stop", map[string]any{"session_id": "s1", "cwd": f.Root}, "unknown event"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := runGemini(f, "prosewash", tt.event, tt.payload)
			if out == nil || !strings.HasPrefix(out.SystemMessage, "prosewash: ") || !strings.Contains(out.SystemMessage, tt.want) {
				t.Fatalf("output %+v, want a systemMessage containing %q", out, tt.want)
			}
			if out.Decision != "" || out.HookSpecificOutput != nil {
				t.Errorf("bad input must fail open: %+v", out)
			}
			if !f.NoSessions() {
				t.Errorf("bad input wrote a session record")
			}
		})
	}
}

// before-tool banks GEMINI.md before write_file rewrites it and has no
// opinion on the call; other tools and other files cost nothing.
func TestGeminiBeforeToolGuardsMemory(t *testing.T) {
	f := hooktest.New(t)
	f.Write("GEMINI.md", "# Project\n\nUse Go 1.26.\n")
	f.Write("main.go", "package main\n")
	call := func(tool, rel string) map[string]any {
		return map[string]any{"session_id": "s1", "cwd": f.Root, "hook_event_name": "BeforeTool", "tool_name": tool,
			"tool_input": map[string]any{"file_path": f.Path(rel), "content": "x\n"}}
	}
	for _, c := range [][2]string{{"read_file", "GEMINI.md"}, {"write_file", "main.go"}, {"write_file", "GEMINI.md"}} {
		if out := runGemini(f, "prosewash", "before-tool", call(c[0], c[1])); out != nil {
			t.Fatalf("before-tool %s %s: %+v, want no opinion", c[0], c[1], out)
		}
	}
	var banked []string
	filepath.WalkDir(f.State, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".orig") {
			b, _ := os.ReadFile(p)
			banked = append(banked, string(b))
		}
		return nil
	})
	if len(banked) != 1 || banked[0] != "# Project\n\nUse Go 1.26.\n" {
		t.Fatalf("banked %q, want GEMINI.md as it was, once", banked)
	}
}

package agent

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// fatMemory is a CLAUDE.md with provable fat: the same note appended as a paragraph many
// times (a line repeated inside one list would be a step, never fat).
func fatMemory() string {
	var b strings.Builder
	b.WriteString("# Project memory\n\n")
	for i := 0; i < 120; i++ {
		b.WriteString("Deploy with tool v1.4.2 and check the runbook\nat https://example.com/runbook before every release.\n\n")
	}
	for i := 0; i < 30; i++ {
		fmt.Fprintf(&b, "- Fact %d: the limit is %d requests per hour.\n", i, 100+i)
	}
	return b.String()
}

// TestClaudeWashLaneInHooks: session-start gauges the always-loaded memory and
// says one line when it is not lean; "stop" asks once (never a repeating nag)
// to run the quick wash; the write guard reports a dropped token once.
func TestClaudeWashLaneInHooks(t *testing.T) {
	f := newFixture(t)
	f.write("CLAUDE.md", fatMemory())
	r := f.runner("prosewash")
	start := map[string]any{"session_id": "s1", "cwd": f.root, "hook_event_name": "SessionStart", "source": "startup"}

	out := f.run(r, "session-start", start)
	if out == nil || out.HookSpecificOutput == nil || !strings.Contains(out.HookSpecificOutput.AdditionalContext, "prosewash wash quick") {
		t.Fatalf("session-start on fat memory: %+v", out)
	}

	stop := claudeStop(f, false)
	out = f.run(r, "stop", stop)
	if out == nil || out.Decision != "block" || !strings.Contains(out.Reason, "Run `prosewash wash quick` now") {
		t.Fatalf("first stop: want one block asking for the quick wash, got %+v", out)
	}
	if out := f.run(r, "stop", claudeStop(f, true)); out != nil && out.Decision == "block" {
		t.Fatalf("stop_hook_active must never block: %+v", out)
	}
	if out := f.run(r, "stop", stop); out != nil && out.Decision == "block" {
		t.Fatalf("a second turn must not nag again: %+v", out)
	}

	// Write guard: the first write to a memory file is snapshotted; a
	// write that drops a version number gets one FYI line, once.
	path := f.path("CLAUDE.md")
	pre := map[string]any{"session_id": "s1", "cwd": f.root, "hook_event_name": "PreToolUse", "tool_name": "Edit",
		"tool_input": map[string]any{"file_path": path, "old_string": "v1.4.2", "new_string": "the current version"}}
	if out := f.run(r, "pre-tool-use", pre); out != nil {
		t.Fatalf("pre-tool-use must be silent: %+v", out)
	}
	if err := os.WriteFile(path, []byte(strings.ReplaceAll(fatMemory(), "v1.4.2", "the current version")), 0o644); err != nil {
		t.Fatal(err)
	}
	post := claudeWrite(f, path)
	post["tool_name"] = "Edit"
	out = f.run(r, "post-tool-use", post)
	if out == nil || out.HookSpecificOutput == nil || !strings.Contains(out.HookSpecificOutput.AdditionalContext, "FYI (not a block)") ||
		!strings.Contains(out.HookSpecificOutput.AdditionalContext, "version") || out.Decision != "" {
		t.Fatalf("post-tool-use after dropping a version: %+v", out)
	}
	if out := f.run(r, "post-tool-use", post); out != nil && out.HookSpecificOutput != nil {
		t.Fatalf("the same drop must be reported once: %+v", out)
	}
}

// TestClaudeWashLaneOff: [wash] mode = "off" silences the memory lane in every hook.
func TestClaudeWashLaneOff(t *testing.T) {
	f := newFixture(t)
	f.write(".prosewash.toml", "[wash]\nmode = \"off\"\n")
	f.write("CLAUDE.md", fatMemory())
	r := f.runner("prosewash")
	start := map[string]any{"session_id": "s1", "cwd": f.root, "hook_event_name": "SessionStart", "source": "startup"}
	if out := f.run(r, "session-start", start); out != nil {
		t.Fatalf("mode off: session-start said %+v", out)
	}
	if out := f.run(r, "stop", claudeStop(f, false)); out != nil {
		t.Fatalf("mode off: stop said %+v", out)
	}
}

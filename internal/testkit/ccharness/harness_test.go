package ccharness

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// carrierContent holds a raw U+200B; the harness must carry it byte for byte
// from the mock model through the Write tool to disk and into hook stdin.
const carrierContent = "hello\u200bworld\n"

// zwsp is U+200B as UTF-8.
var zwsp = []byte{0xE2, 0x80, 0x8B}

func logVersion(t *testing.T, bin string) {
	t.Helper()
	if v, err := ClaudeVersion(bin); err == nil {
		t.Logf("claude %s at %s", v, bin)
	} else {
		t.Logf("claude at %s: %v", bin, err)
	}
}

// TestSessionWriteEditStopBlockOnce is the full round trip prosewash's hooks
// plug into: Write then Edit with a carrier, every hook event fires with the
// expected fields, and a Stop hook that blocks once yields exactly one
// continuation request carrying its reason before the session succeeds.
func TestSessionWriteEditStopBlockOnce(t *testing.T) {
	t.Parallel()
	bin := RequireClaude(t)
	logVersion(t, bin)
	proj := NewProject(t)
	const reason = "CCHARNESS-STOP-REASON: please also run the checks"
	lh := NewLogHook(t, proj, LogHookOptions{BlockStopReason: reason})

	res := Run(t, Options{
		Bin:        bin,
		ProjectDir: proj,
		Settings:   SettingsJSON(lh.Hooks()...),
		Scenario:   Scenario{Steps: []ToolCall{Write("out.txt", carrierContent), Edit("out.txt", "hello", "HELLO")}},
	})
	t.Logf("session took %s", res.Duration)
	if res.ExitCode != 0 || res.Err != nil || res.Outcome == nil {
		t.Fatalf("session failed: %s", res.Summary())
	}
	if res.Outcome.Subtype != "success" || res.Outcome.IsError {
		t.Errorf("outcome subtype=%q is_error=%v, want success: %s", res.Outcome.Subtype, res.Outcome.IsError, res.Summary())
	}
	if res.Outcome.Result != ContinuationText {
		t.Errorf("outcome result = %q, want %q", res.Outcome.Result, ContinuationText)
	}
	if len(res.Outcome.PermissionDenials) != 0 {
		t.Errorf("permission denials: %d, want none", len(res.Outcome.PermissionDenials))
	}

	target := filepath.Join(proj, "out.txt")
	got, err := os.ReadFile(target)
	if err != nil {
		t.Fatalf("tool output: %v", err)
	}
	if want := []byte("HELLO\u200bworld\n"); !bytes.Equal(got, want) {
		t.Errorf("out.txt = %q, want %q (Write then Edit, carrier kept)", got, want)
	}

	sid := res.Outcome.SessionID
	if sid == "" {
		t.Error("outcome has no session_id")
	}
	ss := lh.Events(t, "SessionStart")
	if len(ss) != 1 {
		t.Fatalf("SessionStart fired %d times, want 1", len(ss))
	}
	if ss[0].Source != "startup" || ss[0].SessionID != sid || ss[0].Cwd != proj {
		t.Errorf("SessionStart source=%q session_id=%q cwd=%q, want startup %q %q", ss[0].Source, ss[0].SessionID, ss[0].Cwd, sid, proj)
	}

	post := lh.Events(t, "PostToolUse")
	var tools []string
	for _, p := range post {
		tools = append(tools, p.ToolName)
		if p.SessionID != sid || p.Cwd != proj {
			t.Errorf("PostToolUse(%s) session_id=%q cwd=%q, want %q %q", p.ToolName, p.SessionID, p.Cwd, sid, proj)
		}
		if fp := p.ToolInputString("file_path"); fp != target {
			t.Errorf("PostToolUse(%s) tool_input.file_path = %q, want %q", p.ToolName, fp, target)
		}
	}
	if !slices.Equal(tools, []string{"Write", "Edit"}) {
		t.Fatalf("PostToolUse tools = %v, want [Write Edit]", tools)
	}
	if c := post[0].ToolInputString("content"); c != carrierContent {
		t.Errorf("PostToolUse(Write) content = %q, want %q", c, carrierContent)
	}
	if !bytes.Contains(post[0].Raw, zwsp) {
		t.Error("PostToolUse(Write) stdin does not carry U+200B as raw UTF-8")
	}

	stops := lh.Events(t, "Stop")
	var active []bool
	for _, s := range stops {
		if s.StopHookActive == nil {
			t.Fatalf("Stop payload lacks stop_hook_active: %s", s.Raw)
		}
		active = append(active, *s.StopHookActive)
		if s.SessionID != sid {
			t.Errorf("Stop session_id = %q, want %q", s.SessionID, sid)
		}
	}
	if !slices.Equal(active, []bool{false, true}) {
		t.Errorf("Stop stop_hook_active sequence = %v, want [false true]", active)
	}

	cont := res.RequestsOf(KindStopContinuation)
	if len(cont) != 1 {
		t.Fatalf("continuation requests = %d, want exactly 1: %s", len(cont), res.Summary())
	}
	if !cont[0].Mentions(reason) {
		t.Error("the continuation request does not carry the Stop hook's reason")
	}
	for _, q := range res.Requests {
		if q.N < cont[0].N && q.Mentions(reason) {
			t.Errorf("request %d (%s) before the block already mentions the reason", q.N, q.Kind)
		}
	}
	var steps []int
	for _, q := range res.RequestsOf(KindToolUse) {
		steps = append(steps, q.Step)
	}
	if !slices.Equal(steps, []int{0, 1}) {
		t.Errorf("tool_use steps = %v, want [0 1]", steps)
	}
	if n := len(res.RequestsOf(KindFinal)); n != 1 {
		t.Errorf("final requests = %d, want 1", n)
	}
}

// TestSessionProjectSettingsAndPath runs with settings the project already
// holds (as after `prosewash install --claude`) and a hook command found only
// through Options.ExtraPath, with an Options.Env value; a Stop hook that does
// not block gives no continuation.
func TestSessionProjectSettingsAndPath(t *testing.T) {
	t.Parallel()
	bin := RequireClaude(t)
	proj := NewProject(t)
	lh := NewLogHook(t, proj, LogHookOptions{})

	// A probe on ExtraPath records what environment hooks get.
	binDir := t.TempDir()
	probeOut := filepath.Join(t.TempDir(), "probe.txt")
	probe := "#!/bin/sh\n" +
		"printf 'event=%s home=%s probe=%s config=%s\\n' \"$1\" \"$HOME\" \"${CCHARNESS_PROBE:-}\" \"${CLAUDE_CONFIG_DIR:-}\" >> " + shQuote(probeOut) + "\n" +
		"cat >/dev/null\n"
	if err := os.WriteFile(filepath.Join(binDir, "ccharness-probe"), []byte(probe), 0o700); err != nil {
		t.Fatal(err)
	}
	settings := SettingsJSON(append(lh.Hooks(), Hook{Event: "Stop", Command: "ccharness-probe Stop"})...)
	if err := os.MkdirAll(filepath.Join(proj, ".claude"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(proj, ".claude", "settings.json"), settings, 0o600); err != nil {
		t.Fatal(err)
	}

	res := Run(t, Options{
		Bin:        bin,
		ProjectDir: proj,
		ExtraPath:  []string{binDir},
		Env:        []string{"CCHARNESS_PROBE=from-options"},
		Scenario:   Scenario{Steps: []ToolCall{Write("notes.md", "# Notes\n\nsee\u200bthis\n")}},
	})
	t.Logf("session took %s", res.Duration)
	if res.ExitCode != 0 || res.Outcome == nil || res.Outcome.Subtype != "success" || res.Outcome.IsError {
		t.Fatalf("session failed: %s", res.Summary())
	}
	if res.Outcome.Result != FinalText {
		t.Errorf("outcome result = %q, want %q", res.Outcome.Result, FinalText)
	}
	got, err := os.ReadFile(filepath.Join(proj, "notes.md"))
	if err != nil || string(got) != "# Notes\n\nsee\u200bthis\n" {
		t.Errorf("notes.md = %q, %v", got, err)
	}
	if n := len(res.RequestsOf(KindStopContinuation)); n != 0 {
		t.Errorf("continuation requests = %d, want 0 without a block", n)
	}
	stops := lh.Events(t, "Stop")
	if len(stops) != 1 || stops[0].StopHookActive == nil || *stops[0].StopHookActive {
		t.Errorf("Stop fired %d times, want once with stop_hook_active false", len(stops))
	}
	post := lh.Events(t, "PostToolUse")
	if len(post) != 1 || post[0].ToolName != "Write" {
		t.Errorf("PostToolUse fired %d times, want once for Write", len(post))
	}
	pb, err := os.ReadFile(probeOut)
	if err != nil {
		t.Fatalf("hook on ExtraPath did not run: %v", err)
	}
	want := "event=Stop home=" + res.Home + " probe=from-options config=" + res.ConfigDir + "\n"
	if string(pb) != want {
		t.Errorf("probe saw %q, want %q", pb, want)
	}
}

package agent

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/engine/approval"
	"github.com/prosewash/prosewash/internal/testkit/hooktest"
)

const cursorConv = "668320d2-2fd8-4888-b33c-2a466fec86e7"

func runCursor(f *hooktest.Fixture, self, event string, payload []byte) *cursorOutput {
	f.T.Helper()
	r := hook(f.T, f.Env(self), "cursor", event, payload)
	if r.Stderr != "" {
		f.T.Errorf("cursor %s wrote to standard error: %q", event, r.Stderr)
	}
	if r.JSON == nil {
		return nil
	}
	return r.JSON.(*cursorOutput)
}

func TestCursorDocumentedPayloadsManual(t *testing.T) {
	f := hooktest.New(t)
	f.Write("notes.md", hooktest.Dirty)
	if out := runCursor(f, "prosewash", "session-start", f.Fixture("cursor-documented/sessionStart.json")); out != nil {
		t.Fatalf("sessionStart: %+v", out)
	}
	if out := runCursor(f, "prosewash", "after-file-edit", f.Fixture("cursor-documented/afterFileEdit.json")); out != nil {
		t.Fatalf("afterFileEdit: %+v", out)
	}
	if got := f.Recorded(cursorConv); !reflect.DeepEqual(got, []string{"notes.md"}) {
		t.Fatalf("recorded %v under the conversation id", got)
	}
	if out := runCursor(f, "prosewash", "stop", f.Fixture("cursor-documented/stop.json")); out != nil {
		t.Fatalf("stop in manual mode: %+v", out)
	}
}

func TestCursorConfirmFollowsUpOnce(t *testing.T) {
	bin := hooktest.Bin(t)
	f := hooktest.New(t)
	f.Write("notes.md", hooktest.Dirty)
	f.Mode(bin, approval.Confirm)
	runCursor(f, bin, "after-file-edit", f.Fixture("cursor-documented/afterFileEdit.json"))
	out := runCursor(f, bin, "stop", f.Fixture("cursor-documented/stop.json"))
	if out == nil || !strings.Contains(out.FollowupMessage, "prosewash clean --session "+cursorConv) {
		t.Fatalf("confirm: %+v, want a followup_message asking the user", out)
	}
	again := bytes.Replace(f.Fixture("cursor-documented/stop.json"), []byte(`"loop_count":0`), []byte(`"loop_count":1`), 1)
	if out := runCursor(f, bin, "stop", again); out != nil {
		t.Fatalf("loop_count 1: %+v, want nothing", out)
	}
	if out := runCursor(f, bin, "stop", f.Fixture("cursor-documented/stop.json")); out != nil {
		t.Fatalf("asked twice: %+v", out)
	}
	aborted := bytes.Replace(f.Fixture("cursor-documented/stop.json"), []byte(`"completed"`), []byte(`"aborted"`), 1)
	f.Write("notes.md", hooktest.Dirty+"more\u200b\n")
	runCursor(f, bin, "after-file-edit", f.Fixture("cursor-documented/afterFileEdit.json"))
	if out := runCursor(f, bin, "stop", aborted); out != nil {
		t.Fatalf("aborted turn: %+v, want nothing", out)
	}
}

func TestCursorAutomaticCleans(t *testing.T) {
	bin := hooktest.Bin(t)
	f := hooktest.New(t)
	f.Write("notes.md", hooktest.Dirty)
	f.Mode(bin, approval.Automatic)
	runCursor(f, bin, "after-file-edit", f.Fixture("cursor-documented/afterFileEdit.json"))
	out := runCursor(f, bin, "stop", f.Fixture("cursor-documented/stop.json"))
	if out == nil || out.FollowupMessage != "" || !strings.HasPrefix(out.UserMessage, "prosewash: cleaned 1 file") {
		t.Fatalf("automatic: %+v", out)
	}
	if got := f.Read("notes.md"); got != hooktest.Cleaned {
		t.Fatalf("notes.md = %q", got)
	}
	out = runCursor(f, bin, "session-start", f.Fixture("cursor-documented/sessionStart.json"))
	if out == nil || !strings.Contains(out.AdditionalContext, "notes.md") {
		t.Fatalf("sessionStart after a clean: %+v, want the re-read note", out)
	}
}

func TestCursorBadInput(t *testing.T) {
	f := hooktest.New(t)
	for _, tt := range []struct {
		name, event, payload, want string
	}{
		{"empty", "after-file-edit", "", "empty hook input"},
		{"not JSON", "stop", "nope", "invalid hook input"},
		{"no conversation_id", "after-file-edit", `{"file_path":"/x.md","workspace_roots":["/"]}`, "no conversation_id"},
		{"workspace_roots not a list", "stop", `{"conversation_id":"c","workspace_roots":"/"}`, "invalid hook input"},
		{"no workspace root", "session-start", `{"conversation_id":"c","workspace_roots":[]}`, "no absolute workspace_roots"},
		{"no file_path", "after-file-edit", `{"conversation_id":"c","workspace_roots":["` + f.Root + `"]}`, "names no file_path"},
		{"relative file_path", "after-file-edit", `{"conversation_id":"c","workspace_roots":["` + f.Root + `"],"file_path":"a.md"}`, "not absolute"},
		{"unknown event", "beforeShellExecution", `{"conversation_id":"c"}`, "unknown event"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out := runCursor(f, "prosewash", tt.event, []byte(tt.payload))
			if out == nil || !strings.Contains(out.UserMessage, tt.want) || out.FollowupMessage != "" || out.AdditionalContext != "" {
				t.Fatalf("%+v, want fail-open naming %q", out, tt.want)
			}
			if !f.NoSessions() {
				t.Errorf("bad input wrote a session record")
			}
		})
	}
}

// The files a shell command writes through a redirect or tee are recorded
// from afterShellExecution (its command and cwd), and so are those of the
// Shell tool's postToolUse; a write to /dev/null is not a file.
func TestCursorShellCommandsRecorded(t *testing.T) {
	f := hooktest.New(t)
	f.Write("shell.md", "# Shell\n\nhello\u200bworld\n") // what the command wrote
	f.Write("log.md", "more\n")
	if out := runCursor(f, "prosewash", "after-shell-execution", f.Fixture("cursor-documented/afterShellExecution.json")); out != nil {
		t.Fatalf("afterShellExecution: %+v, want nothing (fire-and-forget)", out)
	}
	if got := f.Recorded(cursorConv); !reflect.DeepEqual(got, []string{"log.md", "shell.md"}) {
		t.Fatalf("recorded %v, want the redirect and tee targets", got)
	}
	g := hooktest.New(t)
	g.Write("shell.md", "hi\n")
	runClaudeUnderCursor(g, "prosewash", "post-tool-use", g.Fixture("cursor-documented/postToolUse-Shell.json"))
	if got := g.Recorded(cursorConv); !reflect.DeepEqual(got, []string{"shell.md"}) {
		t.Fatalf("Shell postToolUse recorded %v", got)
	}
}

// runClaudeUnderCursor runs Claude Code's hook with a payload Cursor sent
// it: the answer is Cursor's own shape ({} for none), never Claude Code's.
func runClaudeUnderCursor(f *hooktest.Fixture, self, event string, payload []byte) *cursorOutput {
	f.T.Helper()
	r := hook(f.T, f.Env(self), "claude", event, payload)
	if r.Stderr != "" {
		f.T.Errorf("claude %s under Cursor wrote to standard error: %q", event, r.Stderr)
	}
	switch out := r.JSON.(type) {
	case *cursorOutput:
		if out.UserMessage != "" && strings.Contains(out.UserMessage, "failed") {
			f.T.Errorf("claude %s under Cursor failed open: %+v", event, out)
		}
		return out
	case json.RawMessage:
		if string(out) != "{}" {
			f.T.Errorf("claude %s under Cursor printed %s", event, out)
		}
		return nil
	default:
		f.T.Fatalf("claude %s under Cursor answered %T %+v, want Cursor's output", event, r.JSON, r.JSON)
	}
	return nil
}

// Cursor runs the hooks of .claude/settings.json too, with its own
// payloads: a project with both installs sees Claude Code's Stop and
// Cursor's stop end one turn. The Claude Code hook reads the payload as
// Cursor's, under the conversation id, so the turn is cleaned once and
// asked about once, whichever hook comes first.
func TestCursorPayloadAtClaudeAdapterCleansOnce(t *testing.T) {
	bin := hooktest.Bin(t)
	for _, order := range [][2]string{{"claude", "cursor"}, {"cursor", "claude"}} {
		t.Run(order[0]+"-first/automatic", func(t *testing.T) {
			f := hooktest.New(t)
			f.Write("notes.md", hooktest.Dirty)
			f.Mode(bin, approval.Automatic)
			runClaudeUnderCursor(f, bin, "post-tool-use", f.Fixture("cursor-documented/postToolUse-Write.json"))
			runCursor(f, bin, "after-file-edit", f.Fixture("cursor-documented/afterFileEdit.json"))
			if got := f.Recorded(cursorConv); !reflect.DeepEqual(got, []string{"notes.md"}) {
				t.Fatalf("recorded %v under the conversation id", got)
			}
			var lines []string
			for _, who := range order {
				var out *cursorOutput
				if who == "claude" {
					out = runClaudeUnderCursor(f, bin, "stop", f.Fixture("cursor-documented/stop.json"))
				} else {
					out = runCursor(f, bin, "stop", f.Fixture("cursor-documented/stop.json"))
				}
				if out != nil && out.FollowupMessage != "" {
					t.Fatalf("%s stop in automatic mode followed up: %+v", who, out)
				}
				if out != nil && strings.Contains(out.UserMessage, "cleaned") {
					lines = append(lines, who+": "+out.UserMessage)
				}
			}
			if len(lines) != 1 || !strings.Contains(lines[0], "cleaned 1 file") {
				t.Fatalf("cleaned lines %q, want one", lines)
			}
			if got := f.Read("notes.md"); got != hooktest.Cleaned {
				t.Fatalf("notes.md = %q", got)
			}
			// Claude Code's SessionStart under Cursor is Cursor's: the
			// model hears which files the clean rewrote.
			out := runClaudeUnderCursor(f, bin, "session-start", f.Fixture("cursor-documented/sessionStart.json"))
			if out == nil || !strings.Contains(out.AdditionalContext, "notes.md") {
				t.Fatalf("session start after the clean: %+v, want the re-read note", out)
			}
		})
		t.Run(order[0]+"-first/confirm", func(t *testing.T) {
			f := hooktest.New(t)
			f.Write("notes.md", hooktest.Dirty)
			f.Mode(bin, approval.Confirm)
			runClaudeUnderCursor(f, bin, "post-tool-use", f.Fixture("cursor-documented/postToolUse-Write.json"))
			asked := 0
			for _, who := range order {
				var out *cursorOutput
				if who == "claude" {
					out = runClaudeUnderCursor(f, bin, "stop", f.Fixture("cursor-documented/stop.json"))
				} else {
					out = runCursor(f, bin, "stop", f.Fixture("cursor-documented/stop.json"))
				}
				if out != nil && strings.Contains(out.FollowupMessage, "prosewash clean --session "+cursorConv) {
					asked++
				}
			}
			if asked != 1 {
				t.Fatalf("asked %d times, want once", asked)
			}
			if got := f.Read("notes.md"); got != hooktest.Dirty {
				t.Fatalf("confirm mode changed notes.md: %q", got)
			}
		})
	}
}

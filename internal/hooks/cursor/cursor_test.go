package cursor

import (
	"bytes"
	"context"
	"github.com/prosewash/prosewash/internal/engine/session"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/engine/approval"
	"github.com/prosewash/prosewash/internal/testkit/hooktest"
)

func TestMain(m *testing.M) { os.Exit(hooktest.Main(m)) }

const conv = "668320d2-2fd8-4888-b33c-2a466fec86e7"

func run(f *hooktest.Fixture, self, event string, payload []byte) *Output {
	return (&Runner{Env: f.Env(self)}).Run(context.Background(), event, bytes.NewReader(payload))
}

func TestDocumentedPayloadsManual(t *testing.T) {
	f := hooktest.New(t)
	f.Write("notes.md", hooktest.Dirty)
	if out := run(f, "prosewash", SessionStart, f.Fixture("sessionStart.json")); out != nil {
		t.Fatalf("sessionStart: %+v", out)
	}
	if out := run(f, "prosewash", AfterFileEdit, f.Fixture("afterFileEdit.json")); out != nil {
		t.Fatalf("afterFileEdit: %+v", out)
	}
	if got := f.Recorded(conv); !reflect.DeepEqual(got, []string{"notes.md"}) {
		t.Fatalf("recorded %v under the conversation id", got)
	}
	if out := run(f, "prosewash", Stop, f.Fixture("stop.json")); out != nil {
		t.Fatalf("stop in manual mode: %+v", out)
	}
}

func TestConfirmFollowsUpOnce(t *testing.T) {
	bin := hooktest.Bin(t)
	f := hooktest.New(t)
	f.Write("notes.md", hooktest.Dirty)
	f.Mode(bin, approval.Confirm)
	run(f, bin, AfterFileEdit, f.Fixture("afterFileEdit.json"))
	out := run(f, bin, Stop, f.Fixture("stop.json"))
	if out == nil || !strings.Contains(out.FollowupMessage, "prosewash clean --session "+conv) {
		t.Fatalf("confirm: %+v, want a followup_message asking the user", out)
	}
	again := bytes.Replace(f.Fixture("stop.json"), []byte(`"loop_count":0`), []byte(`"loop_count":1`), 1)
	if out := run(f, bin, Stop, again); out != nil {
		t.Fatalf("loop_count 1: %+v, want nothing", out)
	}
	if out := run(f, bin, Stop, f.Fixture("stop.json")); out != nil {
		t.Fatalf("asked twice: %+v", out)
	}
	aborted := bytes.Replace(f.Fixture("stop.json"), []byte(`"completed"`), []byte(`"aborted"`), 1)
	f.Write("notes.md", hooktest.Dirty+"more\u200b\n")
	run(f, bin, AfterFileEdit, f.Fixture("afterFileEdit.json"))
	if out := run(f, bin, Stop, aborted); out != nil {
		t.Fatalf("aborted turn: %+v, want nothing", out)
	}
}

func TestAutomaticCleans(t *testing.T) {
	bin := hooktest.Bin(t)
	f := hooktest.New(t)
	f.Write("notes.md", hooktest.Dirty)
	f.Mode(bin, approval.Automatic)
	run(f, bin, AfterFileEdit, f.Fixture("afterFileEdit.json"))
	out := run(f, bin, Stop, f.Fixture("stop.json"))
	if out == nil || out.FollowupMessage != "" || !strings.HasPrefix(out.UserMessage, "prosewash: cleaned 1 file") {
		t.Fatalf("automatic: %+v", out)
	}
	if got := f.Read("notes.md"); got != hooktest.Cleaned {
		t.Fatalf("notes.md = %q", got)
	}
	out = run(f, bin, SessionStart, f.Fixture("sessionStart.json"))
	if out == nil || !strings.Contains(out.AdditionalContext, "notes.md") {
		t.Fatalf("sessionStart after a clean: %+v, want the re-read note", out)
	}
}

func TestBadInput(t *testing.T) {
	f := hooktest.New(t)
	for _, tt := range []struct {
		name, event, payload, want string
	}{
		{"empty", AfterFileEdit, "", "empty hook input"},
		{"not JSON", Stop, "nope", "invalid hook input"},
		{"no conversation_id", AfterFileEdit, `{"file_path":"/x.md","workspace_roots":["/"]}`, "no conversation_id"},
		{"workspace_roots not a list", Stop, `{"conversation_id":"c","workspace_roots":"/"}`, "invalid hook input"},
		{"no workspace root", SessionStart, `{"conversation_id":"c","workspace_roots":[]}`, "no absolute workspace_roots"},
		{"no file_path", AfterFileEdit, `{"conversation_id":"c","workspace_roots":["` + f.Root + `"]}`, "names no file_path"},
		{"relative file_path", AfterFileEdit, `{"conversation_id":"c","workspace_roots":["` + f.Root + `"],"file_path":"a.md"}`, "not absolute"},
		{"unknown event", "beforeShellExecution", `{"conversation_id":"c"}`, "unknown event"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out := (&Runner{Env: f.Env("prosewash")}).Run(context.Background(), tt.event, strings.NewReader(tt.payload))
			if out == nil || !strings.Contains(out.UserMessage, tt.want) || out.FollowupMessage != "" || out.AdditionalContext != "" {
				t.Fatalf("%+v, want fail-open naming %q", out, tt.want)
			}
			if !f.NoSessions() {
				t.Errorf("bad input wrote a session record")
			}
		})
	}
	r := &Runner{Env: session.Env{Getenv: func(string) string { panic("boom") }}}
	if out := r.Run(context.Background(), Stop, strings.NewReader(`{"conversation_id":"c","status":"completed"}`)); out == nil || !strings.Contains(out.UserMessage, "internal error: boom") {
		t.Errorf("panic: %+v", out)
	}
}

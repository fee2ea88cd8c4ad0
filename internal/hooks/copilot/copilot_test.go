package copilot

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

const sid = "6e1a7c3f-0d0b-4b8e-9a61-2f1f0c1d9e55"

func run(f *hooktest.Fixture, self, event string, payload []byte) (*Output, string) {
	var errb bytes.Buffer
	out := (&Runner{Env: f.Env(self), Stderr: &errb}).Run(context.Background(), event, bytes.NewReader(payload))
	return out, errb.String()
}

func TestDocumentedPayloads(t *testing.T) {
	f := hooktest.New(t)
	f.Write("notes.md", hooktest.Dirty)
	f.Write("docs/guide.md", "b\u200b\n")
	f.Write("out.md", "x\n")
	if out, errs := run(f, "prosewash", SessionStart, f.Fixture("sessionStart.json")); out != nil || errs != "" {
		t.Fatalf("sessionStart: %+v %s", out, errs)
	}
	for _, name := range []string{"postToolUse-create.json", "postToolUse-edit-string-args.json", "PostToolUse-snake.json"} {
		if out, errs := run(f, "prosewash", PostToolUse, f.Fixture(name)); out != nil || errs != "" {
			t.Fatalf("%s: %+v %s", name, out, errs)
		}
	}
	if got := f.Recorded(sid); !reflect.DeepEqual(got, []string{"docs/guide.md", "notes.md", "out.md"}) {
		t.Fatalf("recorded %v", got)
	}
	if out, errs := run(f, "prosewash", AgentStop, f.Fixture("agentStop.json")); out != nil || errs != "" {
		t.Fatalf("agentStop in manual mode: %+v %s", out, errs)
	}
}

func TestConfirmBlocksOnce(t *testing.T) {
	bin := hooktest.Bin(t)
	f := hooktest.New(t)
	f.Write("notes.md", hooktest.Dirty)
	f.Mode(bin, approval.Confirm)
	run(f, bin, PostToolUse, f.Fixture("postToolUse-create.json"))
	out, _ := run(f, bin, AgentStop, f.Fixture("agentStop.json"))
	if out == nil || out.Decision != "block" || !strings.Contains(out.Reason, "prosewash clean --session "+sid) {
		t.Fatalf("confirm: %+v", out)
	}
	active := bytes.Replace(f.Fixture("agentStop.json"), []byte(`"stop_hook_active":false`), []byte(`"stop_hook_active":true`), 1)
	if out, _ := run(f, bin, AgentStop, active); out != nil {
		t.Fatalf("stop_hook_active: %+v", out)
	}
	// A build without the re-entry flag: the once-per-state guard holds.
	noFlag := bytes.Replace(f.Fixture("agentStop.json"), []byte(`,"stop_hook_active":false`), nil, 1)
	if out, _ := run(f, bin, AgentStop, noFlag); out != nil {
		t.Fatalf("asked twice: %+v", out)
	}
}

func TestAutomaticCleans(t *testing.T) {
	bin := hooktest.Bin(t)
	f := hooktest.New(t)
	f.Write("notes.md", hooktest.Dirty)
	f.Mode(bin, approval.Automatic)
	run(f, bin, PostToolUse, f.Fixture("postToolUse-create.json"))
	out, errs := run(f, bin, AgentStop, f.Fixture("agentStop.json"))
	if out != nil || !strings.HasPrefix(errs, "prosewash: cleaned 1 file") {
		t.Fatalf("automatic: %+v %q, want no block and the line on stderr", out, errs)
	}
	if got := f.Read("notes.md"); got != hooktest.Cleaned {
		t.Fatalf("notes.md = %q", got)
	}
}

// Without a sessionId the stand-in is stable for one CLI process and
// project, and differs between projects.
func TestSessionStandIn(t *testing.T) {
	a := (&Input{Cwd: "/p"}).SessionKey()
	if a == "" || a != (&Input{Cwd: "/p"}).SessionKey() || a == (&Input{Cwd: "/q"}).SessionKey() {
		t.Fatalf("stand-in ids: %q", a)
	}
	if got := (&Input{Cwd: "/p", SessionID: "x"}).SessionKey(); got != "x" {
		t.Fatalf("sessionId not used: %q", got)
	}
	f := hooktest.New(t)
	f.Write("notes.md", "x\n")
	noID := bytes.Replace(f.Fixture("postToolUse-create.json"), []byte(`"sessionId":"`+sid+`",`), nil, 1)
	run(f, "prosewash", PostToolUse, noID)
	if got := f.Recorded((&Input{Cwd: f.Root}).SessionKey()); !reflect.DeepEqual(got, []string{"notes.md"}) {
		t.Fatalf("recorded under the stand-in: %v", got)
	}
}

func TestBadInput(t *testing.T) {
	f := hooktest.New(t)
	for _, tt := range []struct {
		name, event, payload, want string
	}{
		{"empty", PostToolUse, "", "empty hook input"},
		{"not JSON", AgentStop, "}", "invalid hook input"},
		{"no cwd", SessionStart, `{"sessionId":"s"}`, "no cwd"},
		{"no toolName", PostToolUse, `{"sessionId":"s","cwd":"` + f.Root + `"}`, "no toolName"},
		{"toolArgs a number", PostToolUse, `{"sessionId":"s","cwd":"` + f.Root + `","toolName":"create","toolArgs":3}`, "no usable toolArgs"},
		{"no path", PostToolUse, `{"sessionId":"s","cwd":"` + f.Root + `","toolName":"edit","toolArgs":{"old_str":"a"}}`, "names no path"},
		{"dot-dot", PostToolUse, `{"sessionId":"s","cwd":"` + f.Root + `","toolName":"create","toolArgs":{"path":"../x.md"}}`, "escapes the project"},
		{"unknown event", "preToolUse", `{"sessionId":"s","cwd":"/"}`, "unknown event"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out, errs := run(f, "prosewash", tt.event, []byte(tt.payload))
			if out != nil || !strings.Contains(errs, tt.want) || !strings.HasPrefix(errs, "prosewash: ") {
				t.Fatalf("%+v %q, want {} and stderr naming %q", out, errs, tt.want)
			}
			if !f.NoSessions() {
				t.Errorf("bad input wrote a session record")
			}
		})
	}
	var errb bytes.Buffer
	r := &Runner{Env: session.Env{Getenv: func(string) string { panic("boom") }}, Stderr: &errb}
	if out := r.Run(context.Background(), AgentStop, strings.NewReader(`{"sessionId":"s","cwd":"/tmp"}`)); out != nil || !strings.Contains(errb.String(), "internal error: boom") {
		t.Errorf("panic: %+v %q", out, errb.String())
	}
}

package agent

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/engine/approval"
	"github.com/prosewash/prosewash/internal/testkit/hooktest"
)

const copilotSID = "6e1a7c3f-0d0b-4b8e-9a61-2f1f0c1d9e55"

func runCopilot(f *hooktest.Fixture, self, event string, payload []byte) (*copilotOutput, string) {
	f.T.Helper()
	r := hook(f.T, f.Env(self), "copilot", event, payload)
	if r.JSON == nil {
		return nil, r.Stderr
	}
	return r.JSON.(*copilotOutput), r.Stderr
}

func TestCopilotDocumentedPayloads(t *testing.T) {
	f := hooktest.New(t)
	f.Write("notes.md", hooktest.Dirty)
	f.Write("docs/guide.md", "b\u200b\n")
	f.Write("out.md", "x\n")
	if out, errs := runCopilot(f, "prosewash", "session-start", f.Fixture("copilot-documented/sessionStart.json")); out != nil || errs != "" {
		t.Fatalf("sessionStart: %+v %s", out, errs)
	}
	for _, name := range []string{"postToolUse-create.json", "postToolUse-edit-string-args.json", "PostToolUse-snake.json"} {
		if out, errs := runCopilot(f, "prosewash", "post-tool-use", f.Fixture("copilot-documented/"+name)); out != nil || errs != "" {
			t.Fatalf("%s: %+v %s", name, out, errs)
		}
	}
	if got := f.Recorded(copilotSID); !reflect.DeepEqual(got, []string{"docs/guide.md", "notes.md", "out.md"}) {
		t.Fatalf("recorded %v", got)
	}
	if out, errs := runCopilot(f, "prosewash", "agent-stop", f.Fixture("copilot-documented/agentStop.json")); out != nil || errs != "" {
		t.Fatalf("agentStop in manual mode: %+v %s", out, errs)
	}
}

func TestCopilotConfirmBlocksOnce(t *testing.T) {
	bin := hooktest.Bin(t)
	f := hooktest.New(t)
	f.Write("notes.md", hooktest.Dirty)
	f.Mode(bin, approval.Confirm)
	runCopilot(f, bin, "post-tool-use", f.Fixture("copilot-documented/postToolUse-create.json"))
	out, _ := runCopilot(f, bin, "agent-stop", f.Fixture("copilot-documented/agentStop.json"))
	if out == nil || out.Decision != "block" || !strings.Contains(out.Reason, "prosewash clean --session "+copilotSID) {
		t.Fatalf("confirm: %+v", out)
	}
	active := bytes.Replace(f.Fixture("copilot-documented/agentStop.json"), []byte(`"stop_hook_active":false`), []byte(`"stop_hook_active":true`), 1)
	if out, _ := runCopilot(f, bin, "agent-stop", active); out != nil {
		t.Fatalf("stop_hook_active: %+v", out)
	}
	// A build without the re-entry flag: the once-per-state guard holds.
	noFlag := bytes.Replace(f.Fixture("copilot-documented/agentStop.json"), []byte(`,"stop_hook_active":false`), nil, 1)
	if out, _ := runCopilot(f, bin, "agent-stop", noFlag); out != nil {
		t.Fatalf("asked twice: %+v", out)
	}
}

func TestCopilotAutomaticCleans(t *testing.T) {
	bin := hooktest.Bin(t)
	f := hooktest.New(t)
	f.Write("notes.md", hooktest.Dirty)
	f.Mode(bin, approval.Automatic)
	runCopilot(f, bin, "post-tool-use", f.Fixture("copilot-documented/postToolUse-create.json"))
	out, errs := runCopilot(f, bin, "agent-stop", f.Fixture("copilot-documented/agentStop.json"))
	if out != nil || !strings.HasPrefix(errs, "prosewash: cleaned 1 file") {
		t.Fatalf("automatic: %+v %q, want no block and the line on stderr", out, errs)
	}
	if got := f.Read("notes.md"); got != hooktest.Cleaned {
		t.Fatalf("notes.md = %q", got)
	}
}

// Without a sessionId the stand-in is stable for one CLI process and
// project, and differs between projects.
func TestCopilotSessionStandIn(t *testing.T) {
	a := (&copilotInput{Cwd: "/p"}).sessionKey()
	if a == "" || a != (&copilotInput{Cwd: "/p"}).sessionKey() || a == (&copilotInput{Cwd: "/q"}).sessionKey() {
		t.Fatalf("stand-in ids: %q", a)
	}
	if got := (&copilotInput{Cwd: "/p", SessionID: "x"}).sessionKey(); got != "x" {
		t.Fatalf("sessionId not used: %q", got)
	}
	f := hooktest.New(t)
	f.Write("notes.md", "x\n")
	noID := bytes.Replace(f.Fixture("copilot-documented/postToolUse-create.json"), []byte(`"sessionId":"`+copilotSID+`",`), nil, 1)
	runCopilot(f, "prosewash", "post-tool-use", noID)
	if got := f.Recorded((&copilotInput{Cwd: f.Root}).sessionKey()); !reflect.DeepEqual(got, []string{"notes.md"}) {
		t.Fatalf("recorded under the stand-in: %v", got)
	}
}

func TestCopilotBadInput(t *testing.T) {
	f := hooktest.New(t)
	for _, tt := range []struct {
		name, event, payload, want string
	}{
		{"empty", "post-tool-use", "", "empty hook input"},
		{"not JSON", "agent-stop", "}", "invalid hook input"},
		{"no cwd", "session-start", `{"sessionId":"s"}`, "no cwd"},
		{"no toolName", "post-tool-use", `{"sessionId":"s","cwd":"` + f.Root + `"}`, "no toolName"},
		{"toolArgs a number", "post-tool-use", `{"sessionId":"s","cwd":"` + f.Root + `","toolName":"create","toolArgs":3}`, "no usable toolArgs"},
		{"no path", "post-tool-use", `{"sessionId":"s","cwd":"` + f.Root + `","toolName":"edit","toolArgs":{"old_str":"a"}}`, "names no path"},
		{"dot-dot", "post-tool-use", `{"sessionId":"s","cwd":"` + f.Root + `","toolName":"create","toolArgs":{"path":"../x.md"}}`, "escapes the project"},
		{"unknown event", "preToolUse", `{"sessionId":"s","cwd":"/"}`, "unknown event"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out, errs := runCopilot(f, "prosewash", tt.event, []byte(tt.payload))
			if out != nil || !strings.Contains(errs, tt.want) || !strings.HasPrefix(errs, "prosewash: ") {
				t.Fatalf("%+v %q, want {} and stderr naming %q", out, errs, tt.want)
			}
			if !f.NoSessions() {
				t.Errorf("bad input wrote a session record")
			}
		})
	}
}

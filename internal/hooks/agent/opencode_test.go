package agent

import (
	"reflect"
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/engine/approval"
	"github.com/prosewash/prosewash/internal/testkit/hooktest"
)

func runOpencode(f *hooktest.Fixture, self, event, payload string) *opencodeOutput {
	f.T.Helper()
	r := hook(f.T, f.Env(self), "opencode", event, []byte(payload))
	if r.Stderr != "" {
		f.T.Errorf("opencode %s wrote to standard error: %q", event, r.Stderr)
	}
	if r.JSON == nil {
		return nil
	}
	return r.JSON.(*opencodeOutput)
}

// The plugin's payloads carry opencode's own tool ids and arguments
// (1.18.33): write and edit name filePath, bash a command run in its
// workdir, apply_patch a patchText; what each writes is recorded under
// the session id, and read, glob and the like write nothing.
func TestOpencodeToolsRecorded(t *testing.T) {
	f := hooktest.New(t)
	f.Write("notes.md", hooktest.Dirty)
	f.Write("sub/shell.md", "x\n")
	f.Write("patched.md", "y\n")
	pre := `{"session_id":"ses_1","cwd":"` + f.Root + `",`
	for _, p := range []string{
		pre + `"tool_name":"write","tool_input":{"filePath":"` + f.Path("notes.md") + `","content":"x"}}`,
		pre + `"tool_name":"edit","tool_input":{"filePath":"notes.md","oldString":"a","newString":"b"}}`,
		pre + `"tool_name":"bash","tool_input":{"command":"echo x > shell.md","workdir":"sub","description":"d"}}`,
		pre + `"tool_name":"apply_patch","tool_input":{"patchText":"*** Begin Patch\n*** Update File: patched.md\n@@\n-y\n+z\n*** End Patch"}}`,
		pre + `"tool_name":"read","tool_input":{"filePath":"` + f.Path("other.md") + `"}}`,
	} {
		if out := runOpencode(f, "prosewash", "tool-after", p); out != nil {
			t.Fatalf("tool-after %s: %+v", p, out)
		}
	}
	if got := f.Recorded("ses_1"); !reflect.DeepEqual(got, []string{"notes.md", "patched.md", "sub/shell.md"}) {
		t.Fatalf("recorded %v", got)
	}
}

// Confirm mode: the idle answer is the next prompt (continue), and the
// idle the plugin marks as following it is left alone.
func TestOpencodeConfirmContinuesOnce(t *testing.T) {
	bin := hooktest.Bin(t)
	f := hooktest.New(t)
	f.Write("notes.md", hooktest.Dirty)
	f.Mode(bin, approval.Confirm)
	runOpencode(f, bin, "tool-after", `{"session_id":"ses_2","cwd":"`+f.Root+`","tool_name":"write","tool_input":{"filePath":"notes.md"}}`)
	out := runOpencode(f, bin, "idle", `{"session_id":"ses_2","cwd":"`+f.Root+`","stop_hook_active":false}`)
	if out == nil || !strings.Contains(out.Continue, "prosewash clean --session ses_2") {
		t.Fatalf("confirm idle: %+v, want the ask as the next prompt", out)
	}
	if out := runOpencode(f, bin, "idle", `{"session_id":"ses_2","cwd":"`+f.Root+`","stop_hook_active":true}`); out != nil {
		t.Fatalf("the idle after our prompt: %+v, want nothing", out)
	}
	if got := f.Read("notes.md"); got != hooktest.Dirty {
		t.Fatalf("confirm mode changed notes.md: %q", got)
	}
}

func TestOpencodeBadInput(t *testing.T) {
	f := hooktest.New(t)
	for _, tt := range []struct{ name, event, payload, want string }{
		{"empty", "tool-after", "", "empty hook input"},
		{"no session", "idle", `{"cwd":"/"}`, "no session_id"},
		{"no tool", "tool-after", `{"session_id":"s","cwd":"` + f.Root + `"}`, "no tool_name"},
		{"unknown event", "message.updated", `{"session_id":"s"}`, "unknown event"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out := runOpencode(f, "prosewash", tt.event, tt.payload)
			if out == nil || !strings.Contains(out.Message, tt.want) || out.Continue != "" {
				t.Fatalf("%+v, want a fail-open message naming %q", out, tt.want)
			}
		})
	}
}

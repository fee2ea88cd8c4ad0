package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/testkit/agentharness"
	"github.com/prosewash/prosewash/internal/testkit/hooktest"
)

// These tests drive the real GitHub Copilot CLI (pinned, from npm) offline
// in its bring-your-own-model mode against a loopback mock of an
// OpenAI-compatible chat API, with the hooks "prosewash install --copilot"
// wrote to .github/hooks/prosewash.json, in a folder its config.json
// trusts. A second hook file beside ours logs every payload the CLI sends.

type copilotE2E struct {
	*hooktest.E2E
	copilot string
	home    string // COPILOT_HOME
	mock    *agentharness.Mock
	logs    string // the payload logger's directory
}

// newCopilotE2E installs the hooks in mode m; the mock makes the calls
// steps names (create, edit, bash), and the folder is trusted unless
// untrusted.
func newCopilotE2E(t *testing.T, m string, untrusted bool, steps ...string) *copilotE2E {
	t.Helper()
	x := &copilotE2E{E2E: hooktest.NewE2E(t)}
	x.copilot = agentharness.Copilot(t)
	var calls []agentharness.Call
	for _, s := range steps {
		calls = append(calls, copilotCall(x.Proj, s))
	}
	var err error
	if x.mock, err = agentharness.NewChatMock(calls...); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { x.mock.Close() })
	if untrusted {
		x.home = agentharness.CopilotHome(t)
	} else {
		x.home = agentharness.CopilotHome(t, x.Proj)
	}
	x.Env = append(x.Env, "COPILOT_HOME="+x.home)
	out := x.Prosewash("install", "--copilot", "--mode", "manual")
	if trusted := strings.Contains(out, "Copilot CLI trusts this folder"); trusted == untrusted {
		t.Errorf("install --copilot on a folder trusted=%v said:\n%s", !untrusted, out)
	}
	if m != "manual" {
		x.Approve(m)
	}
	x.logs = t.TempDir()
	x.logPayloads()
	return x
}

// copilotCall is one step of the mock's script, in the Copilot CLI's tool
// names and arguments (1.0.102).
func copilotCall(proj, step string) agentharness.Call {
	notes := filepath.Join(proj, "notes.md")
	switch step {
	case "create":
		return agentharness.Call{Tools: []agentharness.Tool{{Name: "create", Args: map[string]any{"path": notes, "file_text": notesMD}}}}
	case "edit":
		return agentharness.Call{Tools: []agentharness.Tool{{Name: "edit", Args: map[string]any{"path": notes, "old_str": "# Notes", "new_str": "# Notes\u200b edited"}}}}
	case "bash":
		return agentharness.Call{Tools: []agentharness.Tool{{Name: "bash", Args: map[string]any{
			"command": shellCommand, "description": "write shell.md", "mode": "sync", "initial_wait": 10}}}}
	}
	panic("no such step: " + step)
}

// logPayloads adds a hook file that appends every payload to logs/EVENT.jsonl.
func (x *copilotE2E) logPayloads() {
	x.T.Helper()
	hooks := map[string]any{}
	for _, ev := range []string{"sessionStart", "postToolUse", "agentStop"} {
		hooks[ev] = []any{map[string]any{"type": "command", "bash": logCommand(x.logs, ev), "timeoutSec": 10}}
	}
	b, _ := json.Marshal(map[string]any{"version": 1, "hooks": hooks})
	if err := os.WriteFile(filepath.Join(x.Proj, ".github", "hooks", "zz-log.json"), b, 0o644); err != nil {
		x.T.Fatal(err)
	}
}

// payloads returns what the CLI sent to one event's hooks, in order.
func (x *copilotE2E) payloads(event string) []map[string]any { return logged(x.logs, event) }

func (x *copilotE2E) session(trace bool, prompt string, args ...string) *agentharness.Session {
	x.T.Helper()
	s := agentharness.RunCopilot(x.T, x.copilot, x.home, x.mock.URL(), prompt,
		agentharness.Options{Dir: x.Proj, Env: x.Env, Trace: trace, Args: args, ExtraPath: []string{filepath.Dir(x.Bin)}})
	x.T.Logf("copilot session took %s", s.Duration)
	if s.ExitCode != 0 {
		x.T.Fatalf("copilot -p failed: %s", s.Summary())
	}
	return s
}

// The session id the CLI sent with its first session start.
func (x *copilotE2E) copilotSession() string {
	x.T.Helper()
	ps := x.payloads("sessionStart")
	if len(ps) == 0 {
		x.T.Fatalf("no sessionStart payload was logged")
	}
	id, _ := ps[0]["sessionId"].(string)
	return id
}

func TestE2ECopilotManualRecordsAndLeaves(t *testing.T) {
	x := newCopilotE2E(t, "manual", false, "create")
	s := x.session(true, "Write notes.md.")
	if got := x.File("notes.md"); got != notesMD {
		t.Errorf("manual mode: %q, want the agent's bytes", got)
	}
	if n := len(x.mock.Of(agentharness.KindContinuation)); n != 0 {
		t.Errorf("manual mode blocked the turn: %d continuations", n)
	}
	if id, files := recordedFiles(x.E2E); id == "" || id != x.copilotSession() || strings.Join(files, ",") != "notes.md" {
		t.Errorf("recorded %v under %q, Copilot's session is %q", files, id, x.copilotSession())
	}
	checkLoopbackOnly(t, s)
}

// Automatic mode cleans, at the end of the turn, what create, edit and a
// shell redirect wrote, and the next turn of the same session (--continue)
// tells the model which files changed under it.
func TestE2ECopilotAutomaticCleansCreateEditAndShell(t *testing.T) {
	x := newCopilotE2E(t, "automatic", false, "create", "edit", "bash")
	x.session(false, "Write notes.md.")
	if got := x.File("notes.md"); got != notesCleaned {
		t.Errorf("notes.md: %q, want %q (prose cleaned, inline code kept)", got, notesCleaned)
	}
	if got := x.File("shell.md"); got != shellCleaned {
		t.Errorf("shell.md: %q, want %q", got, shellCleaned)
	}
	if n := len(x.mock.Of(agentharness.KindContinuation)); n != 0 {
		t.Errorf("automatic mode blocked the turn: %d continuations", n)
	}
	id := x.copilotSession()
	before := len(x.mock.Requests())
	x.session(false, "Carry on.", "--continue")
	if got := x.payloads("sessionStart"); len(got) != 2 || got[1]["sessionId"] != id {
		t.Fatalf("--continue did not resume session %s: %v", id, got)
	}
	told := false
	for _, r := range x.mock.Requests()[before:] {
		told = told || (r.Mentions("prosewash removed invisible Unicode characters") && r.Mentions("notes.md") && r.Mentions("shell.md"))
	}
	if !told {
		t.Errorf("the continued session's model never heard that notes.md and shell.md were cleaned")
	}
}

// Confirm mode asks once: the end of the turn blocks with the ask, the
// model's answer ends the turn again with stop_hook_active, and that stop
// is left alone.
func TestE2ECopilotConfirmAsksOnce(t *testing.T) {
	x := newCopilotE2E(t, "confirm", false, "create")
	x.session(false, "Write notes.md.")
	if got := x.File("notes.md"); got != notesMD {
		t.Errorf("confirm mode changed the file: %q", got)
	}
	cont := x.mock.Of(agentharness.KindContinuation)
	if len(cont) != 1 {
		t.Fatalf("continuations = %d, want exactly 1", len(cont))
	}
	id := x.copilotSession()
	if !cont[0].Mentions("prosewash clean --session "+id) || !cont[0].Mentions("Ask the user") {
		t.Errorf("the continuation does not carry the ask for session %s", id)
	}
	stops := x.payloads("agentStop")
	if len(stops) != 2 || stops[0]["stop_hook_active"] != false || stops[1]["stop_hook_active"] != true {
		t.Errorf("agentStop payloads %v, want two, the second with stop_hook_active", stops)
	}
}

// In a folder the CLI does not trust nothing fires, and status says why.
func TestE2ECopilotUntrustedFolderIsReported(t *testing.T) {
	x := newCopilotE2E(t, "manual", true, "create")
	x.session(false, "Write notes.md.")
	if len(x.payloads("sessionStart")) != 0 || len(x.payloads("postToolUse")) != 0 {
		t.Fatalf("hooks fired in an untrusted folder; the premise of the check is gone")
	}
	if got := x.File("notes.md"); got != notesMD {
		t.Fatalf("the session did not write notes.md: %q", got)
	}
	out := x.Prosewash("status")
	if !strings.Contains(out, "copilot hooks in .github/hooks/prosewash.json cannot fire") || !strings.Contains(out, "trustedFolders") {
		t.Errorf("status does not say the hooks cannot fire:\n%s", out)
	}
	// Trusting the folder as the CLI's trust prompt does makes them fire.
	x.home = agentharness.CopilotHome(t, x.Proj)
	x.Env = append(x.Env, "COPILOT_HOME="+x.home)
	if out := x.Prosewash("status"); strings.Contains(out, "cannot fire") {
		t.Errorf("status in a trusted folder:\n%s", out)
	}
	x.session(false, "Write notes.md.")
	if len(x.payloads("sessionStart")) == 0 {
		t.Errorf("no hook fired once the folder was trusted")
	}
}

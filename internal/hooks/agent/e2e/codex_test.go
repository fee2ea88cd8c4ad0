package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/install"
	"github.com/prosewash/prosewash/internal/testkit/agentharness"
	"github.com/prosewash/prosewash/internal/testkit/hooktest"
)

// These tests drive the real Codex CLI (pinned, from npm) offline against
// a loopback mock of the Responses API, with the hooks "prosewash install
// --codex" wrote and trusted through the hashes install writes on a yes.

type codexE2E struct {
	*hooktest.E2E
	codex string
	mock  *agentharness.Mock
	home  string
}

func newCodexE2E(t *testing.T, m string) *codexE2E {
	t.Helper()
	return newCodexE2EWriting(t, m, hooktest.E2EFile, hooktest.E2EContent, nil)
}

// newCodexE2EWriting sets up a session whose one tool call writes content
// to target (relative to the project); before(proj) prepares the project.
func newCodexE2EWriting(t *testing.T, m, target, content string, before func(proj string)) *codexE2E {
	t.Helper()
	x := &codexE2E{E2E: hooktest.NewE2E(t)}
	x.codex = agentharness.Codex(t)
	if before != nil {
		before(x.Proj)
	}
	var err error
	if x.mock, err = agentharness.NewCodexMock(target, content); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { x.mock.Close() })
	x.Prosewash("install", "--codex", "--mode", "manual")
	if m != "manual" {
		x.Approve(m)
	}
	x.home = agentharness.CodexHome(t, x.mock.URL(), x.Proj)
	// What "prosewash install --codex" writes after the user's yes.
	if n, err := install.AddCodexTrust(x.home, x.Proj); err != nil || n != 5 {
		t.Fatalf("trust: %d %v", n, err)
	}
	return x
}

func (x *codexE2E) session(trace bool) *agentharness.Session {
	x.T.Helper()
	s := agentharness.RunCodex(x.T, x.codex, x.home, agentharness.Options{Dir: x.Proj, Env: x.Env, Trace: trace, ExtraPath: []string{filepath.Dir(x.Bin)}})
	x.T.Logf("codex session took %s", s.Duration)
	if s.ExitCode != 0 {
		x.T.Fatalf("codex exec failed: %s", s.Summary())
	}
	if len(x.mock.Of(agentharness.KindWrite)) != 1 {
		x.T.Fatalf("the mock was not asked to write exactly once: %s", s.Summary())
	}
	return s
}

// sessionID is the session Codex recorded the file under.
func (x *codexE2E) sessionID() string {
	x.T.Helper()
	var r struct {
		Session string `json:"session"`
		Files   []struct {
			Rel, Status string
		} `json:"files"`
	}
	out := x.Prosewash("recorded", "--json")
	if err := json.Unmarshal([]byte(out[:strings.LastIndex(out, "}")+1]), &r); err != nil {
		x.T.Fatalf("recorded --json: %v\n%s", err, out)
	}
	if len(r.Files) != 1 || r.Files[0].Rel != hooktest.E2EFile {
		x.T.Fatalf("recorded %+v, want %s", r, hooktest.E2EFile)
	}
	return r.Session
}

func TestE2ECodexManualRecordsAndLeaves(t *testing.T) {
	x := newCodexE2E(t, "manual")
	s := x.session(true)
	if got := x.File(hooktest.E2EFile); got != hooktest.E2EContent {
		t.Errorf("manual mode: %q, want the agent's bytes", got)
	}
	if n := len(x.mock.Of(agentharness.KindContinuation)); n != 0 {
		t.Errorf("manual mode blocked the turn: %d continuations", n)
	}
	id := x.sessionID()
	if !strings.Contains(string(s.Stderr), "hook: PostToolUse") {
		t.Errorf("no PostToolUse hook ran: %s", s.Summary())
	}
	checkLoopbackOnly(t, s)
	if _, err := os.Stat(filepath.Join(x.home, "sessions")); err != nil || id == "" {
		t.Errorf("session %q: %v", id, err)
	}
}

func TestE2ECodexAutomaticCleansTheComment(t *testing.T) {
	x := newCodexE2E(t, "automatic")
	x.session(false)
	if got := x.File(hooktest.E2EFile); got != hooktest.E2ECleaned {
		t.Errorf("automatic mode: %q, want %q (comment cleaned, string kept)", got, hooktest.E2ECleaned)
	}
	if n := len(x.mock.Of(agentharness.KindContinuation)); n != 0 {
		t.Errorf("automatic mode blocked the turn: %d continuations", n)
	}
	x.sessionID()
}

func TestE2ECodexConfirmAsksOnce(t *testing.T) {
	x := newCodexE2E(t, "confirm")
	x.session(false)
	if got := x.File(hooktest.E2EFile); got != hooktest.E2EContent {
		t.Errorf("confirm mode changed the file: %q", got)
	}
	cont := x.mock.Of(agentharness.KindContinuation)
	if len(cont) != 1 {
		t.Fatalf("continuations = %d, want exactly 1", len(cont))
	}
	id := x.sessionID()
	if !cont[0].Mentions("prosewash clean --session "+id) || !cont[0].Mentions("Ask the user") {
		t.Errorf("the continuation does not carry the ask for session %s", id)
	}
}

// The memory lane's write guard under the real CLI: before Codex's
// apply_patch rewrites AGENTS.md (dropping a version), pre-tool-use banks
// the file as it was, and post-tool-use tells the model what the write
// dropped, once, without blocking.
func TestE2ECodexGuardsAgentsMD(t *testing.T) {
	const orig = "# Agents\n\nDeploy with tool v1.4.2 and check the runbook before every release.\n"
	const rewrite = "# Agents\n\nDeploy with the current tool and check the runbook before every release.\n"
	x := newCodexE2EWriting(t, "manual", "AGENTS.md", rewrite, func(proj string) {
		if err := os.WriteFile(filepath.Join(proj, "AGENTS.md"), []byte(orig), 0o644); err != nil {
			t.Fatal(err)
		}
	})
	s := x.session(false)
	if !strings.Contains(string(s.Stderr), "hook: PreToolUse") {
		t.Errorf("no PreToolUse hook ran: %s", s.Summary())
	}
	out := x.Prosewash("wash", "bins")
	if !strings.Contains(out, "guard") || !strings.Contains(out, "AGENTS.md") {
		t.Fatalf("no write-guard snapshot of AGENTS.md in the bins:\n%s", out)
	}
	if x.File("AGENTS.md") == orig {
		t.Fatalf("the patch did not rewrite AGENTS.md: %s", s.Summary())
	}
	told := false
	for _, r := range x.mock.Requests() {
		told = told || (r.Mentions("FYI (not a block)") && r.Mentions("v1.4.2"))
	}
	if !told {
		t.Errorf("the model was not told that the write dropped v1.4.2")
	}
}

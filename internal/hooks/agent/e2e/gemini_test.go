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

// These tests drive the real Gemini CLI (pinned, from npm) offline against
// a loopback mock of the Gemini API, with the hooks "prosewash install
// --gemini" merged into the project's .gemini/settings.json.

type geminiE2E struct {
	*hooktest.E2E
	gemini string
	mock   *agentharness.Mock
}

func newGeminiE2E(t *testing.T, m string) *geminiE2E {
	t.Helper()
	return newGeminiE2EWriting(t, m, hooktest.E2EFile, hooktest.E2EContent, nil)
}

// newGeminiE2EWriting sets up a session whose one tool call writes content
// to target (relative to the project); before(proj) prepares the project.
func newGeminiE2EWriting(t *testing.T, m, target, content string, before func(proj string)) *geminiE2E {
	t.Helper()
	x := &geminiE2E{E2E: hooktest.NewE2E(t)}
	x.gemini = agentharness.Gemini(t)
	if before != nil {
		before(x.Proj)
	}
	var err error
	if x.mock, err = agentharness.NewGeminiMock(filepath.Join(x.Proj, target), content); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { x.mock.Close() })
	x.Prosewash("install", "--gemini", "--mode", "manual")
	if m != "manual" {
		x.Approve(m)
	}
	return x
}

func (x *geminiE2E) session(trace bool) *agentharness.Session {
	x.T.Helper()
	s := agentharness.RunGemini(x.T, x.gemini, x.mock.URL(), agentharness.Options{Dir: x.Proj, Env: x.Env, Trace: trace, ExtraPath: []string{filepath.Dir(x.Bin)}})
	x.T.Logf("gemini session took %s", s.Duration)
	if s.ExitCode != 0 {
		x.T.Fatalf("gemini -p failed: %s", s.Summary())
	}
	if len(x.mock.Of(agentharness.KindWrite)) != 1 {
		x.T.Fatalf("the mock was not asked to write exactly once: %s", s.Summary())
	}
	return s
}

func (x *geminiE2E) sessionID() string {
	x.T.Helper()
	var r struct {
		Session string                 `json:"session"`
		Files   []struct{ Rel string } `json:"files"`
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

func TestE2EGeminiManualRecordsAndLeaves(t *testing.T) {
	x := newGeminiE2E(t, "manual")
	s := x.session(true)
	if got := x.File(hooktest.E2EFile); got != hooktest.E2EContent {
		t.Errorf("manual mode: %q, want the agent's bytes", got)
	}
	if n := len(x.mock.Of(agentharness.KindContinuation)); n != 0 {
		t.Errorf("manual mode denied the turn's end: %d continuations", n)
	}
	var out struct {
		SessionID string `json:"session_id"`
	}
	json.Unmarshal(s.Stdout, &out)
	if id := x.sessionID(); out.SessionID == "" || id != out.SessionID {
		t.Errorf("recorded under %q, Gemini's session is %q", id, out.SessionID)
	}
	checkLoopbackOnly(t, s)
}

func TestE2EGeminiAutomaticCleansTheComment(t *testing.T) {
	x := newGeminiE2E(t, "automatic")
	x.session(false)
	if got := x.File(hooktest.E2EFile); got != hooktest.E2ECleaned {
		t.Errorf("automatic mode: %q, want %q (comment cleaned, string kept)", got, hooktest.E2ECleaned)
	}
	if n := len(x.mock.Of(agentharness.KindContinuation)); n != 0 {
		t.Errorf("automatic mode denied the turn's end: %d continuations", n)
	}
}

func TestE2EGeminiConfirmAsksOnce(t *testing.T) {
	x := newGeminiE2E(t, "confirm")
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

// The memory lane's write guard under the real CLI: before write_file
// rewrites GEMINI.md (dropping a version), before-tool banks the file as
// it was, and after-tool tells the model what the write dropped.
func TestE2EGeminiGuardsGeminiMD(t *testing.T) {
	const orig = "# Project\n\nDeploy with tool v1.4.2 and check the runbook before every release.\n"
	const rewrite = "# Project\n\nDeploy with the current tool and check the runbook before every release.\n"
	x := newGeminiE2EWriting(t, "manual", "GEMINI.md", rewrite, func(proj string) {
		if err := os.WriteFile(filepath.Join(proj, "GEMINI.md"), []byte(orig), 0o644); err != nil {
			t.Fatal(err)
		}
	})
	s := x.session(false)
	out := x.Prosewash("wash", "bins")
	if !strings.Contains(out, "guard") || !strings.Contains(out, "GEMINI.md") {
		t.Fatalf("no write-guard snapshot of GEMINI.md in the bins:\n%s\n%s", out, s.Summary())
	}
	if x.File("GEMINI.md") == orig {
		t.Fatalf("write_file did not rewrite GEMINI.md: %s", s.Summary())
	}
	told := false
	for _, r := range x.mock.Requests() {
		told = told || (r.Mentions("FYI (not a block)") && r.Mentions("v1.4.2"))
	}
	if !told {
		t.Errorf("the model was not told that the write dropped v1.4.2")
	}
}

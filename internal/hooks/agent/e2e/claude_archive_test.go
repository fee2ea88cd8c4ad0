package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prosewash/prosewash/internal/testkit/archivetest"
	"github.com/prosewash/prosewash/internal/testkit/ccharness"
	"github.com/prosewash/prosewash/internal/testtool"
)

// The transcript archive next to real Claude Code sessions: the hooks record where this
// project's transcripts are, the sessions that just ran are live and kept, an agent that tries
// to archive is refused, and a person on a terminal archives the old sessions.
func TestE2EArchiveBesideRealSessions(t *testing.T) {
	x := newE2E(t)
	script, err := exec.LookPath("script")
	if err != nil {
		testtool.Missing(t, "script", fmt.Sprintf("script (util-linux) not found: cannot give prosewash a terminal: %v", err))
	}
	if why := underAgentForTest(); why != "" {
		t.Skipf("an agent CLI runs these tests (%s): the archive refuses to run for one", why)
	}
	x.mustProsewash("install", "--claude", "--mode", "manual")
	first := x.session()
	x.sessionEnv(first)
	x.env = append(x.env, "XDG_DATA_HOME="+t.TempDir())
	gen, err := archivetest.Generate(first.ConfigDir, x.proj, archivetest.Options{Sessions: 25, Bytes: 300 << 10, Seed: 3, Now: time.Now(), MaxAgeDays: 120})
	if err != nil {
		t.Fatal(err)
	}
	// An agent asks for the archive through its Bash tool: refused, with the reason in the
	// tool result the model reads.
	res := ccharness.Run(t, ccharness.Options{
		Bin: x.cc, ProjectDir: x.proj, Env: x.env, ExtraPath: []string{filepath.Dir(x.bin)},
		Args: []string{"--allowedTools", "Write,Edit,Bash(prosewash wash archive:*)"},
		Scenario: ccharness.Scenario{Steps: []ccharness.ToolCall{{Name: "Bash", Input: map[string]any{
			"command": "prosewash wash archive", "description": "archive old transcripts"}}}},
	})
	if res.ExitCode != 0 || res.Outcome == nil {
		t.Fatalf("session failed: %s", res.Summary())
	}
	final := res.RequestsOf(ccharness.KindFinal)
	if len(final) != 1 || !final[0].Mentions("runs only for a person") || len(res.Outcome.PermissionDenials) != 0 {
		t.Fatalf("the agent's archive was not refused in its tool result: %s", res.Summary())
	}
	var dry struct {
		Store    string `json:"store"`
		Sessions []struct {
			ID   string `json:"id"`
			Band string `json:"band"`
			Why  string `json:"why"`
		} `json:"sessions"`
	}
	out := x.mustProsewash("wash", "archive", "--dry-run", "--json")
	if err := json.Unmarshal([]byte(out), &dry); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if dry.Store != gen.Dir {
		t.Errorf("store %s, want %s (the one the hooks recorded)", dry.Store, gen.Dir)
	}
	bands := map[string]string{}
	for _, s := range dry.Sessions {
		bands[s.ID] = s.Band
	}
	for _, sid := range []string{first.Outcome.SessionID, res.Outcome.SessionID} {
		if bands[sid] != "live" {
			t.Errorf("the real session %s: band %q, want live", sid, bands[sid])
		}
	}
	// A person on a terminal says yes.
	cmd := exec.Command(script, "-qec", shellQuote(x.bin)+" wash archive", "/dev/null")
	cmd.Dir = x.proj
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "TERM=dumb"}, x.env...)
	cmd.Stdin = strings.NewReader("y\n")
	b, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(b), "wash archive: archived") {
		t.Fatalf("archive on a terminal: %v\n%s", err, b)
	}
	for _, s := range gen.Sessions {
		_, statErr := os.Stat(filepath.Join(gen.Dir, s.ID+".jsonl"))
		old := time.Since(s.Newest) > 14*24*time.Hour
		if old == (statErr == nil) {
			t.Errorf("session %s (last written %s ago): still in the store = %v", s.ID, time.Since(s.Newest).Round(time.Hour), statErr == nil)
		}
	}
	for _, sid := range []string{first.Outcome.SessionID, res.Outcome.SessionID} {
		if _, err := os.Stat(filepath.Join(gen.Dir, sid+".jsonl")); err != nil {
			t.Errorf("the real session %s was archived: %v", sid, err)
		}
	}
}

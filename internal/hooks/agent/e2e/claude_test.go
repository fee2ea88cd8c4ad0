package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/testkit/ccharness"
	"github.com/prosewash/prosewash/internal/testtool"
)

// These tests drive the real Claude Code CLI (offline, against the
// loopback mock in internal/testkit/ccharness) with hooks that "prosewash install
// --claude" wrote into the project, using a freshly built prosewash.

const e2eContent = "# Notes\n\nThe agent wrote this\u200b paragraph.\n\n```\nkeep\u200bcode\n```\n"
const e2eCleaned = "# Notes\n\nThe agent wrote this paragraph.\n\n```\nkeep\u200bcode\n```\n"

type e2e struct {
	t    *testing.T
	bin  string // prosewash
	cc   string // claude
	proj string
	env  []string
}

func newE2E(t *testing.T) *e2e {
	t.Helper()
	bin := testBin(t)
	cc := ccharness.RequireClaude(t)
	proj := ccharness.NewProject(t)
	return &e2e{t: t, bin: bin, cc: cc, proj: proj, env: []string{
		"PROSEWASH_STATE_DIR=" + t.TempDir(),
		"XDG_CONFIG_HOME=" + t.TempDir(),
		"NO_COLOR=1",
	}}
}

// prosewash runs the built binary in the project with the test's state.
func (x *e2e) prosewash(stdin string, args ...string) (string, string, error) {
	cmd := exec.Command(x.bin, args...)
	cmd.Dir = x.proj
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + x.t.TempDir()}, x.env...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	return out.String(), errb.String(), err
}

func (x *e2e) mustProsewash(args ...string) string {
	x.t.Helper()
	out, errs, err := x.prosewash("", args...)
	if err != nil {
		x.t.Fatalf("prosewash %s: %v\n%s", strings.Join(args, " "), err, errs)
	}
	return out
}

// approveOnTerminal answers the approval prompt on a pseudo-terminal, as a
// user in a shell would: the only way an approval can be given.
func (x *e2e) approveOnTerminal(m string) {
	x.t.Helper()
	script, err := exec.LookPath("script")
	if err != nil {
		testtool.Missing(x.t, "script", fmt.Sprintf("script (util-linux) not found: cannot give prosewash approve a terminal: %v", err))
	}
	cmd := exec.Command(script, "-qec", shellQuote(x.bin)+" approve --mode "+m, "/dev/null")
	cmd.Dir = x.proj
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + x.t.TempDir(), "TERM=dumb"}, x.env...)
	cmd.Stdin = strings.NewReader("y\n")
	out, err := cmd.CombinedOutput()
	if err != nil {
		x.t.Fatalf("prosewash approve on a terminal: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "approved for mode "+m) {
		x.t.Fatalf("prosewash approve did not approve:\n%s", out)
	}
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func (x *e2e) session() *ccharness.Result {
	x.t.Helper()
	res := ccharness.Run(x.t, ccharness.Options{
		Bin: x.cc, ProjectDir: x.proj, Env: x.env, ExtraPath: []string{filepath.Dir(x.bin)},
		Scenario: ccharness.Scenario{Steps: []ccharness.ToolCall{ccharness.Write("notes.md", e2eContent)}},
	})
	x.t.Logf("session took %s", res.Duration)
	if res.ExitCode != 0 || res.Err != nil || res.Outcome == nil {
		x.t.Fatalf("session failed: %s", res.Summary())
	}
	if res.Outcome.Subtype != "success" || res.Outcome.IsError || res.Outcome.SessionID == "" {
		x.t.Fatalf("outcome subtype=%q is_error=%v session=%q, want success: %s", res.Outcome.Subtype, res.Outcome.IsError, res.Outcome.SessionID, res.Summary())
	}
	return res
}

func (x *e2e) file() string {
	x.t.Helper()
	b, err := os.ReadFile(filepath.Join(x.proj, "notes.md"))
	if err != nil {
		x.t.Fatal(err)
	}
	return string(b)
}

type recordedOut struct {
	Session string `json:"session"`
	Files   []struct {
		Rel    string `json:"rel"`
		Status string `json:"status"`
		SHA256 string `json:"sha256"`
	} `json:"files"`
}

func (x *e2e) recorded(session string) recordedOut {
	x.t.Helper()
	var r recordedOut
	out := x.mustProsewash("recorded", "--session", session, "--json")
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		x.t.Fatalf("recorded --json: %v\n%s", err, out)
	}
	return r
}

func TestE2EManualModeRecordsAndLeavesTheFile(t *testing.T) {
	x := newE2E(t)
	x.mustProsewash("install", "--claude", "--mode", "manual")
	res := x.session()
	if got := x.file(); got != e2eContent {
		t.Errorf("manual mode: notes.md = %q, want the agent's bytes %q", got, e2eContent)
	}
	if n := len(res.RequestsOf(ccharness.KindStopContinuation)); n != 0 {
		t.Errorf("manual mode blocked the stop: %d continuation requests", n)
	}
	r := x.recorded(res.Outcome.SessionID)
	if len(r.Files) != 1 || r.Files[0].Rel != "notes.md" || r.Files[0].Status != "eligible" {
		t.Fatalf("recorded = %+v, want notes.md eligible", r)
	}
	// The session is also the most recent one.
	out, errs, err := x.prosewash("", "recorded")
	if err != nil || !strings.Contains(out, "notes.md") || !strings.Contains(errs, res.Outcome.SessionID) {
		t.Errorf("recorded (latest): %v\n%s%s", err, out, errs)
	}
}

func TestE2EAutomaticModeCleansAtStop(t *testing.T) {
	x := newE2E(t)
	x.mustProsewash("install", "--claude", "--mode", "manual")
	x.approveOnTerminal("automatic")
	res := x.session()
	if got := x.file(); got != e2eCleaned {
		t.Errorf("automatic mode: notes.md = %q, want %q (prose cleaned, code kept)", got, e2eCleaned)
	}
	if n := len(res.RequestsOf(ccharness.KindStopContinuation)); n != 0 {
		t.Errorf("automatic mode must not block the stop because it cleaned: %d continuation requests", n)
	}
	r := x.recorded(res.Outcome.SessionID)
	if len(r.Files) != 1 || r.Files[0].Status != "eligible" {
		t.Fatalf("recorded = %+v, want notes.md re-baselined (eligible)", r)
	}
}

func TestE2EConfirmModeAsksOnce(t *testing.T) {
	x := newE2E(t)
	x.mustProsewash("install", "--claude", "--mode", "manual")
	x.approveOnTerminal("confirm")
	res := x.session()
	if got := x.file(); got != e2eContent {
		t.Errorf("confirm mode changed notes.md: %q", got)
	}
	cont := res.RequestsOf(ccharness.KindStopContinuation)
	if len(cont) != 1 {
		t.Fatalf("continuation requests = %d, want exactly 1: %s", len(cont), res.Summary())
	}
	ask := "prosewash clean --session " + res.Outcome.SessionID
	if !cont[0].Mentions(ask) || !cont[0].Mentions("Ask the user") {
		t.Errorf("the continuation does not carry the ask %q", ask)
	}
}

// TestE2EPluginAndSettingsTogether loads the repository as a Claude Code
// plugin (hooks/hooks.json, prosewash found on PATH) while the project's
// settings also hold our hooks: every event fires twice, concurrently,
// and the session still records once per write and cleans exactly once.
func TestE2EPluginAndSettingsTogether(t *testing.T) {
	x := newE2E(t)
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		testtool.Missing(t, "go", fmt.Sprintf("go env GOMOD: %v", err))
	}
	pluginDir := filepath.Dir(strings.TrimSpace(string(out)))
	x.mustProsewash("install", "--claude", "--mode", "manual")
	x.approveOnTerminal("automatic")
	res := ccharness.Run(x.t, ccharness.Options{
		Bin: x.cc, ProjectDir: x.proj, Env: x.env,
		ExtraPath: []string{filepath.Dir(x.bin)},
		Args:      []string{"--plugin-dir", pluginDir},
		Scenario:  ccharness.Scenario{Steps: []ccharness.ToolCall{ccharness.Write("notes.md", e2eContent)}},
	})
	if res.ExitCode != 0 || res.Outcome == nil || res.Outcome.Subtype != "success" {
		t.Fatalf("session failed: %s", res.Summary())
	}
	if got := x.file(); got != e2eCleaned {
		t.Errorf("notes.md = %q, want %q", got, e2eCleaned)
	}
	if n := len(res.RequestsOf(ccharness.KindStopContinuation)); n != 0 {
		t.Errorf("%d continuation requests, want none", n)
	}
	r := x.recorded(res.Outcome.SessionID)
	if len(r.Files) != 1 || r.Files[0].Status != "eligible" {
		t.Fatalf("recorded = %+v", r)
	}
	// Both installs fired: the write was recorded twice.
	stateBase := strings.TrimPrefix(x.env[0], "PROSEWASH_STATE_DIR=")
	logs, _ := filepath.Glob(filepath.Join(stateBase, "*", "sessions", res.Outcome.SessionID+".log"))
	if len(logs) != 1 {
		t.Fatalf("session logs %v", logs)
	}
	b, _ := os.ReadFile(logs[0])
	if n := strings.Count(string(b), `"op":"record"`); n != 2 {
		t.Errorf("%d record lines, want 2 (plugin and settings hooks)", n)
	}
}

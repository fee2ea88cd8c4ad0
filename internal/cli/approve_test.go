//go:build unix

package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/engine/approval"
	"github.com/prosewash/prosewash/internal/testtool"
)

// callerEnv runs a command in-process with the environment and ancestry of
// the caller injected (the seam approve uses; real by default).
func callerEnv(c approval.Caller) (*env, *bytes.Buffer, *bytes.Buffer) {
	var out, errb bytes.Buffer
	return &env{stdin: strings.NewReader("y\ny\n"), stdout: &out, stderr: &errb, ui: newUI(&out, &errb, "never"), color: "never", caller: &c}, &out, &errb
}

// confirmProject makes an isolated git project in confirm mode and returns its root.
func confirmProject(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		testtool.Missing(t, "git", "git not found")
	}
	root := isolated(t)
	if out, err := exec.Command("git", "init", "-q", root).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	os.WriteFile(filepath.Join(root, ".prosewash.toml"), []byte("[clean]\nmode = \"confirm\"\n"), 0o644)
	return root
}

// approve and install --mode automatic refuse under any agent signal, and
// say so before they show anything an agent could copy; without signals
// and without a terminal they refuse for the terminal, as before.
func TestApproveRefusesAgents(t *testing.T) {
	root := confirmProject(t)
	callers := map[string]approval.Caller{
		"CLAUDECODE=1":    {Environ: []string{"CLAUDECODE=1"}},
		"codex shell":     {Environ: []string{"CODEX_THREAD_ID=0199", "CODEX_CI=1"}},
		"gemini shell":    {Environ: []string{"GEMINI_CLI=1"}},
		"copilot shell":   {Environ: []string{"COPILOT_CLI=1"}},
		"cursor terminal": {Environ: []string{"CURSOR_TRACE_ID=abc"}},
		"claude under script": {Ancestors: func() ([]approval.Process, error) {
			return []approval.Process{{PID: 9, Name: "script", Argv: []string{"script", "-qec", "prosewash approve", "/dev/null"}},
				{PID: 8, Name: "bash"}, {PID: 7, Name: "claude"}}, nil
		}},
		"python pty under codex": {Ancestors: func() ([]approval.Process, error) {
			return []approval.Process{{PID: 9, Name: "python3", Argv: []string{"python3", "-c", "import pty"}},
				{PID: 7, Name: "node", Argv: []string{"node", "/usr/lib/node_modules/@openai/codex/bin/codex.js"}}}, nil
		}},
	}
	for name, c := range callers {
		e, _, errb := callerEnv(c)
		if err := runApprove(e, []string{"--mode", "automatic"}); exitCode(err) != exitRefused {
			t.Errorf("%s: approve: %v", name, err)
		}
		if !strings.Contains(errb.String(), "an agent cannot approve itself") || !strings.Contains(errb.String(), "from a terminal outside the agent") ||
			strings.Contains(errb.String(), "the Stop hook would run") {
			t.Errorf("%s: approve said %q", name, errb.String())
		}
		e, _, errb = callerEnv(c)
		if err := runInstall(e, []string{"--claude", "--mode", "automatic"}); exitCode(err) != exitRefused || !strings.Contains(errb.String(), "an agent cannot approve itself") {
			t.Errorf("%s: install: %v %q", name, err, errb.String())
		}
		if _, err := os.Stat(filepath.Join(root, ".claude", "settings.json")); err == nil {
			t.Fatalf("%s: install wrote the hooks under an agent", name)
		}
	}
	matches, _ := filepath.Glob(filepath.Join(os.Getenv("PROSEWASH_STATE_DIR"), "*", "approval.json"))
	if len(matches) != 0 {
		t.Fatalf("an approval was stored: %v", matches)
	}
	// A person without a terminal: refused for the terminal, lines shown.
	e, _, errb := callerEnv(approval.Caller{})
	if err := runApprove(e, []string{"--mode", "automatic"}); exitCode(err) != exitRefused ||
		!strings.Contains(errb.String(), "approving needs a terminal") || !strings.Contains(errb.String(), "the Stop hook would run") {
		t.Fatalf("no terminal: %v %q", err, errb.String())
	}
	// Manual needs no approval and is never refused.
	e, _, _ = callerEnv(callers["CLAUDECODE=1"])
	if err := runApprove(e, []string{"--mode", "manual"}); err != nil {
		t.Fatalf("manual under an agent: %v", err)
	}
}

// Where the platform cannot show who started prosewash (Windows), approve and install --mode
// automatic refuse before they show anything, and store nothing: a guess from the environment
// alone would take an agent behind a pty for a person.
func TestApproveRefusesWhereTheCallerCannotBeSeen(t *testing.T) {
	root := confirmProject(t)
	blind := approval.Caller{Ancestors: func() ([]approval.Process, error) { return nil, approval.ErrNoAncestry }}
	e, _, errb := callerEnv(blind)
	if err := runApprove(e, []string{"--mode", "automatic"}); exitCode(err) != exitRefused ||
		!strings.Contains(errb.String(), "cannot be ruled out") || strings.Contains(errb.String(), "the Stop hook would run") {
		t.Errorf("approve: %v %q", err, errb.String())
	}
	e, _, errb = callerEnv(blind)
	if err := runInstall(e, []string{"--claude", "--mode", "automatic"}); exitCode(err) != exitRefused || !strings.Contains(errb.String(), "cannot be ruled out") {
		t.Errorf("install: %v %q", err, errb.String())
	}
	if _, err := os.Stat(filepath.Join(root, ".claude", "settings.json")); err == nil {
		t.Fatal("install wrote the hooks for a caller nobody can see")
	}
	if matches, _ := filepath.Glob(filepath.Join(os.Getenv("PROSEWASH_STATE_DIR"), "*", "approval.json")); len(matches) != 0 {
		t.Fatalf("an approval was stored: %v", matches)
	}
}

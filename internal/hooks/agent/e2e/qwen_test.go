package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/engine/wash/discover"
	"github.com/prosewash/prosewash/internal/testkit/agentharness"
	"github.com/prosewash/prosewash/internal/testkit/hooktest"
)

// These tests drive the real Qwen Code (pinned, from npm) headless and
// offline against a loopback mock of an OpenAI-compatible chat API, with
// the hooks "prosewash install --qwen" merged into .qwen/settings.json and
// a logger of every payload beside them in the same file.

type qwenE2E struct {
	*hooktest.E2E
	qwen string
	home string // the CLI's HOME (~/.qwen/settings.json picks the mock)
	mock *agentharness.Mock
	logs string
}

// qwenCall is one step of the mock's script in Qwen Code's tool ids and
// arguments (0.24.4): write a file whole, edit it, or run a shell command.
func qwenCall(proj, step, target, content string) agentharness.Call {
	path := filepath.Join(proj, target)
	switch step {
	case "read":
		return agentharness.Call{Tools: []agentharness.Tool{{Name: "read_file", Args: map[string]any{"file_path": path}}}}
	case "write":
		return agentharness.Call{Tools: []agentharness.Tool{{Name: "write_file", Args: map[string]any{"file_path": path, "content": content}}}}
	case "edit":
		return agentharness.Call{Tools: []agentharness.Tool{{Name: "edit", Args: map[string]any{"file_path": path, "old_string": "# Notes", "new_string": "# Notes\u200b edited"}}}}
	case "shell":
		return agentharness.Call{Tools: []agentharness.Tool{{Name: "run_shell_command", Args: map[string]any{
			"command": shellCommand, "is_background": false, "description": "write shell.md"}}}}
	}
	panic("no such step: " + step)
}

// newQwenE2E installs the hooks in mode m; before(proj, home) prepares the
// project and the CLI's home, script(proj) is the mock's.
func newQwenE2E(t *testing.T, m string, before func(proj, home string), script func(proj string) []agentharness.Call) *qwenE2E {
	t.Helper()
	x := &qwenE2E{E2E: hooktest.NewE2E(t)}
	x.qwen = agentharness.Qwen(t)
	x.home = agentharness.QwenHome(t)
	if before != nil {
		before(x.Proj, x.home)
	}
	var err error
	var calls []agentharness.Call
	if script != nil {
		calls = script(x.Proj)
	}
	if x.mock, err = agentharness.NewChatMock(calls...); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { x.mock.Close() })
	x.Prosewash("install", "--qwen", "--mode", "manual")
	if m != "manual" {
		x.Approve(m)
	}
	x.logs = t.TempDir()
	x.logPayloads("SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "InstructionsLoaded")
	return x
}

// logPayloads adds, to the settings install wrote, a hook per event that
// logs its payload.
func (x *qwenE2E) logPayloads(events ...string) {
	x.T.Helper()
	p := filepath.Join(x.Proj, ".qwen", "settings.json")
	b, err := os.ReadFile(p)
	if err != nil {
		x.T.Fatal(err)
	}
	var settings map[string]any
	if err := json.Unmarshal(b, &settings); err != nil {
		x.T.Fatalf("%s: %v", p, err)
	}
	hooks, _ := settings["hooks"].(map[string]any)
	for _, ev := range events {
		group := map[string]any{"hooks": []any{map[string]any{"type": "command", "command": logCommand(x.logs, ev), "timeout": 10}}}
		list, _ := hooks[ev].([]any)
		hooks[ev] = append(list, group)
	}
	if b, err = json.Marshal(settings); err == nil {
		err = os.WriteFile(p, b, 0o644)
	}
	if err != nil {
		x.T.Fatal(err)
	}
}

func (x *qwenE2E) session(trace bool, prompt string, args ...string) *agentharness.Session {
	x.T.Helper()
	s := agentharness.RunQwen(x.T, x.qwen, x.home, x.mock.URL(), prompt,
		agentharness.Options{Dir: x.Proj, Env: x.Env, Trace: trace, Args: args, ExtraPath: []string{filepath.Dir(x.Bin)}})
	x.T.Logf("qwen session took %s", s.Duration)
	if s.ExitCode != 0 {
		x.T.Fatalf("qwen failed: %s", s.Summary())
	}
	return s
}

// qwenSession is the session_id of the CLI's first session start.
func (x *qwenE2E) qwenSession() string {
	x.T.Helper()
	ps := logged(x.logs, "SessionStart")
	if len(ps) == 0 {
		x.T.Fatalf("no SessionStart payload was logged")
	}
	id, _ := ps[0]["session_id"].(string)
	return id
}

func TestE2EQwenManualRecordsAndLeaves(t *testing.T) {
	x := newQwenE2E(t, "manual", nil, func(proj string) []agentharness.Call {
		return []agentharness.Call{qwenCall(proj, "write", hooktest.E2EFile, hooktest.E2EContent)}
	})
	s := x.session(true, "Write hello.py.")
	if got := x.File(hooktest.E2EFile); got != hooktest.E2EContent {
		t.Errorf("manual mode: %q, want the agent's bytes", got)
	}
	if n := len(x.mock.Of(agentharness.KindContinuation)); n != 0 {
		t.Errorf("manual mode blocked the turn: %d continuations", n)
	}
	if id, files := recordedFiles(x.E2E); id == "" || id != x.qwenSession() || strings.Join(files, ",") != hooktest.E2EFile {
		t.Errorf("recorded %v under %q, Qwen's session is %q", files, id, x.qwenSession())
	}
	checkLoopbackOnly(t, s)
}

// Automatic mode cleans at Stop what write_file, edit and a shell redirect
// wrote; the next turn of the session (-c) tells the model which files
// changed under it.
func TestE2EQwenAutomaticCleansWriteEditAndShell(t *testing.T) {
	x := newQwenE2E(t, "automatic", nil, func(proj string) []agentharness.Call {
		return []agentharness.Call{qwenCall(proj, "write", "notes.md", notesMD), qwenCall(proj, "edit", "notes.md", ""), qwenCall(proj, "shell", "", "")}
	})
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
	id := x.qwenSession()
	before := len(x.mock.Requests())
	x.session(false, "Carry on.", "-c")
	if got := logged(x.logs, "SessionStart"); len(got) != 2 || got[1]["session_id"] != id {
		t.Fatalf("-c did not resume session %s: %v", id, got)
	}
	told := false
	for _, r := range x.mock.Requests()[before:] {
		told = told || (r.Mentions("prosewash removed invisible Unicode characters") && r.Mentions("notes.md") && r.Mentions("shell.md"))
	}
	if !told {
		t.Errorf("the continued session's model never heard that notes.md and shell.md were cleaned")
	}
}

// Confirm mode asks once: Stop blocks with the ask, the model's answer
// ends the turn again with stop_hook_active, and that stop is left alone.
func TestE2EQwenConfirmAsksOnce(t *testing.T) {
	x := newQwenE2E(t, "confirm", nil, func(proj string) []agentharness.Call {
		return []agentharness.Call{qwenCall(proj, "write", "notes.md", notesMD), qwenCall(proj, "edit", "notes.md", ""), qwenCall(proj, "shell", "", "")}
	})
	x.session(false, "Write notes.md.")
	if got := x.File("notes.md"); got != notesEdited {
		t.Errorf("confirm mode changed the file: %q", got)
	}
	if _, files := recordedFiles(x.E2E); strings.Join(files, ",") != "notes.md,shell.md" {
		t.Errorf("recorded %v, want notes.md and shell.md", files)
	}
	cont := x.mock.Of(agentharness.KindContinuation)
	if len(cont) != 1 {
		t.Fatalf("continuations = %d, want exactly 1", len(cont))
	}
	id := x.qwenSession()
	if !cont[0].Mentions("prosewash clean --session "+id) || !cont[0].Mentions("Ask the user") {
		t.Errorf("the continuation does not carry the ask for session %s", id)
	}
	stops := logged(x.logs, "Stop")
	if len(stops) != 2 || stops[0]["stop_hook_active"] != false || stops[1]["stop_hook_active"] != true {
		t.Errorf("Stop payloads %v, want two, the second with stop_hook_active", stops)
	}
	// QWEN_CAPTURE_DIR=DIR writes this session's payloads there, the run
	// directory as $RUN: how internal/hooks/agent/testdata/qwen-0.24.4 was made.
	if dir := os.Getenv("QWEN_CAPTURE_DIR"); dir != "" {
		capturePayloads(t, x.logs, dir, map[string]string{x.Proj: "$RUN/proj", x.home: "$RUN/home"},
			"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "InstructionsLoaded")
	}
}

// The memory lane's write guard under the real CLI: before write_file
// rewrites QWEN.md (dropping a version), PreToolUse banks the file as it
// was, and PostToolUse tells the model what the write dropped.
func TestE2EQwenGuardsQwenMD(t *testing.T) {
	const orig = "# Project\n\nDeploy with tool v1.4.2 and check the runbook before every release.\n"
	const rewrite = "# Project\n\nDeploy with the current tool and check the runbook before every release.\n"
	x := newQwenE2E(t, "manual", func(proj, _ string) {
		if err := os.WriteFile(filepath.Join(proj, "QWEN.md"), []byte(orig), 0o644); err != nil {
			t.Fatal(err)
		}
	}, func(proj string) []agentharness.Call {
		// Qwen's write_file refuses to overwrite a file the session has not read.
		return []agentharness.Call{qwenCall(proj, "read", "QWEN.md", ""), qwenCall(proj, "write", "QWEN.md", rewrite)}
	})
	s := x.session(false, "Update QWEN.md.")
	if len(logged(x.logs, "PreToolUse")) == 0 {
		t.Fatalf("no PreToolUse hook ran: %s", s.Summary())
	}
	out := x.Prosewash("wash", "bins")
	if !strings.Contains(out, "guard") || !strings.Contains(out, "QWEN.md") {
		t.Fatalf("no write-guard snapshot of QWEN.md in the bins:\n%s\n%s", out, s.Summary())
	}
	if x.File("QWEN.md") != rewrite {
		t.Fatalf("write_file did not rewrite QWEN.md: %s", s.Summary())
	}
	told := false
	for _, r := range x.mock.Requests() {
		told = told || (r.Mentions("FYI (not a block)") && r.Mentions("v1.4.2"))
	}
	if !told {
		t.Errorf("the model was not told that the write dropped v1.4.2")
	}
}

// What the memory lane takes Qwen Code to load is what the real CLI
// reports loading through InstructionsLoaded: the per-user QWEN.md, a
// QWEN.md one directory above the git root, the project's QWEN.md with
// its @import, AGENTS.md and .qwen/QWEN.local.md; not GEMINI.md, not a
// QWEN.md two directories up.
func TestE2EQwenLoadIsWhatDiscoverFinds(t *testing.T) {
	x := newQwenE2E(t, "manual", func(proj, home string) {
		for path, content := range map[string]string{
			filepath.Join(home, ".qwen", "QWEN.md"):                    "per-user\n",
			filepath.Join(filepath.Dir(proj), "QWEN.md"):               "one above the git root\n",
			filepath.Join(filepath.Dir(filepath.Dir(proj)), "QWEN.md"): "two above: not loaded\n",
			filepath.Join(proj, "QWEN.md"):                             "project, see @./docs/ctx.md\n",
			filepath.Join(proj, "docs", "ctx.md"):                      "imported\n",
			filepath.Join(proj, "AGENTS.md"):                           "agents\n",
			filepath.Join(proj, ".qwen", "QWEN.local.md"):              "mine\n",
			filepath.Join(proj, "GEMINI.md"):                           "Gemini's\n",
		} {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}, nil)
	x.session(false, "Hello.")
	var reported []string
	for _, p := range logged(x.logs, "InstructionsLoaded") {
		path, _ := p["file_path"].(string)
		// The CLI's own ~/.qwen/output-language.md (it writes it; it
		// reports every file under ~/.qwen as an extension's, the
		// per-user QWEN.md included) is no memory anyone wrote.
		if filepath.Base(path) == "output-language.md" {
			continue
		}
		if real, err := filepath.EvalSymlinks(path); err == nil {
			reported = append(reported, real)
		}
	}
	res, err := discover.Discover(discover.Options{Home: x.home, ProjectRoot: x.Proj, Platforms: []string{discover.Qwen}, Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	var found []string
	for _, e := range res.Entries {
		if e.AlwaysLoaded {
			found = append(found, e.Real)
		}
	}
	sort.Strings(reported)
	sort.Strings(found)
	if len(reported) != 6 || strings.Join(reported, "\n") != strings.Join(found, "\n") {
		t.Errorf("the CLI reported loading\n  %s\ndiscover finds\n  %s", strings.Join(reported, "\n  "), strings.Join(found, "\n  "))
	}
}
